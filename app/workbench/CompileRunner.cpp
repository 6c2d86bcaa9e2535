#include "app/workbench/CompileRunner.h"

#include <exception>

#include <spdlog/spdlog.h>
#include <QThread>

#include "app/workbench/QuantRunner.h"
#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/report/compile_flow.h"
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

void CompileRunner::cancel(quint64 id) { cancel_.cancel(id); }

bool CompileRunner::isQuantised(const ec::ir::Graph& g) { return ec::report::is_quantised(g); }

void CompileRunner::run(const CompileJob& job) {
  if (!job.graph) {
    emit failed(job.id, tr("No model is loaded."));
    return;
  }
  QString error;
  try {
    auto outcome = std::make_shared<CompileOutcome>();
    const quint64 id = job.id;
    auto progressFn = [this, id](const std::string& stage, int done, int total) {
      if (isCancelled(id)) return false;
      emit this->progress(id, QString::fromStdString(stage), done, total);
      return true;
    };
    ec::report::CompileRequest request;
    request.model = job.modelName.toStdString();
    request.target = job.target.toStdString();
    const bool metalWeights = job.quantize == QLatin1String("weights-int8");
    request.quantize = metalWeights ? std::string("none") : job.quantize.toStdString();
    if (metalWeights) request.quantize_label = "weights-int8";
    request.num_segments = job.numSegments;
    const auto resolved = ec::backends::resolve_backend(request.target);
    if (resolved.backend->name() == "metal") {
      request.options = {{"precision", job.precision.toStdString()},
                         {"compute_units", job.computeUnits.toStdString()},
                         {"deployment_target", job.deploymentTarget.toStdString()},
                         {"weights", metalWeights ? "int8" : "none"}};
    }
    const std::string strategy = ec::report::resolve_strategy(request, *job.graph, *resolved.backend);
    if (strategy == "ptq" && !ec::report::is_quantised(*job.graph)) {
      emit progress(id, QStringLiteral("calibrate"), 0, 1);
      request.samples = QuantRunner::calibrationSamples(*job.graph, job.calibrationFile, job.calibrationSamples,
                                                        job.seed, &outcome->calibrationSource);
      request.num_calibration_samples = int(request.samples.size());
      request.data_source = outcome->calibrationSource.toStdString();
    }
    auto run = ec::report::compile_model(*job.graph, request, progressFn);
    if (isCancelled(job.id)) {
      emit cancelled(job.id);
      return;
    }
    outcome->graph = ec::ir::freeze(std::move(run.graph));
    outcome->report = std::make_shared<const ec::report::CompileReport>(std::move(run.report));
    const auto& graph = outcome->graph;
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

CompileSession::CompileSession(QObject* parent)
    : WorkerSession(QStringLiteral("CompileRunner"), parent) {
  registerTypes();
}

}  // namespace ec::workbench
