#include "app/workbench/PassRunner.h"

#include <spdlog/spdlog.h>

#include "core/passes/pass_registry.h"

namespace ec::workbench {

std::shared_ptr<const ec::passes::PipelineReport> PassRunner::run(const ec::ir::FrozenGraph& graph) {
  ec::ir::Graph g = *graph;  // the views keep the frozen original
  ec::passes::PassManagerOptions options;
  options.keep_snapshots = true;
  ec::passes::PassManager manager = ec::passes::make_pipeline(ec::passes::default_pipeline(), options);
  auto report = std::make_shared<const ec::passes::PipelineReport>(manager.run(g));
  spdlog::info("optimised {}: {} -> {} ops in {:.2f} ms", graph->name, report->ops_before, report->ops_after,
               report->milliseconds);
  return report;
}

}  // namespace ec::workbench
