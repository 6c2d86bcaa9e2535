// Rewriting helpers shared by the passes (kept apart from the passes, as the
// IR's algorithms are): a batched op remover that forwards tensors, and small
// constant utilities. Everything here is linear in the size of the graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::passes {

/// Collects op removals and tensor forwards during one sweep over a graph and
/// applies them at commit(). Readers of a forwarded tensor read its
/// replacement; when the forwarded tensor is a graph output, the replacement is
/// renamed at its producer instead, so graph output names never change.
class GraphRewriter {
 public:
  explicit GraphRewriter(ir::Graph& g);

  /// The name `t` resolves to after the forwards recorded so far.
  const std::string& resolve(const std::string& t) const;
  /// True when forward(from, to) would succeed.
  bool can_forward(const std::string& from, const std::string& to) const;
  /// Readers of `from` (an output of an op about to be erased) read `to`
  /// instead. Returns false and changes nothing when impossible (`from` is a
  /// graph output and `to` is a graph input, output or constant).
  bool forward(const std::string& from, const std::string& to);
  /// Marks op `index` (into Graph::ops as it was at construction) for removal.
  void erase(std::size_t index);
  bool erased(std::size_t index) const { return erased_[index]; }
  /// Drops `t` at commit() if nothing refers to it then (e.g. a replaced weight).
  void touch(const std::string& t) { touched_.push_back(t); }
  /// Applies everything; drops tensors the change left unreferenced. Returns
  /// the number of ops removed.
  std::size_t commit();

 private:
  ir::Graph& g_;
  std::vector<bool> erased_;
  std::unordered_map<std::string, std::string> alias_;   // from -> to (resolved)
  std::unordered_map<std::string, std::string> rename_;  // producer's name -> graph output
  std::unordered_set<std::string> graph_inputs_, graph_outputs_, produced_;
  std::vector<std::string> touched_;  // tensors that may be unreferenced after commit
};

/// The tensor if it is a constant, else nullptr.
const ir::Tensor* find_constant(const ir::Graph& g, const std::string& name);
/// A runtime view of a constant (no copy).
runtime::Tensor constant_value(const ir::Tensor& t);
/// Stores a runtime tensor's bytes, dtype and shape into `t`, making it a constant.
void assign_constant(ir::Tensor& t, const runtime::Tensor& value);
/// Adds a constant named after `base` (made unique) and returns its name.
std::string add_constant(ir::Graph& g, const std::string& base, const runtime::Tensor& value);
/// `base`, or `base_1`, `base_2`, ... whichever is not a tensor of `g` yet.
std::string fresh_tensor_name(const ir::Graph& g, const std::string& base);
/// Names of op outputs that are graph outputs.
std::unordered_set<std::string> graph_output_set(const ir::Graph& g);

}  // namespace ec::passes
