// The record-a-run flow: what `edgecompile compile` and `bench` and the workbench's
// Benchmark panel add to the run history (core/history), and the one way a run is
// "not recorded" (a history that cannot be written never fails the work it records).
#pragma once

#include <cstdint>
#include <string>

#include "core/history/run_store.h"

namespace ec::flows {

/// Where a run goes: `runs_db` ("" = history::db_path_or_default: $EC_RUNS_DB, else
/// $XDG_DATA_HOME/edgecompiler/runs.db); `record` false = nowhere (--no-record).
struct RecordOptions {
  std::string runs_db;
  bool record = true;
};

/// What happened to a run: its id (0 = not recorded), the database, and why not when
/// recording was asked for and failed ("" otherwise).
struct RecordOutcome {
  std::int64_t id = 0;
  std::string db_path;
  std::string error;
  bool recorded() const { return id > 0; }
};

/// The database `runs_db` names ("" = the default).
std::string runs_db_path(const std::string& runs_db);

/// A record of `kind` for `model` (path made absolute and normal; the SHA-256 of its bytes
/// is taken when it is recorded).
history::RunRecord new_run_record(const std::string& kind, const std::string& model);

/// Adds `r` to the history unless `o.record` is false (the model's SHA-256 filled in when
/// empty). Never throws for the store: a file that cannot be opened or written comes back
/// as `error` with id 0.
RecordOutcome record_run(history::RunRecord r, const RecordOptions& o);

}  // namespace ec::flows
