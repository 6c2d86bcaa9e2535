// The compile flow every front end runs (`edgecompile compile`, the seed form,
// the workbench's Model > Compile for target): the target's backend names the
// passes and what the quantiser must honour; the flow runs them, quantises when
// asked, then the backend (partition, overrides, timeline, estimate, artefact)
// and returns the one CompileReport every view reads.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/backends/backend.h"
#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"
#include "core/report/compile_report.h"

namespace ec::report {

struct CompileRequest {
  std::string model;        // the model's path or name, for the report
  std::string target = "auto";  // a backend registry target
  /// Why this target, when the caller chose it (devices::choose_target for "auto");
  /// "" = the registry's reason.
  std::string target_reason;
  /// "ptq", "qat", "dynamic" or "none"; "" = the target's default: ptq for a
  /// float model on a target that requires 8-bit tensors (coral), else none.
  std::string quantize;
  /// What the report calls the quantisation when a backend option does it
  /// (metal's int8 weights: "weights-int8"); "" = the strategy.
  std::string quantize_label;
  /// Backend-specific options (backends::CompileConfig::options; metal: precision,
  /// compute_units, deployment_target, weights).
  std::map<std::string, std::string> options;
  std::vector<quantize::Sample> samples;  // calibration (ptq)
  std::string data_source;  // where the samples came from (the report says it)
  double calibration_percentile = 100;
  int num_calibration_samples = 100;
  int num_segments = 1;
  std::string output_path;  // the artefact ("" = partition and estimate only)
  int threads = 0;          // calibration threads (0 = every core)
};

struct CompileRun {
  ir::Graph graph;          // the graph the backend compiled (after passes and quantisation)
  std::string strategy;     // the quantisation strategy applied ("none" when none)
  CompileReport report;
};

/// Whether `graph` already carries 8-bit quantised tensors.
bool is_quantised(const ir::Graph& graph);

/// The strategy a request resolves to for `graph` on `backend`.
std::string resolve_strategy(const CompileRequest& request, const ir::Graph& graph, const backends::Backend& backend);

/// Runs the flow. Throws EdgeCompilerError with one line for bad requests
/// (unknown target, strategy the target refuses, quantising a quantised model,
/// a float model the target cannot run with --quantize none, calibration data
/// that does not fit), and EdgeCompilerError(Usage, "cancelled") when
/// `progress` answers false.
CompileRun compile_model(const ir::Graph& graph, const CompileRequest& request,
                         const quantize::ProgressFn& progress = {});

/// When `graph` is a compiled artefact of a backend opened as a model (an
/// *_edgetpu.tflite), the report of the split the file records (no compile runs,
/// verified_by names the artefact); else nullopt.
std::optional<CompileReport> report_of_artefact(const ir::Graph& graph, const std::string& model);

}  // namespace ec::report
