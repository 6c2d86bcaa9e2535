// Generators: ConstantOfShape and Range.
#include <cmath>

#include "core/runtime/kernels/common.h"

namespace ec::runtime::kernels {

// A tensor of `shape` filled with the value attribute (default f32 0).
Outputs kernel_ConstantOfShape(const ir::Operation& op, Inputs x) {
  const Shape shape = x[0].to_int64_vector();
  for (auto d : shape) if (d < 0) fail("negative dimension in " + shape_string(shape));
  const ir::Attribute* a = op.attr("value");
  const auto* tv = a ? std::get_if<ir::TensorValue>(a) : nullptr;
  if (!tv) return {Tensor(DType::Float32, shape)};
  const std::size_t es = ir::dtype_size(tv->dtype);
  if (es == 0 || tv->data.size() < es) fail("value attribute must hold one element");
  Tensor Y(tv->dtype, shape);
  for (std::int64_t i = 0; i < Y.numel(); ++i)
    std::memcpy(Y.mutable_raw() + static_cast<std::size_t>(i) * es, tv->data.data(), es);
  return {Y};
}

// y[i] = start + i * delta, count = max(ceil((limit - start) / delta), 0)
Outputs kernel_Range(const ir::Operation&, Inputs x) {
  const Tensor& S = x[0];
  return {dispatch_numeric(S.dtype(), [&]<typename T>() {
    const T start = S.data<T>()[0], limit = x[1].data<T>()[0], delta = x[2].data<T>()[0];
    if (delta == T(0)) fail("delta cannot be 0");
    const double count = std::ceil((double(limit) - double(start)) / double(delta));
    const auto n = static_cast<std::int64_t>(std::max(0.0, count));
    if (n > (std::int64_t{1} << 32)) fail("range of " + std::to_string(n) + " elements is too large");
    Tensor Y(S.dtype(), {n});
    for (std::int64_t i = 0; i < n; ++i) Y.mutable_data<T>()[i] = static_cast<T>(start + static_cast<T>(i) * delta);
    return Y;
  })};
}

}  // namespace ec::runtime::kernels

namespace ec::runtime::kernels {
namespace {

// w[n] = sum_k a_k cos(2 pi k n / N), N = size (periodic) or size - 1 (symmetric).
Outputs window(const ir::Operation& op, Inputs x, std::vector<double> a) {
  const std::int64_t size = x[0].get_int(0);
  if (size < 0) fail("window size must not be negative");
  const bool periodic = attr_int(op, "periodic", 1) != 0;
  const DType dt = dtype_attr(op, "output_datatype", DType::Float32);
  const double N = periodic ? double(size) : double(size - 1);
  return {dispatch_numeric(dt, [&]<typename T>() {
    Tensor Y(dt, {size});
    for (std::int64_t n = 0; n < size; ++n) {
      double v = 0;
      for (std::size_t k = 0; k < a.size(); ++k) v += a[k] * std::cos(2 * M_PI * double(k) * double(n) / N);
      Y.mutable_data<T>()[n] = static_cast<T>(v);
    }
    return Y;
  })};
}

}  // namespace

// 0.5 - 0.5 cos(2 pi n / N)
Outputs kernel_HannWindow(const ir::Operation& op, Inputs x) { return window(op, x, {0.5, -0.5}); }
// alpha - beta cos(2 pi n / N), alpha = 25/46, beta = 21/46
Outputs kernel_HammingWindow(const ir::Operation& op, Inputs x) { return window(op, x, {25.0 / 46, -21.0 / 46}); }
// 0.42 - 0.5 cos(2 pi n / N) + 0.08 cos(4 pi n / N)
Outputs kernel_BlackmanWindow(const ir::Operation& op, Inputs x) { return window(op, x, {0.42, -0.5, 0.08}); }

}  // namespace ec::runtime::kernels
