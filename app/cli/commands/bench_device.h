// `edgecompile bench ... --device ID`: resolves the device and, for anything but
// the host CPU, benchmarks there (bench.cpp keeps the host CPU path).
#pragma once

#include <optional>
#include <string>

namespace ec::cli {

struct DeviceBenchRequest {
  std::string device;  // "" or "host-cpu": the CPU runtime (nullopt is returned)
  std::string model;
  int iterations = 50, warmup = 5, threads = 0;
  bool json = false;
};

/// nullopt for the host CPU. Otherwise the exit code after printing: a virtual device's
/// estimate, labelled "estimate (not measured)"; a configured remote device's measurement
/// through its invoker provider; a physical device's measurement on its target runtime.
/// Throws EdgeCompilerError: Usage for an unknown id (listing the known ones), Backend
/// for a device that is not available (with the reason).
std::optional<int> bench_on_device(const DeviceBenchRequest& request);

}  // namespace ec::cli
