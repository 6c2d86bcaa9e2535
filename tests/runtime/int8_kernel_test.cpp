// Every int8 kernel (core/runtime/quantized) against its float reference:
// dequantise the inputs, run the float kernel (ec::runtime::run_kernel),
// quantise the result with the output's params; the int8 result must be within
// 1 LSB. Hybrid kernels against float within a bound derived from the scales.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <chrono>
#include <random>
#include <set>

#include "core/errors.h"
#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernel_registry.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/runtime/thread_pool.h"
#include "test_util.h"

namespace ec::runtime::quantized {
namespace {

using test::make_op;
using Shape = std::vector<std::int64_t>;

// A tensor of the test graph: stored integers (or floats) and optional params.
struct TT {
  std::string name;
  ir::DType dtype = ir::DType::Int8;
  Shape shape;
  std::vector<std::int64_t> ints;  // i8 / i32 / i64 values
  std::vector<float> floats;       // f32 values
  std::optional<ir::QuantParams> q;
  bool constant = false;
};

ir::QuantParams per_tensor(float s, std::int64_t z) { return {ir::DType::Int8, {s}, {z}, -1}; }

Tensor runtime_tensor(const TT& t) {
  switch (t.dtype) {
    case ir::DType::Int8: {
      std::vector<std::int8_t> v(t.ints.begin(), t.ints.end());
      return Tensor::from_values(t.dtype, t.shape, v);
    }
    case ir::DType::Int32: {
      std::vector<std::int32_t> v(t.ints.begin(), t.ints.end());
      return Tensor::from_values(t.dtype, t.shape, v);
    }
    case ir::DType::Int64: return Tensor::from_values(t.dtype, t.shape, t.ints);
    default: return Tensor::from_values(t.dtype, t.shape, t.floats);
  }
}

// The dequantised value of a quantised tensor (per-channel along q.axis).
Tensor dequantised(const TT& t) {
  if (!t.q) return runtime_tensor(t);
  Tensor f(ir::DType::Float32, t.shape);
  const auto& q = *t.q;
  std::int64_t inner = 1;
  if (q.axis >= 0)
    for (std::size_t d = static_cast<std::size_t>(q.axis) + 1; d < t.shape.size(); ++d) inner *= t.shape[d];
  for (std::size_t i = 0; i < t.ints.size(); ++i) {
    const std::size_t c = q.scales.size() == 1 ? 0 : (i / static_cast<std::size_t>(inner)) % q.scales.size();
    const double z = q.zero_points.empty() ? 0 : double(q.zero_points[q.zero_points.size() == 1 ? 0 : c]);
    f.mutable_data<float>()[i] = static_cast<float>((double(t.ints[i]) - z) * q.scales[c]);
  }
  return f;
}

ir::Graph make_graph(const ir::Operation& op, const std::vector<TT>& ins, const ir::QuantParams& out_q,
                     ir::DType out_dtype = ir::DType::Int8) {
  ir::Graph g;
  for (const auto& t : ins) {
    ir::Tensor it;
    it.name = t.name;
    it.dtype = t.dtype;
    it.shape = ir::Shape::of(t.shape);
    it.quant = t.q;
    if (t.constant) {
      const Tensor r = runtime_tensor(t);
      it.data = ir::ConstantData::copy_of(r.raw(), r.nbytes());
    }
    g.add_tensor(it);
  }
  ir::Tensor y;
  y.name = op.outputs[0];
  y.dtype = out_dtype;
  if (out_dtype == ir::DType::Int8) y.quant = out_q;
  g.add_tensor(y);
  g.ops.push_back(op);
  return g;
}

// Output params covering the float result's range (0 included).
ir::QuantParams params_for(const Tensor& f) {
  float lo = 0, hi = 0;
  for (float v : f.to_float_vector()) lo = std::min(lo, v), hi = std::max(hi, v);
  const float s = std::max(hi - lo, 1e-3f) / 255.f;
  const auto z = static_cast<std::int64_t>(std::clamp(std::round(-128.f - lo / s), -128.f, 127.f));
  return per_tensor(s, z);
}

struct Result {
  Tensor int8, want;  // int8 result, quantised float reference
  int max_diff = 0;
};

// Runs the int8 kernel and the float reference; out_q = null picks params from the float range.
Result check_int8(const ir::Operation& op, const std::vector<TT>& ins, std::optional<ir::QuantParams> out_q = {}) {
  std::vector<Tensor> fin, qin;
  for (const auto& t : ins) {
    fin.push_back(dequantised(t));
    qin.push_back(runtime_tensor(t));
  }
  const Tensor ref = run_kernel(op, fin)[0];
  const ir::QuantParams oq = out_q ? *out_q : params_for(ref);
  const ir::Graph g = make_graph(op, ins, oq);
  auto prepared = prepare_quantized(g.ops[0], g);
  EXPECT_TRUE(prepared);
  Result r;
  r.int8 = prepared->run(qin)[0];
  EXPECT_EQ(r.int8.shape(), ref.shape());
  r.want = Tensor(ir::DType::Int8, ref.shape());
  for (std::int64_t i = 0; i < ref.numel(); ++i) {
    const double q = std::clamp(std::round(double(ref.data<float>()[i]) / oq.scales[0]) + double(oq.zero_points[0]), -128.0, 127.0);
    r.want.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(q);
    r.max_diff = std::max(r.max_diff, std::abs(int(r.int8.data<std::int8_t>()[i]) - int(q)));
  }
  return r;
}

class Rng {
 public:
  explicit Rng(unsigned seed) : g_(seed) {}
  int i(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(g_); }
  float f(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(g_); }
  TT activation(const std::string& name, Shape shape) {
    TT t{name, ir::DType::Int8, shape, {}, {}, per_tensor(f(0.01f, 0.05f), i(-20, 20)), false};
    for (std::int64_t k = 0; k < shape_numel(shape); ++k) t.ints.push_back(i(-128, 127));
    return t;
  }
  // Symmetric weights, per channel along `axis` (or per tensor when axis < 0).
  TT weights(const std::string& name, Shape shape, int axis) {
    TT t{name, ir::DType::Int8, shape, {}, {}, ir::QuantParams{}, true};
    const std::int64_t channels = axis < 0 ? 1 : shape[static_cast<std::size_t>(axis)];
    for (std::int64_t c = 0; c < channels; ++c) {
      t.q->scales.push_back(f(0.002f, 0.02f));
      t.q->zero_points.push_back(0);
    }
    t.q->axis = axis;
    for (std::int64_t k = 0; k < shape_numel(shape); ++k) t.ints.push_back(i(-127, 127));
    return t;
  }
  std::mt19937& engine() { return g_; }

 private:
  std::mt19937 g_;
};

TT bias_for(Rng& rng, const std::string& name, const TT& x, const TT& w, std::int64_t channels) {
  TT t{name, ir::DType::Int32, {channels}, {}, {}, ir::QuantParams{}, true};
  t.q->dtype = ir::DType::Int32;
  for (std::int64_t c = 0; c < channels; ++c) {
    const float sw = w.q->scales.size() == 1 ? w.q->scales[0] : w.q->scales[static_cast<std::size_t>(c)];
    t.q->scales.push_back(x.q->scales[0] * sw);
    t.q->zero_points.push_back(0);
    t.ints.push_back(rng.i(-2000, 2000));
  }
  t.q->axis = w.q->scales.size() == 1 ? -1 : 0;
  if (t.q->axis < 0) {
    t.q->scales.resize(1);
    t.q->zero_points.resize(1);
  }
  return t;
}

ir::Attribute ints(std::vector<std::int64_t> v) { return v; }

struct ConvCase {
  Shape x;  // N, C, spatial...
  std::int64_t m, group;
  Shape kernel, strides, dilations, pads;
  std::string auto_pad = "NOTSET", act = "NONE";
  bool per_channel = true, bias = true;
};

void run_conv_case(const ConvCase& c, unsigned seed) {
  Rng rng(seed);
  std::map<std::string, ir::Attribute> attrs{{"group", c.group}, {"auto_pad", c.auto_pad}, {"fused_activation", c.act}};
  if (!c.strides.empty()) attrs["strides"] = ints(c.strides);
  if (!c.dilations.empty()) attrs["dilations"] = ints(c.dilations);
  if (!c.pads.empty()) attrs["pads"] = ints(c.pads);
  TT x = rng.activation("x", c.x);
  Shape ws{c.m, c.x[1] / c.group};
  ws.insert(ws.end(), c.kernel.begin(), c.kernel.end());
  TT w = rng.weights("w", ws, c.per_channel ? 0 : -1);
  std::vector<TT> ins{x, w};
  std::vector<std::string> names{"x", "w"};
  if (c.bias) {
    ins.push_back(bias_for(rng, "b", x, w, c.m));
    names.push_back("b");
  }
  const ir::Operation op = make_op("Conv", names, {"y"}, attrs);
  const Result r = check_int8(op, ins);
  EXPECT_LE(r.max_diff, 1) << "conv x" << shape_string(c.x) << " m " << c.m << " group " << c.group;
  std::set<int> distinct(r.int8.data<std::int8_t>(), r.int8.data<std::int8_t>() + r.int8.numel());
  if (r.int8.numel() >= 64) {
    EXPECT_GT(distinct.size(), 10u) << "a degenerate case checks nothing";
  }
}

TEST(Int8Conv, MatchesFloatReferenceOnRandomShapes) {
  const std::vector<ConvCase> cases = {
      {{1, 3, 9, 11}, 8, 1, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},
      {{2, 5, 7, 6}, 7, 1, {3, 2}, {2, 1}, {1, 1}, {0, 1, 2, 0}, "NOTSET", "RELU"},
      {{1, 4, 10, 9}, 6, 2, {3, 3}, {1, 2}, {2, 1}, {2, 1, 1, 2}},
      {{1, 8, 13, 13}, 8, 8, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, "NOTSET", "RELU6"},   // depthwise
      {{2, 6, 12, 11}, 6, 6, {5, 5}, {2, 2}, {1, 1}, {2, 2, 2, 2}},                      // depthwise stride 2
      {{1, 5, 9, 8}, 5, 5, {3, 3}, {1, 1}, {2, 2}, {}, "SAME_UPPER"},                    // depthwise dilated
      {{1, 4, 8, 8}, 8, 4, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}},                        // channel multiplier 2
      {{1, 16, 7, 9}, 33, 1, {1, 1}, {}, {}, {}},                                        // 1x1: x used directly
      {{1, 3, 17, 15}, 5, 1, {3, 3}, {2, 2}, {1, 1}, {}, "SAME_LOWER", "RELU_N1_TO_1"},
      {{1, 6, 8, 8}, 4, 1, {3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, "NOTSET", "NONE", false, false},  // per tensor, no bias
      {{2, 4, 23}, 5, 1, {5}, {2}, {1}, {2, 1}},                                          // 1-D
      {{1, 70, 5, 5}, 37, 1, {3, 3}, {1, 1}, {1, 1}, {0, 0, 0, 0}},                       // odd K and M
  };
  unsigned seed = 1;
  for (const auto& c : cases) run_conv_case(c, seed++);
  // Random geometries: odd sizes, strides, dilations, asymmetric pads, groups.
  Rng rng(1234);
  for (int t = 0; t < 40; ++t) {
    ConvCase c;
    const std::int64_t group = rng.i(0, 3) == 0 ? rng.i(2, 3) : 1;
    const bool dw = rng.i(0, 4) == 0;
    const std::int64_t C = dw ? rng.i(2, 9) : group * rng.i(1, 5);
    c.group = dw ? C : group;
    c.m = dw ? C : c.group * rng.i(1, 6);
    c.kernel = {rng.i(1, 4), rng.i(1, 4)};
    c.strides = {rng.i(1, 3), rng.i(1, 3)};
    c.dilations = {rng.i(1, 2), rng.i(1, 2)};
    c.pads = {rng.i(0, 2), rng.i(0, 2), rng.i(0, 2), rng.i(0, 2)};
    c.x = {rng.i(1, 2), C, rng.i(7, 14), rng.i(7, 14)};
    c.act = std::vector<std::string>{"NONE", "RELU", "RELU6"}[static_cast<std::size_t>(rng.i(0, 2))];
    c.per_channel = rng.i(0, 3) != 0;
    c.bias = rng.i(0, 3) != 0;
    ConvCase copy = c;
    run_conv_case(copy, 100 + static_cast<unsigned>(t));
  }
}

TEST(Int8Conv, ResultsDoNotDependOnThreadsOrIsa) {
  Rng rng(11);
  TT x = rng.activation("x", {1, 12, 21, 19});
  TT w = rng.weights("w", {24, 12, 3, 3}, 0);
  TT b = bias_for(rng, "b", x, w, 24);
  const ir::Operation op = make_op("Conv", {"x", "w", "b"}, {"y"},
                                   {{"pads", ints({1, 1, 1, 1})}, {"fused_activation", std::string("RELU")}});
  const ir::Graph g = make_graph(op, {x, w, b}, per_tensor(0.05f, -128));
  auto p = prepare_quantized(g.ops[0], g);
  const std::vector<Tensor> in{runtime_tensor(x), runtime_tensor(w), runtime_tensor(b)};
  std::vector<std::vector<std::int8_t>> outs;
  for (int threads : {1, 2, 3}) {
    ThreadPool pool(threads);
    PoolScope scope(&pool);
    const Tensor y = p->run(in)[0];
    outs.emplace_back(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel());
  }
  for (auto isa : gemm::supported_isas()) {
    gemm::force_isa(isa);
    const Tensor y = p->run(in)[0];
    outs.emplace_back(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel());
  }
  gemm::force_isa(gemm::supported_isas().back());
  for (const auto& o : outs) EXPECT_EQ(o, outs[0]);
}

// ConvTranspose: weights [C, M, k...] per output channel (axis 1); strides, pads, output
// padding, dilations, 1-D and 3-D, odd channel counts.
TEST(Int8ConvTranspose, MatchesFloatReference) {
  struct Case {
    Shape x;
    std::int64_t m;
    Shape kernel, strides, pads, dilations, output_padding;
    std::string act = "NONE";
    bool bias = true, per_channel = true;
  };
  const std::vector<Case> cases = {
      {{1, 3, 5, 6}, 4, {2, 2}, {2, 2}, {0, 0, 0, 0}, {}, {}},                  // U-Net's 2x2 stride 2
      {{2, 5, 4, 7}, 3, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, {1, 1}, "RELU"},       // PyTorch k3 s2 p1 op1
      {{1, 6, 6, 5}, 7, {4, 4}, {2, 2}, {1, 1, 1, 1}, {}, {}, "RELU6", false},   // k4 s2 p1, no bias
      {{1, 4, 5, 5}, 5, {3, 3}, {1, 1}, {0, 1, 2, 0}, {2, 2}, {}, "NONE", true, false},  // dilated, per tensor
      {{2, 3, 11}, 6, {5}, {3}, {2, 1}, {}, {}},                                 // 1-D
      {{1, 2, 3, 4, 4}, 3, {2, 3, 3}, {1, 2, 2}, {0, 1, 1, 0, 1, 1}, {}, {}},    // 3-D
      {{1, 17, 3, 3}, 13, {3, 3}, {1, 1}, {1, 1, 1, 1}, {}, {}},                 // odd channels
  };
  unsigned seed = 500;
  for (const auto& c : cases) {
    Rng rng(seed++);
    std::map<std::string, ir::Attribute> attrs{{"fused_activation", c.act}, {"strides", ints(c.strides)}, {"pads", ints(c.pads)}};
    if (!c.dilations.empty()) attrs["dilations"] = ints(c.dilations);
    if (!c.output_padding.empty()) attrs["output_padding"] = ints(c.output_padding);
    TT x = rng.activation("x", c.x);
    Shape ws{c.x[1], c.m};
    ws.insert(ws.end(), c.kernel.begin(), c.kernel.end());
    TT w = rng.weights("w", ws, c.per_channel ? 1 : -1);
    std::vector<TT> ins{x, w};
    std::vector<std::string> names{"x", "w"};
    if (c.bias) {
      TT b = bias_for(rng, "b", x, w, c.m);
      ins.push_back(b);
      names.push_back("b");
    }
    const ir::Operation op = make_op("ConvTranspose", names, {"y"}, attrs);
    const Result r = check_int8(op, ins);
    EXPECT_LE(r.max_diff, 1) << "conv transpose x" << shape_string(c.x) << " m " << c.m;
    std::set<int> distinct(r.int8.data<std::int8_t>(), r.int8.data<std::int8_t>() + r.int8.numel());
    EXPECT_GT(distinct.size(), 10u) << "a degenerate case checks nothing";
    // the same bytes on 1 and 2 threads
    const ir::Graph g = make_graph(op, ins, params_for(run_kernel(op, [&] {
                                     std::vector<Tensor> f;
                                     for (const auto& t : ins) f.push_back(dequantised(t));
                                     return f;
                                   }())[0]));
    auto p = prepare_quantized(g.ops[0], g);
    std::vector<Tensor> qin;
    for (const auto& t : ins) qin.push_back(runtime_tensor(t));
    std::vector<std::vector<std::int8_t>> outs;
    for (int threads : {1, 2}) {
      ThreadPool pool(threads);
      PoolScope scope(&pool);
      const Tensor y = p->run(qin)[0];
      outs.emplace_back(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel());
    }
    EXPECT_EQ(outs[0], outs[1]);
  }
}

TEST(Int8Linear, FullyConnectedGemmMatMul) {
  Rng rng(21);
  for (int trial = 0; trial < 4; ++trial) {
    const std::int64_t M = rng.i(1, 9), K = rng.i(1, 70), N = rng.i(1, 40);
    TT x = rng.activation("x", {M, K});
    {  // FullyConnected, weights [N, K] per channel
      TT w = rng.weights("w", {N, K}, 0);
      TT b = bias_for(rng, "b", x, w, N);
      const auto r = check_int8(make_op("FullyConnected", {"x", "w", "b"}, {"y"}, {{"fused_activation", std::string("RELU")}}), {x, w, b});
      EXPECT_LE(r.max_diff, 1) << "FC " << M << "x" << K << "x" << N;
    }
    {  // Gemm transB = 1
      TT w = rng.weights("w", {N, K}, 0);
      TT b = bias_for(rng, "b", x, w, N);
      const auto r = check_int8(make_op("Gemm", {"x", "w", "b"}, {"y"}, {{"transB", std::int64_t(1)}}), {x, w, b});
      EXPECT_LE(r.max_diff, 1) << "Gemm transB " << M << "x" << K << "x" << N;
    }
    {  // Gemm transB = 0, per column (axis 1), transA, alpha
      TT xt = rng.activation("x", {K, M});
      TT w = rng.weights("w", {K, N}, 1);
      TT b = bias_for(rng, "b", xt, w, N);
      b.q->axis = b.q->scales.size() > 1 ? 0 : -1;
      const auto r = check_int8(make_op("Gemm", {"x", "w", "b"}, {"y"}, {{"transA", std::int64_t(1)}, {"alpha", 0.5}}), {xt, w, b});
      EXPECT_LE(r.max_diff, 1) << "Gemm transA " << M << "x" << K << "x" << N;
    }
    {  // MatMul with a constant weight [K, N], 3-D input
      TT x3 = rng.activation("x", {2, M, K});
      TT w = rng.weights("w", {K, N}, trial % 2 ? 1 : -1);
      const auto r = check_int8(make_op("MatMul", {"x", "w"}), {x3, w});
      EXPECT_LE(r.max_diff, 1) << "MatMul const " << M << "x" << K << "x" << N;
    }
    {  // MatMul of two activations (non-zero zero points on both)
      TT a = rng.activation("a", {3, M, K});
      TT b = rng.activation("b", {3, K, N});
      const auto r = check_int8(make_op("MatMul", {"a", "b"}), {a, b});
      EXPECT_LE(r.max_diff, 1) << "MatMul act " << M << "x" << K << "x" << N;
    }
  }
}

TEST(Int8Elementwise, AddSubMulBroadcast) {
  Rng rng(31);
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{2, 3, 4}, {2, 3, 4}}, {{2, 3, 5}, {5}}, {{1, 4, 1}, {3, 1, 6}}, {{7}, {}}, {{2, 1, 3, 3}, {1, 5, 1, 3}}};
  for (const auto& [sa, sb] : shapes)
    for (const char* type : {"Add", "Sub", "Mul"}) {
      TT a = rng.activation("a", sa), b = rng.activation("b", sb);
      const auto r = check_int8(make_op(type, {"a", "b"}), {a, b});
      EXPECT_LE(r.max_diff, 1) << type << " " << shape_string(sa) << " " << shape_string(sb);
    }
}

TEST(Int8Pooling, MaxAverageGlobal) {
  Rng rng(41);
  struct Case {
    const char* type;
    Shape x, kernel, strides, pads;
    std::int64_t ceil = 0, include_pad = 0;
  };
  const std::vector<Case> cases = {
      {"MaxPool", {1, 3, 9, 8}, {3, 3}, {2, 2}, {1, 1, 1, 1}},
      {"MaxPool", {2, 2, 7, 7}, {2, 2}, {2, 2}, {0, 0, 0, 0}, 1},
      {"AveragePool", {1, 3, 9, 8}, {3, 3}, {2, 2}, {1, 1, 1, 1}},
      {"AveragePool", {1, 3, 9, 8}, {3, 3}, {2, 2}, {1, 1, 1, 1}, 0, 1},
      {"AveragePool", {2, 4, 10, 7}, {2, 3}, {1, 2}, {0, 1, 1, 0}, 1},
      {"AveragePool", {1, 2, 11}, {3}, {2}, {1, 1}},
  };
  for (const auto& c : cases)
    for (bool same_params : {true, false}) {
      TT x = rng.activation("x", c.x);
      std::map<std::string, ir::Attribute> attrs{{"kernel_shape", ints(c.kernel)}, {"strides", ints(c.strides)},
                                                 {"pads", ints(c.pads)}, {"ceil_mode", c.ceil},
                                                 {"count_include_pad", c.include_pad}};
      const auto op = make_op(c.type, {"x"}, {"y"}, attrs);
      const auto r = same_params ? check_int8(op, {x}, *x.q) : check_int8(op, {x});
      EXPECT_LE(r.max_diff, 1) << c.type << " " << shape_string(c.x) << (same_params ? " same params" : "");
    }
  for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"}) {
    TT x = rng.activation("x", {2, 5, 7, 3});
    EXPECT_LE(check_int8(make_op(type, {"x"}), {x}, *x.q).max_diff, 1) << type;
    EXPECT_LE(check_int8(make_op(type, {"x"}), {x}).max_diff, 1) << type;
  }
}

TEST(Int8DataMovement, ConcatRequantisesAndShapesPassThrough) {
  Rng rng(51);
  TT a = rng.activation("a", {1, 3, 4}), b = rng.activation("b", {1, 5, 4}), c = rng.activation("c", {1, 2, 4});
  b.q = a.q;  // one input already on the output's params
  const auto r = check_int8(make_op("Concat", {"a", "b", "c"}, {"y"}, {{"axis", std::int64_t(1)}}), {a, b, c}, *a.q);
  EXPECT_LE(r.max_diff, 1);
  TT x = rng.activation("x", {2, 3, 4});
  EXPECT_EQ(check_int8(make_op("Transpose", {"x"}, {"y"}, {{"perm", ints({2, 0, 1})}}), {x}, *x.q).max_diff, 0);
  EXPECT_EQ(check_int8(make_op("Flatten", {"x"}), {x}, *x.q).max_diff, 0);
  TT shape{"s", ir::DType::Int64, {2}, {6, 4}, {}, std::nullopt, true};
  EXPECT_EQ(check_int8(make_op("Reshape", {"x", "s"}), {x, shape}, *x.q).max_diff, 0);
  EXPECT_LE(check_int8(make_op("Reshape", {"x", "s"}), {x, shape}, per_tensor(0.07f, 3)).max_diff, 1);  // requantised
}

TEST(Int8Activations, MatchFloatWithinOneStep) {
  Rng rng(61);
  TT x = rng.activation("x", {3, 17});
  x.q->scales[0] = 0.05f;
  EXPECT_LE(check_int8(make_op("Relu", {"x"}), {x}, *x.q).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Relu", {"x"}), {x}).max_diff, 1);
  TT lo{"lo", ir::DType::Float32, {}, {}, {-0.5f}, std::nullopt, true};
  TT hi{"hi", ir::DType::Float32, {}, {}, {1.5f}, std::nullopt, true};
  EXPECT_LE(check_int8(make_op("Clip", {"x", "lo", "hi"}), {x, lo, hi}, *x.q).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Sigmoid", {"x"}), {x}, per_tensor(1.f / 256, -128)).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Tanh", {"x"}), {x}, per_tensor(1.f / 128, 0)).max_diff, 1);
  EXPECT_LE(check_int8(make_op("HardSwish", {"x"}), {x}).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Gelu", {"x"}), {x}).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Gelu", {"x"}, {"y"}, {{"approximate", std::string("tanh")}}), {x}).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Erf", {"x"}), {x}).max_diff, 1);
  EXPECT_LE(check_int8(make_op("HardSigmoid", {"x"}), {x}, per_tensor(1.f / 256, -128)).max_diff, 1);
  {  // standalone inference BatchNormalization: one table per channel
    TT xb = rng.activation("x", {2, 3, 4, 5});
    TT sc{"s", ir::DType::Float32, {3}, {}, {0.5f, 2.f, -1.f}, std::nullopt, true};
    TT bb{"b", ir::DType::Float32, {3}, {}, {0.1f, -0.3f, 0.f}, std::nullopt, true};
    TT mn{"m", ir::DType::Float32, {3}, {}, {0.2f, -0.1f, 0.4f}, std::nullopt, true};
    TT vr{"v", ir::DType::Float32, {3}, {}, {1.f, 0.25f, 4.f}, std::nullopt, true};
    const Result r = check_int8(make_op("BatchNormalization", {"x", "s", "b", "m", "v"}), {xb, sc, bb, mn, vr});
    EXPECT_LE(r.max_diff, 1);
  }
  {  // LayerNormalization over the last axis (exact integer sums, float per element)
    for (const std::int64_t C : {5, 8, 37, 96}) {
      TT xl = rng.activation("x", {2, 3, C});
      std::vector<float> g, b;
      for (std::int64_t c = 0; c < C; ++c) {
        g.push_back(0.5f + 0.03f * float(c % 11) - (c % 3 == 0 ? 1.2f : 0.f));
        b.push_back(-0.2f + 0.01f * float(c % 7));
      }
      TT sc{"s", ir::DType::Float32, {C}, {}, g, std::nullopt, true};
      TT bb{"b", ir::DType::Float32, {C}, {}, b, std::nullopt, true};
      const Result r = check_int8(make_op("LayerNormalization", {"x", "s", "b"}, {"y"}, {{"epsilon", 1e-5}}), {xl, sc, bb});
      EXPECT_LE(r.max_diff, 1) << "C " << C;
    }
  }
  EXPECT_LE(check_int8(make_op("HardSigmoid", {"x"}, {"y"}, {{"alpha", 1.0 / 6}, {"beta", 0.5}}), {x},
                       per_tensor(1.f / 256, -128)).max_diff, 1);
  EXPECT_LE(check_int8(make_op("Softmax", {"x"}, {"y"}, {{"axis", std::int64_t(-1)}}), {x}, per_tensor(1.f / 256, -128)).max_diff, 1);
  TT x3 = rng.activation("x", {2, 5, 3});
  EXPECT_LE(check_int8(make_op("Softmax", {"x"}, {"y"}, {{"axis", std::int64_t(1)}}), {x3}, per_tensor(1.f / 256, -128)).max_diff, 1);
}

// Hybrid: f32 input, i8 weights. Bound: input quantisation error (s_in / 2 per
// element, s_in <= range / 255) times sum |w|, plus float rounding.
void check_hybrid(const ir::Operation& op, const std::vector<TT>& ins, float input_range, float weight_abs_sum) {
  std::vector<Tensor> fin, hin;
  for (const auto& t : ins) {
    fin.push_back(dequantised(t));
    hin.push_back(runtime_tensor(t));
  }
  const Tensor ref = run_kernel(op, fin)[0];
  ir::Graph g = make_graph(op, ins, {}, ir::DType::Float32);
  ASSERT_TRUE(is_hybrid_op(g.ops[0], g));
  auto p = prepare_quantized(g.ops[0], g);
  ASSERT_TRUE(p);
  const Tensor y = p->run(hin)[0];
  ASSERT_EQ(y.shape(), ref.shape());
  const float tol = 0.5f * input_range / 255.f * weight_abs_sum + 1e-4f;
  float worst = 0;
  for (std::int64_t i = 0; i < y.numel(); ++i) worst = std::max(worst, std::abs(y.data<float>()[i] - ref.data<float>()[i]));
  EXPECT_LE(worst, tol) << op.op_type;
}

TEST(Int8Hybrid, MatchesFloatWithinQuantisationError) {
  Rng rng(71);
  auto floats = [&](const std::string& name, Shape s) {
    TT t{name, ir::DType::Float32, s, {}, {}, std::nullopt, false};
    for (std::int64_t i = 0; i < shape_numel(s); ++i) t.floats.push_back(rng.f(-2.f, 1.f));
    return t;
  };
  auto abs_sum_max = [](const TT& w, std::int64_t rows, std::int64_t k, bool rows_first) {
    float best = 0;  // max over outputs of sum_k |w|
    for (std::int64_t r = 0; r < rows; ++r) {
      float s = 0;
      for (std::int64_t i = 0; i < k; ++i) {
        const std::size_t idx = static_cast<std::size_t>(rows_first ? r * k + i : i * rows + r);
        const float sc = w.q->scales.size() == 1 ? w.q->scales[0] : w.q->scales[static_cast<std::size_t>(r)];
        s += std::abs(float(w.ints[idx]) * sc);
      }
      best = std::max(best, s);
    }
    return best;
  };
  const std::int64_t M = 3, K = 37, N = 11;
  TT x = floats("x", {M, K});
  TT wfc = rng.weights("w", {N, K}, 0);
  TT bfc = floats("b", {N});
  bfc.constant = true;
  check_hybrid(make_op("FullyConnected", {"x", "w", "b"}), {x, wfc, bfc}, 3.f, abs_sum_max(wfc, N, K, true));
  check_hybrid(make_op("Gemm", {"x", "w", "b"}, {"y"}, {{"transB", std::int64_t(1)}}), {x, wfc, bfc}, 3.f,
               abs_sum_max(wfc, N, K, true));
  TT wmm = rng.weights("w", {K, N}, 1);
  check_hybrid(make_op("MatMul", {"x", "w"}), {x, wmm}, 3.f, abs_sum_max(wmm, N, K, false));
  TT xc = floats("x", {2, 4, 9, 8});
  TT wc = rng.weights("w", {6, 4, 3, 3}, 0);
  TT bc = floats("b", {6});
  bc.constant = true;
  check_hybrid(make_op("Conv", {"x", "w", "b"}, {"y"}, {{"pads", ints({1, 1, 1, 1})}}), {xc, wc, bc}, 3.f,
               abs_sum_max(wc, 6, 36, true));
  TT xd = floats("x", {2, 5, 11, 10});  // depthwise, stride 2 (direct path)
  TT wd = rng.weights("w", {5, 1, 3, 3}, 0);
  TT bd = floats("b", {5});
  bd.constant = true;
  check_hybrid(make_op("Conv", {"x", "w", "b"}, {"y"},
                       {{"pads", ints({1, 1, 1, 1})}, {"group", std::int64_t(5)}, {"strides", ints({2, 2})}}),
               {xd, wd, bd}, 3.f, abs_sum_max(wd, 5, 9, true));
}

TEST(Int8Kernels, BadParamsNameTheTensor) {
  Rng rng(81);
  TT x = rng.activation("x", {1, 4});
  TT w = rng.weights("w", {3, 4}, 0);
  auto prepare_with = [&](TT xx, TT ww) {
    const auto op = make_op("FullyConnected", {"x", "w"});
    const ir::Graph g = make_graph(op, {xx, ww}, per_tensor(0.1f, 0));
    return prepare_quantized(g.ops[0], g);
  };
  auto expect_error = [&](TT xx, TT ww, const std::string& tensor) {
    try {
      prepare_with(xx, ww);
      ADD_FAILURE() << "no error for " << tensor;
    } catch (const QuantizationError& e) {
      EXPECT_EQ(e.tensor(), tensor) << e.what();
    }
  };
  TT bad = x;
  bad.q->scales[0] = 0.f;
  expect_error(bad, w, "x");
  bad = x;
  bad.q->zero_points[0] = 200;
  expect_error(bad, w, "x");
  TT bw = w;
  bw.q->scales.pop_back();
  bw.q->zero_points.pop_back();
  expect_error(x, bw, "w");
  bw = w;
  bw.q->zero_points[1] = 5;
  expect_error(x, bw, "w");
  EXPECT_TRUE(has_int8_kernel(ir::OpKind::Conv));
  EXPECT_TRUE(has_hybrid_kernel(ir::OpKind::MatMul));
  EXPECT_FALSE(has_int8_kernel(ir::OpKind::LSTM));
  EXPECT_FALSE(has_hybrid_kernel(ir::OpKind::Add));
}


// Not a pass/fail check: prints the int8 and f32 Conv times of a ResNet-like layer.
TEST(Int8Conv, SpeedVsFloat) {
  Rng rng(91);
  for (auto [c, m, k, hw, group] : std::vector<std::tuple<int, int, int, int, int>>{
           {64, 64, 3, 56, 1}, {128, 128, 1, 28, 1}, {96, 96, 3, 56, 96}}) {
    TT x = rng.activation("x", {1, c, hw, hw});
    TT w = rng.weights("w", {m, c / group, k, k}, 0);
    TT b = bias_for(rng, "b", x, w, m);
    const std::int64_t p = k / 2;
    const auto op = make_op("Conv", {"x", "w", "b"}, {"y"}, {{"pads", ints({p, p, p, p})}, {"group", std::int64_t(group)}});
    const ir::Graph g = make_graph(op, {x, w, b}, per_tensor(0.05f, 0));
    auto prep = prepare_quantized(g.ops[0], g);
    const std::vector<Tensor> qin{runtime_tensor(x), runtime_tensor(w), runtime_tensor(b)};
    const std::vector<Tensor> fin{dequantised(x), dequantised(w), dequantised(b)};
    ThreadPool pool(2);
    PoolScope scope(&pool);
    auto time = [](auto&& f) {  // best of 10 (the machine may be shared)
      f();
      double best = 1e30;
      for (int i = 0; i < 10; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        f();
        best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      }
      return best;
    };
    const double ti = time([&] { prep->run(qin); });
    const double tf = time([&] { run_kernel(op, fin); });
    std::printf("conv %dx%dx%dx%d k%d group %d, 2 threads: int8 %.2f ms, f32 %.2f ms (best of 10)\n", c, hw, hw, m, k, group, ti, tf);
  }
}

}  // namespace
}  // namespace ec::runtime::quantized
