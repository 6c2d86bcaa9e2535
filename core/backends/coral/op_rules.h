// The Edge TPU's mapping rules: ONE table. Each row is one documented rule
// (or one we inferred, marked so) with its public source, the status string the
// real edgetpu_compiler prints when the rule fails, and a check over one unit.
// Sources are spelled out in the Edge TPU research notes and README.md.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/message.h"

namespace ec::backends::coral {

// The compiler's own status strings, verbatim (edgetpu.md §3).
inline constexpr std::string_view kMapped = "Mapped to Edge TPU";
inline constexpr std::string_view kNotSupported = "Operation not supported";
inline constexpr std::string_view kMoreThanOneSubgraph = "More than one subgraph is not supported";
inline constexpr std::string_view kUnsupportedDataType = "Operation is working on an unsupported data type";
inline constexpr std::string_view kUnsupportedRank = "Tensor has unsupported rank (up to 3 innermost dimensions mapped)";
inline constexpr std::string_view kUnspecified =
    "Operation is otherwise supported, but not mapped due to some unspecified limitation";

/// One op of the Edge TPU's supported-operation table (coral.ai models-intro).
struct SupportedOp {
  std::string_view tflite_op;   // CONV_2D, ...
  std::string_view since;       // compiler version that added it ("1.0" = in the 2019 table)
  std::string_view limitation;  // the documented limitation, verbatim or "none"
  std::string_view source;
};
std::span<const SupportedOp> supported_ops();
const SupportedOp* find_supported_op(std::string_view tflite_op);

/// The unit a rule looks at: its main op and, for a unit with a fused activation
/// the reader split off, that activation.
struct UnitView {
  const ir::Graph& graph;
  const ir::Operation& op;
  std::string tflite_op;
  bool has_fused_activation = false;  // a separate activation op belongs to this unit
};

/// A failed rule: the detail says what failed and what would make it map, as a
/// message id ("coral.rule.dilation") with its arguments beside the English text.
using RuleCheck = std::optional<Message> (*)(const UnitView& u);

struct Rule {
  std::string_view id;          // "conv.same_dilation"
  std::string_view applies_to;  // TFLite op, or "*" for every op
  std::string_view text;        // the rule
  std::string_view source;      // where it is documented
  std::string_view status;      // the compiler's status when it fails
  RuleCheck check;
};
/// Every rule, in the order they are checked (op table, dtype and shape rules, per-op limits, rank).
std::span<const Rule> rules();

struct RuleVerdict {
  bool mapped = false;
  std::string status, reason, rule;
  Message message;  // the failed rule's detail (reason without the "[rule ...]" suffix) as a message
};
/// Checks every rule on one unit (no segment rule: that is the partitioner's).
RuleVerdict check_unit(const UnitView& u);

}  // namespace ec::backends::coral
