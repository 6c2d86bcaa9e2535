// MainWindow's glue to its areas (the controllers it owns): the Model and Tools
// menus they fill, and the view helpers they share (show a graph, select an op, the
// graph quantise and compile start from).
#include <QAction>
#include <QMenu>
#include <QMenuBar>

#include "app/workbench/CompareController.h"
#include "app/workbench/CompileController.h"
#include "app/workbench/DevicesBenchController.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/PassesController.h"
#include "app/workbench/QuantController.h"
#include "widgets/GraphView.h"
#include "widgets/OperationListModel.h"
#include "widgets/PassesPanel.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/SearchBar.h"

namespace ec::workbench {

void MainWindow::addModelMenu() {
  QMenu* model = menuBar()->addMenu(QString());
  retranslated([model] { model->setTitle(tr("&Model")); });
  passes_->addActions(model);
  compile_->addActions(model);
  compare_->addActions(model);
}

void MainWindow::addToolsMenu() {
  // Other tools may share the menu: create it once.
  QMenu* tools = menuBar()->findChild<QMenu*>(QStringLiteral("toolsMenu"));
  if (!tools) {
    tools = menuBar()->addMenu(tr("&Tools"));
    tools->setObjectName(QStringLiteral("toolsMenu"));
  }
  quant_->addActions(tools);
  bench_->addActions(tools);
}

ec::ir::FrozenGraph MainWindow::workingGraph() const {
  const auto* panel = passes_->panel();
  const int snapshots = panel ? panel->snapshotCount() : 0;
  ec::ir::FrozenGraph g = snapshots > 0 ? panel->snapshot(snapshots - 1) : model_.graph;
  return g ? g : model_.graph;
}

void MainWindow::setViewsGraph(const ec::ir::FrozenGraph& graph) {
  views_.opsModel->setGraph(graph);
  views_.propertiesPanel->setGraph(graph);
  views_.searchBar->setGraph(graph);
  views_.graphView->setGraph(graph);
}

void MainWindow::showOpByName(const QString& name) {
  const ec::ir::FrozenGraph& shown = views_.graphView->graph();
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
