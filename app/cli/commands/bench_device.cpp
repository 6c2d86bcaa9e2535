#include "app/cli/commands/bench_device.h"

#include <cstdio>
#include <iostream>

namespace ec::cli {
namespace {

void print_estimate(const flows::BenchOutcome& out) {
  const auto& e = out.estimate;
  char line[256];
  std::cout << out.model << " on " << out.device_id << " (" << out.device_name << "): estimate (not measured)\n";
  std::snprintf(line, sizeof line, "  latency %.3f ms (estimate) = on the accelerator %.3f + transfers %.3f + on the CPU %.3f\n",
                e.latency_ms, e.target_ms, e.transfer_ms, e.cpu_ms);
  std::cout << line;
  std::snprintf(line, sizeof line, "  MACs on the accelerator %lld, on the CPU %lld; parameters on chip %.2f MiB, streamed %.2f MiB\n",
                static_cast<long long>(e.target_macs), static_cast<long long>(e.cpu_macs),
                e.on_chip_parameter_bytes / 1048576.0, e.off_chip_parameter_bytes / 1048576.0);
  std::cout << line << "  " << e.model << '\n'
            << "  no iterations were run: a virtual device has no hardware to measure on\n";
}

void print_measurement(const flows::BenchOutcome& out) {
  const auto& o = out.measured;
  const auto& s = o.stats;
  auto f = [&](const char* key, double x) {
    for (const auto& k : o.provenance.not_reported)
      if (k == key) return std::string("n/a");
    char b[32];
    std::snprintf(b, sizeof b, "%.3f", x);
    return std::string(b);
  };
  std::cout << out.model << " on " << out.device_id << " (" << out.device_name << "), measured on " << o.provenance.where
            << " by the " << o.provenance.provider << " provider\n"
            << "  " << s.iterations << " timed runs: mean " << f("mean_ms", s.mean_ms) << " ms  p50 " << f("p50_ms", s.p50_ms)
            << "  p95 " << f("p95_ms", s.p95_ms) << "  p99 " << f("p99_ms", s.p99_ms) << "  min " << f("min_ms", s.min_ms) << "  max "
            << f("max_ms", s.max_ms) << "  stdev " << f("stdev_ms", s.stdev_ms) << '\n';
  char line[160];
  std::snprintf(line, sizeof line, "  throughput %.1f inferences/s  first inference %.3f ms\n", s.throughput, s.first_ms);
  std::cout << line;
  if (!o.provenance.not_reported.empty()) {
    std::string n;
    for (const auto& k : o.provenance.not_reported) n += (n.empty() ? "" : ", ") + k;
    std::cout << "  not reported by the tool: " << n << '\n';
  }
}

}  // namespace

int print_device_bench(const flows::BenchOutcome& out, bool json) {
  if (json)
    std::cout << out.json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  else if (out.kind == flows::BenchDevice::Kind::Virtual)
    print_estimate(out);
  else
    print_measurement(out);
  return 0;
}

}  // namespace ec::cli
