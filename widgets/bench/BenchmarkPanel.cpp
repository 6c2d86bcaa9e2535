#include "widgets/bench/BenchmarkPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

#include "core/runtime/stats.h"

namespace ec::widgets {

BenchmarkPanel::BenchmarkPanel(QWidget* parent) : QWidget(parent) {
  qRegisterMetaType<BenchmarkRequest>();
  qRegisterMetaType<StatsPtr>();
  // Settings in a narrow column on the left, the results (figures and charts) beside
  // them with the rest of the width: the dock sits below the graph and is short.
  auto* outer = new QHBoxLayout(this);
  auto* settings = new QWidget(this);
  settings->setMaximumWidth(380);
  auto* layout = new QVBoxLayout(settings);
  layout->setContentsMargins(0, 0, 0, 0);
  model_ = new QLabel(this);
  model_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  model_->setWordWrap(true);
  layout->addWidget(model_);

  auto* form = new QFormLayout;
  device_ = new QComboBox(this);
  iterations_ = new QSpinBox(this);
  iterations_->setRange(1, 1000000);
  iterations_->setValue(50);
  warmup_ = new QSpinBox(this);
  warmup_->setRange(0, 100000);
  warmup_->setValue(5);
  threads_ = new QSpinBox(this);
  threads_->setRange(0, 1024);
  threads_->setValue(1);
  deviceLabel_ = new QLabel(this);
  iterationsLabel_ = new QLabel(this);
  warmupLabel_ = new QLabel(this);
  threadsLabel_ = new QLabel(this);
  form->addRow(deviceLabel_, device_);
  form->addRow(iterationsLabel_, iterations_);
  form->addRow(warmupLabel_, warmup_);
  form->addRow(threadsLabel_, threads_);
  layout->addLayout(form);
  record_ = new QCheckBox(this);
  record_->setChecked(true);
  layout->addWidget(record_);

  auto* buttons = new QHBoxLayout;
  run_ = new QPushButton(this);
  cancel_ = new QPushButton(this);
  progress_ = new QProgressBar(this);
  progress_->setRange(0, 1);
  progress_->setValue(0);
  buttons->addWidget(run_);
  buttons->addWidget(cancel_);
  buttons->addStretch(1);
  layout->addLayout(buttons);
  layout->addWidget(progress_);
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  layout->addWidget(status_);
  layout->addStretch(1);
  outer->addWidget(settings);

  tabs_ = new QTabWidget(this);
  figures_ = new QTreeWidget(this);
  figures_->setColumnCount(2);
  figures_->setRootIsDecorated(false);
  figures_->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
  latency_ = new LatencyChart(this);
  histogram_ = new LatencyHistogram(this);
  opTimes_ = new OpTimeChart(this);
  for (QWidget* w : {static_cast<QWidget*>(figures_), static_cast<QWidget*>(latency_), static_cast<QWidget*>(histogram_),
                     static_cast<QWidget*>(opTimes_)})
    tabs_->addTab(w, QString());
  outer->addWidget(tabs_, 1);
  setDevices({});
  setModelPath({});

  connect(run_, &QPushButton::clicked, this, &BenchmarkPanel::start);
  connect(cancel_, &QPushButton::clicked, this, &BenchmarkPanel::cancel);
  retranslate();
  setRunning(false);
}

void BenchmarkPanel::setModelPath(const QString& path) {
  modelPath_ = path;
  model_->setText(path.isEmpty() ? tr("No model open.") : tr("Model: %1").arg(QFileInfo(path).fileName()));
  model_->setToolTip(path);
  if (run_) run_->setEnabled(!path.isEmpty() && !isRunning());
}

void BenchmarkPanel::setDevices(const QStringList& devices) {
  device_->clear();
  device_->addItems(devices.isEmpty() ? QStringList{QStringLiteral("host-cpu")} : devices);
}

void BenchmarkPanel::setIterations(int n) { iterations_->setValue(n); }
void BenchmarkPanel::setWarmup(int n) { warmup_->setValue(n); }
void BenchmarkPanel::setThreads(int n) { threads_->setValue(n); }
void BenchmarkPanel::setRecord(bool on) { record_->setChecked(on); }

bool BenchmarkPanel::start() {
  if (isRunning() || modelPath_.isEmpty()) return false;
  BenchmarkRequest request;
  request.modelPath = modelPath_;
  request.device = device_->currentText();
  request.iterations = iterations_->value();
  request.warmup = warmup_->value();
  request.threads = threads_->value();
  request.record = record_->isChecked();
  request.runsDb = runsDb_;
  progress_->setRange(0, 1 + request.warmup + request.iterations);
  progress_->setValue(0);
  statusText_ = tr("Running %n timed run(s)…", nullptr, request.iterations);
  status_->setText(statusText_);
  setRunning(true);
  emit runRequested(request);
  return true;
}

void BenchmarkPanel::cancel() {
  if (isRunning()) emit cancelRequested();
}

void BenchmarkPanel::showProgress(int done, int total) {
  if (!isRunning()) return;
  progress_->setRange(0, total);
  progress_->setValue(done);
}

void BenchmarkPanel::showResult(StatsPtr stats, qint64 runId, const QString& recordError, const QString& note) {
  if (!isRunning()) return;
  setRunning(false);
  stats_ = stats;
  runId_ = runId;
  statusText_ = runId > 0              ? tr("Recorded as run %1 in the run history.").arg(runId)
                : !recordError.isEmpty() ? tr("Not recorded: %1").arg(recordError)
                                         : note;
  status_->setText(statusText_);
  showStats(stats);
  emit finished(stats, runId);
}

void BenchmarkPanel::showFailure(const QString& message) {
  if (!isRunning()) return;
  setRunning(false);
  statusText_ = message;
  status_->setText(message);
  emit failed(message);
}

void BenchmarkPanel::showCancelled() {
  if (!isRunning()) return;
  setRunning(false);
  statusText_ = tr("Cancelled.");
  status_->setText(statusText_);
  emit cancelled();
}

void BenchmarkPanel::setRunning(bool running) {
  running_ = running;
  run_->setEnabled(!running && !modelPath_.isEmpty());
  cancel_->setEnabled(running);
  for (QWidget* w : {static_cast<QWidget*>(device_), static_cast<QWidget*>(iterations_),
                     static_cast<QWidget*>(warmup_), static_cast<QWidget*>(threads_)})
    w->setEnabled(!running);
}

void BenchmarkPanel::showStats(const StatsPtr& stats) {
  latency_->setStats(stats);
  histogram_->setStats(stats);
  opTimes_->setStats(stats);
  figures_->clear();
  if (!stats) return;
  const auto& s = *stats;
  auto ms = [](double v) { return tr("%1 ms").arg(v, 0, 'f', 3); };
  auto mib = [](std::uint64_t b) { return tr("%1 MiB").arg(double(b) / 1048576.0, 0, 'f', 1); };
  const double opSum = ec::runtime::op_profile_total_ms(s);
  const std::pair<QString, QString> rows[] = {
      {tr("init (load + prepare)"), ms(s.init_ms)},
      {tr("first inference"), ms(s.first_ms)},
      {tr("warm-up mean (%n run(s))", nullptr, s.warmup), s.warmup > 0 ? ms(s.warmup_mean_ms) : tr("none")},
      {tr("timed runs"), QString::number(s.iterations)},
      {tr("mean"), ms(s.mean_ms)},
      {tr("stdev"), ms(s.stdev_ms)},
      {tr("min"), ms(s.min_ms)},
      {tr("max"), ms(s.max_ms)},
      {tr("p50"), ms(s.p50_ms)},
      {tr("p90"), ms(s.p90_ms)},
      {tr("p95"), ms(s.p95_ms)},
      {tr("p99"), ms(s.p99_ms)},
      {tr("throughput"), tr("%1 inferences/s").arg(s.throughput, 0, 'f', 1)},
      {tr("peak memory"), mib(s.peak_rss_bytes)},
      {tr("activation arena"), mib(s.arena_bytes)},
      {tr("threads"), QString::number(s.threads)},
      {tr("per-op profile"), s.op_profile.empty() ? tr("none")
                                                  : tr("%1 ops, sum %2 (%3% of the mean)")
                                                        .arg(s.op_profile.size())
                                                        .arg(ms(opSum))
                                                        .arg(s.mean_ms > 0 ? 100 * opSum / s.mean_ms : 0.0, 0, 'f', 1)},
  };
  for (const auto& [name, value] : rows) new QTreeWidgetItem(figures_, {name, value});
}

void BenchmarkPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void BenchmarkPanel::retranslate() {
  deviceLabel_->setText(tr("Device"));
  iterationsLabel_->setText(tr("Timed runs"));
  warmupLabel_->setText(tr("Warm-up runs"));
  threadsLabel_->setText(tr("Threads (0 = every core)"));
  record_->setText(tr("Record in the run history"));
  run_->setText(tr("Run"));
  cancel_->setText(tr("Cancel"));
  figures_->setHeaderLabels({tr("Figure"), tr("Value")});
  tabs_->setTabText(0, tr("Figures"));
  tabs_->setTabText(1, tr("Latency per run"));
  tabs_->setTabText(2, tr("Histogram"));
  tabs_->setTabText(3, tr("Time per op"));
  latency_->retranslate();
  histogram_->retranslate();
  opTimes_->retranslate();
  setModelPath(modelPath_);
  showStats(stats_);
}

}  // namespace ec::widgets
