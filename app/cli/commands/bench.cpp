// `edgecompile bench`: times a model on the CPU runtime on the given .npy
// inputs (or deterministic random ones), or on a device (--device), through the bench
// flow (core/flows/bench.h), and prints every field of its Stats: init, first
// inference, warm-up mean, mean/stdev/min/max/p50/p90/p95/p99, throughput, peak
// memory and the per-op profile. --json prints the same Stats (docs/bench-json.md),
// --csv writes one row per timed run. The run is recorded in the run history.
#include <unistd.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/evidence.h"
#include "app/cli/commands/npy_inputs.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/bench_device.h"
#include "app/cli/commands/record.h"
#include "core/flows/bench.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct BenchOptions {
  /// model, --device (flows::resolve_bench_device; "" = host-cpu), --iterations, --warmup,
  /// --threads, --int8-nchw, --top, --input NAME=FILE.npy (input_specs)
  flows::BenchOptions flow;
  bool json = false;
  bool profile = false;
  bool no_profile = false;
  std::string csv;
  RecordOptions record;
  std::string html;  // --html: the single-file report (app/cli/commands/evidence.h)
};

// "14.0 MiB", "36.5 KiB".
std::string size_string(std::size_t bytes) {
  char buf[32];
  if (bytes >= 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return buf;
}

// A progress bar on stderr when it is a terminal (never when piped), redrawn at
// most every 50 ms, erased at the end.
std::function<bool(int, int)> make_progress_bar() {
  if (!isatty(STDERR_FILENO)) return {};
  auto last = std::make_shared<std::chrono::steady_clock::time_point>();
  return [last](int done, int total) {
    const auto now = std::chrono::steady_clock::now();
    if (done < total && now - *last < std::chrono::milliseconds(50)) return true;
    *last = now;
    constexpr int width = 30;
    const int filled = total > 0 ? done * width / total : width;
    std::cerr << "\rbench [" << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(width - filled), '-') << "] " << done << "/" << total << " runs"
              << std::flush;
    if (done == total) std::cerr << "\r" << std::string(width + 40, ' ') << "\r" << std::flush;
    return true;
  };
}

std::string csv_text(const runtime::Stats& s) {
  std::ostringstream out;
  out << "iteration,latency_ms\n";
  char line[64];
  for (std::size_t i = 0; i < s.latencies_ms.size(); ++i) {
    std::snprintf(line, sizeof line, "%zu,%.6f\n", i + 1, s.latencies_ms[i]);
    out << line;
  }
  return out.str();
}

void print_text(const BenchOptions& o, const flows::BenchOutcome& out) {
  const runtime::Stats& s = out.stats;
  char line[256];
  std::cout << o.flow.model << " on the CPU runtime (" << s.threads << " thread" << (s.threads == 1 ? "" : "s") << ", "
            << (o.flow.input_specs.empty() ? "random inputs" : "inputs from .npy") << ")\n";
  std::snprintf(line, sizeof line, "  init %.3f ms (load + prepare)  first inference %.3f ms", s.init_ms, s.first_ms);
  std::cout << line;
  if (s.warmup > 0) {
    std::snprintf(line, sizeof line, "  warm-up mean %.3f ms (%d runs)", s.warmup_mean_ms, s.warmup);
    std::cout << line;
  } else {
    std::cout << "  warm-up none";
  }
  std::cout << "\nsteady state, " << s.iterations << " timed runs (first run and warm-up excluded):\n";
  std::snprintf(line, sizeof line, "  mean %.3f ms  stdev %.3f  min %.3f  max %.3f\n", s.mean_ms, s.stdev_ms, s.min_ms,
                s.max_ms);
  std::cout << line;
  std::snprintf(line, sizeof line, "  p50 %.3f ms  p90 %.3f  p95 %.3f  p99 %.3f (nearest rank)\n", s.p50_ms, s.p90_ms,
                s.p95_ms, s.p99_ms);
  std::cout << line;
  std::snprintf(line, sizeof line, "  throughput %.1f inferences/s\n", s.throughput);
  std::cout << line;
  std::cout << "  peak memory " << size_string(s.peak_rss_bytes)
            << (s.peak_rss_reset ? " (resident set high-water mark of the run)" : " (resident set high-water mark of the process)")
            << ", activation arena " << size_string(s.arena_bytes) << ", packed weights "
            << size_string(out.packed_weight_bytes) << ", " << out.fused_activations
            << " activations fused into the op before them, " << out.fused_pattern_ops
            << " ops removed at load (Cleanup, LayerNorm/GELU/HardSwish, Conv+BatchNorm), " << out.channels_last_ops
            << " ops run channels-last\n";
  if (s.op_profile.empty()) return;
  const double total = runtime::op_profile_total_ms(s);
  std::snprintf(line, sizeof line, "per-op profile (mean of %d timed runs): ops sum to %.3f ms, %.1f%% of the mean latency\n",
                s.profiled_runs, total, s.mean_ms > 0 ? 100 * total / s.mean_ms : 0.0);
  std::cout << line;
  const auto top = runtime::top_ops(s, static_cast<std::size_t>(o.flow.top));
  std::cout << "  top " << top.size() << " of " << s.op_profile.size() << " ops by time:\n";
  for (const auto& op : top) {
    std::snprintf(line, sizeof line, "  %9.3f ms  %5.1f%%  ", op.ms, total > 0 ? 100 * op.ms / total : 0.0);
    std::cout << line << (op.name.empty() ? "(unnamed)" : op.name) << " (" << op.op_type << ")\n";
  }
  if (!o.profile) return;
  std::cout << "  time per op type:\n";
  for (const auto& t : runtime::time_by_op_type(s)) {
    std::snprintf(line, sizeof line, "  %9.3f ms  %5.1f%%  %s\n", t.ms, total > 0 ? 100 * t.ms / total : 0.0, t.op_type.c_str());
    std::cout << line;
  }
}

int bench_model(const BenchOptions& o) {
  const flows::BenchDevice where = flows::resolve_bench_device(o.flow.device);
  flows::BenchOptions request = o.flow;
  if (where.kind != flows::BenchDevice::Kind::HostCpu) return print_device_bench(flows::bench(request, where), o.json);
  check_writable(o.csv, "--csv");
  check_html_output(o.html);
  request.profile = !o.no_profile;
  request.progress = make_progress_bar();
  if (!request.input_specs.empty()) request.inputs = read_npy_inputs(request.input_specs);
  const flows::BenchOutcome out = flows::bench(request, where);
  if (!o.csv.empty()) util::write_file_atomically(o.csv, csv_text(out.stats));

  nlohmann::json j = out.json;
  const auto id = record_run(o.record, flows::bench_record(request, out));
  if (id > 0) j["run_id"] = id;
  if (!o.html.empty()) {
    render::Evidence ev;
    ev.bench = j;
    ev.bench_path = "bench";
    write_html_report(o.html, o.flow.model, ev, o.json ? std::cerr : std::cout);
  }

  if (o.json) {
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  print_text(o, out);
  if (id > 0)
    std::cout << "recorded as run " << id << " in " << flows::runs_db_path(o.record.runs_db) << " (edgecompile runs show " << id
              << ")\n";
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Time a model on the CPU runtime (--input .npy files, or random inputs with a fixed seed)");
  cmd->add_option("model", o->flow.model, model_help())->required();
  cmd->add_option("--input", o->flow.input_specs,
                  "NAME=FILE.npy, once per model input (without any: deterministic random data)");
  cmd->add_option("--iterations", o->flow.iterations, "Timed runs (default 50)")->check(whole_number_at_least(1));
  cmd->add_option("--warmup", o->flow.warmup, "Warm-up runs after the first, reported apart (default 5)")
      ->check(whole_number_at_least(0));
  add_threads_option(cmd, o->flow.threads);
  add_int8_nchw_flag(cmd, o->flow.int8_nchw);
  cmd->add_flag("--json", o->json, "Print the statistics as JSON (docs/bench-json.md)");
  cmd->add_option("--html", o->html, "Also write a single-file HTML report (graph coloured by time per op, statistics, histogram)");
  cmd->add_option("--csv", o->csv, "Write one row per timed run (iteration, latency_ms) to this file");
  cmd->add_option("--top", o->flow.top, "Slowest ops to list (default 10; 0 = all)")->check(whole_number_at_least(0));
  cmd->add_flag("--profile", o->profile, "Also print the time per op type");
  cmd->add_flag("--no-profile", o->no_profile,
                "Do not time each op (the per-op profile costs two clock reads per op; for comparisons with other runtimes)")
      ->excludes("--profile");
  cmd->add_option("--device", o->flow.device,
                  "Device id from `edgecompile devices` (default host-cpu; a virtual device prints an estimate)");
  add_record_options(cmd, o->record);
  return {cmd, [o] { return bench_model(*o); }};
}

}  // namespace ec::cli
