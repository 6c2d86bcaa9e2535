// Normalisations TFLite has no builtin for, as the arithmetic they are.
//
//   LayerNormalization: m = mean(x), d = x - m, y = d / sqrt(mean(d d) + eps) * scale + bias
//                       (its optional Mean and InvStdDev outputs: m and 1 / sqrt(mean(d d) + eps))
//   BatchNormalization: y = x a + b, a = scale / sqrt(var + eps), b = bias - mean a (per channel)
//   InstanceNormalization: LayerNormalization's standardisation over the spatial axes, then
//                          scale and bias per channel ([C, 1, ...])
//   GroupNormalization: x as [N, G, C/G * spatial], standardised over the last axis, back to
//                       x's shape, scale and bias per channel (per group ones repeated C/G times)
//   MeanVarianceNormalization: standardised over `axes` (default [0, 2, 3]), eps 1e-9 as the runtime
//   LRN: y = x / (bias + alpha/size * s)^beta, s the window sum of x^2 over channels
//        [c - floor((size-1)/2), c + ceil((size-1)/2)]: a Conv of x^2 as [N, 1, C, spatial]
//        with a [size, 1] kernel of ones, padded by the window's reach (exact sums)
#include <algorithm>
#include <cmath>

#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

using detail::is_float;

double epsilon(const ir::Operation& op) {
  const ir::Attribute* a = op.attr("epsilon");
  if (const auto* d = a ? std::get_if<double>(a) : nullptr) return *d;
  return 1e-5;
}

bool extra_outputs_used(const ir::Operation& op) {
  for (std::size_t i = 1; i < op.outputs.size(); ++i)
    if (!op.outputs[i].empty()) return true;
  return false;
}

// (x - m) / s, m = mean(x), s = sqrt(mean((x - m)^2) + eps), statistics over `axes` (kept).
struct Standardised {
  std::string y, mean, stddev;
};
Standardised standardise(OpBuilder& b, const std::string& x, const std::vector<std::int64_t>& axes, double eps) {
  const std::map<std::string, ir::Attribute> mean_attrs{{"axes", axes}, {"keepdims", std::int64_t{1}}};
  const std::string m = b.op1(K::ReduceMean, {x}, mean_attrs);
  const std::string d = b.op1(K::Sub, {x, m});
  const std::string var = b.op1(K::ReduceMean, {b.op1(K::Mul, {d, d})}, mean_attrs);
  const std::string den = b.op1(K::Sqrt, {b.op1(K::Add, {var, b.f32_scalar("epsilon", static_cast<float>(eps))})});
  return {b.op1(K::Div, {d, den}), m, den};
}

// Whether a scale / bias has C values, or (a constant) G values of C/G channels each.
bool per_channel_ok(const ir::Graph& g, const std::string& p, std::int64_t C, std::int64_t G) {
  if (const auto v = f32_values(g, p)) return static_cast<std::int64_t>(v->size()) == C || static_cast<std::int64_t>(v->size()) == G;
  const ir::Tensor* t = g.find_tensor(p);
  return t && t->shape.rank_known && t->shape.num_elements() == C && is_float(g, p);
}

// That parameter as [C, 1, ..., 1] against NC... (per_channel_ok first).
std::string per_channel(OpBuilder& b, const std::string& p, std::int64_t C, std::int64_t G, std::size_t rank) {
  std::vector<std::int64_t> shape(rank - 1, 1);
  shape[0] = C;
  const auto v = f32_values(b.graph(), p);
  if (!v) return b.reshape(p, shape);
  if (static_cast<std::int64_t>(v->size()) == C) return b.f32("per_channel", shape, *v);
  std::vector<float> r;
  for (std::int64_t c = 0; c < C; ++c) r.push_back((*v)[static_cast<std::size_t>(c / (C / G))]);
  return b.f32("per_channel", shape, r);
}

}  // namespace

std::size_t layer_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::LayerNormalization || op.inputs.size() < 2) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || !is_float(g, op.inputs[0])) {
    if (why) *why = "LayerNormalization on a non-float or unknown-rank input";
    return 0;
  }
  const auto r = static_cast<std::int64_t>(x->shape.rank());
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  std::vector<std::int64_t> axes;
  for (std::int64_t a = axis; a < r; ++a) axes.push_back(a);
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const Standardised st = standardise(b, op.inputs[0], axes, epsilon(op));
  const std::string& normalised = st.y;
  // Mean and InvStdDev (optional outputs): the statistics, kept as [d0, ..., 1, ..., 1]
  if (op.outputs.size() > 1 && !op.outputs[1].empty()) detail::emit_as(b, st.mean, op.outputs[1]);
  if (op.outputs.size() > 2 && !op.outputs[2].empty())
    b.op(K::Div, {b.f32_scalar("one", 1.f), st.stddev}, {op.outputs[2]});
  const bool bias = op.inputs.size() > 2 && !op.inputs[2].empty();
  const std::string n = b.op1(K::Mul, {normalised, op.inputs[1]});
  if (bias) b.op(K::Add, {n, op.inputs[2]}, {op.outputs[0]}, {}, op.name);
  else detail::write_last_to(b, op);
  return detail::finish(g, index, b);
}

std::size_t batch_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::BatchNormalization || op.inputs.size() != 5) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() < 2 || !is_float(g, op.inputs[0])) return 0;
  if (extra_outputs_used(op) || op.attr_int("training_mode", 0) != 0) {
    if (why) *why = "BatchNormalization in training mode";
    return 0;
  }
  const auto scale = f32_values(g, op.inputs[1]), bias = f32_values(g, op.inputs[2]), mean = f32_values(g, op.inputs[3]),
             var = f32_values(g, op.inputs[4]);
  if (!scale || !bias || !mean || !var || scale->size() != bias->size() || scale->size() != mean->size() ||
      scale->size() != var->size()) {
    if (why) *why = "BatchNormalization needs constant float statistics";
    return 0;
  }
  const double eps = epsilon(op);
  std::vector<float> a(scale->size()), c(scale->size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>((*scale)[i] / std::sqrt(static_cast<double>((*var)[i]) + eps));
    c[i] = static_cast<float>((*bias)[i] - (*mean)[i] * a[i]);
  }
  // per channel: [C, 1, ..., 1] against NC... (the channel axis 1), [C] against N...C
  std::vector<std::int64_t> shape{static_cast<std::int64_t>(a.size())};
  if (op.attr_string("layout", "NCHW") != "NHWC") shape.resize(x->shape.rank() - 1, 1);
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const std::string y = b.op1(K::Mul, {op.inputs[0], b.f32("scale", shape, a)});
  b.op(K::Add, {y, b.f32("shift", shape, c)}, {op.outputs[0]}, {}, op.name);
  const std::size_t count = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return count;
}

std::size_t instance_group_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::InstanceNormalization && op.kind != K::GroupNormalization) || op.inputs.size() < 3 || op.outputs.empty())
    return 0;
  const bool group = op.kind == K::GroupNormalization;
  const auto xs = detail::static_shape(g, op.inputs[0]);
  if (!xs || xs->size() < (group ? 2u : 3u) || !is_float(g, op.inputs[0]))
    return detail::refuse(why, op.op_type + " needs a float input of static shape");
  const auto r = static_cast<std::int64_t>(xs->size());
  const std::int64_t N = (*xs)[0], C = (*xs)[1], G = group ? op.attr_int("num_groups", 0) : C;
  if (G <= 0 || C % G) return detail::refuse(why, "GroupNormalization with channels not divisible into num_groups");
  if (!per_channel_ok(g, op.inputs[1], C, G) || !per_channel_ok(g, op.inputs[2], C, G))
    return detail::refuse(why, op.op_type + " with scale / bias neither per channel nor per group constants");
  OpBuilder b(g, detail::base_of(op));
  const std::string scale = per_channel(b, op.inputs[1], C, G, xs->size()), bias = per_channel(b, op.inputs[2], C, G, xs->size());
  std::string n;
  if (group) {
    std::int64_t len = 1;
    for (std::int64_t d = 1; d < r; ++d) len *= (*xs)[static_cast<std::size_t>(d)];
    n = b.reshape(standardise(b, b.reshape(op.inputs[0], {N, G, len / G}), {2}, epsilon(op)).y, *xs);
  } else {
    std::vector<std::int64_t> axes;
    for (std::int64_t d = 2; d < r; ++d) axes.push_back(d);
    n = standardise(b, op.inputs[0], axes, epsilon(op)).y;
  }
  b.op(K::Add, {b.op1(K::Mul, {n, scale}), bias}, {op.outputs[0]}, {}, op.name);
  return detail::finish(g, index, b);
}

std::size_t mean_variance_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::MeanVarianceNormalization || op.inputs.empty() || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || !is_float(g, op.inputs[0]))
    return detail::refuse(why, "MeanVarianceNormalization on a non-float or unknown-rank input");
  const auto r = static_cast<std::int64_t>(x->shape.rank());
  std::vector<std::int64_t> axes = op.attr_ints("axes");
  if (axes.empty()) axes = {0, 2, 3};
  for (auto& a : axes) a = a < 0 ? a + r : a;
  if (std::any_of(axes.begin(), axes.end(), [&](std::int64_t a) { return a < 0 || a >= r; }))
    return detail::refuse(why, "MeanVarianceNormalization with an axis out of range");
  OpBuilder b(g, detail::base_of(op));
  standardise(b, op.inputs[0], axes, 1e-9);
  detail::write_last_to(b, op);
  return detail::finish(g, index, b);
}

std::size_t lrn(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::LRN || op.inputs.empty() || op.outputs.empty()) return 0;
  const auto xs = detail::static_shape(g, op.inputs[0]);
  if (!xs || xs->size() < 3 || !is_float(g, op.inputs[0])) return detail::refuse(why, "LRN needs a float input of static shape");
  const std::int64_t size = op.attr_int("size", 0);
  if (size <= 0) return detail::refuse(why, "LRN without a positive size");
  const double alpha = detail::attr_double(op, "alpha", 1e-4), beta = detail::attr_double(op, "beta", 0.75),
               bias = detail::attr_double(op, "bias", 1.0);
  std::int64_t sp = 1;
  for (std::size_t d = 2; d < xs->size(); ++d) sp *= (*xs)[d];
  const std::int64_t N = (*xs)[0], C = (*xs)[1], lo = (size - 1) / 2, hi = size - 1 - lo;
  OpBuilder b(g, detail::base_of(op));
  const std::string& x = op.inputs[0];
  const std::string sq = b.reshape(b.op1(K::Mul, {x, x}), {N, 1, C, sp});
  const std::string ones = b.f32("ones", {1, 1, size, 1}, std::vector<float>(static_cast<std::size_t>(size), 1.f));
  const std::map<std::string, ir::Attribute> conv{{"kernel_shape", std::vector<std::int64_t>{size, 1}},
                                                  {"pads", std::vector<std::int64_t>{lo, 0, hi, 0}},
                                                  {"strides", std::vector<std::int64_t>{1, 1}}};
  // a zero bias: TFLite runtimes before optional biases (tfjs-tflite's) refuse a CONV_2D without one
  const std::string zero = b.f32("zero_bias", {1}, {0.f});
  const std::string sum = b.reshape(b.op1(K::Conv, {sq, ones, zero}, conv), *xs);
  const std::string d = b.op1(K::Add, {b.op1(K::Mul, {sum, b.f32_scalar("alpha_over_size", static_cast<float>(alpha / double(size)))}),
                                       b.f32_scalar("bias", static_cast<float>(bias))});
  const std::string p = b.op1(K::Pow, {d, b.f32_scalar("beta", static_cast<float>(beta))});
  b.op(K::Div, {x, p}, {op.outputs[0]}, {}, op.name);
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
