// Channels-last convolution through oneDNN (Debian's libdnnl 2.6): its JIT convolutions
// for the machine's ISA (AVX2, AVX-512, AMX...), the weights reordered once per session,
// split over our thread pool. f32 with the fused activation as a post-op; int8 as exact
// int32 sums handed piece by piece to the caller's requantisation.
#pragma once

#include <cstdint>
#include <functional>
#include <string_view>

#include "core/ir/activation.h"
#include "core/runtime/kernels/conv_reference.h"

namespace ec::runtime::kernels {

/// Whether oneDNN runs f32 convolutions: on unless EC_CONV=own (our own kernels, kept
/// as the fallback and for comparison) or force_own_conv(true).
bool onednn_conv_enabled();
/// For tests: route every convolution through our own kernels (true) or oneDNN.
void force_own_conv(bool own);
/// Whether f32 3x3 stride-1 Convs with 32+ input and output channels take oneDNN's
/// Winograd kernels (x and y reordered to its blocked layouts around them): on unless
/// EC_WINOGRAD=0 or force_winograd(false). Read when a convolution is prepared.
bool winograd_enabled();
void force_winograd(bool on);
/// How many convolution pieces ran on a Winograd kernel since the process started (tests).
std::int64_t onednn_winograd_pieces_run();
/// How many f32 convolutions were left to our own kernels since the process started
/// because oneDNN offered only its reference kernel ("ref:any") for a piece (tests: a
/// plan of pieces must never need it).
std::int64_t onednn_reference_convs_declined();
/// Whether oneDNN has a Winograd kernel on this machine (AVX-512; ONEDNN_MAX_CPU_ISA) and
/// it is enabled.
bool onednn_winograd_available();

/// y = act(conv(x, w) + b) on oneDNN, x [N, S..., C], w [M, K..., C/group] (OHWI),
/// y [N, S'..., M] (the NHWC Conv of the LayoutTransform pass); `act` is the op's
/// fused activation, done as a oneDNN post-op (the exp-based ones as vmath after each piece). Returns false, y untouched, when oneDNN cannot take it here:
/// outside a session run (no weight cache), weights not a session constant, a spatial
/// rank above 3, another activation, or oneDNN disabled.
/// oneDNN's fast kernels are channels-last: on NCHW tensors it would reorder x and y on
/// every call, which costs more than it saves, so NCHW Convs keep our own kernel and the
/// session converts float graphs to NHWC at load (SessionOptions::channels_last).
/// `addend` (or null): y = act(conv + addend), addend [N, S'..., M] like y (a residual Add
/// the session folded into the Conv): each piece of y gets it added, then the activation,
/// on the thread that computed the piece, while the piece is in its cache.
bool conv_onednn(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                 ir::Activation act, const float* addend = nullptr);

/// An expanding 1x1 Conv and the depthwise Conv that alone reads its output t, run
/// together band by band (conv_chain_onednn.cpp): pw is 1x1, stride 1, unpadded, one group
/// (x [N, H, W, C] -> t [N, H, W, M]); dw has one channel per group (t -> y [N, OH, OW, M]);
/// act1/act2 their fused activations. Each thread computes the rows of t its band of y
/// needs into a buffer that stays in its cache: t never goes out to memory. Returns false,
/// nothing written, when that does not apply here (other shapes, t small enough to stay in
/// the cache anyway, weights not session constants, oneDNN off, EC_CONV_CHAIN=0): the
/// caller then runs the two Convs apart.
bool conv_pw_dw_onednn(const ConvGeometry& pw, const float* x, const float* w1, const float* b1,
                       ir::Activation act1, const ConvGeometry& dw, const float* w2,
                       const float* b2, ir::Activation act2, float* y);
/// For tests: run such pairs together (true) or apart (false) whatever EC_CONV_CHAIN says.
void force_conv_chain(bool on);
/// How many pairs conv_pw_dw_onednn ran since the process started (tests).
std::int64_t onednn_conv_chains_run();

/// Receives the exact int32 sums acc[p * M + m] of output pixels [first, first + count)
/// (NHWC order: pixel p of the piece, output channel m) of conv_onednn_s8.
using Int8Epilogue = std::function<void(const std::int32_t* acc, std::int64_t first, std::int64_t count)>;

/// int8 channels-last convolution on oneDNN's VNNI kernels: acc = sum_k (x - zx) * w over
/// the taps inside the input (padding contributes nothing, as TFLite's zero-point padding),
/// no bias, handed piece by piece (bands of rows, small enough to stay in cache) to
/// `epilogue`, which requantises them. x [N, S..., C] int8, w [M, K..., C/group] (OHWI)
/// int8. oneDNN converts its sums to f32 before storing them: exact only while every
/// |acc| <= 2^24, which the caller must guarantee (sum |w| * max |x - zx| per channel).
/// Returns false, nothing called, when oneDNN cannot take it here: not a session
/// constant weight, no VNNI (without it oneDNN's int8 products saturate), oneDNN off.
bool conv_onednn_s8(const ConvGeometry& g, const std::int8_t* x, std::int32_t zx, const std::int8_t* w,
                    const Int8Epilogue& epilogue);
/// How many conv_onednn_s8 calls oneDNN ran since the process started (for tests).
std::int64_t onednn_int8_convs_run();
/// Whether conv_onednn_s8 can run on this machine (oneDNN on, an int8 VNNI/AMX ISA).
bool onednn_int8_conv_available();
/// The largest |acc| conv_onednn_s8 returns exactly (2^24, f32's exact integers).
constexpr std::int64_t kOneDnnExactInt8Sum = std::int64_t(1) << 24;

}  // namespace ec::runtime::kernels
