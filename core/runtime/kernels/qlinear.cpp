// QLinearConv and QLinearMatMul: ONNX Runtime's quantised format (what its quantiser
// writes in QOperator form). The exact int32 products (kernels/integer_ops.cpp), then
//
//   y = saturate(round_half_even(float(acc + bias) * m) + y_zp),   m = x_scale * w_scale / y_scale
//
// with m computed in float, per output channel (Conv) or per row and column (MatMul),
// as ONNX Runtime computes it (MlasRequantizeOutput), so outputs equal its outputs.
#include <cmath>
#include <limits>

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

// out[i] = clamp(nearbyint(float(acc[i] + bias) * m) + zp) for i < n (round half to even
// in the default rounding mode, as ONNX Runtime's requantisation).
template <typename Q>
void requantize(const std::int32_t* acc, std::int64_t n, std::int32_t bias, float m, std::int32_t zp, Q* out) {
  const float lo = float(std::numeric_limits<Q>::lowest()) - float(zp), hi = float(std::numeric_limits<Q>::max()) - float(zp);
  for (std::int64_t i = 0; i < n; ++i) {
    const float v = std::clamp(float(std::int64_t(acc[i]) + bias) * m, lo, hi);
    out[i] = static_cast<Q>(static_cast<std::int32_t>(std::nearbyint(v)) + zp);
  }
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
        for (std::int64_t c = 0; c < N; ++c)
          requantize<Q>(a + r * N + c, 1, 0, mult[ri * sb.size() + static_cast<std::size_t>(c)], zy, y + r * N + c);
      }
    });
    return Y;
  })};
}

}  // namespace ec::runtime::kernels
