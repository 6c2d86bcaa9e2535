#include "core/history/run_json.h"

#include "core/util/json_text.h"

namespace ec::history {
namespace {

// A JSON text stored in a run, as JSON when it parses (as the string itself when it
// does not); refused when it nests so deep that printing it would recurse too far.
nlohmann::json stored_json(const RunStore& store, const RunRecord& r, const std::string& text,
                           const char* what) {
  if (util::json_too_deep(text))
    throw EdgeCompilerError(ErrorKind::Io, "runs database " + store.path() + ": run " +
                                               std::to_string(r.id) + ": its stored " + what +
                                               ": JSON nested deeper than " +
                                               std::to_string(util::kMaxJsonDepth) + " levels");
  auto j = nlohmann::json::parse(text, nullptr, false);
  return j.is_discarded() ? nlohmann::json(text) : j;
}

}  // namespace

std::string db_path_or_default(const std::string& path) {
  return path.empty() ? default_db_path() : path;
}

nlohmann::json run_summary_json(const RunStore& store, const RunRecord& r) {
  nlohmann::json j = {{"id", r.id},
                      {"time", r.time_utc},
                      {"kind", r.kind},
                      {"model", r.model_path},
                      {"model_sha256", r.model_sha256},
                      {"target", r.target},
                      {"device", r.device},
                      {"tool_version", r.tool_version}};
  j["options"] = stored_json(store, r, r.options_json, "options");
  j["stats"] = r.stats ? runtime::to_json(*r.stats) : nlohmann::json(nullptr);
  return j;
}

nlohmann::json run_list_entry_json(const RunStore& store, const RunRecord& r) {
  auto j = run_summary_json(store, r);
  if (j["stats"].is_object()) {
    j["stats"].erase("latencies_ms");  // `runs show` has them
    j["stats"].erase("op_profile");
  }
  return j;
}

nlohmann::json run_show_json(const RunStore& store, const RunRecord& r) {
  auto j = run_summary_json(store, r);
  j["report"] = stored_json(store, r, r.report_json, "report");
  return j;
}

nlohmann::json runs_list_json(const RunStore& store, int limit) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : store.list(limit)) runs.push_back(run_list_entry_json(store, r));
  return {{"database", store.path()}, {"runs", std::move(runs)}};
}

RunRecord must_get(const RunStore& store, std::int64_t id) {
  auto r = store.get(id);
  if (!r)
    throw EdgeCompilerError(ErrorKind::Input,
                            "run " + std::to_string(id) + " is not in " + store.path() +
                                " (edgecompile runs list shows the runs it holds)");
  return *r;
}

}  // namespace ec::history
