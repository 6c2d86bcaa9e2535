// The exact integer products behind ONNX's integer ops (ConvInteger, MatMulInteger) and
// ONNX Runtime's quantised format (QLinearConv, QLinearMatMul, kernels/qlinear.cpp):
// zero points are subtracted first, so every product is of values in [-255, 255], summed
// in int32 as the ONNX specification says; the int16 GEMM of quantized/igemm.h does the
// work (exact, so results never depend on the ISA or the thread count).
#pragma once

#include <cstdint>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::kernels {

/// acc[n, m, p...] = sum over the group's channels c and taps t of
///   (x[n, c, p*s - pad + t*d] - x_zp) * (w[m, c, t] - w_zp[m])
/// (padding reads x_zp: it adds nothing), int32 [N, M, out...]. x and w are uint8 or int8,
/// each zero point of its tensor's dtype (undefined = 0); x_zp per tensor, w_zp per tensor
/// or one per output channel. 1 to 3 spatial dims. `what` names the op in errors.
Tensor conv_integer_sums(const ir::Operation& op, const Tensor& x, const Tensor& x_zp, const Tensor& w,
                         const Tensor& w_zp, const char* what);

/// acc = (a - a_zp) (b - b_zp), numpy matmul (1-D operands promoted, batch dims broadcast),
/// int32. a_zp per tensor, per row of a ([M] or a's shape with K -> 1); b_zp per tensor, per
/// column of b ([N] or b's shape with K -> 1).
Tensor matmul_integer_sums(const Tensor& a, const Tensor& a_zp, const Tensor& b, const Tensor& b_zp,
                           const char* what);

}  // namespace ec::runtime::kernels
