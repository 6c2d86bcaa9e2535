// Per-sample work of calibration and of the report on several threads ("lanes"),
// each running whole samples on sessions of its own, with everything that depends
// on the samples before done in sample order: results equal a serial run's bit for
// bit whatever the number of lanes (stages/observe.cpp and stages/report.cpp say what goes in which step).
#pragma once

#include <cstddef>
#include <functional>

namespace ec::quantize::detail {

struct SampleSteps {
  /// On the lane's thread, samples of different lanes at once: the sample's own work
  /// (runs, per-sample sums). A lane takes samples in increasing order.
  std::function<void(int lane, std::size_t sample)> work;
  /// In sample order, one sample at a time, after its work: what depends on the samples before.
  std::function<void(int lane, std::size_t sample)> merge;
  /// On the lane's thread after the sample's merge, samples of different lanes at once.
  std::function<void(int lane, std::size_t sample)> finish;
};

/// Runs samples [0, n) on `lanes` threads (1: all on the calling thread). `progress(done)`
/// is called on the calling thread only: with 0 first, with the samples merged so far as
/// they are, and with n last; when it returns false no further sample starts, the lanes
/// finish theirs and EdgeCompilerError(Usage, "cancelled") is thrown. An exception from
/// a step is rethrown after the lanes stop: the one of the earliest sample, as a serial
/// run would have thrown it (no later sample is merged).
void run_in_lanes(std::size_t n, int lanes, const SampleSteps& steps, const std::function<bool(int done)>& progress);

}  // namespace ec::quantize::detail
