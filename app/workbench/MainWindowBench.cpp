// MainWindow's benchmark part (issue 16): the Benchmark panel (its BenchController
// runs the bench flow on a worker, with progress and Cancel, and records the run; the
// panel charts the Stats) and the Run History panel (the runs every compile and
// bench recorded; two compared side by side). A finished benchmark colours the
// graph by each op's mean time, as quantisation colours it by SQNR.
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include "app/workbench/BenchController.h"
#include "app/workbench/MainWindow.h"
#include "widgets/GraphView.h"
#include "widgets/bench/BenchmarkPanel.h"
#include "widgets/bench/RunHistoryPanel.h"

namespace ec::workbench {

void MainWindow::createBenchPanels() {
  using ec::widgets::BenchmarkPanel;
  using ec::widgets::RunHistoryPanel;
  benchPanel_ = new BenchmarkPanel(this);
  new BenchController(benchPanel_, benchPanel_);
  // Below the graph with the other result panels: its charts and tables need the width
  // (in the right column its tabs would not fit).
  benchDock_ = addPanel(benchPanel_, tr("Benchmark"), QStringLiteral("benchmarkDock"), Qt::BottomDockWidgetArea);
  historyPanel_ = new RunHistoryPanel(this);
  historyDock_ = addPanel(historyPanel_, tr("Run History"), QStringLiteral("runHistoryDock"), Qt::BottomDockWidgetArea);
  if (auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    tabifyDockWidget(logDock, benchDock_);
    tabifyDockWidget(logDock, historyDock_);
    logDock->raise();
  }
  benchDock_->hide();
  retranslated([this] {
    benchDock_->setWindowTitle(tr("Benchmark"));
    historyDock_->setWindowTitle(tr("Run History"));
  });
  // The history is read when its panel is first shown, not at start-up.
  connect(historyDock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
    if (visible) historyPanel_->reload();
  });
  connect(this, &MainWindow::modelShown, this, [this](const QString& path) { benchPanel_->setModelPath(path); });
  connect(benchPanel_, &BenchmarkPanel::finished, this, [this](ec::widgets::StatsPtr stats, qint64 runId) {
    const ec::ir::FrozenGraph& shown = graphView_->graph();
    if (stats && shown && !stats->op_profile.empty())
      graphView_->setOpValues(ec::widgets::opTimeValues(*stats, *shown), tr("ms per op (benchmark), bright = slower"),
                              tr("not timed"));
    if (historyDock_->isVisible()) historyPanel_->reload();
    if (stats)
      statusBar()->showMessage(tr("Benchmark: mean %1 ms, p99 %2 ms").arg(stats->mean_ms, 0, 'f', 3).arg(stats->p99_ms, 0, 'f', 3),
                             10000);
    emit benchmarked(runId);
  });
  connect(benchPanel_, &BenchmarkPanel::failed, this,
          [this](const QString& message) {
            statusBar()->showMessage(tr("Benchmark failed: %1").arg(message), 10000);
            emit benchmarkFailed(message);
          });
}

void MainWindow::benchmark(int iterations) {
  benchDock_->show();
  benchDock_->raise();
  benchPanel_->setIterations(iterations);
  if (!benchPanel_->start()) emit benchmarkFailed(tr("Benchmark not started: no model is open or one is running"));
}

void MainWindow::addBenchActions(QMenu* tools) {
  QAction* bench = tools->addAction(QString(), this, [this] {
    benchDock_->show();
    benchDock_->raise();
    resizeDocks({benchDock_}, {340}, Qt::Vertical);
  });
  bench->setObjectName(QStringLiteral("benchmarkAction"));
  QAction* history = tools->addAction(QString(), this, [this] {
    historyDock_->show();
    historyDock_->raise();
    resizeDocks({historyDock_}, {300}, Qt::Vertical);
    historyPanel_->reload();
  });
  history->setObjectName(QStringLiteral("runHistoryAction"));
  retranslated([bench, history] {
    bench->setText(tr("&Benchmark…"));
    bench->setStatusTip(tr("Time the open model: latency statistics, histogram and time per op"));
    history->setText(tr("Run &History"));
    history->setStatusTip(tr("Every recorded compile and benchmark; compare two runs"));
  });
}

}  // namespace ec::workbench
