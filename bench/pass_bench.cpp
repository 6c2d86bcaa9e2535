// Pass pipeline scaling: the default pipeline on generated graphs of about
// 1,000 / 10,000 / 100,000 ops, with and without GraphDiff recording, and the
// growth ratio between sizes (10x more ops should cost about 10x: linear).
//
// usage: pass_bench [--max-ops N] [--plain]   (--plain: skip the runs recording diffs, e.g. to profile)
//
// Each generated block (10 ops) gives every pass work: an Identity (Cleanup),
// Conv + BatchNormalization + Relu (OpFusion, FuseActivation), Shape -> Gather
// of a static shape and a constant Add (ConstantFolding), two equal Muls (CSE)
// and a dead Neg (DCE).
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/ir/validate.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"

using namespace ec;

namespace {

ir::Tensor constant(const std::string& name, std::vector<std::int64_t> shape, const std::vector<float>& v) {
  ir::Tensor t;
  t.name = name;
  t.dtype = ir::DType::Float32;
  t.shape = ir::Shape::of(shape);
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(float));
  return t;
}

ir::Tensor typed(const std::string& name, ir::DType dt, std::vector<std::int64_t> shape) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.shape = ir::Shape::of(shape);
  return t;
}

void op(ir::Graph& g, ir::OpKind k, std::vector<std::string> in, std::string out,
        std::map<std::string, ir::Attribute> attrs = {}) {
  ir::Operation o;
  o.kind = k;
  o.op_type = std::string(ir::op_info(k).name);
  o.inputs = std::move(in);
  o.outputs = {std::move(out)};
  o.attributes = std::move(attrs);
  g.ops.push_back(std::move(o));
}

ir::Graph make_graph(std::size_t target_ops) {
  ir::Graph g;
  g.name = "bench";
  const std::vector<std::int64_t> act{1, 4, 2, 2};
  g.add_tensor(typed("x", ir::DType::Float32, act));
  g.inputs = {"x"};
  g.add_tensor(constant("gamma", {4}, {1, 2, 3, 4}));
  g.add_tensor(constant("beta", {4}, {0, 1, 0, 1}));
  g.add_tensor(constant("mean", {4}, {0.5f, 0, 0, 0}));
  g.add_tensor(constant("var", {4}, {1, 1, 2, 2}));
  g.add_tensor(constant("one", {}, {1}));
  g.add_tensor(constant("half", {}, {0.5f}));
  ir::Tensor idx;
  idx.name = "idx";
  idx.dtype = ir::DType::Int64;
  idx.shape = ir::Shape::of({});
  const std::int64_t one = 1;
  idx.data = ir::ConstantData::copy_of(&one, sizeof one);
  g.add_tensor(idx);
  std::string prev = "x";
  for (std::size_t b = 0; g.ops.size() + 10 <= target_ops || b == 0; ++b) {
    const std::string p = "b" + std::to_string(b) + ".";
    std::vector<float> w(16, 0.0f);
    for (int k = 0; k < 4; ++k) w[static_cast<std::size_t>(k * 5)] = 0.5f;  // diagonal 1x1 conv
    g.add_tensor(constant(p + "w", {4, 4, 1, 1}, w));
    for (const char* n : {"i", "c", "n", "r", "k", "m1", "m2", "y", "dead"}) g.add_tensor(typed(p + n, ir::DType::Float32, act));
    g.tensors[p + "k"].shape = ir::Shape::of({});
    g.add_tensor(typed(p + "s", ir::DType::Int64, {4}));
    g.add_tensor(typed(p + "d", ir::DType::Int64, {}));
    op(g, ir::OpKind::Identity, {prev}, p + "i");
    op(g, ir::OpKind::Conv, {p + "i", p + "w"}, p + "c", {{"kernel_shape", std::vector<std::int64_t>{1, 1}}});
    op(g, ir::OpKind::BatchNormalization, {p + "c", "gamma", "beta", "mean", "var"}, p + "n");
    op(g, ir::OpKind::Relu, {p + "n"}, p + "r");
    op(g, ir::OpKind::Shape, {p + "r"}, p + "s");
    op(g, ir::OpKind::Gather, {p + "s", "idx"}, p + "d");
    op(g, ir::OpKind::Add, {"one", "half"}, p + "k");
    op(g, ir::OpKind::Mul, {p + "r", p + "k"}, p + "m1");
    op(g, ir::OpKind::Mul, {p + "r", p + "k"}, p + "m2");
    op(g, ir::OpKind::Add, {p + "m1", p + "m2"}, p + "y");
    op(g, ir::OpKind::Neg, {p + "y"}, p + "dead");
    prev = p + "y";
  }
  g.outputs = {prev};
  return g;
}

std::string per_pass;  // of the last run

// This thread's CPU time: on the shared machine the wall clock also counts time spent
// descheduled (load average 8-10 on 2 cores while other builds run).
double cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) * 1e-6;
}

double last_cpu = 0;  // CPU ms of the last run_ms

double run_ms(std::size_t n, bool diffs, std::size_t* ops_after) {
  ir::Graph g = make_graph(n);
  passes::PassManagerOptions o;
  o.record_diffs = diffs;
  o.validate_each = false;  // timed separately below: the pipeline itself is what scales here
  auto pm = passes::make_pipeline(passes::default_pipeline(), o);
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = cpu_ms();
  const auto report = pm.run(g);
  last_cpu = cpu_ms() - c0;
  const auto t1 = std::chrono::steady_clock::now();
  per_pass.clear();
  for (const auto& r : report.passes) {
    char b[96];
    std::snprintf(b, sizeof b, "%s%s %.1f", per_pass.empty() ? "" : ", ", r.pass.c_str(), r.milliseconds);
    per_pass += b;
  }
  *ops_after = g.ops.size();
  if (!ir::validate(g).empty()) std::fprintf(stderr, "pass_bench: the optimised graph is invalid\n");
  return std::chrono::duration<double, std::milli>(t1 - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t max_ops = 100000;
  bool only_plain = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--max-ops") == 0 && i + 1 < argc) max_ops = std::stoul(argv[i + 1]);
    if (std::strcmp(argv[i], "--plain") == 0) only_plain = true;
  }
  std::printf("%10s %10s %12s %12s %14s %14s %12s\n", "ops", "ops after", "wall ms", "cpu ms", "diffs wall ms",
              "diffs cpu ms", "cpu growth");
  double prev = 0;
  for (std::size_t n = 1000; n <= max_ops; n *= 10) {
    std::size_t after = 0;
    const std::size_t actual = make_graph(n).ops.size();
    double best = 1e300, best_cpu = 1e300, best_diff = 1e300, best_diff_cpu = 1e300;
    for (int rep = 0; rep < 3; ++rep) {
      best = std::min(best, run_ms(n, false, &after));
      best_cpu = std::min(best_cpu, last_cpu);
      if (only_plain) continue;
      best_diff = std::min(best_diff, run_ms(n, true, &after));
      best_diff_cpu = std::min(best_diff_cpu, last_cpu);
    }
    char growth[32] = "-";
    if (prev > 0) std::snprintf(growth, sizeof growth, "%.1fx", best_cpu / prev);
    if (only_plain) {
      std::printf("%10zu %10zu %12.1f %12.1f %14s %14s %12s\n", actual, after, best, best_cpu, "-", "-", growth);
      prev = best_cpu;
      continue;
    }
    std::printf("%10zu %10zu %12.1f %12.1f %14.1f %14.1f %12s\n", actual, after, best, best_cpu, best_diff,
                best_diff_cpu, growth);
    std::printf("           per pass (ms, last run with diffs): %s\n", per_pass.c_str());
    prev = best_cpu;
  }
  return 0;
}
