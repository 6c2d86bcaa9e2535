// MainWindow's devices part (issue 16): the Devices dock (widgets/devices) lists
// what core/devices discovers and edits the devices.json the CLI shares; its
// DevicesController runs discovery on a worker and reads and writes the file.
#include <QDockWidget>
#include <QStatusBar>

#include "app/workbench/DevicesController.h"
#include "app/workbench/MainWindow.h"
#include "core/devices/discovery.h"
#include "widgets/devices/DevicesPanel.h"

namespace ec::workbench {

void MainWindow::createDevicesPanel() {
  devicesPanel_ = new ec::widgets::DevicesPanel(this);
  devicesDock_ = addPanel(devicesPanel_, tr("Devices"), QStringLiteral("devicesDock"), Qt::BottomDockWidgetArea);
  if (auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    tabifyDockWidget(logDock, devicesDock_);  // wide and short: the list beside its editor
    logDock->raise();
  }
  retranslated([this] { devicesDock_->setWindowTitle(tr("Devices")); });
  devices_ = new DevicesController(devicesPanel_, QString::fromStdString(ec::devices::devices_config_path()), this);
  connect(devices_, &DevicesController::discovered, this, &MainWindow::devicesDiscovered);
  connect(devices_, &DevicesController::saved, this,
          [this](const QString& path) { statusBar()->showMessage(tr("Devices saved to %1").arg(path), 5000); });
  refreshDevices();
}

void MainWindow::refreshDevices() { devices_->refresh(); }

}  // namespace ec::workbench
