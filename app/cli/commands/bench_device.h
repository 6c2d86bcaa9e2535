// `edgecompile bench ... --device ID` on anything but the host CPU: prints what the bench
// flow (core/flows/bench.h) brought back from the device (bench.cpp prints the host CPU's).
#pragma once

#include "core/flows/bench.h"

namespace ec::cli {

/// Prints `out` (a virtual device's estimate, labelled "estimate (not measured)", or a
/// device's measurement with where and by which provider it was taken) as text or JSON.
/// Returns the exit code.
int print_device_bench(const flows::BenchOutcome& out, bool json);

}  // namespace ec::cli
