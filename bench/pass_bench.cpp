// Pass pipeline scaling: the default pipeline on generated graphs of about
// 1,000 / 10,000 / 100,000 ops, with and without GraphDiff recording, the growth
// ratio between sizes, and the same against a linear peer timed in the same run:
// linear means the pipeline stays a constant multiple of the peer as sizes grow.
//
// usage: pass_bench [--max-ops N] [--plain] [--warm] [--only N]
//   --max-ops 1000000: a 1M-op size too;
//   --plain: skip the runs recording diffs; --warm: do not evict the caches before each
//   timed run; --only N: one size, repeated (for profilers)
//
// Columns: the pipeline as a user runs it; its linear peer, as many sweeps as it has
// passes, each looking up every tensor each op names; the pipeline with the caches
// evicted before every pass and one such sweep, which separate the passes' own growth
// from the reuse of the cache between passes that a graph smaller than the L3 cache
// gets and a larger one cannot.
//
// Each generated block (10 ops) gives every pass work: an Identity (Cleanup),
// Conv + BatchNormalization + Relu (OpFusion, FuseActivation), Shape -> Gather
// of a static shape and a constant Add (ConstantFolding), two equal Muls (CSE)
// and a dead Neg (DCE).
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
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

// Every timed run starts with the graph in memory but not in the caches: a graph just
// built is cache-resident when it is small (10k ops, ~10 MB) and not when it is large
// (100k ops), which would credit the small sizes with a warm start the large ones
// cannot have. Reading a buffer far larger than any L3 evicts it. (--warm skips this.)
bool warm = false;
void evict_caches() {
  if (warm) return;
  static std::vector<unsigned char> buffer(256u << 20, 1);
  unsigned sum = 0;
  for (std::size_t i = 0; i < buffer.size(); i += 64) sum += buffer[i]++;
  if (sum == 1) std::fprintf(stderr, "\n");
}

// The default pipeline on a fresh graph of about `n` ops; returns its CPU ms.
double pipeline_cpu_ms(std::size_t n, bool diffs, std::size_t* ops_after) {
  ir::Graph g = make_graph(n);
  passes::PassManagerOptions o;
  o.record_diffs = diffs;
  o.validate_each = false;  // timed separately below: the pipeline itself is what scales here
  auto pm = passes::make_pipeline(passes::default_pipeline(), o);
  evict_caches();
  const double c0 = cpu_ms();
  const auto report = pm.run(g);
  const double ms = cpu_ms() - c0;
  per_pass.clear();
  for (const auto& r : report.passes) {
    char b[96];
    std::snprintf(b, sizeof b, "%s%s %.1f", per_pass.empty() ? "" : ", ", r.pass.c_str(), r.milliseconds);
    per_pass += b;
  }
  *ops_after = g.ops.size();
  if (!ir::validate(g).empty()) std::fprintf(stderr, "pass_bench: the optimised graph is invalid\n");
  return ms;
}

// The linear peer: sweeps that do what every pass must do at the least (visit each op
// and look up each tensor it names), on a fresh graph of the same size, timed the same
// way. One sweep after the caches are evicted is the floor of one pass; as many sweeps
// as the pipeline has passes, one after another, meet the caches as the passes do (a
// 10k-op graph stays in L3 from one to the next, a 100k-op one cannot). Their growth is
// what the machine's memory hierarchy gives a linear algorithm over this IR.
double sweeps_cpu_ms(std::size_t n, std::size_t sweeps) {
  const ir::Graph g = make_graph(n);
  evict_caches();
  const double c0 = cpu_ms();
  std::size_t found = 0;
  for (std::size_t k = 0; k < sweeps; ++k)
    for (const auto& op : g.ops) {
      for (const auto& name : op.inputs) found += g.tensors.find(name) != g.tensors.end();
      for (const auto& name : op.outputs) found += g.tensors.find(name) != g.tensors.end();
    }
  const double ms = cpu_ms() - c0;
  if (found == 0) std::fprintf(stderr, "pass_bench: no tensor found\n");
  return ms;
}

// The pipeline again, with the caches evicted before each pass, not only before the
// first: what every pass costs when it cannot reuse what the previous one left in the
// cache, as on a 100k-op graph (~85 MB, more than any L3) it cannot anyway.
double cold_passes_cpu_ms(std::size_t n) {
  ir::Graph g = make_graph(n);
  passes::PassManagerOptions o;
  o.record_diffs = false;
  o.validate_each = false;
  double total = 0;
  for (const std::string& name : passes::default_pipeline()) {
    auto pm = passes::make_pipeline({name}, o);
    evict_caches();
    const double c0 = cpu_ms();
    pm.run(g);
    total += cpu_ms() - c0;
  }
  return total;
}

// Best (lowest) time of a column over the repetitions, and its growth from the last size.
struct Column {
  double best = 1e300, prev = 0;
  void add(double ms) { best = std::min(best, ms); }
  std::string growth() const {
    char b[32] = "-";
    if (prev > 0) std::snprintf(b, sizeof b, "%.1fx", best / prev);
    return b;
  }
  void next() {
    prev = best;
    best = 1e300;
  }
};

}  // namespace

int main(int argc, char** argv) {
  std::size_t max_ops = 100000, only = 0;
  bool only_plain = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--max-ops") == 0 && i + 1 < argc) max_ops = std::stoul(argv[i + 1]);
    if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc) only = std::stoul(argv[i + 1]);
    if (std::strcmp(argv[i], "--plain") == 0) only_plain = true;
    if (std::strcmp(argv[i], "--warm") == 0) warm = true;
  }
  if (only > 0) {  // one size, repeated over about 2M ops in all: for profilers
    double cpu = 0;
    std::size_t after = 0;
    const int reps = std::max(1, int(2000000 / only));
    for (int r = 0; r < reps; ++r) cpu += pipeline_cpu_ms(only, false, &after);
    std::printf("%zu ops: %.3f us per op; last run (ms): %s\n", only, cpu * 1e3 / double(reps) / double(only),
                per_pass.c_str());
    return 0;
  }
  const std::size_t passes = passes::default_pipeline().size();
  std::printf("%8s %9s | %9s %7s | %9s %7s | %9s | %9s %7s | %8s %7s | %9s\n", "ops", "ops after", "pipeline",
              "growth", "sweeps", "growth", "pipe/swps", "cold", "growth", "sweep", "growth", "diffs");
  Column pipeline, sweeps, cold, sweep, diffs;
  std::string last_per_pass;
  std::vector<double> per_peer;  // pipeline / sweeps at each size
  for (std::size_t n = 1000; n <= max_ops; n *= 10) {
    std::size_t after = 0;
    const std::size_t actual = make_graph(n).ops.size();
    const int reps = n >= 100000 ? 5 : 9;
    for (int rep = 0; rep < reps; ++rep) {
      pipeline.add(pipeline_cpu_ms(n, false, &after));
      sweeps.add(sweeps_cpu_ms(n, passes));
      cold.add(cold_passes_cpu_ms(n));
      sweep.add(sweeps_cpu_ms(n, 1));
      if (only_plain) continue;
      diffs.add(pipeline_cpu_ms(n, true, &after));
      last_per_pass = per_pass;
    }
    char d[32] = "-";
    if (!only_plain) std::snprintf(d, sizeof d, "%.1f", diffs.best);
    std::printf("%8zu %9zu | %9.1f %7s | %9.1f %7s | %9.1f | %9.1f %7s | %8.2f %7s | %9s\n", actual, after,
                pipeline.best, pipeline.growth().c_str(), sweeps.best, sweeps.growth().c_str(),
                pipeline.best / sweeps.best, cold.best, cold.growth().c_str(), sweep.best, sweep.growth().c_str(), d);
    if (!only_plain) std::printf("         per pass (ms, a run with diffs): %s\n", last_per_pass.c_str());
    per_peer.push_back(pipeline.best / sweeps.best);
    for (Column* c : {&pipeline, &sweeps, &cold, &sweep, &diffs}) c->next();
  }
  std::printf(
      "ms: this thread's CPU time, best of 5-9 runs, each %s.\n"
      "pipeline: the default pipeline (%zu passes). sweeps: %zu sweeps one after another, each looking up every\n"
      "tensor each op names (what any pass does at the least): the linear peer, meeting the caches as the\n"
      "passes do. cold: the pipeline with the caches evicted before every pass. sweep: one sweep, cold.\n"
      "diffs: the pipeline recording a GraphDiff per pass (optimize --diff/--json).\n",
      warm ? "right after building the graph (--warm: small graphs start cache-resident)"
           : "starting with the caches evicted",
      passes, passes);
  // Linear means: the pipeline stays within a constant factor of its linear peer as the
  // graph grows, whatever the caches do to both: pipe/swps does not rise (by more than
  // noise, 25 %) from one size to the next.
  if (per_peer.size() >= 2) {
    double worst = 0;
    for (std::size_t k = 1; k < per_peer.size(); ++k) worst = std::max(worst, per_peer[k] / per_peer[k - 1]);
    std::printf("pipeline against its linear peer: pipe/swps changes by at most %.2fx per 10x ops -> %s\n", worst,
                worst <= 1.25 ? "linear (it grows no faster than the peer)" : "NOT linear (it outgrows the peer)");
  }
  return 0;
}
