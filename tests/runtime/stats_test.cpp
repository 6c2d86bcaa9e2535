// Stats (core/runtime/stats.h) against a hand computation on a recorded sample,
// and the benchmark runner's fields and profile on a real session.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/session/benchmark.h"
#include "core/runtime/stats.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime {
namespace {

// 20 latencies (ms) recorded from `edgecompile bench sample_cnn.onnx --iterations 20
// --threads 1 --csv` on a busy 2-core machine, rounded to 3 decimals, in the order run:
// the 10th run was preempted (40.48 ms), the tail a benchmark must not hide.
const std::vector<double> kRecorded = {0.336, 0.319, 0.311, 0.307, 0.307, 0.303, 0.303, 0.302, 0.303, 40.48,
                                       0.393, 0.346, 0.327, 0.315, 0.310, 0.304, 0.303, 0.303, 0.303, 0.302};

TEST(Stats, MatchesAHandComputationOnARecordedSample) {
  Stats s;
  s.latencies_ms = kRecorded;
  summarise(s);
  // Sorted: .302 .302 .303 .303 .303 .303 .303 .303 .304 .307 | .307 .310 .311 .315 .319 .327 .336 .346 .393 40.48
  // Sum 46.477 -> mean 2.32385.
  EXPECT_EQ(s.iterations, 20);
  EXPECT_NEAR(s.mean_ms, 2.32385, 1e-12);
  EXPECT_DOUBLE_EQ(s.min_ms, 0.302);
  EXPECT_DOUBLE_EQ(s.max_ms, 40.48);
  // Nearest rank: p -> sorted[ceil(p/100 * 20) - 1] (numpy's percentile(method='inverted_cdf') agrees).
  EXPECT_DOUBLE_EQ(s.p50_ms, 0.307);  // ceil(10) = 10th
  EXPECT_DOUBLE_EQ(s.p90_ms, 0.346);  // ceil(18) = 18th
  EXPECT_DOUBLE_EQ(s.p95_ms, 0.393);  // ceil(19) = 19th
  EXPECT_DOUBLE_EQ(s.p99_ms, 40.48);  // ceil(19.8) = 20th
  // Sample stdev: squared deviations from 2.32385: the outlier's (38.15615)^2 = 1455.89178,
  // the other 19 runs' sum 76.63501 (each ~(2.0)^2); total 1532.52680 / 19 = 80.659305,
  // sqrt = 8.9810526.
  EXPECT_NEAR(s.stdev_ms, 8.9810526, 1e-6);
  EXPECT_NEAR(s.throughput, 1000 / 2.32385, 1e-9);
}

TEST(Stats, PercentileEdgeCases) {
  EXPECT_EQ(percentile_nearest_rank({}, 50), 0);
  EXPECT_EQ(percentile_nearest_rank({7}, 99), 7);
  const std::vector<double> four = {1, 2, 3, 4};
  EXPECT_EQ(percentile_nearest_rank(four, 0), 1);
  EXPECT_EQ(percentile_nearest_rank(four, 25), 1);  // ceil(1) = 1st
  EXPECT_EQ(percentile_nearest_rank(four, 26), 2);  // ceil(1.04) = 2nd
  EXPECT_EQ(percentile_nearest_rank(four, 100), 4);
  Stats one;
  one.latencies_ms = {2.5};
  summarise(one);
  EXPECT_EQ(one.stdev_ms, 0);
  EXPECT_EQ(one.p99_ms, 2.5);
}

TEST(Stats, JsonRoundTrip) {
  Stats s;
  s.latencies_ms = kRecorded;
  s.init_ms = 12;
  s.first_ms = 3;
  s.warmup = 2;
  s.warmup_mean_ms = 0.5;
  s.peak_rss_bytes = 123456789;
  s.arena_bytes = 4096;
  s.threads = 1;
  s.op_profile = {{"a", "Conv", 0.3}, {"b", "Relu", 0.05}, {"c", "Conv", 0.02}};
  s.profiled_runs = 20;
  summarise(s);
  const Stats r = stats_from_json(nlohmann::json::parse(to_json(s).dump()));
  EXPECT_EQ(r.latencies_ms, s.latencies_ms);
  EXPECT_DOUBLE_EQ(r.p95_ms, s.p95_ms);
  EXPECT_DOUBLE_EQ(r.stdev_ms, s.stdev_ms);
  EXPECT_EQ(r.peak_rss_bytes, s.peak_rss_bytes);
  EXPECT_EQ(r.op_profile.size(), 3u);
  EXPECT_NEAR(op_profile_total_ms(r), 0.37, 1e-12);
  const auto types = time_by_op_type(r);
  ASSERT_EQ(types.size(), 2u);
  EXPECT_EQ(types[0].op_type, "Conv");
  EXPECT_NEAR(types[0].ms, 0.32, 1e-12);
  EXPECT_EQ(top_ops(r, 1).at(0).name, "a");
}

TEST(Benchmark, RunnerFillsEveryFieldAndCancels) {
  ir::Graph g;  // y = Relu(x), x: f32[1, 256]
  g.name = "relu";
  g.add_tensor({"x", ir::DType::Float32, ir::Shape::of({1, 256}), std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, ir::Shape::of({1, 256}), std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  auto op = test::make_op("Relu", {"x"}, {"y"});
  op.name = "relu0";
  g.ops.push_back(op);
  InferenceSession session;
  session.load(ir::freeze(std::move(g)));
  BenchmarkOptions o;
  o.iterations = 30;
  o.warmup = 3;
  int calls = 0;
  o.progress = [&](int done, int total) {
    EXPECT_EQ(total, 34);
    EXPECT_EQ(done, ++calls);
    return true;
  };
  const Stats s = run_benchmark(session, session.random_inputs(), o);
  EXPECT_EQ(calls, 34);
  EXPECT_EQ(s.latencies_ms.size(), 30u);
  EXPECT_EQ(s.iterations, 30);
  EXPECT_EQ(s.warmup, 3);
  EXPECT_GT(s.first_ms, 0);
  EXPECT_GT(s.peak_rss_bytes, 0u);
  EXPECT_LE(s.min_ms, s.p50_ms);
  EXPECT_LE(s.p50_ms, s.p90_ms);
  EXPECT_LE(s.p90_ms, s.p95_ms);
  EXPECT_LE(s.p95_ms, s.p99_ms);
  EXPECT_LE(s.p99_ms, s.max_ms);
  ASSERT_EQ(s.op_profile.size(), 1u);
  EXPECT_EQ(s.op_profile[0].name, "relu0");
  EXPECT_EQ(s.profiled_runs, 30);
  EXPECT_LE(op_profile_total_ms(s), s.mean_ms);  // the kernel's time is part of each run
  o.progress = [](int done, int) { return done < 5; };
  try {
    run_benchmark(session, session.random_inputs(), o);
    FAIL() << "not cancelled";
  } catch (const EdgeCompilerError& e) {
    EXPECT_STREQ(e.what(), "cancelled");
  }
}

}  // namespace
}  // namespace ec::runtime
