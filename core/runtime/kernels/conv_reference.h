// Convolution geometry and the two f32 Conv implementations (reference and
// im2col + GEMM), exposed so tests can compare them on random shapes.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "core/ir/graph.h"

namespace ec::runtime::kernels {

struct ConvGeometry {
  std::int64_t n = 0, c = 0, m = 0, group = 1;
  std::vector<std::int64_t> in, out, kernel, strides, dilations, pad_begin, pad_end;
};

/// Resolves pads (auto_pad included) and output sizes from the op and actual shapes, x and
/// w given in NCHW order. An op whose layout is not NCHW is refused unless
/// `any_layout` (the NHWC kernels pass their shapes permuted).
ConvGeometry conv_geometry(const ir::Operation& op, const std::vector<std::int64_t>& x,
                           const std::vector<std::int64_t>& w, bool transpose, bool any_layout = false);
/// Direct loops; `b` may be null. y must hold N*M*prod(out) floats.
void conv_reference(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y);
/// im2col + packed GEMM (1x1 stride-1 convolutions skip im2col; 2-D depthwise
/// runs a direct loop), the result clamped to [act_lo, act_hi] (fused RELU/RELU6).
/// Splits work over the current thread pool (core/runtime/thread_pool.h).
void conv_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
               float act_lo = -std::numeric_limits<float>::infinity(),
               float act_hi = std::numeric_limits<float>::infinity());

/// ConvTranspose (the adjoint of Conv; g from conv_geometry(..., transpose = true), w
/// [C, M/group, K...]) by direct scatter; `b` may be null; y (N*M*prod(out) floats) is
/// overwritten.
void conv_transpose_reference(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y);
/// The same as GEMM + col2im: per group, col[M/g * K, P] = W_g^T X_g over a band of input
/// positions at a time (the packed GEMM, split over the thread pool), then each output
/// channel's taps added into y (channels split over the pool); y starts as the bias.
void conv_transpose_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y);

}  // namespace ec::runtime::kernels
