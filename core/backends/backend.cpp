#include "core/backends/backend.h"

#include "core/errors.h"
#include "core/passes/pass_registry.h"

namespace ec::backends {

const char* placement_cause_name(PlacementCause c) {
  switch (c) {
    case PlacementCause::Supported: return "supported";
    case PlacementCause::Unsupported: return "unsupported";
    case PlacementCause::AfterUnsupported: return "after_unsupported";
    case PlacementCause::LeadingQuantize: return "leading_quantize";
    case PlacementCause::Override: return "override";
  }
  return "?";
}

std::vector<std::string> Backend::pipeline() const { return passes::default_pipeline(); }

ResultText Backend::describe(const CompileResult& result) const {
  return {{}, {"Number of operations that will run on " + name() + ": " + std::to_string(result.partition.ops_on_target())}};
}

PartitionRow row_for_unit(const ir::Graph& graph, const std::vector<std::size_t>& unit) {
  PartitionRow r;
  r.op_index = unit.front();
  r.members = unit;
  r.name = graph.ops[unit.front()].name;
  r.op_type = graph.ops[unit.front()].op_type;
  return r;
}

int Partition::ops_on_target() const {
  int n = 0;
  for (const auto& r : rows) n += r.placement == Placement::Target;
  return n;
}

int Partition::ops_on_cpu() const { return static_cast<int>(rows.size()) - ops_on_target(); }

const PartitionRow* Partition::find(const std::string& op_name) const {
  for (const auto& r : rows)
    if (r.name == op_name) return &r;
  return nullptr;
}

std::unique_ptr<runtime::targets::TargetSession> Backend::open_session(const std::string& artefact, ir::FrozenGraph,
                                                                       int) const {
  throw BackendError(name(), artefact + ": this target runs no compiled artefact on a device");
}

}  // namespace ec::backends
