// Output size of a sliding window (Conv, pooling): shared by convolution.cpp
// and pooling.cpp so both follow ONNX's one formula.
#pragma once

#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {

/// out = floor((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1
/// (ceil with ceil_mode, the last window starting inside the padded input);
/// SAME_*: ceil(in / stride); VALID: no padding. Reads strides, dilations,
/// pads, auto_pad and ceil_mode from the op. Unknown where `in` or `k` is.
std::vector<Dim> window_output(InferContext& ctx, const std::vector<Dim>& in,
                               const std::vector<Dim>& kernel, bool ceil_mode);

}  // namespace ec::ir::shape_inference
