// AVX-512F micro-kernel, 8 x 32: 16 zmm accumulators, two B vectors and one
// broadcast A value per k. Only this function is compiled for AVX-512 (target
// attribute); the TU includes nothing but intrinsics, see gemm.h.
#include <immintrin.h>

#include "core/runtime/gemm/gemm.h"

namespace ec::runtime::gemm {
namespace {

constexpr int kMR = 8, kNR = 32;

#if defined(__x86_64__)
__attribute__((target("avx512f"))) void avx512_micro(std::int64_t kc, const float* a, const float* b, float* c,
                                                      std::int64_t ldc, bool accumulate,
                                                      const TileEpilogue* ep) {
  __m512 acc[kMR][2];
  for (int i = 0; i < kMR; ++i) acc[i][0] = acc[i][1] = _mm512_setzero_ps();
  for (std::int64_t k = 0; k < kc; ++k) {
    const __m512 b0 = _mm512_load_ps(b), b1 = _mm512_load_ps(b + 16);
#pragma GCC unroll 8
    for (int i = 0; i < kMR; ++i) {
      const __m512 av = _mm512_set1_ps(a[i]);
      acc[i][0] = _mm512_fmadd_ps(av, b0, acc[i][0]);
      acc[i][1] = _mm512_fmadd_ps(av, b1, acc[i][1]);
    }
    a += kMR;
    b += kNR;
  }
  for (int i = 0; i < kMR; ++i) {
    float* r = c + i * ldc;
    __m512 lo = acc[i][0], hi = acc[i][1];
    if (accumulate) {
      lo = _mm512_add_ps(_mm512_loadu_ps(r), lo);
      hi = _mm512_add_ps(_mm512_loadu_ps(r + 16), hi);
    }
    if (ep) {
      if (ep->row_bias) {
        const __m512 bv = _mm512_set1_ps(ep->row_bias[i]);
        lo = _mm512_add_ps(lo, bv);
        hi = _mm512_add_ps(hi, bv);
      }
      if (ep->col_bias) {
        lo = _mm512_add_ps(lo, _mm512_loadu_ps(ep->col_bias));
        hi = _mm512_add_ps(hi, _mm512_loadu_ps(ep->col_bias + 16));
      }
      const __m512 l = _mm512_set1_ps(ep->lo), h = _mm512_set1_ps(ep->hi);
      lo = _mm512_mask_min_ps(lo, 0xFFFF, _mm512_mask_max_ps(lo, 0xFFFF, lo, l), h);
      hi = _mm512_mask_min_ps(hi, 0xFFFF, _mm512_mask_max_ps(hi, 0xFFFF, hi, l), h);
    }
    _mm512_storeu_ps(r, lo);
    _mm512_storeu_ps(r + 16, hi);
  }
}
#endif

}  // namespace

MicroKernel avx512_kernel() {
#if defined(__x86_64__)
  return {Isa::Avx512, kMR, kNR, 128, 256, 256, &avx512_micro};
#else
  return generic_kernel();
#endif
}

}  // namespace ec::runtime::gemm
