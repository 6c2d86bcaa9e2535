// InferenceSession: dynamic shapes, input checking, refusals, benchmark.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/session/session.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

// y = Relu(x + bias) over x : f32[batch,3]
ir::FrozenGraph tiny_graph(const std::string& op_type = "Relu") {
  ir::Graph g;
  g.name = "tiny";
  ir::Shape s;
  s.dims = {ir::Dim::named("batch"), ir::Dim::fixed(3)};
  g.add_tensor({"x", ir::DType::Float32, s, std::nullopt, std::nullopt});
  const float bias[3] = {1, -1, 0};
  g.add_tensor({"bias", ir::DType::Float32, ir::Shape::of({3}), ir::ConstantData::copy_of(bias, sizeof bias), std::nullopt});
  g.add_tensor({"t", ir::DType::Float32, s, std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, s, std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.ops.push_back(make_op("Add", {"x", "bias"}, {"t"}));
  g.ops.push_back(make_op(op_type, {"t"}, {"y"}));
  return ir::freeze(std::move(g));
}

TEST(Session, RunsWithAnyBatch) {
  InferenceSession s;
  s.load(tiny_graph());
  for (std::int64_t batch : {1, 4}) {
    std::vector<float> v(static_cast<std::size_t>(batch * 3), 0.5f);
    auto out = s.run({{"x", f32({batch, 3}, v)}});
    ASSERT_EQ(out.count("y"), 1u);
    EXPECT_EQ(out["y"].shape(), (std::vector<std::int64_t>{batch, 3}));
    EXPECT_FLOAT_EQ(out["y"].data<float>()[0], 1.5f);
    EXPECT_FLOAT_EQ(out["y"].data<float>()[1], 0.0f);
  }
}

// Add + activation (a residual block's Relu, and the others): the session folds the
// activation into the Add, which applies it piece by piece; results equal Add then the
// activation, on small and large (split over the pool) tensors, at 1 and 2 threads.
TEST(Session, FoldsActivationIntoAdd) {
  const struct {
    const char* op;
    double (*f)(double);
    double tol;
  } cases[] = {{"Relu", [](double v) { return std::max(v, 0.0); }, 0.0},
               {"Sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }, 1e-6},
               {"Tanh", [](double v) { return std::tanh(v); }, 1e-6},
               {"HardSwish", [](double v) { return v * std::clamp(v / 6 + 0.5, 0.0, 1.0); }, 1e-6}};
  for (const auto& c : cases)
    for (int threads : {1, 2})
      for (std::int64_t batch : {1, 5, 100003}) {
        SCOPED_TRACE(std::string(c.op) + " threads " + std::to_string(threads) + " batch " +
                     std::to_string(batch));
        SessionOptions o;
        o.threads = threads;
        InferenceSession s(o);
        s.load(tiny_graph(c.op));
        EXPECT_EQ(s.fused_activations(), 1);
        std::vector<float> v(static_cast<std::size_t>(batch * 3));
        for (std::size_t i = 0; i < v.size(); ++i)
          v[i] = static_cast<float>(i * 7919 % 2001) * 0.005f - 5.f;
        const auto y = s.run({{"x", f32({batch, 3}, v)}}).at("y").to_float_vector();
        ASSERT_EQ(y.size(), v.size());
        const float bias[3] = {1, -1, 0};
        int bad = 0;
        for (std::size_t i = 0; i < v.size(); ++i) {
          const double want = c.f(static_cast<double>(v[i] + bias[i % 3]));
          if (std::fabs(y[i] - want) > c.tol * std::fabs(want) + 1e-7 && ++bad < 4)
            ADD_FAILURE() << "y[" << i << "] = " << y[i] << ", want " << want;
        }
        EXPECT_EQ(bad, 0);
      }
}

// x -> Conv(w, b) -> Clip(0, 6) -> Relu... : the session folds Clip(0,6) into the
// Conv (RELU6 in its epilogue) and the result equals the unfused reference ops.
ir::FrozenGraph conv_clip_graph(bool clip_is_output_reader_too) {
  ir::Graph g;
  g.name = "conv_clip";
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({1, 4, 9, 9}), std::nullopt, std::nullopt});
  std::vector<float> w(8 * 4 * 3 * 3), b(8);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>((i * 37 % 11) - 5) * 0.3f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i) - 3.f;
  const float lo = 0.f, hi = 6.f;
  g.add_tensor({"w", ir::DType::Float32, ir::Shape::of({8, 4, 3, 3}), ir::ConstantData::copy_of(w.data(), w.size() * 4), std::nullopt});
  g.add_tensor({"b", ir::DType::Float32, ir::Shape::of({8}), ir::ConstantData::copy_of(b.data(), b.size() * 4), std::nullopt});
  g.add_tensor({"lo", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&lo, 4), std::nullopt});
  g.add_tensor({"hi", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&hi, 4), std::nullopt});
  g.add_tensor({"c", ir::DType::Float32, ir::Shape::of({1, 8, 9, 9}), std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, ir::Shape::of({1, 8, 9, 9}), std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  if (clip_is_output_reader_too) g.outputs.push_back("c");  // c has another reader: no fusion
  g.ops.push_back(make_op("Conv", {"x", "w", "b"}, {"c"}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}));
  g.ops.push_back(make_op("Clip", {"c", "lo", "hi"}, {"y"}));
  return ir::freeze(std::move(g));
}

TEST(Session, FoldsClipIntoConvAndMatchesUnfusedOps) {
  std::vector<float> xv(4 * 9 * 9);
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>((i * 13 % 17)) * 0.2f - 1.5f;
  const Tensor x = f32({1, 4, 9, 9}, xv);
  InferenceSession fused, unfused;
  fused.load(conv_clip_graph(false));
  unfused.load(conv_clip_graph(true));
  EXPECT_EQ(fused.fused_activations(), 1);
  EXPECT_EQ(unfused.fused_activations(), 0);
  const auto a = fused.run({{"x", x}}).at("y").to_float_vector();
  const auto b = unfused.run({{"x", x}}).at("y").to_float_vector();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) EXPECT_FLOAT_EQ(a[i], b[i]) << i;
  EXPECT_GT(*std::max_element(a.begin(), a.end()), 5.99f);  // the clamp is exercised
}

// x [2, 5, 24] -> FullyConnected(w [40, 24], b) -> Reshape [2, 5, 40] -> Gelu (what OpFusion
// makes of a transformer's MLP): the Gelu folds through the Reshape into the GEMM's
// epilogue (applied per strip while in cache), the same values as the ops one by one.
ir::FrozenGraph fc_reshape_gelu_graph(bool reshape_output_read_too,
                                      const std::string& approximate) {
  ir::Graph g;
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({10, 24}), std::nullopt, std::nullopt});
  std::vector<float> w(40 * 24), b(40);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = static_cast<float>(static_cast<int>(i * 37 % 29) - 14) * 0.05f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 7) * 0.3f - 1.f;
  const std::int64_t shape[3] = {2, 5, 40};
  g.add_tensor({"w", ir::DType::Float32, ir::Shape::of({40, 24}),
                ir::ConstantData::copy_of(w.data(), w.size() * 4), std::nullopt});
  g.add_tensor({"b", ir::DType::Float32, ir::Shape::of({40}),
                ir::ConstantData::copy_of(b.data(), b.size() * 4), std::nullopt});
  g.add_tensor({"shape", ir::DType::Int64, ir::Shape::of({3}),
                ir::ConstantData::copy_of(shape, sizeof shape), std::nullopt});
  g.add_tensor({"h", ir::DType::Float32, ir::Shape::of({10, 40}), std::nullopt, std::nullopt});
  g.add_tensor({"r", ir::DType::Float32, ir::Shape::of({2, 5, 40}), std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, ir::Shape::of({2, 5, 40}), std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  if (reshape_output_read_too) g.outputs.push_back("r");
  g.ops.push_back(make_op("FullyConnected", {"x", "w", "b"}, {"h"}));
  g.ops.push_back(make_op("Reshape", {"h", "shape"}, {"r"}));
  g.ops.push_back(make_op("Gelu", {"r"}, {"y"}, {{"approximate", approximate}}));
  return ir::freeze(std::move(g));
}

TEST(Session, FoldsGeluThroughReshapeIntoFullyConnected) {
  std::vector<float> xv(10 * 24);
  for (std::size_t i = 0; i < xv.size(); ++i)
    xv[i] = static_cast<float>(static_cast<int>(i * 13 % 17) - 8) * 0.25f;
  const Tensor x = f32({10, 24}, xv);
  for (const std::string approximate : {"none", "tanh"}) {
    InferenceSession fused, unfused;
    fused.load(fc_reshape_gelu_graph(false, approximate));
    unfused.load(fc_reshape_gelu_graph(true, approximate));
    EXPECT_EQ(fused.fused_activations(), 1) << approximate;
    EXPECT_EQ(unfused.fused_activations(), 0) << approximate;
    const Tensor ya = fused.run({{"x", x}}).at("y");
    EXPECT_EQ(ya.shape(), (std::vector<std::int64_t>{2, 5, 40}));
    const auto a = ya.to_float_vector();
    const auto b = unfused.run({{"x", x}}).at("y").to_float_vector();
    ASSERT_EQ(a.size(), b.size());
    int negative = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_FLOAT_EQ(a[i], b[i]) << approximate << " element " << i;
      negative += a[i] < -1e-3f;
    }
    EXPECT_GT(negative, 10) << "GELU's negative side is exercised";
  }
}

TEST(Session, ThreadCountDoesNotChangeResults) {
  std::vector<float> xv(4 * 9 * 9);
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>((i * 7 % 23)) * 0.1f - 1.f;
  const Tensor x = f32({1, 4, 9, 9}, xv);
  std::vector<std::vector<float>> outs;
  for (int t : {1, 2, 3}) {
    SessionOptions o;  // our own kernels: bitwise equal whatever the thread count (by design)
    o.threads = t;
    o.channels_last = false;
    InferenceSession s(o);
    s.load(conv_clip_graph(false));
    EXPECT_EQ(s.threads(), t);
    outs.push_back(s.run({{"x", x}}).at("y").to_float_vector());
  }
  EXPECT_EQ(outs[0], outs[1]);
  EXPECT_EQ(outs[0], outs[2]);
  EXPECT_GE(InferenceSession().threads(), 1);  // 0 = every core
}

// Conv (+ bias) -> activation over x f32[n, c, h, w], weights from a fixed pattern.
struct ConvCase {
  std::int64_t n, c, h, w, m, k, stride, dilation, group;
  std::vector<std::int64_t> pads;  // t, l, b, r
  bool bias;
  std::string act;  // "", "Clip6", "SiLU" or an activation op type (folded into the Conv at load)
};

ir::FrozenGraph conv_case_graph(const ConvCase& cc) {
  ir::Graph g;
  g.name = "conv_case";
  const std::int64_t oh = (cc.h + cc.pads[0] + cc.pads[2] - cc.dilation * (cc.k - 1) - 1) / cc.stride + 1;
  const std::int64_t ow = (cc.w + cc.pads[1] + cc.pads[3] - cc.dilation * (cc.k - 1) - 1) / cc.stride + 1;
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({cc.n, cc.c, cc.h, cc.w}), std::nullopt, std::nullopt});
  std::vector<float> w(static_cast<std::size_t>(cc.m * (cc.c / cc.group) * cc.k * cc.k)), b(cc.m);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 37 % 11) - 5) * 0.1f;
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  g.add_tensor({"w", ir::DType::Float32, ir::Shape::of({cc.m, cc.c / cc.group, cc.k, cc.k}),
                ir::ConstantData::copy_of(w.data(), w.size() * 4), std::nullopt});
  g.add_tensor({"b", ir::DType::Float32, ir::Shape::of({cc.m}), ir::ConstantData::copy_of(b.data(), b.size() * 4),
                std::nullopt});
  const float lo = 0.f, hi = 6.f;
  g.add_tensor({"lo", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&lo, 4), std::nullopt});
  g.add_tensor({"hi", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&hi, 4), std::nullopt});
  const auto out = ir::Shape::of({cc.n, cc.m, oh, ow});
  g.add_tensor({"c", ir::DType::Float32, out, std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, out, std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  std::vector<std::string> ins{"x", "w"};
  if (cc.bias) ins.push_back("b");
  const std::string conv_out = cc.act.empty() ? "y" : "c";
  g.ops.push_back(make_op("Conv", ins, {conv_out},
                          {{"pads", cc.pads},
                           {"strides", std::vector<std::int64_t>{cc.stride, cc.stride}},
                           {"dilations", std::vector<std::int64_t>{cc.dilation, cc.dilation}},
                           {"group", cc.group}}));
  if (cc.act == "Clip6") {
    g.ops.push_back(make_op("Clip", {"c", "lo", "hi"}, {"y"}));
  } else if (cc.act == "SiLU") {  // x * Sigmoid(x), as torch exports nn.SiLU
    g.add_tensor({"s", ir::DType::Float32, out, std::nullopt, std::nullopt});
    g.ops.push_back(make_op("Sigmoid", {"c"}, {"s"}));
    g.ops.push_back(make_op("Mul", {"c", "s"}, {"y"}));
  } else if (!cc.act.empty()) {
    g.ops.push_back(make_op(cc.act, {"c"}, {"y"}));
  }
  return ir::freeze(std::move(g));
}

// At load the session runs float convolutions channels-last on oneDNN (split over the
// pool in bands of output rows or whole images): every geometry equals our own NCHW
// kernels (channels_last off) to float rounding, at 1, 2 and 3 threads.
TEST(Session, ChannelsLastOnOneDnnMatchesOwnKernels) {
  const std::vector<ConvCase> cases = {
      {1, 3, 17, 15, 8, 3, 2, 1, 1, {1, 1, 1, 1}, true, "Relu"},      // stem: few input channels
      {1, 16, 12, 12, 24, 1, 1, 1, 1, {0, 0, 0, 0}, true, "Clip6"},   // pointwise
      {2, 16, 12, 12, 24, 1, 1, 1, 1, {0, 0, 0, 0}, false, ""},       // batch 2: whole images
      {1, 32, 14, 14, 32, 3, 1, 1, 32, {1, 1, 1, 1}, true, "Clip6"},  // depthwise
      {1, 32, 15, 15, 32, 3, 2, 1, 32, {0, 0, 1, 1}, true, ""},  // depthwise, stride 2, TF-style
                                                                 // pads
      {1, 8, 11, 9, 16, 7, 1, 1, 8, {3, 3, 3, 3}, true, ""},     // 7x7 depthwise-like, groups of 1
      {1, 12, 10, 10, 12, 3, 1, 2, 3, {2, 2, 2, 2}, true, "Sigmoid"},  // grouped, dilated
      {1, 6, 3, 13, 10, 3, 1, 1, 1, {0, 1, 2, 1}, true, "Relu"},  // fewer rows than a band each
      {3, 5, 9, 9, 7, 5, 3, 1, 1, {2, 1, 0, 2}, false, "Relu"},   // batch 3, asymmetric pads
      {1, 16, 10, 10, 16, 3, 1, 1, 16, {1, 1, 1, 1}, true, "HardSwish"},  // mobilenet_v3's
                                                                          // depthwise
      {1, 8, 7, 7, 12, 1, 1, 1, 1, {0, 0, 0, 0}, true, "Tanh"},
      {1, 24, 9, 9, 24, 5, 2, 1, 24, {2, 2, 2, 2}, true, "SiLU"},  // efficientnet's depthwise +
                                                                   // SiLU
      // 1x1 on one or two pixels (squeeze-excite): our GEMV instead of oneDNN
      {1, 96, 1, 1, 24, 1, 1, 1, 1, {0, 0, 0, 0}, true, "Relu"},
      {2, 40, 1, 1, 120, 1, 1, 1, 1, {0, 0, 0, 0}, false, "HardSwish"},
      {3, 16, 1, 1, 8, 1, 1, 1, 1, {0, 0, 0, 0}, true, "Sigmoid"},  // three pixels: oneDNN
      // 3x3 stride 1 with 32+ channels: oneDNN's Winograd kernels (with AVX-512)
      {1, 32, 14, 14, 48, 3, 1, 1, 1, {1, 1, 1, 1}, true, "Relu"},
      {2, 64, 9, 11, 32, 3, 1, 1, 1, {1, 1, 1, 1}, false, ""},     // batch 2, odd sizes
      {1, 40, 13, 8, 40, 3, 1, 1, 1, {0, 1, 1, 0}, true, "SiLU"},  // asymmetric pads, 40 channels
      {1, 48, 6, 6, 64, 3, 1, 1, 1, {1, 1, 1, 1}, true, "HardSwish"},
      {1, 32, 30, 5, 33, 3, 1, 1, 1, {1, 1, 1, 1}, true, "Clip6"},  // tall: bands at 2-3 threads
      {1, 256, 7, 7, 128, 3, 1, 1, 1, {1, 1, 1, 1}, true, "Relu"},  // deep, small plane
      // exp-based activations run as vmath over pieces of about 256 KiB of output, right
      // after each piece: several pieces at any thread count, and Winograd now takes them
      {1, 16, 64, 64, 48, 1, 1, 1, 1, {0, 0, 0, 0}, true, "SiLU"},
      {1, 48, 40, 40, 48, 3, 1, 1, 48, {1, 1, 1, 1}, true, "Sigmoid"},  // depthwise, 3 pieces
      {1, 32, 12, 12, 32, 3, 1, 1, 1, {1, 1, 1, 1}, true, "SiLU"},      // Winograd, channel pieces
      // a 5x5 plane (inception_v3's last blocks at 224x224): too few pixels for Winograd,
      // so no channel pieces (a direct piece writing every other run of channels would be
      // oneDNN's reference kernel)
      {1, 64, 5, 5, 64, 3, 1, 1, 1, {1, 1, 1, 1}, true, "Relu"},
      // under 4 output rows a band at 2-3 threads: pieces by output channels, each direct
      // one computed into a buffer of its own and copied into y (activations applied there)
      {1, 64, 3, 4, 48, 1, 1, 1, 1, {0, 0, 0, 0}, true, "SiLU"},
      {1, 32, 9, 9, 64, 3, 2, 1, 1, {1, 1, 1, 1}, true, "Clip6"},  // stride 2, 5x5 out
      {2, 32, 4, 4, 64, 1, 1, 1, 1, {0, 0, 0, 0}, false, "Relu"},  // 2 images, 3 threads
  };
  // Winograd runs where oneDNN has it (AVX-512: its F(2x2,3x3) and F(4x4,3x3) kernels).
  const bool wino = kernels::onednn_winograd_available();
  for (const auto& cc : cases) {
    const ir::FrozenGraph g = conv_case_graph(cc);
    std::vector<float> xv(static_cast<std::size_t>(cc.n * cc.c * cc.h * cc.w));
    for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(static_cast<int>(i * 7 % 23)) * 0.1f - 1.1f;
    const Tensor x = f32({cc.n, cc.c, cc.h, cc.w}, xv);
    SessionOptions own;
    own.channels_last = false;
    own.threads = 1;
    InferenceSession ref(own);
    ref.load(g);
    EXPECT_EQ(ref.channels_last_ops(), 0);
    const auto want = ref.run({{"x", x}}).at("y").to_float_vector();
    std::vector<std::vector<float>> got;
    const std::int64_t wino_before = kernels::onednn_winograd_pieces_run();
    const std::int64_t declined_before = kernels::onednn_reference_convs_declined();
    for (int t : {1, 2, 3}) {
      InferenceSession s({t});
      s.load(g);
      EXPECT_GE(s.channels_last_ops(), 1) << "conv of case m=" << cc.m << " k=" << cc.k;
      got.push_back(s.run({{"x", x}}).at("y").to_float_vector());
    }
    const bool wino_case = cc.k == 3 && cc.stride == 1 && cc.dilation == 1 && cc.group == 1 &&
                           cc.c >= 32 && cc.m >= 32;
    // oneDNN's Winograd kernels take channels in blocks of 16 and no post-op but RELU (the
    // others keep the direct kernel; SiLU, Sigmoid and Tanh are ours, after the pieces):
    // what it takes must run there, on planes of 48+ output pixels (fewer: direct).
    const std::int64_t pixels = cc.n * (cc.h + cc.pads[0] + cc.pads[2] - 2) * (cc.w + cc.pads[1] + cc.pads[3] - 2);
    if (wino && wino_case && pixels >= 48 && cc.c % 16 == 0 && cc.m % 16 == 0 &&
        (cc.act.empty() || cc.act == "Relu" || cc.act == "SiLU" || cc.act == "Sigmoid" ||
         cc.act == "Tanh")) {
      // (at least the 1-thread run: bands of fewer than 48 output pixels keep the direct kernel)
      EXPECT_GE(kernels::onednn_winograd_pieces_run() - wino_before, 1)
          << "Winograd, case m=" << cc.m;
    } else if (!wino_case) {
      EXPECT_EQ(kernels::onednn_winograd_pieces_run(), wino_before)
          << "no Winograd for case m=" << cc.m;
    }
    EXPECT_EQ(kernels::onednn_reference_convs_declined(), declined_before)
        << "a piece of case m=" << cc.m << " k=" << cc.k << " needed oneDNN's reference kernel";
    ASSERT_EQ(got[0].size(), want.size());
    float scale = 0;
    for (float v : want) scale = std::max(scale, std::abs(v));
    // Winograd's transforms round differently: within 5e-5 of the outputs' range (F(4x4, 3x3)
    // over 256 channels: 1.1e-5 seen), the direct kernels within 1e-5.
    const float tol = (wino_case ? 5e-5f : 1e-5f) * std::max(1.f, scale);
    for (std::size_t i = 0; i < want.size(); ++i)
      ASSERT_NEAR(got[0][i], want[i], tol)
          << "element " << i << " of case m=" << cc.m << " k=" << cc.k << " group=" << cc.group;
    // Each thread count cuts the output into other pieces, and oneDNN may block a piece
    // differently (its AVX2 kernels do): equal to rounding across thread counts, and
    // bitwise from run to run at one count.
    for (std::size_t t = 1; t < got.size(); ++t)
      for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[t][i], got[0][i], tol) << t + 1 << " threads, element " << i;
    InferenceSession again({2});
    again.load(g);
    EXPECT_EQ(again.run({{"x", x}}).at("y").to_float_vector(), got[1]) << "two runs at 2 threads, m=" << cc.m;
    if (!cc.act.empty()) {
      EXPECT_EQ(again.fused_activations(), 1) << cc.act << " folded into the Conv";
    }
  }
}

// An expanding 1x1 Conv -> activation -> depthwise Conv -> activation (the inverted
// residual's first half).
struct PairCase {
  std::int64_t n, c, m, h, w, k, stride, dilation;
  std::vector<std::int64_t> pads;  // the depthwise Conv's t, l, b, r
  std::string act1, act2;          // "", "Clip6", "SiLU" or an activation op type
  bool t_is_output;                // the 1x1 Conv's result is also a graph output
};

ir::FrozenGraph pair_graph(const PairCase& pc) {
  ir::Graph g;
  g.name = "pair";
  const std::int64_t oh =
      (pc.h + pc.pads[0] + pc.pads[2] - pc.dilation * (pc.k - 1) - 1) / pc.stride + 1;
  const std::int64_t ow =
      (pc.w + pc.pads[1] + pc.pads[3] - pc.dilation * (pc.k - 1) - 1) / pc.stride + 1;
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({pc.n, pc.c, pc.h, pc.w}), std::nullopt,
                std::nullopt});
  const auto constant = [&](const std::string& name, std::vector<std::int64_t> shape, int mul,
                            int mod, float scale) {
    std::int64_t count = 1;
    for (auto d : shape) count *= d;
    std::vector<float> v(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < v.size(); ++i)
      v[i] = static_cast<float>(static_cast<int>(i * mul % mod) - mod / 2) * scale;
    g.add_tensor({name, ir::DType::Float32, ir::Shape::of(shape),
                  ir::ConstantData::copy_of(v.data(), v.size() * 4), std::nullopt});
  };
  constant("w1", {pc.m, pc.c, 1, 1}, 37, 11, 0.1f);
  constant("b1", {pc.m}, 3, 5, 0.2f);
  constant("w2", {pc.m, 1, pc.k, pc.k}, 29, 13, 0.08f);
  constant("b2", {pc.m}, 7, 9, 0.1f);
  const float lo = 0.f, hi = 6.f;
  g.add_tensor({"lo", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&lo, 4),
                std::nullopt});
  g.add_tensor({"hi", ir::DType::Float32, ir::Shape::of({}), ir::ConstantData::copy_of(&hi, 4),
                std::nullopt});
  // op(in) -> out, then its activation (if any) -> `named`.
  const auto conv_act = [&](ir::Operation conv, const std::string& act, const std::string& named,
                            const ir::Shape& shape) {
    const std::string raw = act.empty() ? named : named + ".raw";
    conv.outputs = {raw};
    g.add_tensor({raw, ir::DType::Float32, shape, std::nullopt, std::nullopt});
    g.ops.push_back(std::move(conv));
    if (act.empty()) return;
    g.add_tensor({named, ir::DType::Float32, shape, std::nullopt, std::nullopt});
    if (act == "Clip6") {
      g.ops.push_back(make_op("Clip", {raw, "lo", "hi"}, {named}));
    } else if (act == "SiLU") {
      g.add_tensor({named + ".s", ir::DType::Float32, shape, std::nullopt, std::nullopt});
      g.ops.push_back(make_op("Sigmoid", {raw}, {named + ".s"}));
      g.ops.push_back(make_op("Mul", {raw, named + ".s"}, {named}));
    } else {
      g.ops.push_back(make_op(act, {raw}, {named}));
    }
  };
  conv_act(make_op("Conv", {"x", "w1", "b1"}, {}), pc.act1, "t",
           ir::Shape::of({pc.n, pc.m, pc.h, pc.w}));
  conv_act(make_op("Conv", {"t", "w2", "b2"}, {},
                   {{"pads", pc.pads},
                    {"strides", std::vector<std::int64_t>{pc.stride, pc.stride}},
                    {"dilations", std::vector<std::int64_t>{pc.dilation, pc.dilation}},
                    {"group", pc.m}}),
           pc.act2, "y", ir::Shape::of({pc.n, pc.m, oh, ow}));
  g.inputs = {"x"};
  g.outputs = {"y"};
  if (pc.t_is_output) g.outputs.push_back("t");
  return ir::freeze(std::move(g));
}

// The deterministic ramp input of `shape`, the graph's output "y" on it from our own NCHW
// kernels at 1 thread (the reference of the channels-last tests below), and the output's
// largest magnitude (at least 1: the tolerance's scale).
struct OwnKernelsRun {
  Tensor x;
  std::map<std::string, Tensor> outputs;
  std::vector<float> want;  // outputs["y"]
  float scale = 1;
};
OwnKernelsRun own_kernels_run(const ir::FrozenGraph& g, const std::vector<std::int64_t>& shape) {
  OwnKernelsRun r;
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  std::vector<float> xv(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(static_cast<int>(i * 7 % 23)) * 0.1f - 1.1f;
  r.x = f32(shape, xv);
  SessionOptions own;
  own.channels_last = false;
  own.threads = 1;
  InferenceSession ref(own);
  ref.load(g);
  r.outputs = ref.run({{"x", r.x}});
  r.want = r.outputs.at("y").to_float_vector();
  for (float v : r.want) r.scale = std::max(r.scale, std::abs(v));
  return r;
}

// An expanding 1x1 Conv and the depthwise Conv that alone reads its output (over 2 MiB)
// run together, band by band, each band's rows of the 1x1 Conv's output computed in a
// buffer: equal to our own NCHW kernels to float rounding at 1-3 threads, and to the two
// Convs run apart (EC_CONV_CHAIN=0) bitwise (the same oneDNN products on other row ranges).
TEST(Session, ExpandDepthwisePairRunsInBandsAsApart) {
  const std::vector<PairCase> cases = {
      {1, 16, 96, 80, 80, 3, 2, 1, {1, 1, 1, 1}, "Clip6", "Clip6", false},     // mobilenet_v2's
      {1, 8, 64, 97, 90, 3, 1, 1, {1, 1, 1, 1}, "Relu", "", false},            // stride 1, odd rows
      {2, 8, 48, 80, 72, 5, 2, 1, {2, 2, 1, 2}, "SiLU", "SiLU", false},        // batch 2, 5x5, pads
      {1, 12, 72, 90, 90, 3, 1, 2, {2, 2, 2, 2}, "HardSwish", "Relu", false},  // dilated
      {1, 4, 200, 60, 50, 3, 2, 1, {0, 0, 1, 1}, "", "HardSwish", false},      // TF-style pads
      {1, 16, 96, 80, 80, 3, 2, 1, {1, 1, 1, 1}, "Clip6", "Clip6", true},  // t read twice: apart
  };
  for (const auto& pc : cases) {
    SCOPED_TRACE("case c=" + std::to_string(pc.c) + " m=" + std::to_string(pc.m) +
                 " k=" + std::to_string(pc.k));
    const ir::FrozenGraph g = pair_graph(pc);
    const OwnKernelsRun ref_run = own_kernels_run(g, {pc.n, pc.c, pc.h, pc.w});
    const Tensor& x = ref_run.x;
    const auto& want = ref_run.want;
    const float scale = ref_run.scale;
    for (int t : {1, 2, 3}) {
      kernels::force_conv_chain(false);
      InferenceSession apart({t});
      apart.load(g);
      const auto expect = apart.run({{"x", x}}).at("y").to_float_vector();
      kernels::force_conv_chain(true);
      InferenceSession s({t});
      s.load(g);
      const std::int64_t before = kernels::onednn_conv_chains_run();
      const auto out = s.run({{"x", x}});
      const auto got = out.at("y").to_float_vector();
      EXPECT_EQ(kernels::onednn_conv_chains_run() - before,
                pc.t_is_output || !kernels::onednn_conv_enabled() ? 0 : 1)
          << t << " threads";
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5f * scale) << t << " threads, element " << i;
      EXPECT_EQ(got, expect) << t << " threads: in bands and apart";
      if (pc.t_is_output) {
        const auto t_want = ref_run.outputs.at("t").to_float_vector(),
                   t_got = out.at("t").to_float_vector();
        ASSERT_EQ(t_got.size(), t_want.size());
        for (std::size_t i = 0; i < t_want.size(); ++i)
          ASSERT_NEAR(t_got[i], t_want[i], 1e-5f * scale);
      }
    }
  }
}

// A residual Add (and the activation after it) folded into the channels-last Conv whose
// output only it reads (InferenceSession::fuse_conv_add): the Conv runs at the Add's place
// (here after the Conv making the other operand), adds it piece by piece and then applies
// the activation; equal to our NCHW kernels to float rounding at 1-3 threads, over whole
// pixels, several 256 KiB pieces, channel pieces (few rows), Winograd 3x3 and either operand
// order; with both Convs' outputs also graph outputs the Add runs apart.
TEST(Session, ResidualAddFoldsIntoTheConvBeforeIt) {
  struct Case {
    std::int64_t n, c, m, h, w, k;
    bool swap;
    const char* act;
    bool conv_is_output;
  };
  const std::vector<Case> cases = {
      {1, 8, 16, 12, 12, 3, false, "Relu", false},
      {1, 32, 48, 14, 14, 3, true, "Sigmoid", false},  // Winograd where oneDNN has it
      {2, 16, 64, 40, 40, 1, false, "Relu", false},    // 800 KiB: several pieces
      {1, 64, 48, 3, 4, 1, true, "", false},           // few rows: pieces by channels at 2-3 threads
      {1, 8, 16, 12, 12, 3, false, "Relu", true},      // both Convs' outputs read twice: apart
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("case m=" + std::to_string(c.m) + " h=" + std::to_string(c.h) + " k=" + std::to_string(c.k));
    ir::Graph g;
    g.name = "residual";
    const auto weights = [&](const std::string& name, std::int64_t m, std::int64_t k) {
      std::vector<float> w(static_cast<std::size_t>(m * c.c * k * k));
      for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 37 % 11) - 5) * 0.05f;
      g.add_tensor({name, ir::DType::Float32, ir::Shape::of({m, c.c, k, k}),
                    ir::ConstantData::copy_of(w.data(), w.size() * 4), std::nullopt});
    };
    weights("wa", c.m, c.k);
    weights("ws", c.m, 1);
    std::vector<float> b(static_cast<std::size_t>(c.m));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
    g.add_tensor({"ba", ir::DType::Float32, ir::Shape::of({c.m}), ir::ConstantData::copy_of(b.data(), b.size() * 4),
                  std::nullopt});
    const auto shape = ir::Shape::of({c.n, c.m, c.h, c.w});
    g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({c.n, c.c, c.h, c.w}), std::nullopt, std::nullopt});
    for (const char* t : {"ca", "sa", "t", "y"}) g.add_tensor({t, ir::DType::Float32, shape, std::nullopt, std::nullopt});
    const std::int64_t p = c.k / 2;
    g.ops.push_back(make_op("Conv", {"x", "wa", "ba"}, {"ca"}, {{"pads", std::vector<std::int64_t>{p, p, p, p}}}));
    g.ops.push_back(make_op("Conv", {"x", "ws"}, {"sa"}));  // after: the fused Conv moves past it
    const std::string act = c.act;
    g.ops.push_back(make_op("Add", c.swap ? std::vector<std::string>{"sa", "ca"} : std::vector<std::string>{"ca", "sa"},
                            {act.empty() ? "y" : "t"}));
    if (!act.empty()) g.ops.push_back(make_op(act, {"t"}, {"y"}));
    g.inputs = {"x"};
    g.outputs = {"y"};
    if (c.conv_is_output) g.outputs.insert(g.outputs.end(), {"ca", "sa"});  // (either could take the Add)
    const ir::FrozenGraph fg = ir::freeze(std::move(g));
    const OwnKernelsRun ref_run = own_kernels_run(fg, {c.n, c.c, c.h, c.w});
    const Tensor& x = ref_run.x;
    const auto& want = ref_run.want;
    const float scale = ref_run.scale;
    for (int t : {1, 2, 3}) {
      InferenceSession s({t});
      s.load(fg);
      if (!kernels::onednn_conv_enabled()) GTEST_SKIP() << "no channels-last Conv here (EC_CONV=own)";
      // the activation into the Add (or the Add's Relu/Sigmoid), the Add into the Conv
      EXPECT_EQ(s.fused_activations(), (act.empty() ? 0 : 1) + (c.conv_is_output ? 0 : 1)) << t << " threads";
      const auto got = s.run({{"x", x}}).at("y").to_float_vector();
      ASSERT_EQ(got.size(), want.size());
      for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5f * scale) << t << " threads, element " << i;
    }
  }
}

// Reductions of a channels-last tensor run on it, their axes moved (x.mean([2, 3]) before
// a classifier needs no Transpose back); without keepdims only when the remaining dims come
// out in the same order (a sum over H alone keeps C before W: it reads the NCHW tensor).
// Every output equals the NCHW run's at 1 and 2 threads.
TEST(Session, ReductionsOfChannelsLastTensorsRunOnThem) {
  ir::Graph g;
  g.name = "reductions";
  const std::int64_t C = 4, M = 600, H = 5, W = 6;  // M: more than one 512-channel block
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({1, C, H, W}), std::nullopt, std::nullopt});
  std::vector<float> w(static_cast<std::size_t>(M * C));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 37 % 11) - 5) * 0.1f;
  g.add_tensor({"w", ir::DType::Float32, ir::Shape::of({M, C, 1, 1}), ir::ConstantData::copy_of(w.data(), w.size() * 4),
                std::nullopt});
  g.add_tensor({"c", ir::DType::Float32, ir::Shape::of({1, M, H, W}), std::nullopt, std::nullopt});
  g.ops.push_back(make_op("Conv", {"x", "w"}, {"c"}));
  struct R {
    const char* type;
    const char* out;
    std::vector<std::int64_t> axes, shape;
    std::int64_t keep;
  };
  const std::vector<R> rs = {
      {"ReduceMean", "m", {2, 3}, {1, M}, 0},          // on the twin, written as it is
      {"ReduceMax", "k", {1}, {1, 1, H, W}, 1},        // a twin of its own
      {"ReduceMean", "q", {-1, -2}, {1, M, 1, 1}, 1},  // negative axes
      {"ReduceSum", "h", {2}, {1, M, W}, 0},           // [N, C, W] != [N, W, C]: NCHW
      {"ReduceL2", "a", {}, {1, 1, 1, 1}, 1},          // every axis
      {"ReduceMin", "n", {1, 3}, {1, H}, 0},           // C reduced: the same order
  };
  for (const R& r : rs) {
    g.add_tensor({r.out, ir::DType::Float32, ir::Shape::of(r.shape), std::nullopt, std::nullopt});
    std::map<std::string, ir::Attribute> attrs{{"keepdims", r.keep}};
    if (!r.axes.empty()) attrs["axes"] = r.axes;
    auto op = make_op(r.type, {"c"}, {r.out}, attrs);
    op.name = r.out;
    g.ops.push_back(op);
    g.outputs.push_back(r.out);
  }
  g.inputs = {"x"};
  const ir::FrozenGraph fg = ir::freeze(std::move(g));
  std::vector<float> xv(static_cast<std::size_t>(C * H * W));
  for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(static_cast<int>(i * 7 % 23)) * 0.1f - 1.1f;
  const Tensor x = f32({1, C, H, W}, xv);
  SessionOptions own;
  own.channels_last = false;
  InferenceSession ref(own);
  ref.load(fg);
  const auto want = ref.run({{"x", x}});
  for (int t : {1, 2}) {
    InferenceSession s({t});
    s.load(fg);
    if (!kernels::onednn_conv_enabled()) GTEST_SKIP() << "no channels-last Conv here (EC_CONV=own)";
    std::map<std::string, std::string> reads;
    for (const auto& op : s.graph().ops) reads[op.name] = op.inputs[0];
    for (const char* twin : {"m", "k", "q", "a", "n"}) EXPECT_NE(reads[twin], "c") << twin << " reads the NCHW tensor";
    EXPECT_EQ(reads["h"], "c");
    const auto got = s.run({{"x", x}});
    for (const R& r : rs) {
      const Tensor& a = want.at(r.out);
      const Tensor& b = got.at(r.out);
      ASSERT_EQ(b.shape(), a.shape()) << r.out;
      const auto av = a.to_float_vector(), bv = b.to_float_vector();
      for (std::size_t i = 0; i < av.size(); ++i)
        ASSERT_NEAR(bv[i], av[i], 1e-5f * std::max(1.f, std::abs(av[i]))) << r.out << " element " << i << ", " << t << " threads";
    }
  }
}

// 3-D convolutions run on oneDNN through channels-last copies (conv.cpp,
// conv_channels_last_onednn): equal to our own per-depth GEMMs (EC_CONV=own) to float
// rounding, with groups, strides, dilations, asymmetric pads, a fused Relu, batch 2, at 1
// and 2 threads. (Batch 2 with strides (2,1,2) found oneDNN wrong on 2-image pieces.)
TEST(Session, Conv3dOnOneDnnMatchesOwnKernels) {
  struct Case {
    std::vector<std::int64_t> x, w, strides, dilations, pads;
    std::int64_t group;
    bool relu;
  };
  const std::vector<Case> cases = {
      {{1, 3, 8, 20, 18}, {16, 3, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, 1, true},
      {{2, 8, 5, 9, 11}, {12, 4, 3, 1, 3}, {2, 1, 2}, {1, 1, 1}, {1, 0, 1, 0, 0, 1}, 2, false},
      {{1, 6, 6, 7, 7}, {6, 1, 3, 3, 3}, {1, 1, 1}, {2, 1, 2}, {2, 1, 2, 2, 1, 2}, 6, true},  // depthwise, dilated
      {{1, 16, 4, 6, 6}, {24, 16, 1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, 1, false},  // pointwise
      {{1, 8, 5, 9, 11}, {12, 8, 3, 1, 3}, {2, 1, 2}, {1, 1, 1}, {1, 0, 1, 0, 0, 1}, 1, false},
      {{1, 8, 5, 9, 11}, {12, 8, 3, 1, 3}, {1, 1, 1}, {1, 1, 1}, {1, 0, 1, 0, 0, 1}, 1, false},
      {{1, 8, 5, 9, 11}, {12, 8, 3, 1, 3}, {1, 1, 1}, {1, 1, 1}, {1, 0, 1, 1, 0, 1}, 1, false},
      {{1, 8, 5, 9, 11}, {12, 8, 3, 3, 3}, {2, 1, 2}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, 1, false},
      {{1, 8, 5, 9, 11}, {12, 4, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, 2, false},
      {{2, 8, 5, 9, 11}, {12, 8, 3, 1, 3}, {2, 1, 2}, {1, 1, 1}, {1, 0, 1, 0, 0, 1}, 1, false},
      {{1, 8, 5, 9, 11}, {12, 4, 3, 1, 3}, {2, 1, 2}, {1, 1, 1}, {1, 0, 1, 0, 0, 1}, 2, false},
      {{2, 8, 5, 9, 11}, {12, 8, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, 1, false},
      {{2, 3, 4, 5, 6}, {4, 3, 1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0, 0, 0, 0}, 1, false},
  };
  for (const auto& c : cases) {
    ir::Graph g;
    g.name = "conv3d";
    g.add_tensor({"x", ir::DType::Float32, ir::Shape::of(c.x), std::nullopt, std::nullopt});
    std::int64_t wn = 1;
    for (auto d : c.w) wn *= d;
    std::vector<float> w(static_cast<std::size_t>(wn)), b(static_cast<std::size_t>(c.w[0]));
    for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 37 % 11) - 5) * 0.1f;
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
    g.add_tensor({"w", ir::DType::Float32, ir::Shape::of(c.w), ir::ConstantData::copy_of(w.data(), w.size() * 4), std::nullopt});
    g.add_tensor({"b", ir::DType::Float32, ir::Shape::of({c.w[0]}), ir::ConstantData::copy_of(b.data(), b.size() * 4),
                  std::nullopt});
    g.add_tensor({"c", ir::DType::Float32, ir::Shape::unknown_rank(), std::nullopt, std::nullopt});
    g.add_tensor({"y", ir::DType::Float32, ir::Shape::unknown_rank(), std::nullopt, std::nullopt});
    g.inputs = {"x"};
    g.outputs = {"y"};
    g.ops.push_back(make_op("Conv", {"x", "w", "b"}, {c.relu ? "c" : "y"},
                            {{"pads", c.pads}, {"strides", c.strides}, {"dilations", c.dilations}, {"group", c.group}}));
    if (c.relu) g.ops.push_back(make_op("Relu", {"c"}, {"y"}));
    const ir::FrozenGraph fg = ir::freeze(std::move(g));
    kernels::force_own_conv(true);
    const OwnKernelsRun ref = own_kernels_run(fg, c.x);
    kernels::force_own_conv(false);
    for (int threads : {1, 2}) {
      SessionOptions o;
      o.threads = threads;
      InferenceSession s(o);
      s.load(fg);
      const auto got = s.run({{"x", ref.x}}).at("y");
      ASSERT_EQ(got.shape(), ref.outputs.at("y").shape());
      const auto v = got.to_float_vector();
      std::size_t bad = 0;
      for (std::size_t i = 0; i < v.size(); ++i) bad += std::abs(v[i] - ref.want[i]) > 1e-5f * ref.scale;
      EXPECT_EQ(bad, 0u) << "case x" << shape_string(c.x) << " w" << shape_string(c.w) << " s" << shape_string(c.strides) << " p" << shape_string(c.pads)
                                                           << ", " << threads << " threads";
    }
  }
}

TEST(Session, ArenaIsReusedAcrossRuns) {
  std::vector<float> xv(4 * 9 * 9, 0.25f);
  InferenceSession s;
  s.load(conv_clip_graph(true));
  const auto first = s.run({{"x", f32({1, 4, 9, 9}, xv)}}).at("y").to_float_vector();
  const std::size_t arena = s.arena_bytes();
  EXPECT_GE(arena, 2 * 8 * 9 * 9 * sizeof(float));  // c and y
  for (int i = 0; i < 3; ++i) EXPECT_EQ(s.run({{"x", f32({1, 4, 9, 9}, xv)}}).at("y").to_float_vector(), first);
  EXPECT_EQ(s.arena_bytes(), arena);  // later runs take every buffer from the arena
}

std::string run_error(const InferenceSession& s, const std::map<std::string, Tensor>& in) {
  try {
    s.run(in);
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Input);
    return e.what();
  }
  return "no error";
}

TEST(Session, InputErrorsNameTheInputAndExpectedType) {
  InferenceSession s;
  s.load(tiny_graph());
  EXPECT_EQ(run_error(s, {{"x", f32({1, 3, 1}, {1, 2, 3})}}), "input 'x': expected f32[batch,3], got f32[1,3,1]");
  EXPECT_EQ(run_error(s, {{"x", f32({1, 2}, {1, 2})}}), "input 'x': expected f32[batch,3], got f32[1,2]");
  EXPECT_EQ(run_error(s, {{"x", i64({1, 3}, {1, 2, 3})}}), "input 'x': expected f32[batch,3], got i64[1,3]");
  EXPECT_EQ(run_error(s, {}), "input 'x': missing (expected f32[batch,3])");
}

TEST(Session, OpWithoutKernelIsRefusedAtLoad) {
  InferenceSession s;
  try {
    s.load(tiny_graph("Loop"));
    FAIL();
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "Loop");
    EXPECT_NE(std::string(e.what()).find("the CPU runtime"), std::string::npos);
  }
}

TEST(Session, BenchmarkStatsAreOrdered) {
  InferenceSession s;
  s.load(tiny_graph());
  const Stats st = s.benchmark(20, 2);
  EXPECT_EQ(st.iterations, 20);
  EXPECT_LE(st.min_ms, st.p50_ms);
  EXPECT_LE(st.p50_ms, st.p95_ms);
  EXPECT_LE(st.p95_ms, st.p99_ms);
  EXPECT_LE(st.p99_ms, st.max_ms);
  EXPECT_GT(st.throughput, 0);
  EXPECT_GT(st.first_ms, 0);
  EXPECT_EQ(st.warmup, 2);
  EXPECT_GT(st.warmup_mean_ms, 0);
}

TEST(Session, BenchmarkWithoutWarmupStillTimesTheFirstRunApart) {
  InferenceSession s;
  s.load(tiny_graph());
  const Stats st = s.benchmark(3, 0);
  EXPECT_EQ(st.iterations, 3);
  EXPECT_EQ(st.warmup, 0);
  EXPECT_EQ(st.warmup_mean_ms, 0);
  EXPECT_GT(st.first_ms, 0);
  EXPECT_THROW(s.benchmark(3, -1), EdgeCompilerError);
}

}  // namespace
}  // namespace ec::runtime::test
