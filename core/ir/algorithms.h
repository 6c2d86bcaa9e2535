// Reusable graph algorithms, kept apart from the passes that use them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"

namespace ec::ir {

/// Producer and consumers of every tensor, by op index into Graph::ops.
class UseLists {
 public:
  explicit UseLists(const Graph& g);
  /// Index of the op producing `tensor`, or -1 (graph input, constant, undefined).
  std::ptrdiff_t producer(const std::string& tensor) const;
  /// Indices of ops reading `tensor`, in op order, each op once.
  const std::vector<std::size_t>& consumers(const std::string& tensor) const;
  /// Tensors with more than one producer (SSA violations), sorted.
  const std::vector<std::string>& multiply_defined() const { return multiply_defined_; }

 private:
  std::unordered_map<std::string, std::ptrdiff_t> producer_;
  std::unordered_map<std::string, std::vector<std::size_t>> consumers_;
  std::vector<std::string> multiply_defined_;
};

/// Reorders g.ops topologically (stable: keeps the existing order where it is
/// already valid). Throws GraphError naming an op on the cycle if there is one.
void topological_sort(Graph& g);

/// True when every op's inputs are defined before it.
bool is_topologically_sorted(const Graph& g);

/// The values of an int32 or int64 constant (shapes, axes, paddings), widened to
/// int64; nullopt for a non-constant or another dtype.
std::optional<std::vector<std::int64_t>> constant_ints(const Tensor& t);

/// Claims a name not in `used`: `base` ("t" when empty), else `base_1`, `base_2`, ...
/// (an importer's SSA names). Inserts it into `used` and returns it.
std::string claim_unique_name(std::set<std::string>& used, const std::string& base);

/// Erases the tensors that are no graph input or output and that no op reads or
/// writes (an importer's leftovers: unused intermediates, superseded names), so
/// the graph validates. Returns how many it erased.
std::size_t drop_unused_tensors(Graph& g);

/// The name scope of an op: its name up to the last '/' ("/features/0/Conv" ->
/// "/features/0"; PyTorch names ops after the modules that made them), "" for a
/// name without one ("Conv_0").
std::string name_scope(const std::string& op_name);

}  // namespace ec::ir
