// Recording runs in the history from any subcommand: the shared --runs-db /
// --no-record options, and the one warning line when the record flow
// (core/flows/record.h) could not write the run.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "core/flows/record.h"

namespace ec::cli {

struct RecordOptions {
  std::string runs_db;  // --runs-db; empty = history::default_db_path()
  bool no_record = false;
  flows::RecordOptions flow() const { return {runs_db, !no_record}; }
};

/// Adds --runs-db FILE and --no-record to `cmd`.
void add_record_options(CLI::App* cmd, RecordOptions& o);
/// Adds only --runs-db (for `runs`, which reads).
void add_runs_db_option(CLI::App* cmd, std::string& runs_db);

/// flows::record_run; a history that cannot be written does not fail the command: one
/// warning line on stderr, and 0.
std::int64_t record_run(const RecordOptions& o, history::RunRecord r);

}  // namespace ec::cli
