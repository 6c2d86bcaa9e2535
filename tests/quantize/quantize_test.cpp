// Unit tests of core/quantize: observers, the int8 arithmetic, the strategy
// table, and quantize() on a small generated Conv/Relu/Add/pool/Gemm graph
// (graph shape per docs/QUANTISATION.md, validate(), every report field).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <thread>

#include "core/errors.h"
#include "core/ir/text_format.h"
#include "core/ir/validate.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/observer.h"
#include "core/quantize/quant_math.h"
#include "core/quantize/quantizer.h"
#include "core/quantize/sample_lanes.h"
#include "core/runtime/gemm/gemm.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/session/session.h"

namespace ec::quantize {
namespace {

// Normal values; with `spread`, output channel c (axis 0) is scaled by 10^(c % 3 - 1),
// as trained layers' channels differ (what per-channel weights are for).
ir::Tensor random_constant(const std::string& name, std::vector<std::int64_t> shape, std::mt19937& rng, float scale,
                           bool spread = false) {
  std::normal_distribution<float> d(0.f, scale);
  std::int64_t n = 1;
  for (auto s : shape) n *= s;
  const std::int64_t per_channel = n / shape[0];
  std::vector<float> v(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = d(rng) * (spread ? std::pow(10.f, static_cast<float>(static_cast<std::int64_t>(i) / per_channel % 3) - 1.f) : 1.f);
  ir::Tensor t;
  t.name = name;
  t.dtype = ir::DType::Float32;
  t.shape = ir::Shape::of(shape);
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * 4);
  return t;
}

ir::Operation op(ir::OpKind k, std::string name, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Operation o;
  o.kind = k;
  o.op_type = std::string(ir::op_info(k).name);
  o.name = std::move(name);
  o.inputs = std::move(in);
  o.outputs = std::move(out);
  return o;
}

void act(ir::Graph& g, const std::string& name, std::vector<std::int64_t> shape) {
  ir::Tensor t;
  t.name = name;
  t.dtype = ir::DType::Float32;
  t.shape = ir::Shape::of(shape);
  g.add_tensor(t);
}

// x -> conv1 -> relu -> conv2 -> add(relu, conv2) -> relu -> gap -> flatten -> fc(Gemm transB)
ir::Graph small_net() {
  std::mt19937 rng(3);
  ir::Graph g;
  g.name = "small";
  act(g, "x", {1, 4, 8, 8});
  g.inputs = {"x"};
  g.add_tensor(random_constant("w1", {8, 4, 3, 3}, rng, 0.3f, true));
  g.add_tensor(random_constant("b1", {8}, rng, 0.1f));
  g.add_tensor(random_constant("w2", {8, 8, 1, 1}, rng, 0.3f, true));
  g.add_tensor(random_constant("b2", {8}, rng, 0.1f));
  g.add_tensor(random_constant("wf", {10, 8}, rng, 0.3f));
  g.add_tensor(random_constant("bf", {10}, rng, 0.1f));
  auto c1 = op(ir::OpKind::Conv, "conv1", {"x", "w1", "b1"}, {"c1"});
  c1.attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
  c1.attributes["kernel_shape"] = std::vector<std::int64_t>{3, 3};
  g.ops.push_back(c1);
  act(g, "c1", {1, 8, 8, 8});
  g.ops.push_back(op(ir::OpKind::Relu, "relu", {"c1"}, {"r"}));
  act(g, "r", {1, 8, 8, 8});
  auto c2 = op(ir::OpKind::Conv, "conv2", {"r", "w2", "b2"}, {"c2"});
  c2.attributes["kernel_shape"] = std::vector<std::int64_t>{1, 1};
  g.ops.push_back(c2);
  act(g, "c2", {1, 8, 8, 8});
  g.ops.push_back(op(ir::OpKind::Add, "add", {"r", "c2"}, {"a"}));
  act(g, "a", {1, 8, 8, 8});
  g.ops.push_back(op(ir::OpKind::Relu, "relu2", {"a"}, {"a2"}));
  act(g, "a2", {1, 8, 8, 8});
  g.ops.push_back(op(ir::OpKind::GlobalAveragePool, "gap", {"a2"}, {"p"}));
  act(g, "p", {1, 8, 1, 1});
  g.ops.push_back(op(ir::OpKind::Flatten, "flatten", {"p"}, {"f"}));
  act(g, "f", {1, 8});
  auto fc = op(ir::OpKind::Gemm, "fc", {"f", "wf", "bf"}, {"y"});
  fc.attributes["transB"] = std::int64_t{1};
  g.ops.push_back(fc);
  act(g, "y", {1, 10});
  g.outputs = {"y"};
  return g;
}

const ir::Operation* find_op(const ir::Graph& g, ir::OpKind k) {
  for (const auto& o : g.ops)
    if (o.kind == k) return &o;
  return nullptr;
}

TEST(Observer, MinMaxAndGrowth) {
  CalibrationObserver ob;
  std::vector<float> a{-1.f, 0.5f, 0.25f}, b{3.f, -0.1f};
  ASSERT_TRUE(ob.observe(a));
  ASSERT_TRUE(ob.observe(b));  // R grows from 1 to 4: bins merged, nothing dropped
  EXPECT_EQ(ob.count(), 5);
  EXPECT_FLOAT_EQ(ob.min(), -1.f);
  EXPECT_FLOAT_EQ(ob.max(), 3.f);
  const auto h = ob.histogram(ob.min(), ob.max(), 4);
  std::int64_t n = 0;
  for (auto c : h) n += c;
  EXPECT_EQ(n, 5);
  EXPECT_EQ(ob.range(100), (std::pair<float, float>{-1.f, 3.f}));
  std::vector<float> bad{1.f, NAN};
  EXPECT_FALSE(ob.observe(bad));
}

TEST(Observer, PercentileClipsOutliers) {
  CalibrationObserver ob;
  std::vector<float> v(10000);
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 100) / 100.f;  // [0, 0.99]
  v[0] = 50.f;                                                                           // one outlier
  ob.observe(v);
  const auto [lo, hi] = ob.range(99.9);
  EXPECT_EQ(lo, 0.f);
  EXPECT_LT(hi, 1.1f);
  EXPECT_GT(hi, 0.9f);
  EXPECT_NEAR(ob.clip_fraction(lo, hi), 1e-4, 1e-4);
  EXPECT_EQ(ob.clip_fraction(ob.min(), ob.max()), 0);
}

TEST(QuantMath, ActivationParamsRepresentZeroExactly) {
  for (auto [lo, hi] : std::vector<std::pair<float, float>>{{-1.f, 3.f}, {0.f, 6.f}, {0.2f, 5.f}, {-4.f, -1.f}, {0.f, 0.f}}) {
    const auto p = activation_params(lo, hi);
    ASSERT_GT(p.scales[0], 0);
    ASSERT_GE(p.zero_points[0], -128);
    ASSERT_LE(p.zero_points[0], 127);
    const auto [rlo, rhi] = represented_range(p);
    EXPECT_LE(rlo, std::min(lo, 0.f) + p.scales[0]);
    EXPECT_GE(rhi, std::max(hi, 0.f) - p.scales[0]);
  }
  EXPECT_EQ(activation_params(0, 6).zero_points[0], -128);  // ReLU6 output: zero at the bottom
}

TEST(QuantMath, PerChannelWeightsBeatPerTensorAndBiasScale) {
  // Channel 1 is 100x smaller than channel 0: per tensor, it drowns in rounding.
  std::vector<float> w{1.f, -0.5f, 0.25f, 0.01f, -0.005f, 0.0025f};
  const auto pc = quantize_weights(w, {2, 3}, 0, true);
  const auto pt = quantize_weights(w, {2, 3}, 0, false);
  ASSERT_EQ(pc.params.scales.size(), 2u);
  EXPECT_EQ(pc.params.axis, 0);
  EXPECT_EQ(pt.params.scales.size(), 1u);
  EXPECT_EQ(pc.values[0], 127);  // symmetric: max |w| -> 127
  EXPECT_EQ(pc.values[3], 127);
  EXPECT_GT(pc.channel_sqnr_db[1], pt.channel_sqnr_db[1] + 20);
  EXPECT_GT(pc.sqnr_db, pt.sqnr_db);
  const std::vector<float> b{0.5f, -0.02f};
  const auto qb = quantize_bias(b, 0.1f, pc.params);
  ASSERT_EQ(qb.params.scales.size(), 2u);
  EXPECT_FLOAT_EQ(qb.params.scales[0], 0.1f * pc.params.scales[0]);  // input_scale * weight_scale
  EXPECT_EQ(qb.params.dtype, ir::DType::Int32);
  EXPECT_NEAR(qb.values[0] * qb.params.scales[0], 0.5, qb.params.scales[0]);
}

TEST(Strategies, OneTableWithThreeNames) {
  std::vector<std::string> names;
  for (const auto& e : strategy_table()) names.emplace_back(e.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ptq", "qat", "dynamic"}));
}

TEST(Quantize, PtqGraphFollowsTheConvention) {
  const ir::Graph g = small_net();
  const auto samples = random_samples(g, 8, 1);
  QuantizeOptions o;
  const auto r = quantize(g, samples, o);
  EXPECT_TRUE(ir::validate(r.graph).empty() || [&] {
    for (const auto& i : ir::validate(r.graph))
      if (i.severity == ir::ValidationIssue::Severity::Error) return false;
    return true;
  }());
  // Float edges: QuantizeLinear after the input, DequantizeLinear producing the output.
  EXPECT_EQ(r.graph.inputs, g.inputs);
  EXPECT_EQ(r.graph.outputs, g.outputs);
  EXPECT_EQ(r.graph.find_tensor("x")->dtype, ir::DType::Float32);
  EXPECT_EQ(r.graph.find_tensor("y")->dtype, ir::DType::Float32);
  const ir::Operation* q = find_op(r.graph, ir::OpKind::QuantizeLinear);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->inputs[0], "x");
  const ir::Operation* dq = find_op(r.graph, ir::OpKind::DequantizeLinear);
  ASSERT_TRUE(dq);
  EXPECT_EQ(dq->outputs[0], "y");
  // Conv: i8 input with params, i8 per-channel symmetric weights, i32 bias with scale in*w.
  const ir::Operation* conv = find_op(r.graph, ir::OpKind::Conv);
  ASSERT_TRUE(conv);
  const ir::Tensor* in = r.graph.find_tensor(conv->inputs[0]);
  const ir::Tensor* w = r.graph.find_tensor(conv->inputs[1]);
  const ir::Tensor* b = r.graph.find_tensor(conv->inputs[2]);
  ASSERT_TRUE(in && w && b);
  EXPECT_EQ(in->dtype, ir::DType::Int8);
  ASSERT_TRUE(in->quant);
  EXPECT_EQ(w->dtype, ir::DType::Int8);
  ASSERT_TRUE(w->quant);
  EXPECT_EQ(w->quant->axis, 0);
  EXPECT_EQ(w->quant->scales.size(), 8u);
  for (auto z : w->quant->zero_points) EXPECT_EQ(z, 0);
  EXPECT_EQ(b->dtype, ir::DType::Int32);
  ASSERT_TRUE(b->quant);
  for (std::size_t c = 0; c < 8; ++c)
    EXPECT_FLOAT_EQ(b->quant->scales[c], in->quant->scales[0] * w->quant->scales[c]);
  // Every op output in the middle is i8 with params.
  for (const auto& o : r.graph.ops) {
    if (o.kind == ir::OpKind::DequantizeLinear) continue;
    const ir::Tensor* t = r.graph.find_tensor(o.outputs[0]);
    EXPECT_EQ(t->dtype, ir::DType::Int8) << o.name;
    EXPECT_TRUE(t->quant) << o.name;
  }
  // Flatten keeps its input's params.
  const ir::Operation* flat = find_op(r.graph, ir::OpKind::Flatten);
  EXPECT_EQ(*r.graph.find_tensor(flat->outputs[0])->quant, *r.graph.find_tensor(flat->inputs[0])->quant);

  // Report: every field filled.
  const QuantReport& rep = r.report;
  EXPECT_EQ(rep.strategy, "ptq");
  EXPECT_EQ(rep.calibration_samples, 8);
  EXPECT_GT(rep.calibration_seconds, 0);
  ASSERT_EQ(rep.outputs.size(), 1u);
  EXPECT_EQ(rep.outputs[0].output, "y");
  EXPECT_GT(*rep.outputs[0].sqnr_db, 20);
  EXPECT_GT(*rep.outputs[0].max_abs_error, 0);
  EXPECT_GE(*rep.outputs[0].top1_agreement, 0.5);
  ASSERT_EQ(rep.layers.size(), 3u);
  for (const auto& l : rep.layers) {
    EXPECT_FALSE(l.channel_sqnr_db.empty()) << l.op;
    EXPECT_EQ(l.channel_sqnr_db.size(), l.channel_max_abs_error.size());
    EXPECT_GT(l.weight_sqnr_db, 30) << l.op;
    EXPECT_GT(l.output_sqnr_db, 15) << l.op;
    EXPECT_FALSE(l.sensitivity_gain_db);
  }
  EXPECT_EQ(rep.layers[2].channel_sqnr_db.size(), 10u);  // Gemm transB: one per output row
  const TensorReport* x = rep.find_tensor("x");
  ASSERT_TRUE(x);
  EXPECT_EQ(x->producer, "");
  EXPECT_LT(x->float_min, 0);
  EXPECT_GT(x->float_max, 0);
  EXPECT_LE(x->range_min, x->float_min + x->params.scales[0]);
  EXPECT_EQ(x->clip_fraction, 0);  // min/max observer
  EXPECT_GT(x->sqnr_db, 35);
  EXPECT_EQ(x->histogram.size(), 64u);
  const TensorReport* r1 = rep.find_tensor("r");  // conv1's output once the Relu is fused into it
  ASSERT_TRUE(r1);
  EXPECT_EQ(r1->producer, "conv1");
  EXPECT_GE(r1->range_min, -1e-6);
  const TensorReport* add = rep.find_tensor("a");
  ASSERT_TRUE(add);
  EXPECT_LT(add->float_min, 0);
  EXPECT_GE(add->range_min, -1e-6);  // narrowed to the following Relu's range (TFLite fuses it)
  EXPECT_EQ(add->clip_fraction, 0);  // the Relu clips those values anyway
  EXPECT_GT(add->sqnr_db, 25);       // measured against the Relu's output
  EXPECT_TRUE(rep.float_ops.empty());
}

TEST(Quantize, PerTensorIsWorseAndKeepFloatAndInt8Io) {
  const ir::Graph g = small_net();
  const auto samples = random_samples(g, 8, 1);
  QuantizeOptions o;
  const double pc = quantize(g, samples, o).report.outputs[0].sqnr_db.value();
  o.per_channel = false;
  const auto pt = quantize(g, samples, o);
  EXPECT_LT(*pt.report.outputs[0].sqnr_db, pc);
  EXPECT_FALSE(pt.report.layers[0].per_channel);

  o.per_channel = true;
  o.keep_float = {"fc"};
  o.sensitivity = true;
  const auto kf = quantize(g, samples, o);
  ASSERT_EQ(kf.report.float_ops.size(), 1u);
  EXPECT_EQ(kf.report.float_ops[0].op, "fc");
  EXPECT_EQ(kf.report.float_ops[0].reason, "--keep-float");
  for (const auto& l : kf.report.layers) EXPECT_TRUE(l.sensitivity_gain_db) << l.op;
  const ir::Operation* gemm = find_op(kf.graph, ir::OpKind::Gemm);
  EXPECT_EQ(kf.graph.find_tensor(gemm->inputs[0])->dtype, ir::DType::Float32);  // reads a DequantizeLinear
  EXPECT_EQ(kf.graph.find_tensor(gemm->inputs[1])->dtype, ir::DType::Float32);

  o.keep_float = {};
  o.sensitivity = false;
  o.int8_io = true;
  const auto io = quantize(g, samples, o);
  EXPECT_EQ(io.graph.find_tensor("x")->dtype, ir::DType::Int8);
  EXPECT_EQ(io.graph.find_tensor("y")->dtype, ir::DType::Int8);
  EXPECT_FALSE(find_op(io.graph, ir::OpKind::QuantizeLinear));
  EXPECT_FALSE(find_op(io.graph, ir::OpKind::DequantizeLinear));
}

TEST(Quantize, DynamicQuantisesWeightsOnly) {
  const ir::Graph g = small_net();
  QuantizeOptions o;
  o.strategy = "dynamic";
  const auto r = quantize(g, random_samples(g, 2, 1), o);
  const ir::Operation* conv = find_op(r.graph, ir::OpKind::Conv);
  EXPECT_EQ(r.graph.find_tensor(conv->inputs[0])->dtype, ir::DType::Float32);
  EXPECT_EQ(r.graph.find_tensor(conv->inputs[1])->dtype, ir::DType::Int8);
  EXPECT_EQ(r.graph.find_tensor(conv->inputs[2])->dtype, ir::DType::Float32);
  EXPECT_EQ(r.graph.find_tensor(conv->outputs[0])->dtype, ir::DType::Float32);
  EXPECT_TRUE(r.report.tensors.empty());
  EXPECT_EQ(r.report.layers.size(), 3u);
  EXPECT_TRUE(r.report.layers[0].hybrid);
  EXPECT_GT(*r.report.outputs[0].sqnr_db, 25);
}

bool in_float(const QuantReport& r, const std::string& op, std::string* reason = nullptr) {
  for (const auto& f : r.float_ops)
    if (f.op == op) {
      if (reason) *reason = f.reason;
      return true;
    }
  return false;
}

// Issue 13 (1): an op whose int8 kernel refuses an attribute (a fused SIGMOID)
// stays in float automatically, with the kernel's reason; the graph returned runs
// on the CPU runtime and the figures come from running it, not from a simulation.
// A fused activation the int8 kernels cannot apply (only clamps) is split off again: the
// op and a separate Sigmoid both run in int8 (efficientnet's squeeze-excite Conv+Sigmoid
// otherwise kept float whole); --keep-float by that activation keeps the fused op float.
TEST(Quantize, OpsTheInt8KernelsRefuseStayFloat) {
  ir::Graph g = small_net();
  for (auto& o : g.ops)
    if (o.name == "conv2") o.attributes["fused_activation"] = std::string("SIGMOID");
  const auto samples = random_samples(g, 4, 1);
  const auto r = quantize(g, samples, QuantizeOptions{});
  std::string why;
  EXPECT_FALSE(in_float(r.report, "conv2", &why)) << why;
  EXPECT_FALSE(in_float(r.report, "conv1"));
  bool split = false;
  for (const auto& o : r.graph.ops)
    if (o.name == "conv2/activation") {
      split = o.kind == ir::OpKind::Sigmoid && r.graph.find_tensor(o.outputs[0])->dtype == ir::DType::Int8;
      for (const auto& c : r.graph.ops) {
        if (c.name == "conv2") { EXPECT_EQ(c.attr_string("fused_activation", "NONE"), "NONE"); }
      }
    }
  EXPECT_TRUE(split) << "conv2's SIGMOID runs as its own int8 op";
  for (const auto& w : r.report.warnings) EXPECT_EQ(w.find("cannot run"), std::string::npos) << w;
  EXPECT_EQ(r.report.measured_samples, 4);
  // `run` loads exactly this graph: it must load and run.
  runtime::InferenceSession session;
  ASSERT_NO_THROW(session.load(ir::freeze(ir::Graph(r.graph))));
  EXPECT_NO_THROW(session.run(samples[0]));
  // --keep-float Sigmoid names the fused activation: conv2 stays float by request.
  QuantizeOptions keep;
  keep.keep_float = {"Sigmoid"};
  ir::Graph with_sigmoid = g;  // --keep-float names must exist in the model
  with_sigmoid.ops.push_back(op(ir::OpKind::Sigmoid, "sig", {"y"}, {"s"}));
  act(with_sigmoid, "s", {1, 10});
  with_sigmoid.outputs = {"s"};
  const auto k = quantize(with_sigmoid, samples, keep);
  ASSERT_TRUE(in_float(k.report, "conv2", &why));
  EXPECT_EQ(why, "--keep-float");
}

// Issue 35: a refusal the kernel makes only when it runs (the int8 pools take 1-D
// and 2-D pooling; a 3-D one failed the whole quantisation at the first sample) keeps
// the op in float like any other, with the kernel's reason.
TEST(Quantize, RefusalsOnlyARunShowKeepTheOpFloat) {
  ir::Graph g = ir::parse(
      "graph \"pool3d\" {\n"
      "  input %x : f32[1,2,4,4,4]\n"
      "  %m = MaxPool(%x) {kernel_shape = [2,2,2], strides = [2,2,2]} : f32[1,2,2,2,2] @\"maxpool\"\n"
      "  %g = GlobalAveragePool(%m) : f32[1,2,1,1,1] @\"gap\"\n"
      "  %r = Relu(%g) : f32[1,2,1,1,1] @\"relu\"\n"
      "  output %r\n}\n");
  const auto samples = random_samples(g, 4, 1);
  QuantizeResult r;
  ASSERT_NO_THROW(r = quantize(g, samples, QuantizeOptions{}));
  for (const char* name : {"maxpool", "gap"}) {
    std::string why;
    ASSERT_TRUE(in_float(r.report, name, &why)) << name;
    EXPECT_NE(why.find("rank 5"), std::string::npos) << why;
  }
  runtime::InferenceSession session;
  ASSERT_NO_THROW(session.load(ir::freeze(ir::Graph(r.graph))));
  EXPECT_NO_THROW(session.run(samples[0]));
}

// Issue 13 (1): what runs in int8 is the runtime's int8 kernel table: Sub,
// HardSwish and GlobalMaxPool have kernels there, so they run in int8.
TEST(Quantize, Int8OpsComeFromTheRuntimeTable) {
  std::mt19937 rng(5);
  ir::Graph g;
  g.name = "table";
  act(g, "x", {1, 4, 6, 6});
  g.inputs = {"x"};
  g.add_tensor(random_constant("c", {1, 4, 1, 1}, rng, 0.5f));
  g.add_tensor(random_constant("wf", {3, 4}, rng, 0.3f));
  g.add_tensor(random_constant("bf", {3}, rng, 0.1f));
  g.ops.push_back(op(ir::OpKind::Sub, "sub", {"x", "c"}, {"d"}));
  act(g, "d", {1, 4, 6, 6});
  g.ops.push_back(op(ir::OpKind::HardSwish, "hswish", {"d"}, {"h"}));
  act(g, "h", {1, 4, 6, 6});
  g.ops.push_back(op(ir::OpKind::GlobalMaxPool, "gmp", {"h"}, {"p"}));
  act(g, "p", {1, 4, 1, 1});
  g.ops.push_back(op(ir::OpKind::Flatten, "flatten", {"p"}, {"f"}));
  act(g, "f", {1, 4});
  auto fc = op(ir::OpKind::Gemm, "fc", {"f", "wf", "bf"}, {"y"});
  fc.attributes["transB"] = std::int64_t{1};
  g.ops.push_back(fc);
  act(g, "y", {1, 3});
  g.outputs = {"y"};
  const auto r = quantize(g, random_samples(g, 4, 2), QuantizeOptions{});
  for (const char* name : {"sub", "hswish", "gmp", "flatten", "fc"}) {
    std::string why;
    EXPECT_FALSE(in_float(r.report, name, &why)) << name << ": " << why;
  }
  for (const auto& o : r.graph.ops) {
    if (o.kind == ir::OpKind::Sub || o.kind == ir::OpKind::HardSwish || o.kind == ir::OpKind::GlobalMaxPool) {
      EXPECT_TRUE(runtime::quantized::is_int8_op(o, r.graph)) << o.name;
    }
  }
  EXPECT_GT(*r.report.outputs[0].sqnr_db, 20);
}

// A bias that would not fit in int32 at input_scale * weight_scale (tiny input
// range, large bias: ShuffleNetV2's classifier) keeps its op in float rather than
// clamping it; the rest stays int8.
// A bias far beyond int32 at input scale x weight scale: the weight scale grows until it
// fits (TFLite's AdjustWeightsForBiasScale), and the op stays int8 (random-weight models
// with tiny activations hit this in their classifiers).
TEST(Quantize, BiasBeyondInt32GrowsTheWeightScale) {
  ir::Graph g = small_net();
  std::vector<float> big(10, 1e6f);
  g.tensors["bf"].data = ir::ConstantData::copy_of(big.data(), big.size() * 4);
  const auto r = quantize(g, random_samples(g, 4, 1), QuantizeOptions{});
  std::string why;
  EXPECT_FALSE(in_float(r.report, "fc", &why)) << why;
  EXPECT_FALSE(in_float(r.report, "conv1"));
  EXPECT_GT(*r.report.outputs[0].sqnr_db, 20);
  for (const auto& o : r.graph.ops)
    if (o.name == "fc") {
      const ir::Tensor* b = r.graph.find_tensor(o.inputs[2]);
      ASSERT_TRUE(b && b->dtype == ir::DType::Int32);
      for (auto v : b->data->as<std::int32_t>()) EXPECT_LE(std::abs(static_cast<double>(v)), 1073741824.0);
    }
}

// Issue 13 (2): with no samples nothing is measured, and nothing pretends it was.
TEST(Quantize, NoSamplesMeansNotMeasured) {
  const ir::Graph g = small_net();
  QuantizeOptions o;
  o.strategy = "dynamic";
  const auto r = quantize(g, {}, o);
  EXPECT_EQ(r.report.measured_samples, 0);
  ASSERT_EQ(r.report.outputs.size(), 1u);
  EXPECT_FALSE(r.report.outputs[0].measured());
  EXPECT_FALSE(r.report.outputs[0].max_abs_error.has_value());
  EXPECT_FALSE(r.report.outputs[0].top1_agreement.has_value());
  for (const auto& l : r.report.layers) EXPECT_TRUE(std::isnan(l.output_sqnr_db)) << l.op;
}

// Issue 13 (5): random calibration data has each input's dtype; token ids index
// their table's rows; other integer inputs stay in {0, 1}.
TEST(CalibrationData, RandomSamplesFollowInputDtypeAndTable) {
  std::mt19937 rng(1);
  ir::Graph g;
  g.name = "text";
  ir::Tensor tokens;
  tokens.name = "tokens";
  tokens.dtype = ir::DType::Int64;
  tokens.shape = ir::Shape::of({1, 32});
  g.add_tensor(tokens);
  ir::Tensor mask = tokens;
  mask.name = "mask";
  g.add_tensor(mask);
  act(g, "x", {1, 4});
  g.inputs = {"tokens", "mask", "x"};
  g.add_tensor(random_constant("embedding.weight", {1000, 8}, rng, 1.f));
  g.ops.push_back(op(ir::OpKind::Gather, "emb", {"embedding.weight", "tokens"}, {"e"}));
  act(g, "e", {1, 32, 8});
  g.outputs = {"e"};
  const auto ranges = random_input_ranges(g);
  ASSERT_EQ(ranges.size(), 3u);
  EXPECT_EQ(ranges[0].kind, RandomInputRange::Kind::TableIndex);
  EXPECT_EQ(ranges[0].hi, 1000);
  EXPECT_EQ(ranges[0].table, "embedding.weight");
  EXPECT_EQ(ranges[1].kind, RandomInputRange::Kind::SmallInteger);
  EXPECT_EQ(ranges[2].kind, RandomInputRange::Kind::Float);
  const auto samples = random_samples(g, 8, 3);
  ASSERT_EQ(samples.size(), 8u);
  std::int64_t hi = 0;
  for (const auto& s : samples) {
    const auto& t = s.at("tokens");
    ASSERT_EQ(t.dtype(), ir::DType::Int64);
    EXPECT_EQ(t.shape(), (std::vector<std::int64_t>{1, 32}));
    for (auto v : t.values<std::int64_t>()) {
      EXPECT_GE(v, 0);
      EXPECT_LT(v, 1000);
      hi = std::max(hi, v);
    }
    for (auto v : s.at("mask").values<std::int64_t>()) EXPECT_TRUE(v == 0 || v == 1);
    ASSERT_EQ(s.at("x").dtype(), ir::DType::Float32);
    for (auto v : s.at("x").values<float>()) EXPECT_TRUE(v >= -1.f && v < 1.f);
  }
  EXPECT_GT(hi, 500);  // the whole table is used, not a small range
  // The float runtime takes them: the samples have the inputs' dtypes.
  runtime::InferenceSession session;
  session.load(ir::freeze(ir::Graph(g)));
  EXPECT_NO_THROW(session.run(samples[0]));
  const std::string d = describe_random_samples(g, 8, 3);
  EXPECT_NE(d.find("[0, 1000)"), std::string::npos) << d;
  EXPECT_NE(d.find("embedding.weight"), std::string::npos) << d;
}

TEST(Quantize, BadRequests) {
  const ir::Graph g = small_net();
  const auto samples = random_samples(g, 2, 1);
  QuantizeOptions o;
  o.strategy = "magic";
  EXPECT_THROW(quantize(g, samples, o), EdgeCompilerError);
  o.strategy = "ptq";
  o.keep_float = {"nope"};
  try {
    quantize(g, samples, o);
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("nope"), std::string::npos);
  }
  o.keep_float = {};
  o.strategy = "qat";  // no QDQ pairs in the model
  EXPECT_THROW(quantize(g, samples, o), EdgeCompilerError);
  o.strategy = "ptq";
  EXPECT_THROW(quantize(g, {}, o), EdgeCompilerError);  // ptq without samples
  // Cancel from the progress callback.
  try {
    quantize(g, samples, o, [](const std::string&, int, int) { return false; });
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_STREQ(e.what(), "cancelled");
  }
}

}  // namespace
}  // namespace ec::quantize

namespace ec::quantize {
namespace {

// Observers, SQNR sums and calibration runs go in parallel (tensors, sample pairs,
// float beside int8): the graph and every report figure must not depend on it.
TEST(Quantize, ResultsDoNotDependOnThreads) {
  const ir::Graph g = small_net();
  const auto samples = random_samples(g, 9, 4);  // odd: a pair short at the end
  std::vector<QuantizeResult> runs;
  for (int threads : {1, 2, 3}) {
    QuantizeOptions o;
    o.threads = threads;
    o.calibration_percentile = 99.9;  // the histogram's percentile, not only min/max
    runs.push_back(quantize(g, samples, o));
  }
  for (std::size_t k = 1; k < runs.size(); ++k) {
    const QuantReport &a = runs[0].report, &b = runs[k].report;
    ASSERT_EQ(a.tensors.size(), b.tensors.size());
    for (std::size_t t = 0; t < a.tensors.size(); ++t) {
      EXPECT_EQ(a.tensors[t].params.scales, b.tensors[t].params.scales) << a.tensors[t].tensor;
      EXPECT_EQ(a.tensors[t].params.zero_points, b.tensors[t].params.zero_points) << a.tensors[t].tensor;
      EXPECT_EQ(a.tensors[t].histogram, b.tensors[t].histogram) << a.tensors[t].tensor;
      EXPECT_EQ(a.tensors[t].sqnr_db, b.tensors[t].sqnr_db) << a.tensors[t].tensor;
    }
    ASSERT_EQ(a.outputs.size(), b.outputs.size());
    EXPECT_EQ(a.outputs[0].sqnr_db, b.outputs[0].sqnr_db);
    EXPECT_EQ(a.outputs[0].top1_agreement, b.outputs[0].top1_agreement);
  }
  EXPECT_GT(runs[0].report.tensors.size(), 4u);
}

// The observer's vector paths (min/max/finite, histogram bins) against its plain loops.
TEST(Observer, SameOnEveryIsa) {
  std::mt19937 rng(8);
  std::normal_distribution<float> d(0.f, 3.f);
  std::vector<std::vector<float>> runs;
  for (std::size_t n : {1u, 7u, 64u, 1000u, 4099u, 40000u}) {  // 40000: the sub-histogram path
    std::vector<float> v(n);
    for (auto& x : v) x = d(rng) * (n == 1000 ? 100.f : 1.f);  // one run doubles the range
    runs.push_back(v);
  }
  std::vector<float> relu(30000);  // half zeros (+0 and -0): counted apart on AVX-512
  for (std::size_t i = 0; i < relu.size(); ++i) relu[i] = i % 7 == 0 ? -0.f : std::max(0.f, d(rng));
  runs.push_back(relu);
  std::vector<CalibrationObserver> obs;
  for (auto isa : runtime::gemm::supported_isas()) {
    runtime::gemm::force_isa(isa);
    CalibrationObserver o;
    for (const auto& r : runs) EXPECT_TRUE(o.observe(r));
    std::vector<float> bad = {1.f, std::numeric_limits<float>::quiet_NaN(), 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f};
    EXPECT_FALSE(CalibrationObserver().observe(bad)) << "NaN";
    bad[1] = std::numeric_limits<float>::infinity();
    EXPECT_FALSE(CalibrationObserver().observe(bad)) << "inf";
    obs.push_back(o);
  }
  runtime::gemm::force_isa(runtime::gemm::supported_isas().back());
  for (const auto& o : obs) {
    EXPECT_EQ(o.min(), obs[0].min());
    EXPECT_EQ(o.max(), obs[0].max());
    EXPECT_EQ(o.count(), obs[0].count());
    EXPECT_EQ(o.range(99.0), obs[0].range(99.0));
    EXPECT_EQ(o.histogram(o.min(), o.max(), 4096), obs[0].histogram(obs[0].min(), obs[0].max(), 4096));
  }
}


// Concurrent calibration observes in three steps (extent anywhere, add_extent in
// sample order, bins at the returned R in per-lane histograms absorbed at the end):
// the observer must end exactly as observe() one run at a time leaves it, through
// an all-zero start (R stays 0), growth by one and by many doublings, zeros after
// growth, and runs long enough for the sub-histogram path.
TEST(Observer, SplitStepsEqualObservingInOrder) {
  std::mt19937 rng(11);
  std::normal_distribution<float> d(0.f, 1.f);
  std::vector<std::vector<float>> runs;
  auto run = [&](std::size_t n, float scale, bool relu) {
    std::vector<float> v(n);
    for (auto& x : v) x = relu ? std::max(0.f, d(rng) * scale) : d(rng) * scale;
    runs.push_back(v);
  };
  runs.push_back(std::vector<float>(300, 0.f));
  run(5000, 0.01f, false);
  run(40000, 1.f, true);
  runs.push_back(std::vector<float>(20000, 0.f));
  run(100, 3.f, false);
  run(33000, 1000.f, false);  // many doublings at once
  run(17, 0.5f, true);
  run(50000, 2.f, false);
  // early: as quantizer.cpp does, each lane also bins its run before knowing R, at the
  // lane's own R grown by the run, and keeps those bins when add_extent returns that R.
  int kept = 0, rebinned = 0;
  for (int lanes : {1, 2, 3})
  for (bool early : {false, true}) {
    CalibrationObserver serial, split;
    std::vector<HistogramBins> lane(static_cast<std::size_t>(lanes));
    HistogramBins guessed;
    for (std::size_t s = 0; s < runs.size(); ++s) {
      ASSERT_TRUE(serial.observe(runs[s]));
      HistogramBins& mine = lane[s % lane.size()];  // each lane sees its samples in increasing order
      const Extent e = CalibrationObserver::extent(runs[s]);
      ASSERT_TRUE(e.finite);
      const float guess = CalibrationObserver::grown_range(mine.half_range(), e);
      guessed.reset();
      guessed.add(runs[s], guess);
      const float r = split.add_extent(e);
      if (early && guess == r) {
        mine.absorb(guessed);
        ++kept;
      } else {
        mine.add(runs[s], r);
        rebinned += early;
      }
    }
    for (const auto& l : lane) split.absorb(l);
    EXPECT_EQ(split.count(), serial.count());
    EXPECT_EQ(split.min(), serial.min());
    EXPECT_EQ(split.max(), serial.max());
    for (double p : {100.0, 99.99, 99.0, 90.0}) EXPECT_EQ(split.range(p), serial.range(p)) << p;
    EXPECT_EQ(split.histogram(serial.min(), serial.max(), 4096), serial.histogram(serial.min(), serial.max(), 4096));
    EXPECT_EQ(split.histogram(serial.min(), serial.max(), 64), serial.histogram(serial.min(), serial.max(), 64));
    EXPECT_EQ(split.clip_fraction(-1.f, 1.f), serial.clip_fraction(-1.f, 1.f));
    EXPECT_GT(serial.clip_fraction(-1.f, 1.f), 0);
  }
  EXPECT_GT(kept, 0);      // both ways taken
  EXPECT_GT(rebinned, 0);
}

// run_in_lanes: merges in sample order whatever the lanes, calls progress on the
// calling thread only (0 first, n last), rethrows the earliest sample's error
// (merging nothing after it), and stops on a cancel.
TEST(SampleLanes, MergeInOrderErrorsAndCancel) {
  const std::size_t n = 40;
  for (int lanes : {1, 2, 4}) {
    std::vector<std::size_t> merged;
    std::vector<int> finished(n, 0);
    std::vector<int> seen;
    bool other_thread = false;
    const auto caller = std::this_thread::get_id();
    detail::SampleSteps steps;
    steps.work = [&](int l, std::size_t s) {
      EXPECT_LT(l, lanes);
      if (s % 7 == 3) std::this_thread::sleep_for(std::chrono::milliseconds(2));  // out of step
    };
    steps.merge = [&](int, std::size_t s) { merged.push_back(s); };
    steps.finish = [&](int, std::size_t s) { finished[s]++; };
    detail::run_in_lanes(n, lanes, steps, [&](int done) {
      other_thread |= std::this_thread::get_id() != caller;
      seen.push_back(done);
      return true;
    });
    std::vector<std::size_t> order(n);
    for (std::size_t s = 0; s < n; ++s) order[s] = s;
    EXPECT_EQ(merged, order) << lanes << " lanes";
    EXPECT_EQ(finished, std::vector<int>(n, 1));
    EXPECT_FALSE(other_thread);
    ASSERT_FALSE(seen.empty());
    EXPECT_EQ(seen.front(), 0);
    EXPECT_EQ(seen.back(), static_cast<int>(n));
    EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));

    // Errors: samples 9 (in work) and 5 (in merge) fail; 5 is what a serial run meets first.
    merged.clear();
    steps.work = [&](int, std::size_t s) {
      if (s == 9) throw std::runtime_error("work 9");
    };
    steps.merge = [&](int, std::size_t s) {
      if (s == 5) throw std::runtime_error("merge 5");
      merged.push_back(s);
    };
    try {
      detail::run_in_lanes(n, lanes, steps, {});
      ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "merge 5");
    }
    EXPECT_EQ(merged, (std::vector<std::size_t>{0, 1, 2, 3, 4}));

    // Cancel: progress says no once 10 samples are merged (samples from 12 on wait
    // for that answer); the samples taken finish, in order, and nothing runs on.
    merged.clear();
    std::atomic<bool> said_no{false};
    steps.work = [&](int, std::size_t s) {
      for (int k = 0; s >= 12 && !said_no && k < 10000; ++k) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    steps.merge = [&](int, std::size_t s) { merged.push_back(s); };
    try {
      detail::run_in_lanes(n, lanes, steps, [&](int done) {
        if (done < 10) return true;
        said_no = true;
        return false;
      });
      ADD_FAILURE() << "not cancelled";
    } catch (const EdgeCompilerError& e) {
      EXPECT_STREQ(e.what(), "cancelled");
    }
    EXPECT_GE(merged.size(), 10u);
    EXPECT_LT(merged.size(), n);
    for (std::size_t k = 0; k < merged.size(); ++k) EXPECT_EQ(merged[k], k);
  }
}

}  // namespace
}  // namespace ec::quantize
