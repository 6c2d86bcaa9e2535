// CompactUnitDims: data movement over unit dims, written without them, for targets that map
// only tensors whose non-unit dims are the three innermost (the Edge TPU: "Tensor has
// unsupported rank"). Two exact rewrites, repeated until neither applies:
//   Transpose that keeps the order of the non-unit dims ([T, 2, 1, H] -> [T, 1, 2, H]): the
//     same bytes in the same order, so a Reshape to its output shape;
//   Concat whose output has a non-unit dim outside the three innermost and is read only by
//     Reshapes (a recurrent layer's per-step outputs [1, 1, 1, H] joined to [T, 1, 1, H]): the
//     Concat of its inputs reshaped without the unit dims (the joined axis kept), [T, H],
//     which the Reshapes then read; Cleanup afterwards joins the chained Reshapes.
// Shapes must be static. Any dtype; quantisation params carry over unchanged.
#include <algorithm>
#include <array>

#include "core/passes/op_builder.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {
namespace {

using K = ir::OpKind;

std::optional<std::vector<std::int64_t>> sizes_of(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = name.empty() ? nullptr : g.find_tensor(name);
  if (!t || !t->shape.rank_known || !t->shape.is_static()) return std::nullopt;
  return t->shape.sizes();
}

bool is_output(const ir::Graph& g, const std::string& t) {
  return std::find(g.outputs.begin(), g.outputs.end(), t) != g.outputs.end();
}

// Transpose keeping the non-unit dims' order -> Reshape (in place).
bool transpose_as_reshape(ir::Graph& g, std::size_t i) {
  ir::Operation& op = g.ops[i];
  if (op.kind != K::Transpose || op.inputs.size() != 1 || op.outputs.size() != 1) return false;
  const auto xs = sizes_of(g, op.inputs[0]);
  const auto ys = sizes_of(g, op.outputs[0]);
  if (!xs || !ys || xs->size() < 2) return false;
  std::vector<std::int64_t> perm = op.attr_ints("perm");
  if (perm.empty())
    for (std::size_t d = xs->size(); d-- > 0;) perm.push_back(static_cast<std::int64_t>(d));
  if (perm.size() != xs->size()) return false;
  std::int64_t last = -1;
  for (const auto p : perm) {
    if (p < 0 || p >= static_cast<std::int64_t>(xs->size())) return false;
    if ((*xs)[static_cast<std::size_t>(p)] == 1) continue;
    if (p < last) return false;
    last = p;
  }
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const std::string shape = b.i64("shape", *ys);
  op.kind = K::Reshape;
  op.op_type = std::string(ir::op_info(K::Reshape).name);
  op.attributes.clear();
  op.inputs.push_back(shape);
  return true;
}

// Concat whose output breaks the rank rule and feeds only Reshapes -> the Concat of compact inputs.
bool compact_concat(ir::Graph& g, std::size_t i) {
  const ir::Operation op = g.ops[i];
  if (op.kind != K::Concat || op.outputs.size() != 1 || op.inputs.empty() || is_output(g, op.outputs[0])) return false;
  const auto ys = sizes_of(g, op.outputs[0]);
  if (!ys || ys->size() <= 3) return false;
  const auto r = static_cast<std::int64_t>(ys->size());
  bool breaks = false;
  for (std::int64_t d = 0; d + 3 < r; ++d) breaks |= (*ys)[static_cast<std::size_t>(d)] != 1;
  if (!breaks) return false;
  std::int64_t axis = op.attr_int("axis", 0);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return false;
  std::vector<std::size_t> keep;
  for (std::int64_t d = 0; d < r; ++d)
    if ((*ys)[static_cast<std::size_t>(d)] != 1 || d == axis) keep.push_back(static_cast<std::size_t>(d));
  if (keep.size() > 3) return false;
  // every reader a Reshape reading it as its data
  std::vector<std::size_t> readers;
  for (std::size_t j = 0; j < g.ops.size(); ++j)
    for (std::size_t k = 0; k < g.ops[j].inputs.size(); ++k)
      if (g.ops[j].inputs[k] == op.outputs[0]) {
        if (g.ops[j].kind != K::Reshape || k != 0) return false;
        readers.push_back(j);
      }
  if (readers.empty()) return false;
  std::vector<std::vector<std::int64_t>> in_shapes;
  for (const auto& in : op.inputs) {
    const auto s = sizes_of(g, in);
    if (!s || s->size() != ys->size()) return false;
    in_shapes.push_back(*s);
  }
  const ir::Tensor y = *g.find_tensor(op.outputs[0]);
  const std::string base = op.name.empty() ? op.outputs[0] : op.name;
  OpBuilder b(g, base);
  std::vector<std::string> compact_in;
  for (std::size_t k = 0; k < op.inputs.size(); ++k) {
    const ir::Tensor& t = *g.find_tensor(op.inputs[k]);
    std::vector<std::int64_t> s;
    for (const auto d : keep) s.push_back(in_shapes[k][d]);
    compact_in.push_back(b.reshape(op.inputs[k], s, t.dtype, t.quant));
  }
  std::vector<std::int64_t> cs;
  for (const auto d : keep) cs.push_back((*ys)[d]);
  const auto new_axis = static_cast<std::int64_t>(std::find(keep.begin(), keep.end(), static_cast<std::size_t>(axis)) - keep.begin());
  const std::string out = b.activation("compact", y.dtype, y.quant, cs);
  b.op(K::Concat, compact_in, {out}, {{"axis", new_axis}}, op.name);
  for (const auto j : readers) g.ops[j].inputs[0] = out;
  splice_ops(g, i, std::move(b.ops()));
  g.tensors.erase(op.outputs[0]);
  return true;
}

constexpr std::array<StatisticSpec, 2> kStats{{{"transposes_as_reshape", "Transposes of unit dims made Reshapes"},
                                               {"concats_compacted", "Concats written without unit dims"}}};

class CompactUnitDims final : public Pass {
 public:
  std::string_view name() const override { return "CompactUnitDims"; }
  std::string_view summary() const override { return find_pass("CompactUnitDims")->summary; }
  std::string_view description() const override {
    return "Rewrites data movement over unit dims without them, for targets that map only tensors whose "
           "non-unit dims are the three innermost (the Edge TPU): a Transpose that keeps the order of the "
           "non-unit dims becomes a Reshape (the same bytes), and a Concat whose output has a non-unit dim "
           "outside the three innermost and is read only by Reshapes (a recurrent layer's per-step outputs "
           "joined into [T, 1, 1, H]) joins its inputs without their unit dims instead. Exact; needs static "
           "shapes. Run Cleanup after it to join the chained Reshapes.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    std::int64_t transposes = 0, concats = 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t i = 0; i < g.ops.size(); ++i) {
        if (transpose_as_reshape(g, i)) ++transposes, changed = true;
        else if (compact_concat(g, i)) ++concats, changed = true;
      }
    }
    if (transposes) r.add("transposes_as_reshape", transposes);
    if (concats) r.add("concats_compacted", concats);
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_compact_unit_dims_pass() { return std::make_unique<CompactUnitDims>(); }

}  // namespace ec::passes
