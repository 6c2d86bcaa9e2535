// A quantised graph built by hand per docs/QUANTISATION.md, run through
// InferenceSession against the float graph it came from:
//   x -> QuantizeLinear -> Conv(i8, fused RELU) ----+
//                       \-> Conv 1x1 (i8) ----------- Add -> DequantizeLinear -> y
// plus load-time errors (no int8 kernel, bad params).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "core/errors.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/session/session.h"
#include "test_util.h"

namespace ec::runtime {
namespace {

using test::make_op;
using Shape = std::vector<std::int64_t>;

template <typename T>
void add_const(ir::Graph& g, const std::string& name, ir::DType dt, Shape shape, const std::vector<T>& v,
               std::optional<ir::QuantParams> q = {}) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.shape = ir::Shape::of(shape);
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(T));
  t.quant = q;
  g.add_tensor(t);
}

void add_value(ir::Graph& g, const std::string& name, ir::DType dt, Shape shape, std::optional<ir::QuantParams> q = {}) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.shape = ir::Shape::of(shape);
  t.quant = q;
  g.add_tensor(t);
}

ir::QuantParams pt(float s, std::int64_t z, ir::DType dt = ir::DType::Int8) { return {dt, {s}, {z}, -1}; }

struct Model {
  std::vector<float> w1, b1, w2, b2;  // float weights: w1 [4,3,3,3], w2 [4,3,1,1]
};

Model make_model() {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  Model m;
  for (int i = 0; i < 4 * 3 * 9; ++i) m.w1.push_back(u(rng));
  for (int i = 0; i < 4; ++i) m.b1.push_back(u(rng));
  for (int i = 0; i < 4 * 3; ++i) m.w2.push_back(u(rng));
  for (int i = 0; i < 4; ++i) m.b2.push_back(u(rng));
  return m;
}

ir::Graph float_graph(const Model& m) {
  ir::Graph g;
  g.name = "float";
  add_value(g, "x", ir::DType::Float32, {1, 3, 8, 8});
  add_const(g, "w1", ir::DType::Float32, {4, 3, 3, 3}, m.w1);
  add_const(g, "b1", ir::DType::Float32, {4}, m.b1);
  add_const(g, "w2", ir::DType::Float32, {4, 3, 1, 1}, m.w2);
  add_const(g, "b2", ir::DType::Float32, {4}, m.b2);
  for (const char* n : {"c", "r", "d", "y"}) add_value(g, n, ir::DType::Float32, {1, 4, 8, 8});
  g.ops.push_back(make_op("Conv", {"x", "w1", "b1"}, {"c"}, {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}}));
  g.ops.push_back(make_op("Relu", {"c"}, {"r"}));
  g.ops.push_back(make_op("Conv", {"x", "w2", "b2"}, {"d"}));
  g.ops.push_back(make_op("Add", {"r", "d"}, {"y"}));
  g.inputs = {"x"};
  g.outputs = {"y"};
  return g;
}

// Symmetric per-output-channel int8 weights of w [M, ...].
std::vector<std::int8_t> quantise_weights(const std::vector<float>& w, std::int64_t M, std::vector<float>& scales) {
  const std::size_t k = w.size() / static_cast<std::size_t>(M);
  std::vector<std::int8_t> q(w.size());
  scales.clear();
  for (std::size_t c = 0; c < static_cast<std::size_t>(M); ++c) {
    float mx = 0;
    for (std::size_t i = 0; i < k; ++i) mx = std::max(mx, std::abs(w[c * k + i]));
    const float s = mx / 127.f;
    scales.push_back(s);
    for (std::size_t i = 0; i < k; ++i) q[c * k + i] = static_cast<std::int8_t>(std::round(w[c * k + i] / s));
  }
  return q;
}

ir::QuantParams range_params(float lo, float hi) {
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  const float s = (hi - lo) / 255.f;
  return pt(s, static_cast<std::int64_t>(std::round(-128.f - lo / s)));
}

struct Ranges {
  ir::QuantParams x, c, d, y;
};

ir::Graph quantised_graph(const Model& m, const Ranges& r) {
  ir::Graph g;
  g.name = "int8";
  add_value(g, "x", ir::DType::Float32, {1, 3, 8, 8});
  add_const(g, "x_scale", ir::DType::Float32, {}, std::vector<float>{r.x.scales[0]});
  add_const(g, "x_zp", ir::DType::Int8, {}, std::vector<std::int8_t>{static_cast<std::int8_t>(r.x.zero_points[0])});
  add_const(g, "y_scale", ir::DType::Float32, {}, std::vector<float>{r.y.scales[0]});
  add_const(g, "y_zp", ir::DType::Int8, {}, std::vector<std::int8_t>{static_cast<std::int8_t>(r.y.zero_points[0])});
  add_value(g, "xq", ir::DType::Int8, {1, 3, 8, 8}, r.x);
  auto conv_weights = [&](const std::string& name, const std::vector<float>& w, const std::vector<float>& b, Shape shape) {
    std::vector<float> ws;
    const auto q = quantise_weights(w, 4, ws);
    add_const(g, name, ir::DType::Int8, shape, q, ir::QuantParams{ir::DType::Int8, ws, {0, 0, 0, 0}, 0});
    std::vector<std::int32_t> bq;
    std::vector<float> bs;
    for (std::size_t c = 0; c < 4; ++c) {
      bs.push_back(r.x.scales[0] * ws[c]);
      bq.push_back(static_cast<std::int32_t>(std::round(b[c] / bs.back())));
    }
    add_const(g, name + "_bias", ir::DType::Int32, {4}, bq, ir::QuantParams{ir::DType::Int32, bs, {0, 0, 0, 0}, 0});
  };
  conv_weights("w1", m.w1, m.b1, {4, 3, 3, 3});
  conv_weights("w2", m.w2, m.b2, {4, 3, 1, 1});
  add_value(g, "c", ir::DType::Int8, {1, 4, 8, 8}, r.c);
  add_value(g, "d", ir::DType::Int8, {1, 4, 8, 8}, r.d);
  add_value(g, "s", ir::DType::Int8, {1, 4, 8, 8}, r.y);
  add_value(g, "y", ir::DType::Float32, {1, 4, 8, 8});
  g.ops.push_back(make_op("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}));
  g.ops.push_back(make_op("Conv", {"xq", "w1", "w1_bias"}, {"c"},
                          {{"pads", std::vector<std::int64_t>{1, 1, 1, 1}}, {"fused_activation", std::string("RELU")}}));
  g.ops.back().name = "conv1";
  g.ops.push_back(make_op("Conv", {"xq", "w2", "w2_bias"}, {"d"}));
  g.ops.back().name = "conv2";
  g.ops.push_back(make_op("Add", {"c", "d"}, {"s"}));
  g.ops.push_back(make_op("DequantizeLinear", {"s", "y_scale", "y_zp"}, {"y"}));
  g.inputs = {"x"};
  g.outputs = {"y"};
  return g;
}

Tensor random_input(unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(3 * 64);
  for (auto& e : v) e = u(rng);
  return Tensor::from_values(ir::DType::Float32, {1, 3, 8, 8}, v);
}

// Calibration: min/max of each float tensor over a few inputs.
Ranges calibrate(const Model& m) {
  ir::Graph g = float_graph(m);
  g.outputs = {"x", "r", "d", "y"};
  InferenceSession s;
  s.load(ir::freeze(g));
  std::map<std::string, std::pair<float, float>> mm;
  for (unsigned i = 0; i < 8; ++i) {
    const auto out = s.run({{"x", random_input(i)}});
    for (const auto& [n, t] : out)
      for (float v : t.to_float_vector()) {
        auto& [lo, hi] = mm.try_emplace(n, 0.f, 0.f).first->second;
        lo = std::min(lo, v);
        hi = std::max(hi, v);
      }
  }
  auto p = [&](const char* n) { return range_params(mm[n].first, mm[n].second); };
  return {p("x"), p("r"), p("d"), p("y")};
}

TEST(Int8Session, QuantisedGraphMatchesFloatGraph) {
  const Model m = make_model();
  const Ranges r = calibrate(m);
  InferenceSession fs, qs;
  fs.load(ir::freeze(float_graph(m)));
  qs.load(ir::freeze(quantised_graph(m, r)));
  EXPECT_EQ(qs.quantized_ops(), 3);  // two Convs and the Add
  double worst = 0;
  for (unsigned i = 100; i < 104; ++i) {
    const Tensor x = random_input(i);
    const auto want = fs.run({{"x", x}}).at("y").to_float_vector();
    const auto got = qs.run({{"x", x}}).at("y").to_float_vector();
    ASSERT_EQ(want.size(), got.size());
    for (std::size_t k = 0; k < want.size(); ++k) worst = std::max(worst, std::abs(double(want[k]) - double(got[k])));
  }
  // A few output steps: input, weight and two intermediate roundings.
  EXPECT_LE(worst, 4.0 * r.y.scales[0]) << "output scale " << r.y.scales[0];
  // Same result on one thread.
  InferenceSession one(SessionOptions{1});
  one.load(ir::freeze(quantised_graph(m, r)));
  const Tensor x = random_input(7);
  EXPECT_EQ(one.run({{"x", x}}).at("y").to_float_vector(), qs.run({{"x", x}}).at("y").to_float_vector());
}

TEST(Int8Session, OpWithoutInt8KernelFailsAtLoadSuggestingKeepFloat) {
  ir::Graph g;
  add_value(g, "x", ir::DType::Int8, {4}, pt(0.1f, 0));
  add_value(g, "y", ir::DType::Int8, {4}, pt(0.1f, 0));
  g.ops.push_back(make_op("Sin", {"x"}, {"y"}));
  g.ops.back().name = "my_sin";
  g.inputs = {"x"};
  g.outputs = {"y"};
  InferenceSession s;
  try {
    s.load(ir::freeze(g));
    FAIL() << "loaded";
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "Sin");
    EXPECT_NE(std::string(e.what()).find("--keep-float my_sin"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(s.loaded());
}

TEST(Int8Session, BadParamsGiveQuantizationErrorAtLoad) {
  const Model m = make_model();
  Ranges r = calibrate(m);
  r.c.zero_points[0] = 300;  // outside i8
  InferenceSession s;
  try {
    s.load(ir::freeze(quantised_graph(m, r)));
    FAIL() << "loaded";
  } catch (const QuantizationError& e) {
    EXPECT_EQ(e.tensor(), "c") << e.what();
  }
  ir::Graph g = quantised_graph(m, calibrate(m));
  g.find_tensor("w1")->quant->scales.pop_back();  // 3 scales for 4 channels
  g.find_tensor("w1")->quant->zero_points.pop_back();
  try {
    s.load(ir::freeze(g));
    FAIL() << "loaded";
  } catch (const QuantizationError& e) {
    EXPECT_EQ(e.tensor(), "w1") << e.what();
  }
}

// An int8 1x1 Conv and the depthwise Conv that alone reads its output: channels-last on
// VNNI they run as one (quantized::dw_nhwc_vnni_after, the 1x1 Conv's rows computed as
// the depthwise Conv reads them), bit for bit the NCHW int8 kernels' integers at 1-3
// threads; with the 1x1 Conv's output also a graph output they run apart. With a
// HardSwish after each Conv (mobilenet_v3's blocks), each Conv takes its table
// (PreparedOp::take_output_table) and the pair still forms.
struct Int8Pair {
  std::int64_t n, c, m, h, w, k, stride, pad;
  const char* act1;
  bool t_is_output;
  bool hard_swish = false;
};

ir::Graph int8_pair_graph(const Int8Pair& p) {
  std::mt19937 rng(static_cast<unsigned>(p.c * 131 + p.m * 7 + p.k));
  std::uniform_int_distribution<int> wd(-127, 127), bd(-3000, 3000);
  const std::int64_t oh = (p.h + 2 * p.pad - p.k) / p.stride + 1, ow = (p.w + 2 * p.pad - p.k) / p.stride + 1;
  ir::Graph g;
  add_value(g, "x", ir::DType::Float32, {p.n, p.c, p.h, p.w});
  add_const(g, "x_scale", ir::DType::Float32, {}, std::vector<float>{0.02f});
  add_const(g, "x_zp", ir::DType::Int8, {}, std::vector<std::int8_t>{-5});
  add_const(g, "y_scale", ir::DType::Float32, {}, std::vector<float>{0.1f});
  add_const(g, "y_zp", ir::DType::Int8, {}, std::vector<std::int8_t>{3});
  // Per-channel weights and int32 biases of input scale sx.
  const auto conv_weights = [&](const std::string& name, Shape shape, float sx) {
    std::vector<std::int8_t> q(static_cast<std::size_t>(shape[0] * shape[1] * shape[2] * shape[3]));
    for (auto& v : q) v = static_cast<std::int8_t>(wd(rng));
    std::vector<float> ws;
    std::vector<std::int64_t> zs;
    std::vector<std::int32_t> bq;
    std::vector<float> bs;
    for (std::int64_t o = 0; o < shape[0]; ++o) {
      ws.push_back(0.004f + 0.0001f * static_cast<float>(o % 7));
      zs.push_back(0);
      bq.push_back(bd(rng));
      bs.push_back(sx * ws.back());
    }
    add_const(g, name, ir::DType::Int8, shape, q, ir::QuantParams{ir::DType::Int8, ws, zs, 0});
    add_const(g, name + "_bias", ir::DType::Int32, {shape[0]}, bq, ir::QuantParams{ir::DType::Int32, bs, zs, 0});
  };
  conv_weights("w1", {p.m, p.c, 1, 1}, 0.02f);
  conv_weights("w2", {p.m, 1, p.k, p.k}, 0.05f);
  add_value(g, "xq", ir::DType::Int8, {p.n, p.c, p.h, p.w}, pt(0.02f, -5));
  add_value(g, "t", ir::DType::Int8, {p.n, p.m, p.h, p.w}, pt(0.05f, -20));
  add_value(g, "u", ir::DType::Int8, {p.n, p.m, oh, ow}, pt(0.1f, 3));
  add_value(g, "y", ir::DType::Float32, {p.n, p.m, oh, ow});
  // With HardSwish: each Conv writes t0 / u0, its HardSwish t / u (other params).
  const std::string t0 = p.hard_swish ? "t0" : "t", u0 = p.hard_swish ? "u0" : "u";
  if (p.hard_swish) {
    add_value(g, "t0", ir::DType::Int8, {p.n, p.m, p.h, p.w}, pt(0.06f, -10));
    add_value(g, "u0", ir::DType::Int8, {p.n, p.m, oh, ow}, pt(0.12f, 7));
  }
  g.ops.push_back(make_op("QuantizeLinear", {"x", "x_scale", "x_zp"}, {"xq"}));
  g.ops.push_back(make_op("Conv", {"xq", "w1", "w1_bias"}, {t0}, {{"fused_activation", std::string(p.act1)}}));
  if (p.hard_swish) g.ops.push_back(make_op("HardSwish", {"t0"}, {"t"}));
  g.ops.push_back(make_op("Conv", {"t", "w2", "w2_bias"}, {u0},
                          {{"pads", std::vector<std::int64_t>{p.pad, p.pad, p.pad, p.pad}},
                           {"strides", std::vector<std::int64_t>{p.stride, p.stride}},
                           {"group", p.m}}));
  if (p.hard_swish) g.ops.push_back(make_op("HardSwish", {"u0"}, {"u"}));
  g.ops.push_back(make_op("DequantizeLinear", {"u", "y_scale", "y_zp"}, {"y"}));
  g.inputs = {"x"};
  g.outputs = {"y"};
  if (p.t_is_output) g.outputs.push_back("t");
  return g;
}

TEST(Int8Session, ExpandDepthwisePairRunsAsOneAsApart) {
  const std::vector<Int8Pair> cases = {
      {1, 16, 96, 30, 28, 3, 2, 1, "RELU6", false},  // mobilenet_v2's second block, smaller
      {1, 24, 40, 17, 19, 3, 1, 1, "RELU", false},   // stride 1, odd sizes, a 16-lane tail
      {2, 8, 32, 12, 70, 5, 2, 2, "NONE", false},    // two images, 5x5, rows past 64 pixels
      {1, 16, 96, 30, 28, 3, 2, 1, "RELU6", true},   // t read twice: apart
      {1, 24, 72, 21, 23, 5, 2, 2, "NONE", false, true},  // HardSwish after each (mobilenet_v3)
      {2, 16, 40, 9, 66, 3, 1, 1, "NONE", true, true},    // the same, t also an output: apart
  };
  for (const auto& p : cases) {
    SCOPED_TRACE("case c=" + std::to_string(p.c) + " m=" + std::to_string(p.m) + " k=" + std::to_string(p.k) +
                 (p.t_is_output ? " (t an output)" : ""));
    const ir::FrozenGraph g = ir::freeze(int8_pair_graph(p));
    std::mt19937 rng(11);
    std::normal_distribution<float> nd(0.f, 1.f);
    std::vector<float> xv(static_cast<std::size_t>(p.n * p.c * p.h * p.w));
    for (auto& v : xv) v = nd(rng);
    const Tensor x = Tensor::from_values(ir::DType::Float32, {p.n, p.c, p.h, p.w}, xv);
    SessionOptions nchw;
    nchw.int8_channels_last = false;
    nchw.threads = 1;
    InferenceSession ref(nchw);
    ref.load(g);
    const auto want = ref.run({{"x", x}});
    const auto want_y = want.at("y").to_float_vector();
    EXPECT_GT(std::set<float>(want_y.begin(), want_y.end()).size(), 30u) << "a degenerate case checks nothing";
    for (int threads : {1, 2, 3}) {
      InferenceSession s(SessionOptions{threads});
      s.load(g);
      const std::int64_t before = quantized::dw_after_pw_runs();
      const auto got = s.run({{"x", x}});
      EXPECT_EQ(quantized::dw_after_pw_runs() - before, quantized::use_vnni() && !p.t_is_output ? 1 : 0)
          << threads << " threads";
      // Each HardSwish runs inside the Conv before it. (With t an output as well, this small
      // graph's channels-last regions are cut up: it runs on the NCHW kernels, apart.)
      if (p.hard_swish && quantized::use_vnni() && !p.t_is_output) {
        EXPECT_EQ(s.fused_activations(), 2);
      }
      EXPECT_EQ(got.at("y").to_float_vector(), want_y) << threads << " threads";
      if (p.t_is_output) {
        EXPECT_EQ(got.at("t").to_float_vector(), want.at("t").to_float_vector()) << threads << " threads";
      }
    }
  }
}

}  // namespace
}  // namespace ec::runtime
