#include "core/quantize/observer.h"

#include <algorithm>
#include <cmath>

#include "core/runtime/quantized/igemm.h"

namespace ec::quantize {

void CalibrationObserver::grow_to(float a) {
  if (half_range_ == 0) {
    // Smallest power of two >= a (at least 2^-20, so tiny tensors keep a usable resolution).
    half_range_ = std::exp2(std::ceil(std::log2(std::max(a, 1e-6f))));
    if (half_range_ < a) half_range_ *= 2;
    return;
  }
  while (a > half_range_) {
    // Doubling R: new bin j covers old bins 2(j - kBins/4) and 2(j - kBins/4) + 1.
    std::vector<std::int64_t> merged(kBins, 0);
    for (int b = 0; b < kBins; ++b) merged[kBins / 4 + b / 2] += bins_[b];
    bins_.swap(merged);
    half_range_ *= 2;
  }
}

bool CalibrationObserver::observe(std::span<const float> values) {
  if (values.empty()) return true;
  const bool avx2 = runtime::quantized::use_avx2();
  const auto n = static_cast<std::int64_t>(values.size());
  float lo = values[0], hi = values[0];
  bool finite = true;
  if (avx2) {
    finite = runtime::quantized::minmax_finite_avx2(values.data(), n, lo, hi);
  } else {
    for (float v : values) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
      finite &= std::isfinite(v);
    }
  }
  if (!finite) return false;
  if (count_ == 0) {
    min_ = lo;
    max_ = hi;
  } else {
    min_ = std::min(min_, lo);
    max_ = std::max(max_, hi);
  }
  count_ += static_cast<std::int64_t>(values.size());
  const float a = std::max(std::abs(lo), std::abs(hi));
  if (a > 0) grow_to(a);
  if (half_range_ == 0) {
    bins_[kBins / 2] += static_cast<std::int64_t>(values.size());  // all zeros
    return true;
  }
  const float inv = kBins / (2 * half_range_);
  if (avx2) {
    runtime::quantized::histogram_avx2(values.data(), n, half_range_, inv, kBins, bins_.data());
    return true;
  }
  for (float v : values) {
    int b = static_cast<int>((v + half_range_) * inv);
    bins_[static_cast<std::size_t>(std::clamp(b, 0, kBins - 1))]++;
  }
  return true;
}

std::pair<float, float> CalibrationObserver::range(double percentile) const {
  // The range always contains 0 (zero must be exactly representable: padding, ReLU).
  float lo = std::min(min_, 0.f), hi = std::max(max_, 0.f);
  if (percentile >= 100 || count_ == 0 || half_range_ == 0) return {lo, hi};
  // |x| percentile: fold the signed bins around 0 and walk up from the centre.
  const double target = percentile / 100.0 * static_cast<double>(count_);
  double seen = 0;
  float t = half_range_;
  for (int k = 0; k < kBins / 2; ++k) {
    seen += static_cast<double>(bins_[kBins / 2 + k] + bins_[kBins / 2 - 1 - k]);
    if (seen >= target) {
      t = (static_cast<float>(k) + 1) * bin_width();
      break;
    }
  }
  return {std::max(lo, -t), std::min(hi, t)};
}

double CalibrationObserver::clip_fraction(float lo, float hi) const {
  if (count_ == 0 || half_range_ == 0) return 0;
  if (lo <= min_ && hi >= max_) return 0;
  std::int64_t out = 0;
  for (int b = 0; b < kBins; ++b) {
    const float c = bin_centre(b);
    if (c < lo || c > hi) out += bins_[b];
  }
  return static_cast<double>(out) / static_cast<double>(count_);
}

std::vector<std::int64_t> CalibrationObserver::histogram(float lo, float hi, int bins) const {
  std::vector<std::int64_t> h(static_cast<std::size_t>(std::max(bins, 1)), 0);
  if (count_ == 0) return h;
  if (half_range_ == 0 || !(hi > lo)) {
    h[0] = count_;
    return h;
  }
  for (int b = 0; b < kBins; ++b) {
    if (!bins_[b]) continue;
    const float c = bin_centre(b);
    const int k = static_cast<int>((c - lo) / (hi - lo) * static_cast<float>(bins));
    h[static_cast<std::size_t>(std::clamp(k, 0, bins - 1))] += bins_[b];
  }
  return h;
}

}  // namespace ec::quantize
