// Recording runs in the history (core/history) from any subcommand: the shared
// --runs-db / --no-record options and one function that records or warns.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

#include "core/history/run_store.h"

namespace ec::cli {

struct RecordOptions {
  std::string runs_db;  // --runs-db; empty = history::default_db_path()
  bool no_record = false;
};

/// Adds --runs-db FILE and --no-record to `cmd`.
void add_record_options(CLI::App* cmd, RecordOptions& o);
/// Adds only --runs-db (for `runs`, which reads).
void add_runs_db_option(CLI::App* cmd, std::string& runs_db);

/// --runs-db, else $EC_RUNS_DB, else $XDG_DATA_HOME/edgecompiler/runs.db.
std::string runs_db_path(const std::string& runs_db);

/// A record of `kind` for `model` (path made absolute, SHA-256 of its bytes).
history::RunRecord make_record(const std::string& kind, const std::string& model);

/// Records `r` unless --no-record; returns its id. A history that cannot be written
/// does not fail the command: one warning line on stderr, and 0.
std::int64_t record_run(const RecordOptions& o, history::RunRecord r);

}  // namespace ec::cli
