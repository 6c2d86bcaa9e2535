// `edgecompile runs list|show|compare`: the run history (core/history) that
// every compile and bench records.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/record.h"
#include "app/cli/commands/text_util.h"
#include "core/history/compare.h"
#include "core/history/run_json.h"
#include "core/history/run_store.h"
#include "core/ir/excerpt.h"
#include "core/util/json_text.h"

namespace ec::cli {
namespace {

struct RunsOptions {
  std::string runs_db;
  bool json = false;
  int limit = 0;
  std::int64_t id = 0, other = 0;
};

std::string basename(const std::string& p) { return std::filesystem::path(p).filename().string(); }

int runs_list(const RunsOptions& o) {
  const history::RunStore store(flows::runs_db_path(o.runs_db), history::RunStore::Access::ReadOnly);
  const auto runs = store.list(o.limit);
  if (o.json) {
    // Printed run by run, exactly as dump(2) of {"database", "runs": [...]} would be,
    // without holding every run's JSON at once (100k runs are ~100 MB of text).
    std::string out = "{\n  \"database\": " + util::dump_json(store.path()) + ",\n  \"runs\": [";
    for (std::size_t i = 0; i < runs.size(); ++i) {
      const auto j = history::run_list_entry_json(store, runs[i]);
      out += i ? ",\n    " : "\n    ";
      for (char c : util::dump_json(j, 2)) {
        out += c;
        if (c == '\n') out += "    ";
      }
      if (out.size() > (1 << 20)) {
        std::cout << out;
        out.clear();
      }
    }
    out += runs.empty() ? "]\n}\n" : "\n  ]\n}\n";
    std::cout << out;
    return 0;
  }
  std::cout << runs.size() << (runs.size() == 1 ? " run" : " runs") << " in " << store.path() << '\n';
  if (runs.empty()) return 0;
  char line[512];
  std::snprintf(line, sizeof line, "%6s  %-20s  %-7s  %-8s  %-9s  %10s  %10s  %s\n", "id", "time (UTC)", "kind", "target",
                "device", "mean ms", "p99 ms", "model");
  std::cout << line;
  for (const auto& r : runs) {
    const std::string mean = r.stats ? fixed(r.stats->mean_ms, 3) : "-";
    const std::string p99 = r.stats ? fixed(r.stats->p99_ms, 3) : "-";
    std::snprintf(line, sizeof line, "%6lld  %-20s  %-7s  %-8s  %-9s  %10s  %10s  %s\n", static_cast<long long>(r.id),
                  excerpt(r.time_utc, 20).c_str(), excerpt(r.kind, 20).c_str(), excerpt(r.target, 20).c_str(),
                  r.device.empty() ? "-" : excerpt(r.device, 40).c_str(), mean.c_str(), p99.c_str(),
                  excerpt(basename(r.model_path), 200).c_str());
    std::cout << line;
  }
  return 0;
}

int runs_show(const RunsOptions& o) {
  const history::RunStore store(flows::runs_db_path(o.runs_db), history::RunStore::Access::ReadOnly);
  const auto r = history::must_get(store, o.id);
  if (o.json) {
    std::cout << history::run_show_json(store, r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  // Text from the database is escaped (non-UTF-8, control characters) and cut short.
  std::cout << "run " << r.id << ": " << excerpt(r.kind) << " of " << excerpt(r.model_path, 400) << '\n'
            << "  time " << excerpt(r.time_utc) << ", " << excerpt(r.tool_version) << '\n'
            << "  model sha256 " << excerpt(r.model_sha256) << '\n'
            << "  target " << excerpt(r.target) << (r.device.empty() ? "" : ", device " + excerpt(r.device)) << '\n'
            << "  options " << excerpt(r.options_json, 2000) << '\n';
  if (r.stats) {
    const auto& s = *r.stats;
    char line[256];
    std::snprintf(line, sizeof line,
                  "  init %.3f ms  first inference %.3f ms  warm-up mean %.3f ms (%d runs)\n"
                  "  %d timed runs: mean %.3f ms  stdev %.3f  min %.3f  max %.3f\n"
                  "  p50 %.3f  p90 %.3f  p95 %.3f  p99 %.3f ms  throughput %.1f/s\n",
                  s.init_ms, s.first_ms, s.warmup_mean_ms, s.warmup, s.iterations, s.mean_ms, s.stdev_ms, s.min_ms,
                  s.max_ms, s.p50_ms, s.p90_ms, s.p95_ms, s.p99_ms, s.throughput);
    std::cout << line;
    std::snprintf(line, sizeof line, "  peak memory %.1f MiB  arena %.1f MiB  %d threads\n", s.peak_rss_bytes / 1048576.0,
                  s.arena_bytes / 1048576.0, s.threads);
    std::cout << line;
    const auto top = runtime::top_ops(s, 5);
    if (!top.empty()) std::cout << "  slowest ops:";
    for (const auto& op : top) std::cout << "  " << excerpt(op.name) << " (" << excerpt(op.op_type) << ") " << fixed(op.ms, 3) << " ms";
    if (!top.empty()) std::cout << '\n';
  }
  std::cout << "  report: " << r.report_json.size() << " bytes of JSON (runs show " << r.id << " --json)\n";
  return 0;
}

int runs_compare(const RunsOptions& o) {
  const history::RunStore store(flows::runs_db_path(o.runs_db), history::RunStore::Access::ReadOnly);
  const auto c = history::compare_runs(history::must_get(store, o.id), history::must_get(store, o.other));
  if (o.json)
    std::cout << history::to_json(c).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  else
    std::cout << history::to_text(c)
              << "(beyond noise: mean by Welch's t-test, percentiles by a bootstrap of the recorded latencies, 95%)\n";
  return 0;
}

}  // namespace

Command add_runs_command(CLI::App& app) {
  auto o = std::make_shared<RunsOptions>();
  auto* cmd = app.add_subcommand("runs", "List, show and compare recorded compile and bench runs (the run history)");
  cmd->require_subcommand(1);
  add_runs_db_option(cmd, o->runs_db);
  auto* list = cmd->add_subcommand("list", "Recorded runs, newest first");
  list->add_flag("--json", o->json, "As JSON");
  list->add_option("--limit", o->limit, "Only the newest N runs")->check(whole_number_at_least(1));
  add_runs_db_option(list, o->runs_db);
  auto* show = cmd->add_subcommand("show", "One run: options, statistics, report");
  show->add_option("id", o->id, "Run id (runs list)")->required()->check(whole_number_at_least(1));
  show->add_flag("--json", o->json, "As JSON, with the full report and every latency");
  add_runs_db_option(show, o->runs_db);
  auto* compare = cmd->add_subcommand("compare", "Two runs side by side: each statistic, its change, and whether it exceeds noise");
  compare->add_option("a", o->id, "Run id A (the baseline)")->required()->check(whole_number_at_least(1));
  compare->add_option("b", o->other, "Run id B")->required()->check(whole_number_at_least(1));
  compare->add_flag("--json", o->json, "As JSON");
  add_runs_db_option(compare, o->runs_db);
  return {cmd, [o, list, show, compare] {
            if (list->parsed()) return runs_list(*o);
            if (show->parsed()) return runs_show(*o);
            if (compare->parsed()) return runs_compare(*o);
            return 2;
          }};
}

}  // namespace ec::cli
