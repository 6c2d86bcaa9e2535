// The unified IR: a graph of operations over named tensors.
//
// Invariants (checked by validate()): SSA — every tensor has at most one
// producer; every op input is a graph input, a constant or another op's
// output; `ops` is in topological order; graph outputs are defined.
// A Graph is mutable during compilation; once handed to a backend or a view it
// is frozen by sharing it as `std::shared_ptr<const Graph>` (FrozenGraph).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/attribute.h"
#include "core/ir/op_table.h"
#include "core/ir/quantization.h"
#include "core/ir/tensor.h"
#include "core/ir/tensor_map.h"

namespace ec::ir {

struct Operation {
  std::string name;     // unique within the graph when non-empty (PyTorch: "/features/0/Conv")
  OpKind kind = OpKind::Unknown;
  std::string op_type;  // canonical name, or "domain::Type" of an op the IR does not know
  std::vector<std::string> inputs;   // tensor names; "" = optional input left out
  std::vector<std::string> outputs;  // tensor names; "" = optional output not produced
  std::map<std::string, Attribute> attributes;  // sorted: deterministic printing
  std::optional<QuantParams> quant;  // op-level quantisation (e.g. accumulator params)

  bool is_known() const { return kind != OpKind::Unknown; }
  const Attribute* attr(const std::string& key) const;
  std::int64_t attr_int(const std::string& key, std::int64_t fallback) const;
  std::vector<std::int64_t> attr_ints(const std::string& key) const;  // empty if absent
  std::string attr_string(const std::string& key, const std::string& fallback) const;
};

struct Graph {
  std::string name;
  std::int64_t version = 1;  // model version, as the source declares it
  std::vector<Operation> ops;                  // topologically ordered
  TensorMap tensors;                           // every tensor, by name (iterated in creation order)
  std::vector<std::string> inputs;             // runtime inputs (not constants)
  std::vector<std::string> outputs;
  std::map<std::string, std::string> metadata; // "source.format", "source.producer", ...

  Tensor* find_tensor(const std::string& n);
  const Tensor* find_tensor(const std::string& n) const;
  /// Adds or replaces a tensor and returns it.
  Tensor& add_tensor(Tensor t);
};

using FrozenGraph = std::shared_ptr<const Graph>;
inline FrozenGraph freeze(Graph g) { return std::make_shared<const Graph>(std::move(g)); }

}  // namespace ec::ir
