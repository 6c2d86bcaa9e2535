// FuseActivation: an activation whose input is the sole result of a Conv,
// Gemm, MatMul or FullyConnected is recorded on that op as `fused_activation`
// (ops.def) and removed. The default pipeline runs this pass only when the CPU
// runtime honours the attribute (runtime_supports_fused_activation()).
#include <algorithm>
#include <array>

#include "core/ir/algorithms.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 1> kStats{{
    {"activations_fused", "activations fused"},
}};

bool takes_fused_activation(ir::OpKind k) {
  return k == ir::OpKind::Conv || k == ir::OpKind::Gemm || k == ir::OpKind::MatMul ||
         k == ir::OpKind::FullyConnected;
}

// Scalar value of an optional constant input; `fallback` when absent; nullopt when not constant.
std::optional<double> scalar_input(const ir::Graph& g, const ir::Operation& op, std::size_t k, double fallback) {
  if (op.inputs.size() <= k || op.inputs[k].empty()) return fallback;
  const ir::Tensor* t = find_constant(g, op.inputs[k]);
  if (!t || t->num_elements().value_or(0) != 1) return {};
  return constant_value(*t).get_double(0);
}

// The fused_activation value equivalent to `act`, or "" when there is none.
std::string activation_name(const ir::Graph& g, const ir::Operation& act) {
  switch (act.kind) {
    case ir::OpKind::Relu:
      return "RELU";
    case ir::OpKind::Sigmoid:
      return "SIGMOID";
    case ir::OpKind::Tanh:
      return "TANH";
    case ir::OpKind::Clip: {
      const auto lo = scalar_input(g, act, 1, -1e300), hi = scalar_input(g, act, 2, 1e300);
      if (!lo || !hi) return "";
      if (*lo == 0 && *hi == 6) return "RELU6";
      if (*lo == 0 && *hi >= 1e300) return "RELU";
      if (*lo == -1 && *hi == 1) return "RELU_N1_TO_1";
      return "";
    }
    default:
      return "";
  }
}

class FuseActivation final : public Pass {
 public:
  std::string_view name() const override { return "FuseActivation"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Relu, Clip(0, 6), Clip(0, inf), Clip(-1, 1), Sigmoid and Tanh reading the sole "
           "result of a Conv, Gemm, MatMul or FullyConnected (not a graph output) are folded "
           "into it as fused_activation = RELU, RELU6, RELU, RELU_N1_TO_1, SIGMOID or TANH. "
           "The fused op takes the activation's output name. Quantised ops are left alone.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (std::none_of(g.ops.begin(), g.ops.end(), [](const auto& op) { return takes_fused_activation(op.kind); }))
      return r;
    const UseIndex uses(g, takes_fused_activation);  // readers of their results only
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      ir::Operation& op = g.ops[i];
      if (!takes_fused_activation(op.kind) || op.quant || op.outputs.size() != 1 ||
          op.attr_string("fused_activation", "NONE") != "NONE")
        continue;
      const std::string y = op.outputs[0];
      const auto& readers = uses.consumers(y);
      if (outputs.count(y) || readers.size() != 1 || rw.erased(readers[0])) continue;
      const ir::Operation& act = g.ops[readers[0]];
      if (act.inputs.empty() || act.inputs[0] != y || act.quant) continue;
      const std::string fused = activation_name(g, act);
      if (fused.empty()) continue;
      op.attributes["fused_activation"] = fused;
      g.tensors.erase(y);
      op.outputs[0] = act.outputs[0];
      rw.erase(readers[0]);
      r.add("activations_fused");
    }
    rw.commit();
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_fuse_activation_pass() { return std::make_unique<FuseActivation>(); }

}  // namespace ec::passes
