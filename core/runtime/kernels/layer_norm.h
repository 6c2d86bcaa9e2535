// LayerNormalization: the f32 fast kernel and the plain reference it is tested against.
#pragma once

#include "core/runtime/kernels/common.h"

namespace ec::runtime::kernels {

/// LayerNormalization's plain double-precision definition (the f32 kernel_LayerNormalization
/// is tested against it).
Outputs layer_norm_reference(const ir::Operation& op, Inputs x);
/// The f32 LayerNormalization rows: x, y [rows, n]; scale, bias n floats (bias may be
/// null); means / inv_stds (optional) one per row.
void layer_norm_f32(const float* x, const float* scale, const float* bias, float* y, std::int64_t rows,
                    std::int64_t n, float eps, float* means, float* inv_stds);

}  // namespace ec::runtime::kernels
