// The work of Tools › Quantise…, run on the window's quantisation JobRunner
// (JobRunner.h) with a QuantJob (a frozen float graph, options, where the
// calibration data comes from). Progress goes through the JobContext; a cancel
// makes the next progress callback answer false and quantize() stops.
#pragma once

#include <memory>

#include <QCoreApplication>
#include <QString>

#include "app/workbench/JobRunner.h"
#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"
#include "widgets/quant/QuantFormat.h"

namespace ec::workbench {

struct QuantJob {
  ec::ir::FrozenGraph graph;  // the float graph to quantise (the views keep it)
  ec::quantize::QuantizeOptions options;
  QString calibrationFile;    // .npy (or a directory of NAME.npy); empty: random samples
  int randomSamples = 32;     // when calibrationFile is empty
  quint64 seed = 0;
};

/// What one run produced: immutable, shared with every view.
struct QuantOutcome {
  ec::ir::FrozenGraph floatGraph;
  ec::ir::FrozenGraph quantisedGraph;
  ec::widgets::QuantReportPtr report;
  QString calibrationSource;  // "32 random samples (seed 0)", "calib.npy (100 samples)"
};
using QuantOutcomePtr = std::shared_ptr<const QuantOutcome>;

class QuantRunner {
  Q_DECLARE_TR_FUNCTIONS(ec::workbench::QuantRunner)

 public:
  /// Quantises `job.graph` (worker thread; throws the core's errors, and when cancelled).
  static QuantOutcomePtr run(const QuantJob& job, const JobContext& ctx);

  /// Builds the calibration samples of `job` (random or from its file). Throws
  /// the core's EdgeCompilerError for a file that does not fit the graph.
  static std::vector<ec::quantize::Sample> samplesFor(const QuantJob& job, QString* source = nullptr);
  /// `count` samples from `file` (.npy or a folder of NAME.npy), or fixed-seed
  /// random ones when `file` is empty; `source` gets where they came from (translated).
  static std::vector<ec::quantize::Sample> calibrationSamples(const ec::ir::Graph& graph, const QString& file,
                                                              int count, quint64 seed, QString* source = nullptr);
  /// Where `n` random samples for `graph` come from, per input (translated): floats
  /// uniform in [-1, 1), token ids within the table they index, other integers 0/1.
  static QString describeRandomSamples(const ec::ir::Graph& graph, int n, quint64 seed);
};

}  // namespace ec::workbench
