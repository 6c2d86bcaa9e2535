// TensorFlow Lite's reference integer arithmetic (the int8 scheme of
// docs/QUANTISATION.md), written from its specification. Every function names
// the TFLite / gemmlowp function it mirrors; the int8 kernels compose these so
// that a simulated int8 result is, bit for bit, what TFLite's reference kernels
// compute.
//
// Real numbers are represented as  real = scale * (q - zero_point);  a real
// multiplier M > 0 is represented as  M = m * 2^shift  with m a Q31 value in
// [0.5, 1) (an int32 in [2^30, 2^31)).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "core/ir/activation.h"

namespace ec::runtime::quantized {

/// A real multiplier as a Q31 mantissa and a power-of-two exponent:
/// real ~= multiplier * 2^(shift - 31). shift > 0 is a left shift.
struct QuantizedMultiplier {
  std::int32_t multiplier = 0;
  int shift = 0;
};

/// Mirrors tflite::QuantizeMultiplier (quantization_util.cc): frexp splits m
/// into q * 2^shift with q in [0.5, 1); q is rounded to Q31 half away from
/// zero (TfLiteRound = std::round). When rounding gives exactly 2^31 the
/// mantissa is halved and the exponent incremented; a shift below -31 is
/// flushed to zero (the multiplier is negligible).
inline QuantizedMultiplier quantize_multiplier(double m) {
  QuantizedMultiplier r;
  if (m == 0.0) return r;
  int shift = 0;
  const double q = std::frexp(m, &shift);
  auto q_fixed = static_cast<std::int64_t>(std::round(q * double(1LL << 31)));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    q_fixed = 0;
  }
  r.multiplier = static_cast<std::int32_t>(q_fixed);
  r.shift = shift;
  return r;
}

/// Mirrors gemmlowp::SaturatingRoundingDoublingHighMul: the high 32 bits of
/// 2*a*b, rounded to nearest (a nudge of +2^30, or 1 - 2^30 for negative
/// products, then truncating division by 2^31); the one overflowing case
/// (INT32_MIN * INT32_MIN) saturates to INT32_MAX.
inline std::int32_t saturating_rounding_doubling_high_mul(std::int32_t a, std::int32_t b) {
  if (a == b && a == std::numeric_limits<std::int32_t>::min()) return std::numeric_limits<std::int32_t>::max();
  const std::int64_t ab = std::int64_t(a) * std::int64_t(b);
  const std::int64_t nudge = ab >= 0 ? (1LL << 30) : (1 - (1LL << 30));
  return static_cast<std::int32_t>((ab + nudge) / (1LL << 31));  // C++ division truncates toward zero
}

/// Mirrors gemmlowp::RoundingDivideByPOT: x / 2^exponent rounded to nearest,
/// ties away from zero (exponent in [0, 31]).
inline std::int32_t rounding_divide_by_pot(std::int32_t x, int exponent) {
  const std::int32_t mask = static_cast<std::int32_t>((1LL << exponent) - 1);
  const std::int32_t remainder = x & mask;
  const std::int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> exponent) + (remainder > threshold ? 1 : 0);  // >> of a negative int is arithmetic (C++20)
}

/// x * 2^s in int32 with two's complement wrap-around (TFLite multiplies
/// without an overflow check; wrapping keeps that defined here).
inline std::int32_t wrapping_shift_left(std::int32_t x, int s) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(x) << s);
}

/// Mirrors tflite::MultiplyByQuantizedMultiplier (common.h, the reference
/// form, not the "double rounding" variant):
///   RoundingDivideByPOT(SRDHM(x * 2^left_shift, m), right_shift)
/// with left_shift = max(shift, 0), right_shift = max(-shift, 0).
inline std::int32_t multiply_by_quantized_multiplier(std::int32_t x, std::int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(wrapping_shift_left(x, left), multiplier), right);
}
inline std::int32_t multiply_by_quantized_multiplier(std::int32_t x, QuantizedMultiplier m) {
  return multiply_by_quantized_multiplier(x, m.multiplier, m.shift);
}

/// Mirrors tflite::MultiplyByQuantizedMultiplierSmallerThanOneExp (used by
/// Add/Sub): RoundingDivideByPOT(SRDHM(x, m), -shift), shift <= 0.
inline std::int32_t multiply_by_quantized_multiplier_smaller_than_one(std::int32_t x, QuantizedMultiplier m) {
  return rounding_divide_by_pot(saturating_rounding_doubling_high_mul(x, m.multiplier), -m.shift);
}

/// Mirrors TfLiteRound / tflite::SafeCast: round half away from zero.
inline std::int32_t round_away(double v) { return static_cast<std::int32_t>(std::round(v)); }

/// [act_min, act_max] of an int8/uint8 output: mirrors
/// tflite::CalculateActivationRangeQuantized. `act` is the op's fused activation:
/// NONE, RELU, RELU6 (0..6), RELU_N1_TO_1 (-1..1); a finite bound is quantised as
/// zero_point + TfLiteRound(f / scale) (in float, as TFLite does) and intersected
/// with the storage range [qmin, qmax]. Returns false for an activation that is not
/// a clamp (SIGMOID, TANH, ...).
inline bool activation_range(ir::Activation act, float scale, std::int32_t zero_point, std::int32_t qmin,
                             std::int32_t qmax, std::int32_t& act_min, std::int32_t& act_max) {
  auto quantize = [&](float f) { return zero_point + static_cast<std::int32_t>(std::round(f / scale)); };
  act_min = qmin;
  act_max = qmax;
  const ir::ActivationInfo& a = ir::activation_info(act);
  if (!a.clamp) return false;
  if (std::isfinite(a.lo)) act_min = std::max(qmin, quantize(a.lo));
  if (std::isfinite(a.hi)) act_max = std::min(qmax, quantize(a.hi));
  return true;
}

/// The Add/Sub scheme of TFLite's int8 kernels (add.cc, PrepareGeneralSubOp /
/// reference_integer_ops::AddElementwise): both inputs are shifted left by 20
/// bits, scaled to a common scale 2 * max(s1, s2) by per-input multipliers
/// smaller than one, summed, and the sum rescaled to the output.
struct AddParams {
  static constexpr int kLeftShift = 20;  // int8 (16-bit inputs use 15)
  std::int32_t input1_offset = 0, input2_offset = 0, output_offset = 0;  // -zp1, -zp2, zp_out
  QuantizedMultiplier input1, input2, output;
  std::int32_t act_min = -128, act_max = 127;
};

/// Mirrors the int8 Prepare of TFLite's ADD/SUB.
inline AddParams make_add_params(float s1, std::int32_t zp1, float s2, std::int32_t zp2, float s_out,
                                 std::int32_t zp_out) {
  AddParams p;
  p.input1_offset = -zp1;
  p.input2_offset = -zp2;
  p.output_offset = zp_out;
  const double twice_max = 2.0 * std::max(double(s1), double(s2));
  p.input1 = quantize_multiplier(double(s1) / twice_max);
  p.input2 = quantize_multiplier(double(s2) / twice_max);
  p.output = quantize_multiplier(twice_max / (double(1 << AddParams::kLeftShift) * double(s_out)));
  return p;
}

/// Mirrors reference_integer_ops::AddElementwise for one element (sub = true: SUB).
inline std::int32_t add_quantized(const AddParams& p, std::int32_t x1, std::int32_t x2, bool sub = false) {
  const std::int32_t v1 = (p.input1_offset + x1) * (1 << AddParams::kLeftShift);
  const std::int32_t v2 = (p.input2_offset + x2) * (1 << AddParams::kLeftShift);
  const std::int32_t a = multiply_by_quantized_multiplier_smaller_than_one(v1, p.input1);
  const std::int32_t b = multiply_by_quantized_multiplier_smaller_than_one(v2, p.input2);
  const std::int32_t raw = multiply_by_quantized_multiplier_smaller_than_one(sub ? a - b : a + b, p.output) + p.output_offset;
  return std::clamp(raw, p.act_min, p.act_max);
}

/// Mirrors reference_integer_ops::MulElementwise for one element: the
/// product of the offset inputs rescaled by s1 * s2 / s_out.
inline std::int32_t mul_quantized(std::int32_t x1, std::int32_t off1, std::int32_t x2, std::int32_t off2,
                                  QuantizedMultiplier m, std::int32_t out_offset, std::int32_t act_min,
                                  std::int32_t act_max) {
  const std::int32_t raw = out_offset + multiply_by_quantized_multiplier((x1 + off1) * (x2 + off2), m);
  return std::clamp(raw, act_min, act_max);
}

/// Quantises one float: zero_point + TfLiteRound(v / scale), saturated to [qmin, qmax]
/// (tflite::AffineQuantize with TfLiteRound).
inline std::int32_t quantize_value(float v, float scale, std::int32_t zero_point, std::int32_t qmin, std::int32_t qmax) {
  const float r = std::round(v / scale);
  const float c = std::clamp(r + float(zero_point), float(qmin), float(qmax));
  return static_cast<std::int32_t>(c);
}

/// Params of TFLite's hybrid input quantisation (tensor_utils::AsymmetricQuantizeFloats)
/// from a row's min and max: the range [min(lo, 0), max(hi, 0)] is mapped onto
/// [-128, 127]; the zero point comes from whichever end gives the smaller error,
/// nudged into range; an all-zero row gets scale 1, zero point 0.
inline void asymmetric_params(float lo, float hi, float& scale, std::int32_t& zero_point) {
  constexpr std::int32_t kMin = -128, kMax = 127;
  lo = std::min(lo, 0.f);
  hi = std::max(hi, 0.f);
  if (lo == hi) {
    scale = 1.f;
    zero_point = 0;
    return;
  }
  const double qmin = kMin, qmax = kMax, rmin = lo, rmax = hi;
  const double s = (rmax - rmin) / (qmax - qmin);
  const double zp_from_min = qmin - rmin / s, zp_from_max = qmax - rmax / s;
  const double err_min = std::abs(qmin) + std::abs(rmin / s), err_max = std::abs(qmax) + std::abs(rmax / s);
  const double zp_double = err_min < err_max ? zp_from_min : zp_from_max;
  scale = static_cast<float>(s);
  zero_point = zp_double <= qmin ? kMin : zp_double >= qmax ? kMax : static_cast<std::int32_t>(std::round(zp_double));
}

/// q[i] = clamp(round(x[i] / scale) + zero_point) (half away from zero) with the
/// params of asymmetric_params; an all-zero row (scale 1, zero point 0) gives zeros.
inline void asymmetric_quantize_with(const float* x, std::int64_t n, float scale, std::int32_t zero_point,
                                     std::int8_t* q) {
  const float inv = 1.f / scale;
  for (std::int64_t i = 0; i < n; ++i) {
    // std::round(v) without the libm call: |v| <= ~255 here, so truncating to int is exact.
    const float v = x[i] * inv;
    std::int32_t r = static_cast<std::int32_t>(v);
    const float frac = v - static_cast<float>(r);
    r += frac >= 0.5f ? 1 : frac <= -0.5f ? -1 : 0;
    q[i] = static_cast<std::int8_t>(std::clamp(r + zero_point, -128, 127));
  }
}

/// Per-row input quantisation of TFLite's hybrid kernels: mirrors
/// tensor_utils::AsymmetricQuantizeFloats (asymmetric_params, then quantise).
inline void asymmetric_quantize_floats(const float* x, std::int64_t n, std::int8_t* q, float& scale,
                                       std::int32_t& zero_point) {
  float lo = 0.f, hi = 0.f;
  for (std::int64_t i = 0; i < n; ++i) {
    lo = std::min(lo, x[i]);
    hi = std::max(hi, x[i]);
  }
  asymmetric_params(lo, hi, scale, zero_point);
  if (lo == hi) {
    std::fill(q, q + n, std::int8_t(0));
    return;
  }
  asymmetric_quantize_with(x, n, scale, zero_point, q);
}

}  // namespace ec::runtime::quantized
