// Stats: the ONE record of a benchmark run, used by every reader — the CLI's
// text, --json and --csv, the run history (core/history) and the workbench's
// charts. Computed by summarise() from the recorded per-iteration latencies;
// the definitions (percentiles, stdev) are stated here and nowhere else.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace ec::runtime {

/// Mean time of one op over the profiled runs.
struct OpTime {
  std::string name, op_type;
  double ms = 0;
};

/// Latency statistics of a benchmark, in milliseconds unless named otherwise.
struct Stats {
  /// Opening the model and preparing the session (load + prepare), timed once;
  /// 0 when the runner was handed a session already loaded.
  double init_ms = 0;
  /// The first run after load, timed on its own: it pays one-off costs (weight
  /// packing, buffer allocation) and is never part of the statistics below.
  double first_ms = 0;
  /// Warm-up runs after the first, and their mean (0 when there were none).
  int warmup = 0;
  double warmup_mean_ms = 0;
  /// Steady state: the timed runs after the first and the warm-up.
  int iterations = 0;
  double mean_ms = 0, stdev_ms = 0, min_ms = 0, max_ms = 0;
  double p50_ms = 0, p90_ms = 0, p95_ms = 0, p99_ms = 0;
  double throughput = 0;  // inferences per second (1000 / mean_ms)
  /// Resident-set high-water mark of the process during the run (VmHWM, reset at
  /// the start of the run where Linux allows it; else the process's peak so far).
  std::uint64_t peak_rss_bytes = 0;
  bool peak_rss_reset = false;  // true when the high-water mark was reset at the start
  /// The session's activation arena (buffers of computed tensors).
  std::uint64_t arena_bytes = 0;
  int threads = 0;
  /// Every timed run's latency, in the order run (iterations entries).
  std::vector<double> latencies_ms;
  /// Per-op profile: mean ms of each op over `profiled_runs` runs, in graph order
  /// (empty when the runtime gives none).
  std::vector<OpTime> op_profile;
  int profiled_runs = 0;
};

/// Nearest-rank percentile of an ascending sample: the smallest value such that at
/// least p% of the sample is <= it, i.e. sorted[ceil(p/100 * n) - 1] (p = 0 gives
/// the minimum). Always a value that was measured; empty sample -> 0.
double percentile_nearest_rank(const std::vector<double>& sorted, double p);

/// Fills mean, stdev (sample standard deviation, n - 1 in the denominator; 0 for
/// one run), min, max, p50/p90/p95/p99 (nearest rank), throughput and iterations
/// from `s.latencies_ms`. Leaves every other field as it is.
void summarise(Stats& s);

/// The sum of the per-op profile's means (ms).
double op_profile_total_ms(const Stats& s);

/// Ops of the profile sorted by time, slowest first, at most `n` (0 = all).
std::vector<OpTime> top_ops(const Stats& s, std::size_t n);

/// The same ops summed by op type, slowest first.
std::vector<OpTime> time_by_op_type(const Stats& s);

/// JSON form (docs/bench-json.md): every field, latencies and the profile included.
nlohmann::json to_json(const Stats& s);
/// Reads to_json()'s form back (missing fields keep their defaults).
Stats stats_from_json(const nlohmann::json& j);

/// Peak resident set of this process in bytes (VmHWM of /proc/self/status, else
/// getrusage's ru_maxrss).
std::uint64_t peak_rss_bytes();
/// Resets the kernel's resident-set high-water mark of this process (writes "5"
/// to /proc/self/clear_refs); false when the system does not allow it.
bool reset_peak_rss();

}  // namespace ec::runtime
