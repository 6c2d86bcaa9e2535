// Shape inference on real models, checked against the CPU runtime: every op
// output's declared shape (after import, or after the default pipeline with
// --optimize) must equal the shape the reference kernels produce, with each
// named input dim ("batch") set to --batch (default 3, so a symbolic dim is
// not mistaken for a static 1). --require-static: no op output may keep an
// unknown rank or an anonymous dim.
//
// usage: shape_inference_models [--optimize] [--require-static] [--batch N] MODEL...
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "core/frontends/frontend.h"
#include "core/ir/shape_inference.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "tests/ir/shape_reference.h"

int main(int argc, char** argv) {
  bool optimize = false, require_static = false;
  std::int64_t batch = 3;
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--optimize") optimize = true;
    else if (a == "--require-static") require_static = true;
    else if (a == "--batch" && i + 1 < argc) batch = std::stoll(argv[++i]);
    else models.push_back(a);
  }
  if (models.empty()) {
    std::cerr << "usage: shape_inference_models [--optimize] [--require-static] [--batch N] MODEL...\n";
    return 2;
  }
  int failures = 0;
  for (const auto& path : models) {
    try {
      ec::ir::Graph g = ec::frontends::open_model(path);
      if (optimize) ec::passes::make_pipeline(ec::passes::default_pipeline()).run(g);
      std::map<std::string, std::int64_t> symbols;
      for (const auto& in : g.inputs)
        for (const auto& d : g.find_tensor(in)->shape.dims)
          if (!d.is_static() && !d.symbol.empty()) symbols[d.symbol] = batch;
      const auto conflicts = ec::ir::check_shapes(g);
      const auto cmp = ec::test::compare_with_runtime(g, symbols);
      std::cout << path << (optimize ? " (optimised)" : "") << ": " << g.ops.size() << " ops, "
                << cmp.checked << " outputs compared with the runtime, " << cmp.mismatches.size()
                << " mismatches, " << cmp.not_static.size() << " not static, " << conflicts.size()
                << " conflicts\n";
      for (const auto& m : cmp.mismatches) std::cout << "  MISMATCH " << m << '\n';
      for (const auto& c : conflicts) std::cout << "  CONFLICT " << c.op << ": " << c.message << '\n';
      for (std::size_t i = 0; i < cmp.not_static.size() && i < 20; ++i)
        std::cout << "  not static: " << cmp.not_static[i] << '\n';
      if (!cmp.mismatches.empty() || !conflicts.empty() || cmp.checked == 0 ||
          (require_static && !cmp.not_static.empty()))
        ++failures;
    } catch (const std::exception& e) {
      std::cout << path << ": FAILED: " << e.what() << '\n';
      ++failures;
    }
  }
  std::cout << (failures ? "FAIL" : "OK") << " (" << models.size() << " models)\n";
  return failures ? 1 : 0;
}
