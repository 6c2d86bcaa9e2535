#include "app/workbench/CompileRunner.h"

#include <algorithm>
#include <utility>

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
    request.num_segments = job.numSegments;
    const auto resolved = ec::backends::resolve_backend(request.target);
    // What the target takes of its own (Capabilities): --quantize modes, options.
    const auto caps = resolved.backend->capabilities();
    auto has = [](const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
    const std::string quantize = job.quantize.toStdString();
    const bool ownMode = has(caps.quantize_modes, quantize);  // the quantiser does not run
    request.quantize = ownMode ? std::string("none") : quantize;
    if (ownMode) {
      request.quantize_label = quantize;
      request.options["quantize"] = quantize;
    }
    for (const auto& [key, value] : {std::pair<std::string, QString>{"precision", job.precision},
                                     {"compute_units", job.computeUnits},
                                     {"deployment_target", job.deploymentTarget}})
      if (has(caps.options, key)) request.options[key] = value.toStdString();
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
