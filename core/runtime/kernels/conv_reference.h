// Convolution geometry and the two f32 Conv implementations (reference and
// im2col + GEMM), exposed so tests can compare them on random shapes.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/graph.h"

namespace ec::runtime::kernels {

struct ConvGeometry {
  std::int64_t n = 0, c = 0, m = 0, group = 1;
  std::vector<std::int64_t> in, out, kernel, strides, dilations, pad_begin, pad_end;
};

/// Resolves pads (auto_pad included) and output sizes from the op and actual shapes.
ConvGeometry conv_geometry(const ir::Operation& op, const std::vector<std::int64_t>& x,
                           const std::vector<std::int64_t>& w, bool transpose);
/// Direct loops; `b` may be null. y must hold N*M*prod(out) floats.
void conv_reference(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y);
/// im2col + Eigen GEMM (1x1 stride-1 convolutions skip im2col).
void conv_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y);

}  // namespace ec::runtime::kernels
