// MaxUnpool: the inverse of MaxPool with indices (the values go back to where MaxPool took
// them from; every other element is 0).
#include "core/runtime/kernels/common.h"

namespace ec::runtime::kernels {

// MaxUnpool: y (zeros, of output_shape, else of the shape MaxPool came from,
// (in - 1) * stride + kernel - pads) gets y.flat[I[k]] = x[k]. The indices address y's own
// layout, as in ONNX Runtime and PyTorch's max_unpool: MaxPool's indices of a 9-wide input
// come back through output_shape 9 (the inferred 8 could not hold them).
Outputs kernel_MaxUnpool(const ir::Operation& op, Inputs in_) {
  const Tensor &X = in(in_, 0), &I = in(in_, 1), &S = in(in_, 2);
  if (X.rank() < 3) fail("MaxUnpool: input must be at least 3-D, got " + X.type_string());
  if (I.shape() != X.shape()) fail("MaxUnpool: indices " + I.type_string() + " differ from the input " + X.type_string());
  const std::size_t sp = X.rank() - 2;
  const auto ks = attr_ints(op, "kernel_shape");
  auto strides = attr_ints(op, "strides"), pads = attr_ints(op, "pads");
  if (strides.empty()) strides.assign(sp, 1);
  if (pads.empty()) pads.assign(2 * sp, 0);
  if (ks.size() != sp || strides.size() != sp || pads.size() != 2 * sp)
    fail("MaxUnpool: kernel_shape/strides/pads do not match " + std::to_string(sp) + " spatial dims");
  Shape y{X.dim(0), X.dim(1)};
  for (std::size_t d = 0; d < sp; ++d) y.push_back((X.dim(d + 2) - 1) * strides[d] + ks[d] - pads[d] - pads[sp + d]);
  if (S.defined()) {
    y = S.to_int64_vector();
    if (y.size() != X.rank())
      fail("MaxUnpool: output_shape has " + std::to_string(y.size()) + " dims for a rank-" + std::to_string(X.rank()) + " input");
  }
  for (auto d : y)
    if (d < 0) fail("MaxUnpool: negative output size " + shape_string(y));
  Tensor Y(X.dtype(), y);
  const std::int64_t n = Y.numel();
  dispatch_by_size(X.dtype(), [&]<typename T>() {
    const T* x = X.data<T>();
    T* out = Y.mutable_data<T>();
    for (std::int64_t k = 0; k < X.numel(); ++k) {
      const std::int64_t j = I.get_int(k);
      if (j < 0 || j >= n) fail("MaxUnpool: index " + std::to_string(j) + " is outside the output " + shape_string(y));
      out[j] = x[k];
    }
  }, "MaxUnpool");
  return {Y};
}

}  // namespace ec::runtime::kernels
