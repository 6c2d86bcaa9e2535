// FuseActivation: an activation whose input is the sole result of an op that takes a
// fused activation is recorded on that op (ir::set_fused_activation, the
// `fused_activation` attribute of ops.def) and removed; the op takes the activation's
// output name. The ONE place that decides which activation folds into which op: the
// rules (ActivationFusion, pass_registry.h) only say what the graph's consumer can run
// fused. The registered pass uses ActivationFusion::portable() (every writer has a form
// for what it makes; the default pipeline runs it only when the CPU runtime honours the
// attribute, runtime_supports_fused_activation()); the CPU session uses cpu_runtime() at
// load (core/session/session.cpp); the TFLite writer its own rules (tflite_fusion() in
// core/backends/tflite/tflite_writer.cpp) before it writes operators.
#include <algorithm>
#include <array>
#include <string>
#include <unordered_set>

#include "core/ir/activation.h"
#include "core/ir/algorithms.h"
#include "core/passes/fuse_activation.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {

using ir::Activation;
using ir::OpKind;

ActivationFusion ActivationFusion::portable() {
  ActivationFusion r;
  r.producers = {OpKind::Conv, OpKind::Gemm, OpKind::MatMul, OpKind::FullyConnected};
  for (Activation a : {Activation::Relu, Activation::Relu6, Activation::ReluN1To1, Activation::Sigmoid, Activation::Tanh})
    r.allow(a);
  return r;
}

ActivationFusion ActivationFusion::cpu_runtime() {
  ActivationFusion r;
  r.producers = {OpKind::Conv, OpKind::Gemm, OpKind::MatMul, OpKind::FullyConnected, OpKind::BatchNormalization,
                 OpKind::Add,  OpKind::Sub,  OpKind::Mul,    OpKind::Div};
  for (const ir::ActivationInfo& a : ir::activation_table())
    if (a.activation != Activation::None) r.allow(a.activation);
  r.through_reshape = true;
  r.f32_only = true;
  r.skip_quantised = false;
  return r;
}

namespace {

constexpr std::array<StatisticSpec, 1> kStats{{
    {"activations_fused", "activations fused"},
}};

// The ops of portable(): the use index then covers only their results.
bool linear_producer(OpKind k) {
  return k == OpKind::Conv || k == OpKind::Gemm || k == OpKind::MatMul || k == OpKind::FullyConnected;
}
// Every op whose result any rules look past: producers, the Reshape between a producer and
// its activation, SiLU's Sigmoid.
bool any_indexed(OpKind k) {
  return linear_producer(k) || k == OpKind::BatchNormalization || k == OpKind::Add || k == OpKind::Sub ||
         k == OpKind::Mul || k == OpKind::Div || k == OpKind::Reshape || k == OpKind::Sigmoid;
}

// A bound of Clip: its constant scalar input `k`, else the attribute of opset < 11 (`attr`),
// else `fallback` when neither is there; nullopt when the input is not a constant scalar.
std::optional<double> clip_bound(const ir::Graph& g, const ir::Operation& op, std::size_t k, const char* attr,
                                 double fallback) {
  if (op.inputs.size() > k && !op.inputs[k].empty()) {
    const ir::Tensor* t = find_constant(g, op.inputs[k]);
    if (!t || t->num_elements().value_or(0) != 1) return {};
    return constant_value(*t).get_double(0);
  }
  if (const ir::Attribute* a = op.attr(attr))
    if (const auto* d = std::get_if<double>(a)) return *d;
  return fallback;
}

// The activation `act` computes from its first input alone, or None.
Activation activation_of(const ir::Graph& g, const ir::Operation& act) {
  switch (act.kind) {
    case OpKind::Relu: return Activation::Relu;
    case OpKind::Sigmoid: return Activation::Sigmoid;
    case OpKind::Tanh: return Activation::Tanh;
    case OpKind::HardSwish: return Activation::HardSwish;
    case OpKind::Gelu: return act.attr_string("approximate", "none") == "tanh" ? Activation::GeluTanh : Activation::Gelu;
    case OpKind::Clip: {
      constexpr double kOpen = 1e300;
      const auto lo = clip_bound(g, act, 1, "min", -kOpen), hi = clip_bound(g, act, 2, "max", kOpen);
      if (!lo || !hi) return Activation::None;
      if (*lo == 0 && *hi == 6) return Activation::Relu6;
      if (*lo == 0 && *hi >= kOpen) return Activation::Relu;
      if (*lo == -1 && *hi == 1) return Activation::ReluN1To1;
      return Activation::None;
    }
    default: return Activation::None;
  }
}

class FuseActivation final : public Pass {
 public:
  explicit FuseActivation(ActivationFusion rules) : rules_(std::move(rules)) {}

  std::string_view name() const override { return "FuseActivation"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Relu, Clip(0, 6), Clip(0, inf), Clip(-1, 1), Sigmoid and Tanh reading the sole "
           "result of a Conv, Gemm, MatMul or FullyConnected (not a graph output) are folded "
           "into it as fused_activation = RELU, RELU6, RELU, RELU_N1_TO_1, SIGMOID or TANH. "
           "The fused op takes the activation's output name. Quantised ops are left alone. "
           "(The CPU runtime's load-time run also folds HardSwish, Gelu and x * Sigmoid(x) "
           "into those ops and into BatchNormalization, Add, Sub, Mul and Div, through a "
           "Reshape between them too.)";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (std::none_of(g.ops.begin(), g.ops.end(), [&](const auto& op) { return takes(op.kind); })) return r;
    const bool wide = rules_.through_reshape || rules_.allows(Activation::SiLU) ||
                      std::any_of(rules_.producers.begin(), rules_.producers.end(),
                                  [](OpKind k) { return !linear_producer(k); });
    const bool every = std::any_of(rules_.producers.begin(), rules_.producers.end(),
                                   [](OpKind k) { return !any_indexed(k); });
    // readers of those results only (of every result when the rules name other producers)
    const UseIndex uses = every ? UseIndex(g) : UseIndex(g, wide ? any_indexed : linear_producer);
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      ir::Operation& op = g.ops[i];
      if (!takes(op.kind) || rw.erased(i) || (rules_.skip_quantised && op.quant) || op.outputs.size() != 1 ||
          ir::fused_activation(op) != Activation::None)
        continue;
      const std::string y = op.outputs[0];
      if (outputs.count(y)) continue;
      if (rules_.f32_only) {
        const ir::Tensor* t = g.find_tensor(y);
        if (!t || t->dtype != ir::DType::Float32) continue;
      }
      // Through a Reshape (OpFusion's FullyConnected of a MatMul on [N, S, C] is followed by
      // one): an element-wise activation commutes with it.
      std::ptrdiff_t via = -1;
      std::string x = y;
      if (const auto& readers = uses.consumers(y); rules_.through_reshape && readers.size() == 1) {
        const ir::Operation& reshape = g.ops[readers[0]];
        if (reshape.kind == OpKind::Reshape && !rw.erased(readers[0]) && reshape.inputs[0] == y &&
            reshape.outputs.size() == 1 && !outputs.count(reshape.outputs[0])) {
          via = static_cast<std::ptrdiff_t>(readers[0]);
          x = reshape.outputs[0];
        }
      }
      const Found f = find_activation(g, uses, rw, outputs, x);
      if (f.act == Activation::None || !rules_.allows(f.act)) continue;
      const ir::Operation& last = g.ops[f.op];
      if (rules_.accepts && !rules_.accepts(g, op, last)) continue;
      ir::set_fused_activation(op, f.act);
      g.tensors.erase(x);
      (via >= 0 ? g.ops[static_cast<std::size_t>(via)] : op).outputs[0] = last.outputs[0];
      rw.erase(f.op);
      if (f.sigmoid >= 0) {
        g.tensors.erase(g.ops[static_cast<std::size_t>(f.sigmoid)].outputs[0]);
        rw.erase(static_cast<std::size_t>(f.sigmoid));
      }
      r.add("activations_fused");
    }
    rw.commit();
    return r;
  }

 private:
  // The activation reading `x`: the op whose output the producer then writes, SiLU's
  // Sigmoid (also removed) or -1.
  struct Found {
    Activation act = Activation::None;
    std::size_t op = 0;
    std::ptrdiff_t sigmoid = -1;
  };

  Found find_activation(const ir::Graph& g, const UseIndex& uses, const GraphRewriter& rw,
                        const std::unordered_set<std::string>& outputs, const std::string& x) const {
    const auto& readers = uses.consumers(x);
    if (readers.size() == 1) {
      const ir::Operation& act = g.ops[readers[0]];
      if (rw.erased(readers[0]) || act.inputs.empty() || act.inputs[0] != x || act.outputs.size() != 1 ||
          (rules_.skip_quantised && act.quant))
        return {};
      return {activation_of(g, act), readers[0]};
    }
    // SiLU, x * Sigmoid(x) (nn.SiLU's export): the Mul is the activation, the Sigmoid goes too.
    if (readers.size() != 2 || !rules_.allows(Activation::SiLU)) return {};
    for (int k = 0; k < 2; ++k) {
      const std::size_t si = readers[static_cast<std::size_t>(k)], mi = readers[static_cast<std::size_t>(1 - k)];
      const ir::Operation &sig = g.ops[si], &mul = g.ops[mi];
      if (sig.kind != OpKind::Sigmoid || mul.kind != OpKind::Mul || rw.erased(si) || rw.erased(mi) ||
          sig.inputs.size() != 1 || sig.outputs.size() != 1 || mul.inputs.size() != 2 || mul.outputs.size() != 1 ||
          (rules_.skip_quantised && (sig.quant || mul.quant)))
        continue;
      const std::string& s = sig.outputs[0];
      const bool pair = (mul.inputs[0] == x && mul.inputs[1] == s) || (mul.inputs[0] == s && mul.inputs[1] == x);
      const auto& s_readers = uses.consumers(s);
      if (pair && !outputs.count(s) && s_readers.size() == 1 && s_readers[0] == mi)
        return {Activation::SiLU, mi, static_cast<std::ptrdiff_t>(si)};
    }
    return {};
  }

  bool takes(OpKind k) const {
    return std::find(rules_.producers.begin(), rules_.producers.end(), k) != rules_.producers.end();
  }

  ActivationFusion rules_;
};

}  // namespace

std::unique_ptr<Pass> make_fuse_activation_pass() { return make_fuse_activation_pass(ActivationFusion::portable()); }
std::unique_ptr<Pass> make_fuse_activation_pass(ActivationFusion rules) {
  return std::make_unique<FuseActivation>(std::move(rules));
}

}  // namespace ec::passes
