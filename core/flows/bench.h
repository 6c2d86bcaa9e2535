// The bench-on-a-device flow `edgecompile bench [--device ID]` and the workbench's
// Benchmark panel run: the device resolved (the host CPU, a virtual device of a backend,
// or a device reached through a provider or discovered by a backend), the model timed
// there (or estimated: a virtual device has no hardware), and the JSON `bench --json`
// prints (docs/bench-json.md). What the run history records of it: bench_record().
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backends/backend.h"
#include "core/devices/discovery.h"
#include "core/devices/provider.h"
#include "core/history/run_store.h"
#include "core/runtime/stats.h"
#include "core/runtime/tensor.h"

namespace ec::flows {

struct BenchOptions {
  std::string model;
  std::string device;  // a device id of `edgecompile devices`; "" or "host-cpu" = the CPU runtime here
  int iterations = 50;  // timed runs
  int warmup = 5;       // runs after the first, reported apart
  int threads = 0;      // 0 = every core
  bool int8_nchw = false;  // int8 graphs on the NCHW kernels (SessionOptions::int8_channels_last off)
  bool profile = true;     // time every op (Stats::op_profile)
  int top = 10;            // slowest ops in the JSON's "top_ops" (0 = all)
  /// The model's inputs (empty: deterministic random ones) and how the record names them
  /// (`NAME=FILE.npy`).
  std::map<std::string, runtime::Tensor> inputs;
  std::vector<std::string> input_specs;
  /// Called after every run (done, total = 1 + warmup + iterations); false cancels (the
  /// runner throws). Host CPU only.
  std::function<bool(int done, int total)> progress;
  /// Who asked, recorded in the run's options as "from" ("" = not recorded).
  std::string from;
};

/// Where a benchmark runs.
struct BenchDevice {
  enum class Kind {
    HostCpu,   // the CPU runtime in this process
    Virtual,   // a backend's virtual device: its performance estimate, nothing run
    Measured,  // a configured remote device (its invoker provider) or one a backend discovered (its target runtime)
  };
  Kind kind = Kind::HostCpu;
  devices::HardwareDevice device;  // not for HostCpu
  devices::DeviceConfig config;    // Measured: its provider (devices.json, else the defaults)
};

/// Resolves `id` ("" or "host-cpu": the host, without discovery). Throws
/// EdgeCompilerError: Usage for an unknown id (listing the known ones), Backend for a
/// device that is not available (with the reason).
BenchDevice resolve_bench_device(const std::string& id);

struct BenchOutcome {
  BenchDevice::Kind kind = BenchDevice::Kind::HostCpu;
  std::string model, device_id, device_name;
  /// HostCpu: the runner's Stats; Measured: what the device's tool reported.
  runtime::Stats stats;
  // HostCpu: what the session did at load
  std::size_t packed_weight_bytes = 0;
  int fused_activations = 0, fused_pattern_ops = 0, channels_last_ops = 0;
  backends::PerfEstimate estimate;  // Virtual
  devices::InvokeOutcome measured;  // Measured (stats, provenance, what the tool did not report)
  nlohmann::json json;              // what `bench --json` prints (docs/bench-json.md)
  bool measured_here() const { return kind == BenchDevice::Kind::HostCpu; }
};

/// Benchmarks `o.model` on `where`.
BenchOutcome bench(const BenchOptions& o, const BenchDevice& where);
/// bench(o, resolve_bench_device(o.device)).
BenchOutcome bench(const BenchOptions& o);

/// The run history's record of a host-CPU benchmark: options, `out.json` as the report,
/// the Stats (flows::record_run adds it).
history::RunRecord bench_record(const BenchOptions& o, const BenchOutcome& out);

}  // namespace ec::flows
