// The work of Model › Compile for Target…, run on the window's compile JobRunner
// (JobRunner.h): quantise (post-training, random calibration samples as Tools ›
// Quantise… does, or none for an already quantised model), then the backend's
// partition, overrides, timeline and estimate. A cancel makes the quantiser's next
// progress callback answer false; the backend step itself is not interruptible, its
// result is then dropped (JobRunner::setCancelDropsResult).
#pragma once

#include <memory>

#include <QCoreApplication>
#include <QString>

#include "app/workbench/JobRunner.h"
#include "core/ir/graph.h"
#include "widgets/compile/CompileModels.h"

namespace ec::workbench {

struct CompileJob {
  ec::ir::FrozenGraph graph;  // the graph to compile (the views keep it)
  QString modelName;          // for the report
  QString target = QStringLiteral("auto");     // a backend_registry target, or "auto"
  QString quantize = QStringLiteral("ptq");    // "ptq", "none" or a mode of the target's own ("weights-int8")
  QString calibrationFile;    // .npy file or folder of NAME.npy; "" = fixed-seed random samples
  int calibrationSamples = 32;
  quint64 seed = 0;
  int numSegments = 1;
  // for the targets that take them (Capabilities::options)
  QString precision = QStringLiteral("fp16");       // "fp16" or "fp32"
  QString computeUnits = QStringLiteral("all");     // all, cpu_and_ne, cpu_and_gpu, cpu_only
  QString deploymentTarget = QStringLiteral("macOS13");
};

/// What one compile produced: immutable, shared with every view.
struct CompileOutcome {
  ec::ir::FrozenGraph graph;  // the graph the backend compiled (quantised when quantize != none)
  ec::widgets::CompileReportPtr report;
  QString calibrationSource;  // "" when the model was not quantised here
};
using CompileOutcomePtr = std::shared_ptr<const CompileOutcome>;

class CompileRunner {
  Q_DECLARE_TR_FUNCTIONS(ec::workbench::CompileRunner)

 public:
  /// Compiles `job.graph` (worker thread; throws the core's errors, and when cancelled).
  static CompileOutcomePtr run(const CompileJob& job, const JobContext& ctx);
  /// Whether `graph` already has 8-bit quantised tensors.
  static bool isQuantised(const ec::ir::Graph& graph);
};

}  // namespace ec::workbench
