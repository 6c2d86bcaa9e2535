// The arithmetic of the TFLite int8 scheme (docs/QUANTISATION.md): choosing
// scale and zero point, symmetric weight quantisation, int32 biases, and the
// SQNR used throughout the report.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "core/ir/quantization.h"

namespace ec::quantize {

/// Asymmetric int8 params covering [lo, hi] (widened to contain 0):
///   scale = (hi - lo) / 255, zero_point = round(-128 - lo / scale) in [-128, 127].
/// An all-zero range gets scale 1 (any scale represents 0 exactly).
ir::QuantParams activation_params(float lo, float hi);

/// Fixed output params of ops whose range is known (Softmax/Sigmoid: 1/256, -128;
/// Tanh: 1/128, 0), as TFLite uses them.
ir::QuantParams fixed_params(float scale, std::int64_t zero_point);

/// The real range [lo, hi] that int8 params represent.
std::pair<float, float> represented_range(const ir::QuantParams& p);

/// Symmetric int8 quantisation of a float weight tensor, per channel along `axis`
/// (per tensor when `per_channel` is false): scale_c = max|w_c| / 127, q in [-127, 127].
/// `given` (QAT) imposes the scales and zero points instead.
struct QuantizedWeights {
  std::vector<std::int8_t> values;
  std::vector<float> dequantized;      // (q - zp) * scale: what the int8 kernel multiplies by
  ir::QuantParams params;              // i8, zero points 0 (or the given ones)
  std::vector<double> channel_sqnr_db; // per channel along `axis` (always, even per tensor)
  std::vector<float> channel_max_abs_error;
  double sqnr_db = 0;
};
QuantizedWeights quantize_weights(std::span<const float> w, const std::vector<std::int64_t>& shape,
                                  int axis, bool per_channel, const ir::QuantParams* given = nullptr);

/// int32 bias: q = round(b / (input_scale * weight_scale[c])), scale per channel.
struct QuantizedBias {
  std::vector<std::int32_t> values;
  ir::QuantParams params;  // i32, zero points 0
  /// Values beyond +-2^30 at this scale (clamped): the kernel folds the input zero
  /// point's correction into the same int32, so they leave it no headroom. A tiny
  /// input scale times a tiny weight scale does this (shufflenet's classifier).
  std::size_t out_of_range = 0;
  double max_abs_q = 0;  // largest |b / scale| before clamping
};
QuantizedBias quantize_bias(std::span<const float> b, float input_scale, const ir::QuantParams& weight);

/// Per-tensor asymmetric int8 of a float constant (e.g. Add's constant operand).
std::vector<std::int8_t> quantize_values(std::span<const float> x, const ir::QuantParams& p);

/// Running signal and noise powers: sqnr_db = 10 log10(sum x^2 / sum (x - y)^2).
struct SqnrAccumulator {
  double signal = 0, noise = 0;
  float max_abs_error = 0;
  void add(std::span<const float> reference, std::span<const float> approx);
  /// Same with approx[i] = (q[i] - zero_point) * scale (an int8 tensor, without a float copy).
  void add_dequantized(std::span<const float> reference, std::span<const std::int8_t> q, float scale,
                       std::int32_t zero_point);
  /// Adds another accumulator's sums: merging one sample's own sums in sample order
  /// does the same double additions as add() on each sample in turn.
  void merge(const SqnrAccumulator& o) {
    signal += o.signal;
    noise += o.noise;
    max_abs_error = std::max(max_abs_error, o.max_abs_error);
  }
  /// 200 dB when the error is exactly 0 (JSON has no infinity); 0 dB for an all-zero reference with noise.
  double db() const;
};

/// SQNR of two buffers in one go.
double sqnr_db(std::span<const float> reference, std::span<const float> approx);

}  // namespace ec::quantize
