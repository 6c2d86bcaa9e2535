// Quantised TorchScript: models that still hold FakeQuantize modules (prepare_qat,
// in eval) and models converted with torch.ao.quantization.convert (quantized::
// ops on packed parameters). Both become the QDQ form the ONNX frontend reads:
// a quantised tensor is its float value between QuantizeLinear and
// DequantizeLinear carrying the model's own scale and zero point (per channel on
// weights), so `quantize --strategy qat` takes them without calibration.
#include <ATen/core/dispatch/Dispatcher.h>

#include "core/frontends/torchscript/plugin/importer.h"

namespace ec::frontends::torchscript {
namespace {

using Names = std::vector<std::string>;

/// x -> QuantizeLinear -> DequantizeLinear with `scale`/`zero_point` (scalars, or
/// per channel along `axis`); `result` is the float value it stands for.
std::string qdq(Importer& im, const std::string& x, const at::Tensor& scale, const at::Tensor& zero_point,
                bool uint8, std::int64_t axis, const at::Tensor& result) {
  const bool per_channel = scale.numel() > 1;
  const std::vector<std::int64_t> shape = per_channel ? std::vector<std::int64_t>{scale.numel()} : std::vector<std::int64_t>{};
  const at::Tensor s = scale.to(at::kFloat).reshape(shape).contiguous();
  const at::Tensor z = zero_point.to(at::kLong).to(uint8 ? at::kByte : at::kChar).reshape(shape).contiguous();
  std::map<std::string, ir::Attribute> attrs;
  if (per_channel) attrs["axis"] = axis;
  const std::string sc = im.constant(s, "scale"), zp = im.constant(z, "zero_point");
  const at::Tensor f = result.is_quantized() ? result.dequantize() : result;
  const std::string q = im.emit("QuantizeLinear", {x, sc, zp}, attrs, {at::empty(f.sizes(), uint8 ? at::kByte : at::kChar)},
                                "_quant")[0];
  return im.emit("DequantizeLinear", {q, sc, zp}, attrs, {f}, "_dequant")[0];
}

at::Tensor scalar(double v) { return at::scalar_tensor(v, at::kFloat); }
at::Tensor scalar_i(std::int64_t v) { return at::scalar_tensor(v, at::kLong); }

/// A quantised weight as a float constant between Q and DQ with its own parameters.
std::string weight_qdq(Importer& im, const at::Tensor& w) {
  const at::Tensor f = w.dequantize().contiguous();
  const std::string c = im.constant(f, "weight");
  const bool u8 = w.scalar_type() == at::kQUInt8;
  if (w.qscheme() == at::kPerChannelAffine || w.qscheme() == at::kPerChannelSymmetric)
    return qdq(im, c, w.q_per_channel_scales(), w.q_per_channel_zero_points(), u8, w.q_per_channel_axis(), f);
  return qdq(im, c, scalar(w.q_scale()), scalar_i(w.q_zero_point()), u8, 0, f);
}

/// Calls a registered operator by name on `args` (the packed-parameter accessors).
torch::jit::Stack call(Importer& im, const char* name, torch::jit::Stack args) {
  const auto op = c10::Dispatcher::singleton().findSchema({name, ""});
  if (!op) im.refuse(std::string("this libtorch has no ") + name + " to read the packed parameters");
  op->callBoxed(&args);
  return args;
}

// The input of a fake-quant op as an IR tensor: the data-dependent one, or a constant (a weight).
std::string fq_input(Importer& im, const Args& a) {
  return a.slot(0).data ? a.slot(0).ir : im.constant(a.actual(0), "weight");
}

// aten::fused_moving_avg_obs_fake_quant(self, observer_on, fake_quant_on, running_min, running_max,
// scale, zero_point, averaging_const, quant_min, quant_max, ch_axis, per_row_fake_quant, symmetric_quant)
Names fused_fake_quant(Importer& im, const Args& a) {
  const at::Tensor x = a.actual(0);
  const at::Tensor scale = a.actual(5).clone(), zp = a.actual(6).clone();  // read before anything updates them
  const std::int64_t qmin = a.i64(8), qmax = a.i64(9), axis = a.i64(10);
  const bool enabled = a.actual(2).item<std::int64_t>() != 0;
  if (!enabled) {
    im.set_results({x});
    return {fq_input(im, a)};
  }
  const bool per_channel = a.flag(11) || scale.numel() > 1;
  at::Tensor r = per_channel
                     ? at::fake_quantize_per_channel_affine(x, scale, zp.to(at::kInt), axis, qmin, qmax)
                     : at::fake_quantize_per_tensor_affine(x, scale.item<double>(), zp.item<std::int64_t>(), qmin, qmax);
  im.set_results({r});
  return {qdq(im, fq_input(im, a), scale, zp, qmin >= 0, axis, r)};
}

// aten::fake_quantize_per_tensor_affine(self, scale, zero_point, quant_min, quant_max)
Names fake_quant_tensor(Importer& im, const Args& a) {
  const at::Tensor x = a.actual(0);
  const c10::IValue& s = a.known(1);
  const c10::IValue& z = a.known(2);
  const double scale = s.isTensor() ? s.toTensor().item<double>() : s.toDouble();
  const std::int64_t zp = z.isTensor() ? z.toTensor().item<std::int64_t>() : z.toInt();
  const std::int64_t qmin = a.i64(3), qmax = a.i64(4);
  const at::Tensor r = at::fake_quantize_per_tensor_affine(x, scale, zp, qmin, qmax);
  im.set_results({r});
  return {qdq(im, fq_input(im, a), scalar(scale), scalar_i(zp), qmin >= 0, 0, r)};
}

// aten::fake_quantize_per_channel_affine(self, scale, zero_point, axis, quant_min, quant_max)
Names fake_quant_channel(Importer& im, const Args& a) {
  const at::Tensor x = a.actual(0), scale = a.actual(1), zp = a.actual(2);
  const std::int64_t axis = a.i64(3), qmin = a.i64(4), qmax = a.i64(5);
  const at::Tensor r = at::fake_quantize_per_channel_affine(x, scale, zp.to(at::kInt), axis, qmin, qmax);
  im.set_results({r});
  return {qdq(im, fq_input(im, a), scale, zp, qmin >= 0, axis, r)};
}

// The output parameters of a quantized:: op: (..., scale, zero_point) as its last two arguments.
std::string requantize(Importer& im, const Args& a, const std::string& y) {
  const std::size_t n = a.size();
  const at::Tensor r = im.result();
  return qdq(im, y, scalar(a.f64(n - 2)), scalar_i(a.i64(n - 1)), r.scalar_type() == at::kQUInt8, 0, r);
}

Names qconv(Importer& im, const Args& a, bool relu) {
  const c10::IValue packed = a.known(1);
  const auto unpacked = call(im, "quantized::conv2d_unpack", {packed});
  const at::Tensor w = unpacked.at(0).toTensor();
  const auto ints = [&](const char* op) { return call(im, op, {packed}).at(0).toIntVector(); };
  const auto stride = ints("quantized::conv2d_stride"), pad = ints("quantized::conv2d_padding"),
             dil = ints("quantized::conv2d_dilation");
  const std::int64_t groups = call(im, "quantized::conv2d_groups", {packed}).at(0).toInt();
  if (call(im, "quantized::conv2d_transpose", {packed}).at(0).toInt())
    im.refuse("a quantised transposed convolution is not supported");
  std::vector<std::int64_t> pads = pad;
  pads.insert(pads.end(), pad.begin(), pad.end());
  std::vector<std::int64_t> kernel(w.sizes().begin() + 2, w.sizes().end());
  Names in{a.tensor(0), weight_qdq(im, w)};
  if (!unpacked.at(1).isNone()) in.push_back(im.constant(unpacked.at(1).toTensor(), "bias"));
  const at::Tensor f = im.result().dequantize();
  std::string y = im.emit("Conv", in,
                          {{"kernel_shape", kernel}, {"strides", stride}, {"pads", pads}, {"dilations", dil}, {"group", groups}},
                          {f})[0];
  if (relu) y = im.emit("Relu", {y}, {}, {f})[0];
  return {requantize(im, a, y)};
}

Names qlinear(Importer& im, const Args& a, bool relu) {
  const auto unpacked = call(im, "quantized::linear_unpack", {a.known(1)});
  const at::Tensor w = unpacked.at(0).toTensor();
  const at::Tensor f = im.result().dequantize();
  std::string y;
  const bool has_bias = !unpacked.at(1).isNone();
  if (a.actual(0).dim() == 2) {
    Names in{a.tensor(0), weight_qdq(im, w)};
    if (has_bias) in.push_back(im.constant(unpacked.at(1).toTensor(), "bias"));
    y = im.emit("Gemm", in, {{"transB", std::int64_t{1}}}, {f})[0];
  } else {
    // The weight transposed for MatMul: its channel axis moves to 1.
    const at::Tensor ints = w.int_repr().t().contiguous();
    const at::Tensor wt = w.qscheme() == at::kPerTensorAffine
                              ? at::_make_per_tensor_quantized_tensor(ints, w.q_scale(), w.q_zero_point())
                              : at::_make_per_channel_quantized_tensor(ints, w.q_per_channel_scales(),
                                                                       w.q_per_channel_zero_points(), 1);
    y = im.emit("MatMul", {a.tensor(0), weight_qdq(im, wt)}, {}, {f})[0];
    if (has_bias) y = im.emit("Add", {y, im.constant(unpacked.at(1).toTensor(), "bias")}, {}, {f})[0];
  }
  if (relu) y = im.emit("Relu", {y}, {}, {f})[0];
  return {requantize(im, a, y)};
}

Names qbinary(Importer& im, const Args& a, const std::string& op, bool relu) {
  const at::Tensor f = im.result().dequantize();
  std::string y = im.emit(op, {a.tensor(0), a.tensor(1)}, {}, {f})[0];
  if (relu) y = im.emit("Relu", {y}, {}, {f})[0];
  return {requantize(im, a, y)};
}

}  // namespace

std::string requantize_like(Importer& im, const std::string& name, const at::Tensor& r) {
  if (r.qscheme() != at::kPerTensorAffine) im.refuse("a per-channel quantised activation is not supported");
  return qdq(im, name, scalar(r.q_scale()), scalar_i(r.q_zero_point()), r.scalar_type() == at::kQUInt8, 0, r);
}

const std::unordered_map<std::string, Handler>& self_evaluating_table() {
  static const std::unordered_map<std::string, Handler> table{
      {"aten::fused_moving_avg_obs_fake_quant", fused_fake_quant},
      {"aten::fake_quantize_per_tensor_affine", fake_quant_tensor},
      {"aten::fake_quantize_per_channel_affine", fake_quant_channel},
  };
  return table;
}

void add_quantized_rows(std::unordered_map<std::string, Handler>& t) {
  t["aten::quantize_per_tensor"] = [](Importer& im, const Args& a) {
    const c10::IValue& s = a.known(1);
    const c10::IValue& z = a.known(2);
    const at::Tensor sc = s.isTensor() ? s.toTensor() : scalar(s.toDouble());
    const at::Tensor zp = z.isTensor() ? z.toTensor() : scalar_i(z.toInt());
    return Names{qdq(im, a.tensor(0), sc, zp, im.result().scalar_type() == at::kQUInt8, 0, im.result())};
  };
  t["quantized::conv2d"] = [](Importer& im, const Args& a) { return qconv(im, a, false); };
  t["quantized::conv2d_relu"] = [](Importer& im, const Args& a) { return qconv(im, a, true); };
  t["quantized::linear"] = [](Importer& im, const Args& a) { return qlinear(im, a, false); };
  t["quantized::linear_relu"] = [](Importer& im, const Args& a) { return qlinear(im, a, true); };
  t["quantized::add"] = [](Importer& im, const Args& a) { return qbinary(im, a, "Add", false); };
  t["quantized::add_relu"] = [](Importer& im, const Args& a) { return qbinary(im, a, "Add", true); };
  t["quantized::mul"] = [](Importer& im, const Args& a) { return qbinary(im, a, "Mul", false); };
  t["quantized::cat"] = [](Importer& im, const Args& a) {
    const Slot& list = a.slot(0);
    Names parts;
    for (const auto& item : list.items) parts.push_back(item.ir);
    if (parts.empty()) im.refuse("quantized::cat of known tensors is not supported");
    const at::Tensor f = im.result().dequantize();
    const std::string y = im.emit("Concat", parts, {{"axis", a.i64(1) < 0 ? a.i64(1) + f.dim() : a.i64(1)}}, {f})[0];
    return Names{requantize(im, a, y)};
  };
}

}  // namespace ec::frontends::torchscript
