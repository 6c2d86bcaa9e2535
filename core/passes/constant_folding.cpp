// ConstantFolding: one forward sweep. An op whose inputs are all constants is
// evaluated with the CPU runtime's reference kernel (runtime::run_kernel) and
// its outputs become constants. Shape arithmetic is folded when the shapes it
// reads are static: Shape(x) and Size(x) of a fully static x, and
// Gather(Shape(x), const idx) when the selected dims of x are static (the
// Shape->Gather->Unsqueeze->Concat->Reshape chains of PyTorch exports, whose
// remaining links then fold as ordinary constants).
#include <algorithm>
#include <array>
#include <exception>

#include "core/ir/algorithms.h"
#include "core/ir/shape_inference.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"
#include "core/runtime/kernel_registry.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 3> kStats{{
    {"ops_folded", "ops folded to constants"},
    {"shape_ops_folded", "shape ops folded (static shapes)"},
    {"too_large", "results left unfolded (too large)"},
}};

// A folded result may not grow the model by more than this over its inputs.
constexpr std::size_t kMaxGrowthBytes = 1 << 20;

bool never_fold(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Unknown:
    case ir::OpKind::RandomNormal:
    case ir::OpKind::RandomUniform:
    case ir::OpKind::RandomNormalLike:
    case ir::OpKind::RandomUniformLike:
    case ir::OpKind::Multinomial:
    case ir::OpKind::Bernoulli:
      return true;
    default:
      return false;
  }
}

runtime::Tensor i64_tensor(std::vector<std::int64_t> shape, const std::vector<std::int64_t>& v) {
  return runtime::Tensor::from_values<std::int64_t>(ir::DType::Int64, std::move(shape), v);
}

// The Shape ops met so far by their results. Ops are in topological order, so
// when the sweep reaches Gather(s, idx), the Shape producing s (if any) is here:
// no index over every tensor name is needed.
class ShapeProducers {
 public:
  void add(const std::string& result, std::size_t op) {
    if (names_.intern(result) == ops_.size()) ops_.push_back(op);
  }
  /// Index of the Shape op producing `t`, or -1.
  std::ptrdiff_t producer(const std::string& t) const {
    const std::uint32_t id = names_.find(t);
    return id == NameIndex::kNone ? -1 : static_cast<std::ptrdiff_t>(ops_[id]);
  }

 private:
  NameIndex names_;
  std::vector<std::size_t> ops_;  // by name id
};

class ConstantFolding final : public Pass {
 public:
  std::string_view name() const override { return "ConstantFolding"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Evaluates every op whose inputs are all constants with the CPU runtime's reference "
           "kernel and replaces it by its result. Shape(x) and Size(x) fold when x's shape is "
           "static, Gather(Shape(x), indices) when the selected dims are. Random generators, "
           "unknown and quantised ops, ops feeding graph outputs directly, ops without a CPU "
           "kernel, and results over 1 MiB larger than their inputs are left alone (the last "
           "with a note).";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  // Sweeps until nothing more folds (at most kMaxSweeps): a fold can make a later op's input
  // shape static only once shapes are inferred again (Swin's Pad whose pads are computed from
  // shapes, then Shape of the padded tensor).
  PassResult run(ir::Graph& g) override {
    PassResult r;
    constexpr int kMaxSweeps = 8;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
      if (sweep > 0) ir::infer_shapes(g);
      if (!run_sweep(g, r)) break;
    }
    return r;
  }

 private:
  // One pass over the ops; true when anything folded.
  bool run_sweep(ir::Graph& g, PassResult& r) {
    bool folded = false;
    const auto outputs = graph_output_set(g);
    ShapeProducers shapes;
    GraphRewriter rw(g);
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      const ir::Operation& op = g.ops[i];
      if (op.kind == ir::OpKind::Shape && !op.outputs.empty() && !op.outputs[0].empty())
        shapes.add(op.outputs[0], i);
      if (op.outputs.empty() || never_fold(op.kind) || op.quant) continue;
      bool feeds_output = false;
      for (const auto& o : op.outputs) feeds_output |= outputs.count(o) > 0;
      if (feeds_output) continue;
      if (auto v = fold_shape(g, shapes, rw, op)) {
        assign_constant(*g.find_tensor(op.outputs[0]), *v);
        rw.erase(i);
        r.add("shape_ops_folded");
        folded = true;
        continue;
      }
      std::vector<runtime::Tensor> in;
      std::size_t in_bytes = 0;
      bool all_constant = true;
      for (const auto& name : op.inputs) {
        if (name.empty()) {
          in.emplace_back();
          continue;
        }
        const ir::Tensor* t = find_constant(g, name);
        if (!t || t->dtype == ir::DType::String || t->quant) {
          all_constant = false;
          break;
        }
        in.push_back(constant_value(*t));
        in_bytes += t->data->size();
      }
      if (!all_constant || !runtime::find_kernel(op.kind)) continue;
      std::vector<runtime::Tensor> out;
      try {
        out = runtime::run_kernel(op, in);
      } catch (const std::exception& e) {
        r.note(op.name, std::string("not folded: ") + e.what());
        continue;
      }
      std::size_t out_bytes = 0;
      bool complete = out.size() >= op.outputs.size();
      for (std::size_t k = 0; complete && k < op.outputs.size(); ++k) {
        if (op.outputs[k].empty()) continue;
        complete = out[k].defined() && g.find_tensor(op.outputs[k]);
        if (complete) out_bytes += out[k].nbytes();
      }
      if (!complete) continue;
      if (out_bytes > in_bytes + kMaxGrowthBytes) {
        r.add("too_large");
        r.note(op.name, "not folded: the result (" + std::to_string(out_bytes) +
                            " bytes) would grow the model by more than 1 MiB");
        continue;
      }
      for (std::size_t k = 0; k < op.outputs.size(); ++k)
        if (!op.outputs[k].empty()) assign_constant(*g.find_tensor(op.outputs[k]), out[k]);
      rw.erase(i);
      r.add("ops_folded");
      folded = true;
    }
    rw.commit();
    return folded;
  }

  static std::optional<runtime::Tensor> fold_shape(const ir::Graph& g, const ShapeProducers& shapes,
                                                   const GraphRewriter& rw, const ir::Operation& op) {
    // The kind first: this runs for every op, and tensor lookups are what costs.
    if (op.kind != ir::OpKind::Shape && op.kind != ir::OpKind::Size && op.kind != ir::OpKind::Gather) return {};
    if (op.inputs.empty() || op.inputs[0].empty() || !g.find_tensor(op.outputs[0])) return {};
    const ir::Tensor* x = g.find_tensor(op.inputs[0]);
    if (op.kind == ir::OpKind::Shape || op.kind == ir::OpKind::Size) {
      if (!x || x->is_constant() || !x->shape.rank_known || !x->shape.is_static()) return {};
      const auto sizes = x->shape.sizes();
      std::int64_t start = 0, end = static_cast<std::int64_t>(sizes.size());
      if (op.kind == ir::OpKind::Size) {
        std::int64_t n = 1;
        for (auto s : sizes) n *= s;
        return i64_tensor({}, {n});
      }
      start = op.attr_int("start", 0), end = op.attr_int("end", end);
      const auto rank = static_cast<std::int64_t>(sizes.size());
      if (start < 0) start += rank;
      if (end < 0) end += rank;
      start = std::clamp<std::int64_t>(start, 0, rank), end = std::clamp<std::int64_t>(end, start, rank);
      std::vector<std::int64_t> v(sizes.begin() + start, sizes.begin() + end);
      return i64_tensor({static_cast<std::int64_t>(v.size())}, v);
    }
    if (op.kind != ir::OpKind::Gather || op.inputs.size() != 2 || op.attr_int("axis", 0) != 0) return {};
    const auto p = shapes.producer(op.inputs[0]);
    if (p < 0 || rw.erased(static_cast<std::size_t>(p))) return {};
    const ir::Operation& shape_op = g.ops[static_cast<std::size_t>(p)];
    if (shape_op.kind != ir::OpKind::Shape || !shape_op.attributes.empty() || shape_op.inputs.empty())
      return {};
    const ir::Tensor* src = g.find_tensor(shape_op.inputs[0]);
    const ir::Tensor* idx = find_constant(g, op.inputs[1]);
    if (!src || !idx || !src->shape.rank_known) return {};
    const auto rank = static_cast<std::int64_t>(src->shape.dims.size());
    const runtime::Tensor iv = constant_value(*idx);
    std::vector<std::int64_t> picked;
    for (auto k : iv.to_int64_vector()) {
      if (k < 0) k += rank;
      if (k < 0 || k >= rank || !src->shape.dims[static_cast<std::size_t>(k)].is_static()) return {};
      picked.push_back(src->shape.dims[static_cast<std::size_t>(k)].value);
    }
    return i64_tensor(iv.shape(), picked);
  }
};

}  // namespace

std::unique_ptr<Pass> make_constant_folding_pass() { return std::make_unique<ConstantFolding>(); }

}  // namespace ec::passes
