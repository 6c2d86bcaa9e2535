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
      // v second: vmaxps/vminps return their second operand when either is NaN (NaN stays NaN)
      lo = _mm512_mask_min_ps(lo, 0xFFFF, h, _mm512_mask_max_ps(lo, 0xFFFF, l, lo));
      hi = _mm512_mask_min_ps(hi, 0xFFFF, h, _mm512_mask_max_ps(hi, 0xFFFF, l, hi));
    }
    _mm512_storeu_ps(r, lo);
    _mm512_storeu_ps(r + 16, hi);
  }
}

// Sum of the 16 lanes. GCC 12's avx512fintrin.h passes _mm512_undefined_ps() as
// the unused source of unmasked forms, which -Wmaybe-uninitialized reports once inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
__attribute__((target("avx512f"))) float avx512_hsum(__m512 v) {
  const __m512 h = _mm512_add_ps(v, _mm512_shuffle_f32x4(v, v, 0x4E));  // + the other 256-bit half
  __m128 s = _mm_add_ps(_mm512_castps512_ps128(h), _mm512_castps512_ps128(_mm512_shuffle_f32x4(h, h, 0xB1)));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}
#pragma GCC diagnostic pop

// out[j] = a . B_j, four rows of B per step, 16 lanes, masked K tail.
__attribute__((target("avx512f"))) void avx512_dot_rows(const float* a, const float* B, std::int64_t ldb,
                                                         std::int64_t K, std::int64_t n, float* out) {
  const std::int64_t kv = K / 16 * 16;
  const __mmask16 tail = static_cast<__mmask16>((1u << (K - kv)) - 1u);
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const float *b0 = B + j * ldb, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
    __m512 s0 = _mm512_setzero_ps(), s1 = _mm512_setzero_ps(), s2 = _mm512_setzero_ps(), s3 = _mm512_setzero_ps();
    for (std::int64_t k = 0; k < kv; k += 16) {
      const __m512 av = _mm512_loadu_ps(a + k);
      s0 = _mm512_fmadd_ps(av, _mm512_loadu_ps(b0 + k), s0);
      s1 = _mm512_fmadd_ps(av, _mm512_loadu_ps(b1 + k), s1);
      s2 = _mm512_fmadd_ps(av, _mm512_loadu_ps(b2 + k), s2);
      s3 = _mm512_fmadd_ps(av, _mm512_loadu_ps(b3 + k), s3);
    }
    if (tail) {
      const __m512 av = _mm512_maskz_loadu_ps(tail, a + kv);
      s0 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(tail, b0 + kv), s0);
      s1 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(tail, b1 + kv), s1);
      s2 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(tail, b2 + kv), s2);
      s3 = _mm512_fmadd_ps(av, _mm512_maskz_loadu_ps(tail, b3 + kv), s3);
    }
    out[j] = avx512_hsum(s0);
    out[j + 1] = avx512_hsum(s1);
    out[j + 2] = avx512_hsum(s2);
    out[j + 3] = avx512_hsum(s3);
  }
  for (; j < n; ++j) {
    const float* b0 = B + j * ldb;
    __m512 s0 = _mm512_setzero_ps();
    for (std::int64_t k = 0; k < kv; k += 16) s0 = _mm512_fmadd_ps(_mm512_loadu_ps(a + k), _mm512_loadu_ps(b0 + k), s0);
    if (tail) s0 = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(tail, a + kv), _mm512_maskz_loadu_ps(tail, b0 + kv), s0);
    out[j] = avx512_hsum(s0);
  }
}
#endif

}  // namespace

MicroKernel avx512_kernel() {
#if defined(__x86_64__)
  return {Isa::Avx512, kMR, kNR, 128, 256, 256, &avx512_micro, nullptr, &avx512_dot_rows};
#else
  return generic_kernel();
#endif
}

}  // namespace ec::runtime::gemm
