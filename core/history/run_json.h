// The run history as JSON — what `edgecompile runs list|show|compare --json` print
// and the Python API's ec.runs returns: one function per view, shared by both.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "core/history/run_store.h"

namespace ec::history {

/// `path` when given, else default_db_path() ($EC_RUNS_DB, $XDG_DATA_HOME/...).
std::string db_path_or_default(const std::string& path);

/// A run's summary (id, time, kind, model, sha256, target, device, tool version,
/// options, stats). A stored JSON text that does not parse is kept as a string; one
/// nested deeper than util::kMaxJsonDepth is refused (kind Io).
nlohmann::json run_summary_json(const RunStore& store, const RunRecord& r);
/// One entry of `runs list --json`: the summary without latencies and op profile.
nlohmann::json run_list_entry_json(const RunStore& store, const RunRecord& r);
/// `runs show ID --json`: the summary with the stored report.
nlohmann::json run_show_json(const RunStore& store, const RunRecord& r);
/// `runs list --json`: {"database", "runs": [newest first, at most `limit` (0 = all)]}.
nlohmann::json runs_list_json(const RunStore& store, int limit = 0);

/// The run `id`; throws EdgeCompilerError (Input) naming the database when it is not there.
RunRecord must_get(const RunStore& store, std::int64_t id);

}  // namespace ec::history
