// MainWindow's devices part (issue 16): the Devices dock (widgets/devices) lists
// what core/devices discovers — run on a worker thread, the result arriving as an
// immutable snapshot — and edits the devices.json the CLI shares.
#include <memory>

#include <QDockWidget>
#include <QStatusBar>
#include <QThread>

#include "app/workbench/MainWindow.h"
#include "core/devices/discovery.h"
#include "widgets/devices/DevicesPanel.h"

namespace ec::workbench {

/// Runs discovery on its own thread, one at a time; its destructor waits for it,
/// so the window never goes away under a running probe.
class DeviceDiscovery : public QObject {
 public:
  explicit DeviceDiscovery(QObject* parent) : QObject(parent) {}
  ~DeviceDiscovery() override {
    if (thread_) thread_->wait();
  }
  void run(const QString& configPath, std::function<void(std::shared_ptr<const ec::devices::Discovery>)> done) {
    if (thread_) return;
    auto result = std::make_shared<ec::devices::Discovery>();
    thread_ = QThread::create([result, path = configPath.toStdString()] {
      ec::devices::DevicesConfig config;
      try {
        config = ec::devices::load_devices_config(path);
      } catch (...) {
        // the panel shows why the file cannot be read; discovery goes on without it
      }
      *result = ec::devices::discover_devices({.include_virtual = true, .config = &config});
    });
    connect(thread_, &QThread::finished, this, [this, result, done = std::move(done)] {
      thread_->deleteLater();
      thread_ = nullptr;
      done(result);
    });
    thread_->start();
  }

 private:
  QThread* thread_ = nullptr;
};

void MainWindow::createDevicesPanel() {
  devicesPanel_ = new ec::widgets::DevicesPanel(QString::fromStdString(ec::devices::devices_config_path()), this);
  devicesDock_ = addPanel(devicesPanel_, tr("Devices"), QStringLiteral("devicesDock"), Qt::BottomDockWidgetArea);
  if (auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    tabifyDockWidget(logDock, devicesDock_);  // wide and short: the list beside its editor
    logDock->raise();
  }
  retranslated([this] { devicesDock_->setWindowTitle(tr("Devices")); });
  discovery_ = new DeviceDiscovery(this);
  connect(devicesPanel_, &ec::widgets::DevicesPanel::refreshRequested, this, &MainWindow::refreshDevices);
  connect(devicesPanel_, &ec::widgets::DevicesPanel::configSaved, this,
          [this](const QString& path) { statusBar()->showMessage(tr("Devices saved to %1").arg(path), 5000); });
  refreshDevices();
}

void MainWindow::refreshDevices() {
  discovery_->run(devicesPanel_->configPath(), [this](std::shared_ptr<const ec::devices::Discovery> found) {
    QStringList notes;
    for (const auto& n : found->notes) notes << QString::fromStdString(n);
    devicesPanel_->setDevices(found->devices, notes);
    emit devicesDiscovered();
  });
}

}  // namespace ec::workbench
