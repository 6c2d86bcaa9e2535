// Calibration observers: what the float graph's activations look like over the
// calibration samples. One CalibrationObserver per activation tensor keeps the
// running min/max (the min/max observer) and a signed histogram whose range
// doubles as needed (the percentile observer reads |x| percentiles off it).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ec::quantize {

class CalibrationObserver {
 public:
  /// Bins over [-R, R]; R is a power of two that doubles (merging bin pairs) when
  /// a value falls outside, so no value is ever dropped and no second pass is needed.
  static constexpr int kBins = 4096;

  /// Adds values (one run of one tensor). Returns false if any is NaN or infinite.
  bool observe(std::span<const float> values);

  bool empty() const { return count_ == 0; }
  std::int64_t count() const { return count_; }
  float min() const { return min_; }
  float max() const { return max_; }

  /// Clipping range: [min, max] for percentile >= 100; else the p-th percentile T
  /// of |x| gives [max(min, -T), min(max, T)].
  std::pair<float, float> range(double percentile) const;
  /// Share of observed values outside [lo, hi] (from the histogram: bin resolution).
  double clip_fraction(float lo, float hi) const;
  /// `bins` equal bins over [lo, hi] (counts of the histogram bins whose centres fall in each).
  std::vector<std::int64_t> histogram(float lo, float hi, int bins) const;

 private:
  void grow_to(float abs_value);
  float bin_centre(int b) const { return -half_range_ + (static_cast<float>(b) + 0.5f) * bin_width(); }
  float bin_width() const { return 2 * half_range_ / kBins; }

  std::int64_t count_ = 0;
  float min_ = 0, max_ = 0;
  float half_range_ = 0;  // R; 0 until the first non-zero value
  std::vector<std::int64_t> bins_ = std::vector<std::int64_t>(kBins, 0);
};

}  // namespace ec::quantize
