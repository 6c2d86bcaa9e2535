// The Devices panel: every device edgecompile knows (physical, configured remote,
// virtual) with availability and reasons, and the provider config editor of the
// selected device — provider type, host, port, user, key, remote dir, remote
// command, and per-component overrides (compiler, profiler, invoker) — saved to
// the devices.json the CLI reads (core/devices/provider_config.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <QWidget>

#include "core/devices/provider_config.h"
#include "widgets/devices/DeviceModels.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTabWidget;
class QTreeView;

namespace ec::widgets {

class DevicesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DevicesPanel(QWidget* parent = nullptr);

  /// The devices.json shown for editing: where it is, what it holds, and why it could
  /// not be read ("" = it could; otherwise saving is refused: the file is never overwritten).
  void setConfig(const QString& path, const ec::devices::DevicesConfig& config, const QString& readError = {});

  /// The discovered devices (an immutable snapshot from a worker) and discovery's notes.
  void setDevices(std::vector<ec::devices::HardwareDevice> devices, const QStringList& notes);
  DeviceListModel* model() const { return model_; }
  QTreeView* view() const { return view_; }
  /// Shows device `id` in the editor (keeps the edits of the one shown before).
  void selectDevice(const QString& id);
  QString selectedDevice() const { return current_; }
  /// Adds a device only the config knows (a remote board), selected for editing.
  void addRemoteDevice(const QString& id);
  /// Asks for the edited config to be written (saveRequested). True when it was: the
  /// handler answers with showSaved() or showSaveFailed() (message shown and emitted).
  bool save();
  const ec::devices::DevicesConfig& config() const { return config_; }
  const QString& configPath() const { return path_; }
  QPushButton* saveButton() const { return save_; }

  /// The editor's fields: component "" is the device's provider, else "compiler", "profiler", "invoker".
  struct Fields {
    QComboBox* type = nullptr;
    QLineEdit* host = nullptr;
    QLineEdit* port = nullptr;
    QLineEdit* user = nullptr;
    QLineEdit* key = nullptr;
    QLineEdit* remoteDir = nullptr;
    QLineEdit* remoteCommand = nullptr;
    std::vector<QLabel*> labels;
  };
  const Fields& fields(const std::string& component = {}) const { return fields_.at(component); }

 public slots:
  void showSaved(const QString& path);
  void showSaveFailed(const QString& message);

 signals:
  void refreshRequested();
  /// Save: write `config` to configPath(); refused before it is asked when the file could not be read.
  void saveRequested(const ec::devices::DevicesConfig& config);
  void configSaved(const QString& path);
  void configFailed(const QString& message);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  Fields makeFields(QWidget* page, bool inherit);
  void loadEditor();
  void storeEditor();
  void retranslate();

  QString path_;
  ec::devices::DevicesConfig config_;
  bool configBroken_ = false;  // the file did not parse: never overwrite it
  bool saved_ = false;
  QString current_;
  QStringList notes_;
  DeviceListModel* model_ = nullptr;
  QTreeView* view_ = nullptr;
  QLabel* notesLabel_ = nullptr;
  QLabel* editorTitle_ = nullptr;
  QLabel* status_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  std::map<std::string, Fields> fields_;
  QLineEdit* newId_ = nullptr;
  QPushButton* add_ = nullptr;
  QPushButton* refresh_ = nullptr;
  QPushButton* save_ = nullptr;
};

}  // namespace ec::widgets
