// MainWindow's optimisation part: Model › Optimize runs the default pass
// pipeline on a worker thread (PassRunner on a JobRunner); the report arrives on the
// GUI thread and fills the Passes panel, whose snapshots and changes the window
// shows in every view. Kept apart from MainWindow.cpp so the two grow separately.
#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QStatusBar>

#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/PassRunner.h"
#include "core/passes/pass_manager.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/OperationListModel.h"
#include "widgets/PassesPanel.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/SearchBar.h"

namespace ec::workbench {

void MainWindow::createPassesPanel() {
  passesPanel_ = new ec::widgets::PassesPanel(this);
  passesDock_ = addPanel(passesPanel_, tr("Passes"), QStringLiteral("passesDock"),
                         Qt::BottomDockWidgetArea);
  if (auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    tabifyDockWidget(logDock, passesDock_);
    logDock->raise();
  }
  retranslated([this] { passesDock_->setWindowTitle(tr("Passes")); });
  connect(passesPanel_, &ec::widgets::PassesPanel::snapshotRequested, this,
          &MainWindow::showSnapshot);
  connect(passesPanel_, &ec::widgets::PassesPanel::opActivated, this, &MainWindow::showOpNamed);

  passes_ = new JobRunner(QStringLiteral("PassRunner"), this);

  // A new model: the old report no longer applies, and a running optimisation is forgotten.
  connect(this, &MainWindow::modelShown, this, [this] {
    passes_->forget();
    passesPanel_->clear();
    if (optimizeAction_) optimizeAction_->setEnabled(true);
  });
}

void MainWindow::addModelMenu() {
  QMenu* model = menuBar()->addMenu(QString());
  optimizeAction_ = model->addAction(QString(), this, &MainWindow::optimize);
  optimizeAction_->setObjectName(QStringLiteral("optimizeAction"));
  optimizeAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
  retranslated([this, model] {
    model->setTitle(tr("&Model"));
    optimizeAction_->setText(tr("&Optimize (Default Pipeline)"));
    optimizeAction_->setStatusTip(
        tr("Run the default optimisation passes and show what each one changed"));
  });
  optimizeAction_->setEnabled(false);  // until a model is shown
  addCompileAction(model);
  addCompareAction(model);
}

bool MainWindow::isOptimizing() const { return passes_ && passes_->isRunning(); }

void MainWindow::optimize() {
  if (!graph_ || isOptimizing()) return;
  optimizeAction_->setEnabled(false);
  progress_->show();
  statusBar()->showMessage(tr("Optimizing…"));
  JobHandlers<std::shared_ptr<const ec::passes::PipelineReport>> h;
  h.done = [this](std::shared_ptr<const ec::passes::PipelineReport> report) { onOptimized(std::move(report)); };
  h.failed = [this](const QString& message) { onOptimizeFailed(message); };
  passes_->start<std::shared_ptr<const ec::passes::PipelineReport>>(
      [graph = graph_](const JobContext&) { return PassRunner::run(graph); }, std::move(h));
}

void MainWindow::onOptimized(std::shared_ptr<const ec::passes::PipelineReport> report) {
  optimizeAction_->setEnabled(true);
  if (!isLoading()) progress_->hide();
  const std::size_t before = report->ops_before, after = report->ops_after;
  const double ms = report->milliseconds;
  passesPanel_->setReport(std::move(report));  // shows the final graph (snapshotRequested)
  passesDock_->show();
  passesDock_->raise();
  resizeDocks({passesDock_}, {260}, Qt::Vertical);
  statusBar()->showMessage(tr("Optimized: %1 → %2 operations in %3 ms")
                               .arg(before)
                               .arg(after)
                               .arg(ms, 0, 'f', 2),
                           10000);
  emit optimized();
}

void MainWindow::onOptimizeFailed(const QString& message) {
  optimizeAction_->setEnabled(true);
  if (!isLoading()) progress_->hide();
  messageBar_->showError(message);
  statusBar()->showMessage(tr("Optimization failed"), 10000);
  emit optimizeFailed(message);
}

void MainWindow::setViewsGraph(const ec::ir::FrozenGraph& graph) {
  opsModel_->setGraph(graph);
  propertiesPanel_->setGraph(graph);
  searchBar_->setGraph(graph);
  graphView_->setGraph(graph);
}

void MainWindow::showSnapshot(int index) {
  const ec::ir::FrozenGraph snapshot = passesPanel_->snapshot(index);
  if (!snapshot) return;
  if (snapshot != graphView_->graph()) {
    // Keep the view where it was and the selected op selected, where the op still exists.
    const bool hadGraph = graphView_->graph() != nullptr;
    const double zoom = graphView_->zoom();
    const QPointF centre = graphView_->viewCenter();
    const int selected = graphView_->selectedOp();
    const std::string selectedName =
        selected >= 0 ? graphView_->graph()->ops[std::size_t(selected)].name : std::string();
    setViewsGraph(snapshot);
    if (hadGraph) {
      graphView_->setZoom(zoom);
      graphView_->centerOn(centre);
    }
    if (!selectedName.empty()) {
      for (std::size_t i = 0; i < snapshot->ops.size(); ++i) {
        if (snapshot->ops[i].name == selectedName) {
          showOp(int(i));
          break;
        }
      }
    }
  }
  graphView_->setOpHighlights(passesPanel_->highlightColors(), passesPanel_->highlightLegend());
}

void MainWindow::showOpNamed(const QString& name, int index) {
  if (passesPanel_->snapshot(index) != graphView_->graph()) showSnapshot(index);
  showOpByName(name);
}

void MainWindow::showOpByName(const QString& name) {
  const ec::ir::FrozenGraph& shown = graphView_->graph();
  if (!shown) return;
  const std::string wanted = name.toStdString();
  for (std::size_t i = 0; i < shown->ops.size(); ++i) {
    if (shown->ops[i].name == wanted) {
      showOp(int(i));
      return;
    }
  }
}

}  // namespace ec::workbench
