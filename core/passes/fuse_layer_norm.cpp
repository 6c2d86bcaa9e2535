// FuseLayerNorm: the decomposed layer normalisation exporters emit (torch 1.13,
// opset 13, nn.LayerNorm) becomes one LayerNormalization:
//
//   mean = ReduceMean(x, axes)          d = Sub(x, mean)
//   var  = ReduceMean(Pow(d, 2), axes)  y = Div(d, Sqrt(Add(var, eps)))
//   out  = Add(Mul(y, gamma), beta)     (Mul/Add operands in either order; Add optional)
//   -> out = LayerNormalization(x, gamma, beta) {axis = -len(axes), epsilon = eps}
//
// Only an exact match is rewritten: axes are the trailing ones (negative, or
// positive with x's rank known), keepdims = 1 on both reductions, the exponent is
// a scalar constant 2, eps a scalar f32 constant, gamma and beta f32 constants of
// rank <= len(axes) whose static dims equal x's trailing dims where those are
// known, and every intermediate has exactly the readers the pattern needs and is
// not a graph output. The fused op takes over the last op's output name.
#include <algorithm>
#include <array>
#include <cstring>
#include <unordered_set>

#include "core/ir/algorithms.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"layer_norms_fused", "LayerNorm patterns fused"},
    {"ops_removed", "ops removed"},
}};

class FuseLayerNorm final : public Pass {
 public:
  std::string_view name() const override { return "FuseLayerNorm"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Rewrites ReduceMean, Sub, Pow(2), ReduceMean, Add(eps), Sqrt, Div, Mul(gamma), "
           "Add(beta) over the trailing axes (nn.LayerNorm as torch exports it at opset 13) into "
           "one LayerNormalization {axis, epsilon}. Only exact matches: keepdims on both "
           "reductions, scalar constant exponent 2 and eps, constant gamma/beta no wider than the "
           "normalised dims, intermediates read only inside the pattern.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (!has_op_kind(g, {ir::OpKind::ReduceMean})) return r;  // every match starts at one
    const UseIndex uses(g);
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    std::unordered_set<std::string> op_names;
    for (const auto& op : g.ops) op_names.insert(op.name);
    const ChainMatcher chain(g, uses, rw);
    auto sole_reader = [&](const std::string& t, ir::OpKind kind) { return chain.sole_reader(t, kind); };
    const auto& other = other_input;

    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      const ir::Operation& rm1 = g.ops[i];
      if (rm1.kind != ir::OpKind::ReduceMean || rm1.quant || rw.erased(i) || rm1.outputs.size() != 1) continue;
      const std::string& x = rm1.inputs[0];
      const ir::Tensor* xt = g.find_tensor(x);
      if (!xt || xt->dtype != ir::DType::Float32) continue;
      const auto axes = trailing_axes(rm1, *xt);
      if (axes.empty()) continue;
      const auto k = static_cast<std::int64_t>(axes.size());
      // d = Sub(x, mean)
      const auto sub = sole_reader(rm1.outputs[0], ir::OpKind::Sub);
      if (sub < 0) continue;
      const ir::Operation& sub_op = g.ops[static_cast<std::size_t>(sub)];
      if (sub_op.inputs[0] != x || sub_op.inputs[1] != rm1.outputs[0]) continue;
      const std::string& d = sub_op.outputs[0];
      // d is read by exactly Pow(d, 2) and Div(d, .)
      const auto& dreaders = uses.consumers(d);
      if (outputs.count(d) || dreaders.size() != 2) continue;
      std::size_t pow = dreaders[0], div = dreaders[1];
      if (g.ops[pow].kind != ir::OpKind::Pow) std::swap(pow, div);
      const ir::Operation &pow_op = g.ops[pow], &div_op = g.ops[div];
      if (rw.erased(pow) || rw.erased(div) || pow_op.kind != ir::OpKind::Pow || div_op.kind != ir::OpKind::Div ||
          pow_op.quant || div_op.quant || pow_op.inputs[0] != d || div_op.inputs[0] != d || div_op.inputs[1] == d)
        continue;
      const auto two = scalar_f32(g, pow_op.inputs[1]);
      if (!two || *two != 2.0f) continue;
      // var = ReduceMean(Pow(d, 2)) over the same axes
      const auto rm2 = sole_reader(pow_op.outputs[0], ir::OpKind::ReduceMean);
      if (rm2 < 0) continue;
      const ir::Operation& rm2_op = g.ops[static_cast<std::size_t>(rm2)];
      if (trailing_axes(rm2_op, *xt) != axes) continue;
      // Add(var, eps), Sqrt, and the Div reading it
      const auto add_eps = sole_reader(rm2_op.outputs[0], ir::OpKind::Add);
      if (add_eps < 0) continue;
      const ir::Operation& add_eps_op = g.ops[static_cast<std::size_t>(add_eps)];
      const auto eps = scalar_f32(g, other(add_eps_op, rm2_op.outputs[0]));
      if (!eps || !(*eps >= 0.f)) continue;
      const auto sqrt = sole_reader(add_eps_op.outputs[0], ir::OpKind::Sqrt);
      if (sqrt < 0 || sole_reader(g.ops[static_cast<std::size_t>(sqrt)].outputs[0], ir::OpKind::Div) !=
                          static_cast<std::ptrdiff_t>(div))
        continue;
      // Mul(y, gamma), then optionally Add(., beta)
      const auto mul = sole_reader(div_op.outputs[0], ir::OpKind::Mul);
      if (mul < 0) continue;
      const ir::Operation& mul_op = g.ops[static_cast<std::size_t>(mul)];
      const std::string gamma = other(mul_op, div_op.outputs[0]);
      if (!affine_ok(g, gamma, *xt, k)) continue;
      std::string beta;
      std::size_t last = static_cast<std::size_t>(mul);
      if (const auto add = sole_reader(mul_op.outputs[0], ir::OpKind::Add); add >= 0) {
        const std::string b = other(g.ops[static_cast<std::size_t>(add)], mul_op.outputs[0]);
        if (affine_ok(g, b, *xt, k)) {
          beta = b;
          last = static_cast<std::size_t>(add);
        }
      }

      // Rewrite: the last op becomes LayerNormalization, the others go.
      const std::vector<std::size_t> pattern{i,   static_cast<std::size_t>(sub), pow, static_cast<std::size_t>(rm2),
                                             static_cast<std::size_t>(add_eps), static_cast<std::size_t>(sqrt), div,
                                             static_cast<std::size_t>(mul)};
      for (std::size_t p : pattern)
        if (p != last) rw.erase(p);
      rw.touch(pow_op.inputs[1]);
      rw.touch(other(add_eps_op, rm2_op.outputs[0]));
      ir::Operation ln;
      ln.name = fused_op_name(rm1.name, "LayerNormalization", op_names);
      ln.kind = ir::OpKind::LayerNormalization;
      ln.op_type = "LayerNormalization";
      ln.inputs = {x, gamma};
      if (!beta.empty()) ln.inputs.push_back(beta);
      ln.outputs = {g.ops[last].outputs[0]};
      ln.attributes["axis"] = -k;
      ln.attributes["epsilon"] = static_cast<double>(*eps);
      g.ops[last] = std::move(ln);
      r.add("layer_norms_fused");
      r.add("ops_removed", beta.empty() ? 7 : 8);
    }
    rw.commit();
    return r;
  }

 private:
  // The reduced axes of a keepdims ReduceMean as negative axes when they are
  // exactly the trailing ones ({-k, ..., -1}); empty otherwise.
  static std::vector<std::int64_t> trailing_axes(const ir::Operation& rm, const ir::Tensor& x) {
    if (rm.attr_int("keepdims", 1) != 1 || rm.inputs.size() != 1) return {};  // not run-time axes
    auto axes = rm.attr_ints("axes");
    if (axes.empty()) return {};
    const bool rank_known = x.shape.rank_known;
    const auto rank = static_cast<std::int64_t>(x.shape.dims.size());
    for (auto& a : axes) {
      if (a >= 0) {
        if (!rank_known || a >= rank) return {};
        a -= rank;
      } else if (rank_known && a < -rank) {
        return {};
      }
    }
    std::sort(axes.begin(), axes.end());
    for (std::size_t j = 0; j < axes.size(); ++j)
      if (axes[j] != -static_cast<std::int64_t>(axes.size() - j)) return {};
    return axes;
  }

  // gamma/beta: an f32 constant of static rank <= k whose dims equal x's
  // trailing dims where x's are known (1 broadcasts), so that the Mul/Add does
  // not change the shape of y.
  static bool affine_ok(const ir::Graph& g, const std::string& name, const ir::Tensor& x, std::int64_t k) {
    const ir::Tensor* t = find_constant(g, name);
    if (!t || t->dtype != ir::DType::Float32 || t->quant || !t->shape.is_static()) return false;
    const auto dims = t->shape.sizes();
    if (static_cast<std::int64_t>(dims.size()) > k) return false;
    if (!x.shape.rank_known) return true;
    const std::size_t rank = x.shape.dims.size();
    if (dims.size() > rank) return false;
    for (std::size_t j = 0; j < dims.size(); ++j) {
      const ir::Dim& xd = x.shape.dims[rank - dims.size() + j];
      if (dims[j] != 1 && xd.is_static() && xd.value != dims[j]) return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<Pass> make_fuse_layer_norm_pass() { return std::make_unique<FuseLayerNorm>(); }

}  // namespace ec::passes
