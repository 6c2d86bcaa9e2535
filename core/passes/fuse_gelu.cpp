// FuseGelu: the exact GELU exporters emit at opsets without a Gelu op (torch
// 1.13, nn.GELU()), and x * HardSigmoid(x) (nn.Hardswish at opset 13), become
// one op each, so the runtime evaluates them in one vectorised pass:
//
//   y = Mul(Mul(x, Add(Erf(Div(x, sqrt 2)), 1)), 0.5)   -> y = Gelu(x)
//       (Div by sqrt 2 or Mul by 1/sqrt 2; Add, Mul operands in either order)
//   y = Mul(x, HardSigmoid(x) {alpha = 1/6, beta = 1/2}) -> y = HardSwish(x)
//
// Only exact matches: scalar f32 constants (sqrt 2, 1/sqrt 2, 1 and 0.5 to within
// 1e-6 relative), the x of the Mul is the x of the Div, every intermediate has
// exactly the readers the pattern needs and is not a graph output. The fused op
// takes over the last op's output name.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <unordered_set>

#include "core/ir/algorithms.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 3> kStats{{
    {"gelus_fused", "GELU patterns fused"},
    {"hard_swishes_fused", "HardSwish patterns fused"},
    {"ops_removed", "ops removed"},
}};

bool near(std::optional<float> v, double want) { return v && std::fabs(*v - want) <= 1e-6 * std::fabs(want); }

std::optional<float> float_attr(const ir::Operation& op, const std::string& key, float fallback) {
  const ir::Attribute* a = op.attr(key);
  if (!a) return fallback;
  if (const auto* d = std::get_if<double>(a)) return static_cast<float>(*d);
  return std::nullopt;
}

class FuseGelu final : public Pass {
 public:
  std::string_view name() const override { return "FuseGelu"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Rewrites Div(x, sqrt 2) (or Mul(x, 1/sqrt 2)), Erf, Add(1), Mul(x), Mul(0.5) into one Gelu, "
           "and Mul(x, HardSigmoid(x) {1/6, 1/2}) into one HardSwish. Only exact matches: scalar f32 "
           "constants, the same x on both sides, intermediates read only inside the pattern.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (!has_op_kind(g, {ir::OpKind::Erf, ir::OpKind::HardSigmoid})) return r;
    const UseIndex uses(g);
    GraphRewriter rw(g);
    std::unordered_set<std::string> op_names;
    for (const auto& op : g.ops) op_names.insert(op.name);
    const ChainMatcher chain(g, uses, rw);
    auto sole_reader = [&](const std::string& t, ir::OpKind kind) { return chain.sole_reader(t, kind); };
    const auto& other = other_input;
    auto f32_tensor = [&](const std::string& t) {
      const ir::Tensor* xt = g.find_tensor(t);
      return xt && xt->dtype == ir::DType::Float32 && !xt->quant;
    };
    // The op `last` becomes `kind`(x); the ops in `gone` are removed.
    auto replace = [&](std::size_t last, const std::vector<std::size_t>& gone, const std::string& x,
                       ir::OpKind kind, const char* type, const std::string& anchor) {
      for (std::size_t p : gone) rw.erase(p);
      for (const auto& in : g.ops[last].inputs) rw.touch(in);
      ir::Operation op;
      op.name = fused_op_name(anchor, type, op_names);
      op.kind = kind;
      op.op_type = type;
      op.inputs = {x};
      op.outputs = {g.ops[last].outputs[0]};
      g.ops[last] = std::move(op);
    };

    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      const ir::Operation& first = g.ops[i];
      if (rw.erased(i) || first.quant || first.outputs.size() != 1 || first.inputs.empty()) continue;
      const std::string& x = first.inputs[0];
      if (!f32_tensor(x)) continue;
      if (first.kind == ir::OpKind::HardSigmoid) {
        // y = Mul(x, HardSigmoid(x))
        if (!near(float_attr(first, "alpha", 0.2f), 1.0 / 6) || !near(float_attr(first, "beta", 0.5f), 0.5)) continue;
        const auto mul = sole_reader(first.outputs[0], ir::OpKind::Mul);
        if (mul < 0 || other(g.ops[static_cast<std::size_t>(mul)], first.outputs[0]) != x) continue;
        replace(static_cast<std::size_t>(mul), {i}, x, ir::OpKind::HardSwish, "HardSwish", first.name);
        r.add("hard_swishes_fused");
        r.add("ops_removed", 1);
        continue;
      }
      // z = Div(x, sqrt 2) or Mul(x, 1/sqrt 2)
      if (first.inputs.size() != 2) continue;
      if (!(first.kind == ir::OpKind::Div && near(scalar_f32(g, first.inputs[1]), std::sqrt(2.0))) &&
          !(first.kind == ir::OpKind::Mul && near(scalar_f32(g, first.inputs[1]), std::sqrt(0.5))))
        continue;
      const auto erf = sole_reader(first.outputs[0], ir::OpKind::Erf);
      if (erf < 0) continue;
      const ir::Operation& erf_op = g.ops[static_cast<std::size_t>(erf)];
      const auto add = sole_reader(erf_op.outputs[0], ir::OpKind::Add);
      if (add < 0 || !near(scalar_f32(g, other(g.ops[static_cast<std::size_t>(add)], erf_op.outputs[0])), 1.0)) continue;
      const ir::Operation& add_op = g.ops[static_cast<std::size_t>(add)];
      const auto mul = sole_reader(add_op.outputs[0], ir::OpKind::Mul);
      if (mul < 0 || other(g.ops[static_cast<std::size_t>(mul)], add_op.outputs[0]) != x) continue;
      const ir::Operation& mul_op = g.ops[static_cast<std::size_t>(mul)];
      const auto half = sole_reader(mul_op.outputs[0], ir::OpKind::Mul);
      if (half < 0 || !near(scalar_f32(g, other(g.ops[static_cast<std::size_t>(half)], mul_op.outputs[0])), 0.5))
        continue;
      rw.touch(first.inputs[1]);
      rw.touch(other(add_op, erf_op.outputs[0]));
      replace(static_cast<std::size_t>(half),
              {i, static_cast<std::size_t>(erf), static_cast<std::size_t>(add), static_cast<std::size_t>(mul)}, x,
              ir::OpKind::Gelu, "Gelu", first.name);
      r.add("gelus_fused");
      r.add("ops_removed", 4);
    }
    rw.commit();
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_fuse_gelu_pass() { return std::make_unique<FuseGelu>(); }

}  // namespace ec::passes
