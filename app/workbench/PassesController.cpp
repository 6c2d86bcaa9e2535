// PassesController.h: Model › Optimize and the Passes panel.
#include "app/workbench/PassesController.h"

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QProgressBar>
#include <QStatusBar>

#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/PassRunner.h"
#include "core/passes/pass_manager.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/PassesPanel.h"

namespace ec::workbench {

PassesController::PassesController(MainWindow& window) : QObject(&window), w_(window) {
  passesPanel_ = new ec::widgets::PassesPanel(&w_);
  passesDock_ = w_.addPanel(passesPanel_, tr("Passes"), QStringLiteral("passesDock"),
                         Qt::BottomDockWidgetArea);
  if (auto* logDock = w_.findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    w_.tabifyDockWidget(logDock, passesDock_);
    logDock->raise();
  }
  w_.retranslated([this] { passesDock_->setWindowTitle(tr("Passes")); });
  connect(passesPanel_, &ec::widgets::PassesPanel::snapshotRequested, this,
          &PassesController::showSnapshot);
  connect(passesPanel_, &ec::widgets::PassesPanel::opActivated, this, &PassesController::showOpNamed);

  passes_ = new JobRunner(QStringLiteral("PassRunner"), this);

  // A new model: the old report no longer applies, and a running optimisation is forgotten.
  connect(&w_, &MainWindow::modelShown, this, [this] {
    passes_->forget();
    passesPanel_->clear();
    if (optimizeAction_) optimizeAction_->setEnabled(true);
  });
}

void PassesController::addActions(QMenu* model) {
  optimizeAction_ = model->addAction(QString(), this, &PassesController::optimize);
  optimizeAction_->setObjectName(QStringLiteral("optimizeAction"));
  optimizeAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  w_.retranslated([this] {
    optimizeAction_->setText(tr("&Optimize (Default Pipeline)"));
    optimizeAction_->setStatusTip(
        tr("Run the default optimisation passes and show what each one changed"));
  });
  optimizeAction_->setEnabled(false);  // until a model is shown
}

bool PassesController::isOptimizing() const { return passes_ && passes_->isRunning(); }

void PassesController::optimize() {
  if (!w_.model_.graph || isOptimizing()) return;
  optimizeAction_->setEnabled(false);
  w_.model_.progress->show();
  w_.statusBar()->showMessage(tr("Optimizing…"));
  JobHandlers<std::shared_ptr<const ec::passes::PipelineReport>> h;
  h.done = [this](std::shared_ptr<const ec::passes::PipelineReport> report) { onOptimized(std::move(report)); };
  h.failed = [this](const QString& message) { onOptimizeFailed(message); };
  passes_->start<std::shared_ptr<const ec::passes::PipelineReport>>(
      [graph = w_.model_.graph](const JobContext&) { return PassRunner::run(graph); }, std::move(h));
}

void PassesController::onOptimized(std::shared_ptr<const ec::passes::PipelineReport> report) {
  optimizeAction_->setEnabled(true);
  if (!w_.isLoading()) w_.model_.progress->hide();
  const std::size_t before = report->ops_before, after = report->ops_after;
  const double ms = report->milliseconds;
  passesPanel_->setReport(std::move(report));  // shows the final graph (snapshotRequested)
  passesDock_->show();
  passesDock_->raise();
  w_.resizeDocks({passesDock_}, {260}, Qt::Vertical);
  w_.statusBar()->showMessage(tr("Optimized: %1 → %2 operations in %3 ms")
                               .arg(before)
                               .arg(after)
                               .arg(ms, 0, 'f', 2),
                           10000);
  emit w_.optimized();
}

void PassesController::onOptimizeFailed(const QString& message) {
  optimizeAction_->setEnabled(true);
  if (!w_.isLoading()) w_.model_.progress->hide();
  w_.views_.messageBar->showError(message);
  w_.statusBar()->showMessage(tr("Optimization failed"), 10000);
  emit w_.optimizeFailed(message);
}

void PassesController::showSnapshot(int index) {
  const ec::ir::FrozenGraph snapshot = passesPanel_->snapshot(index);
  if (!snapshot) return;
  if (snapshot != w_.views_.graphView->graph()) {
    // Keep the view where it was and the selected op selected, where the op still exists.
    const bool hadGraph = w_.views_.graphView->graph() != nullptr;
    const double zoom = w_.views_.graphView->zoom();
    const QPointF centre = w_.views_.graphView->viewCenter();
    const int selected = w_.views_.graphView->selectedOp();
    const std::string selectedName =
        selected >= 0 ? w_.views_.graphView->graph()->ops[std::size_t(selected)].name : std::string();
    w_.setViewsGraph(snapshot);
    if (hadGraph) {
      w_.views_.graphView->setZoom(zoom);
      w_.views_.graphView->centerOn(centre);
    }
    if (!selectedName.empty()) {
      for (std::size_t i = 0; i < snapshot->ops.size(); ++i) {
        if (snapshot->ops[i].name == selectedName) {
          w_.showOp(int(i));
          break;
        }
      }
    }
  }
  w_.views_.graphView->setOpHighlights(passesPanel_->highlightColors(), passesPanel_->highlightLegend());
}

void PassesController::showOpNamed(const QString& name, int index) {
  if (passesPanel_->snapshot(index) != w_.views_.graphView->graph()) showSnapshot(index);
  w_.showOpByName(name);
}

}  // namespace ec::workbench
