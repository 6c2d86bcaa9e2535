// Normalisations TFLite has no builtin for, as the arithmetic they are.
//
//   LayerNormalization: m = mean(x), d = x - m, y = d / sqrt(mean(d d) + eps) * scale + bias
//   BatchNormalization: y = x a + b, a = scale / sqrt(var + eps), b = bias - mean a (per channel)
#include <cmath>

#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

bool float_tensor(const ir::Graph& g, const std::string& n) {
  const ir::Tensor* t = g.find_tensor(n);
  return t && t->dtype == ir::DType::Float32 && !t->quant;
}

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

}  // namespace

std::size_t layer_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::LayerNormalization || op.inputs.size() < 2) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || !float_tensor(g, op.inputs[0])) {
    if (why) *why = "LayerNormalization on a non-float or unknown-rank input";
    return 0;
  }
  if (extra_outputs_used(op)) {
    if (why) *why = "LayerNormalization's Mean / InvStdDev outputs have no TFLite form";
    return 0;
  }
  const auto r = static_cast<std::int64_t>(x->shape.rank());
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  std::vector<std::int64_t> axes;
  for (std::int64_t a = axis; a < r; ++a) axes.push_back(a);
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const std::map<std::string, ir::Attribute> mean_attrs{{"axes", axes}, {"keepdims", std::int64_t{1}}};
  const std::string m = b.op1(K::ReduceMean, {op.inputs[0]}, mean_attrs);
  const std::string d = b.op1(K::Sub, {op.inputs[0], m});
  const std::string var = b.op1(K::ReduceMean, {b.op1(K::Mul, {d, d})}, mean_attrs);
  const std::string den = b.op1(K::Sqrt, {b.op1(K::Add, {var, b.f32_scalar("epsilon", static_cast<float>(epsilon(op)))})});
  const bool bias = op.inputs.size() > 2 && !op.inputs[2].empty();
  const std::string n = b.op1(K::Mul, {b.op1(K::Div, {d, den}), op.inputs[1]});
  if (bias) b.op(K::Add, {n, op.inputs[2]}, {op.outputs[0]}, {}, op.name);
  else b.ops().back().outputs[0] = op.outputs[0];
  const std::size_t count = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return count;
}

std::size_t batch_norm(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::BatchNormalization || op.inputs.size() != 5) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() < 2 || !float_tensor(g, op.inputs[0])) return 0;
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

}  // namespace ec::passes::decompose
