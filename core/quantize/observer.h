// Calibration observers: what the float graph's activations look like over the
// calibration samples. One CalibrationObserver per activation tensor keeps the
// running min/max (the min/max observer) and a signed histogram whose range
// doubles as needed (the percentile observer reads |x| percentiles off it).
//
// observe() takes one run at a time. Concurrent calibration (stages/observe.cpp) splits
// it in three, with the same result bit for bit: extent() of each run anywhere,
// add_extent() in sample order (count, min/max, and the range R the run is binned
// at), then the run binned at that R into a HistogramBins of the thread's own,
// absorb()ed at the end (bins only ever merge by pairs, and counts add: neither
// depends on the order).
#pragma once

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace ec::quantize {

/// Min/max of one run of one tensor, and whether every value is finite.
struct Extent {
  float lo = 0, hi = 0;
  std::int64_t count = 0;
  bool finite = true;
};

/// kBins signed bins over [-R, R]; R (0 before any non-zero value) is a power of
/// two times the first one and only doubles, merging bin pairs.
class HistogramBins {
 public:
  static constexpr int kBins = 4096;

  float half_range() const { return half_range_; }
  /// Doubles R (merging bin pairs) up to `half_range`; from R = 0, takes it as is.
  void rescale(float half_range);
  /// Bins `values` at R = `half_range` (>= the current R; 0: the values are all 0).
  void add(std::span<const float> values, float half_range);
  /// Adds `other`'s counts (R of the same doubling chain; the result is at the larger R).
  void absorb(const HistogramBins& other);
  /// Back to no counts and R = 0 (the buffer is kept).
  void reset();
  /// Count of bin b (0 when nothing was binned).
  std::int64_t operator[](int b) const { return bins_.empty() ? 0 : bins_[static_cast<std::size_t>(b)]; }

 private:
  float half_range_ = 0;
  std::vector<std::int64_t> bins_;  // empty until the first add
};

class CalibrationObserver {
 public:
  /// Bins over [-R, R]; R is a power of two that doubles (merging bin pairs) when
  /// a value falls outside, so no value is ever dropped and no second pass is needed.
  static constexpr int kBins = HistogramBins::kBins;

  /// Adds values (one run of one tensor). Returns false if any is NaN or infinite.
  bool observe(std::span<const float> values);

  /// observe() in three steps (see the top of this file).
  static Extent extent(std::span<const float> values);
  /// In sample order: counts the run and returns the R to bin it at (a finite extent only).
  float add_extent(const Extent& e);
  /// The R add_extent() returns for a run of extent `e` when R is `half_range` now.
  static float grown_range(float half_range, const Extent& e);
  /// Bins binned elsewhere at the R add_extent() returned for their runs.
  void absorb(const HistogramBins& bins) {
    bins_.absorb(bins);
    bins_.rescale(half_range_);
  }

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
  float bin_centre(int b) const { return -half_range_ + (static_cast<float>(b) + 0.5f) * bin_width(); }
  float bin_width() const { return 2 * half_range_ / kBins; }

  std::int64_t count_ = 0;
  float min_ = 0, max_ = 0;
  float half_range_ = 0;  // R after every run counted so far; 0 until the first non-zero value
  HistogramBins bins_;    // binned at R, or at an earlier R of the chain until absorbed/rescaled
};

}  // namespace ec::quantize
