// RunStore: round trip of every field, schema migration from a v1 file written
// here with SQLite directly, refusing damaged and newer files without touching them.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/history/model_hash.h"
#include "core/history/run_store.h"

namespace ec::history {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const auto d = fs::temp_directory_path() / ("ec_history_test_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string read_bytes(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

void sql(sqlite3* db, const char* q) {
  char* err = nullptr;
  ASSERT_EQ(sqlite3_exec(db, q, nullptr, nullptr, &err), SQLITE_OK) << (err ? err : "");
}

TEST(RunStore, RoundTripsEveryField) {
  const auto dir = fresh_dir("roundtrip");
  const auto db = (dir / "nested" / "runs.db").string();  // its folder is created
  RunStore store(db);
  EXPECT_EQ(store.opened_version(), 0);
  RunRecord r;
  r.kind = "bench";
  r.model_path = "/m/a.onnx";
  r.model_sha256 = sha256_hex("abc");
  r.target = "cpu";
  r.device = "host-cpu";
  r.options_json = R"({"iterations":3})";
  r.report_json = R"({"x":1})";
  runtime::Stats s;
  s.latencies_ms = {3, 1, 2};
  s.init_ms = 5;
  s.first_ms = 4;
  s.op_profile = {{"conv", "Conv", 1.5}};
  s.profiled_runs = 3;
  s.peak_rss_bytes = 1 << 20;
  runtime::summarise(s);
  r.stats = s;
  const auto id = store.add(r);
  const auto got = store.get(id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->kind, "bench");
  EXPECT_EQ(got->model_sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // SHA-256("abc"), FIPS 180-2
  EXPECT_EQ(got->device, "host-cpu");
  EXPECT_EQ(got->report_json, r.report_json);
  EXPECT_FALSE(got->time_utc.empty());
  EXPECT_EQ(got->tool_version, tool_version());
  ASSERT_TRUE(got->stats);
  EXPECT_EQ(got->stats->latencies_ms, s.latencies_ms);
  EXPECT_DOUBLE_EQ(got->stats->p50_ms, 2);
  EXPECT_DOUBLE_EQ(got->stats->init_ms, 5);
  ASSERT_EQ(got->stats->op_profile.size(), 1u);
  EXPECT_EQ(got->stats->op_profile[0].op_type, "Conv");
  EXPECT_EQ(store.count(), 1);
  EXPECT_FALSE(store.get(id + 1));
  // A second connection sees the WAL-mode database and its schema version.
  RunStore again(db);
  EXPECT_EQ(again.opened_version(), schema_version());
  EXPECT_EQ(again.list().size(), 1u);
  fs::remove_all(dir);
}

TEST(RunStore, MigratesAVersion1Database) {
  const auto dir = fresh_dir("migrate");
  const auto db = (dir / "v1.db").string();
  {
    // The v1 schema as released: no device, no mean_ms column.
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
    sql(h,
        "CREATE TABLE runs(id INTEGER PRIMARY KEY AUTOINCREMENT, time TEXT NOT NULL, kind TEXT NOT NULL,"
        " model_path TEXT NOT NULL, model_hash TEXT NOT NULL, target TEXT NOT NULL, options TEXT NOT NULL,"
        " stats TEXT, report TEXT NOT NULL, tool_version TEXT NOT NULL);"
        "INSERT INTO runs(time, kind, model_path, model_hash, target, options, stats, report, tool_version) VALUES"
        " ('2026-01-02T03:04:05Z', 'bench', '/m/old.onnx', 'h1', 'cpu', '{}', '{\"mean_ms\": 7.5, \"iterations\": 2}', '{}', 'edgecompile 0.0.9'),"
        " ('2026-01-02T03:05:00Z', 'compile', '/m/old.onnx', 'h1', 'coral', '{}', NULL, '{}', 'edgecompile 0.0.9');"
        "PRAGMA user_version=1;");
    sqlite3_close(h);
  }
  {
    RunStore store(db);
    EXPECT_EQ(store.opened_version(), 1);
    const auto runs = store.list();
    ASSERT_EQ(runs.size(), 2u);
    EXPECT_EQ(runs[1].model_path, "/m/old.onnx");
    EXPECT_EQ(runs[1].device, "");  // the column added by v2, defaulted
    ASSERT_TRUE(runs[1].stats);
    EXPECT_DOUBLE_EQ(runs[1].stats->mean_ms, 7.5);
    EXPECT_FALSE(runs[0].stats);
    RunRecord r;
    r.kind = "bench";
    r.device = "host-cpu";
    r.model_path = "/m/new.onnx";
    EXPECT_EQ(store.add(r), 3);
  }
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(h, "SELECT mean_ms FROM runs WHERE id = 1", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_DOUBLE_EQ(sqlite3_column_double(st, 0), 7.5);  // filled from the v1 stats JSON by the migration
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(st, 0), schema_version());
  sqlite3_finalize(st);
  ASSERT_EQ(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  sqlite3_close(h);
  fs::remove_all(dir);
}

// A refused file: one-line message naming it and what to do, and not a byte changed.
void expect_refused_untouched(const fs::path& file, const std::string& why) {
  const std::string before = read_bytes(file);
  try {
    RunStore store(file.string());
    FAIL() << "opened " << file;
  } catch (const EdgeCompilerError& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg.find(file.string()), std::string::npos) << msg;
    EXPECT_NE(msg.find(why), std::string::npos) << msg;
    EXPECT_NE(msg.find("--runs-db"), std::string::npos) << msg;
  }
  EXPECT_EQ(read_bytes(file), before);
  EXPECT_FALSE(fs::exists(file.string() + "-wal"));
  EXPECT_FALSE(fs::exists(file.string() + "-journal"));
}

TEST(RunStore, RefusesAFileThatIsNotADatabase) {
  const auto dir = fresh_dir("notdb");
  const auto file = dir / "runs.db";
  std::ofstream(file, std::ios::binary) << std::string(4096, 'x') << "this is no SQLite database";
  expect_refused_untouched(file, "not a SQLite database");
  fs::remove_all(dir);
}

TEST(RunStore, RefusesADamagedDatabase) {
  const auto dir = fresh_dir("damaged");
  const auto file = dir / "runs.db";
  {
    RunStore store(file.string());
    RunRecord r;
    r.kind = "bench";
    r.report_json = std::string(20000, 'r');  // spans several pages
    for (int i = 0; i < 20; ++i) store.add(r);
  }
  {
    // Fold the WAL in and leave a rollback-journal file, then overwrite pages past the header.
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &h), SQLITE_OK);
    sql(h, "PRAGMA journal_mode=DELETE");
    sqlite3_close(h);
  }
  ASSERT_FALSE(fs::exists(file.string() + "-wal"));
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(4096);  // page 2 onwards: the table's b-tree
    const std::string junk(8192, '\x5a');
    f.write(junk.data(), static_cast<std::streamsize>(junk.size()));
  }
  expect_refused_untouched(file, "damaged");
  fs::remove_all(dir);
}

TEST(RunStore, RefusesANewerSchema) {
  const auto dir = fresh_dir("newer");
  const auto file = dir / "runs.db";
  {
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open(file.c_str(), &h), SQLITE_OK);
    sql(h, "CREATE TABLE t(x); PRAGMA user_version=99;");
    sqlite3_close(h);
  }
  expect_refused_untouched(file, "newer edgecompile");
  fs::remove_all(dir);
}

TEST(RunStore, DefaultPathFollowsTheEnvironment) {
  ::setenv("EC_RUNS_DB", "/tmp/x/runs.db", 1);
  EXPECT_EQ(default_db_path(), "/tmp/x/runs.db");
  ::unsetenv("EC_RUNS_DB");
  ::setenv("XDG_DATA_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(default_db_path(), "/tmp/xdg/edgecompiler/runs.db");
}

TEST(ModelHash, HashesFileBytes) {
  const auto dir = fresh_dir("hash");
  std::ofstream(dir / "f.bin", std::ios::binary) << "abc";
  EXPECT_EQ(sha256_file((dir / "f.bin").string()), sha256_hex("abc"));
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_THROW(sha256_file((dir / "missing").string()), EdgeCompilerError);
  fs::remove_all(dir);
}

// A model folder (SavedModel, .mlpackage) hashes its files with their relative paths:
// the same content gives the same hash, a changed byte or a renamed file another.
TEST(ModelHash, HashesModelFolders) {
  const auto dir = fresh_dir("hash_folder");
  fs::create_directories(dir / "m" / "variables");
  std::ofstream(dir / "m" / "saved_model.pb", std::ios::binary) << "graph";
  std::ofstream(dir / "m" / "variables" / "variables.index", std::ios::binary) << "index";
  const std::string h = sha256_file((dir / "m").string());
  EXPECT_EQ(h.size(), 64u);
  EXPECT_EQ(sha256_file((dir / "m").string()), h);
  std::ofstream(dir / "m" / "variables" / "variables.index", std::ios::binary) << "indeX";
  EXPECT_NE(sha256_file((dir / "m").string()), h);
  std::ofstream(dir / "m" / "variables" / "variables.index", std::ios::binary) << "index";
  EXPECT_EQ(sha256_file((dir / "m").string()), h);
  fs::rename(dir / "m" / "variables" / "variables.index", dir / "m" / "variables" / "other.index");
  EXPECT_NE(sha256_file((dir / "m").string()), h);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace ec::history
