// File › Export: the window hands the exporter what it shows and holds
// (ExportController.h does the rest).
#include <QMenuBar>

#include "app/workbench/CompileRunner.h"
#include "app/workbench/ExportController.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/QuantRunner.h"
#include "widgets/GraphView.h"
#include "widgets/bench/BenchmarkPanel.h"

namespace ec::workbench {

void MainWindow::createExporter() {
  ExportController::Sources sources;
  // The graph shown: the loaded model, or its optimised, quantised or compiled form.
  sources.graph = [this] { return graphView_->graph() ? graphView_->graph() : graph_; };
  sources.modelPath = [this] { return graph_ ? currentPath_ : QString(); };
  sources.compileReport = [this]() -> ec::widgets::CompileReportPtr {
    return compileOutcome_ ? compileOutcome_->report : nullptr;
  };
  sources.quantReport = [this]() -> ec::widgets::QuantReportPtr {
    return quantOutcome_ ? quantOutcome_->report : nullptr;
  };
  sources.benchStats = [this]() -> ec::widgets::StatsPtr { return benchPanel_ ? benchPanel_->stats() : nullptr; };
  exporter_ = new ExportController(this, graphView_, messageBar_, settings_, std::move(sources));
  retranslated([this] { exporter_->retranslate(); });
  connect(this, &MainWindow::modelShown, exporter_, &ExportController::updateActions);
}

}  // namespace ec::workbench
