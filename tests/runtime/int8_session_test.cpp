// A quantised graph built by hand per docs/QUANTISATION.md, run through
// InferenceSession against the float graph it came from:
//   x -> QuantizeLinear -> Conv(i8, fused RELU) ----+
//                       \-> Conv 1x1 (i8) ----------- Add -> DequantizeLinear -> y
// plus load-time errors (no int8 kernel, bad params).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/errors.h"
#include "core/runtime/session.h"
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

}  // namespace
}  // namespace ec::runtime
