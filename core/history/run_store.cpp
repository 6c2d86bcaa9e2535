// RunStore over SQLite. The migration table below is the schema's history:
// entry N takes a database from version N-1 to N. Never edit a released entry;
// add one.
#include "core/history/run_store.h"

#include <sqlite3.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstring>
#include <fstream>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/ir/excerpt.h"
#include "core/util/json_text.h"

namespace ec::history {
namespace {

struct Migration {
  int version;
  const char* summary;
  const char* sql;
};

// The ONE table of schema versions.
constexpr Migration kMigrations[] = {
    {1, "runs: time, kind, model path and hash, target, options, stats and report JSON, tool version",
     "CREATE TABLE runs("
     "  id INTEGER PRIMARY KEY AUTOINCREMENT,"
     "  time TEXT NOT NULL, kind TEXT NOT NULL,"
     "  model_path TEXT NOT NULL, model_hash TEXT NOT NULL,"
     "  target TEXT NOT NULL, options TEXT NOT NULL,"
     "  stats TEXT, report TEXT NOT NULL, tool_version TEXT NOT NULL);"},
    {2, "device column; mean latency as a column for listing; index by model hash",
     "ALTER TABLE runs ADD COLUMN device TEXT NOT NULL DEFAULT '';"
     "ALTER TABLE runs ADD COLUMN mean_ms REAL;"
     "UPDATE runs SET mean_ms = json_extract(stats, '$.mean_ms') WHERE stats IS NOT NULL AND json_valid(stats);"
     "CREATE INDEX runs_model_hash ON runs(model_hash);"},
};

constexpr int kBusyTimeoutMs = 15000;       // a writer waits this long for another writer
constexpr int kReadBusyTimeoutMs = 2000;    // a reader gives up sooner, saying who holds it
constexpr const char* kLocked = "is locked by another process (runs database busy); try again when it is done";

std::string what_to_do(const std::string& path) {
  return "move " + path + " aside (a new history is then started) or pass --runs-db OTHER.db, or --no-record";
}

// RAII statement.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) {
    if (sqlite3_prepare_v2(db, sql, -1, &s_, nullptr) != SQLITE_OK) s_ = nullptr;
  }
  ~Stmt() { sqlite3_finalize(s_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  sqlite3_stmt* get() const { return s_; }
  explicit operator bool() const { return s_ != nullptr; }

 private:
  sqlite3_stmt* s_ = nullptr;
};

std::string text(sqlite3_stmt* s, int col) {
  const auto* p = sqlite3_column_text(s, col);
  return p ? reinterpret_cast<const char*>(p) : "";
}

// The database header says WAL (bytes 18 and 19 are 2) and no -wal file exists.
bool wal_without_writer(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::exists(path + "-wal", ec)) return false;
  std::ifstream f(path, std::ios::binary);
  char head[20] = {};
  f.read(head, sizeof head);
  return f.gcount() == sizeof head && std::memcmp(head, "SQLite format 3", 16) == 0 && head[18] == 2 && head[19] == 2;
}

// `path` as a file: URI (RFC 3986: characters outside the unreserved set and '/' escaped).
std::string sqlite_uri(const std::string& path) {
  std::string out = "file:";
  static constexpr char kHex[] = "0123456789ABCDEF";
  for (unsigned char c : std::filesystem::absolute(path).string()) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

}  // namespace

int schema_version() { return kMigrations[std::size(kMigrations) - 1].version; }

std::string default_db_path() {
  if (const char* e = std::getenv("EC_RUNS_DB"); e && *e) return e;
  if (const char* x = std::getenv("XDG_DATA_HOME"); x && *x) return std::string(x) + "/edgecompiler/runs.db";
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/.local/share/edgecompiler/runs.db";
}

std::string tool_version() { return "edgecompile 0.1.0"; }

std::string now_utc() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

void RunStore::fail(const std::string& what) const {
  throw EdgeCompilerError(ErrorKind::Io, "runs database " + path_ + ": " + what);
}

void RunStore::exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    fail(msg);
  }
}

RunStore::RunStore(const std::string& path) : RunStore(path, Access::ReadWrite) {}

RunStore::RunStore(const std::string& path, Access access) : path_(path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const bool read_only = access == Access::ReadOnly;
  const int busy_ms = read_only ? kReadBusyTimeoutMs : kBusyTimeoutMs;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(busy_ms);
  const bool exists = fs::exists(path, ec);
  if (read_only && !exists) fail("no such file (nothing was recorded there; check --runs-db)");
  if (exists && fs::is_directory(path, ec)) fail("is a directory; pass --runs-db FILE.db");
  if (exists && !fs::is_regular_file(path, ec))  // a FIFO would block the first read
    fail("is not a regular file (a FIFO, device or socket); pass --runs-db FILE.db");
  if (read_only && fs::file_size(path, ec) == 0) fail("is empty: not a run history (nothing was recorded there)");
  if (!exists && !read_only) {
    const auto parent = fs::absolute(path, ec).parent_path();
    fs::create_directories(parent, ec);
    if (ec) fail("cannot create the folder " + parent.string() + " (" + ec.message() + "); pass --runs-db FILE.db or --no-record");
  } else if (!read_only && ::access(path.c_str(), R_OK | W_OK) != 0) {
    fail("not readable and writable; fix its permissions, or pass --runs-db OTHER.db or --no-record");
  }
  int flags = (read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (exists ? 0 : SQLITE_OPEN_CREATE)) |
              SQLITE_OPEN_FULLMUTEX;
  std::string name = path;
  if (read_only && wal_without_writer(path)) {
    // A reader of a WAL database would create -wal and -shm beside it (and leave them,
    // as it may not checkpoint): with no -wal there is no writer, so the file is read
    // as it is, creating nothing.
    name = sqlite_uri(path) + "?immutable=1";
    flags |= SQLITE_OPEN_URI;
  }
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    fail("cannot open (" + msg + "); pass --runs-db OTHER.db or --no-record");
  }
  sqlite3_busy_timeout(db_, busy_ms);
  sqlite3_extended_result_codes(db_, 1);
  try {
    // Read before anything is written: a file that is not a database (or is damaged)
    // fails here and is left as it is.
    auto read_version = [&] {
      for (int attempt = 0;; ++attempt) {
        Stmt st(db_, "PRAGMA user_version");
        const int rc = st ? sqlite3_step(st.get()) : sqlite3_errcode(db_);
        if (rc == SQLITE_ROW) return sqlite3_column_int(st.get(), 0);
        // Another process switching the file to WAL holds it alone for a moment.
        const bool busy = (rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED;
        // (sqlite3_step already waited busy_ms; the loop is bounded by the same deadline.)
        if (busy && std::chrono::steady_clock::now() < deadline) {
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
          continue;
        }
        if (busy) fail(kLocked);
        // A full disk or an I/O error (the WAL index cannot be created) says nothing about
        // the file: it must not be called damaged, nor moved aside.
        if ((rc & 0xff) == SQLITE_IOERR || (rc & 0xff) == SQLITE_FULL || (rc & 0xff) == SQLITE_CANTOPEN)
          fail("cannot be read (" + std::string(sqlite3_errmsg(db_)) +
               "; is the disk full or the folder not writable?); free space, or pass --runs-db OTHER.db or --no-record");
        fail("not a SQLite database, or damaged (" + std::string(sqlite3_errmsg(db_)) + "); " + what_to_do(path));
      }
    };
    opened_version_ = read_version();
    if (read_only) {
      if (opened_version_ == 0) fail("not a run history of edgecompile (no schema in it); pass --runs-db FILE.db");
      if (opened_version_ < schema_version())
        fail("written by an older edgecompile (schema " + std::to_string(opened_version_) +
             "); record one run with this version to upgrade it");
    }
    // (A reader skips the check on a large file: a full read of it for each listing; a
    // damaged page still fails the query that reaches it.)
    constexpr std::uintmax_t kReaderCheckBytes = std::uintmax_t{32} << 20;
    if (exists && fs::file_size(path, ec) > 0 && !(read_only && fs::file_size(path, ec) > kReaderCheckBytes)) {
      Stmt qc(db_, "PRAGMA quick_check");
      const int rc = qc ? sqlite3_step(qc.get()) : SQLITE_ERROR;
      if (rc != SQLITE_ROW || text(qc.get(), 0) != "ok") {
        // quick_check reports one problem per row, a row may span lines: keep the message one line.
        std::string why = rc == SQLITE_ROW ? text(qc.get(), 0) : std::string(sqlite3_errmsg(db_));
        for (char& ch : why)
          if (ch == '\n' || ch == '\r') ch = ' ';
        if (why.size() > 100) why = why.substr(0, 100) + "...";
        fail("damaged (" + why + "); " + what_to_do(path));
      }
    }
    if (opened_version_ > schema_version())
      fail("written by a newer edgecompile (schema " + std::to_string(opened_version_) + ", this one reads up to " +
           std::to_string(schema_version()) + "); use that version, or pass --runs-db OTHER.db");
    // WAL lets readers and one writer work at once; changing the mode needs a moment
    // alone with the file, so retry while another process holds it.
    for (int attempt = 0; !read_only; ++attempt) {
      Stmt wal(db_, "PRAGMA journal_mode=WAL");
      const int rc = wal ? sqlite3_step(wal.get()) : SQLITE_ERROR;
      if (rc == SQLITE_ROW) break;
      if ((rc & 0xff) != SQLITE_BUSY && (rc & 0xff) != SQLITE_LOCKED) fail(sqlite3_errmsg(db_));
      if (std::chrono::steady_clock::now() > deadline) fail(kLocked);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (!read_only) exec("PRAGMA synchronous=NORMAL");
    if (!read_only && opened_version_ < schema_version()) {
      // Another process may be migrating the same file: take the write lock, then look again.
      exec("BEGIN IMMEDIATE");
      try {
        const int now = read_version();
        for (const auto& m : kMigrations)
          if (m.version > now) {
            exec(m.sql);
            exec(("PRAGMA user_version=" + std::to_string(m.version)).c_str());
          }
        exec("COMMIT");
      } catch (...) {
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
      }
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

RunStore::~RunStore() { sqlite3_close(db_); }

std::int64_t RunStore::add(RunRecord r) {
  if (r.time_utc.empty()) r.time_utc = now_utc();
  if (r.tool_version.empty()) r.tool_version = tool_version();
  Stmt st(db_,
          "INSERT INTO runs(time, kind, model_path, model_hash, target, device, options, stats, mean_ms, report, tool_version)"
          " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  if (!st) fail(sqlite3_errmsg(db_));
  auto bind = [&](int i, const std::string& v) { sqlite3_bind_text(st.get(), i, v.c_str(), -1, SQLITE_TRANSIENT); };
  bind(1, r.time_utc);
  bind(2, r.kind);
  bind(3, r.model_path);
  bind(4, r.model_sha256);
  bind(5, r.target);
  bind(6, r.device);
  bind(7, r.options_json);
  if (r.stats) {
    bind(8, runtime::to_json(*r.stats).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    sqlite3_bind_double(st.get(), 9, r.stats->mean_ms);
  }
  bind(10, r.report_json);
  bind(11, r.tool_version);
  if (sqlite3_step(st.get()) != SQLITE_DONE) fail("cannot record the run (" + std::string(sqlite3_errmsg(db_)) + ")");
  return sqlite3_last_insert_rowid(db_);
}

namespace {

RunRecord read_row(sqlite3_stmt* s, bool with_report) {
  RunRecord r;
  r.id = sqlite3_column_int64(s, 0);
  r.time_utc = text(s, 1);
  r.kind = text(s, 2);
  r.model_path = text(s, 3);
  r.model_sha256 = text(s, 4);
  r.target = text(s, 5);
  r.device = text(s, 6);
  r.options_json = text(s, 7);
  if (sqlite3_column_type(s, 8) != SQLITE_NULL) {
    const std::string stats = text(s, 8);
    if (util::json_too_deep(stats))
      throw std::runtime_error("its stored statistics: JSON nested deeper than " + std::to_string(util::kMaxJsonDepth) + " levels");
    const auto j = nlohmann::json::parse(stats, nullptr, false);
    try {
      if (!j.is_discarded()) r.stats = runtime::stats_from_json(j);
    } catch (const nlohmann::json::exception& e) {
      std::string why = e.what();
      if (const auto at = why.find("] "); at != std::string::npos) why.erase(0, at + 2);
      throw std::runtime_error("its stored statistics are malformed (" + excerpt(why, 100) + ")");
    }
  }
  r.tool_version = text(s, 9);
  if (with_report) r.report_json = text(s, 10);
  return r;
}

constexpr const char* kColumns = "SELECT id, time, kind, model_path, model_hash, target, device, options, stats, tool_version, report FROM runs";

}  // namespace

std::vector<RunRecord> RunStore::list(int limit, bool with_reports) const {
  // Without reports, a listing: the statistics lose their per-run arrays in SQLite
  // (latencies and op profile: 100k runs of them took 13 s through the JSON parser here).
  constexpr const char* kListColumns =
      "SELECT id, time, kind, model_path, model_hash, target, device, options,"
      " CASE WHEN json_valid(stats) THEN json_remove(stats, '$.latencies_ms', '$.op_profile') ELSE stats END,"
      " tool_version, '' FROM runs";
  const std::string sql = std::string(with_reports ? kColumns : kListColumns) + " ORDER BY id DESC" +
                          (limit > 0 ? " LIMIT " + std::to_string(limit) : "");
  Stmt st(db_, sql.c_str());
  if (!st) fail(sqlite3_errmsg(db_));
  std::vector<RunRecord> out;
  int rc;
  while ((rc = sqlite3_step(st.get())) == SQLITE_ROW) out.push_back(checked_row(st.get(), with_reports));
  if (rc != SQLITE_DONE) fail_step(rc);
  return out;
}

std::optional<RunRecord> RunStore::get(std::int64_t id) const {
  Stmt st(db_, (std::string(kColumns) + " WHERE id = ?1").c_str());
  if (!st) fail(sqlite3_errmsg(db_));
  sqlite3_bind_int64(st.get(), 1, id);
  const int rc = sqlite3_step(st.get());
  if (rc == SQLITE_ROW) return checked_row(st.get(), true);
  if (rc != SQLITE_DONE) fail_step(rc);
  return std::nullopt;
}

RunRecord RunStore::checked_row(sqlite3_stmt* s, bool with_report) const {
  try {
    return read_row(s, with_report);
  } catch (const std::runtime_error& e) {
    fail("run " + std::to_string(sqlite3_column_int64(s, 0)) + ": " + e.what());
  }
}

void RunStore::fail_step(int rc) const {
  if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED) fail(kLocked);
  if ((rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB)
    fail("damaged (" + std::string(sqlite3_errmsg(db_)) + "); " + what_to_do(path_));
  fail(sqlite3_errmsg(db_));
}

std::int64_t RunStore::count() const {
  Stmt st(db_, "SELECT COUNT(*) FROM runs");
  if (!st || sqlite3_step(st.get()) != SQLITE_ROW) fail(sqlite3_errmsg(db_));
  return sqlite3_column_int64(st.get(), 0);
}

}  // namespace ec::history
