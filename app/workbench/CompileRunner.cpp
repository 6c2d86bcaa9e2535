#include "app/workbench/CompileRunner.h"

#include <algorithm>
#include <utility>

#include <spdlog/spdlog.h>

#include "app/workbench/QuantRunner.h"
#include "core/backends/backend_registry.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/report/compile_flow.h"
#include "core/report/compile_report.h"

namespace ec::workbench {

bool CompileRunner::isQuantised(const ec::ir::Graph& g) { return ec::report::is_quantised(g); }

CompileOutcomePtr CompileRunner::run(const CompileJob& job, const JobContext& ctx) {
  auto outcome = std::make_shared<CompileOutcome>();
  auto progressFn = [&ctx](const std::string& stage, int done, int total) {
    return ctx.progress(QString::fromStdString(stage), done, total);
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
    ctx.progress(QStringLiteral("calibrate"), 0, 1);
    request.samples = QuantRunner::calibrationSamples(*job.graph, job.calibrationFile, job.calibrationSamples,
                                                      job.seed, &outcome->calibrationSource);
    request.num_calibration_samples = int(request.samples.size());
    request.data_source = outcome->calibrationSource.toStdString();
  }
  auto run = ec::report::compile_model(*job.graph, request, progressFn);
  outcome->graph = ec::ir::freeze(std::move(run.graph));
  outcome->report = std::make_shared<const ec::report::CompileReport>(std::move(run.report));
  spdlog::info("compiled {} for {}: {} ops on the target, {} on the CPU", outcome->graph->name, job.target.toStdString(),
               outcome->report->result.partition.ops_on_target(), outcome->report->result.partition.ops_on_cpu());
  return outcome;
}

}  // namespace ec::workbench
