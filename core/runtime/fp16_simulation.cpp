#include "core/runtime/fp16_simulation.h"

#include <immintrin.h>

#include "core/util/half.h"

namespace ec::runtime {
namespace {

__attribute__((target("avx,f16c"))) void round_f16c(const float* in, float* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i h = _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(h));
  }
  for (; i < n; ++i) out[i] = round_to_half(in[i]);
}

bool has_f16c() {
  static const bool yes = __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx");
  return yes;
}

}  // namespace

float round_to_half(float x) { return util::half_to_float(util::float_to_half(x)); }

bool round_to_half_uses_f16c() { return has_f16c(); }

void round_to_half(const float* in, float* out, std::size_t n) {
  if (has_f16c()) return round_f16c(in, out, n);
  for (std::size_t i = 0; i < n; ++i) out[i] = round_to_half(in[i]);
}

Tensor rounded_to_half(const Tensor& t) {
  if (t.dtype() != DType::Float32) return t;
  Tensor r = Tensor::uninitialized(DType::Float32, t.shape());
  round_to_half(t.data<float>(), r.mutable_data<float>(), static_cast<std::size_t>(t.numel()));
  return r;
}

void round_outputs_to_half(std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs) {
  for (Tensor& o : outputs) {
    if (!o.defined() || o.dtype() != DType::Float32 || o.numel() == 0) continue;
    const std::byte* p = o.raw();
    bool shared = false;  // a view of an input (Reshape, Identity, Squeeze...)
    for (const Tensor& in : inputs)
      shared |= in.defined() && in.nbytes() > 0 && p >= in.raw() && p < in.raw() + in.nbytes();
    if (shared) continue;
    if (o.writable())
      round_to_half(o.data<float>(), o.mutable_data<float>(), static_cast<std::size_t>(o.numel()));
    else
      o = rounded_to_half(o);
  }
}

}  // namespace ec::runtime
