// The benchmark runner: times a loaded InferenceSession (or opens a model and
// times that too) and returns the one Stats record (stats.h). Apart from the
// session so that other targets' sessions can be timed the same way.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "core/session/session.h"
#include "core/runtime/stats.h"
#include "core/runtime/tensor.h"

namespace ec::runtime {

struct BenchmarkOptions {
  int iterations = 50;  // timed runs (>= 1)
  int warmup = 5;       // runs after the first and before the timed ones (>= 0)
  /// Time every op of every timed run (two clock reads per op), giving Stats::op_profile.
  bool profile = true;
  /// Called after every run with (runs done, runs in all = 1 + warmup + iterations);
  /// return false to cancel: the runner then throws EdgeCompilerError(Usage, "cancelled").
  std::function<bool(int done, int total)> progress;
};

/// Runs `session` once (first_ms), `warmup` times, then `iterations` timed runs
/// on `inputs`, and summarises them. init_ms stays 0. Throws EdgeCompilerError
/// (Usage) for iterations < 1 or warmup < 0.
Stats run_benchmark(const InferenceSession& session, const std::map<std::string, Tensor>& inputs,
                    const BenchmarkOptions& options);

/// Resets the peak-RSS mark, opens `path` into `session` (timed: init_ms), then
/// run_benchmark() on `inputs`, or on session.random_inputs(0) when `inputs` is empty.
Stats benchmark_model(InferenceSession& session, const std::string& path, const BenchmarkOptions& options,
                      const std::map<std::string, Tensor>& inputs = {});

}  // namespace ec::runtime
