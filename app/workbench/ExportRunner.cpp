#include "app/workbench/ExportRunner.h"

#include <exception>

#include "core/util/atomic_file.h"

namespace ec::workbench {

ExportRunner::ExportRunner(QObject* parent) : QObject(parent) {
  qRegisterMetaType<ec::workbench::ExportJob>("ec::workbench::ExportJob");
  qRegisterMetaType<ec::workbench::ExportOutcomePtr>("ec::workbench::ExportOutcomePtr");
}

void ExportRunner::run(const ExportJob& job) {
  if (cancel_.isCancelled(job.id)) {
    emit cancelled(job.id);
    return;
  }
  try {
    auto outcome = std::make_shared<ExportOutcome>();
    outcome->path = job.path;
    const std::string bytes = job.produce(&outcome->count);
    // Made, not yet written: a cancel that came meanwhile leaves no file.
    if (cancel_.isCancelled(job.id)) {
      emit cancelled(job.id);
      return;
    }
    ec::util::write_file_atomically(job.path.toStdString(), bytes);
    outcome->bytes = qint64(bytes.size());
    emit finished(job.id, std::move(outcome));
  } catch (const std::exception& e) {
    if (cancel_.isCancelled(job.id)) emit cancelled(job.id);
    else emit failed(job.id, QString::fromUtf8(e.what()));
  }
}

}  // namespace ec::workbench
