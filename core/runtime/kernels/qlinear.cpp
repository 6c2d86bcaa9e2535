// QLinearConv and QLinearMatMul: ONNX Runtime's quantised format (what its quantiser
// writes in QOperator form). The exact int32 products (kernels/integer_ops.cpp), then
//
//   y = saturate(round_half_even(float(acc + bias) * m) + y_zp),   m = x_scale * w_scale / y_scale
//
// with m computed in float, per output channel (Conv) or per row and column (MatMul),
// as ONNX Runtime computes it (MlasRequantizeOutput), so outputs equal its outputs.
#include <cmath>
#include <limits>
#include <type_traits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/integer_ops.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

// A scale's values (f32, positive and finite): 1 value, or `per` values when per > 0.
std::vector<float> scales(const Tensor& s, std::int64_t per, const char* what, const char* name) {
  if (!s.defined()) fail(std::string(what) + ": input '" + name + "' is missing");
  if (s.dtype() != DType::Float32) fail(std::string(what) + ": '" + name + "' must be f32, got " + s.type_string());
  if (s.numel() != 1 && (per == 0 || s.numel() != per))
    fail(std::string(what) + ": '" + name + "' has " + std::to_string(s.numel()) + " values; expected 1" +
         (per ? " or " + std::to_string(per) : std::string()));
  std::vector<float> v(s.values<float>().begin(), s.values<float>().end());
  for (float f : v)
    if (!(f > 0) || !std::isfinite(f))
      fail(std::string(what) + ": '" + name + "' must be positive and finite, got " + std::to_string(f));
  return v;
}

// The output's zero point (one value, uint8 or int8; its dtype is the output's).
std::int32_t output_zero_point(const Tensor& z, const char* what) {
  if (!z.defined()) fail(std::string(what) + ": input 'y_zero_point' is missing");
  if (z.dtype() != DType::UInt8 && z.dtype() != DType::Int8)
    fail(std::string(what) + ": 'y_zero_point' must be uint8 or int8, got " + z.type_string());
  if (z.numel() != 1) fail(std::string(what) + ": 'y_zero_point' must hold one value, got " + z.type_string());
  return static_cast<std::int32_t>(z.get_int(0));
}

// out[i] = clamp(nearbyint(float(acc[i] + bias) * m[i]) + zp), as ONNX Runtime's
// requantisation; m[i] = m_each[i], or m for every i. The value is clamped first (to within 510 of 0), so rounding it to an integer half to
// even is exact in float: cvtps2dq in the default rounding mode (SSE2, 4 lanes), or adding
// and subtracting 1.5 * 2^23 (the tail), both equal to nearbyint.
template <typename Q>
void requantize_impl(const std::int32_t* acc, std::int64_t n, std::int32_t bias, float m, const float* m_each,
                     std::int32_t zp, Q* out) {
  const float lo = float(std::numeric_limits<Q>::lowest()) - float(zp), hi = float(std::numeric_limits<Q>::max()) - float(zp);
  std::int64_t i = 0;
#if defined(__SSE2__)
  const __m128 vlo = _mm_set1_ps(lo), vhi = _mm_set1_ps(hi), vm = _mm_set1_ps(m);
  const __m128i vbias = _mm_set1_epi32(bias), vzp = _mm_set1_epi32(zp);
  for (; i + 16 <= n; i += 16) {
    __m128i q[4];
    for (int k = 0; k < 4; ++k) {
      const __m128i a = _mm_add_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(acc + i + 4 * k)), vbias);
      const __m128 mk = m_each ? _mm_loadu_ps(m_each + i + 4 * k) : vm;
      const __m128 v = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_cvtepi32_ps(a), mk), vlo), vhi);
      q[k] = _mm_add_epi32(_mm_cvtps_epi32(v), vzp);  // in [lowest, max] of Q: the packs below are exact
    }
    const __m128i w0 = _mm_packs_epi32(q[0], q[1]), w1 = _mm_packs_epi32(q[2], q[3]);
    const __m128i b = std::is_unsigned_v<Q> ? _mm_packus_epi16(w0, w1) : _mm_packs_epi16(w0, w1);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), b);
  }
#endif
  constexpr float kRound = 12582912.0f;  // 1.5 * 2^23
  for (; i < n; ++i) {
    // acc + bias wraps in int32 as ONNX Runtime's sum does (no undefined overflow)
    const auto a = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[i]) + static_cast<std::uint32_t>(bias));
    const float v = std::min(std::max(float(a) * (m_each ? m_each[i] : m), lo), hi);
    out[i] = static_cast<Q>(static_cast<std::int32_t>((v + kRound) - kRound) + zp);
  }
}

// out[i] = clamp(nearbyint(float(acc[i] + bias) * m) + zp) for i < n.
template <typename Q>
void requantize(const std::int32_t* acc, std::int64_t n, std::int32_t bias, float m, std::int32_t zp, Q* out) {
  requantize_impl<Q>(acc, n, bias, m, nullptr, zp, out);
}

// The same with a multiplier per element, m[i] (QLinearMatMul's per-column scales).
template <typename Q>
void requantize_each(const std::int32_t* acc, std::int64_t n, const float* m, std::int32_t zp, Q* out) {
  requantize_impl<Q>(acc, n, 0, 0.f, m, zp, out);
}

template <typename F>
Tensor with_output_type(DType t, F&& f) {
  if (t == DType::UInt8) return f.template operator()<std::uint8_t>();
  return f.template operator()<std::int8_t>();
}

}  // namespace

// x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point[, B]:
// w_scale (and w_zero_point) per tensor or per output channel, B int32 per output channel.
Outputs kernel_QLinearConv(const ir::Operation& op, Inputs x) {
  constexpr const char* kWhat = "QLinearConv";
  const Tensor &W = in(x, 3), &YZ = in(x, 7), &B = in(x, 8);
  if (!W.defined() || W.rank() < 1) fail(std::string(kWhat) + ": 'w' must be at least 1-D");
  const std::int64_t M = W.dim(0);
  const float sx = scales(in(x, 1), 0, kWhat, "x_scale")[0], sy = scales(in(x, 6), 0, kWhat, "y_scale")[0];
  const std::vector<float> sw = scales(in(x, 4), M, kWhat, "w_scale");
  const std::int32_t zy = output_zero_point(YZ, kWhat);
  if (B.defined() && (B.dtype() != DType::Int32 || B.numel() != M))
    fail(std::string(kWhat) + ": bias 'B' must be int32 with " + std::to_string(M) + " values, got " + B.type_string());
  const Tensor acc = conv_integer_sums(op, in(x, 0), in(x, 2), W, in(x, 5), kWhat);
  std::vector<float> mult(static_cast<std::size_t>(M));
  for (std::int64_t m = 0; m < M; ++m) mult[static_cast<std::size_t>(m)] = sx * sw[sw.size() == 1 ? 0 : static_cast<std::size_t>(m)] / sy;
  const std::int64_t N = acc.rank() ? acc.dim(0) : 0, P = M ? acc.numel() / std::max<std::int64_t>(1, N * M) : 0;
  return {with_output_type(YZ.dtype(), [&]<typename Q>() {
    Tensor Y = Tensor::uninitialized(YZ.dtype(), acc.shape());
    const std::int32_t* a = acc.data<std::int32_t>();
    Q* y = Y.mutable_data<Q>();
    parallel_for_if(acc.numel() >= (1 << 15), N * M, [&](std::int64_t r) {
      const std::int64_t m = r % M;
      requantize<Q>(a + r * P, P, B.defined() ? B.data<std::int32_t>()[m] : 0, mult[static_cast<std::size_t>(m)], zy,
                    y + r * P);
    });
    return Y;
  })};
}

// a, a_scale, a_zero_point, b, b_scale, b_zero_point, y_scale, y_zero_point: a's scale per
// tensor or per row ([M]), b's per tensor or per column ([N]).
Outputs kernel_QLinearMatMul(const ir::Operation&, Inputs x) {
  constexpr const char* kWhat = "QLinearMatMul";
  const Tensor &A = in(x, 0), &Bm = in(x, 3), &YZ = in(x, 7);
  const std::int32_t zy = output_zero_point(YZ, kWhat);
  const Tensor acc = matmul_integer_sums(A, in(x, 2), Bm, in(x, 5), kWhat);
  const std::int64_t M = A.rank() >= 2 ? A.dim(A.rank() - 2) : 1, N = Bm.rank() >= 2 ? Bm.dim(Bm.rank() - 1) : 1;
  const std::vector<float> sa = scales(in(x, 1), M, kWhat, "a_scale"), sb = scales(in(x, 4), N, kWhat, "b_scale");
  const float sy = scales(in(x, 6), 0, kWhat, "y_scale")[0];
  // m[r][c] = a_scale[r] * b_scale[c] / y_scale (rows of the output's matrices)
  std::vector<float> mult(static_cast<std::size_t>(sa.size() * sb.size()));
  for (std::size_t r = 0; r < sa.size(); ++r)
    for (std::size_t c = 0; c < sb.size(); ++c) mult[r * sb.size() + c] = sa[r] * sb[c] / sy;
  return {with_output_type(YZ.dtype(), [&]<typename Q>() {
    Tensor Y = Tensor::uninitialized(YZ.dtype(), acc.shape());
    const std::int32_t* a = acc.data<std::int32_t>();
    Q* y = Y.mutable_data<Q>();
    const std::int64_t rows = N ? acc.numel() / N : 0;
    parallel_for_if(acc.numel() >= (1 << 15), rows, [&](std::int64_t r) {
      const std::size_t ri = sa.size() == 1 ? 0 : static_cast<std::size_t>(r % M);
      if (sb.size() == 1) {
        requantize<Q>(a + r * N, N, 0, mult[ri], zy, y + r * N);
      } else {
        requantize_each<Q>(a + r * N, N, mult.data() + ri * sb.size(), zy, y + r * N);
      }
    });
    return Y;
  })};
}

}  // namespace ec::runtime::kernels
