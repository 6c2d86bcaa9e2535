// f32 matrix products with a constant right-hand side (FullyConnected, Gemm and MatMul on
// weights) through oneDNN's matmul (its brgemm kernels for the machine's ISA): the weights
// reordered once per session into oneDNN's blocked layout, the fused activation as a
// post-op, the product split over our thread pool (by output columns, each piece its
// share of the weights, or by rows when the weights are the smaller operand).
// Measured against our packed GEMM at 1 thread (AVX-512, Zen 4): 3-40% faster on every
// shape of ViT, ConvNeXt and the transformer's layers (docs/PERFORMANCE.md).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/ir/activation.h"

namespace ec::runtime::kernels {

/// Whether constant-weight f32 products run on oneDNN: on unless EC_MATMUL=own or
/// force_own_matmul(true) (tests compare both).
bool onednn_matmul_enabled();
void force_own_matmul(bool own);
/// How many products oneDNN ran since the process started (tests).
std::int64_t onednn_matmuls_run();

/// y[M, N] (row stride ldy) = act(x[M, K] (row stride K) * op(w) + bias[N]), op(w) = w^T
/// for w [N, K] (trans_w), else w [K, N]; bias may be null; `act` the op's fused
/// activation. Returns false, y untouched, when oneDNN cannot
/// take it here: a small product (under 2^19 multiply-adds: its fixed cost would outweigh
/// the gain), outside a session run, w or the bias not a session constant, an
/// activation without a post-op, no implementation, or the switch off.
bool matmul_onednn(std::int64_t M, std::int64_t N, std::int64_t K, const float* x, const float* w,
                   bool trans_w, const float* bias, float* y, std::int64_t ldy,
                   ir::Activation act);

}  // namespace ec::runtime::kernels
