// Runs a compile for a target off the GUI thread (Model › Compile for target…):
// quantise (post-training, random calibration samples as Tools › Quantise…
// does, or none for an already quantised model), then the backend's partition,
// overrides, timeline and estimate. Lives on a worker QThread like QuantRunner;
// the window calls run() through a queued connection with a CompileJob and
// receives progress() while it runs and exactly one of finished / failed /
// cancelled per request, all queued. cancel() is called directly from the GUI
// thread: the quantiser's next progress callback answers false; the backend
// step itself is not interruptible, its result is then dropped.
//
// CompileSession owns the worker thread and its runner.
#pragma once

#include <atomic>
#include <memory>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "app/workbench/WorkerSession.h"
#include "core/ir/graph.h"
#include "widgets/compile/CompileModels.h"

class QThread;

namespace ec::workbench {

struct CompileJob {
  quint64 id = 0;
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

class CompileRunner : public QObject {
  Q_OBJECT

 public:
  explicit CompileRunner(QObject* parent = nullptr);
  /// Thread-safe: cancels request `id` (and every earlier one).
  void cancel(quint64 id);
  /// Whether `graph` already has 8-bit quantised tensors.
  static bool isQuantised(const ec::ir::Graph& graph);

 public slots:
  void run(const ec::workbench::CompileJob& job);

 signals:
  void progress(quint64 id, const QString& stage, int done, int total);
  void finished(quint64 id, ec::workbench::CompileOutcomePtr outcome);
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  bool isCancelled(quint64 id) const { return cancel_.isCancelled(id); }
  JobCancel cancel_;
};

/// Owns the worker thread and its runner (WorkerSession.h).
class CompileSession : public WorkerSession<CompileRunner, CompileJob, CompileOutcomePtr> {
 public:
  explicit CompileSession(QObject* parent = nullptr);
};

}  // namespace ec::workbench

Q_DECLARE_METATYPE(ec::workbench::CompileJob)
Q_DECLARE_METATYPE(ec::workbench::CompileOutcomePtr)
