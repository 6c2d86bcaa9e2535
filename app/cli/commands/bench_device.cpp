#include "app/cli/commands/bench_device.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

#include "core/backends/backend_registry.h"
#include "core/devices/discovery.h"
#include "core/devices/provider.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"

namespace ec::cli {
namespace {

int print_estimate(const DeviceBenchRequest& r, const devices::HardwareDevice& d) {
  auto backend = backends::resolve_backend(d.meta("Backend")).backend;
  const ir::Graph graph = frontends::open_model(r.model);
  const auto e = backend->estimate_for_device(graph, d.id);
  if (r.json) {
    std::cout << nlohmann::json{{"model", r.model},
                                {"device", d.id},
                                {"kind", "estimate (not measured)"},
                                {"measured", false},
                                {"estimate",
                                 {{"latency_ms", e.latency_ms},
                                  {"target_ms", e.target_ms},
                                  {"cpu_ms", e.cpu_ms},
                                  {"transfer_ms", e.transfer_ms},
                                  {"target_macs", e.target_macs},
                                  {"cpu_macs", e.cpu_macs},
                                  {"on_chip_parameter_bytes", e.on_chip_parameter_bytes},
                                  {"off_chip_parameter_bytes", e.off_chip_parameter_bytes},
                                  {"model", e.model}}}}
                     .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
    return 0;
  }
  char line[256];
  std::cout << r.model << " on " << d.id << " (" << d.name << "): estimate (not measured)\n";
  std::snprintf(line, sizeof line, "  latency %.3f ms (estimate) = on the accelerator %.3f + transfers %.3f + on the CPU %.3f\n",
                e.latency_ms, e.target_ms, e.transfer_ms, e.cpu_ms);
  std::cout << line;
  std::snprintf(line, sizeof line, "  MACs on the accelerator %lld, on the CPU %lld; parameters on chip %.2f MiB, streamed %.2f MiB\n",
                static_cast<long long>(e.target_macs), static_cast<long long>(e.cpu_macs),
                e.on_chip_parameter_bytes / 1048576.0, e.off_chip_parameter_bytes / 1048576.0);
  std::cout << line << "  " << e.model << '\n'
            << "  no iterations were run: a virtual device has no hardware to measure on\n";
  return 0;
}

int print_measurement(const DeviceBenchRequest& r, const devices::HardwareDevice& d, const devices::InvokeOutcome& o) {
  const auto& s = o.stats;
  auto missing = [&](const char* key) {
    for (const auto& k : o.provenance.not_reported)
      if (k == key) return true;
    return false;
  };
  if (r.json) {
    auto v = [&](const char* key, double x) { return missing(key) ? nlohmann::json(nullptr) : nlohmann::json(x); };
    std::cout << nlohmann::json{{"model", r.model},
                                {"device", d.id},
                                {"measured", true},
                                {"measured_on", o.provenance.where},
                                {"provider", o.provenance.provider},
                                {"iterations", s.iterations},
                                {"init_ms", o.init_ms >= 0 ? nlohmann::json(o.init_ms) : nlohmann::json(nullptr)},
                                {"first_inference_ms", v("first_inference_ms", s.first_ms)},
                                {"mean_ms", s.mean_ms},
                                {"p50_ms", v("p50_ms", s.p50_ms)},
                                {"p95_ms", v("p95_ms", s.p95_ms)},
                                {"p99_ms", v("p99_ms", s.p99_ms)},
                                {"min_ms", v("min_ms", s.min_ms)},
                                {"max_ms", v("max_ms", s.max_ms)},
                                {"stdev_ms", v("stdev_ms", s.stdev_ms)},
                                {"throughput_per_s", s.throughput},
                                {"peak_memory_mib", o.peak_memory_mib >= 0 ? nlohmann::json(o.peak_memory_mib) : nlohmann::json(nullptr)},
                                {"not_reported", o.provenance.not_reported}}
                         .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << '\n';
    return 0;
  }
  auto f = [&](const char* key, double x) {
    char b[32];
    if (missing(key)) return std::string("n/a");
    std::snprintf(b, sizeof b, "%.3f", x);
    return std::string(b);
  };
  std::cout << r.model << " on " << d.id << " (" << d.name << "), measured on " << o.provenance.where << " by the "
            << o.provenance.provider << " provider\n"
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
  return 0;
}

}  // namespace

std::optional<int> bench_on_device(const DeviceBenchRequest& r) {
  if (r.device.empty() || r.device == "host-cpu") return std::nullopt;
  const auto config = devices::load_devices_config(devices::devices_config_path());
  const auto found = devices::discover_devices({.include_virtual = true, .config = &config});
  const auto* d = found.find(r.device);
  if (!d) throw EdgeCompilerError(ErrorKind::Usage, "unknown device '" + r.device + "' (known: " + found.ids() + ")");
  if (d->is_virtual()) return print_estimate(r, *d);
  const auto a = d->is_available();
  if (!a.available) throw BackendError("device '" + d->id + "'", "not available: " + a.reason);
  devices::Job job;
  job.artefact = r.model;
  job.iterations = r.iterations;
  job.warmup = r.warmup;
  job.threads = r.threads;
  // a device a backend discovered runs on that backend's target runtime, any other on the CPU
  job.target = d->backend().empty() ? "cpu" : d->backend();
  devices::DeviceConfig dc;
  if (const auto* c = config.find(d->id)) dc = *c;
  dc.id = d->id;
  return print_measurement(r, *d, devices::run_component<devices::Invoker>(devices::builtin_providers(), dc, job));
}

}  // namespace ec::cli
