// MainWindow's quantisation part: Tools › Quantise… (and the panel's
// Re-quantise button) run the quantiser on a worker thread (QuantRunner on a
// JobRunner) with the Quantisation panel's calibration data and keep-float marks;
// progress and the outcome (an immutable quantised graph + QuantReport) arrive on
// the GUI thread. The graph view then shows the float graph coloured by each
// op's output SQNR, or the quantised graph, and one selection is shared by the
// graph, the properties panel and every view of the Quantisation panel.
// Kept apart from MainWindow.cpp so the two grow separately.
#include <QAction>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>

#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/QuantRunner.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/PassesPanel.h"
#include "widgets/quant/QuantPanel.h"

namespace ec::workbench {
namespace {
const QString kQuantizeActionName = QStringLiteral("quantizeAction");
}  // namespace

bool MainWindow::isQuantizing() const { return quant_ && quant_->isRunning(); }

void MainWindow::createQuantPanel() {
  using ec::widgets::QuantPanel;
  quantPanel_ = new QuantPanel(this);
  quantDock_ = addPanel(quantPanel_, tr("Quantisation"), QStringLiteral("quantDock"),
                        Qt::BottomDockWidgetArea);
  if (auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    tabifyDockWidget(logDock, quantDock_);
    logDock->raise();
  }
  quant_ = new JobRunner(QStringLiteral("QuantRunner"), this);

  connect(quantPanel_, &QuantPanel::requantizeRequested, this, &MainWindow::quantize);
  connect(quantPanel_, &QuantPanel::cancelRequested, this, [this] { quant_->cancel(); });
  connect(quantPanel_, &QuantPanel::graphModeChanged, this, [this] { showQuantOutcome(); });
  connect(quantPanel_, &QuantPanel::retranslated, this, [this] {
    quantDock_->setWindowTitle(tr("Quantisation"));
    if (auto* action = findChild<QAction*>(kQuantizeActionName)) {
      action->setText(tr("&Quantise…"));
      action->setStatusTip(tr("Quantise the model to int8 and show where it loses accuracy"));
    }
    if (auto* tools = menuBar()->findChild<QMenu*>(QStringLiteral("toolsMenu"))) {
      tools->setTitle(tr("&Tools"));
    }
  });

  // One selection: a layer picked in the panel is selected in the graph and the
  // properties; an op selected anywhere (graph, search, operations list) is
  // highlighted in the panel.
  connect(quantPanel_, &QuantPanel::opActivated, this, &MainWindow::showOpByName);
  connect(graphView_, &ec::widgets::GraphView::opSelected, this, [this](int op) {
    const ec::ir::FrozenGraph& shown = graphView_->graph();
    if (!shown || op < 0 || op >= int(shown->ops.size())) return;
    quantPanel_->selectOp(QString::fromStdString(shown->ops[std::size_t(op)].name));
  });

  // A new model: the old report no longer applies, a running quantisation is forgotten.
  connect(this, &MainWindow::modelShown, this, [this] {
    quant_->forget();
    quantOutcome_.reset();
    quantPanel_->setRunning(false);
    quantPanel_->setStatus({});
    quantPanel_->clear();
  });
}

void MainWindow::addToolsMenu() {
  // Other tools may share the menu: create it once.
  QMenu* tools = menuBar()->findChild<QMenu*>(QStringLiteral("toolsMenu"));
  if (!tools) {
    tools = menuBar()->addMenu(tr("&Tools"));
    tools->setObjectName(QStringLiteral("toolsMenu"));
  }
  QAction* action = tools->addAction(tr("&Quantise…"), this, [this] {
    quantDock_->show();
    quantDock_->raise();
    quantize();
  });
  action->setObjectName(kQuantizeActionName);
  action->setStatusTip(tr("Quantise the model to int8 and show where it loses accuracy"));
  addBenchActions(tools);
}

void MainWindow::quantize() {
  if (!graph_ || isQuantizing()) return;
  QuantJob job;
  // The graph the optimisation ended with, when the model was optimised.
  const int snapshots = passesPanel_ ? passesPanel_->snapshotCount() : 0;
  job.graph = snapshots > 0 ? passesPanel_->snapshot(snapshots - 1) : graph_;
  if (!job.graph) job.graph = graph_;
  job.options = quantPanel_->options();
  job.calibrationFile = quantPanel_->calibrationFile();
  job.randomSamples = ec::widgets::QuantPanel::kRandomSamples;
  quantPanel_->setRunning(true);
  using ec::widgets::QuantPanel;
  JobHandlers<QuantOutcomePtr> h;
  h.progress = [this](const QString& stage, int done, int total) { quantPanel_->setProgress(stage, done, total); };
  h.done = [this](QuantOutcomePtr outcome) {
    quantOutcome_ = outcome;
    quantPanel_->setRunning(false);
    quantPanel_->setStatus(tr("Calibrated on %1").arg(outcome->calibrationSource));
    quantPanel_->setReport(outcome->report, outcome->floatGraph);
    showQuantOutcome();
    quantDock_->show();
    quantDock_->raise();
    resizeDocks({quantDock_}, {340}, Qt::Vertical);
    statusBar()->showMessage(tr("Quantised: %n layer(s) in int8", nullptr, int(outcome->report->layers.size())), 10000);
    emit quantized();
  };
  h.failed = [this](const QString& message) {
    quantPanel_->setRunning(false);
    quantPanel_->setStatus(tr("Quantisation failed: %1").arg(message));
    messageBar_->showError(message);
    statusBar()->showMessage(tr("Quantisation failed"), 10000);
    emit quantizeFailed(message);
  };
  h.cancelled = [this] {
    quantPanel_->setRunning(false);
    quantPanel_->setStatus(tr("Cancelled"));
    statusBar()->showMessage(tr("Quantisation cancelled"), 5000);
  };
  quant_->start<QuantOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return QuantRunner::run(job, ctx); },
                                 std::move(h));
  statusBar()->showMessage(tr("Quantising…"));
}

void MainWindow::showQuantOutcome() {
  const QuantOutcomePtr& outcome = quantOutcome_;
  if (!outcome || !outcome->report) return;
  const bool quantised =
      quantPanel_->graphMode() == ec::widgets::QuantPanel::GraphMode::Quantised;
  const ec::ir::FrozenGraph& graph = quantised ? outcome->quantisedGraph : outcome->floatGraph;
  if (!graph) return;
  if (graphView_->graph() != graph) {
    // Keep the selected op selected where it still exists.
    const int selected = graphView_->selectedOp();
    const std::string selectedName =
        selected >= 0 && graphView_->graph() ? graphView_->graph()->ops[std::size_t(selected)].name
                                             : std::string();
    setViewsGraph(graph);
    for (std::size_t i = 0; !selectedName.empty() && i < graph->ops.size(); ++i) {
      if (graph->ops[i].name == selectedName) {
        showOp(int(i));
        break;
      }
    }
  }
  graphView_->setOpHighlights({});
  graphView_->setOpValues(ec::widgets::opSqnrValues(*outcome->report, *graph),
                          tr("output SQNR (dB), dark = worse"), tr("float (not quantised)"));
}

}  // namespace ec::workbench
