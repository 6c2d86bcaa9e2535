#include "app/cli/commands/record.h"

#include <filesystem>
#include <iostream>

#include "core/history/model_hash.h"
#include "core/history/run_json.h"

namespace ec::cli {

void add_runs_db_option(CLI::App* cmd, std::string& runs_db) {
  cmd->add_option("--runs-db", runs_db,
                  "Run history database (default: $EC_RUNS_DB, else $XDG_DATA_HOME/edgecompiler/runs.db)");
}

void add_record_options(CLI::App* cmd, RecordOptions& o) {
  add_runs_db_option(cmd, o.runs_db);
  cmd->add_flag("--no-record", o.no_record, "Do not record this run in the run history");
}

std::string runs_db_path(const std::string& runs_db) {
  return history::db_path_or_default(runs_db);
}

history::RunRecord make_record(const std::string& kind, const std::string& model) {
  history::RunRecord r;
  r.kind = kind;
  std::error_code ec;
  const auto abs = std::filesystem::absolute(model, ec);
  r.model_path = ec ? model : abs.lexically_normal().string();
  return r;
}

std::int64_t record_run(const RecordOptions& o, history::RunRecord r) {
  if (o.no_record) return 0;
  try {
    if (r.model_sha256.empty()) r.model_sha256 = history::sha256_file(r.model_path);
    history::RunStore store(runs_db_path(o.runs_db));
    return store.add(std::move(r));
  } catch (const std::exception& e) {
    std::cerr << "edgecompile: warning: run not recorded: " << e.what() << '\n';
    return 0;
  }
}

}  // namespace ec::cli
