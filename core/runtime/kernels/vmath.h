// Vectorised float32 transcendental and activation functions over arrays, with
// runtime ISA dispatch (the same choice as the GEMM: gemm::active_isa(), so
// EC_GEMM_ISA=generic|avx2|avx512 forces it). The AVX2 and AVX-512 bodies live
// in vmath_avx2.cpp / vmath_avx512.cpp, compiled for plain x86-64 with the ISA
// enabled by a pragma only there; both instantiate the one algorithm in
// vmath_simd.h. The generic path calls the std:: functions in float.
//
// Accuracy (tested against std:: in double over wide ranges, extremes, inf and
// NaN, tests/runtime/vmath_test.cpp): exp/sigmoid/tanh/silu within a few float
// ulps; erf/gelu within 2e-7 absolute; results below the smallest normal float
// flush to 0; NaN in gives NaN out.
#pragma once

#include <cstdint>

#include "core/runtime/gemm/gemm.h"

namespace ec::runtime::vmath {

/// y = f(x). alpha/beta only for HardSigmoid and Affine (alpha x + beta), Elu and LeakyRelu (alpha), Clip (bounds).
enum class Fn {
  Exp,          // e^x
  Sigmoid,      // 1 / (1 + e^-x)
  Tanh,         // tanh x
  Erf,          // erf x
  Gelu,         // x/2 (1 + erf(x / sqrt 2))
  GeluTanh,     // x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
  Silu,         // x sigmoid(x)
  HardSigmoid,  // clamp(alpha x + beta, 0, 1)
  HardSwish,    // x clamp(x/6 + 1/2, 0, 1)
  Elu,          // x > 0 ? x : alpha (e^x - 1)
  Relu,         // x > 0 ? x : 0 (NaN gives 0, as the reference kernel)
  LeakyRelu,    // x >= 0 ? x : alpha x
  Clip,         // min(max(x, alpha), beta) (NaN stays NaN)
  Affine,       // alpha x + beta (one fused multiply-add; BatchNormalization's per-channel form)
};

/// y[i] = f(x[i]) for i in [0, n) with the active ISA (y may alias x). Serial.
void apply(Fn f, const float* x, float* y, std::int64_t n, float alpha = 0.f, float beta = 0.f);
/// The same with an explicit ISA (tests; must be supported).
void apply_with(gemm::Isa isa, Fn f, const float* x, float* y, std::int64_t n, float alpha = 0.f, float beta = 0.f);
/// apply() split over the current thread pool in fixed-size chunks (same results for any thread count).
void apply_parallel(Fn f, const float* x, float* y, std::int64_t n, float alpha = 0.f, float beta = 0.f);

/// Softmax of one contiguous row: y = e^(x - max) / sum (log = true: x - max - log sum). y must not alias x.
void softmax_row(const float* x, float* y, std::int64_t n, bool log);
void softmax_row_with(gemm::Isa isa, const float* x, float* y, std::int64_t n, bool log);

/// y[r n + i] = a[r ra + i sa] op b[r rb + i sb] for i in [0, n), r in [0, rows); sa and sb are 1
/// (contiguous) or 0 (one value broadcast); ra and rb any row strides (0: the same row each time,
/// as a per-channel vector over the pixels of an NHWC tensor).
enum class BinOp { Add, Sub, Mul, Div };
void binary(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* y,
            std::int64_t n, std::int64_t rows = 1, std::int64_t ra = 0, std::int64_t rb = 0);
void binary_with(gemm::Isa isa, BinOp op, const float* a, std::int64_t sa, const float* b,
                 std::int64_t sb, float* y, std::int64_t n, std::int64_t rows = 1,
                 std::int64_t ra = 0, std::int64_t rb = 0);

// ---- per-ISA entry points (internal) ----
void binary_avx2(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb,
                 float* y, std::int64_t n, std::int64_t rows, std::int64_t ra, std::int64_t rb);
void binary_avx512(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb,
                   float* y, std::int64_t n, std::int64_t rows, std::int64_t ra, std::int64_t rb);
void apply_avx2(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta);
void apply_avx512(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta);
/// Returns sum of e^(x - mx) over the row and writes the exponentials to y.
float exp_sum_avx2(const float* x, float* y, std::int64_t n, float mx);
float exp_sum_avx512(const float* x, float* y, std::int64_t n, float mx);
float row_max_avx2(const float* x, std::int64_t n);
float row_max_avx512(const float* x, std::int64_t n);
void scale_avx2(float* y, std::int64_t n, float s);
void scale_avx512(float* y, std::int64_t n, float s);

}  // namespace ec::runtime::vmath
