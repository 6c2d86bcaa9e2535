// Rewriting helpers shared by the passes (kept apart from the passes, as the
// IR's algorithms are): a batched op remover that forwards tensors, and small
// constant utilities. Everything here is linear in the size of the graph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::passes {

/// Dense ids (0, 1, 2, ...) for names, in one flat open-addressing table whose
/// keys are copied into one arena: no allocation per name and one probe per
/// lookup. The passes' sets and maps over all tensor names use it instead of
/// node-based std:: containers of strings, whose per-node allocations and
/// pointer chasing made 100k-op graphs cost 2-3x more per op than 10k-op ones.
class NameIndex {
 public:
  static constexpr std::uint32_t kNone = ~0u;
  explicit NameIndex(std::size_t expected = 0);
  /// Id of `name`, added when new (ids are given in insertion order).
  std::uint32_t intern(std::string_view name);
  /// Id of `name`, or kNone.
  std::uint32_t find(std::string_view name) const;
  bool contains(std::string_view name) const { return find(name) != kNone; }
  std::size_t size() const { return keys_.size(); }

 private:
  // Open addressing in two arrays: a one-byte tag per slot (0 = free, else a marker
  // bit and 7 bits of the hash) and the id per slot. A probe reads tags first, so a
  // name that is absent (most lookups of GraphRewriter::commit's sweep over every op)
  // costs one read in an array of one byte per slot, which stays in the L2 cache for
  // 100k+ names, where a table of (hash, id, offset, length) slots did not. Where a
  // key lies is kept by id; ids follow insertion order, which follows the op order
  // the passes look names up in, so those reads walk forwards.
  struct Key {
    std::uint32_t offset = 0, length = 0, hash = 0;
  };
  static std::uint8_t tag_of(std::uint32_t hash) { return static_cast<std::uint8_t>(0x80u | (hash >> 25)); }
  bool same_key(std::uint32_t id, std::string_view name) const {
    return keys_[id].length == name.size() && std::string_view(arena_).substr(keys_[id].offset, keys_[id].length) == name;
  }
  void rehash(std::size_t slots);
  std::vector<std::uint8_t> tags_;
  std::vector<std::uint32_t> ids_;
  std::vector<Key> keys_;  // by id
  std::string arena_;
};

/// About how many distinct tensor names the ops of `g` mention (each op writes about
/// one; constants and inputs add some): the size to give a NameIndex over them. A table
/// sized for far more names is mostly empty memory that still has to be faulted in and
/// pushes the rest out of the cache; one sized too small grows (rehashes) as it fills.
std::size_t expected_names(const ir::Graph& g);

/// True when an op of `g` is of one of `kinds`: a sweep over the op list alone, which
/// lets a pass skip its indexes (and all its work) when the ops it rewrites are absent.
bool has_op_kind(const ir::Graph& g, std::initializer_list<ir::OpKind> kinds);

/// Producer and consumers of every tensor by op index, like ir::UseLists, over a
/// NameIndex with the consumer lists in one array (CSR).
class UseIndex {
 public:
  explicit UseIndex(const ir::Graph& g);
  /// The same for the results of ops whose kind satisfies `indexed` only: any other
  /// tensor has no producer and no consumers here. Every input name is still looked
  /// up, but in a table as small as those results (cache-resident), not one of every
  /// name: for passes that only ask about the results of a few op kinds.
  UseIndex(const ir::Graph& g, bool (*indexed)(ir::OpKind));
  /// Index of the op producing `tensor` (the first, if several), or -1.
  std::ptrdiff_t producer(std::string_view tensor) const;
  /// Indices of ops reading `tensor`, in op order, each op once.
  std::span<const std::size_t> consumers(std::string_view tensor) const;

 private:
  void build(const ir::Graph& g, bool (*indexed)(ir::OpKind));
  NameIndex names_;
  std::vector<std::ptrdiff_t> producer_;   // by name id
  std::vector<std::uint32_t> begin_;       // by name id: readers_[begin_[id], begin_[id + 1])
  std::vector<std::size_t> readers_;
};

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
  // Forwards: aliased_ gives each forwarded name an id; alias_from_[id] -> alias_to_[id]
  // (resolved). Deques: resolve() hands out references that later forwards keep valid.
  NameIndex aliased_;
  std::deque<std::string> alias_from_, alias_to_;
  std::unordered_map<std::string, std::string> rename_;  // producer's name -> graph output
  std::unordered_set<std::string> graph_inputs_, graph_outputs_;
  // Names of op outputs, built on first need (forwarding onto a graph output; rare).
  mutable std::optional<NameIndex> produced_;
  const NameIndex& produced() const;
  std::vector<std::string> touched_;  // tensors that may be unreferenced after commit
};

/// Walks single-reader chains for pattern fusions (FuseLayerNorm, FuseGelu).
class ChainMatcher {
 public:
  ChainMatcher(const ir::Graph& g, const UseIndex& uses, const GraphRewriter& rw);
  /// Index of the one op of `kind` reading `t` (once; not erased, not quantised), or
  /// -1; a graph output has no sole reader.
  std::ptrdiff_t sole_reader(const std::string& t, ir::OpKind kind) const;

 private:
  const ir::Graph& g_;
  const UseIndex& uses_;
  const GraphRewriter& rw_;
  std::unordered_set<std::string> outputs_;
};

/// The other input of a binary op one of whose two inputs is `t`; "" otherwise.
std::string other_input(const ir::Operation& op, const std::string& t);

/// The tensor if it is a constant, else nullptr.
const ir::Tensor* find_constant(const ir::Graph& g, const std::string& name);
/// The value of a scalar (one element) f32 constant without quantisation, or nullopt.
std::optional<float> scalar_f32(const ir::Graph& g, const std::string& name);
/// A runtime view of a constant (no copy).
runtime::Tensor constant_value(const ir::Tensor& t);
/// Stores a runtime tensor's bytes, dtype and shape into `t`, making it a constant.
void assign_constant(ir::Tensor& t, const runtime::Tensor& value);
/// Adds a constant named after `base` (made unique) and returns its name.
std::string add_constant(ir::Graph& g, const std::string& base, const runtime::Tensor& value);
/// `base`, or `base_1`, `base_2`, ... whichever is not a tensor of `g` yet.
std::string fresh_tensor_name(const ir::Graph& g, const std::string& base);
/// The name of an op fused from a pattern starting at op `anchor`:
/// "/layers.0/norm1/ReduceMean" -> "/layers.0/norm1/<op_type>", made unique among `names` (and added).
std::string fused_op_name(const std::string& anchor, const std::string& op_type,
                          std::unordered_set<std::string>& names);
/// Names of op outputs that are graph outputs.
std::unordered_set<std::string> graph_output_set(const ir::Graph& g);

}  // namespace ec::passes
