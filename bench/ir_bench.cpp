// IR algorithms on generated graphs of 1k..100k ops shaped like real networks:
// a chain of Conv+Relu blocks with a residual Add every third block.
// Run: build/release/bench/ir_bench   (prints per-size times and the fitted complexity)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <string>

#include "core/ir/algorithms.h"
#include "core/ir/text_format.h"
#include "core/ir/validate.h"

namespace {

using namespace ec::ir;

Graph make_network(std::int64_t n_ops) {
  Graph g;
  g.name = "synthetic";
  g.inputs = {"x"};
  g.add_tensor(Tensor{"x", DType::Float32, Shape::of({1, 8, 16, 16}), {}, {}});
  const float w[8 * 8 * 9] = {};
  g.add_tensor(Tensor{"w", DType::Float32, Shape::of({8, 8, 3, 3}),
                      ConstantData::copy_of(w, sizeof w), {}});
  std::string prev = "x", skip = "x";
  for (std::int64_t i = 0; static_cast<std::int64_t>(g.ops.size()) < n_ops; ++i) {
    auto add_op = [&](OpKind k, std::vector<std::string> in) {
      Operation op;
      op.kind = k;
      op.op_type = std::string(op_info(k).name);
      op.name = "/block" + std::to_string(i) + "/" + op.op_type;
      op.inputs = std::move(in);
      op.outputs = {op.name + "_out"};
      if (k == OpKind::Conv) op.attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
      g.add_tensor(Tensor{op.outputs[0], DType::Float32, Shape::of({1, 8, 16, 16}), {}, {}});
      g.ops.push_back(std::move(op));
      return g.ops.back().outputs[0];
    };
    prev = add_op(OpKind::Conv, {prev, "w"});
    prev = add_op(OpKind::Relu, {prev});
    if (i % 3 == 2) {
      prev = add_op(OpKind::Add, {prev, skip});
      skip = prev;
    }
  }
  g.outputs = {prev};
  return g;
}

void BM_Validate(benchmark::State& st) {
  Graph g = make_network(st.range(0));
  for (auto _ : st) benchmark::DoNotOptimize(validate(g));
  st.SetComplexityN(st.range(0));
}

void BM_TopologicalSortReversed(benchmark::State& st) {
  Graph g = make_network(st.range(0));
  for (auto _ : st) {
    st.PauseTiming();
    Graph h = g;
    std::reverse(h.ops.begin(), h.ops.end());
    st.ResumeTiming();
    topological_sort(h);
  }
  st.SetComplexityN(st.range(0));
}

void BM_Print(benchmark::State& st) {
  Graph g = make_network(st.range(0));
  for (auto _ : st) benchmark::DoNotOptimize(print(g));
  st.SetComplexityN(st.range(0));
}

void BM_Parse(benchmark::State& st) {
  std::string text = print(make_network(st.range(0)));
  for (auto _ : st) benchmark::DoNotOptimize(parse(text));
  st.SetComplexityN(st.range(0));
}

BENCHMARK(BM_Validate)->RangeMultiplier(10)->Range(1000, 100000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_TopologicalSortReversed)->RangeMultiplier(10)->Range(1000, 100000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_Print)->RangeMultiplier(10)->Range(1000, 100000)->Unit(benchmark::kMillisecond)->Complexity();
BENCHMARK(BM_Parse)->RangeMultiplier(10)->Range(1000, 100000)->Unit(benchmark::kMillisecond)->Complexity();

}  // namespace

BENCHMARK_MAIN();
