// AVX2 + FMA instantiation of vmath_simd.h (8 lanes). Only this file's code
// after the pragma is compiled for AVX2; everything in it has internal linkage
// except the two entry points, which the dispatcher calls only when the CPU has
// AVX2 and FMA (see vmath.h).
#include <immintrin.h>

#include <cstdint>

#include "core/runtime/kernels/vmath.h"

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")

namespace ec::runtime::vmath {
namespace {

struct V {
  using R = __m256;
  static constexpr int W = 8;
  static R set1(float v) { return _mm256_set1_ps(v); }
  static R load(const float* p) { return _mm256_loadu_ps(p); }
  static void store(float* p, R v) { _mm256_storeu_ps(p, v); }
  static R add(R a, R b) { return _mm256_add_ps(a, b); }
  static R sub(R a, R b) { return _mm256_sub_ps(a, b); }
  static R mul(R a, R b) { return _mm256_mul_ps(a, b); }
  static R div(R a, R b) { return _mm256_div_ps(a, b); }
  // 1/a to about 2^-23: the 12-bit estimate and one Newton step (VMath::recip adds the
  // second, which also makes 1/1 exactly 1, as AVX-512's 14-bit estimate does).
  static R rcp(R a) {
    const R t = _mm256_rcp_ps(a);
    return _mm256_fmadd_ps(t, _mm256_fnmadd_ps(a, t, _mm256_set1_ps(1.f)), t);
  }
  static R min(R a, R b) { return _mm256_min_ps(a, b); }
  static R max(R a, R b) { return _mm256_max_ps(a, b); }
  static R fmadd(R a, R b, R c) { return _mm256_fmadd_ps(a, b, c); }   // a b + c
  static R fnmadd(R a, R b, R c) { return _mm256_fnmadd_ps(a, b, c); } // c - a b
  static R neg(R a) { return _mm256_xor_ps(a, _mm256_set1_ps(-0.f)); }
  static R abs(R a) { return _mm256_andnot_ps(_mm256_set1_ps(-0.f), a); }
  static R copysign(R mag, R sgn) {
    const R s = _mm256_set1_ps(-0.f);
    return _mm256_or_ps(_mm256_andnot_ps(s, mag), _mm256_and_ps(s, sgn));
  }
  static R round(R a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC); }
  static R floor(R a) { return _mm256_round_ps(a, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC); }
  // 2^n for integral n in [-126, 127]
  static R pow2n(R n) {
    const __m256i e = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
    return _mm256_castsi256_ps(e);
  }
  // The float whose bits are v's shifted left by 23: 2^(k - 127) when v = 1.5 2^23 + k.
  static R shl23(R v) { return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(v), 23)); }
  // v where x >= lim or x is NaN, else 0.
  static R zero_below(R v, R x, R lim) {
    return _mm256_and_ps(v, _mm256_cmp_ps(x, lim, _CMP_NLT_UQ));
  }
  static R lt(R a, R b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
  static R gt(R a, R b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
  static R isnan(R a) { return _mm256_cmp_ps(a, a, _CMP_UNORD_Q); }
  static R blend(R a, R b, R mask) { return _mm256_blendv_ps(a, b, mask); }  // mask ? b : a
};

#include "core/runtime/kernels/vmath_simd.h"

}  // namespace

void apply_avx2(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
  VMath<V>::apply(f, x, y, n, alpha, beta);
}
float exp_sum_avx2(const float* x, float* y, std::int64_t n, float mx) { return VMath<V>::exp_sum(x, y, n, mx); }
float row_max_avx2(const float* x, std::int64_t n) { return VMath<V>::row_max(x, n); }
void scale_avx2(float* y, std::int64_t n, float s) { VMath<V>::scale(y, n, s); }
void binary_avx2(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb,
                 float* y, std::int64_t n, std::int64_t rows, std::int64_t ra, std::int64_t rb) {
  VMath<V>::binary(op, a, sa, b, sb, y, n, rows, ra, rb);
}

}  // namespace ec::runtime::vmath

#pragma GCC pop_options
#else
namespace ec::runtime::vmath {
void apply_avx2(Fn, const float*, float*, std::int64_t, float, float) {}
float exp_sum_avx2(const float*, float*, std::int64_t, float) { return 0.f; }
float row_max_avx2(const float*, std::int64_t) { return 0.f; }
void scale_avx2(float*, std::int64_t, float) {}
void binary_avx2(BinOp, const float*, std::int64_t, const float*, std::int64_t, float*,
                 std::int64_t, std::int64_t, std::int64_t, std::int64_t) {}
}  // namespace ec::runtime::vmath
#endif
