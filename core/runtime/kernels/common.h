// Helpers shared by the reference kernels: attribute access, axis handling,
// numpy broadcasting, errors.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/ir/graph.h"
#include "core/runtime/dispatch.h"
#include "core/runtime/kernels/kernels.h"
#include "core/runtime/kernels/vmath.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::kernels {

using Shape = std::vector<std::int64_t>;
using Inputs = std::span<const Tensor>;
using Outputs = std::vector<Tensor>;

/// Bad inputs for an op (the session prefixes the op's name).
[[noreturn]] inline void fail(const std::string& message) {
  throw EdgeCompilerError(ErrorKind::Graph, message);
}

/// Input i, or an undefined tensor when absent.
inline const Tensor& in(Inputs inputs, std::size_t i) {
  static const Tensor kNone;
  return i < inputs.size() ? inputs[i] : kNone;
}

inline double attr_float(const ir::Operation& op, const std::string& key, double fallback) {
  const ir::Attribute* a = op.attr(key);
  if (!a) return fallback;
  if (const auto* d = std::get_if<double>(a)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(a)) return static_cast<double>(*i);
  return fallback;
}
inline std::int64_t attr_int(const ir::Operation& op, const std::string& key, std::int64_t fallback) {
  return op.attr_int(key, fallback);
}
inline std::vector<std::int64_t> attr_ints(const ir::Operation& op, const std::string& key) {
  return op.attr_ints(key);
}
inline std::vector<double> attr_floats(const ir::Operation& op, const std::string& key) {
  const ir::Attribute* a = op.attr(key);
  if (const auto* v = a ? std::get_if<std::vector<double>>(a) : nullptr) return *v;
  return {};
}
inline std::string attr_str(const ir::Operation& op, const std::string& key, const std::string& fallback) {
  return op.attr_string(key, fallback);
}

/// Maps a possibly negative axis into [0, rank); fails when out of range.
// A scalar has no axis: kernels index the shape by the result (Split, Gather, ArgMax, TopK
// on a crafted rank-0 input crashed).
inline std::int64_t norm_axis(std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank)
    fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

/// Row-major strides of a shape.
inline Shape strides_of(const Shape& s) {
  Shape st(s.size(), 1);
  for (std::size_t i = s.size(); i-- > 1;) st[i - 1] = st[i] * s[i];
  return st;
}

/// numpy broadcasting of two shapes; fails when incompatible.
Shape broadcast_shapes(const Shape& a, const Shape& b);

/// Strides of `in` (right-aligned into `out`'s rank) with 0 on broadcast dims.
Shape broadcast_strides(const Shape& in, const Shape& out);

/// Calls f(out_index, offset_a, offset_b) for every element of `out`, where the
/// offsets index `a` and `b` broadcast to `out`. Contiguous fast paths inside.
template <typename F>
void for_each_broadcast2(const Shape& out, const Shape& a, const Shape& b, F&& f) {
  const std::int64_t n = shape_numel(out);
  if (n == 0) return;
  if (a == out && b == out) {
    for (std::int64_t i = 0; i < n; ++i) f(i, i, i);
    return;
  }
  const Shape sa = broadcast_strides(a, out), sb = broadcast_strides(b, out);
  const std::size_t r = out.size();
  if (r == 0) { f(0, 0, 0); return; }
  // Odometer over all but the last dim; the last dim is a tight loop.
  std::vector<std::int64_t> idx(r, 0);
  const std::int64_t inner = out[r - 1], ia = sa[r - 1], ib = sb[r - 1];
  std::int64_t oa = 0, ob = 0;
  for (std::int64_t o = 0; o < n; o += inner) {
    for (std::int64_t k = 0; k < inner; ++k) f(o + k, oa + k * ia, ob + k * ib);
    for (std::size_t d = r - 1; d-- > 0;) {
      ++idx[d];
      oa += sa[d];
      ob += sb[d];
      if (idx[d] < out[d]) break;
      oa -= sa[d] * out[d];
      ob -= sb[d] * out[d];
      idx[d] = 0;
    }
  }
}

/// Multi-index helper: offset of a full index under `strides`.
inline std::int64_t offset_of(const std::vector<std::int64_t>& idx, const Shape& strides) {
  std::int64_t o = 0;
  for (std::size_t i = 0; i < idx.size(); ++i) o += idx[i] * strides[i];
  return o;
}

/// Increments a multi-index over `shape` (row-major); false when it wraps.
inline bool next_index(std::vector<std::int64_t>& idx, const Shape& shape) {
  for (std::size_t d = shape.size(); d-- > 0;) {
    if (++idx[d] < shape[d]) return true;
    idx[d] = 0;
  }
  return false;
}

/// A dtype named by a string attribute ("f32", or an ONNX-style name).
ir::DType dtype_attr(const ir::Operation& op, const std::string& key, ir::DType fallback);

/// Applies an op's fused activation (ir::fused_activation, set by the FuseActivation pass)
/// in place: RELU, RELU6 = min(max(x, 0), 6), RELU_N1_TO_1 = min(max(x, -1), 1), SIGMOID,
/// TANH, HARD_SWISH, SILU, GELU, GELU_TANH; nothing for NONE.
void apply_fused_activation(const ir::Operation& op, Tensor& y);

/// When the op's fused activation is a clamp (NONE, RELU, RELU6, RELU_N1_TO_1), sets
/// [lo, hi] (infinite bounds for none) and returns true, so a kernel can fuse it into
/// its epilogue; false for the others (SIGMOID, TANH, ...), which apply_fused_activation does.
bool fused_clamp(const ir::Operation& op, float& lo, float& hi);
/// The op's fused activation without a clamp form (SIGMOID, TANH, HARD_SWISH, SILU, GELU,
/// GELU_TANH) as a gemm::Epilogue::strip_fn, applied while the GEMM's output is in cache;
/// null for NONE and the clamps.
using StripFn = void (*)(float* p, std::int64_t n);
StripFn fused_strip_fn(const ir::Operation& op);
/// The same for an activation.
StripFn strip_fn_for(ir::Activation act);
/// Every activation but NONE as a function applied in place over a piece of the output
/// still in cache (the clamps too: element-wise kernels have no epilogue of their own);
/// null for NONE.
StripFn activation_fn_for(ir::Activation act);

/// y = f(x) for an f32 tensor through vmath (vectorised, split over the current
/// thread pool); an undefined tensor for other dtypes (the caller's reference then runs).
inline Tensor vmath_unary(const Tensor& x, vmath::Fn f, float alpha = 0.f, float beta = 0.f) {
  if (x.dtype() != DType::Float32) return Tensor();
  Tensor y = Tensor::uninitialized(DType::Float32, x.shape());
  vmath::apply_parallel(f, x.data<float>(), y.mutable_data<float>(), x.numel(), alpha, beta);
  return y;
}

/// y = x permuted: y[i_perm[0], ..., i_perm[r-1]] = x[i_0, ..., i_{r-1}] (data_movement.cpp:
/// dims coalesced, 2-D transposes in register blocks, split over the pool from 1 MiB).
Tensor permute(const Tensor& x, const std::vector<std::int64_t>& perm);

/// Copies element `n` values of arbitrary dtype (bytewise).
inline void copy_bytes(void* dst, const void* src, std::size_t bytes) {
  if (bytes) std::memcpy(dst, src, bytes);
}

}  // namespace ec::runtime::kernels
