// DevicesBenchController.h: the devices, benchmark and run-history area.
#include "app/workbench/DevicesBenchController.h"

#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include "app/workbench/BenchController.h"
#include "app/workbench/DevicesController.h"
#include "app/workbench/MainWindow.h"
#include "core/devices/discovery.h"
#include "widgets/GraphView.h"
#include "widgets/bench/BenchmarkPanel.h"
#include "widgets/bench/RunHistoryPanel.h"
#include "widgets/devices/DevicesPanel.h"

namespace ec::workbench {

DevicesBenchController::DevicesBenchController(MainWindow& window) : QObject(&window), w_(window) {
  createDevicesPanel();
  createBenchPanels();
}

void DevicesBenchController::createDevicesPanel() {
  devicesPanel_ = new ec::widgets::DevicesPanel(&w_);
  devicesDock_ = w_.addPanel(devicesPanel_, tr("Devices"), QStringLiteral("devicesDock"), Qt::BottomDockWidgetArea);
  if (auto* logDock = w_.findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    w_.tabifyDockWidget(logDock, devicesDock_);  // wide and short: the list beside its editor
    logDock->raise();
  }
  w_.retranslated([this] { devicesDock_->setWindowTitle(tr("Devices")); });
  devices_ = new DevicesController(devicesPanel_, QString::fromStdString(ec::devices::devices_config_path()), this);
  connect(devices_, &DevicesController::discovered, &w_, &MainWindow::devicesDiscovered);
  connect(devices_, &DevicesController::saved, this,
          [this](const QString& path) { w_.statusBar()->showMessage(tr("Devices saved to %1").arg(path), 5000); });
  refreshDevices();
}

void DevicesBenchController::refreshDevices() { devices_->refresh(); }

void DevicesBenchController::createBenchPanels() {
  using ec::widgets::BenchmarkPanel;
  using ec::widgets::RunHistoryPanel;
  benchPanel_ = new BenchmarkPanel(&w_);
  new BenchController(benchPanel_, benchPanel_);
  // Below the graph with the other result panels: its charts and tables need the width
  // (in the right column its tabs would not fit).
  benchDock_ = w_.addPanel(benchPanel_, tr("Benchmark"), QStringLiteral("benchmarkDock"), Qt::BottomDockWidgetArea);
  historyPanel_ = new RunHistoryPanel(&w_);
  historyDock_ = w_.addPanel(historyPanel_, tr("Run History"), QStringLiteral("runHistoryDock"), Qt::BottomDockWidgetArea);
  if (auto* logDock = w_.findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    w_.tabifyDockWidget(logDock, benchDock_);
    w_.tabifyDockWidget(logDock, historyDock_);
    logDock->raise();
  }
  benchDock_->hide();
  w_.retranslated([this] {
    benchDock_->setWindowTitle(tr("Benchmark"));
    historyDock_->setWindowTitle(tr("Run History"));
  });
  // The history is read when its panel is first shown, not at start-up.
  connect(historyDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) historyPanel_->reload();
  });
  connect(&w_, &MainWindow::modelShown, this, [this](const QString& path) { benchPanel_->setModelPath(path); });
  connect(benchPanel_, &BenchmarkPanel::finished, this, [this](ec::widgets::StatsPtr stats, qint64 runId) {
    const ec::ir::FrozenGraph& shown = w_.views_.graphView->graph();
    if (stats && shown && !stats->op_profile.empty())
      w_.views_.graphView->setOpValues(ec::widgets::opTimeValues(*stats, *shown), tr("ms per op (benchmark), bright = slower"),
                              tr("not timed"));
    if (historyDock_->isVisible()) historyPanel_->reload();
    if (stats)
      w_.statusBar()->showMessage(tr("Benchmark: mean %1 ms, p99 %2 ms").arg(stats->mean_ms, 0, 'f', 3).arg(stats->p99_ms, 0, 'f', 3),
                             10000);
    emit w_.benchmarked(runId);
  });
  connect(benchPanel_, &BenchmarkPanel::failed, this,
          [this](const QString& message) {
            w_.statusBar()->showMessage(tr("Benchmark failed: %1").arg(message), 10000);
            emit w_.benchmarkFailed(message);
          });
}

void DevicesBenchController::benchmark(int iterations) {
  benchDock_->show();
  benchDock_->raise();
  benchPanel_->setIterations(iterations);
  if (!benchPanel_->start()) emit w_.benchmarkFailed(tr("Benchmark not started: no model is open or one is running"));
}

void DevicesBenchController::addActions(QMenu* tools) {
  QAction* bench = tools->addAction(QString(), this, [this] {
    benchDock_->show();
    benchDock_->raise();
    w_.resizeDocks({benchDock_}, {340}, Qt::Vertical);
  });
  bench->setObjectName(QStringLiteral("benchmarkAction"));
  QAction* history = tools->addAction(QString(), this, [this] {
    historyDock_->show();
    historyDock_->raise();
    w_.resizeDocks({historyDock_}, {300}, Qt::Vertical);
    historyPanel_->reload();
  });
  history->setObjectName(QStringLiteral("runHistoryAction"));
  w_.retranslated([bench, history] {
    bench->setText(tr("&Benchmark…"));
    bench->setStatusTip(tr("Time the open model: latency statistics, histogram and time per op"));
    history->setText(tr("Run &History"));
    history->setStatusTip(tr("Every recorded compile and benchmark; compare two runs"));
  });
}

}  // namespace ec::workbench
