// Statistics printed by benchmark tools, read into the runtime's Stats: our own
// `edgecompile bench --json`, and TensorFlow Lite's benchmark_model text.
#pragma once

#include <string_view>

#include "core/devices/provider.h"

namespace ec::devices {

/// `edgecompile bench --json`. Throws EdgeCompilerError (Input) when the text is not
/// that JSON (no mean_ms), naming what is missing.
InvokeOutcome parse_bench_json(std::string_view text);

/// TensorFlow Lite's benchmark_model output (timings in microseconds): the steady-state
/// "count=..." line (the last one), "Inference timings in us: ...", and the memory
/// footprint line. Percentiles it does not print (older versions: all of them; newer:
/// p99) are listed in provenance.not_reported, by their --json names ("p99_ms"). Throws EdgeCompilerError (Input) when
/// no count=/avg= line is found.
InvokeOutcome parse_benchmark_model_output(std::string_view text);

/// Either of the two, by the shape of the text (JSON object or not).
InvokeOutcome parse_benchmark_output(std::string_view text);

}  // namespace ec::devices
