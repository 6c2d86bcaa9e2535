// Arithmetic cost of one op for one inference (batch 1): multiply-accumulates
// of the ops built on dot products, other floating-point operations of the
// rest. Used by the model summary (`edgecompile inspect`).
#pragma once

#include <cstdint>
#include <string>

#include "core/ir/graph.h"

namespace ec::ir {

struct OpCost {
  enum class Status { Estimated, ShapesUnknown, NoEstimator, Overflow };
  Status status = Status::Estimated;
  std::int64_t macs = 0;   // multiply-accumulates (Conv, Gemm, MatMul, recurrent gates, ...)
  std::int64_t flops = 0;  // other arithmetic, one per add/mul/compare/transcendental
  std::string reason;      // why not estimated (status != Estimated)
};

/// The cost of `op`. Named dynamic dims ("batch") count as 1; an anonymous
/// unknown dim ("?") means the shapes are unknown. Counts never overflow:
/// a count beyond int64 gives Status::Overflow.
OpCost estimate_cost(const ir::Graph& g, const ir::Operation& op);

/// Short label of a status for reports: "shapes unknown", "no estimator", "overflow".
const char* status_label(OpCost::Status s);

}  // namespace ec::ir
