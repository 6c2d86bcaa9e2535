// The quantiser: float graph -> int8 graph + QuantReport (quant_report.h).
// Strategies are registered by name in ONE table (strategy_registry.cpp):
// "ptq" (calibrate with observers), "qat" (take the scales of QuantizeLinear/
// DequantizeLinear pairs already in the model), "dynamic" (weights only).
// Pipeline (DESIGN.md), one named stage each (stages/stages.h): check options ->
// prepare -> choose ops -> observe -> choose parameters -> verify parameters ->
// rewrite -> verify graph -> report -> sensitivity.
// The IR convention of a quantised graph is in docs/QUANTISATION.md.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/quantize/quant_report.h"
#include "core/runtime/tensor.h"

namespace ec::quantize {

/// Calibration samples: each is one value per float graph input, keyed by input name
/// (a batch of one). Callers build them from .npy files (calibration_data.h) or
/// from a fixed-seed generator.
using Sample = std::map<std::string, runtime::Tensor>;

/// What a compilation target requires of the quantiser (Backend::quant_constraints()).
/// The default asks nothing: the CPU runtime runs every strategy and form.
struct TargetConstraints {
  std::string target;                   // who asks, for messages ("coral")
  bool requires_int8 = false;           // the target runs only 8-bit tensors (a float model must be quantised)
  /// Strategies that give the target what it runs (empty = any), and why the
  /// others do not ("activations stay float; the Edge TPU runs only 8-bit tensors").
  std::vector<std::string> strategies;
  std::string strategy_reason;
  bool per_channel = true;              // false: the target reads only per-tensor weight scales
  /// Op types (IR names) the target cannot take at all and that are better left
  /// to its CPU fallback in float: never quantised, reported with `keep_float_reason`.
  std::vector<std::string> keep_float;
  std::string keep_float_reason;
  /// An 8-bit Concat takes every input on its output's params (TFLite's spec): the
  /// quantiser gives them all the union of their ranges.
  bool concat_shares_params = false;
};

struct QuantizeOptions {
  std::string strategy = "ptq";        // a name from strategy_table()
  bool per_channel = true;             // weights per output channel (false: per tensor)
  double calibration_percentile = 100; // activation range: 100 = min/max, else the percentile of |x| histograms
  int num_calibration_samples = 100;   // at most this many of the samples given are used
  std::vector<std::string> keep_float; // op names (or op types) to leave in float
  bool int8_io = false;                // drop the Quantize/Dequantize at the graph's edges
  bool sensitivity = false;            // rank layers by the SQNR gained when kept in float
  int threads = 0;                     // CPU runtime threads for calibration (0 = all cores)
  std::string data_source;             // where the samples came from (copied to QuantReport::data_source)
  /// Passes run on the float graph before analysis (names from the pass registry);
  /// empty = passes::default_pipeline(). A backend names its own (Backend::pipeline()).
  std::vector<std::string> pipeline;
  TargetConstraints target;            // what the compilation target requires
};

/// Progress of a long run: stage ("calibrate", "report", "sensitivity"), done, total.
/// Return false to cancel (quantize() then throws ec::Cancelled... see below).
using ProgressFn = std::function<bool(const std::string& stage, int done, int total)>;

struct QuantizeResult {
  ir::Graph graph;   // the quantised graph (passes ir::validate())
  QuantReport report;
};

/// Quantises `float_graph` with `samples` (ignored by "qat" and "dynamic", except for the
/// report's comparisons, which need at least one sample). Throws QuantizationError
/// {tensor, reason} when it cannot, EdgeCompilerError(Usage) for bad options, and
/// EdgeCompilerError(Usage, "cancelled") when `progress` returned false.
QuantizeResult quantize(const ir::Graph& float_graph, const std::vector<Sample>& samples,
                        const QuantizeOptions& options, const ProgressFn& progress = {});

/// One row of the strategy table.
struct StrategyEntry {
  std::string_view name;
  std::string_view summary;
};
std::vector<StrategyEntry> strategy_table();

}  // namespace ec::quantize
