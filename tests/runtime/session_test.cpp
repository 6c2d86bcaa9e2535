// InferenceSession: dynamic shapes, input checking, refusals, benchmark.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/runtime/session.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

// y = Relu(x + bias) over x : f32[batch,3]
ir::FrozenGraph tiny_graph(const std::string& op_type = "Relu") {
  ir::Graph g;
  g.name = "tiny";
  ir::Shape s;
  s.dims = {ir::Dim::named("batch"), ir::Dim::fixed(3)};
  g.add_tensor({"x", ir::DType::Float32, s, std::nullopt, std::nullopt});
  const float bias[3] = {1, -1, 0};
  g.add_tensor({"bias", ir::DType::Float32, ir::Shape::of({3}), ir::ConstantData::copy_of(bias, sizeof bias), std::nullopt});
  g.add_tensor({"t", ir::DType::Float32, s, std::nullopt, std::nullopt});
  g.add_tensor({"y", ir::DType::Float32, s, std::nullopt, std::nullopt});
  g.inputs = {"x"};
  g.outputs = {"y"};
  g.ops.push_back(make_op("Add", {"x", "bias"}, {"t"}));
  g.ops.push_back(make_op(op_type, {"t"}, {"y"}));
  return ir::freeze(std::move(g));
}

TEST(Session, RunsWithAnyBatch) {
  InferenceSession s;
  s.load(tiny_graph());
  for (std::int64_t batch : {1, 4}) {
    std::vector<float> v(static_cast<std::size_t>(batch * 3), 0.5f);
    auto out = s.run({{"x", f32({batch, 3}, v)}});
    ASSERT_EQ(out.count("y"), 1u);
    EXPECT_EQ(out["y"].shape(), (std::vector<std::int64_t>{batch, 3}));
    EXPECT_FLOAT_EQ(out["y"].data<float>()[0], 1.5f);
    EXPECT_FLOAT_EQ(out["y"].data<float>()[1], 0.0f);
  }
}

std::string run_error(const InferenceSession& s, const std::map<std::string, Tensor>& in) {
  try {
    s.run(in);
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    return e.what();
  }
  return "no error";
}

TEST(Session, InputErrorsNameTheInputAndExpectedType) {
  InferenceSession s;
  s.load(tiny_graph());
  EXPECT_EQ(run_error(s, {{"x", f32({1, 3, 1}, {1, 2, 3})}}), "input 'x': expected f32[batch,3], got f32[1,3,1]");
  EXPECT_EQ(run_error(s, {{"x", f32({1, 2}, {1, 2})}}), "input 'x': expected f32[batch,3], got f32[1,2]");
  EXPECT_EQ(run_error(s, {{"x", i64({1, 3}, {1, 2, 3})}}), "input 'x': expected f32[batch,3], got i64[1,3]");
  EXPECT_EQ(run_error(s, {}), "input 'x': missing (expected f32[batch,3])");
}

TEST(Session, OpWithoutKernelIsRefusedAtLoad) {
  InferenceSession s;
  try {
    s.load(tiny_graph("Loop"));
    FAIL();
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "Loop");
    EXPECT_NE(std::string(e.what()).find("the CPU runtime"), std::string::npos);
  }
}

TEST(Session, BenchmarkStatsAreOrdered) {
  InferenceSession s;
  s.load(tiny_graph());
  const Stats st = s.benchmark(20, 2);
  EXPECT_EQ(st.iterations, 20);
  EXPECT_LE(st.min_ms, st.p50_ms);
  EXPECT_LE(st.p50_ms, st.p95_ms);
  EXPECT_LE(st.p95_ms, st.p99_ms);
  EXPECT_LE(st.p99_ms, st.max_ms);
  EXPECT_GT(st.throughput, 0);
}

}  // namespace
}  // namespace ec::runtime::test
