#include "app/workbench/QuantRunner.h"

#include <spdlog/spdlog.h>
#include <QFileInfo>
#include <QStringList>

#include "core/quantize/calibration_data.h"

namespace ec::workbench {

std::vector<ec::quantize::Sample> QuantRunner::samplesFor(const QuantJob& job, QString* source) {
  return calibrationSamples(*job.graph, job.calibrationFile,
                            job.calibrationFile.isEmpty() ? job.randomSamples : job.options.num_calibration_samples,
                            job.seed, source);
}

std::vector<ec::quantize::Sample> QuantRunner::calibrationSamples(const ec::ir::Graph& graph, const QString& file,
                                                                  int count, quint64 seed, QString* source) {
  std::vector<ec::quantize::Sample> samples;
  if (file.isEmpty()) {
    samples = ec::quantize::random_samples(graph, count, seed);
    if (source) *source = describeRandomSamples(graph, int(samples.size()), seed);
  } else {
    samples = ec::quantize::load_calibration_data(file.toStdString(), graph, count);
    if (source) *source = tr("%1 (%n sample(s))", nullptr, int(samples.size())).arg(QFileInfo(file).fileName());
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

QuantOutcomePtr QuantRunner::run(const QuantJob& job, const JobContext& ctx) {
  auto outcome = std::make_shared<QuantOutcome>();
  outcome->floatGraph = job.graph;
  const std::vector<ec::quantize::Sample> samples = samplesFor(job, &outcome->calibrationSource);
  ec::quantize::QuantizeOptions options = job.options;
  if (job.calibrationFile.isEmpty()) options.num_calibration_samples = int(samples.size());
  options.data_source = outcome->calibrationSource.toStdString();
  auto progress = [&ctx](const std::string& stage, int done, int total) {
    return ctx.progress(QString::fromStdString(stage), done, total);
  };
  ec::quantize::QuantizeResult result = ec::quantize::quantize(*job.graph, samples, options, progress);
  outcome->quantisedGraph = ec::ir::freeze(std::move(result.graph));
  outcome->report = std::make_shared<const ec::quantize::QuantReport>(std::move(result.report));
  spdlog::info("quantised {}: {} layers in int8, {} ops in float, calibrated on {}", job.graph->name,
               outcome->report->layers.size(), outcome->report->float_ops.size(),
               outcome->calibrationSource.toStdString());
  return outcome;
}

}  // namespace ec::workbench
