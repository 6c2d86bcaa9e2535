// Resize (data movement family; own file for its size): nearest, linear and
// cubic, separable over every axis. For each axis and output index we list the
// (input index, weight) taps; an output element is
//   y[o] = sum over tap combinations of prod_axis(weight) * x[taps]
#include <cmath>

#include "core/runtime/kernels/common.h"

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
