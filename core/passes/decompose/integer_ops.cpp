// ONNX's integer operator format (what ONNX Runtime's quantiser writes in its QOperator
// and dynamic modes) as float arithmetic TFLite has builtins for:
//
//   QLinearConv / QLinearMatMul:  DequantizeLinear of the input (a runtime tensor), the
//     weights dequantised into a float constant ((w - zw) * sw, per output channel where
//     the op has it), the int32 bias as a float constant (B * sx * sw), the float Conv /
//     MatMul, QuantizeLinear with the output's scale and zero point.
//   ConvInteger / MatMulInteger:  Cast to float, Sub of the zero point, the float op on
//     weights (w - zw), Cast to int32. The sums are exact integers in float while they stay
//     below 2^24 in magnitude; beyond, within float rounding (6e-8 relative).
//   DynamicQuantizeLinear:  the scale (max(0, max x) - min(0, min x)) / 255, the zero point
//     round(-min / scale) clamped to [0, 255], and y = clamp(round(x / scale) + zp, 0, 255),
//     as ReduceMin / ReduceMax / Min / Max / Sub / Div / Neg / Round / Clip / Add / Cast.
//
// The float writer writes the remaining QuantizeLinear / DequantizeLinear as ONNX's own
// arithmetic; the Coral pipeline's quantiser takes such pairs for the model's own params.
#include <cstring>

#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;
using detail::refuse;

bool is_integer_storage(ir::DType t) {
  return t == ir::DType::Int8 || t == ir::DType::UInt8 || t == ir::DType::Int32;
}

/// The values of a constant int8 / uint8 / int32 / float32 tensor as doubles, or nullopt.
std::optional<std::vector<double>> constant_values(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  if (!t || !t->is_constant()) return std::nullopt;
  const auto bytes = t->data->bytes();
  std::vector<double> v;
  auto read = [&](auto tag) {
    using T = decltype(tag);
    v.resize(bytes.size() / sizeof(T));
    for (std::size_t i = 0; i < v.size(); ++i) {
      T x;
      std::memcpy(&x, bytes.data() + i * sizeof(T), sizeof(T));
      v[i] = static_cast<double>(x);
    }
  };
  switch (t->dtype) {
    case ir::DType::Int8: read(std::int8_t{}); break;
    case ir::DType::UInt8: read(std::uint8_t{}); break;
    case ir::DType::Int32: read(std::int32_t{}); break;
    case ir::DType::Float32: read(float{}); break;
    default: return std::nullopt;
  }
  return v;
}

/// An optional input: its name, or "" when absent.
std::string input_or_empty(const ir::Operation& op, std::size_t i) {
  return i < op.inputs.size() ? op.inputs[i] : std::string{};
}

/// The values of an optional constant (zero point: absent = {0}); nullopt when present but
/// not a constant.
std::optional<std::vector<double>> optional_constant(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return std::vector<double>{0.0};
  return constant_values(g, name);
}

/// Per-row value: a single value broadcast, or one per row.
double per_row(const std::vector<double>& v, std::int64_t row) {
  return v.size() == 1 ? v[0] : v[static_cast<std::size_t>(row)];
}

/// The float weights (w - zw) * sw of a constant weight tensor whose rows run along `axis`
/// (0: Conv's output channels; 1: MatMul's columns), or nullopt.
std::optional<std::vector<float>> dequantised_weights(const ir::Graph& g, const std::string& w,
                                                      const std::vector<double>& zw, const std::vector<double>& sw,
                                                      int axis, std::string* why) {
  const ir::Tensor* t = g.find_tensor(w);
  const auto v = constant_values(g, w);
  const auto shape = detail::static_shape(g, w);
  if (!t || !v || !shape || shape->empty()) {
    refuse(why, "weights '" + w + "' that are not a constant of static shape");
    return std::nullopt;
  }
  const std::int64_t rows = axis == 0 ? (*shape)[0] : shape->back();
  if ((zw.size() != 1 && static_cast<std::int64_t>(zw.size()) != rows) ||
      (sw.size() != 1 && static_cast<std::int64_t>(sw.size()) != rows)) {
    refuse(why, "weight zero points or scales that are neither one value nor one per output channel");
    return std::nullopt;
  }
  std::vector<float> out(v->size());
  const std::int64_t inner = axis == 0 ? static_cast<std::int64_t>(v->size()) / std::max<std::int64_t>(rows, 1) : 1;
  for (std::size_t i = 0; i < v->size(); ++i) {
    const std::int64_t r = axis == 0 ? static_cast<std::int64_t>(i) / inner : static_cast<std::int64_t>(i) % rows;
    out[i] = static_cast<float>(((*v)[i] - per_row(zw, r)) * per_row(sw, r));
  }
  return out;
}

/// x - zx in float for a runtime integer tensor x and a constant scalar zero point.
std::string shifted_float(OpBuilder& b, const std::string& x, double zx) {
  std::string xf = b.op1(K::Cast, {x}, {{"to", std::string("f32")}});
  if (zx != 0.0) xf = b.op1(K::Sub, {xf, b.f32_scalar("zero_point", static_cast<float>(zx))});
  return xf;
}

std::size_t qlinear(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  const bool conv = op.kind == K::QLinearConv;
  if (op.inputs.size() < 8 || op.outputs.empty()) return 0;
  const auto sx = constant_values(g, op.inputs[1]), zx = constant_values(g, op.inputs[2]);
  const auto sw = constant_values(g, op.inputs[4]), zw = constant_values(g, op.inputs[5]);
  if (!sx || !zx || !sw || !zw || sx->size() != 1 || zx->size() != 1 || !constant_values(g, op.inputs[6]) ||
      !constant_values(g, op.inputs[7]))
    return refuse(why, op.op_type + " whose scales or zero points are not constants (one per tensor for the input)");
  const auto wf = dequantised_weights(g, op.inputs[3], *zw, *sw, conv ? 0 : 1, why);
  if (!wf) return 0;
  const ir::Tensor* w = g.find_tensor(op.inputs[3]);
  OpBuilder b(g, detail::base_of(op));
  const std::string x = b.op1(K::DequantizeLinear, {op.inputs[0], op.inputs[1], op.inputs[2]});
  const std::string wc = b.f32("weight", w->shape.sizes(), *wf);
  std::vector<std::string> in = {x, wc};
  if (conv && op.inputs.size() > 8 && !op.inputs[8].empty()) {
    const auto bias = constant_values(g, op.inputs[8]);
    if (!bias) return refuse(why, "QLinearConv whose bias is not a constant");
    std::vector<float> bf(bias->size());
    for (std::size_t i = 0; i < bf.size(); ++i)
      bf[i] = static_cast<float>((*bias)[i] * (*sx)[0] * per_row(*sw, static_cast<std::int64_t>(i)));
    in.push_back(b.f32("bias", {static_cast<std::int64_t>(bf.size())}, bf));
  }
  std::map<std::string, ir::Attribute> attrs;
  if (conv) attrs = op.attributes;
  const std::string y = b.op1(conv ? K::Conv : K::MatMul, in, attrs);
  b.op(K::QuantizeLinear, {y, op.inputs[6], op.inputs[7]}, {op.outputs[0]}, {}, op.name);
  return detail::finish(g, index, b);
}

std::size_t integer(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  const bool conv = op.kind == K::ConvInteger;
  if (op.inputs.size() < 2 || op.outputs.empty()) return 0;
  const auto zx = optional_constant(g, input_or_empty(op, 2));
  const auto zw = optional_constant(g, input_or_empty(op, 3));
  if (!zx || !zw || zx->size() != 1)
    return refuse(why, op.op_type + " whose zero points are not constants (one for the input)");
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !is_integer_storage(x->dtype)) return refuse(why, op.op_type + " on a non-integer input");
  const auto wf = dequantised_weights(g, op.inputs[1], *zw, {1.0}, conv ? 0 : 1, why);
  if (!wf) return 0;
  OpBuilder b(g, detail::base_of(op));
  const std::string xf = shifted_float(b, op.inputs[0], (*zx)[0]);
  const std::string wc = b.f32("weight", g.find_tensor(op.inputs[1])->shape.sizes(), *wf);
  std::map<std::string, ir::Attribute> attrs;
  if (conv) attrs = op.attributes;
  const std::string y = b.op1(conv ? K::Conv : K::MatMul, {xf, wc}, attrs);
  b.op(K::Cast, {y}, {op.outputs[0]}, {{"to", std::string("i32")}}, op.name);
  return detail::finish(g, index, b);
}

std::size_t dynamic_quantize(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.inputs.empty() || op.outputs.size() != 3) return 0;
  if (!detail::is_float(g, op.inputs[0])) return refuse(why, "DynamicQuantizeLinear on a non-float tensor");
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x->shape.rank_known) return refuse(why, "DynamicQuantizeLinear on a tensor of unknown rank");
  OpBuilder b(g, detail::base_of(op));
  std::vector<std::int64_t> axes(x->shape.rank());
  for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<std::int64_t>(i);
  const std::map<std::string, ir::Attribute> all = {{"axes", axes}, {"keepdims", std::int64_t{0}}};
  const std::string zero = b.f32_scalar("zero", 0.f);
  const std::string lo = b.op1(K::Min, {b.op1(K::ReduceMin, {op.inputs[0]}, all), zero});
  const std::string hi = b.op1(K::Max, {b.op1(K::ReduceMax, {op.inputs[0]}, all), zero});
  const std::string q0 = b.f32_scalar("q0", 0.f), q255 = b.f32_scalar("q255", 255.f);
  const std::string scale = b.op1(K::Div, {b.op1(K::Sub, {hi, lo}), b.f32_scalar("qmax", 255.f)});
  const std::string zp = b.op1(K::Clip, {b.op1(K::Round, {b.op1(K::Div, {b.op1(K::Neg, {lo}), scale})}), q0, q255});
  const std::string q =
      b.op1(K::Clip, {b.op1(K::Add, {b.op1(K::Round, {b.op1(K::Div, {op.inputs[0], scale})}), zp}), q0, q255});
  b.op(K::Cast, {q}, {op.outputs[0]}, {{"to", std::string("u8")}});
  b.op(K::Identity, {scale}, {op.outputs[1]});
  b.op(K::Cast, {zp}, {op.outputs[2]}, {{"to", std::string("u8")}});
  return detail::finish(g, index, b);
}

}  // namespace

std::size_t integer_ops(ir::Graph& g, std::size_t index, std::string* why) {
  switch (g.ops[index].kind) {
    case K::QLinearConv:
    case K::QLinearMatMul: return qlinear(g, index, why);
    case K::ConvInteger:
    case K::MatMulInteger: return integer(g, index, why);
    case K::DynamicQuantizeLinear: return dynamic_quantize(g, index, why);
    default: return 0;
  }
}

}  // namespace ec::passes::decompose
