// AVX2 + FMA micro-kernel, 6 x 16: 12 ymm accumulators, two B vectors and one
// broadcast A value per k. Only this function is compiled for AVX2 (target
// attribute); the TU includes nothing but intrinsics, see gemm.h.
#include <immintrin.h>

#include "core/runtime/gemm/gemm.h"

namespace ec::runtime::gemm {
namespace {

constexpr int kMR = 6, kNR = 16;

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void avx2_micro(std::int64_t kc, const float* a, const float* b, float* c,
                                                     std::int64_t ldc, bool accumulate,
                                                     const TileEpilogue* ep) {
  __m256 c00 = _mm256_setzero_ps(), c01 = _mm256_setzero_ps(), c10 = _mm256_setzero_ps(),
         c11 = _mm256_setzero_ps(), c20 = _mm256_setzero_ps(), c21 = _mm256_setzero_ps(),
         c30 = _mm256_setzero_ps(), c31 = _mm256_setzero_ps(), c40 = _mm256_setzero_ps(),
         c41 = _mm256_setzero_ps(), c50 = _mm256_setzero_ps(), c51 = _mm256_setzero_ps();
#pragma GCC unroll 4
  for (std::int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_load_ps(b), b1 = _mm256_load_ps(b + 8);
    __m256 av = _mm256_broadcast_ss(a + 0);
    c00 = _mm256_fmadd_ps(av, b0, c00);
    c01 = _mm256_fmadd_ps(av, b1, c01);
    av = _mm256_broadcast_ss(a + 1);
    c10 = _mm256_fmadd_ps(av, b0, c10);
    c11 = _mm256_fmadd_ps(av, b1, c11);
    av = _mm256_broadcast_ss(a + 2);
    c20 = _mm256_fmadd_ps(av, b0, c20);
    c21 = _mm256_fmadd_ps(av, b1, c21);
    av = _mm256_broadcast_ss(a + 3);
    c30 = _mm256_fmadd_ps(av, b0, c30);
    c31 = _mm256_fmadd_ps(av, b1, c31);
    av = _mm256_broadcast_ss(a + 4);
    c40 = _mm256_fmadd_ps(av, b0, c40);
    c41 = _mm256_fmadd_ps(av, b1, c41);
    av = _mm256_broadcast_ss(a + 5);
    c50 = _mm256_fmadd_ps(av, b0, c50);
    c51 = _mm256_fmadd_ps(av, b1, c51);
    a += kMR;
    b += kNR;
  }
  const __m256 rows[kMR][2] = {{c00, c01}, {c10, c11}, {c20, c21}, {c30, c31}, {c40, c41}, {c50, c51}};
  for (int i = 0; i < kMR; ++i) {
    float* r = c + i * ldc;
    __m256 lo = rows[i][0], hi = rows[i][1];
    if (accumulate) {
      lo = _mm256_add_ps(_mm256_loadu_ps(r), lo);
      hi = _mm256_add_ps(_mm256_loadu_ps(r + 8), hi);
    }
    if (ep) {
      if (ep->row_bias) {
        const __m256 bv = _mm256_set1_ps(ep->row_bias[i]);
        lo = _mm256_add_ps(lo, bv);
        hi = _mm256_add_ps(hi, bv);
      }
      if (ep->col_bias) {
        lo = _mm256_add_ps(lo, _mm256_loadu_ps(ep->col_bias));
        hi = _mm256_add_ps(hi, _mm256_loadu_ps(ep->col_bias + 8));
      }
      // min(max(v, lo), hi) as the driver's scalar selects: a NaN stays NaN (maxps/minps
      // return their SECOND operand when either is NaN, so v goes second)
      const __m256 l = _mm256_set1_ps(ep->lo), h = _mm256_set1_ps(ep->hi);
      lo = _mm256_min_ps(h, _mm256_max_ps(l, lo));
      hi = _mm256_min_ps(h, _mm256_max_ps(l, hi));
    }
    _mm256_storeu_ps(r, lo);
    _mm256_storeu_ps(r + 8, hi);
  }
}

// 6 x 8: the left half of a 6 x 16 tile (B rows still 16 apart), for the last
// columns of C; writes 8 columns of c.
__attribute__((target("avx2,fma"))) void avx2_micro_half(std::int64_t kc, const float* a, const float* b, float* c,
                                                          std::int64_t ldc, bool accumulate,
                                                          const TileEpilogue* ep) {
  __m256 c0 = _mm256_setzero_ps(), c1 = _mm256_setzero_ps(), c2 = _mm256_setzero_ps(), c3 = _mm256_setzero_ps(),
         c4 = _mm256_setzero_ps(), c5 = _mm256_setzero_ps();
#pragma GCC unroll 4
  for (std::int64_t k = 0; k < kc; ++k) {
    const __m256 b0 = _mm256_load_ps(b);
    c0 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 0), b0, c0);
    c1 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 1), b0, c1);
    c2 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 2), b0, c2);
    c3 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 3), b0, c3);
    c4 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 4), b0, c4);
    c5 = _mm256_fmadd_ps(_mm256_broadcast_ss(a + 5), b0, c5);
    a += kMR;
    b += kNR;
  }
  const __m256 rows[kMR] = {c0, c1, c2, c3, c4, c5};
  for (int i = 0; i < kMR; ++i) {
    float* r = c + i * ldc;
    __m256 v = rows[i];
    if (accumulate) v = _mm256_add_ps(_mm256_loadu_ps(r), v);
    if (ep) {
      if (ep->row_bias) v = _mm256_add_ps(v, _mm256_set1_ps(ep->row_bias[i]));
      if (ep->col_bias) v = _mm256_add_ps(v, _mm256_loadu_ps(ep->col_bias));
      v = _mm256_min_ps(_mm256_set1_ps(ep->hi), _mm256_max_ps(_mm256_set1_ps(ep->lo), v));  // NaN stays NaN
    }
    _mm256_storeu_ps(r, v);
  }
}

__attribute__((target("avx2,fma"))) float avx2_hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

// out[j] = a . B_j, four rows of B per step, 8 lanes, masked K tail.
__attribute__((target("avx2,fma"))) void avx2_dot_rows(const float* a, const float* B, std::int64_t ldb,
                                                       std::int64_t K, std::int64_t n, float* out) {
  const std::int64_t kv = K / 8 * 8;
  alignas(32) static const std::int32_t kLanes[16] = {-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0};
  const __m256i tail = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kLanes + 8 - (K - kv)));
  const bool has_tail = K > kv;
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4) {
    const float *b0 = B + j * ldb, *b1 = b0 + ldb, *b2 = b1 + ldb, *b3 = b2 + ldb;
    __m256 s0 = _mm256_setzero_ps(), s1 = _mm256_setzero_ps(), s2 = _mm256_setzero_ps(), s3 = _mm256_setzero_ps();
    for (std::int64_t k = 0; k < kv; k += 8) {
      const __m256 av = _mm256_loadu_ps(a + k);
      s0 = _mm256_fmadd_ps(av, _mm256_loadu_ps(b0 + k), s0);
      s1 = _mm256_fmadd_ps(av, _mm256_loadu_ps(b1 + k), s1);
      s2 = _mm256_fmadd_ps(av, _mm256_loadu_ps(b2 + k), s2);
      s3 = _mm256_fmadd_ps(av, _mm256_loadu_ps(b3 + k), s3);
    }
    if (has_tail) {
      const __m256 av = _mm256_maskload_ps(a + kv, tail);
      s0 = _mm256_fmadd_ps(av, _mm256_maskload_ps(b0 + kv, tail), s0);
      s1 = _mm256_fmadd_ps(av, _mm256_maskload_ps(b1 + kv, tail), s1);
      s2 = _mm256_fmadd_ps(av, _mm256_maskload_ps(b2 + kv, tail), s2);
      s3 = _mm256_fmadd_ps(av, _mm256_maskload_ps(b3 + kv, tail), s3);
    }
    out[j] = avx2_hsum(s0);
    out[j + 1] = avx2_hsum(s1);
    out[j + 2] = avx2_hsum(s2);
    out[j + 3] = avx2_hsum(s3);
  }
  for (; j < n; ++j) {
    const float* b0 = B + j * ldb;
    __m256 s0 = _mm256_setzero_ps();
    for (std::int64_t k = 0; k < kv; k += 8) s0 = _mm256_fmadd_ps(_mm256_loadu_ps(a + k), _mm256_loadu_ps(b0 + k), s0);
    if (has_tail) s0 = _mm256_fmadd_ps(_mm256_maskload_ps(a + kv, tail), _mm256_maskload_ps(b0 + kv, tail), s0);
    out[j] = avx2_hsum(s0);
  }
}
#endif

}  // namespace

MicroKernel avx2_kernel() {
#if defined(__x86_64__)
  // KC*MR*4 B = 6 KiB of A per panel for L1, KC*NC*4 B = 256 KiB of B for L2.
  return {Isa::Avx2, kMR, kNR, 120, 256, 256, &avx2_micro, &avx2_micro_half, &avx2_dot_rows};
#else
  return generic_kernel();
#endif
}

}  // namespace ec::runtime::gemm
