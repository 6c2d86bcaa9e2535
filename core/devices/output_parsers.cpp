#include "core/devices/output_parsers.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <map>
#include <sstream>
#include <string>

namespace ec::devices {

InvokeOutcome parse_bench_json(std::string_view text) {
  // The JSON object may follow log lines: start at the first '{' of a line.
  std::size_t start = text.rfind("\n{");
  start = text.substr(0, 1) == "{" ? 0 : (start == std::string_view::npos ? std::string_view::npos : start + 1);
  if (start == std::string_view::npos)
    throw EdgeCompilerError(ErrorKind::Input, "the benchmark output holds no JSON object (expected `edgecompile bench --json`)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text.substr(start));
  } catch (const nlohmann::json::exception& e) {
    throw EdgeCompilerError(ErrorKind::Input, std::string("the benchmark output is not valid JSON: ") + e.what());
  }
  if (j.contains("stats") && j["stats"].is_object()) j = j["stats"];  // a nested form
  InvokeOutcome o;
  auto num = [&](const char* key, double& into) {
    if (j.contains(key) && j[key].is_number()) {
      into = j[key].get<double>();
      return true;
    }
    o.provenance.not_reported.push_back(key);
    return false;
  };
  runtime::Stats& s = o.stats;
  if (!j.contains("mean_ms") || !j["mean_ms"].is_number())
    throw EdgeCompilerError(ErrorKind::Input, "the benchmark JSON has no mean_ms (is it `edgecompile bench --json` output?)");
  num("mean_ms", s.mean_ms);
  num("p50_ms", s.p50_ms);
  num("p95_ms", s.p95_ms);
  num("p99_ms", s.p99_ms);
  num("min_ms", s.min_ms);
  num("max_ms", s.max_ms);
  num("stdev_ms", s.stdev_ms);
  num("throughput_per_s", s.throughput);
  num("first_inference_ms", s.first_ms);
  if (j.contains("warmup_mean_ms") && j["warmup_mean_ms"].is_number()) s.warmup_mean_ms = j["warmup_mean_ms"].get<double>();
  if (j.contains("iterations") && j["iterations"].is_number_integer()) s.iterations = j["iterations"].get<int>();
  if (j.contains("warmup") && j["warmup"].is_number_integer()) s.warmup = j["warmup"].get<int>();
  if (j.contains("init_ms") && j["init_ms"].is_number()) o.init_ms = j["init_ms"].get<double>();
  if (j.contains("peak_memory_mib") && j["peak_memory_mib"].is_number()) o.peak_memory_mib = j["peak_memory_mib"].get<double>();
  return o;
}

namespace {

// "key=value" pairs of a benchmark_model stats line ("count=50 first=... avg=2.95034e+06 ...").
std::map<std::string, double> key_values(std::string_view line) {
  std::map<std::string, double> kv;
  std::istringstream in{std::string(line)};
  std::string word;
  while (in >> word) {
    const auto eq = word.find('=');
    if (eq == std::string::npos || eq == 0) continue;
    char* end = nullptr;
    const std::string v = word.substr(eq + 1);
    const double d = std::strtod(v.c_str(), &end);
    if (end != v.c_str()) kv[word.substr(0, eq)] = d;
  }
  return kv;
}

// The number after `label` in `line` ("Init: 17187," -> 17187).
bool number_after(std::string_view line, std::string_view label, double& into) {
  const auto at = line.find(label);
  if (at == std::string_view::npos) return false;
  const std::string rest(line.substr(at + label.size()));
  char* end = nullptr;
  const double d = std::strtod(rest.c_str(), &end);
  if (end == rest.c_str()) return false;
  into = d;
  return true;
}

}  // namespace

InvokeOutcome parse_benchmark_model_output(std::string_view text) {
  InvokeOutcome o;
  std::map<std::string, double> steady;
  double first_us = -1, warmup_us = -1, init_us = -1, peak_mb = -1;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const auto c = line.find("count=");
    if (c != std::string::npos) {
      auto kv = key_values(std::string_view(line).substr(c));
      if (kv.count("avg")) {  // the warm-up line of the oldest versions has only count= curr=
        steady = std::move(kv);
      }
      continue;
    }
    if (line.find("Inference timings in us:") != std::string::npos) {
      number_after(line, "Init:", init_us);
      number_after(line, "First inference:", first_us);
      number_after(line, "Warmup (avg):", warmup_us);
      continue;
    }
    if (line.find("memory footprint") != std::string::npos || line.find("Memory footprint") != std::string::npos)
      number_after(line, "overall=", peak_mb);
  }
  if (steady.empty())
    throw EdgeCompilerError(ErrorKind::Input,
                            "no statistics in the benchmark output: expected benchmark_model's \"count=... avg=...\" line "
                            "or `edgecompile bench --json`");
  runtime::Stats& s = o.stats;
  const double us = 1e-3;
  s.iterations = static_cast<int>(steady["count"]);
  s.mean_ms = steady["avg"] * us;
  // not_reported names the statistic as `edgecompile bench --json` does.
  auto take = [&](const char* key, const char* name, double& into) {
    if (auto it = steady.find(key); it != steady.end()) into = it->second * us;
    else o.provenance.not_reported.push_back(name);
  };
  take("min", "min_ms", s.min_ms);
  take("max", "max_ms", s.max_ms);
  take("std", "stdev_ms", s.stdev_ms);
  take("median", "p50_ms", s.p50_ms);
  take("p95", "p95_ms", s.p95_ms);
  o.provenance.not_reported.push_back("p99_ms");
  s.throughput = s.mean_ms > 0 ? 1000.0 / s.mean_ms : 0;
  if (first_us >= 0) s.first_ms = first_us * us;
  else o.provenance.not_reported.push_back("first_inference_ms");
  if (warmup_us >= 0) s.warmup_mean_ms = warmup_us * us;
  if (init_us >= 0) o.init_ms = init_us * us;
  if (peak_mb >= 0) o.peak_memory_mib = peak_mb;  // benchmark_model's "MB" are KiB / 1024
  return o;
}

InvokeOutcome parse_benchmark_output(std::string_view text) {
  const bool json = text.substr(0, 1) == "{" || text.find("\n{") != std::string_view::npos;
  return json ? parse_bench_json(text) : parse_benchmark_model_output(text);
}

}  // namespace ec::devices
