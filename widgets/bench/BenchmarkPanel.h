// The Benchmark panel: choose device, iterations, warm-up and threads, run the
// benchmark runner (core/session/benchmark.h) on a worker thread with a
// progress bar and Cancel, then show the Stats: every figure in a table, the
// latency per iteration, the latency histogram with p50/p95/p99 and the per-op
// time chart. The run is recorded in the run history (core/history) unless
// told otherwise. Results arrive as an immutable Stats through queued signals.
#pragma once

#include <algorithm>
#include <atomic>
#include <memory>

#include <QMetaType>
#include <QObject>
#include <QString>
#include <QWidget>

#include "widgets/bench/BenchCharts.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QThread;
class QTreeWidget;

namespace ec::widgets {

struct BenchmarkJob {
  quint64 id = 0;
  QString modelPath;
  QString device = QStringLiteral("host-cpu");
  int iterations = 50, warmup = 5, threads = 1;
  QString runsDb;  // empty: do not record
};

/// Runs BenchmarkJobs on the thread it lives on; cancel() may be called from any thread.
class BenchmarkWorker : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;
  void cancel(quint64 id) { cancelledUpTo_ = std::max<quint64>(cancelledUpTo_.load(), id); }

 public slots:
  void run(const ec::widgets::BenchmarkJob& job);

 signals:
  void progress(quint64 id, int done, int total);
  /// `runId` is the run history's id (0: not recorded; `recordError` says why when it failed).
  void finished(quint64 id, ec::widgets::StatsPtr stats, qint64 runId, const QString& recordError);
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  std::atomic<quint64> cancelledUpTo_{0};
};

class BenchmarkPanel : public QWidget {
  Q_OBJECT

 public:
  explicit BenchmarkPanel(QWidget* parent = nullptr);
  /// Cancels a running benchmark and waits for the worker thread to end.
  ~BenchmarkPanel() override;

  /// The model (or compiled artefact) to time; empty disables Run.
  void setModelPath(const QString& path);
  QString modelPath() const { return modelPath_; }
  /// Devices offered (ids); "host-cpu" when none are given.
  void setDevices(const QStringList& devices);
  /// Where runs are recorded (empty: history::default_db_path()).
  void setRunsDatabase(const QString& path) { runsDb_ = path; }
  void setIterations(int n);
  void setWarmup(int n);
  void setThreads(int n);
  void setRecord(bool on);

  /// Starts a benchmark with the panel's settings; false when one runs or no model is set.
  bool start();
  void cancel();
  bool isRunning() const { return current_ != 0; }

  /// The last finished run's statistics (null before the first) and its history id.
  StatsPtr stats() const { return stats_; }
  qint64 runId() const { return runId_; }

  LatencyChart* latencyChart() const { return latency_; }
  LatencyHistogram* histogram() const { return histogram_; }
  OpTimeChart* opTimeChart() const { return opTimes_; }
  QProgressBar* progressBar() const { return progress_; }
  QTreeWidget* figures() const { return figures_; }

 signals:
  /// A run finished; `stats` is shown by every chart (for the graph's per-op colouring too).
  void finished(ec::widgets::StatsPtr stats, qint64 runId);
  void failed(const QString& message);
  void cancelled();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  void setRunning(bool running);
  void showStats(const StatsPtr& stats);

  QString modelPath_, runsDb_;
  QLabel* model_ = nullptr;
  QLabel* deviceLabel_ = nullptr;
  QLabel* iterationsLabel_ = nullptr;
  QLabel* warmupLabel_ = nullptr;
  QLabel* threadsLabel_ = nullptr;
  QComboBox* device_ = nullptr;
  QSpinBox* iterations_ = nullptr;
  QSpinBox* warmup_ = nullptr;
  QSpinBox* threads_ = nullptr;
  QCheckBox* record_ = nullptr;
  QPushButton* run_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QTreeWidget* figures_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  LatencyChart* latency_ = nullptr;
  LatencyHistogram* histogram_ = nullptr;
  OpTimeChart* opTimes_ = nullptr;

  QThread* thread_ = nullptr;
  BenchmarkWorker* worker_ = nullptr;
  quint64 last_ = 0, current_ = 0;
  StatsPtr stats_;
  qint64 runId_ = 0;
  QString statusText_;
};

}  // namespace ec::widgets

Q_DECLARE_METATYPE(ec::widgets::BenchmarkJob)
Q_DECLARE_METATYPE(ec::widgets::StatsPtr)
