// The quantiser: float graph -> int8 graph + QuantReport (quant_report.h).
// Strategies are registered by name in ONE table (strategy_registry.cpp):
// "ptq" (calibrate with observers), "qat" (take the scales of QuantizeLinear/
// DequantizeLinear pairs already in the model), "dynamic" (weights only).
// Pipeline (DESIGN.md): analyse -> choose strategy -> insert quant boundaries
// -> calibrate -> propagate scales -> verify -> report.
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
