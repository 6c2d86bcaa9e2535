#include "app/workbench/CompareRunner.h"

#include <exception>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"
#include "widgets/MetaTypes.h"

namespace ec::workbench {

CompareRunner::CompareRunner(QObject* parent) : QObject(parent) {
  ec::widgets::registerCoreMetaTypes();
  qRegisterMetaType<ec::workbench::CompareJob>("ec::workbench::CompareJob");
  qRegisterMetaType<ec::workbench::CompareOutcomePtr>("ec::workbench::CompareOutcomePtr");
}

void CompareRunner::cancel(quint64 id) { cancel_.cancel(id); }

void CompareRunner::run(const CompareJob& job) {
  if (!job.a) {
    emit failed(job.id, tr("No model is loaded."));
    return;
  }
  try {
    if (job.passes) {
      const auto samples = ec::compare::random_samples(*job.a, job.samples);
      auto stages = std::make_shared<ec::compare::PassesResult>(ec::compare::compare_passes(
          *job.a, ec::passes::default_pipeline(), samples, {}, 1e-4, [&](int done, int total, const std::string& what) {
            emit progress(job.id, QString::fromStdString(what), done, total);
            return !cancel_.isCancelled(job.id);
          }));
      stages->model = job.pathA.toStdString();
      auto outcome = std::make_shared<CompareOutcome>();
      outcome->a = job.a;
      outcome->stages = std::move(stages);
      emit finished(job.id, std::move(outcome));
      return;
    }
    emit progress(job.id, tr("Opening %1").arg(job.pathB), 0, 1);
    ec::frontends::OpenOptions open;
    open.allow_unknown_ops = true;
    auto b = ec::ir::freeze(ec::frontends::open_model(job.pathB.toStdString(), open));
    if (cancel_.isCancelled(job.id)) {
      emit cancelled(job.id);
      return;
    }
    const auto samples = ec::compare::random_samples(*job.a, job.samples);
    auto result = std::make_shared<ec::compare::CompareResult>(ec::compare::compare_models(
        job.a, b, samples, {}, [&](int done, int total, const std::string& what) {
          emit progress(job.id, QString::fromStdString(what), done, total);
          return !cancel_.isCancelled(job.id);
        }));
    result->model_a = job.pathA.toStdString();
    result->model_b = job.pathB.toStdString();
    auto outcome = std::make_shared<CompareOutcome>();
    outcome->a = job.a;
    outcome->b = std::move(b);
    outcome->result = std::move(result);
    emit finished(job.id, std::move(outcome));
  } catch (const std::exception& e) {
    if (cancel_.isCancelled(job.id)) emit cancelled(job.id);
    else emit failed(job.id, QString::fromUtf8(e.what()));
  }
}

}  // namespace ec::workbench
