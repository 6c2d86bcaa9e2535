// Stats: summary statistics, the per-op profile's views, JSON and the peak RSS.
#include "core/runtime/stats.h"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <numeric>
#include <string>

#include <nlohmann/json.hpp>

namespace ec::runtime {

double percentile_nearest_rank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  // rank = ceil(p/100 * n), 1-based; p = 0 is rank 1 (the minimum).
  const double n = static_cast<double>(sorted.size());
  const auto rank = static_cast<std::size_t>(std::ceil(p / 100.0 * n));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

void summarise(Stats& s) {
  const auto& ms = s.latencies_ms;
  s.iterations = static_cast<int>(ms.size());
  if (ms.empty()) {
    s.mean_ms = s.stdev_ms = s.min_ms = s.max_ms = s.p50_ms = s.p90_ms = s.p95_ms = s.p99_ms = s.throughput = 0;
    return;
  }
  const double n = static_cast<double>(ms.size());
  s.mean_ms = std::accumulate(ms.begin(), ms.end(), 0.0) / n;
  // Sample standard deviation: sqrt(sum (x - mean)^2 / (n - 1)).
  double ss = 0;
  for (double v : ms) ss += (v - s.mean_ms) * (v - s.mean_ms);
  s.stdev_ms = ms.size() > 1 ? std::sqrt(ss / (n - 1)) : 0.0;
  std::vector<double> sorted = ms;
  std::sort(sorted.begin(), sorted.end());
  s.min_ms = sorted.front();
  s.max_ms = sorted.back();
  s.p50_ms = percentile_nearest_rank(sorted, 50);
  s.p90_ms = percentile_nearest_rank(sorted, 90);
  s.p95_ms = percentile_nearest_rank(sorted, 95);
  s.p99_ms = percentile_nearest_rank(sorted, 99);
  s.throughput = s.mean_ms > 0 ? 1000.0 / s.mean_ms : 0;
}

double op_profile_total_ms(const Stats& s) {
  double total = 0;
  for (const auto& o : s.op_profile) total += o.ms;
  return total;
}

namespace {

void sort_slowest_first(std::vector<OpTime>& v) {
  std::stable_sort(v.begin(), v.end(), [](const OpTime& a, const OpTime& b) { return a.ms > b.ms; });
}

}  // namespace

std::vector<OpTime> top_ops(const Stats& s, std::size_t n) {
  std::vector<OpTime> v = s.op_profile;
  sort_slowest_first(v);
  if (n > 0 && v.size() > n) v.resize(n);
  return v;
}

std::vector<OpTime> time_by_op_type(const Stats& s) {
  std::map<std::string, double> by_type;
  for (const auto& o : s.op_profile) by_type[o.op_type] += o.ms;
  std::vector<OpTime> v;
  for (const auto& [type, ms] : by_type) v.push_back({type, type, ms});
  sort_slowest_first(v);
  return v;
}

nlohmann::json to_json(const Stats& s) {
  nlohmann::json ops = nlohmann::json::array();
  for (const auto& o : s.op_profile) ops.push_back({{"name", o.name}, {"op_type", o.op_type}, {"ms", o.ms}});
  return {{"init_ms", s.init_ms},
          {"first_inference_ms", s.first_ms},
          {"warmup", s.warmup},
          {"warmup_mean_ms", s.warmup > 0 ? nlohmann::json(s.warmup_mean_ms) : nlohmann::json(nullptr)},
          {"iterations", s.iterations},
          {"mean_ms", s.mean_ms},
          {"stdev_ms", s.stdev_ms},
          {"min_ms", s.min_ms},
          {"max_ms", s.max_ms},
          {"p50_ms", s.p50_ms},
          {"p90_ms", s.p90_ms},
          {"p95_ms", s.p95_ms},
          {"p99_ms", s.p99_ms},
          {"throughput_per_s", s.throughput},
          {"peak_rss_bytes", s.peak_rss_bytes},
          {"peak_rss_reset", s.peak_rss_reset},
          {"peak_memory_mib", static_cast<double>(s.peak_rss_bytes) / 1048576.0},
          {"arena_bytes", s.arena_bytes},
          {"threads", s.threads},
          {"latencies_ms", s.latencies_ms},
          {"profiled_runs", s.profiled_runs},
          {"op_profile", ops}};
}

Stats stats_from_json(const nlohmann::json& j) {
  Stats s;
  auto num = [&](const char* key, auto& field) {
    if (auto it = j.find(key); it != j.end() && it->is_number()) field = it->get<std::decay_t<decltype(field)>>();
  };
  num("init_ms", s.init_ms);
  num("first_inference_ms", s.first_ms);
  num("warmup", s.warmup);
  num("warmup_mean_ms", s.warmup_mean_ms);
  num("iterations", s.iterations);
  num("mean_ms", s.mean_ms);
  num("stdev_ms", s.stdev_ms);
  num("min_ms", s.min_ms);
  num("max_ms", s.max_ms);
  num("p50_ms", s.p50_ms);
  num("p90_ms", s.p90_ms);
  num("p95_ms", s.p95_ms);
  num("p99_ms", s.p99_ms);
  num("throughput_per_s", s.throughput);
  num("peak_rss_bytes", s.peak_rss_bytes);
  num("arena_bytes", s.arena_bytes);
  num("threads", s.threads);
  num("profiled_runs", s.profiled_runs);
  if (auto it = j.find("peak_rss_reset"); it != j.end() && it->is_boolean()) s.peak_rss_reset = it->get<bool>();
  if (auto it = j.find("latencies_ms"); it != j.end() && it->is_array())
    for (const auto& v : *it)
      if (v.is_number()) s.latencies_ms.push_back(v.get<double>());
  if (auto it = j.find("op_profile"); it != j.end() && it->is_array())
    for (const auto& o : *it)
      if (o.is_object())
        s.op_profile.push_back({o.value("name", std::string()), o.value("op_type", std::string()), o.value("ms", 0.0)});
  return s;
}

std::uint64_t peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   12345 kB"
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;  // Linux: KiB
}

bool reset_peak_rss() {
  // Linux >= 4.0: "5" resets the peak RSS (VmHWM) to the current RSS.
  std::ofstream f("/proc/self/clear_refs");
  if (!f) return false;
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}

}  // namespace ec::runtime
