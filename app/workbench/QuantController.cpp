// QuantController.h: the quantisation area.
// Tools › Quantise… (and the panel's
// Re-quantise button) run the quantiser on a worker thread (QuantRunner on a
// JobRunner) with the Quantisation panel's calibration data and keep-float marks;
// progress and the outcome (an immutable quantised graph + QuantReport) arrive on
// the GUI thread. The graph view then shows the float graph coloured by each
// op's output SQNR, or the quantised graph, and one selection is shared by the
// graph, the properties panel and every view of the Quantisation panel.
#include "app/workbench/QuantController.h"

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
#include "widgets/quant/QuantPanel.h"

namespace ec::workbench {
namespace {
const QString kQuantizeActionName = QStringLiteral("quantizeAction");
}  // namespace

bool QuantController::isQuantizing() const { return quant_ && quant_->isRunning(); }

QuantController::QuantController(MainWindow& window) : QObject(&window), w_(window) {
  using ec::widgets::QuantPanel;
  quantPanel_ = new QuantPanel(&w_);
  quantDock_ = w_.addPanel(quantPanel_, tr("Quantisation"), QStringLiteral("quantDock"),
                        Qt::BottomDockWidgetArea);
  if (auto* logDock = w_.findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    w_.tabifyDockWidget(logDock, quantDock_);
    logDock->raise();
  }
  quant_ = new JobRunner(QStringLiteral("QuantRunner"), this);

  connect(quantPanel_, &QuantPanel::requantizeRequested, this, &QuantController::quantize);
  connect(quantPanel_, &QuantPanel::cancelRequested, this, [this] { quant_->cancel(); });
  connect(quantPanel_, &QuantPanel::graphModeChanged, this, [this] { showQuantOutcome(); });
  connect(quantPanel_, &QuantPanel::retranslated, this, [this] {
    quantDock_->setWindowTitle(tr("Quantisation"));
    if (auto* action = w_.findChild<QAction*>(kQuantizeActionName)) {
      action->setText(tr("&Quantise…"));
      action->setStatusTip(tr("Quantise the model to int8 and show where it loses accuracy"));
    }
    if (auto* tools = w_.menuBar()->findChild<QMenu*>(QStringLiteral("toolsMenu"))) {
      tools->setTitle(tr("&Tools"));
    }
  });

  // One selection: a layer picked in the panel is selected in the graph and the
  // properties; an op selected anywhere (graph, search, operations list) is
  // highlighted in the panel.
  connect(quantPanel_, &QuantPanel::opActivated, &w_, &MainWindow::showOpByName);
  connect(w_.views_.graphView, &ec::widgets::GraphView::opSelected, this, [this](int op) {
    const ec::ir::FrozenGraph& shown = w_.views_.graphView->graph();
    if (!shown || op < 0 || op >= int(shown->ops.size())) return;
    quantPanel_->selectOp(QString::fromStdString(shown->ops[std::size_t(op)].name));
  });

  // A new model: the old report no longer applies, a running quantisation is forgotten.
  connect(&w_, &MainWindow::modelShown, this, [this] {
    quant_->forget();
    quantOutcome_.reset();
    quantPanel_->setRunning(false);
    quantPanel_->setStatus({});
    quantPanel_->clear();
  });
}

void QuantController::addActions(QMenu* tools) {
  QAction* action = tools->addAction(tr("&Quantise…"), this, [this] {
    quantDock_->show();
    quantDock_->raise();
    quantize();
  });
  action->setObjectName(kQuantizeActionName);
  action->setStatusTip(tr("Quantise the model to int8 and show where it loses accuracy"));
}

void QuantController::quantize() {
  if (!w_.model_.graph || isQuantizing()) return;
  QuantJob job;
  job.graph = w_.workingGraph();
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
    w_.resizeDocks({quantDock_}, {340}, Qt::Vertical);
    w_.statusBar()->showMessage(tr("Quantised: %n layer(s) in int8", nullptr, int(outcome->report->layers.size())), 10000);
    emit w_.quantized();
  };
  h.failed = [this](const QString& message) {
    quantPanel_->setRunning(false);
    quantPanel_->setStatus(tr("Quantisation failed: %1").arg(message));
    w_.views_.messageBar->showError(message);
    w_.statusBar()->showMessage(tr("Quantisation failed"), 10000);
    emit w_.quantizeFailed(message);
  };
  h.cancelled = [this] {
    quantPanel_->setRunning(false);
    quantPanel_->setStatus(tr("Cancelled"));
    w_.statusBar()->showMessage(tr("Quantisation cancelled"), 5000);
  };
  quant_->start<QuantOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return QuantRunner::run(job, ctx); },
                                 std::move(h));
  w_.statusBar()->showMessage(tr("Quantising…"));
}

void QuantController::showQuantOutcome() {
  const QuantOutcomePtr& outcome = quantOutcome_;
  if (!outcome || !outcome->report) return;
  const bool quantised =
      quantPanel_->graphMode() == ec::widgets::QuantPanel::GraphMode::Quantised;
  const ec::ir::FrozenGraph& graph = quantised ? outcome->quantisedGraph : outcome->floatGraph;
  if (!graph) return;
  if (w_.views_.graphView->graph() != graph) {
    // Keep the selected op selected where it still exists.
    const int selected = w_.views_.graphView->selectedOp();
    const std::string selectedName =
        selected >= 0 && w_.views_.graphView->graph() ? w_.views_.graphView->graph()->ops[std::size_t(selected)].name
                                             : std::string();
    w_.setViewsGraph(graph);
    for (std::size_t i = 0; !selectedName.empty() && i < graph->ops.size(); ++i) {
      if (graph->ops[i].name == selectedName) {
        w_.showOp(int(i));
        break;
      }
    }
  }
  w_.views_.graphView->setOpHighlights({});
  w_.views_.graphView->setOpValues(ec::widgets::opSqnrValues(*outcome->report, *graph),
                          tr("output SQNR (dB), dark = worse"), tr("float (not quantised)"));
}

}  // namespace ec::workbench
