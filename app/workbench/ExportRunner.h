// The work of writing an export file (File › Export), run on the ExportController's
// JobRunner (JobRunner.h): laying out, rendering or serialising a big model takes
// seconds. The core's renderers and writers cannot be interrupted: a cancel makes the
// work drop what it made instead of writing it, so a cancelled export leaves no file.
// The file is written atomically (core/util/atomic_file.h): a failure leaves nothing
// behind.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <QString>

#include "app/workbench/JobRunner.h"

namespace ec::workbench {

struct ExportJob {
  QString path;  ///< the file to write
  /// Makes the file's bytes on the worker thread (may throw the core's errors); sets
  /// `count` to what the success message counts (ops drawn, ops written, rows).
  std::function<std::string(std::size_t* count)> produce;
};

/// What one export wrote.
struct ExportOutcome {
  QString path;
  qint64 bytes = 0;
  std::size_t count = 0;
};
using ExportOutcomePtr = std::shared_ptr<const ExportOutcome>;

struct ExportRunner {
  /// Makes the file's bytes and writes them unless cancelled meanwhile (worker thread;
  /// throws the core's errors, and when cancelled).
  static ExportOutcomePtr run(const ExportJob& job, const JobContext& ctx);
};

}  // namespace ec::workbench
