// The work of Model › Optimize, run on the window's passes JobRunner (JobRunner.h):
// the default pipeline on a mutable copy of the loaded (frozen) graph; the report
// keeps every pass's before/after graph as frozen snapshots for the Passes panel.
#pragma once

#include <memory>

#include "core/ir/graph.h"
#include "core/passes/pass_manager.h"

namespace ec::workbench {

struct PassRunner {
  /// Runs the default pipeline on a copy of `graph` (worker thread; throws the core's
  /// errors, e.g. a pass that left an invalid graph).
  static std::shared_ptr<const ec::passes::PipelineReport> run(const ec::ir::FrozenGraph& graph);
};

}  // namespace ec::workbench
