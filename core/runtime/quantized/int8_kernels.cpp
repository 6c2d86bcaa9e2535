// The ONE table of int8 kernels, plus the helpers shared by the op families
// (quant param validation, constants, requantisation).
#include "core/runtime/quantized/int8_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/int8_common.h"

namespace ec::runtime::quantized {
namespace {

using K = ir::OpKind;

using P = Int8OutputParams;
constexpr bool kDataOnly = true;

constexpr Int8KernelEntry kTable[] = {
    {K::Conv, "per-channel int8 convolution (im2col + int8 GEMM, direct depthwise), TFLite ConvPerChannel",
     prepare_Conv, prepare_ConvHybrid, P::Observed, false},
    {K::ConvTranspose, "per-channel int8 transposed convolution (scatter into int32, group 1), TFLite TransposeConv",
     prepare_ConvTranspose, nullptr, P::Observed, false},
    {K::Gemm, "int8 Gemm (constant weight, transB 0/1), TFLite FullyConnected arithmetic", prepare_Gemm,
     prepare_GemmHybrid, P::Observed, false},
    {K::MatMul, "int8 MatMul (constant weight per column, or two per-tensor activations)", prepare_MatMul,
     prepare_MatMulHybrid, P::Observed, false},
    {K::FullyConnected, "int8 FullyConnected (weights [out, in], per-channel), TFLite FullyConnected",
     prepare_FullyConnected, prepare_FullyConnectedHybrid, P::Observed, false},
    {K::MaxPool, "int8 max pooling (params kept)", prepare_MaxPool, nullptr, P::SameAsInput, kDataOnly},
    {K::AveragePool, "int8 average pooling, TFLite rounding (half away from zero)", prepare_AveragePool, nullptr,
     P::Observed, kDataOnly},
    {K::GlobalAveragePool, "int8 global average pooling", prepare_GlobalAveragePool, nullptr, P::Observed, kDataOnly},
    {K::GlobalMaxPool, "int8 global max pooling", prepare_GlobalMaxPool, nullptr, P::SameAsInput, kDataOnly},
    {K::Relu, "int8 ReLU (requantise + clamp), TFLite ReluX", prepare_Relu, nullptr, P::SameAsInput, kDataOnly},
    {K::LeakyRelu, "int8 leaky ReLU via a 256-entry table (float transform)", prepare_LeakyRelu, nullptr,
     P::Observed, kDataOnly},
    {K::Sigmoid, "int8 logistic via a 256-entry table, output 1/256 zp -128", prepare_Sigmoid, nullptr, P::Fixed,
     kDataOnly},
    {K::HardSwish, "int8 hard swish via a 256-entry table (float transform)", prepare_HardSwish, nullptr,
     P::Observed, kDataOnly},
    {K::Tanh, "int8 tanh via a 256-entry table, output 1/128 zp 0", prepare_Tanh, nullptr, P::Fixed, kDataOnly},
    {K::BatchNormalization, "int8 inference BatchNormalization (NCHW) via a 256-entry table per channel",
     prepare_BatchNormalization, nullptr, P::Observed, kDataOnly},
    {K::LayerNormalization, "int8 LayerNormalization over the last axis (exact integer sums, float per element)",
     prepare_LayerNormalization, nullptr, P::Observed, kDataOnly},
    {K::HardSigmoid, "int8 hard sigmoid via a 256-entry table (float transform), output 1/256 zp -128",
     prepare_HardSigmoid, nullptr, P::Fixed, kDataOnly},
    {K::Gelu, "int8 GELU (exact or tanh) via a 256-entry table, TFLite's int8 GELU scheme", prepare_Gelu, nullptr,
     P::Observed, kDataOnly},
    {K::Erf, "int8 erf via a 256-entry table (float transform)", prepare_Erf, nullptr, P::Observed, kDataOnly},
    {K::Clip, "int8 Clip with constant bounds (requantise + clamp)", prepare_Clip, nullptr, P::SameAsInput,
     kDataOnly},
    {K::Softmax, "int8 softmax (exp table per row max), output 1/256 zp -128", prepare_Softmax, nullptr, P::Fixed,
     kDataOnly},
    {K::Add, "int8 Add, TFLite scheme (left shift 20, per-input multipliers), broadcasting", prepare_Add, nullptr,
     P::Observed, false},
    {K::Sub, "int8 Sub, TFLite scheme, broadcasting", prepare_Sub, nullptr, P::Observed, false},
    {K::Mul, "int8 Mul, TFLite MulElementwise, broadcasting", prepare_Mul, nullptr, P::Observed, false},
    {K::Max, "int8 Max of two inputs, each requantised to the output's params (TFLite MAXIMUM)", prepare_Max,
     nullptr, P::Observed, false},
    {K::Min, "int8 Min of two inputs, each requantised to the output's params (TFLite MINIMUM)", prepare_Min,
     nullptr, P::Observed, false},
    {K::Reshape, "params pass through (requantised if the output's differ)", prepare_PassThrough, nullptr,
     P::SameAsInput, kDataOnly},
    {K::Flatten, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Squeeze, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Unsqueeze, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Transpose, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Concat, "int8 Concat; inputs with other params requantised (TFLite ConcatenationWithScaling)",
     prepare_Concat, nullptr, P::Observed, false},
    {K::Pad, "int8 Pad (every mode; the constant value quantised to the output's params)", prepare_Pad, nullptr,
     P::SameAsInput, kDataOnly},
    {K::Identity, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Split, "params pass through to every part", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Slice, "params pass through", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Gather, "params pass through (int8 rows gathered)", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::ReduceMean, "int8 mean: dequantised, averaged in float, quantised (TFLite's MEAN)", prepare_Reduce, nullptr,
     P::Observed, kDataOnly},
    {K::ReduceMax, "int8 max over axes (the stored values; params kept)", prepare_Reduce, nullptr, P::SameAsInput, kDataOnly},
    {K::ReduceMin, "int8 min over axes (the stored values; params kept)", prepare_Reduce, nullptr, P::SameAsInput, kDataOnly},
    {K::DepthToSpace, "params pass through (int8 values moved; a super-resolution head's pixel shuffle)",
     prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::SpaceToDepth, "params pass through (int8 values moved)", prepare_PassThrough, nullptr, P::SameAsInput, kDataOnly},
    {K::Resize, "int8 Resize of the stored values, params kept (TFLite's RESIZE_BILINEAR / NEAREST_NEIGHBOR)",
     prepare_Resize, nullptr, P::SameAsInput, kDataOnly},
};

const Int8KernelEntry* find_entry(ir::OpKind kind) {
  for (const auto& e : kTable)
    if (e.kind == kind) return &e;
  return nullptr;
}

std::string op_label(const ir::Operation& op) {
  return "op '" + (op.name.empty() ? op.op_type : op.name) + "' (" + op.op_type + ")";
}

// Ops that read the stored integers as plain numbers whatever the params say.
bool reads_raw_integers(ir::OpKind k) {
  return k == K::QuantizeLinear || k == K::DequantizeLinear || k == K::DynamicQuantizeLinear || k == K::Shape ||
         k == K::Size || k == K::Cast || k == K::CastLike;
}

}  // namespace

std::span<const Int8KernelEntry> int8_kernel_table() { return kTable; }

const Int8KernelEntry* find_int8_kernel(ir::OpKind kind) { return find_entry(kind); }

ir::QuantParams fixed_output_params(ir::OpKind kind) {
  ir::QuantParams p;
  p.dtype = ir::DType::Int8;
  p.scales = {kind == K::Tanh ? 1.f / 128 : 1.f / 256};
  p.zero_points = {kind == K::Tanh ? 0 : -128};
  return p;
}

namespace {

// Some kernels check shapes only when they run (the pools' geometry, say), so a
// prepare that succeeds does not yet mean the kernel takes the op. When every input
// is a constant or a data tensor (8-bit quantised, or f32 for a hybrid op) of known
// shape, the op is run once on zeros: a refusal there is the kernel's too. A named
// dynamic dim (batch) is taken as 1; an unknown one, or inputs that carry values the
// op depends on (shapes, indices computed in the graph), skip the trial: such values
// are not made up. Throws the kernel's refusal.
constexpr std::int64_t kTrialElements = std::int64_t(1) << 24;

std::optional<std::vector<std::int64_t>> trial_sizes(const ir::Shape& shape) {
  if (!shape.rank_known) return std::nullopt;
  std::vector<std::int64_t> sizes;
  for (const auto& d : shape.dims) {
    if (!d.is_static() && (d.symbol.empty() || d.symbol.find('*') != std::string::npos)) return std::nullopt;
    sizes.push_back(d.is_static() ? d.value : 1);
  }
  return sizes;
}

void trial_run(const PreparedOp& prepared, const ir::Operation& op, const ir::Graph& graph) {
  std::vector<Tensor> in;
  std::int64_t elements = 0;
  for (const auto& name : op.inputs) {
    if (name.empty()) {
      in.emplace_back();
      continue;
    }
    const ir::Tensor* t = graph.find_tensor(name);
    if (!t) return;
    if (t->data) {
      if (!t->shape.is_static()) return;
      in.push_back(Tensor::from_constant(t->dtype, t->shape.sizes(), *t->data));
      continue;
    }
    const bool data = ((t->dtype == ir::DType::Int8 || t->dtype == ir::DType::UInt8) && t->quant) ||
                      t->dtype == ir::DType::Float32;
    const auto sizes = trial_sizes(t->shape);
    if (!data || !sizes) return;
    std::int64_t n = 1;
    for (auto v : *sizes) n = v > 0 && n > kTrialElements / v ? kTrialElements : n * v;
    elements += n;
    if (elements >= kTrialElements) return;
    Tensor z(t->dtype, *sizes);
    if (t->quant && !t->quant->zero_points.empty() && t->quant->zero_points[0] != 0) {  // the real value 0
      const auto zp = t->quant->zero_points[0];
      if (t->dtype == ir::DType::Int8) std::fill_n(z.mutable_data<std::int8_t>(), z.numel(), static_cast<std::int8_t>(zp));
      else std::fill_n(z.mutable_data<std::uint8_t>(), z.numel(), static_cast<std::uint8_t>(zp));
    }
    in.push_back(std::move(z));
  }
  (void)prepared.run(in);
}

}  // namespace

std::string int8_refusal(const ir::Operation& op, const ir::Graph& graph) {
  try {
    const auto prepared = prepare_quantized(op, graph);
    if (!prepared) return "it is neither an int8 nor a hybrid op";
    trial_run(*prepared, op, graph);
    return {};
  } catch (const UnsupportedOpError& e) {
    // The caller names the op: say only what the kernel does not take.
    return e.op_type() + " is not supported by " + e.backend() + (e.suggestion().empty() ? "" : " (" + e.suggestion() + ")");
  } catch (const EdgeCompilerError& e) {
    return e.what();
  }
}

bool has_int8_kernel(ir::OpKind kind) {
  const auto* e = find_entry(kind);
  return e && e->prepare;
}

bool has_hybrid_kernel(ir::OpKind kind) {
  const auto* e = find_entry(kind);
  return e && e->prepare_hybrid;
}

bool is_int8_op(const ir::Operation& op, const ir::Graph& graph) {
  if (op.inputs.empty() || op.inputs[0].empty() || reads_raw_integers(op.kind)) return false;
  const ir::Tensor* t = graph.find_tensor(op.inputs[0]);
  return t && (t->dtype == ir::DType::Int8 || t->dtype == ir::DType::UInt8) && t->quant.has_value();
}

bool is_hybrid_op(const ir::Operation& op, const ir::Graph& graph) {
  if (op.kind != K::Conv && op.kind != K::FullyConnected && op.kind != K::Gemm && op.kind != K::MatMul) return false;
  if (op.inputs.size() < 2) return false;
  const ir::Tensor* x = graph.find_tensor(op.inputs[0]);
  const ir::Tensor* w = graph.find_tensor(op.inputs[1]);
  return x && w && x->dtype == ir::DType::Float32 && w->dtype == ir::DType::Int8 && w->is_constant() &&
         w->quant.has_value();
}

std::unique_ptr<PreparedOp> prepare_quantized(const ir::Operation& op, const ir::Graph& graph) {
  const std::string name = op.name.empty() ? op.op_type : op.name;
  const std::string keep = "keep it in float: --keep-float " + name;
  if (is_int8_op(op, graph)) {
    if (auto p = prepare_fast_nhwc(op, graph)) return p;
    if (auto p = prepare_tflite_reference(op, graph)) return p;
    const auto* e = find_entry(op.kind);
    if (!e || !e->prepare)
      throw UnsupportedOpError(op.op_type, "the CPU runtime's int8 kernels", keep, op_label(op));
    if (graph.find_tensor(op.inputs[0])->dtype == ir::DType::UInt8)
      throw UnsupportedOpError(op.op_type + " on u8 activations", "the CPU runtime's int8 kernels",
                               "quantise activations to i8 (TFLite's int8 scheme) or " + keep, op_label(op));
    return e->prepare(op, graph);
  }
  if (is_hybrid_op(op, graph)) {
    const auto* e = find_entry(op.kind);
    if (!e || !e->prepare_hybrid)
      throw UnsupportedOpError(op.op_type + " (hybrid)", "the CPU runtime's int8 kernels", keep, op_label(op));
    return e->prepare_hybrid(op, graph);
  }
  return nullptr;
}

// ---------------------------------------------------------------- helpers

void fail(const std::string& message) { throw EdgeCompilerError(ErrorKind::Graph, message); }

const ir::Tensor& ir_tensor(const ir::Graph& graph, const std::string& name) {
  const ir::Tensor* t = graph.find_tensor(name);
  if (!t) throw GraphError("tensor '" + name + "' is not declared in the graph");
  return *t;
}

std::int32_t qmin_of(ir::DType t) {
  switch (t) {
    case ir::DType::Int8: return -128;
    case ir::DType::UInt8: return 0;
    case ir::DType::Int16: return -32768;
    default: return std::numeric_limits<std::int32_t>::min();
  }
}
std::int32_t qmax_of(ir::DType t) {
  switch (t) {
    case ir::DType::Int8: return 127;
    case ir::DType::UInt8: return 255;
    case ir::DType::Int16: return 32767;
    default: return std::numeric_limits<std::int32_t>::max();
  }
}

QParams activation_quant_of(const ir::Tensor& t) {
  QParams q = quant_of(t);
  if (q.per_channel()) throw QuantizationError(t.name, "activations must be quantised per tensor");
  return q;
}

QParams quant_of(const ir::Tensor& t, std::initializer_list<ir::DType> allowed) {
  auto bad = [&](const std::string& why) -> QuantizationError { return QuantizationError(t.name, why); };
  if (!t.quant) throw bad("no quantisation params (" + std::string(ir::dtype_name(t.dtype)) + " tensor read by an int8 kernel)");
  if (std::find(allowed.begin(), allowed.end(), t.dtype) == allowed.end()) {
    std::string want;
    for (auto d : allowed) want += (want.empty() ? "" : " or ") + std::string(ir::dtype_name(d));
    throw bad("is " + std::string(ir::dtype_name(t.dtype)) + ", the int8 kernels expect " + want);
  }
  const ir::QuantParams& q = *t.quant;
  QParams p;
  p.dtype = t.dtype;
  p.axis = q.axis;
  if (q.scales.empty()) throw bad("quantisation params have no scale");
  if (!q.zero_points.empty() && q.zero_points.size() != q.scales.size() && q.zero_points.size() != 1)
    throw bad(std::to_string(q.scales.size()) + " scales but " + std::to_string(q.zero_points.size()) +
              " zero points");
  for (float s : q.scales)
    if (!(s > 0.f) || !std::isfinite(s)) throw bad("scale " + std::to_string(s) + " is not positive and finite");
  p.scales = q.scales;
  const std::int64_t lo = qmin_of(t.dtype), hi = qmax_of(t.dtype);
  for (std::size_t i = 0; i < q.scales.size(); ++i) {
    const std::int64_t z = q.zero_points.empty() ? 0 : q.zero_points[q.zero_points.size() == 1 ? 0 : i];
    if (z < lo || z > hi)
      throw bad("zero point " + std::to_string(z) + " is outside the " + std::string(ir::dtype_name(t.dtype)) +
                " range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    p.zero_points.push_back(static_cast<std::int32_t>(z));
  }
  if (p.scales.size() > 1 && p.axis < 0) throw bad(std::to_string(p.scales.size()) + " scales but no channel axis");
  return p;
}

QParams quant_of(const ir::Graph& graph, const std::string& name, std::initializer_list<ir::DType> allowed) {
  return quant_of(ir_tensor(graph, name), allowed);
}

void check_channels(const ir::Tensor& t, const QParams& q, int axis, std::int64_t channels) {
  if (!q.per_channel()) return;
  if (q.axis != axis)
    throw QuantizationError(t.name, "per-channel params along axis " + std::to_string(q.axis) + ", expected axis " +
                                        std::to_string(axis));
  if (q.channels() != channels)
    throw QuantizationError(t.name, std::to_string(q.channels()) + " per-channel scales for " +
                                        std::to_string(channels) + " channels");
}

void check_weight_params(const ir::Tensor& w, const QParams& q, int axis, std::int64_t channels) {
  check_channels(w, q, axis, channels);
  for (auto z : q.zero_points)
    if (z != 0) throw QuantizationError(w.name, "int8 weights must be symmetric (zero point 0), got " + std::to_string(z));
}

std::vector<std::int32_t> weighted_op_bias(const ir::Operation& op, const ir::Graph& graph, std::int64_t channels) {
  std::vector<std::int32_t> bias(static_cast<std::size_t>(channels), 0);
  if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
    const Tensor B = constant_of(graph, op, op.inputs[2], ir::DType::Int32, "bias");
    if (B.numel() != channels)
      throw QuantizationError(op.inputs[2], "bias has " + std::to_string(B.numel()) + " values for " +
                                                std::to_string(channels) + " output channels");
    std::copy(B.data<std::int32_t>(), B.data<std::int32_t>() + channels, bias.begin());
  }
  return bias;
}

Tensor constant_of(const ir::Graph& graph, const ir::Operation& op, const std::string& name, ir::DType dtype,
                   const char* role) {
  const ir::Tensor& t = ir_tensor(graph, name);
  if (!t.is_constant())
    throw UnsupportedOpError(op.op_type + " with a non-constant " + role, "the CPU runtime's int8 kernels",
                             "keep it in float: --keep-float " + (op.name.empty() ? op.op_type : op.name),
                             op_label(op));
  if (t.dtype != dtype)
    throw QuantizationError(name, std::string(role) + " is " + std::string(ir::dtype_name(t.dtype)) + ", expected " +
                                      std::string(ir::dtype_name(dtype)));
  if (!t.shape.is_static()) throw GraphError("constant '" + name + "' has a dynamic shape");
  return Tensor::from_constant(t.dtype, t.shape.sizes(), *t.data);
}

void output_activation_range(const ir::Operation& op, const QParams& q, std::int32_t& act_min, std::int32_t& act_max) {
  const ir::Activation act = ir::fused_activation(op);
  if (!activation_range(act, q.scale(), q.zero_point(), qmin_of(q.dtype), qmax_of(q.dtype), act_min, act_max))
    throw UnsupportedOpError(op.op_type + " with fused_activation " + std::string(ir::activation_name(act)),
                             "the CPU runtime's int8 kernels",
                             "apply it as a separate op", op_label(op));
}

void require_nchw(const ir::Operation& op) {
  if (op.attr_string("layout", "NCHW") != "NCHW")
    throw UnsupportedOpError(op.op_type + " with layout " + op.attr_string("layout", ""),
                             "the CPU runtime's int8 kernels", "run the layout pass back to NCHW", op_label(op));
}

Requantizer::Requantizer(const QParams& in, const QParams& out, std::int32_t act_lo, std::int32_t act_hi)
    : in_zp(in.zero_point()), out_zp(out.zero_point()), lo(act_lo), hi(act_hi) {
  identity = in.scale() == out.scale() && in.zero_point() == out.zero_point();
  m = quantize_multiplier(double(in.scale()) / double(out.scale()));
}

void Requantizer::apply(const std::int8_t* x, std::int8_t* y, std::int64_t n) const {
  // A table: 256 inputs, computed once per call (cheaper than n multiplies, or clamps,
  // for large n: lut_apply looks 64 up per step where the CPU has VBMI).
  if (n >= 512) {
    std::int8_t t[256];
    for (int q = -128; q < 128; ++q) t[q + 128] = (*this)(static_cast<std::int8_t>(q));
    lut_apply(t, x, n, y);
    return;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = (*this)(x[i]);
}

}  // namespace ec::runtime::quantized
