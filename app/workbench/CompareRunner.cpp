#include "app/workbench/CompareRunner.h"

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"

namespace ec::workbench {

CompareOutcomePtr CompareRunner::run(const CompareJob& job, const JobContext& ctx) {
  auto progress = [&ctx](int done, int total, const std::string& what) {
    return ctx.progress(QString::fromStdString(what), done, total);
  };
  auto outcome = std::make_shared<CompareOutcome>();
  outcome->a = job.a;
  if (job.passes) {
    const auto samples = ec::compare::random_samples(*job.a, job.samples);
    auto stages = std::make_shared<ec::compare::PassesResult>(
        ec::compare::compare_passes(*job.a, ec::passes::default_pipeline(), samples, {}, 1e-4, progress));
    stages->model = job.pathA.toStdString();
    outcome->stages = std::move(stages);
    return outcome;
  }
  ctx.progress(tr("Opening %1").arg(job.pathB), 0, 1);
  ec::frontends::OpenOptions open;
  open.allow_unknown_ops = true;
  outcome->b = ec::ir::freeze(ec::frontends::open_model(job.pathB.toStdString(), open));
  if (ctx.cancelled()) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");
  const auto samples = ec::compare::random_samples(*job.a, job.samples);
  auto result = std::make_shared<ec::compare::CompareResult>(
      ec::compare::compare_models(job.a, outcome->b, samples, {}, progress));
  result->model_a = job.pathA.toStdString();
  result->model_b = job.pathB.toStdString();
  outcome->result = std::move(result);
  return outcome;
}

}  // namespace ec::workbench
