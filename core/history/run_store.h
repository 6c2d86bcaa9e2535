// RunStore: the local run history — every compile and benchmark, in one SQLite
// database shared by the CLI and the workbench. The schema is versioned
// (PRAGMA user_version) and migrated on open, one step per version (run_store.cpp's
// table); the database runs in WAL mode with a busy timeout, so several processes
// can write at once. A file that is not a readable database is never written to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/runtime/stats.h"

struct sqlite3;
struct sqlite3_stmt;

namespace ec::history {

/// One recorded run.
struct RunRecord {
  std::int64_t id = 0;      // assigned by add()
  std::string kind;         // "bench" or "compile"
  std::string time_utc;     // ISO 8601, e.g. 2026-11-24T23:59:07Z (add() fills it when empty)
  std::string model_path;   // as given on the command line, made absolute
  std::string model_sha256;
  std::string target;       // "cpu", "coral", ...
  std::string device;       // "host-cpu", ... ("" when none applies)
  std::string options_json = "{}";  // the command's options
  std::string report_json = "{}";   // the full report: bench --json, or the CompileReport
  std::string tool_version;
  std::optional<runtime::Stats> stats;  // bench runs
};

/// The newest schema version this build writes (PRAGMA user_version).
int schema_version();

/// Where the history lives: $EC_RUNS_DB when set, else $XDG_DATA_HOME/edgecompiler/runs.db,
/// else ~/.local/share/edgecompiler/runs.db.
std::string default_db_path();

/// The tool version recorded with every run ("edgecompile 0.1.0").
std::string tool_version();

/// Current UTC time in ISO 8601 (seconds).
std::string now_utc();

class RunStore {
 public:
  /// Opens (creating the file and its folder when missing) and migrates. Throws
  /// EdgeCompilerError (Io) in one line naming the file and what to do when it is
  /// not a database, is damaged, or comes from a newer schema; such a file is left untouched.
  explicit RunStore(const std::string& path);
  /// Readers (runs list/show/compare, the history panel) open read-only: the file must
  /// already be a run history of this schema; nothing is created, migrated or written,
  /// not even for a 0-byte file; a lock held by another process fails within ~2 s.
  enum class Access { ReadWrite, ReadOnly };
  RunStore(const std::string& path, Access access);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  const std::string& path() const { return path_; }
  /// The schema version found in the file before migrating (0 for a new file).
  int opened_version() const { return opened_version_; }

  /// Adds a run in its own transaction; returns its id.
  std::int64_t add(RunRecord r);
  /// Runs, newest first (limit 0 = all). `with_reports` also reads each report's JSON;
  /// without it, a listing: the statistics come without latencies_ms and op_profile.
  std::vector<RunRecord> list(int limit = 0, bool with_reports = false) const;
  /// One run, or nothing when no run has that id.
  std::optional<RunRecord> get(std::int64_t id) const;
  /// Number of runs.
  std::int64_t count() const;

 private:
  void exec(const char* sql) const;
  RunRecord checked_row(sqlite3_stmt* s, bool with_report) const;
  [[noreturn]] void fail_step(int rc) const;
  [[noreturn]] void fail(const std::string& what) const;
  std::string path_;
  sqlite3* db_ = nullptr;
  int opened_version_ = 0;
};

}  // namespace ec::history
