#include "app/workbench/CompileRunner.h"

#include <exception>

#include <spdlog/spdlog.h>
#include <QThread>

#include "app/workbench/QuantRunner.h"
#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/report/compile_report.h"
#include "widgets/MetaTypes.h"

namespace ec::workbench {

namespace {
void registerTypes() {
  ec::widgets::registerCoreMetaTypes();
  qRegisterMetaType<ec::workbench::CompileJob>("ec::workbench::CompileJob");
  qRegisterMetaType<ec::workbench::CompileOutcomePtr>("ec::workbench::CompileOutcomePtr");
}
}  // namespace

CompileRunner::CompileRunner(QObject* parent) : QObject(parent) { registerTypes(); }

void CompileRunner::cancel(quint64 id) {
  quint64 seen = cancelledUpTo_.load();
  while (seen < id && !cancelledUpTo_.compare_exchange_weak(seen, id)) {
  }
}

bool CompileRunner::isQuantised(const ec::ir::Graph& g) {
  for (const auto& op : g.ops) {
    for (const auto& o : op.outputs) {
      const auto* t = g.find_tensor(o);
      if (t && t->quant && (t->dtype == ec::ir::DType::Int8 || t->dtype == ec::ir::DType::UInt8)) return true;
    }
  }
  return false;
}

void CompileRunner::run(const CompileJob& job) {
  if (!job.graph) {
    emit failed(job.id, tr("No model is loaded."));
    return;
  }
  QString error;
  try {
    auto outcome = std::make_shared<CompileOutcome>();
    auto resolved = ec::backends::resolve_backend(job.target.toStdString());
    ec::ir::FrozenGraph graph = job.graph;
    const bool quantised = isQuantised(*graph);
    const bool metal = resolved.backend->name() == "metal";
    if (job.quantize == QLatin1String("ptq")) {
      if (quantised) {
        throw ec::EdgeCompilerError(ec::ErrorKind::Quantization,
                                    graph->name + " is already quantised; choose quantisation “none” to keep its parameters");
      }
      const quint64 id = job.id;
      emit progress(id, tr("calibrate"), 0, 1);
      const auto samples = ec::quantize::random_samples(*graph, job.randomSamples, job.seed);
      outcome->calibrationSource = QuantRunner::describeRandomSamples(*graph, int(samples.size()), job.seed);
      ec::quantize::QuantizeOptions options;
      options.strategy = "ptq";
      options.num_calibration_samples = int(samples.size());
      options.data_source = outcome->calibrationSource.toStdString();
      auto progressFn = [this, id](const std::string& stage, int done, int total) {
        if (isCancelled(id)) return false;
        emit this->progress(id, QString::fromStdString(stage), done, total);
        return true;
      };
      graph = ec::ir::freeze(ec::quantize::quantize(*graph, samples, options, progressFn).graph);
    } else if (!quantised && resolved.backend->name() == "coral") {
      throw ec::EdgeCompilerError(ec::ErrorKind::Quantization,
                                  graph->name + " is not quantised (float tensors); the Edge TPU needs 8-bit tensors: "
                                                "choose post-training quantisation");
    }
    if (isCancelled(job.id)) {
      emit cancelled(job.id);
      return;
    }
    emit progress(job.id, tr("partition"), 0, 1);
    ec::backends::CompileConfig cfg;
    cfg.num_segments = job.numSegments;
    if (metal) {
      cfg.options = {{"precision", job.precision.toStdString()},
                     {"compute_units", job.computeUnits.toStdString()},
                     {"deployment_target", job.deploymentTarget.toStdString()},
                     {"weights", job.quantize == QLatin1String("weights-int8") ? "int8" : "none"}};
    }
    auto result = resolved.backend->compile(*graph, cfg);
    if (isCancelled(job.id)) {
      emit cancelled(job.id);
      return;
    }
    emit progress(job.id, tr("partition"), 1, 1);
    outcome->graph = graph;
    outcome->report = std::make_shared<const ec::report::CompileReport>(ec::report::make_compile_report(
        job.modelName.toStdString(), job.target.toStdString(), resolved.reason,
        job.quantize.toStdString(), std::move(result)));
    spdlog::info("compiled {} for {}: {} ops on the target, {} on the CPU", graph->name, job.target.toStdString(),
                 outcome->report->result.partition.ops_on_target(), outcome->report->result.partition.ops_on_cpu());
    emit finished(job.id, std::move(outcome));
    return;
  } catch (const ec::EdgeCompilerError& e) {
    if (isCancelled(job.id)) {
      spdlog::info("compile cancelled");
      emit cancelled(job.id);
      return;
    }
    error = QString::fromStdString(e.what());
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("unknown error while compiling the model");
  }
  spdlog::error("{}", error.toStdString());
  emit failed(job.id, error);
}

CompileSession::CompileSession(QObject* parent) : QObject(parent) {
  registerTypes();
  thread_ = new QThread(this);
  thread_->setObjectName(QStringLiteral("CompileRunner"));
  runner_ = new CompileRunner;
  runner_->moveToThread(thread_);
  connect(thread_, &QThread::finished, runner_, &QObject::deleteLater);
  thread_->start();
}

CompileSession::~CompileSession() {
  runner_->cancel(last_);
  thread_->quit();
  thread_->wait();
}

quint64 CompileSession::start(CompileJob job) {
  job.id = ++last_;
  current_ = job.id;
  QMetaObject::invokeMethod(
      runner_, [runner = runner_, job = std::move(job)] { runner->run(job); }, Qt::QueuedConnection);
  return current_;
}

void CompileSession::cancel() {
  if (current_) runner_->cancel(current_);
}

void CompileSession::forget() {
  if (current_) runner_->cancel(current_);
  current_ = 0;
}

bool CompileSession::finish(quint64 id) {
  if (id == 0 || id != current_) return false;
  current_ = 0;
  return true;
}

}  // namespace ec::workbench
