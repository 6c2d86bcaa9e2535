#include "app/workbench/PassRunner.h"

#include <exception>

#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/passes/pass_registry.h"

namespace ec::workbench {

PassRunner::PassRunner(QObject* parent) : QObject(parent) { ec::widgets::registerCoreMetaTypes(); }

void PassRunner::run(quint64 requestId, ec::ir::FrozenGraph graph) {
  if (!graph) {
    emit failed(requestId, tr("No model is loaded."));
    return;
  }
  QString error;
  try {
    ec::ir::Graph g = *graph;  // the views keep the frozen original
    ec::passes::PassManagerOptions options;
    options.keep_snapshots = true;
    ec::passes::PassManager manager =
        ec::passes::make_pipeline(ec::passes::default_pipeline(), options);
    auto report = std::make_shared<const ec::passes::PipelineReport>(manager.run(g));
    spdlog::info("optimised {}: {} -> {} ops in {:.2f} ms", graph->name, report->ops_before,
                 report->ops_after, report->milliseconds);
    emit finished(requestId, std::move(report));
    return;
  } catch (const ec::EdgeCompilerError& e) {
    error = QString::fromStdString(e.what());
    if (!e.detail().empty()) spdlog::debug("{}", e.detail());
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("unknown error while optimising the model");
  }
  spdlog::error("{}", error.toStdString());
  emit failed(requestId, error);
}

}  // namespace ec::workbench
