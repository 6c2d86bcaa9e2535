// `edgecompile bench`: times a model on the CPU runtime on the given .npy
// inputs (or deterministic random ones) and prints latency statistics and
// peak memory.
#include <sys/resource.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <vector>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/npy_inputs.h"
#include "core/runtime/session.h"

namespace ec::cli {
namespace {

struct BenchOptions {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE.npy
  int iterations = 50;
  int warmup = 5;
  int threads = 0;
  bool json = false;
  bool profile = false;
};

// Peak resident set size of this process, in MiB (Linux reports ru_maxrss in KiB).
double peak_rss_mib() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

// "14.0 MiB", "36.5 KiB".
std::string size_string(std::size_t bytes) {
  char buf[32];
  if (bytes >= 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / 1048576.0);
  else
    std::snprintf(buf, sizeof buf, "%.1f KiB", static_cast<double>(bytes) / 1024.0);
  return buf;
}

int bench_model(const BenchOptions& o) {
  runtime::InferenceSession session({o.threads});
  // Init as TFLite's benchmark_model reports it: reading the file and preparing the session.
  const auto t0 = std::chrono::steady_clock::now();
  session.load(o.model);
  const double init_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  const auto inputs = o.inputs.empty() ? session.random_inputs(0) : read_npy_inputs(o.inputs);
  const runtime::Stats s = session.benchmark(inputs, o.iterations, o.warmup);
  const double peak = peak_rss_mib();
  // Per-op profile: a few extra runs with per-op timing, averaged.
  std::map<std::string, double> by_type;
  std::vector<std::pair<double, std::string>> top;
  if (o.profile) {
    const int runs = std::max(1, std::min(o.iterations, 10));
    std::map<std::string, std::pair<std::string, double>> by_op;  // label -> (type, total ms)
    for (int i = 0; i < runs; ++i) {
      runtime::RunProfile p;
      session.run(inputs, &p);
      for (std::size_t k = 0; k < p.ops.size(); ++k) {
        const auto& e = p.ops[k];
        by_type[e.op_type] += e.ms / runs;
        auto& slot = by_op[e.name.empty() ? "#" + std::to_string(k) + " " + e.op_type : e.name];
        slot.first = e.op_type;
        slot.second += e.ms / runs;
      }
    }
    for (const auto& [name, v] : by_op) top.emplace_back(v.second, name + " (" + v.first + ")");
    std::sort(top.rbegin(), top.rend());
    if (top.size() > 10) top.resize(10);
  }
  if (o.json) {
    nlohmann::json j = {{"model", o.model},          {"iterations", s.iterations}, {"warmup", o.warmup},
                        {"init_ms", init_ms},        {"first_inference_ms", s.first_ms},
                        {"warmup_mean_ms", s.warmup > 0 ? nlohmann::json(s.warmup_mean_ms) : nlohmann::json(nullptr)},
                        {"threads", session.threads()},      {"mean_ms", s.mean_ms},       {"p50_ms", s.p50_ms},
                        {"p95_ms", s.p95_ms},        {"p99_ms", s.p99_ms},         {"min_ms", s.min_ms},
                        {"max_ms", s.max_ms},        {"stdev_ms", s.stdev_ms},     {"throughput_per_s", s.throughput},
                        {"peak_memory_mib", peak},  {"arena_mib", session.arena_bytes() / 1048576.0},
                        {"packed_weights_mib", session.packed_weight_bytes() / 1048576.0},
                        {"fused_activations", session.fused_activations()},
                        {"fused_pattern_ops_removed", session.fused_pattern_ops()}};
    if (o.profile) {
      j["profile_ms_by_op_type"] = by_type;
      nlohmann::json t = nlohmann::json::array();
      for (const auto& [ms, label] : top) t.push_back({{"op", label}, {"ms", ms}});
      j["profile_top_ops"] = t;
    }
    std::cout << j.dump(2) << '\n';
    return 0;
  }
  char line[256];
  std::cout << o.model << " on the CPU runtime (" << session.threads() << " thread" << (session.threads() == 1 ? "" : "s")
            << ", " << (o.inputs.empty() ? "random inputs" : "inputs from .npy") << ")\n";
  std::snprintf(line, sizeof line, "  init %.3f ms (load + prepare)  first inference %.3f ms", init_ms, s.first_ms);
  std::cout << line;
  if (s.warmup > 0) {
    std::snprintf(line, sizeof line, "  warm-up mean %.3f ms (%d runs)", s.warmup_mean_ms, s.warmup);
    std::cout << line;
  }
  std::cout << "\nsteady state, " << s.iterations << " timed runs (first run and warm-up excluded):\n";
  std::snprintf(line, sizeof line, "  mean %.3f ms  p50 %.3f  p95 %.3f  p99 %.3f  min %.3f  max %.3f  stdev %.3f\n",
                s.mean_ms, s.p50_ms, s.p95_ms, s.p99_ms, s.min_ms, s.max_ms, s.stdev_ms);
  std::cout << line;
  std::snprintf(line, sizeof line, "  throughput %.1f inferences/s  peak memory %.1f MiB\n", s.throughput, peak);
  std::cout << line;
  std::cout << "  activation arena " << size_string(session.arena_bytes())
            << " (buffers shared by tensors with disjoint lifetimes), packed weights "
            << size_string(session.packed_weight_bytes()) << ", " << session.fused_activations()
            << " activations fused into the op before them, " << session.fused_pattern_ops()
            << " ops removed by LayerNorm/GELU/HardSwish fusion\n";
  if (o.profile) {
    std::vector<std::pair<double, std::string>> types;
    double total = 0;
    for (const auto& [t, ms] : by_type) { types.emplace_back(ms, t); total += ms; }
    std::sort(types.rbegin(), types.rend());
    std::cout << "time per op type (mean of profiled runs):\n";
    for (const auto& [ms, t] : types) {
      std::snprintf(line, sizeof line, "  %-24s %9.3f ms  %5.1f%%\n", t.c_str(), ms, total > 0 ? 100 * ms / total : 0.0);
      std::cout << line;
    }
    std::cout << "top " << top.size() << " ops:\n";
    for (const auto& [ms, label] : top) {
      std::snprintf(line, sizeof line, "  %9.3f ms  %s\n", ms, label.c_str());
      std::cout << line;
    }
  }
  return 0;
}

}  // namespace

Command add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  auto* cmd = app.add_subcommand("bench", "Time a model on the CPU runtime (--input .npy files, or random inputs with a fixed seed)");
  cmd->add_option("model", o->model, model_help())->required();
  cmd->add_option("--input", o->inputs,
                  "NAME=FILE.npy, once per model input (without any: deterministic random data)");
  cmd->add_option("--iterations", o->iterations, "Timed runs (default 50)")->check(whole_number_at_least(1));
  cmd->add_option("--warmup", o->warmup, "Warm-up runs after the first, reported apart (default 5)")
      ->check(whole_number_at_least(0));
  add_threads_option(cmd, o->threads);
  cmd->add_flag("--json", o->json, "Print the statistics as JSON");
  cmd->add_flag("--profile", o->profile, "Also print time per op type and the 10 slowest ops");
  return {cmd, [o] { return bench_model(*o); }};
}

}  // namespace ec::cli
