// FuseActivation (core/passes/fuse_activation.cpp), the one place that folds an activation
// into the op before it: with the CPU runtime's rules, every producer / activation pair the
// session's own load-time fusion used to fold (Conv, Gemm, MatMul, FullyConnected,
// BatchNormalization, Add, Sub, Mul, Div x Relu, Clip(0, 6), Sigmoid, Tanh, HardSwish, Gelu,
// Gelu(tanh), x * Sigmoid(x)), directly and through a Reshape; the pass's own Clip(0, inf)
// and Clip(-1, 1); with the registered (portable) rules only what every writer can express;
// what neither folds; and the session's results with the fusion equal to the model's own
// graph run op by op.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/ir/activation.h"
#include "core/passes/fuse_activation.h"
#include "core/passes/pass_registry.h"
#include "core/session/session.h"

namespace ec::passes {
namespace {

using ir::Activation;
using ir::OpKind;

enum class Form { Relu, Clip06, Clip0Inf, ClipN11, Sigmoid, Tanh, HardSwish, Gelu, GeluTanh, SiLU };

struct FormCase {
  Form form;
  Activation act;
  const char* label;
  bool session_fused;  // the session's own fusion (before the pass) folded it
  bool portable;       // the registered pass folds it (into Conv, Gemm, MatMul, FullyConnected)
};

constexpr FormCase kForms[] = {
    {Form::Relu, Activation::Relu, "Relu", true, true},
    {Form::Clip06, Activation::Relu6, "Clip(0,6)", true, true},
    {Form::Clip0Inf, Activation::Relu, "Clip(0,-)", false, true},
    {Form::ClipN11, Activation::ReluN1To1, "Clip(-1,1)", false, true},
    {Form::Sigmoid, Activation::Sigmoid, "Sigmoid", true, true},
    {Form::Tanh, Activation::Tanh, "Tanh", true, true},
    {Form::HardSwish, Activation::HardSwish, "HardSwish", true, false},
    {Form::Gelu, Activation::Gelu, "Gelu", true, false},
    {Form::GeluTanh, Activation::GeluTanh, "Gelu(tanh)", true, false},
    {Form::SiLU, Activation::SiLU, "x*Sigmoid(x)", true, false},
};

constexpr OpKind kProducers[] = {OpKind::Conv, OpKind::Gemm, OpKind::MatMul, OpKind::FullyConnected,
                                 OpKind::BatchNormalization, OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Div};

bool linear(OpKind k) {
  return k == OpKind::Conv || k == OpKind::Gemm || k == OpKind::MatMul || k == OpKind::FullyConnected;
}

ir::Tensor tensor(const std::string& name, std::vector<std::int64_t> shape, ir::DType dtype = ir::DType::Float32) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = ir::Shape::of(shape);
  return t;
}

template <typename T>
ir::Tensor constant(const std::string& name, std::vector<std::int64_t> shape, const std::vector<T>& v, ir::DType dtype) {
  ir::Tensor t = tensor(name, std::move(shape), dtype);
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(T));
  return t;
}

ir::Tensor f32_constant(const std::string& name, std::vector<std::int64_t> shape, float base, float step) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = base + step * static_cast<float>(static_cast<int>(i % 7) - 3);
  return constant(name, std::move(shape), v, ir::DType::Float32);
}

ir::Operation op(OpKind kind, const std::string& name, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Operation o;
  o.kind = kind;
  o.op_type = std::string(ir::op_info(kind).name);
  o.name = name;
  o.inputs = std::move(in);
  o.outputs = std::move(out);
  return o;
}

// x -> producer -> y [-> Reshape -> r] -> activation -> z (the graph's output).
ir::Graph pair_graph(OpKind producer, Form form, bool via_reshape) {
  ir::Graph g;
  g.name = "pair";
  const bool image = !linear(producer) || producer == OpKind::Conv;
  const std::vector<std::int64_t> shape = image ? std::vector<std::int64_t>{1, 4, 3, 3} : std::vector<std::int64_t>{2, 4};
  g.add_tensor(tensor("x", shape));
  g.inputs = {"x"};
  std::vector<std::string> in{"x"};
  switch (producer) {
    case OpKind::Conv:
      g.add_tensor(f32_constant("w", {4, 4, 1, 1}, 0.1f, 0.4f));
      g.add_tensor(f32_constant("b", {4}, 0.2f, 0.3f));
      in = {"x", "w", "b"};
      break;
    case OpKind::Gemm:
    case OpKind::MatMul:
      g.add_tensor(f32_constant("w", {4, 4}, -0.1f, 0.5f));
      in = {"x", "w"};
      break;
    case OpKind::FullyConnected:
      g.add_tensor(f32_constant("w", {4, 4}, 0.05f, 0.45f));
      g.add_tensor(f32_constant("b", {4}, -0.3f, 0.2f));
      in = {"x", "w", "b"};
      break;
    case OpKind::BatchNormalization:
      g.add_tensor(f32_constant("scale", {4}, 1.5f, 0.25f));
      g.add_tensor(f32_constant("bias", {4}, 0.1f, 0.5f));
      g.add_tensor(f32_constant("mean", {4}, 0.2f, 0.1f));
      g.add_tensor(f32_constant("var", {4}, 1.0f, 0.1f));
      in = {"x", "scale", "bias", "mean", "var"};
      break;
    default:  // Add, Sub, Mul, Div with a constant of the same shape (nonzero: Div)
      g.add_tensor(f32_constant("c", shape, 1.25f, 0.2f));
      in = {"x", "c"};
  }
  ir::Operation p = op(producer, "producer", in, {"y"});
  if (producer == OpKind::Conv) p.attributes["kernel_shape"] = std::vector<std::int64_t>{1, 1};
  g.add_tensor(tensor("y", shape));
  g.ops.push_back(p);
  std::string t = "y";
  std::vector<std::int64_t> t_shape = shape;
  if (via_reshape) {
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    t_shape = {n};
    g.add_tensor(constant("flat", {1}, std::vector<std::int64_t>{-1}, ir::DType::Int64));
    g.add_tensor(tensor("r", t_shape));
    g.ops.push_back(op(OpKind::Reshape, "reshape", {"y", "flat"}, {"r"}));
    t = "r";
  }
  g.add_tensor(tensor("z", t_shape));
  const auto clip = [&](float lo, std::optional<float> hi) {
    g.add_tensor(constant("lo", {}, std::vector<float>{lo}, ir::DType::Float32));
    std::vector<std::string> ci{t, "lo"};
    if (hi) {
      g.add_tensor(constant("hi", {}, std::vector<float>{*hi}, ir::DType::Float32));
      ci.push_back("hi");
    }
    g.ops.push_back(op(OpKind::Clip, "act", ci, {"z"}));
  };
  switch (form) {
    case Form::Relu: g.ops.push_back(op(OpKind::Relu, "act", {t}, {"z"})); break;
    case Form::Clip06: clip(0.f, 6.f); break;
    case Form::Clip0Inf: clip(0.f, std::nullopt); break;
    case Form::ClipN11: clip(-1.f, 1.f); break;
    case Form::Sigmoid: g.ops.push_back(op(OpKind::Sigmoid, "act", {t}, {"z"})); break;
    case Form::Tanh: g.ops.push_back(op(OpKind::Tanh, "act", {t}, {"z"})); break;
    case Form::HardSwish: g.ops.push_back(op(OpKind::HardSwish, "act", {t}, {"z"})); break;
    case Form::Gelu: g.ops.push_back(op(OpKind::Gelu, "act", {t}, {"z"})); break;
    case Form::GeluTanh: {
      ir::Operation a = op(OpKind::Gelu, "act", {t}, {"z"});
      a.attributes["approximate"] = std::string("tanh");
      g.ops.push_back(a);
      break;
    }
    case Form::SiLU:
      g.add_tensor(tensor("s", t_shape));
      g.ops.push_back(op(OpKind::Sigmoid, "sigmoid", {t}, {"s"}));
      g.ops.push_back(op(OpKind::Mul, "act", {t, "s"}, {"z"}));
      break;
  }
  g.outputs = {"z"};
  return g;
}

std::string label(OpKind p, const FormCase& f, bool via) {
  return std::string(ir::op_info(p).name) + (via ? " -> Reshape" : "") + " -> " + f.label;
}

// Runs FuseActivation with `rules`; true when it folded the activation into the producer:
// one op (two with the Reshape) left, the producer carrying the activation, the last op
// writing the activation's output.
bool fused(ir::Graph& g, const ActivationFusion& rules, Activation want, bool via) {
  const PassResult r = make_fuse_activation_pass(rules)->run(g);
  const auto it = r.statistics.find("activations_fused");
  const std::int64_t n = it == r.statistics.end() ? 0 : it->second;
  if (n == 0) return false;
  EXPECT_EQ(n, 1);
  EXPECT_EQ(g.ops.size(), via ? 2u : 1u);
  EXPECT_EQ(g.ops[0].name, "producer");
  EXPECT_EQ(ir::fused_activation(g.ops[0]), want);
  EXPECT_EQ(g.ops.back().outputs, std::vector<std::string>{"z"});
  if (via) EXPECT_EQ(g.ops[1].kind, OpKind::Reshape);
  EXPECT_FALSE(g.find_tensor(via ? "r" : "y")) << "the producer's own result is gone";
  EXPECT_FALSE(g.find_tensor("s"));
  return true;
}

TEST(FuseActivation, CpuRulesFoldEveryPairTheSessionFolded) {
  for (OpKind p : kProducers)
    for (const FormCase& f : kForms)
      for (bool via : {false, true}) {
        ir::Graph g = pair_graph(p, f.form, via);
        // The CPU rules fold the session's pairs and the pass's own Clip forms alike.
        EXPECT_TRUE(fused(g, ActivationFusion::cpu_runtime(), f.act, via)) << label(p, f, via);
      }
}

TEST(FuseActivation, PortableRulesFoldWhatEveryWriterExpresses) {
  for (OpKind p : kProducers)
    for (const FormCase& f : kForms)
      for (bool via : {false, true}) {
        ir::Graph g = pair_graph(p, f.form, via);
        const bool want = linear(p) && f.portable && !via;
        EXPECT_EQ(fused(g, ActivationFusion::portable(), f.act, via), want) << label(p, f, via);
        // make_fuse_activation_pass() (the registered one) is the portable rules.
        ir::Graph h = pair_graph(p, f.form, via);
        const PassResult r = make_pass("FuseActivation")->run(h);
        EXPECT_EQ(r.statistics.count("activations_fused") > 0 && r.statistics.at("activations_fused") > 0, want)
            << label(p, f, via);
      }
}

TEST(FuseActivation, LeavesWhatNoRulesFold) {
  for (const ActivationFusion& rules : {ActivationFusion::portable(), ActivationFusion::cpu_runtime()}) {
    {  // the producer's result is a graph output too
      ir::Graph g = pair_graph(OpKind::Conv, Form::Relu, false);
      g.outputs.push_back("y");
      EXPECT_FALSE(fused(g, rules, Activation::Relu, false));
    }
    {  // read by another op besides the activation
      ir::Graph g = pair_graph(OpKind::Gemm, Form::Relu, false);
      g.add_tensor(tensor("y2", {2, 4}));
      g.ops.push_back(op(OpKind::Tanh, "other", {"y"}, {"y2"}));
      g.outputs.push_back("y2");
      EXPECT_FALSE(fused(g, rules, Activation::Relu, false));
    }
    {  // a Clip that is no activation the IR has
      ir::Graph g = pair_graph(OpKind::Conv, Form::Clip06, false);
      g.add_tensor(constant("hi", {}, std::vector<float>{5.f}, ir::DType::Float32));
      EXPECT_FALSE(fused(g, rules, Activation::Relu6, false));
    }
    {  // a producer with an activation already
      ir::Graph g = pair_graph(OpKind::Conv, Form::Sigmoid, false);
      ir::set_fused_activation(g.ops[0], Activation::Relu);
      EXPECT_FALSE(fused(g, rules, Activation::Sigmoid, false));
    }
    {  // x * Sigmoid(x) where the Sigmoid's result is read elsewhere too
      ir::Graph g = pair_graph(OpKind::Conv, Form::SiLU, false);
      g.outputs.push_back("s");
      EXPECT_FALSE(fused(g, rules, Activation::SiLU, false));
    }
  }
  {  // the CPU rules: f32 results only
    ir::Graph g = pair_graph(OpKind::Add, Form::Relu, false);
    for (const char* n : {"x", "y", "z"}) g.find_tensor(n)->dtype = ir::DType::Int32;
    EXPECT_FALSE(fused(g, ActivationFusion::cpu_runtime(), Activation::Relu, false));
  }
}

// The session folds with the CPU rules at load; its results equal the model's own graph
// run op by op (keep_intermediates) for every pair, NCHW (the graph the pass sees as above)
// and channels-last.
TEST(FuseActivationSession, ResultsEqualTheUnfusedGraph) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-4.f, 4.f);
  for (OpKind p : kProducers)
    for (const FormCase& f : kForms)
      for (bool via : {false, true}) {
        const ir::FrozenGraph g = ir::freeze(pair_graph(p, f.form, via));
        const std::vector<std::int64_t> shape = g->find_tensor("x")->shape.sizes();
        std::vector<float> xv(p == OpKind::Conv || !linear(p) ? 36u : 8u);
        for (auto& v : xv) v = u(rng);
        const std::map<std::string, runtime::Tensor> in{
            {"x", runtime::Tensor::from_values(ir::DType::Float32, shape, xv)}};
        runtime::SessionOptions own;
        own.keep_intermediates = true;
        runtime::InferenceSession ref(own);
        ref.load(g);
        const auto want = ref.run(in).at("z").to_float_vector();
        for (bool channels_last : {false, true}) {
          runtime::SessionOptions o;
          o.channels_last = channels_last;
          runtime::InferenceSession s(o);
          s.load(g);
          if (!channels_last) EXPECT_EQ(s.fused_activations(), 1) << label(p, f, via);
          const auto got = s.run(in).at("z").to_float_vector();
          ASSERT_EQ(got.size(), want.size()) << label(p, f, via);
          for (std::size_t i = 0; i < got.size(); ++i)
            ASSERT_NEAR(got[i], want[i], 1e-5f * std::max(1.f, std::abs(want[i])))
                << label(p, f, via) << " element " << i << (channels_last ? " (channels-last)" : "");
        }
      }
}

}  // namespace
}  // namespace ec::passes
