// Output equality of the default pipeline on real models.
//
// usage: pass_equivalence [--require-fewer-ops | --allow-more-ops] [--then PASS,...] MODEL_OR_DIR...
//
// A directory is searched one level deep for */model.onnx (libonnx-testdata
// layout) and *.onnx. For each model: run the original on the CPU runtime on the inputs of
// its test_data_set_0 when it has one (libonnx-testdata), else on deterministic
// random inputs, run the default pipeline (validate() after each
// pass), run the result, and compare every output: max|a - b| must be within
// 1e-5 of max(1, max|a|) (relative to the output's magnitude). Prints the op
// count before and after. Models the CPU runtime cannot run, before
// optimisation, are listed as skipped. Exit 1 on any mismatch or invalid graph;
// with --require-fewer-ops, also when a model's op count does not fall.
// --allow-more-ops: a pass that decomposes (LegaliseTflite) may grow the op count.
// --then appends passes to the default pipeline (e.g. LayoutTransform: the
// NHWC graph must run on the CPU runtime with the same outputs).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/session/session.h"
#include "tests/runtime/onnx_test_data.h"

namespace fs = std::filesystem;
using namespace ec;

namespace {

constexpr double kTolerance = 1e-5;

// Largest |a - b| relative to max(1, max|a|); infinity on shape or dtype mismatch.
double relative_error(const runtime::Tensor& a, const runtime::Tensor& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape()) return INFINITY;
  if (a.dtype() == ir::DType::String) return 0;
  double max_ref = 1, max_diff = 0;
  for (std::int64_t i = 0; i < a.numel(); ++i) {
    const double x = a.get_double(i), y = b.get_double(i);
    if (std::isfinite(x)) max_ref = std::max(max_ref, std::abs(x));
    if ((std::isnan(x) && std::isnan(y)) || x == y) continue;  // equal infinities too
    max_diff = std::max(max_diff, std::isnan(x - y) ? INFINITY : std::abs(x - y));
  }
  return max_diff / max_ref;
}

enum class Outcome { Pass, Fail, Skip };

// Graphs run as written: the session's own load-time rewrites (channels-last) stay off,
// so what is compared is the pipeline's output against the model.
runtime::SessionOptions as_written() {
  runtime::SessionOptions o;
  o.channels_last = false;
  return o;
}

Outcome check(const std::string& path, bool require_fewer, bool allow_more, const std::vector<std::string>& then) {
  ir::Graph g;
  std::map<std::string, runtime::Tensor> inputs, expected;
  const char* source = "random inputs";
  try {
    g = frontends::open_model(path);
    runtime::InferenceSession s(as_written());
    s.load(ir::freeze(g));
    // A libonnx-testdata model runs on its own inputs (an Embedding's indices must be in
    // range, which random integers are not); any other model on random ones.
    const fs::path data = fs::path(path).parent_path() / "test_data_set_0";
    if (fs::exists(data / "input_0.pb")) {
      inputs = testing::load_test_inputs(data, s.inputs());
      source = "test data inputs";
    } else {
      inputs = s.random_inputs(0);
    }
    expected = s.run(inputs);
  } catch (const testing::UnsupportedTestData& e) {
    std::cout << "SKIP " << path << ": " << e.reason << '\n';
    return Outcome::Skip;
  } catch (const std::exception& e) {
    std::cout << "SKIP " << path << ": the unoptimised model does not run: " << e.what() << '\n';
    return Outcome::Skip;
  }
  const std::size_t before = g.ops.size();
  passes::PipelineReport report;
  try {
    passes::PassManagerOptions o;
    o.record_diffs = false;  // validate_each stays on
    auto names = passes::default_pipeline();
    names.insert(names.end(), then.begin(), then.end());
    report = passes::make_pipeline(names, o).run(g);
  } catch (const std::exception& e) {
    std::cout << "FAIL " << path << ": " << e.what() << '\n';
    return Outcome::Fail;
  }
  std::map<std::string, runtime::Tensor> got;
  try {
    runtime::InferenceSession s(as_written());
    s.load(ir::freeze(g));
    got = s.run(inputs);
  } catch (const std::exception& e) {
    std::cout << "FAIL " << path << ": the optimised model does not run: " << e.what() << '\n';
    return Outcome::Fail;
  }
  double worst = 0;
  std::string worst_name;
  try {
    for (const auto& [name, t] : expected) {
      auto it = got.find(name);
      const double err = it == got.end() ? INFINITY : relative_error(t, it->second);
      if (err > worst || worst_name.empty()) worst = err, worst_name = name;
    }
  } catch (const std::exception& e) {
    std::cout << "SKIP " << path << ": outputs cannot be compared: " << e.what() << '\n';
    return Outcome::Skip;
  }
  const std::size_t after = g.ops.size();
  char line[512];
  std::snprintf(line, sizeof line, "%zu -> %zu ops (%+ld, %.1f%%), max relative error %.2e (%s; %s), passes %.2f ms",
                before, after, static_cast<long>(after) - static_cast<long>(before),
                before ? 100.0 * (static_cast<double>(after) - static_cast<double>(before)) / static_cast<double>(before) : 0.0,
                worst, worst_name.c_str(), source, report.milliseconds);
  const bool equal = worst <= kTolerance;
  const bool fewer = after < before;
  const bool ok = equal && (after <= before || allow_more) && (!require_fewer || fewer);
  std::cout << (ok ? "PASS " : "FAIL ") << path << ": " << line
            << (equal ? "" : " [outputs differ]") << (after > before && !allow_more ? " [op count grew]" : "")
            << (require_fewer && !fewer ? " [op count did not fall]" : "") << '\n';
  return ok ? Outcome::Pass : Outcome::Fail;
}

}  // namespace

int main(int argc, char** argv) {
  bool require_fewer = false, allow_more = false;
  std::vector<std::string> models, then;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--allow-more-ops") {
      allow_more = true;
    } else if (a == "--require-fewer-ops") {
      require_fewer = true;
    } else if (a == "--then" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t at = 0; at <= list.size();) {
        const std::size_t comma = std::min(list.find(',', at), list.size());
        if (comma > at) then.push_back(list.substr(at, comma - at));
        at = comma + 1;
      }
    } else if (fs::is_directory(a)) {
      std::vector<std::string> found;
      for (const auto& e : fs::directory_iterator(a))
        if (fs::exists(e.path() / "model.onnx")) found.push_back((e.path() / "model.onnx").string());
        else if (e.is_regular_file() && e.path().extension() == ".onnx") found.push_back(e.path().string());
      std::sort(found.begin(), found.end());
      models.insert(models.end(), found.begin(), found.end());
    } else {
      models.push_back(a);
    }
  }
  if (models.empty()) {
    std::cerr << "usage: pass_equivalence [--require-fewer-ops | --allow-more-ops] [--then PASS,...] MODEL_OR_DIR...\n";
    return 2;
  }
  int pass = 0, fail = 0, skip = 0;
  for (const auto& m : models) {
    switch (check(m, require_fewer, allow_more, then)) {
      case Outcome::Pass: ++pass; break;
      case Outcome::Fail: ++fail; break;
      case Outcome::Skip: ++skip; break;
    }
  }
  std::cout << pass << " passed, " << fail << " failed, " << skip << " skipped (not runnable before optimisation)\n";
  return fail ? 1 : 0;
}
