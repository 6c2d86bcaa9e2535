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
  std::atomic<quint64> cancelledUpTo_{0};
};

class QuantSession : public QObject {
  Q_OBJECT

 public:
  explicit QuantSession(QObject* parent = nullptr);
  /// Cancels a running job and waits for the worker thread to end.
  ~QuantSession() override;

  QuantRunner* runner() const { return runner_; }
  /// Starts `job` (its id is assigned here) and returns the id.
  quint64 start(QuantJob job);
  /// Cancels the running job, if any; its cancelled() still arrives.
  void cancel();
  /// Forgets the running job: its result will be ignored (a new model was loaded).
  void forget();
  bool isRunning() const { return current_ != 0; }
  /// The request whose result is awaited (0: none).
  quint64 current() const { return current_; }
  /// Marks request `id` done (called when its result arrived); false if it was not current.
  bool finish(quint64 id);

  /// The last successful run (null before the first).
  QuantOutcomePtr outcome;

 private:
  QThread* thread_ = nullptr;
  QuantRunner* runner_ = nullptr;
  quint64 last_ = 0;
  quint64 current_ = 0;
};

}  // namespace ec::workbench

Q_DECLARE_METATYPE(ec::workbench::QuantJob)
Q_DECLARE_METATYPE(ec::workbench::QuantOutcomePtr)
