// The workbench's devices, benchmark and run-history area (issue 16): the Devices
// dock (served by DevicesController: discovery, devices.json), the Benchmark panel
// (served by BenchController: the bench and record flows) and the Run History panel.
// A finished benchmark colours the graph by each op's mean time, as quantisation
// colours it by SQNR. Owns the panels, their docks and their controllers.
#pragma once

#include <QObject>

class QDockWidget;
class QMenu;

namespace ec::widgets {
class BenchmarkPanel;
class DevicesPanel;
class RunHistoryPanel;
}  // namespace ec::widgets

namespace ec::workbench {

class DevicesController;
class MainWindow;

class DevicesBenchController : public QObject {
  Q_OBJECT

 public:
  explicit DevicesBenchController(MainWindow& window);

  ec::widgets::DevicesPanel* devicesPanel() const { return devicesPanel_; }
  ec::widgets::BenchmarkPanel* benchmarkPanel() const { return benchPanel_; }
  ec::widgets::RunHistoryPanel* runHistoryPanel() const { return historyPanel_; }
  QDockWidget* devicesDock() const { return devicesDock_; }
  QDockWidget* benchDock() const { return benchDock_; }
  QDockWidget* historyDock() const { return historyDock_; }
  /// Adds Tools › Benchmark… and Run History to `tools`.
  void addActions(QMenu* tools);
  /// MainWindow::benchmark, refreshDevices.
  void benchmark(int iterations);
  void refreshDevices();

 private:
  void createDevicesPanel();
  void createBenchPanels();

  MainWindow& w_;
  ec::widgets::DevicesPanel* devicesPanel_ = nullptr;
  QDockWidget* devicesDock_ = nullptr;
  DevicesController* devices_ = nullptr;
  ec::widgets::BenchmarkPanel* benchPanel_ = nullptr;
  ec::widgets::RunHistoryPanel* historyPanel_ = nullptr;
  QDockWidget* benchDock_ = nullptr;
  QDockWidget* historyDock_ = nullptr;
};

}  // namespace ec::workbench
