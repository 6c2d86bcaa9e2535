// The benchmark runner (benchmark.h). As TFLite's benchmark_model: the cold first
// run and the warm-up are reported apart, so a --warmup 0 run never folds
// one-off costs into the statistics.
#include "core/session/benchmark.h"

#include <chrono>

#include "core/errors.h"

namespace ec::runtime {

namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

Stats run_benchmark(const InferenceSession& session, const std::map<std::string, Tensor>& inputs,
                    const BenchmarkOptions& o) {
  if (o.iterations < 1) throw EdgeCompilerError(ErrorKind::Usage, "iterations must be positive");
  if (o.warmup < 0) throw EdgeCompilerError(ErrorKind::Usage, "warm-up runs cannot be negative");
  const int total = 1 + o.warmup + o.iterations;
  int done = 0;
  auto step = [&] {
    ++done;
    if (o.progress && !o.progress(done, total)) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");
  };
  auto timed_run = [&](RunProfile* profile) {
    const auto t0 = std::chrono::steady_clock::now();
    session.run(inputs, profile);
    const double ms = ms_since(t0);
    step();
    return ms;
  };
  Stats s;
  s.threads = session.threads();
  s.first_ms = timed_run(nullptr);
  s.warmup = o.warmup;
  for (int i = 0; i < o.warmup; ++i) s.warmup_mean_ms += timed_run(nullptr) / o.warmup;
  s.latencies_ms.reserve(static_cast<std::size_t>(o.iterations));
  // The per-op profile is taken in the timed runs themselves, so its sum and the
  // mean latency describe the same runs (their gap is the interpreter's own time).
  std::vector<double> op_sum;
  RunProfile p;
  for (int i = 0; i < o.iterations; ++i) {
    p.ops.clear();
    s.latencies_ms.push_back(timed_run(o.profile ? &p : nullptr));
    if (!o.profile) continue;
    if (s.op_profile.empty())
      for (const auto& e : p.ops) s.op_profile.push_back({e.name, e.op_type, 0.0});
    op_sum.resize(p.ops.size());
    for (std::size_t k = 0; k < p.ops.size() && k < op_sum.size(); ++k) op_sum[k] += p.ops[k].ms;
  }
  if (o.profile) {
    s.profiled_runs = o.iterations;
    for (std::size_t k = 0; k < s.op_profile.size() && k < op_sum.size(); ++k)
      s.op_profile[k].ms = op_sum[k] / o.iterations;
  }
  s.arena_bytes = session.arena_bytes();
  s.peak_rss_bytes = peak_rss_bytes();
  summarise(s);
  return s;
}

Stats benchmark_model(InferenceSession& session, const std::string& path, const BenchmarkOptions& o,
                      const std::map<std::string, Tensor>& inputs) {
  const bool reset = reset_peak_rss();
  const auto t0 = std::chrono::steady_clock::now();
  session.load(path);
  const double init_ms = ms_since(t0);
  Stats s = run_benchmark(session, inputs.empty() ? session.random_inputs(0) : inputs, o);
  s.init_ms = init_ms;
  s.peak_rss_bytes = peak_rss_bytes();
  s.peak_rss_reset = reset;
  return s;
}

}  // namespace ec::runtime
