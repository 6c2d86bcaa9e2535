// Resize (data movement family; own file for its size): nearest, linear and
// cubic, separable over every axis. For each axis and output index we list the
// (input index, weight) taps; an output element is
//   y[o] = sum over tap combinations of prod_axis(weight) * x[taps]
// That sum (in double) is the reference. Float tensors take the separable form
// instead: one 1-D pass per resized axis, innermost axis first, each over a
// [outer, len, inner] view, where an output row is the weighted sum of whole
// input rows of `inner` contiguous values (vectorised; AVX2 when the CPU has
// it) and the passes are split over the thread pool. Either layout (NCHW, or an
// NHWC twin of the layout pass) is just another view.
#include <cmath>
#include <immintrin.h>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

struct Tap {
  std::int64_t index;
  double weight;
};

// Output coordinate -> input coordinate.
// out_len_f is the unrounded output length (in_len * scale when scales are given).
double to_input(const std::string& mode, double o, double scale, std::int64_t in_len, std::int64_t out_len,
                double out_len_f, double roi_start, double roi_end, bool& outside) {
  outside = false;
  if (mode == "asymmetric") return o / scale;
  if (mode == "tf_half_pixel_for_nn") return (o + 0.5) / scale;  // opset 11
  if (mode == "align_corners") return out_len == 1 ? 0.0 : o * double(in_len - 1) / (out_len_f - 1);
  if (mode == "pytorch_half_pixel") return out_len > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
  if (mode == "tf_crop_and_resize") {
    const double v = out_len > 1 ? roi_start * double(in_len - 1) + o * (roi_end - roi_start) * double(in_len - 1) / double(out_len - 1)
                                 : 0.5 * (roi_start + roi_end) * double(in_len - 1);
    outside = v < 0 || v > double(in_len - 1);
    return v;
  }
  if (mode == "half_pixel_symmetric") {
    const double adj = double(out_len) / (scale * double(in_len));
    const double center = double(in_len) / 2.0;
    const double offset = center * (1 - adj);
    return offset + (o + 0.5) / scale - 0.5;
  }
  if (mode != "half_pixel") fail("unknown coordinate_transformation_mode '" + mode + "'");
  return (o + 0.5) / scale - 0.5;
}

std::vector<double> cubic_weights(double t, double A) {
  auto w = [A](double d) {  // Keys cubic kernel, d = |distance|
    d = std::abs(d);
    if (d <= 1) return ((A + 2) * d - (A + 3)) * d * d + 1;
    if (d < 2) return ((A * d - 5 * A) * d + 8 * A) * d - 4 * A;
    return 0.0;
  };
  return {w(t + 1), w(t), w(1 - t), w(2 - t)};
}

// y[i] = sum_t w[t] * rows[t][i], i < n.
void weighted_rows_generic(const float* const* rows, const float* w, int taps, float* y, std::int64_t n) {
  for (std::int64_t i = 0; i < n; ++i) {
    float acc = w[0] * rows[0][i];
    for (int t = 1; t < taps; ++t) acc += w[t] * rows[t][i];
    y[i] = acc;
  }
}

__attribute__((target("avx2,fma"))) void weighted_rows_avx2(const float* const* rows, const float* w, int taps,
                                                            float* y, std::int64_t n) {
  std::int64_t i = 0;
  if (taps == 2) {  // linear: the common case
    const __m256 w0 = _mm256_set1_ps(w[0]), w1 = _mm256_set1_ps(w[1]);
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(y + i, _mm256_fmadd_ps(w1, _mm256_loadu_ps(rows[1] + i), _mm256_mul_ps(w0, _mm256_loadu_ps(rows[0] + i))));
  } else {
    for (; i + 8 <= n; i += 8) {
      __m256 acc = _mm256_mul_ps(_mm256_set1_ps(w[0]), _mm256_loadu_ps(rows[0] + i));
      for (int t = 1; t < taps; ++t) acc = _mm256_fmadd_ps(_mm256_set1_ps(w[t]), _mm256_loadu_ps(rows[t] + i), acc);
      _mm256_storeu_ps(y + i, acc);
    }
  }
  for (; i < n; ++i) {
    float acc = w[0] * rows[0][i];
    for (int t = 1; t < taps; ++t) acc += w[t] * rows[t][i];
    y[i] = acc;
  }
}

// One axis's taps flattened: output o reads count[o] taps from first[o].
struct AxisTaps {
  std::vector<std::int32_t> first, count;
  std::vector<std::int64_t> index;
  std::vector<float> weight;
  int max_taps = 0;
};

AxisTaps flatten(const std::vector<std::vector<Tap>>& taps) {
  AxisTaps a;
  for (const auto& t : taps) {
    a.first.push_back(static_cast<std::int32_t>(a.index.size()));
    a.count.push_back(static_cast<std::int32_t>(t.size()));
    a.max_taps = std::max(a.max_taps, static_cast<int>(t.size()));
    for (const Tap& tp : t) {
      a.index.push_back(tp.index);
      a.weight.push_back(static_cast<float>(tp.weight));
    }
  }
  return a;
}

bool identity_axis(const std::vector<std::vector<Tap>>& taps, std::int64_t in_len) {
  if (static_cast<std::int64_t>(taps.size()) != in_len) return false;
  for (std::size_t o = 0; o < taps.size(); ++o)
    if (taps[o].size() != 1 || taps[o][0].index != static_cast<std::int64_t>(o) || taps[o][0].weight != 1.0) return false;
  return true;
}

// x [outer, len, inner] -> y [outer, a.first.size(), inner] along the middle axis.
void resize_axis(const float* x, float* y, std::int64_t outer, std::int64_t len, std::int64_t inner, const AxisTaps& a) {
  const auto out_len = static_cast<std::int64_t>(a.first.size());
  const std::int64_t rows = outer * out_len;
  const auto fn = gemm::active_isa() == gemm::Isa::Generic ? weighted_rows_generic : weighted_rows_avx2;
  // Chunks of about 16k outputs, at least one row each.
  const std::int64_t per = std::max<std::int64_t>(1, (std::int64_t(1) << 14) / std::max<std::int64_t>(inner, 1));
  const std::int64_t chunks = (rows + per - 1) / per;
  parallel_for_if(rows * inner >= (std::int64_t(1) << 15), chunks, [&](std::int64_t c) {
    const float* rp[8];
    for (std::int64_t r = c * per, end = std::min(rows, r + per); r < end; ++r) {
      const std::int64_t ou = r / out_len, o = r % out_len;
      const float* xo = x + ou * len * inner;
      float* yr = y + r * inner;
      const std::int32_t f = a.first[static_cast<std::size_t>(o)], n = a.count[static_cast<std::size_t>(o)];
      if (inner == 1) {
        float acc = 0;
        for (std::int32_t t = 0; t < n; ++t) acc += a.weight[static_cast<std::size_t>(f + t)] * xo[a.index[static_cast<std::size_t>(f + t)]];
        *yr = acc;
        continue;
      }
      if (n == 1 && a.weight[static_cast<std::size_t>(f)] == 1.f) {
        std::copy_n(xo + a.index[static_cast<std::size_t>(f)] * inner, inner, yr);
        continue;
      }
      for (std::int32_t t = 0; t < n; ++t) rp[t] = xo + a.index[static_cast<std::size_t>(f + t)] * inner;
      fn(rp, a.weight.data() + f, n, yr, inner);
    }
  });
}

}  // namespace

Outputs kernel_Resize(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const std::size_t r = X.rank();
  const Tensor &roi_t = in(x, 1), &scales_t = in(x, 2), &sizes_t = in(x, 3);
  std::vector<double> scales(r, 1.0), roi(2 * r, 0.0), out_len_f(r);
  for (std::size_t d = 0; d < r; ++d) roi[r + d] = 1.0;
  Shape out = X.shape();
  if (sizes_t.defined() && sizes_t.numel() > 0) {
    const auto s = sizes_t.to_int64_vector();
    if (s.size() != r) fail("sizes has " + std::to_string(s.size()) + " values for " + X.type_string());
    for (std::size_t d = 0; d < r; ++d) {
      out[d] = s[d];
      out_len_f[d] = double(s[d]);
      scales[d] = X.dim(d) ? double(s[d]) / double(X.dim(d)) : 1.0;
    }
  } else if (scales_t.defined() && scales_t.numel() > 0) {
    const auto s = scales_t.to_float_vector();
    if (s.size() != r) fail("scales has " + std::to_string(s.size()) + " values for " + X.type_string());
    for (std::size_t d = 0; d < r; ++d) {
      if (s[d] <= 0) fail("scales must be positive");
      scales[d] = s[d];
      out_len_f[d] = double(X.dim(d)) * s[d];
      out[d] = static_cast<std::int64_t>(std::floor(out_len_f[d]));
    }
  } else {
    fail("needs scales or sizes");
  }
  if (roi_t.defined() && roi_t.numel() == static_cast<std::int64_t>(2 * r)) {
    const auto v = roi_t.to_float_vector();
    for (std::size_t i = 0; i < 2 * r; ++i) roi[i] = v[i];
  }
  const std::string mode = attr_str(op, "mode", "nearest");
  const std::string ctm = attr_str(op, "coordinate_transformation_mode", "half_pixel");
  const std::string nearest = attr_str(op, "nearest_mode", "round_prefer_floor");
  const double A = attr_float(op, "cubic_coeff_a", -0.75);
  const bool exclude_outside = attr_int(op, "exclude_outside", 0) != 0;
  const double extrapolation = attr_float(op, "extrapolation_value", 0.0);
  if (mode != "nearest" && mode != "linear" && mode != "cubic") fail("unknown mode '" + mode + "'");

  // Per axis, per output index: its taps (empty = outside the roi -> extrapolation value).
  std::vector<std::vector<std::vector<Tap>>> taps(r);
  for (std::size_t d = 0; d < r; ++d) {
    const std::int64_t n = X.dim(d);
    taps[d].resize(static_cast<std::size_t>(out[d]));
    for (std::int64_t o = 0; o < out[d]; ++o) {
      auto& t = taps[d][static_cast<std::size_t>(o)];
      if (out[d] == n && scales[d] == 1.0 && ctm != "tf_crop_and_resize") { t.push_back({o, 1.0}); continue; }
      bool outside = false;
      double xi = to_input(ctm, double(o), scales[d], n, out[d], out_len_f[d], roi[d], roi[r + d], outside);
      if (outside) continue;
      if (mode == "nearest") {
        double f;
        if (nearest == "round_prefer_ceil") f = std::round(xi);  // halves away from zero
        else if (nearest == "floor") f = std::floor(xi);
        else if (nearest == "ceil") f = std::ceil(xi);
        else f = (xi == std::floor(xi) + 0.5) ? std::floor(xi) : std::round(xi);
        t.push_back({std::clamp<std::int64_t>(static_cast<std::int64_t>(f), 0, n - 1), 1.0});
      } else if (mode == "linear") {
        xi = std::clamp(xi, 0.0, double(n - 1));
        const auto i0 = static_cast<std::int64_t>(std::floor(xi));
        const std::int64_t i1 = std::min(i0 + 1, n - 1);
        const double w = xi - double(i0);
        t.push_back({i0, 1.0 - w});
        if (w > 0) t.push_back({i1, w});
      } else {
        const auto i0 = static_cast<std::int64_t>(std::floor(xi));
        const auto w = cubic_weights(xi - double(i0), A);
        double sum = 0;
        for (int k = 0; k < 4; ++k) {
          const std::int64_t idx = i0 - 1 + k;
          if (exclude_outside && (idx < 0 || idx >= n)) continue;
          t.push_back({std::clamp<std::int64_t>(idx, 0, n - 1), w[static_cast<std::size_t>(k)]});
          sum += w[static_cast<std::size_t>(k)];
        }
        if (exclude_outside && sum != 0)
          for (auto& tp : t) tp.weight /= sum;
      }
    }
  }
  // Float tensors, every output inside the roi, at most 8 taps per output: the separable form.
  bool separable = X.dtype() == DType::Float32;
  for (std::size_t d = 0; d < r && separable; ++d)
    for (const auto& t : taps[d])
      if (t.empty() || t.size() > 8) separable = false;
  if (separable) {
    Shape cur = X.shape();
    Tensor Y = Tensor::uninitialized(DType::Float32, out);
    if (Y.numel() == 0) return {Y};
    Tensor buf[2];
    const float* src = X.data<float>();
    std::vector<std::size_t> axes;
    for (std::size_t d = r; d-- > 0;)
      if (!identity_axis(taps[d], X.dim(d))) axes.push_back(d);
    if (axes.empty()) {
      std::copy_n(src, Y.numel(), Y.mutable_data<float>());
      return {Y};
    }
    for (std::size_t k = 0; k < axes.size(); ++k) {
      const std::size_t d = axes[k];
      std::int64_t outer = 1, inner = 1;
      for (std::size_t i = 0; i < d; ++i) outer *= cur[i];
      for (std::size_t i = d + 1; i < r; ++i) inner *= cur[i];
      const std::int64_t len = cur[d];
      cur[d] = out[d];
      float* dst;
      if (k + 1 == axes.size()) {
        dst = Y.mutable_data<float>();
      } else {
        buf[k % 2] = Tensor::uninitialized(DType::Float32, cur);
        dst = buf[k % 2].mutable_data<float>();
      }
      resize_axis(src, dst, outer, len, inner, flatten(taps[d]));
      src = dst;
    }
    return {Y};
  }
  const Shape st = strides_of(X.shape());
  return {dispatch_numeric(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    std::vector<std::int64_t> idx(r, 0), tap(r, 0);
    const T* p = X.data<T>();
    for (std::int64_t i = 0; i < Y.numel(); ++i, next_index(idx, out)) {
      bool outside = false;
      Shape counts(r);
      for (std::size_t d = 0; d < r; ++d) {
        counts[d] = static_cast<std::int64_t>(taps[d][static_cast<std::size_t>(idx[d])].size());
        if (counts[d] == 0) outside = true;
      }
      if (outside) { Y.mutable_data<T>()[i] = static_cast<T>(extrapolation); continue; }
      double acc = 0;
      std::fill(tap.begin(), tap.end(), 0);
      do {
        double w = 1;
        std::int64_t off = 0;
        for (std::size_t d = 0; d < r; ++d) {
          const Tap& t = taps[d][static_cast<std::size_t>(idx[d])][static_cast<std::size_t>(tap[d])];
          w *= t.weight;
          off += t.index * st[d];
        }
        acc += w * double(p[off]);
      } while (next_index(tap, counts));
      if constexpr (std::is_integral_v<T>) Y.mutable_data<T>()[i] = static_cast<T>(std::nearbyint(acc));
      else Y.mutable_data<T>()[i] = static_cast<T>(acc);
    }
    return Y;
  })};
}

}  // namespace ec::runtime::kernels
