// The Benchmark panel: choose device, iterations, warm-up and threads; Run asks for a
// benchmark (runRequested: the workbench's BenchController runs the bench flow,
// core/flows/bench.h, on a worker and records the run) and Cancel asks to stop it; the
// panel shows the progress and then the Stats it is given: every figure in a table, the
// latency per iteration, the latency histogram with p50/p95/p99 and the per-op time
// chart. It runs and records nothing itself.
#pragma once

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
class QTreeWidget;

namespace ec::widgets {

/// What Run asks for (BenchmarkPanel::runRequested): the panel's settings.
struct BenchmarkRequest {
  QString modelPath;
  QString device = QStringLiteral("host-cpu");
  int iterations = 50, warmup = 5, threads = 1;
  bool record = true;
  QString runsDb;  // empty: the default database (history::default_db_path())
};

class BenchmarkPanel : public QWidget {
  Q_OBJECT

 public:
  explicit BenchmarkPanel(QWidget* parent = nullptr);

  /// The model (or compiled artefact) to time; empty disables Run.
  void setModelPath(const QString& path);
  QString modelPath() const { return modelPath_; }
  /// Devices offered (ids); "host-cpu" when none are given.
  void setDevices(const QStringList& devices);
  /// Where runs are recorded (empty: the default database).
  void setRunsDatabase(const QString& path) { runsDb_ = path; }
  void setIterations(int n);
  void setWarmup(int n);
  void setThreads(int n);
  void setRecord(bool on);

  /// Asks for a benchmark with the panel's settings (runRequested); false when one runs
  /// or no model is set.
  bool start();
  /// Asks to cancel the running benchmark (cancelRequested).
  void cancel();
  bool isRunning() const { return running_; }

  /// The last finished run's statistics (null before the first) and its history id.
  StatsPtr stats() const { return stats_; }
  qint64 runId() const { return runId_; }

  LatencyChart* latencyChart() const { return latency_; }
  LatencyHistogram* histogram() const { return histogram_; }
  OpTimeChart* opTimeChart() const { return opTimes_; }
  QProgressBar* progressBar() const { return progress_; }
  QTreeWidget* figures() const { return figures_; }

 public slots:
  /// The running benchmark's progress (runs done of `total`).
  void showProgress(int done, int total);
  /// The benchmark finished: its statistics (null when the device only estimated: `note`
  /// says what), its run-history id (0: not recorded) and why it was not recorded when
  /// recording failed ("" otherwise).
  void showResult(ec::widgets::StatsPtr stats, qint64 runId, const QString& recordError, const QString& note = {});
  void showFailure(const QString& message);
  void showCancelled();

 signals:
  /// Run: the request to benchmark (answered by showProgress and one of showResult /
  /// showFailure / showCancelled).
  void runRequested(const ec::widgets::BenchmarkRequest& request);
  void cancelRequested();
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

  bool running_ = false;
  StatsPtr stats_;
  qint64 runId_ = 0;
  QString statusText_;
};

}  // namespace ec::widgets

Q_DECLARE_METATYPE(ec::widgets::BenchmarkRequest)
Q_DECLARE_METATYPE(ec::widgets::StatsPtr)
