#include "core/backends/backend.h"

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

}  // namespace ec::backends
