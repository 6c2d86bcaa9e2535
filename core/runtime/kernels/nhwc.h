// Channels-last (NHWC) kernels for the ops the LayoutTransform pass rewrites
// to layout "NHWC": Conv (weights OHWI: [M, kH, kW, C/group]), MaxPool,
// AveragePool, GlobalAveragePool, GlobalMaxPool and BatchNormalization.
// The op kernels (kernel_Conv, kernel_MaxPool, ...) call these when the op's
// layout is NHWC; tests compare them with the NCHW kernels (transposed).
#pragma once

#include <limits>

#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/conv_reference.h"

namespace ec::runtime::kernels {

/// Geometry of an NHWC Conv: x [N, H, W, C], w [M, kH, kW, C/group]. The
/// result is expressed as for NCHW (c = C, in = {H, W}, kernel = {kH, kW}).
ConvGeometry conv_geometry_nhwc(const ir::Operation& op, const Shape& x, const Shape& w);

/// 2-D NHWC convolution (x [N, H, W, C], w OHWI, y [N, OH, OW, M]), clamped to [lo, hi]:
///  - 1x1 stride 1 unpadded: Y[N*H*W, M] = X[N*H*W, C] * W^T, X read in place (no im2col);
///  - depthwise (C/group == 1 == M/group): direct, vectorised over channels;
///  - otherwise per group an im2col of whole output rows (contiguous C-runs) and one
///    packed GEMM with the weights as a transposed B, bias per column in its epilogue.
void conv_fast_nhwc(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                    float lo = -std::numeric_limits<float>::infinity(),
                    float hi = std::numeric_limits<float>::infinity());

/// kernel_Conv for layout NHWC.
Outputs conv_nhwc(const ir::Operation& op, Inputs x);
/// An NHWC 1x1 Conv (pw, its inputs) and the depthwise NHWC Conv that alone reads its
/// output (dw; dw_in[0], that output, is not given): run together band by band on oneDNN
/// when conv_pw_dw_onednn takes them, else one after the other. Returns dw's output.
Outputs conv_pair_nhwc(const ir::Operation& pw, Inputs pw_in, const ir::Operation& dw,
                       Inputs dw_in);
/// MaxPool / AveragePool for layout NHWC (2-D f32 without indices fast; the rest
/// transposes through the NCHW kernel).
Outputs pool_nhwc(const ir::Operation& op, Inputs x, bool max);
/// GlobalAveragePool / GlobalMaxPool for layout NHWC: y [N, 1, 1, C].
Outputs global_pool_nhwc(const ir::Operation& op, Inputs x, bool max);
/// BatchNormalization (inference) for layout NHWC: channels are the last dim.
Outputs batch_norm_nhwc(const ir::Operation& op, Inputs x);

/// [N, C, spatial...] <-> [N, spatial..., C] copies (any dtype).
Tensor nchw_to_nhwc(const Tensor& x);
Tensor nhwc_to_nchw(const Tensor& x);

}  // namespace ec::runtime::kernels
