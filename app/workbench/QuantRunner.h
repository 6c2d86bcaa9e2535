// Runs the quantiser off the GUI thread. Lives on a worker QThread; the window
// calls run() through a queued connection with a QuantJob (a frozen float
// graph, options, where the calibration data comes from) and receives
// progress() while it runs and exactly one of finished / failed / cancelled
// per request, all queued. cancel() is called directly from the GUI thread
// (the worker is busy inside quantize()): the next progress callback answers
// false and quantize() stops.
//
// QuantSession owns the worker thread and its runner: the window keeps one as
// a child, and destroying it cancels a running job and joins the thread.
#pragma once

#include <atomic>
#include <memory>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "app/workbench/WorkerSession.h"
#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"
#include "widgets/quant/QuantFormat.h"

class QThread;

namespace ec::workbench {

struct QuantJob {
  quint64 id = 0;
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

class QuantRunner : public QObject {
  Q_OBJECT

 public:
  explicit QuantRunner(QObject* parent = nullptr);

  /// Thread-safe: cancels request `id` (and every earlier one).
  void cancel(quint64 id);

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

 public slots:
  void run(const ec::workbench::QuantJob& job);

 signals:
  void progress(quint64 id, const QString& stage, int done, int total);
  void finished(quint64 id, ec::workbench::QuantOutcomePtr outcome);
  /// `message` is the core's one-line error.
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  JobCancel cancel_;
};

/// Owns the worker thread and its runner (WorkerSession.h).
class QuantSession : public WorkerSession<QuantRunner, QuantJob, QuantOutcomePtr> {
 public:
  explicit QuantSession(QObject* parent = nullptr);
};

}  // namespace ec::workbench

Q_DECLARE_METATYPE(ec::workbench::QuantJob)
Q_DECLARE_METATYPE(ec::workbench::QuantOutcomePtr)
