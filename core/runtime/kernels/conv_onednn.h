// f32 channels-last convolution through oneDNN (Debian's libdnnl 2.6): its JIT
// convolutions for the machine's ISA (AVX2, AVX-512, AMX...), the weights reordered
// once per session, the fused clamp as a post-op, split over our thread pool.
#pragma once

#include <string_view>

#include "core/runtime/kernels/conv_reference.h"

namespace ec::runtime::kernels {

/// Whether oneDNN runs f32 convolutions: on unless EC_CONV=own (our own kernels, kept
/// as the fallback and for comparison) or force_own_conv(true).
bool onednn_conv_enabled();
/// For tests: route every convolution through our own kernels (true) or oneDNN.
void force_own_conv(bool own);

/// y = act(conv(x, w) + b) on oneDNN, x [N, S..., C], w [M, K..., C/group] (OHWI),
/// y [N, S'..., M] (the NHWC Conv of the LayoutTransform pass); `act` is the op's
/// fused_activation (NONE, RELU, RELU6, RELU_N1_TO_1, SIGMOID, TANH, HARD_SWISH, SILU), done
/// as a oneDNN post-op. Returns false, y untouched, when oneDNN cannot take it here:
/// outside a session run (no weight cache), weights not a session constant, a spatial
/// rank above 3, another activation, or oneDNN disabled.
/// oneDNN's fast kernels are channels-last: on NCHW tensors it would reorder x and y on
/// every call, which costs more than it saves, so NCHW Convs keep our own kernel and the
/// session converts float graphs to NHWC at load (SessionOptions::channels_last).
bool conv_onednn(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                 std::string_view act);

}  // namespace ec::runtime::kernels
