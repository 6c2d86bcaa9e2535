// Run comparison: the statistics behind "exceeds run-to-run noise" against
// published table values, and a real change flagged where noise is not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "core/history/compare.h"

namespace ec::history {
namespace {

TEST(IncompleteBeta, KnownClosedForms) {
  EXPECT_NEAR(incomplete_beta(1, 1, 0.3), 0.3, 1e-12);          // I_x(1,1) = x
  EXPECT_NEAR(incomplete_beta(3, 1, 0.7), std::pow(0.7, 3), 1e-12);  // I_x(a,1) = x^a
  EXPECT_NEAR(incomplete_beta(4.5, 4.5, 0.5), 0.5, 1e-12);     // symmetry
  EXPECT_NEAR(incomplete_beta(2, 3, 0.4), 0.5248, 1e-4);       // 1 - sum_{j<2} C(4,j) .4^j .6^(4-j)
}

// Student's t table: t(0.975, 18) = 2.101 and t(0.995, 10) = 3.169. With equal
// stdevs and equal n, Welch's test is Student's with df = 2n - 2.
TEST(Welch, MatchesTheStudentTTable) {
  const double d18 = 2.101 * std::sqrt(2.0 / 10);
  EXPECT_NEAR(welch_p_value(10, 1, 10, 10 + d18, 1, 10), 0.05, 5e-4);
  const double d10 = 3.169 * std::sqrt(2.0 / 6);
  EXPECT_NEAR(welch_p_value(5, 1, 6, 5 - d10, 1, 6), 0.01, 2e-4);
  EXPECT_DOUBLE_EQ(welch_p_value(5, 1, 1, 6, 1, 10), 1.0);  // one run: no verdict
}

RunRecord run_with(std::int64_t id, std::uint64_t seed, double mean, double sd, int n) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> d(mean, sd);
  runtime::Stats s;
  for (int i = 0; i < n; ++i) s.latencies_ms.push_back(std::max(0.01, d(rng)));
  runtime::summarise(s);
  RunRecord r;
  r.id = id;
  r.kind = "bench";
  r.model_sha256 = "m";
  r.target = "cpu";
  r.stats = s;
  return r;
}

const StatChange& row(const Comparison& c, const std::string& key) {
  for (const auto& r : c.rows)
    if (r.key == key) return r;
  throw std::runtime_error("no row " + key);
}

TEST(Compare, NoiseIsNotAChange) {
  // 100 pairs of runs drawn from one distribution (10 ms, sd 0.5, 50 runs each): a 95% test
  // flags about 5% of them by chance; more than 10% would mean it mistakes noise for change.
  int mean_flagged = 0, p50_flagged = 0, p90_flagged = 0;
  for (std::uint64_t k = 0; k < 100; ++k) {
    const auto c = compare_runs(run_with(1, 2 * k + 1, 10, 0.5, 50), run_with(2, 2 * k + 2, 10, 0.5, 50));
    ASSERT_TRUE(row(c, "mean_ms").exceeds_noise.has_value());
    mean_flagged += *row(c, "mean_ms").exceeds_noise;
    p50_flagged += *row(c, "p50_ms").exceeds_noise;
    p90_flagged += *row(c, "p90_ms").exceeds_noise;
    EXPECT_EQ(*row(c, "throughput_per_s").exceeds_noise, *row(c, "mean_ms").exceeds_noise);
    EXPECT_FALSE(row(c, "max_ms").exceeds_noise.has_value());  // one measurement: no noise model
  }
  EXPECT_LE(mean_flagged, 10);
  EXPECT_LE(p50_flagged, 10);
  EXPECT_LE(p90_flagged, 10);
  std::printf("same distribution, 100 pairs: mean flagged %d, p50 %d, p90 %d\n", mean_flagged, p50_flagged, p90_flagged);
}

TEST(Compare, ARealChangeIsFlagged) {
  // B is 1 ms (two stdevs) slower: mean and every percentile exceed noise.
  const auto c = compare_runs(run_with(1, 1, 10, 0.5, 100), run_with(2, 2, 11, 0.5, 100));
  for (const char* key : {"mean_ms", "throughput_per_s", "p50_ms", "p90_ms", "p95_ms", "p99_ms"}) {
    ASSERT_TRUE(row(c, key).exceeds_noise.has_value()) << key;
    EXPECT_TRUE(*row(c, key).exceeds_noise) << key;
  }
  EXPECT_NEAR(row(c, "mean_ms").delta, 1.0, 0.2);
  EXPECT_NEAR(row(c, "mean_ms").delta_pct, 10.0, 2.0);
  EXPECT_LT(row(c, "mean_ms").p_value, 1e-6);
  EXPECT_GT(row(c, "p50_ms").ci_low, 0);
  EXPECT_LT(row(c, "throughput_per_s").delta, 0);
}

TEST(Compare, ASmallChangeInsideNoiseIsNot) {
  // 0.05 ms on a 0.5 ms spread with 20 runs each is within noise.
  const auto c = compare_runs(run_with(1, 3, 10, 0.5, 20), run_with(2, 4, 10.05, 0.5, 20));
  EXPECT_FALSE(*row(c, "mean_ms").exceeds_noise);
}

TEST(Compare, CompileRunsHaveNoStatistics) {
  RunRecord a = run_with(1, 1, 10, 0.5, 10), b;
  b.id = 2;
  b.kind = "compile";
  b.model_sha256 = "other";
  b.target = "coral";
  const auto c = compare_runs(a, b);
  EXPECT_TRUE(c.rows.empty());
  EXPECT_GE(c.notes.size(), 3u);  // model differs, target differs, run 2 has no statistics
}

}  // namespace
}  // namespace ec::history
