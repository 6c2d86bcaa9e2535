#include "app/workbench/ExportRunner.h"

#include "core/errors.h"
#include "core/util/atomic_file.h"

namespace ec::workbench {

ExportOutcomePtr ExportRunner::run(const ExportJob& job, const JobContext& ctx) {
  auto cancelled = [] { return EdgeCompilerError(ErrorKind::Usage, "cancelled"); };
  if (ctx.cancelled()) throw cancelled();
  auto outcome = std::make_shared<ExportOutcome>();
  outcome->path = job.path;
  const std::string bytes = job.produce(&outcome->count);
  // Made, not yet written: a cancel that came meanwhile leaves no file.
  if (ctx.cancelled()) throw cancelled();
  ec::util::write_file_atomically(job.path.toStdString(), bytes);
  outcome->bytes = qint64(bytes.size());
  return outcome;
}

}  // namespace ec::workbench
