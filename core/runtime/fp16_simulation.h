// fp16 compute simulated on the f32 runtime (SessionOptions::simulate_fp16): every float
// a simulated op reads or writes is rounded to IEEE binary16 and widened back, as a Core ML
// program typed fp16 computes on the GPU / Neural Engine. Round to nearest even, values
// beyond the half range to +-inf, subnormal halves kept, NaN stays NaN.
#pragma once

#include <cstddef>

#include "core/runtime/tensor.h"

namespace ec::runtime {

/// out[i] = float(half(in[i])) for i < n; `in` and `out` may be the same buffer. F16C when
/// the CPU has it (the same results as util::float_to_half / half_to_float, bit for bit).
void round_to_half(const float* in, float* out, std::size_t n);
/// The scalar form the F16C path is checked against.
float round_to_half(float x);
/// Whether round_to_half(ptr, ...) uses F16C on this machine.
bool round_to_half_uses_f16c();

/// An f32 tensor rounded (a new buffer); any other dtype returned as it is.
Tensor rounded_to_half(const Tensor& t);
/// Each f32 tensor of `outputs` rounded: in place when it owns its buffer, kept as it is
/// when it shares one with an input (already rounded: every simulated tensor is).
void round_outputs_to_half(std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs);

}  // namespace ec::runtime
