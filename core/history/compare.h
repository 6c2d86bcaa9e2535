// Comparing two recorded runs: every statistic side by side, its change, and
// whether the change exceeds run-to-run noise. Noise is judged from the two runs'
// own samples (two-sided, 95%):
//  - mean (and throughput, its reciprocal): Welch's t-test on the two means with
//    their sample stdevs and iteration counts; the change exceeds noise when p < 0.05;
//  - p50/p90/p95/p99: a percentile bootstrap of the difference (1000 resamples of
//    each run's recorded latencies, fixed seed); the change exceeds noise when the
//    95% interval excludes 0;
//  - single measurements (init, first inference, warm-up mean, min, max, stdev,
//    memory) have no noise model: their change is shown, the verdict is "n/a".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/history/run_store.h"

namespace ec::history {

struct StatChange {
  std::string key;    // "mean_ms"
  std::string label;  // "mean"
  std::string unit;   // "ms", "/s", "MiB"
  double a = 0, b = 0;
  double delta = 0;      // b - a
  double delta_pct = 0;  // 100 * (b - a) / a (0 when a is 0)
  std::string test;      // "welch", "bootstrap", or "" (no noise model)
  std::optional<bool> exceeds_noise;  // empty: no noise model, or too few runs
  double p_value = 1;                 // welch
  double ci_low = 0, ci_high = 0;     // bootstrap: 95% interval of b - a
};

struct Comparison {
  RunRecord a, b;
  std::vector<StatChange> rows;  // empty unless both runs have statistics
  std::vector<std::string> notes;
};

/// Two-sided p-value of Welch's t-test for the difference of two means.
/// n < 2 on either side, or both stdevs 0 with equal means, gives 1.
double welch_p_value(double mean_a, double sd_a, int n_a, double mean_b, double sd_b, int n_b);

/// Regularised incomplete beta function I_x(a, b) (continued fraction); exposed for tests.
double incomplete_beta(double a, double b, double x);

Comparison compare_runs(const RunRecord& a, const RunRecord& b);

nlohmann::json to_json(const Comparison& c);
std::string to_text(const Comparison& c);

}  // namespace ec::history
