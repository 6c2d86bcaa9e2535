// AVX-512F instantiation of vmath_simd.h (16 lanes). Only this file's code
// after the pragma is compiled for AVX-512; everything in it has internal
// linkage except the entry points, which the dispatcher calls only when the CPU
// has AVX-512F (see vmath.h).
#include <immintrin.h>

#include <cstdint>

#include "core/runtime/kernels/vmath.h"

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx512f,avx2,fma")
// GCC 12's avx512fintrin.h passes _mm512_undefined_ps() as the unused source of
// its unmasked forms, which -Wmaybe-uninitialized reports once inlined here.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

namespace ec::runtime::vmath {
namespace {

// Masks are kept as vectors (all-ones lanes) so vmath_simd.h is the same for both ISAs.
struct V {
  using R = __m512;
  static constexpr int W = 16;
  static R set1(float v) { return _mm512_set1_ps(v); }
  static R load(const float* p) { return _mm512_loadu_ps(p); }
  static void store(float* p, R v) { _mm512_storeu_ps(p, v); }
  static R add(R a, R b) { return _mm512_add_ps(a, b); }
  static R sub(R a, R b) { return _mm512_sub_ps(a, b); }
  static R mul(R a, R b) { return _mm512_mul_ps(a, b); }
  static R div(R a, R b) { return _mm512_div_ps(a, b); }
  static R rcp(R a) { return _mm512_rcp14_ps(a); }  // 1/a to 2^-14 (AVX-512) or 2^-12 (AVX2)
  static R min(R a, R b) { return _mm512_min_ps(a, b); }
  static R max(R a, R b) { return _mm512_max_ps(a, b); }
  static R fmadd(R a, R b, R c) { return _mm512_fmadd_ps(a, b, c); }
  static R fnmadd(R a, R b, R c) { return _mm512_fnmadd_ps(a, b, c); }
  static __m512i bits(R a) { return _mm512_castps_si512(a); }
  static R ps(__m512i a) { return _mm512_castsi512_ps(a); }
  static R neg(R a) { return ps(_mm512_xor_si512(bits(a), _mm512_set1_epi32(INT32_MIN))); }
  static R abs(R a) { return ps(_mm512_and_si512(bits(a), _mm512_set1_epi32(INT32_MAX))); }
  static R copysign(R mag, R sgn) {
    return ps(_mm512_or_si512(_mm512_and_si512(bits(mag), _mm512_set1_epi32(INT32_MAX)),
                              _mm512_and_si512(bits(sgn), _mm512_set1_epi32(INT32_MIN))));
  }
  static R round(R a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static R floor(R a) { return _mm512_roundscale_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  static R pow2n(R n) {
    return ps(_mm512_slli_epi32(_mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127)), 23));
  }
  // The float whose bits are v's shifted left by 23: 2^(k - 127) when v = 1.5 2^23 + k.
  static R shl23(R v) { return ps(_mm512_slli_epi32(bits(v), 23)); }
  // v where x >= lim or x is NaN, else 0 (one compare into a mask register, one masked move).
  static R zero_below(R v, R x, R lim) {
    return _mm512_maskz_mov_ps(_mm512_cmp_ps_mask(x, lim, _CMP_NLT_UQ), v);
  }
  static R mask_vec(__mmask16 m) { return ps(_mm512_maskz_set1_epi32(m, -1)); }
  static R lt(R a, R b) { return mask_vec(_mm512_cmp_ps_mask(a, b, _CMP_LT_OQ)); }
  static R gt(R a, R b) { return mask_vec(_mm512_cmp_ps_mask(a, b, _CMP_GT_OQ)); }
  static R isnan(R a) { return mask_vec(_mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q)); }
  static R blend(R a, R b, R mask) {  // mask ? b : a
    return _mm512_mask_blend_ps(_mm512_test_epi32_mask(bits(mask), bits(mask)), a, b);
  }
};

#include "core/runtime/kernels/vmath_simd.h"

}  // namespace

void apply_avx512(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
  VMath<V>::apply(f, x, y, n, alpha, beta);
}
float exp_sum_avx512(const float* x, float* y, std::int64_t n, float mx) { return VMath<V>::exp_sum(x, y, n, mx); }
float row_max_avx512(const float* x, std::int64_t n) { return VMath<V>::row_max(x, n); }
void scale_avx512(float* y, std::int64_t n, float s) { VMath<V>::scale(y, n, s); }
void binary_avx512(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb,
                   float* y, std::int64_t n, std::int64_t rows, std::int64_t ra, std::int64_t rb) {
  VMath<V>::binary(op, a, sa, b, sb, y, n, rows, ra, rb);
}

}  // namespace ec::runtime::vmath

#pragma GCC diagnostic pop
#pragma GCC pop_options
#else
namespace ec::runtime::vmath {
void apply_avx512(Fn, const float*, float*, std::int64_t, float, float) {}
float exp_sum_avx512(const float*, float*, std::int64_t, float) { return 0.f; }
float row_max_avx512(const float*, std::int64_t) { return 0.f; }
void scale_avx512(float*, std::int64_t, float) {}
void binary_avx512(BinOp, const float*, std::int64_t, const float*, std::int64_t, float*,
                   std::int64_t, std::int64_t, std::int64_t, std::int64_t) {}
}  // namespace ec::runtime::vmath
#endif
