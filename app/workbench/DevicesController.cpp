#include "app/workbench/DevicesController.h"

#include <memory>

#include "core/errors.h"
#include "core/flows/flows.h"
#include "widgets/devices/DevicesPanel.h"

namespace ec::workbench {

DevicesController::DevicesController(ec::widgets::DevicesPanel* panel, const QString& configPath, QObject* parent)
    : QObject(parent), panel_(panel), path_(configPath), jobs_(new JobRunner(QStringLiteral("discovery"), this)) {
  ec::devices::DevicesConfig config;
  QString error;
  try {
    config = ec::devices::load_devices_config(path_.toStdString());
  } catch (const ec::EdgeCompilerError& e) {
    error = QString::fromUtf8(e.what());
  }
  panel_->setConfig(path_, config, error);
  connect(panel_, &ec::widgets::DevicesPanel::refreshRequested, this, &DevicesController::refresh);
  connect(panel_, &ec::widgets::DevicesPanel::saveRequested, this, &DevicesController::save);
}

void DevicesController::refresh() {
  if (jobs_->isRunning()) return;
  using Found = std::shared_ptr<const ec::flows::DeviceList>;
  JobHandlers<Found> h;
  h.done = [this](const Found& found) {
    QStringList notes;
    for (const auto& n : found->found.notes) notes << QString::fromStdString(n);
    panel_->setDevices(found->found.devices, notes);
    emit discovered();
  };
  // the panel shows why the file cannot be read; discovery goes on without it
  jobs_->start<Found>([path = path_.toStdString()](const JobContext&) {
    return std::make_shared<const ec::flows::DeviceList>(ec::flows::list_devices(path, /*keep_going=*/true));
  }, std::move(h));
}

void DevicesController::save(const ec::devices::DevicesConfig& config) {
  try {
    ec::devices::save_devices_config(config, path_.toStdString());
  } catch (const ec::EdgeCompilerError& e) {
    panel_->showSaveFailed(QString::fromUtf8(e.what()));
    return;
  }
  panel_->showSaved(path_);
  emit saved(path_);
}

}  // namespace ec::workbench
