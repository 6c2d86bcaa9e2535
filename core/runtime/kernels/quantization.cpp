// QuantizeLinear / DequantizeLinear / DynamicQuantizeLinear (ONNX semantics:
// round half to even, saturate to the storage type).
//   q = saturate(round(x / scale) + zero_point)      x = (q - zero_point) * scale
#include <cmath>
#include <limits>

#include "core/runtime/kernels/common.h"
#include "core/runtime/quantized/igemm.h"

namespace ec::runtime::kernels {
namespace {

// Index of the scale/zero point for element i: per tensor, or per channel along axis.
struct QuantAxis {
  std::int64_t inner = 1, channels = 1;
  std::int64_t of(std::int64_t i) const { return channels == 1 ? 0 : (i / inner) % channels; }
};

QuantAxis quant_axis(const ir::Operation& op, const Tensor& x, const Tensor& scale) {
  QuantAxis q;
  if (scale.numel() <= 1 && scale.rank() == 0) return q;
  if (scale.rank() == 1 && scale.numel() == 1 && x.rank() == 0) return q;
  if (scale.rank() == 0 || scale.numel() == 1) return q;
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 1), static_cast<std::int64_t>(x.rank()));
  q.channels = x.dim(static_cast<std::size_t>(axis));
  if (scale.numel() != q.channels) fail("scale has " + std::to_string(scale.numel()) + " values for " + std::to_string(q.channels) + " channels");
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < x.rank(); ++d) q.inner *= x.dim(d);
  return q;
}

template <typename Q>
Q saturate_round(double v) {
  const double r = std::nearbyint(v);
  return static_cast<Q>(std::clamp(r, double(std::numeric_limits<Q>::lowest()), double(std::numeric_limits<Q>::max())));
}

}  // namespace

Outputs kernel_QuantizeLinear(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &S = x[1], &Z = in(x, 2);
  const DType qt = Z.defined() ? Z.dtype() : DType::UInt8;
  const QuantAxis qa = quant_axis(op, X, S);
  return {dispatch_integer(qt, [&]<typename Q>() {
    Tensor Y = Tensor::uninitialized(qt, X.shape());  // every element written below
    Q* y = Y.mutable_data<Q>();
    if (X.dtype() == DType::Float32 && S.dtype() == DType::Float32 && S.numel() == 1) {
      // Per tensor, f32: the loop below without the per-element dispatch (same arithmetic).
      const float* xs = X.data<float>();
      const float s = S.data<float>()[0];
      const double zp = Z.defined() ? Z.get_double(0) : 0.0;
      if constexpr (sizeof(Q) == 1) {
        if (quantized::use_avx2()) {  // the int8 graphs' input edge: vectorised, same integers
          quantized::quantize_linear_avx2(xs, X.numel(), s, static_cast<std::int32_t>(zp),
                                          std::numeric_limits<Q>::lowest(), std::numeric_limits<Q>::max(),
                                          std::is_unsigned_v<Q>, y);
          return Y;
        }
      }
      for (std::int64_t i = 0; i < X.numel(); ++i) y[i] = saturate_round<Q>(double(std::nearbyint(xs[i] / s)) + zp);
      return Y;
    }
    for (std::int64_t i = 0; i < X.numel(); ++i) {
      const std::int64_t c = qa.of(i);
      const double zp = Z.defined() ? Z.get_double(c) : 0.0;
      // Divide in the input's precision (f32 for f32 inputs), as the ONNX reference does.
      const double r = X.dtype() == DType::Float64
                           ? std::nearbyint(X.get_double(i) / S.get_double(c))
                           : double(std::nearbyint(static_cast<float>(X.get_double(i)) / static_cast<float>(S.get_double(c))));
      y[i] = saturate_round<Q>(r + zp);
    }
    return Y;
  }, "QuantizeLinear")};
}

Outputs kernel_DequantizeLinear(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &S = x[1], &Z = in(x, 2);
  const QuantAxis qa = quant_axis(op, X, S);
  Tensor Y = Tensor::uninitialized(S.dtype() == DType::Float64 ? DType::Float64 : DType::Float32, X.shape());
  const bool byte_q = X.dtype() == DType::Int8 || X.dtype() == DType::UInt8;
  if (byte_q && S.dtype() == DType::Float32 && S.numel() == 1 && quantized::use_avx2() &&
      (!Z.defined() || Z.dtype() == X.dtype())) {
    // The int8 graphs' float islands: per tensor, vectorised, the same floats as the loop below.
    quantized::dequantize_linear_avx2(X.raw(), X.dtype() == DType::UInt8, X.numel(), S.data<float>()[0],
                                      Z.defined() ? static_cast<std::int32_t>(Z.get_double(0)) : 0,
                                      Y.mutable_data<float>());
    return {Y};
  }
  dispatch_float(Y.dtype(), [&]<typename T>() {
    T* y = Y.mutable_data<T>();
    for (std::int64_t i = 0; i < X.numel(); ++i) {
      const std::int64_t c = qa.of(i);
      const double zp = Z.defined() ? Z.get_double(c) : 0.0;
      y[i] = static_cast<T>((X.get_double(i) - zp) * S.get_double(c));
    }
  });
  return {Y};
}

// u8, range always including 0: scale = (max(0, max x) - min(0, min x)) / 255,
// zero_point = saturate(round(-min / scale)).
Outputs kernel_DynamicQuantizeLinear(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  double lo = 0, hi = 0;
  for (std::int64_t i = 0; i < X.numel(); ++i) {
    lo = std::min(lo, X.get_double(i));
    hi = std::max(hi, X.get_double(i));
  }
  const float scale = static_cast<float>((hi - lo) / 255.0);
  // Computed in f32 like the ONNX reference, so halves round the same way.
  const std::uint8_t zp = scale == 0 ? 0 : saturate_round<std::uint8_t>((0.f - static_cast<float>(lo)) / scale);
  Tensor Y(DType::UInt8, X.shape());
  for (std::int64_t i = 0; i < X.numel(); ++i) {
    const float q = std::nearbyint(static_cast<float>(X.get_double(i)) / scale);
    Y.mutable_data<std::uint8_t>()[i] = scale == 0 ? zp : saturate_round<std::uint8_t>(double(q) + zp);
  }
  return {Y, Tensor::scalar<float>(DType::Float32, scale), Tensor::scalar<std::uint8_t>(DType::UInt8, zp)};
}

}  // namespace ec::runtime::kernels
