// The work of Model › Compare With… (issue 42), run on the window's compare
// JobRunner (JobRunner.h): opens the second model and runs core/compare's
// compare_models on fixed-seed random samples (or compares the stages of the default
// pass pipeline). A cancel is answered at the next progress callback.
#pragma once

#include <memory>

#include <QCoreApplication>
#include <QString>

#include "app/workbench/JobRunner.h"
#include "core/compare/compare.h"
#include "core/ir/graph.h"

namespace ec::workbench {

struct CompareJob {
  ec::ir::FrozenGraph a;  // the model shown (A, the reference)
  QString pathA, pathB;   // B is opened on the worker
  int samples = 1;        // random samples, seed 0
  bool passes = false;    // compare the stages of A's default pass pipeline instead (B unused)
};

/// What one comparison produced: immutable, shared with the view.
struct CompareOutcome {
  ec::ir::FrozenGraph a, b;
  std::shared_ptr<const ec::compare::CompareResult> result;
  std::shared_ptr<const ec::compare::PassesResult> stages;  // with CompareJob::passes
};
using CompareOutcomePtr = std::shared_ptr<const CompareOutcome>;

class CompareRunner {
  Q_DECLARE_TR_FUNCTIONS(ec::workbench::CompareRunner)

 public:
  /// Compares as `job` says (worker thread; throws the core's errors, and when cancelled).
  static CompareOutcomePtr run(const CompareJob& job, const JobContext& ctx);
};

}  // namespace ec::workbench
