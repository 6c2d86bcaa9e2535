#include "app/workbench/QuantRunner.h"

#include <exception>

#include <spdlog/spdlog.h>
#include <QFileInfo>
#include <QStringList>
#include <QThread>

#include "core/errors.h"
#include "core/quantize/calibration_data.h"
#include "widgets/MetaTypes.h"

namespace ec::workbench {

namespace {
void registerTypes() {
  ec::widgets::registerCoreMetaTypes();
  qRegisterMetaType<ec::workbench::QuantJob>("ec::workbench::QuantJob");
  qRegisterMetaType<ec::workbench::QuantOutcomePtr>("ec::workbench::QuantOutcomePtr");
  qRegisterMetaType<ec::widgets::QuantReportPtr>("ec::widgets::QuantReportPtr");
}
}  // namespace

QuantRunner::QuantRunner(QObject* parent) : QObject(parent) { registerTypes(); }

void QuantRunner::cancel(quint64 id) {
  quint64 seen = cancelledUpTo_.load();
  while (seen < id && !cancelledUpTo_.compare_exchange_weak(seen, id)) {
  }
}

std::vector<ec::quantize::Sample> QuantRunner::samplesFor(const QuantJob& job, QString* source) {
  std::vector<ec::quantize::Sample> samples;
  if (job.calibrationFile.isEmpty()) {
    samples = ec::quantize::random_samples(*job.graph, job.randomSamples, job.seed);
    if (source) *source = describeRandomSamples(*job.graph, int(samples.size()), job.seed);
  } else {
    samples = ec::quantize::load_calibration_data(job.calibrationFile.toStdString(), *job.graph,
                                                  job.options.num_calibration_samples);
    if (source) {
      *source = tr("%1 (%n sample(s))", nullptr, int(samples.size()))
                    .arg(QFileInfo(job.calibrationFile).fileName());
    }
  }
  return samples;
}

QString QuantRunner::describeRandomSamples(const ec::ir::Graph& graph, int n, quint64 seed) {
  using Kind = ec::quantize::RandomInputRange::Kind;
  QStringList inputs;
  for (const auto& r : ec::quantize::random_input_ranges(graph)) {
    const QString name = QString::fromStdString(r.input);
    const QString dtype = QString::fromLatin1(ec::ir::dtype_name(r.dtype).data(), qsizetype(ec::ir::dtype_name(r.dtype).size()));
    switch (r.kind) {
      case Kind::Float:
        inputs << tr("“%1” %2 uniform in [%3, %4)").arg(name, dtype).arg(r.lo).arg(r.hi);
        break;
      case Kind::TableIndex:
        inputs << tr("“%1” %2 token ids uniform in [0, %3), the rows of the table “%4” it indexes")
                      .arg(name, dtype)
                      .arg(r.hi)
                      .arg(QString::fromStdString(r.table));
        break;
      case Kind::SmallInteger:
        inputs << tr("“%1” %2 integers 0 or 1 (no table it indexes was found)").arg(name, dtype);
        break;
    }
  }
  return tr("%n random sample(s) (seed %1): %2", nullptr, n).arg(seed).arg(inputs.join(QStringLiteral("; ")));
}

void QuantRunner::run(const QuantJob& job) {
  if (!job.graph) {
    emit failed(job.id, tr("No model is loaded."));
    return;
  }
  QString error;
  try {
    auto outcome = std::make_shared<QuantOutcome>();
    outcome->floatGraph = job.graph;
    const std::vector<ec::quantize::Sample> samples = samplesFor(job, &outcome->calibrationSource);
    ec::quantize::QuantizeOptions options = job.options;
    if (job.calibrationFile.isEmpty()) options.num_calibration_samples = int(samples.size());
    options.data_source = outcome->calibrationSource.toStdString();
    const quint64 id = job.id;
    auto progress = [this, id](const std::string& stage, int done, int total) {
      if (cancelledUpTo_.load() >= id) return false;
      emit this->progress(id, QString::fromStdString(stage), done, total);
      return true;
    };
    ec::quantize::QuantizeResult result =
        ec::quantize::quantize(*job.graph, samples, options, progress);
    outcome->quantisedGraph = ec::ir::freeze(std::move(result.graph));
    outcome->report = std::make_shared<const ec::quantize::QuantReport>(std::move(result.report));
    spdlog::info("quantised {}: {} layers in int8, {} ops in float, calibrated on {}",
                 job.graph->name, outcome->report->layers.size(), outcome->report->float_ops.size(),
                 outcome->calibrationSource.toStdString());
    emit finished(job.id, std::move(outcome));
    return;
  } catch (const ec::EdgeCompilerError& e) {
    if (cancelledUpTo_.load() >= job.id) {
      spdlog::info("quantisation cancelled");
      emit cancelled(job.id);
      return;
    }
    error = QString::fromStdString(e.what());
    if (!e.detail().empty()) spdlog::debug("{}", e.detail());
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("unknown error while quantising the model");
  }
  spdlog::error("{}", error.toStdString());
  emit failed(job.id, error);
}

QuantSession::QuantSession(QObject* parent) : QObject(parent) {
  registerTypes();
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("QuantRunner"));
  runner_ = new QuantRunner;
  runner_->moveToThread(thread_);
  connect(thread_, &QThread::finished, runner_, &QObject::deleteLater);
  thread_->start();
}

QuantSession::~QuantSession() {
  runner_->cancel(last_);
  thread_->quit();
  thread_->wait();
}

quint64 QuantSession::start(QuantJob job) {
  job.id = ++last_;
  current_ = job.id;
  QMetaObject::invokeMethod(
      runner_, [runner = runner_, job = std::move(job)] { runner->run(job); }, Qt::QueuedConnection);
  return current_;
}

void QuantSession::cancel() {
  if (current_) runner_->cancel(current_);
}

void QuantSession::forget() {
  if (current_) runner_->cancel(current_);
  current_ = 0;
}

bool QuantSession::finish(quint64 id) {
  if (id == 0 || id != current_) return false;
  current_ = 0;
  return true;
}

}  // namespace ec::workbench
