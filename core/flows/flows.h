// The user-level flows every face of edgecompiler runs — `edgecompile compile`,
// `quantize`, `optimize`, `inspect --json`, `devices --json` and the Python API
// (app/python) — with the checks and defaults they share: each face parses its own
// arguments into these options and prints or converts the result; what a request
// means, what is refused and what the JSON holds is decided here, once.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backends/tflite/tflite_writer.h"
#include "core/devices/discovery.h"
#include "core/ir/graph.h"
#include "core/passes/pass_manager.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/report/compile_flow.h"

namespace ec::flows {

/// Where calibration samples come from: a .npy file or a directory of NAME.npy
/// (`path`), or arrays already in memory (`arrays`, the Python API's ndarrays).
struct CalibrationSource {
  std::string path;
  std::vector<quantize::CalibrationArray> arrays;
  bool empty() const { return path.empty() && arrays.empty(); }
  /// What the reports call it: the path, or "calibration_data (array)".
  std::string label() const;
  /// At most `max_samples` samples for `g` (load_calibration_data / calibration_samples).
  std::vector<quantize::Sample> samples(const ir::Graph& g, int max_samples) const;
};

/// The model a flow works on: a graph already open, else `path` opened with the frontends.
/// `path` names the model in reports either way.
struct ModelRef {
  std::string path;
  const ir::Graph* graph = nullptr;
};

// ---- compile ----------------------------------------------------------------------

struct CompileOptions {
  std::string target = "auto";  // a backend_table() name, or auto
  /// a strategy, a mode of the target's own (Capabilities::quantize_modes), none; "" = the target's default.
  std::string quantize;
  CalibrationSource calibration;
  int num_calibration_samples = 100;
  double calibration_percentile = 100;
  int num_segments = 1;
  std::string output;  // the artefact ("" = partition and estimate only)
  // options of targets that take them (Capabilities::options): "" = the backend's default
  std::string precision, compute_units, deployment_target;
};

struct CompileOutcome {
  report::CompileRun run;
  std::string strategy;    // the quantisation applied ("none" when none)
  nlohmann::json report;   // report::to_json(run.report): docs/compile-json.md
  nlohmann::json options;  // the options as the run history records them
};

/// Checks what can be decided from the options alone (usage errors: unknown target or
/// strategy, a target's own options given to another, an artefact name of the wrong kind, an
/// output directory that cannot be written), resolves `auto`, opens the model, reads the
/// calibration data and runs report::compile_model. Nothing is written but the artefact.
CompileOutcome compile(const ModelRef& model, const CompileOptions& o,
                       const quantize::ProgressFn& progress = {});

/// Throws BackendError when `o.output` was asked for and the backend wrote none
/// (after the report has been shown: it says why).
void check_artefact_written(const CompileOptions& o, const report::CompileReport& report);

// ---- quantize ---------------------------------------------------------------------

struct QuantizeOptions {
  /// The quantiser's options (strategy, per_channel, percentile, sample count, keep_float,
  /// int8_io, sensitivity, threads); data_source is filled from `calibration`.
  quantize::QuantizeOptions options;
  CalibrationSource calibration;
  std::string output;  // the int8 graph's IR text (.eir); "" = not written
};

struct QuantizeOutcome {
  quantize::QuantizeResult result;
  nlohmann::json report;  // docs/quantize-json.md, with "model" and "output"
};

/// Checks the request (unknown strategy, ptq without data, an output not named .eir),
/// opens the model, reads the calibration data, quantises, writes `o.output`.
QuantizeOutcome quantize(const ModelRef& model, const QuantizeOptions& o,
                         const quantize::ProgressFn& progress = {});

// ---- optimize ---------------------------------------------------------------------

struct OptimizeOutcome {
  ir::Graph graph;  // the optimised graph
  std::vector<std::string> pipeline;
  passes::PipelineReport report;
  nlohmann::json json;  // docs/optimize-json.md, with "model", "pipeline", "output"
};

/// Runs `passes` in order (nullopt = the default pipeline; none, or an unknown name, is a
/// usage error listing the valid ones) on the model, recording each pass's diff when
/// `diffs`; writes `output` (.eir) when given.
OptimizeOutcome optimize(const ModelRef& model,
                         const std::optional<std::vector<std::string>>& passes, bool diffs,
                         const std::string& output = {});

// ---- inspect, devices, IR text ----------------------------------------------------

/// `inspect --json`: the model summary (docs/inspect-json.md), with the split a compiled
/// artefact records as "compiled_split". `format` is what open_model reported.
nlohmann::json inspect_json(const ir::Graph& g, const std::string& model,
                            const std::string& format);

/// Every device (discovery with virtual devices and devices.json) with its availability.
struct DeviceList {
  std::string config_path;
  devices::DevicesConfig config;
  devices::Discovery found;
  std::string config_error;  // keep_going: why devices.json could not be read ("" = it could)
};
/// Discovers with the devices.json at `config_path` ("" = devices::devices_config_path()).
/// A file that cannot be read throws, or with `keep_going` is left out (`config_error`).
DeviceList list_devices(const std::string& config_path = {}, bool keep_going = false);
/// `devices --json`: {"devices": [...], "notes": [...], "config": path}.
nlohmann::json to_json(const DeviceList& list);

/// Refuses an output path not named *.eir or *.onnx (usage error naming `flag`).
void require_eir_output(const std::string& path, const std::string& flag = "--output");
/// Writes `g` to `path` atomically: the IR text form (*.eir) or ONNX (*.onnx,
/// core/backends/onnx; an op ONNX cannot express throws before anything is written).
void write_ir(const ir::Graph& g, const std::string& path, const std::string& flag = "--output");
/// The model file formats a graph is written as, by the name's extension: *.onnx
/// (core/backends/onnx), *.tflite (core/backends/tflite: legalised first, `tflite` options
/// applied), *.eir (the IR text form). Returns the whole file, serialised before anything
/// is written (an op the format cannot express throws UnsupportedOpError; another name is
/// a Usage error naming `flag`); `ops` gets the IR ops written (TFLite: after legalising).
/// `edgecompile convert` and the workbench's File › Export › Model write through it.
std::string serialise_model(const ir::Graph& g, const std::string& path,
                            const backends::tflite::TfliteWriteOptions& tflite = {},
                            std::size_t* ops = nullptr, const std::string& flag = "--output");
/// Refuses an output path whose directory does not exist or cannot be written (kind Io),
/// before any work is done.
void check_writable(const std::string& path, const std::string& flag);

}  // namespace ec::flows
