// Serves the Devices panel (widgets/devices/DevicesPanel.h): reads the devices.json it
// edits and writes it when asked (core/devices/provider_config.h), and runs device
// discovery (flows::list_devices, as `edgecompile devices`) on a JobRunner, handing the
// panel the result as an immutable snapshot.
#pragma once

#include <functional>

#include <QObject>
#include <QString>

#include "app/workbench/JobRunner.h"
#include "core/devices/provider_config.h"

namespace ec::widgets {
class DevicesPanel;
}  // namespace ec::widgets

namespace ec::workbench {

class DevicesController : public QObject {
  Q_OBJECT

 public:
  /// Serves `panel` with the devices.json at `configPath` (read here, at once).
  DevicesController(ec::widgets::DevicesPanel* panel, const QString& configPath, QObject* parent = nullptr);

  const QString& configPath() const { return path_; }
  bool isDiscovering() const { return jobs_->isRunning(); }

 public slots:
  /// Discovers devices again (one discovery at a time: a request while one runs is dropped).
  void refresh();
  /// Writes `config` to the devices.json (atomically); the panel is told how it went.
  void save(const ec::devices::DevicesConfig& config);

 signals:
  /// Discovery finished and the panel shows its result.
  void discovered();
  void saved(const QString& path);

 private:
  ec::widgets::DevicesPanel* panel_;
  QString path_;
  JobRunner* jobs_;
};

}  // namespace ec::workbench
