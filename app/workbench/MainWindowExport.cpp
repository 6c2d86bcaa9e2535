// File › Export: the window hands the exporter what it shows and holds
// (ExportController.h does the rest).
#include <QMenuBar>

#include "app/workbench/CompileController.h"
#include "app/workbench/CompileRunner.h"
#include "app/workbench/ExportController.h"
#include "app/workbench/MainWindow.h"
#include "app/workbench/QuantController.h"
#include "app/workbench/QuantRunner.h"
#include "app/workbench/DevicesBenchController.h"
#include "widgets/GraphView.h"
#include "widgets/bench/BenchmarkPanel.h"

namespace ec::workbench {

void MainWindow::createExporter() {
  ExportController::Sources sources;
  // The graph shown: the loaded model, or its optimised, quantised or compiled form.
  sources.graph = [this] { return views_.graphView->graph() ? views_.graphView->graph() : model_.graph; };
  sources.modelPath = [this] { return model_.graph ? model_.currentPath : QString(); };
  sources.compileReport = [this]() -> ec::widgets::CompileReportPtr {
    return compile_->outcome() ? compile_->outcome()->report : nullptr;
  };
  sources.quantReport = [this]() -> ec::widgets::QuantReportPtr {
    return quant_->outcome() ? quant_->outcome()->report : nullptr;
  };
  sources.benchStats = [this]() -> ec::widgets::StatsPtr { return bench_->benchmarkPanel()->stats(); };
  exporter_ = new ExportController(this, views_.graphView, views_.messageBar, settings_, std::move(sources));
  retranslated([this] { exporter_->retranslate(); });
  connect(this, &MainWindow::modelShown, exporter_, &ExportController::updateActions);
}

}  // namespace ec::workbench
