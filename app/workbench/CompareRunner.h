// Runs Model › Compare With… off the GUI thread (issue 42): opens the second
// model and runs core/compare's compare_models on fixed-seed random samples. Lives
// on a worker QThread like QuantRunner: run() through a queued connection,
// progress() while it runs, exactly one of finished / failed / cancelled per
// request; cancel() is called from the GUI thread and answered at the next
// progress callback.
#pragma once

#include <memory>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "app/workbench/WorkerSession.h"
#include "core/compare/compare.h"
#include "core/ir/graph.h"

namespace ec::workbench {

struct CompareJob {
  quint64 id = 0;
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

class CompareRunner : public QObject {
  Q_OBJECT

 public:
  explicit CompareRunner(QObject* parent = nullptr);
  /// Thread-safe: cancels request `id` (and every earlier one).
  void cancel(quint64 id);

 public slots:
  void run(const ec::workbench::CompareJob& job);

 signals:
  void progress(quint64 id, const QString& stage, int done, int total);
  void finished(quint64 id, ec::workbench::CompareOutcomePtr outcome);
  /// `message` is the core's one-line error.
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  JobCancel cancel_;
};

class CompareSession : public WorkerSession<CompareRunner, CompareJob, CompareOutcomePtr> {
 public:
  explicit CompareSession(QObject* parent = nullptr)
      : WorkerSession(QStringLiteral("CompareRunner"), parent) {}
};

}  // namespace ec::workbench

Q_DECLARE_METATYPE(ec::workbench::CompareJob)
Q_DECLARE_METATYPE(ec::workbench::CompareOutcomePtr)
