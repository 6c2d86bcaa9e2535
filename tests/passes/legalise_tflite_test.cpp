// LegaliseTflite's decompositions on variants the ONNX node cases do not cover: each
// graph is rewritten (no op of the decomposed kind is left), runs on the CPU runtime
// with the original's outputs (1e-5 of max(1, max|y|)) and is accepted by the TFLite writer.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "core/backends/tflite/tflite_writer.h"
#include "core/ir/text_format.h"
#include "core/passes/pass_manager.h"
#include "core/session/session.h"

namespace ec::passes {
namespace {

// Makes graph input `name` a float constant of deterministic values in [lo, hi].
void make_constant(ir::Graph& g, const std::string& name, float lo, float hi, unsigned seed) {
  ir::Tensor* t = g.find_tensor(name);
  ASSERT_NE(t, nullptr) << name;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(static_cast<std::size_t>(*t->shape.num_elements()));
  for (float& x : v) x = d(rng);
  t->data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(float));
  std::erase(g.inputs, name);
}

std::map<std::string, runtime::Tensor> run(const ir::Graph& g, const std::map<std::string, runtime::Tensor>& in) {
  runtime::SessionOptions o;
  o.channels_last = false;
  runtime::InferenceSession s(o);
  s.load(ir::freeze(g));
  return s.run(in);
}

// Legalises `g`, checks that no `gone` op is left, the outputs match, and the writer takes it.
// `left(op)`: an op of the form the pass must rewrite.
void expect_legalised(const ir::Graph& original, const std::function<bool(const ir::Operation&)>& left) {
  ir::Graph g = original;
  PassManager pm = make_pipeline({"LegaliseTflite"});
  pm.run(g);
  for (const auto& op : g.ops) EXPECT_FALSE(left(op)) << "left: " << op.name;
  runtime::SessionOptions o;
  o.channels_last = false;
  runtime::InferenceSession s(o);
  s.load(ir::freeze(original));
  const auto inputs = s.random_inputs(7);
  const auto want = s.run(inputs), got = run(g, inputs);
  ASSERT_EQ(want.size(), got.size());
  for (const auto& [name, a] : want) {
    const auto it = got.find(name);
    ASSERT_NE(it, got.end()) << name;
    const runtime::Tensor& b = it->second;
    ASSERT_EQ(a.shape(), b.shape()) << name;
    double ref = 1, diff = 0;
    for (std::int64_t i = 0; i < a.numel(); ++i) {
      ref = std::max(ref, std::abs(a.get_double(i)));
      diff = std::max(diff, std::abs(a.get_double(i) - b.get_double(i)));
    }
    EXPECT_LE(diff / ref, 1e-5) << name;
  }
  EXPECT_NO_THROW(backends::tflite::save_tflite(backends::tflite::prepare_for_tflite(original, {})));
}

void expect_legalised(const ir::Graph& original, ir::OpKind gone) {
  expect_legalised(original, [gone](const ir::Operation& op) { return op.kind == gone; });
}

TEST(LegaliseTflite, MeanOfThreeBroadcastInputs) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %a : f32[2,3,4]
  input %b : f32[3,1]
  input %c : f32[4]
  %y = Mean(%a, %b, %c) : f32[2,3,4]
  output %y
})");
  expect_legalised(g, ir::OpKind::Mean);
}

TEST(LegaliseTflite, MaxOfFourAndSumOfOne) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %a : f32[2,3]
  input %b : f32[1,3]
  input %c : f32[2,1]
  input %d : f32[3]
  %m = Max(%a, %b, %c, %d) : f32[2,3]
  %s = Sum(%m) : f32[2,3]
  output %s
})");
  expect_legalised(g, [](const ir::Operation& op) { return op.kind == ir::OpKind::Max && op.inputs.size() != 2; });
  ir::Graph one = ir::parse(R"(graph "g" {
  input %a : f32[2,3]
  %s = Sum(%a) : f32[2,3]
  output %s
})");
  expect_legalised(one, ir::OpKind::Sum);
}

TEST(LegaliseTflite, GemmTransAAlphaBetaVectorC) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %a : f32[5,3]
  input %b : f32[4,5]
  input %c : f32[4]
  %y = Gemm(%a, %b, %c) {transA = 1, transB = 1, alpha = 0.5, beta = 2.0} : f32[3,4]
  output %y
})");
  make_constant(g, "b", -1, 1, 1);
  make_constant(g, "c", -1, 1, 2);
  expect_legalised(g, [](const ir::Operation& op) {  // the plain Gemm made is FULLY_CONNECTED's own
    return op.kind == ir::OpKind::Gemm && (op.attr_int("transA", 0) != 0 || op.attr("alpha") || op.attr("beta"));
  });
}

TEST(LegaliseTflite, GemmColumnBiasAndRuntimeWeights) {
  // C [M, 1] broadcasts along rows: it is no FULLY_CONNECTED bias even when M == N.
  ir::Graph g = ir::parse(R"(graph "g" {
  input %a : f32[4,3]
  input %b : f32[3,4]
  input %c : f32[4,1]
  %y = Gemm(%a, %b, %c) {beta = 0.25} : f32[4,4]
  output %y
})");
  make_constant(g, "c", -1, 1, 3);
  expect_legalised(g, ir::OpKind::Gemm);
}

TEST(LegaliseTflite, RnnBidirectionalOddHidden) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[4,2,3]
  input %w : f32[2,5,3]
  input %r : f32[2,5,5]
  input %bias : f32[2,10]
  %y, %yh = RNN(%x, %w, %r, %bias) {direction = "bidirectional", hidden_size = 5, activations = ["Relu", "Tanh"], clip = 2.5} : f32[4,2,2,5], f32[2,2,5]
  output %y
  output %yh
})");
  make_constant(g, "w", -0.6f, 0.6f, 4);
  make_constant(g, "r", -0.6f, 0.6f, 5);
  make_constant(g, "bias", -0.3f, 0.3f, 6);
  expect_legalised(g, ir::OpKind::RNN);
}

TEST(LegaliseTflite, RnnReverseLayoutOneSoftsign) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[2,3,4]
  input %w : f32[1,3,4]
  input %r : f32[1,3,3]
  %y, %yh = RNN(%x, %w, %r) {direction = "reverse", hidden_size = 3, layout = 1, activations = ["Softsign"]} : f32[2,3,1,3], f32[2,1,3]
  output %y
  output %yh
})");
  make_constant(g, "w", -0.6f, 0.6f, 7);
  make_constant(g, "r", -0.6f, 0.6f, 8);
  expect_legalised(g, ir::OpKind::RNN);
}

TEST(LegaliseTflite, GruLinearBeforeResetRuntimeWeights) {
  // W, R and B are graph inputs (computed at run time): sliced per direction, MatMul, Add.
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[3,2,4]
  input %w : f32[2,9,4]
  input %r : f32[2,9,3]
  input %bias : f32[2,18]
  %y, %yh = GRU(%x, %w, %r, %bias) {direction = "bidirectional", hidden_size = 3, linear_before_reset = 1} : f32[3,2,2,3], f32[2,2,3]
  output %y
  output %yh
})");
  expect_legalised(g, ir::OpKind::GRU);
}

TEST(LegaliseTflite, SoftmaxMiddleAxisAndLogSoftmaxFirst) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[2,3,4]
  %s = Softmax(%x) {axis = 1} : f32[2,3,4]
  %l = LogSoftmax(%s) {axis = -3} : f32[2,3,4]
  output %l
})");
  expect_legalised(g, [](const ir::Operation& op) {
    return (op.kind == ir::OpKind::Softmax || op.kind == ir::OpKind::LogSoftmax) && op.attr_int("axis", -1) != -1;
  });
}

TEST(LegaliseTflite, ReduceLogSumExpNoKeepdimsMiddleAxes) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[2,3,4,5]
  %y = ReduceLogSumExp(%x) {axes = [1,-2], keepdims = 0} : f32[2,5]
  output %y
})");
  expect_legalised(g, ir::OpKind::ReduceLogSumExp);
}

TEST(LegaliseTflite, GroupNormPerGroupScaleAndLrnEvenSize) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[2,6,3,2]
  input %scale : f32[3]
  input %bias : f32[3]
  %n = GroupNormalization(%x, %scale, %bias) {num_groups = 3, epsilon = 0.001} : f32[2,6,3,2]
  %y = LRN(%n) {size = 4, alpha = 0.5, beta = 0.6, bias = 2.0} : f32[2,6,3,2]
  output %y
})");
  make_constant(g, "scale", 0.5f, 1.5f, 9);
  make_constant(g, "bias", -1, 1, 10);
  expect_legalised(g, ir::OpKind::GroupNormalization);
  expect_legalised(g, ir::OpKind::LRN);
}

TEST(LegaliseTflite, EluFamilyAndThresholdedReluNegativeAlpha) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[3,8]
  %a = Celu(%x) {alpha = 0.7} : f32[3,8]
  %b = Selu(%a) : f32[3,8]
  %c = ThresholdedRelu(%b) {alpha = -0.2} : f32[3,8]
  %d = Mish(%c) : f32[3,8]
  output %d
})");
  expect_legalised(g, ir::OpKind::Celu);
  expect_legalised(g, ir::OpKind::ThresholdedRelu);
}

TEST(LegaliseTflite, DepthToSpaceCrd) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[1,8,2,3]
  %y = DepthToSpace(%x) {blocksize = 2, mode = "CRD"} : f32[1,2,4,6]
  output %y
})");
  expect_legalised(g, [](const ir::Operation& op) {
    return op.kind == ir::OpKind::DepthToSpace && op.attr_string("mode", "DCR") != "DCR";
  });
}

TEST(LegaliseTflite, LpPoolPaddedStridedAndGlobal) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[1,3,5,6]
  input %z : f32[2,4,7]
  %a = LpPool(%x) {kernel_shape = [2,3], p = 3, pads = [1,0,0,1], strides = [2,1]} : f32[1,3,3,5]
  %b = GlobalLpPool(%x) {p = 2} : f32[1,3,1,1]
  %c = LpPool(%z) {kernel_shape = [3], p = 1, strides = [2]} : f32[2,4,3]
  output %a
  output %b
  output %c
})");
  expect_legalised(g, [](const ir::Operation& op) {
    return op.kind == ir::OpKind::LpPool || op.kind == ir::OpKind::GlobalLpPool;
  });
}

TEST(LegaliseTflite, Compress) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %w : f32[3,4]
  const %c : bool[4] = hex"01000101"
  %p = Compress(%w, %c) {axis = 1} : f32[3,3]
  %q = Compress(%w, %c) : f32[3]
  output %p
  output %q
})");
  expect_legalised(g, ir::OpKind::Compress);
}

// The CPU runtime has no CenterCropPad kernel: the legalised graph is checked against
// the op's definition (the window starts at (in - out) / 2; padding puts (out - in) / 2
// zeros before).
TEST(LegaliseTflite, CenterCropPadCropsOneAxisAndPadsAnother) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[2,5,4]
  const %s : i64[2] = hex"03000000000000000700000000000000"
  %y = CenterCropPad(%x, %s) {axes = [1,2]} : f32[2,3,7]
  output %y
})");
  PassManager pm = make_pipeline({"LegaliseTflite"});
  pm.run(g);
  for (const auto& op : g.ops) EXPECT_NE(op.kind, ir::OpKind::CenterCropPad);
  runtime::Tensor x(ir::DType::Float32, {2, 5, 4});
  for (std::int64_t i = 0; i < x.numel(); ++i) x.mutable_data<float>()[i] = static_cast<float>(i + 1);
  const runtime::Tensor y = run(g, {{"x", x}}).at("y");
  ASSERT_EQ(y.shape(), (std::vector<std::int64_t>{2, 3, 7}));
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t i = 0; i < 3; ++i)
      for (std::int64_t j = 0; j < 7; ++j) {
        const std::int64_t src = j - 1;  // one zero column before (7 - 4) / 2 = 1
        const float want = src >= 0 && src < 4 ? static_cast<float>(b * 20 + (i + 1) * 4 + src + 1) : 0.f;
        EXPECT_EQ(y.data<float>()[(b * 3 + i) * 7 + j], want) << b << "," << i << "," << j;
      }
  EXPECT_NO_THROW(backends::tflite::save_tflite(backends::tflite::prepare_for_tflite(g, {})));
}

TEST(LegaliseTflite, InverseTrigonometryOverTheirDomains) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[4,6]
  const %k : f32[] = hex"0000a040"
  %t = Tanh(%x) : f32[4,6]
  %a = Asin(%t) : f32[4,6]
  %b = Acos(%t) : f32[4,6]
  %m = Mul(%x, %k) : f32[4,6]
  %c = Atan(%m) : f32[4,6]
  output %a
  output %b
  output %c
})");
  expect_legalised(g, [](const ir::Operation& op) {
    return op.kind == ir::OpKind::Asin || op.kind == ir::OpKind::Acos || op.kind == ir::OpKind::Atan;
  });
}

}  // namespace
}  // namespace ec::passes
