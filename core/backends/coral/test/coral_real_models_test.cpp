// The partition predictor against the real edgetpu_compiler: for every pair
// MODEL.tflite / MODEL_edgetpu.tflite in tests/data/edgetpu/ (google-coral/edgetpu
// test_data, Apache 2.0), the split the compiled file shows (each edgetpu-custom-op
// is one Edge TPU segment, every other op stays on the CPU) must be what we predict
// from the original by the rules: ops on the Edge TPU, ops on the CPU by type, segments.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>

#include "core/backends/coral/coral_backend.h"
#include "core/backends/units.h"
#include "core/frontends/frontend.h"

using namespace ec;
using namespace ec::backends;

namespace {

struct Split {
  int on_tpu = 0, on_cpu = 0, segments = 0;
  std::map<std::string, int> cpu_by_type;
};

std::string show(const Split& s) {
  std::string t = std::to_string(s.on_tpu) + " TPU / " + std::to_string(s.on_cpu) + " CPU, " +
                  std::to_string(s.segments) + " segment(s), CPU by type {";
  for (const auto& [k, v] : s.cpu_by_type) t += k + ": " + std::to_string(v) + ", ";
  return t + "}";
}

}  // namespace

TEST(CoralRealCompiler, PredictsTheCompiledSplit) {
  const std::filesystem::path dir = EC_EDGETPU_TESTDATA;
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is missing";
  int pairs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (entry.path().extension() != ".tflite" || name.find("_edgetpu") != std::string::npos) continue;
    const auto compiled_path = dir / (entry.path().stem().string() + "_edgetpu.tflite");
    if (!std::filesystem::exists(compiled_path)) continue;
    ++pairs;
    const ir::Graph original = frontends::open_model(entry.path().string());
    const ir::Graph compiled = frontends::open_model(compiled_path.string());

    // the real compiler's split, read from its output
    Split real;
    int units_original = 0;
    for (const auto& unit : group_units(original)) (void)unit, ++units_original;
    int units_left = 0;
    for (const auto& unit : group_units(compiled)) {
      const auto& op = compiled.ops[unit.front()];
      if (op.op_type == "tflite::edgetpu-custom-op") {
        ++real.segments;
        continue;
      }
      ++units_left;
      ++real.cpu_by_type[tflite_op_name(compiled, op)];
    }
    real.on_cpu = units_left;
    real.on_tpu = units_original - units_left;

    // our prediction from the original
    coral::CoralBackend backend;
    const auto result = backend.compile(original, {});
    Split ours;
    ours.on_tpu = result.ops_on_target;
    ours.on_cpu = result.ops_fallback;
    ours.segments = result.partition.segments;
    for (const auto& r : result.partition.rows)
      if (r.placement == Placement::Cpu) ++ours.cpu_by_type[r.target_op];

    std::printf("%s\n  edgetpu_compiler: %s\n  predicted:        %s\n", name.c_str(), show(real).c_str(), show(ours).c_str());
    EXPECT_EQ(ours.on_tpu, real.on_tpu) << name;
    EXPECT_EQ(ours.on_cpu, real.on_cpu) << name;
    EXPECT_EQ(ours.segments, real.segments) << name;
    EXPECT_EQ(ours.cpu_by_type, real.cpu_by_type) << name;
    for (const auto& r : result.partition.rows) {
      if (r.placement == Placement::Cpu) {
        EXPECT_FALSE(r.reason.empty()) << name << ": " << r.name;
      }
    }
  }
  EXPECT_GE(pairs, 3);
}
