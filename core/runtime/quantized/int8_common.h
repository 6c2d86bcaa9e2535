// Helpers shared by the int8 kernels (internal to core/runtime/quantized):
// reading and validating quant params, constants, lookup tables, requantising.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/ir/graph.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::quantized {

/// Quant params of one tensor, validated: scales > 0 and finite, zero points
/// inside the storage type's range, one scale/zero point per channel.
struct QParams {
  ir::DType dtype = ir::DType::Int8;
  std::vector<float> scales;
  std::vector<std::int32_t> zero_points;
  int axis = -1;  // per-channel axis, -1 per tensor

  bool per_channel() const { return scales.size() > 1; }
  float scale(std::int64_t c = 0) const { return scales[scales.size() == 1 ? 0 : static_cast<std::size_t>(c)]; }
  std::int32_t zero_point(std::int64_t c = 0) const {
    return zero_points[zero_points.size() == 1 ? 0 : static_cast<std::size_t>(c)];
  }
  std::int64_t channels() const { return static_cast<std::int64_t>(scales.size()); }
  bool same_as(const QParams& o) const {
    return dtype == o.dtype && scales == o.scales && zero_points == o.zero_points;
  }
};

/// The IR tensor `name` of `graph` (throws GraphError when missing).
const ir::Tensor& ir_tensor(const ir::Graph& graph, const std::string& name);

/// The validated params of `t`; throws QuantizationError(t.name, reason) when
/// absent or invalid. `allowed` lists the storage types accepted.
QParams quant_of(const ir::Tensor& t, std::initializer_list<ir::DType> allowed = {ir::DType::Int8});
/// Same, by name in `graph`.
QParams quant_of(const ir::Graph& graph, const std::string& name,
                 std::initializer_list<ir::DType> allowed = {ir::DType::Int8});
/// quant_of(t) for an activation: int8 and per tensor (throws QuantizationError naming
/// `t` when it is per channel).
QParams activation_quant_of(const ir::Tensor& t);

/// Checks that a per-channel `q` has `channels` values along `axis` of `t`
/// (per-tensor params always fit); throws QuantizationError otherwise.
void check_channels(const ir::Tensor& t, const QParams& q, int axis, std::int64_t channels);

/// check_channels for an int8 weight, which must also be symmetric (zero points 0).
void check_weight_params(const ir::Tensor& w, const QParams& q, int axis, std::int64_t channels);
/// The int32 bias (input 2) of a Conv / ConvTranspose, or zeros when it has none; throws
/// QuantizationError when its length is not `channels`.
std::vector<std::int32_t> weighted_op_bias(const ir::Operation& op, const ir::Graph& graph, std::int64_t channels);
/// A constant input as a runtime tensor (aliasing its bytes); throws
/// UnsupportedOpError when `name` is not a constant of dtype `dtype`.
Tensor constant_of(const ir::Graph& graph, const ir::Operation& op, const std::string& name, ir::DType dtype,
                   const char* role);

/// Storage range of an integer dtype: [-128, 127] for i8, [0, 255] for u8.
std::int32_t qmin_of(ir::DType t);
std::int32_t qmax_of(ir::DType t);

/// [act_min, act_max] of an op's `fused_activation` on an output with `q`;
/// throws UnsupportedOpError for activations that are not clamps.
void output_activation_range(const ir::Operation& op, const QParams& q, std::int32_t& act_min, std::int32_t& act_max);

/// Refuses a non-NCHW layout.
void require_nchw(const ir::Operation& op);

/// A 256-entry table over int8 inputs: out[q + 128].
using Lut = std::array<std::int8_t, 256>;

/// Fills a table by dequantising every input value, applying `f` in float and
/// quantising to the output (TFLite's PopulateLookupTable: round half away from
/// zero, saturate).
template <typename F>
Lut make_lut(const QParams& in, const QParams& out, F&& f) {
  Lut t{};
  for (int q = -128; q <= 127; ++q) {
    const float x = in.scale() * float(q - in.zero_point());
    const float y = f(x);
    t[static_cast<std::size_t>(q + 128)] =
        static_cast<std::int8_t>(quantize_value(y, out.scale(), out.zero_point(), -128, 127));
  }
  return t;
}

/// Requantisation between two per-tensor params with TFLite's QUANTIZE (int8 ->
/// int8) arithmetic: out = MBQM(x - zp_in, s_in / s_out) + zp_out, clamped.
struct Requantizer {
  QuantizedMultiplier m;
  std::int32_t in_zp = 0, out_zp = 0, lo = -128, hi = 127;
  bool identity = true;
  Requantizer() = default;
  Requantizer(const QParams& in, const QParams& out, std::int32_t act_lo = -128, std::int32_t act_hi = 127);
  std::int8_t operator()(std::int8_t x) const {
    if (identity) return static_cast<std::int8_t>(std::clamp<std::int32_t>(x, lo, hi));
    return static_cast<std::int8_t>(
        std::clamp(multiply_by_quantized_multiplier(std::int32_t(x) - in_zp, m) + out_zp, lo, hi));
  }
  void apply(const std::int8_t* x, std::int8_t* y, std::int64_t n) const;
};

/// A PreparedOp calling a plain function object.
template <typename F>
class LambdaOp final : public PreparedOp {
 public:
  explicit LambdaOp(F f) : f_(std::move(f)) {}
  std::vector<Tensor> run(std::span<const Tensor> inputs) const override { return f_(inputs); }

 private:
  F f_;
};
template <typename F>
std::unique_ptr<PreparedOp> make_op(F f) {
  return std::make_unique<LambdaOp<F>>(std::move(f));
}

/// Fails with an EdgeCompilerError(Graph) (bad shapes at run time).
[[noreturn]] void fail(const std::string& message);

// Prepare functions of every family, listed in the table (int8_kernels.cpp).
#define EC_INT8(Op) std::unique_ptr<PreparedOp> prepare_##Op(const ir::Operation& op, const ir::Graph& graph);
// int8_conv.cpp
EC_INT8(Conv) EC_INT8(ConvHybrid)
// int8_conv_transpose.cpp
EC_INT8(ConvTranspose)
// int8_linear.cpp
EC_INT8(FullyConnected) EC_INT8(Gemm) EC_INT8(MatMul)
EC_INT8(FullyConnectedHybrid) EC_INT8(GemmHybrid) EC_INT8(MatMulHybrid)
// int8_elementwise.cpp
EC_INT8(Add) EC_INT8(Sub) EC_INT8(Mul)
EC_INT8(Max) EC_INT8(Min)
// int8_activations.cpp (leaky ReLU, beside the others below)
EC_INT8(LeakyRelu)
// int8_pooling.cpp
EC_INT8(MaxPool) EC_INT8(AveragePool) EC_INT8(GlobalAveragePool) EC_INT8(GlobalMaxPool)
// int8_data_movement.cpp
EC_INT8(Concat) EC_INT8(PassThrough) EC_INT8(Pad)
// int8_activations.cpp
EC_INT8(Relu) EC_INT8(Clip) EC_INT8(Sigmoid) EC_INT8(Tanh) EC_INT8(HardSwish) EC_INT8(HardSigmoid) EC_INT8(Softmax)
EC_INT8(BatchNormalization) EC_INT8(Gelu) EC_INT8(Erf)
// int8_normalization.cpp
EC_INT8(LayerNormalization)
// int8_tflite_reference.cpp (TFLite resizes the stored values: params kept;
// reductions dequantise, reduce in float, quantise)
EC_INT8(Resize) EC_INT8(Reduce)
#undef EC_INT8

/// EC_INT8_REQUANT=fp32: XNNPACK's float requantisation instead of TFLite's reference
/// fixed-point one (int8_tflite_reference.cpp).
bool fp32_requantization();

/// The fast channels-last int8 kernels (int8_conv.cpp: Conv with symmetric int8
/// weights on oneDNN's VNNI convolutions, our requantisation); null when the op is not
/// one of them (the TFLite reference kernels or the int8 table's take it).
std::unique_ptr<PreparedOp> prepare_fast_nhwc(const ir::Operation& op, const ir::Graph& graph);

/// TFLite's reference integer kernels for NHWC ops and u8 activations
/// (int8_tflite_reference.cpp); null when the op is neither (the int8 table's
/// kernels take it).
std::unique_ptr<PreparedOp> prepare_tflite_reference(const ir::Operation& op, const ir::Graph& graph);

}  // namespace ec::runtime::quantized
