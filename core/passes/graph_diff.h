// GraphDiff: what changed between two snapshots of a graph. Ops are matched
// deterministically: first by output tensor names (same op type), then by op
// name (same op type), then by structure (same op type and inputs), each in
// op order. Whatever is left is added or removed.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/ir/graph.h"

namespace ec::passes {

/// An op of one snapshot: where it is and what it reads and writes.
struct OpRef {
  std::size_t index = 0;  // into Graph::ops of that snapshot
  std::string name;
  std::string op_type;
  std::vector<std::string> inputs, outputs;
};

struct AttributeChange {
  std::string key;
  std::optional<ir::Attribute> before, after;  // nullopt = absent
};

/// A matched op whose attributes, inputs, outputs or kind differ.
struct OpChange {
  OpRef before, after;
  std::vector<AttributeChange> attributes;  // sorted by key
  bool inputs_changed = false, outputs_changed = false;
};

struct GraphDiff {
  std::vector<OpRef> added;      // in `after` op order
  std::vector<OpRef> removed;    // in `before` op order
  std::vector<OpChange> changed; // in `after` op order
  std::size_t unchanged = 0;
  std::vector<std::string> constants_added, constants_removed, constants_changed;  // sorted
  std::size_t ops_before = 0, ops_after = 0;

  bool empty() const {
    return added.empty() && removed.empty() && changed.empty() && constants_added.empty() &&
           constants_removed.empty() && constants_changed.empty();
  }
};

/// Diffs any two snapshots (e.g. the original and the final graph).
GraphDiff diff_graphs(const ir::Graph& before, const ir::Graph& after);

/// What diff_graphs reads of `g` — name, inputs, outputs, ops and the constant tensors
/// (not the activations) — as a graph that diffs exactly like `g`, at a fraction of the
/// cost of a full copy: the "before" a diff-recording PassManager keeps between passes.
ir::Graph diff_snapshot(const ir::Graph& g);

/// Attribute value as the IR text form writes it (tensors summarised).
std::string format_attribute(const ir::Attribute& a);

/// JSON of a diff (shape documented in docs/optimize-json.md).
nlohmann::json to_json(const GraphDiff& d);
nlohmann::json to_json(const ir::Attribute& a);

}  // namespace ec::passes
