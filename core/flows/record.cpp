#include "core/flows/record.h"

#include <exception>
#include <filesystem>

#include "core/history/model_hash.h"
#include "core/history/run_json.h"

namespace ec::flows {

std::string runs_db_path(const std::string& runs_db) { return history::db_path_or_default(runs_db); }

history::RunRecord new_run_record(const std::string& kind, const std::string& model) {
  history::RunRecord r;
  r.kind = kind;
  std::error_code ec;
  const auto abs = std::filesystem::absolute(model, ec);
  r.model_path = ec ? model : abs.lexically_normal().string();
  return r;
}

RecordOutcome record_run(history::RunRecord r, const RecordOptions& o) {
  RecordOutcome out;
  if (!o.record) return out;
  try {
    out.db_path = runs_db_path(o.runs_db);
    if (r.model_sha256.empty()) r.model_sha256 = history::sha256_file(r.model_path);
    history::RunStore store(out.db_path);
    out.id = store.add(std::move(r));
  } catch (const std::exception& e) {
    out.id = 0;
    out.error = e.what();
  }
  return out;
}

}  // namespace ec::flows
