#include "app/cli/commands/record.h"

#include <iostream>

namespace ec::cli {

void add_runs_db_option(CLI::App* cmd, std::string& runs_db) {
  cmd->add_option("--runs-db", runs_db,
                  "Run history database (default: $EC_RUNS_DB, else $XDG_DATA_HOME/edgecompiler/runs.db)");
}

void add_record_options(CLI::App* cmd, RecordOptions& o) {
  add_runs_db_option(cmd, o.runs_db);
  cmd->add_flag("--no-record", o.no_record, "Do not record this run in the run history");
}

std::int64_t record_run(const RecordOptions& o, history::RunRecord r) {
  const auto out = flows::record_run(std::move(r), o.flow());
  if (!out.error.empty()) std::cerr << "edgecompile: warning: run not recorded: " << out.error << '\n';
  return out.id;
}

}  // namespace ec::cli
