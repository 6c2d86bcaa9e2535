#include "core/history/compare.h"

#include "core/ir/excerpt.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <tuple>
#include <sstream>

#include <nlohmann/json.hpp>

namespace ec::history {
namespace {

// Continued fraction of I_x(a, b) by the modified Lentz method.
double beta_cf(double a, double b, double x) {
  constexpr double tiny = 1e-300, eps = 1e-14;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m <= 300; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (std::fabs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < eps) break;
  }
  return h;
}

}  // namespace

double incomplete_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x));
  // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the symmetry otherwise.
  if (x < (a + 1) / (a + b + 2)) return front * beta_cf(a, b, x) / a;
  return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double welch_p_value(double mean_a, double sd_a, int n_a, double mean_b, double sd_b, int n_b) {
  if (n_a < 2 || n_b < 2) return 1;
  const double va = sd_a * sd_a / n_a, vb = sd_b * sd_b / n_b;
  const double se2 = va + vb;
  if (se2 <= 0) return mean_a == mean_b ? 1 : 0;
  const double t = (mean_b - mean_a) / std::sqrt(se2);
  // Welch–Satterthwaite degrees of freedom.
  const double df = se2 * se2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1));
  // Two-sided p of Student's t: I_{df/(df+t^2)}(df/2, 1/2).
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

namespace {

// 95% percentile-bootstrap interval of pct(b) - pct(a).
std::pair<double, double> bootstrap_ci(const std::vector<double>& a, const std::vector<double>& b, double pct) {
  constexpr int kResamples = 1000;
  std::mt19937_64 rng(0);
  std::vector<double> diffs, ra(a.size()), rb(b.size());
  diffs.reserve(kResamples);
  // Each resample draws at most kMaxDraws values (an m-out-of-n bootstrap for long
  // runs: 1000 x 2M draws took minutes; 5000 keeps 4 CIs under a second), and the percentile is found by selection,
  // the same nearest rank as percentile_nearest_rank, without sorting.
  constexpr std::size_t kMaxDraws = 5000;
  ra.resize(std::min(a.size(), kMaxDraws));
  rb.resize(std::min(b.size(), kMaxDraws));
  auto resample_pct = [&](const std::vector<double>& src, std::vector<double>& dst) {
    std::uniform_int_distribution<std::size_t> pick(0, src.size() - 1);
    for (auto& v : dst) v = src[pick(rng)];
    const auto rank = static_cast<std::size_t>(std::ceil(pct / 100.0 * static_cast<double>(dst.size())));
    const auto k = std::min(dst.size() - 1, rank == 0 ? 0 : rank - 1);
    std::nth_element(dst.begin(), dst.begin() + static_cast<std::ptrdiff_t>(k), dst.end());
    return dst[k];
  };
  for (int i = 0; i < kResamples; ++i) diffs.push_back(resample_pct(b, rb) - resample_pct(a, ra));
  std::sort(diffs.begin(), diffs.end());
  return {runtime::percentile_nearest_rank(diffs, 2.5), runtime::percentile_nearest_rank(diffs, 97.5)};
}

}  // namespace

Comparison compare_runs(const RunRecord& a, const RunRecord& b) {
  Comparison c{a, b, {}, {}};
  if (a.model_sha256 != b.model_sha256) c.notes.push_back("the runs are of different model files (SHA-256 differs)");
  if (a.target != b.target) c.notes.push_back("targets differ: " + a.target + " vs " + b.target);
  if (a.device != b.device) c.notes.push_back("devices differ: " + a.device + " vs " + b.device);
  if (!a.stats || !b.stats) {
    for (const auto* r : {&a, &b})
      if (!r->stats) c.notes.push_back("run " + std::to_string(r->id) + " is a " + r->kind + " run: no latency statistics");
    return c;
  }
  const auto& sa = *a.stats;
  const auto& sb = *b.stats;
  auto row = [&](const char* key, const char* label, const char* unit, double va, double vb) -> StatChange& {
    StatChange r;
    r.key = key;
    r.label = label;
    r.unit = unit;
    r.a = va;
    r.b = vb;
    r.delta = vb - va;
    r.delta_pct = va != 0 ? 100 * (vb - va) / va : 0;
    c.rows.push_back(r);
    return c.rows.back();
  };
  const bool enough = sa.iterations >= 2 && sb.iterations >= 2;
  const double p = welch_p_value(sa.mean_ms, sa.stdev_ms, sa.iterations, sb.mean_ms, sb.stdev_ms, sb.iterations);
  auto welch = [&](StatChange& r) {
    r.test = "welch";
    r.p_value = p;
    if (enough) r.exceeds_noise = p < 0.05;
  };
  row("init_ms", "init", "ms", sa.init_ms, sb.init_ms);
  row("first_inference_ms", "first inference", "ms", sa.first_ms, sb.first_ms);
  row("warmup_mean_ms", "warm-up mean", "ms", sa.warmup_mean_ms, sb.warmup_mean_ms);
  welch(row("mean_ms", "mean", "ms", sa.mean_ms, sb.mean_ms));
  row("stdev_ms", "stdev", "ms", sa.stdev_ms, sb.stdev_ms);
  row("min_ms", "min", "ms", sa.min_ms, sb.min_ms);
  row("max_ms", "max", "ms", sa.max_ms, sb.max_ms);
  const bool have_samples = sa.latencies_ms.size() >= 2 && sb.latencies_ms.size() >= 2;
  const std::pair<const char*, double> pcts[] = {{"p50", 50}, {"p90", 90}, {"p95", 95}, {"p99", 99}};
  const double va[] = {sa.p50_ms, sa.p90_ms, sa.p95_ms, sa.p99_ms}, vb[] = {sb.p50_ms, sb.p90_ms, sb.p95_ms, sb.p99_ms};
  for (int i = 0; i < 4; ++i) {
    auto& r = row((std::string(pcts[i].first) + "_ms").c_str(), pcts[i].first, "ms", va[i], vb[i]);
    r.test = "bootstrap";
    if (!have_samples) continue;
    std::tie(r.ci_low, r.ci_high) = bootstrap_ci(sa.latencies_ms, sb.latencies_ms, pcts[i].second);
    r.exceeds_noise = r.ci_low > 0 || r.ci_high < 0;
  }
  welch(row("throughput_per_s", "throughput", "/s", sa.throughput, sb.throughput));
  row("peak_memory_mib", "peak memory", "MiB", sa.peak_rss_bytes / 1048576.0, sb.peak_rss_bytes / 1048576.0);
  row("arena_mib", "arena", "MiB", sa.arena_bytes / 1048576.0, sb.arena_bytes / 1048576.0);
  if (!enough) c.notes.push_back("fewer than 2 timed runs on a side: no noise verdict");
  return c;
}

nlohmann::json to_json(const Comparison& c) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : c.rows) {
    nlohmann::json j = {{"statistic", r.key}, {"a", r.a}, {"b", r.b}, {"delta", r.delta}, {"delta_pct", r.delta_pct},
                        {"test", r.test.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.test)},
                        {"exceeds_noise", r.exceeds_noise ? nlohmann::json(*r.exceeds_noise) : nlohmann::json(nullptr)}};
    if (r.test == "welch") j["p_value"] = r.p_value;
    if (r.test == "bootstrap" && r.exceeds_noise) j["ci95"] = {r.ci_low, r.ci_high};
    rows.push_back(j);
  }
  auto run = [](const RunRecord& r) {
    return nlohmann::json{{"id", r.id},       {"time", r.time_utc},     {"kind", r.kind},
                          {"model", r.model_path}, {"model_sha256", r.model_sha256}, {"target", r.target},
                          {"device", r.device}};
  };
  return {{"a", run(c.a)}, {"b", run(c.b)}, {"statistics", rows}, {"notes", c.notes}};
}

std::string to_text(const Comparison& c) {
  std::ostringstream out;
  char line[256];
  for (const auto* r : {&c.a, &c.b})
    out << (r == &c.a ? "A" : "B") << ": run " << r->id << "  " << excerpt(r->time_utc) << "  " << excerpt(r->kind) << "  "
        << excerpt(r->model_path, 400) << "  " << excerpt(r->target) << (r->device.empty() ? "" : " on " + excerpt(r->device))
        << '\n';
  for (const auto& n : c.notes) out << "note: " << n << '\n';
  if (c.rows.empty()) return out.str();
  std::snprintf(line, sizeof line, "%-16s %12s %12s %12s %8s  %s\n", "statistic", "A", "B", "change", "%", "beyond noise?");
  out << line;
  for (const auto& r : c.rows) {
    std::string verdict = !r.exceeds_noise ? "n/a"
                          : *r.exceeds_noise ? "YES"
                                             : "no";
    if (r.test == "welch" && r.exceeds_noise) {
      char p[48];
      std::snprintf(p, sizeof p, " (Welch p=%.3g)", r.p_value);
      verdict += p;
    } else if (r.test == "bootstrap" && r.exceeds_noise) {
      char ci[64];
      std::snprintf(ci, sizeof ci, " (95%% CI %+.3f..%+.3f)", r.ci_low, r.ci_high);
      verdict += ci;
    }
    std::snprintf(line, sizeof line, "%-16s %12.3f %12.3f %+12.3f %+7.1f%%  %s\n", (r.label + " " + r.unit).c_str(), r.a, r.b,
                  r.delta, r.delta_pct, verdict.c_str());
    out << line;
  }
  return out.str();
}

}  // namespace ec::history
