// Helpers the decompositions share (internal to core/passes/decompose/).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "core/ir/graph.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose::detail {

/// A float attribute (an int one read as float), or `fallback`.
inline double attr_double(const ir::Operation& op, const std::string& key, double fallback) {
  const ir::Attribute* a = op.attr(key);
  if (!a) return fallback;
  if (const auto* d = std::get_if<double>(a)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(a)) return static_cast<double>(*i);
  return fallback;
}

/// A float32 tensor without quantisation params.
inline bool is_float(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  return t && t->dtype == ir::DType::Float32 && !t->quant;
}

/// The static shape of a tensor, or nullopt.
inline std::optional<std::vector<std::int64_t>> static_shape(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  if (!t || !t->shape.rank_known || !t->shape.is_static()) return std::nullopt;
  return t->shape.sizes();
}

/// The base name of the ops made for `op`.
inline std::string base_of(const ir::Operation& op) { return op.name.empty() ? op.outputs[0] : op.name; }

/// Replaces g.ops[index] by the ops `b` made; their count.
inline std::size_t finish(ir::Graph& g, std::size_t index, OpBuilder& b) {
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

/// No rewrite, with the reason.
inline std::size_t refuse(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return 0;
}

/// Makes the last op `b` made write the replaced op's output (instead of its fresh
/// tensor) under the replaced op's name, so graph output names stay as they were.
inline void write_last_to(OpBuilder& b, const ir::Operation& op) {
  ir::Operation& last = b.ops().back();
  b.graph().tensors.erase(last.outputs[0]);
  last.outputs[0] = op.outputs[0];
  if (!op.name.empty()) last.name = op.name;
}

/// Names `value` (a tensor made by an op of `b`) `out`: its producer and readers in `b`
/// are rewired and the fresh tensor dropped; an Identity when no op of `b` writes it.
inline void emit_as(OpBuilder& b, const std::string& value, const std::string& out) {
  bool made = false;
  for (auto& o : b.ops()) {
    for (auto& i : o.inputs)
      if (i == value) i = out;
    for (auto& y : o.outputs)
      if (y == value) y = out, made = true;
  }
  if (made) b.graph().tensors.erase(value);
  else b.op(ir::OpKind::Identity, {value}, {out});
}

/// The op's axes attribute made non-negative (all axes when empty); nullopt when
/// empty axes mean "no reduction" (noop_with_empty_axes).
inline std::optional<std::vector<std::int64_t>> reduce_axes(const ir::Operation& op, std::int64_t rank) {
  std::vector<std::int64_t> axes = op.attr_ints("axes");
  if (axes.empty()) {
    if (op.attr_int("noop_with_empty_axes", 0) != 0) return std::nullopt;
    for (std::int64_t d = 0; d < rank; ++d) axes.push_back(d);
  }
  for (auto& a : axes) a = a < 0 ? a + rank : a;
  return axes;
}

}  // namespace ec::passes::decompose::detail
