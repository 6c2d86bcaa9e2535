// The partition predictor against the real edgetpu_compiler: for every pair
// MODEL.tflite / MODEL_edgetpu.tflite in tests/data/edgetpu/ (google-coral/edgetpu
// test_data, Apache 2.0), the split the compiled file shows (each edgetpu-custom-op
// is one Edge TPU segment, every other op stays on the CPU) must be what we predict
// from the original by the rules: ops on the Edge TPU, ops on the CPU by type, segments.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>

#include "core/backends/coral/coral_backend.h"
#include "core/backends/units.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"

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

// Counts are the file's: compiled with an output, every Edge TPU test model's report
// counts the operators of the .tflite written (read back: its reader tallies them by
// type), rows and counts alike, and they agree with the real compiler's split where
// the written file holds the original's ops (edgetpu_compiler's total is the
// original's operator count; its CPU ops are the ones its output leaves outside the
// edgetpu-custom-op).
TEST(CoralRealCompiler, CountsAreTheWrittenFilesOperators) {
  namespace fs = std::filesystem;
  const fs::path dir = EC_EDGETPU_TESTDATA;
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is missing";
  auto operators = [](const ir::Graph& g) {
    int n = 0;
    std::istringstream in(g.metadata.at("tflite.ops_by_type"));
    for (std::string e; std::getline(in, e, ',');) n += std::atoi(e.c_str() + e.find_last_of(' ') + 1);
    return n;
  };
  int pairs = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const auto name = entry.path().filename().string();
    if (entry.path().extension() != ".tflite" || name.find("_edgetpu") != std::string::npos) continue;
    const auto compiled_path = dir / (entry.path().stem().string() + "_edgetpu.tflite");
    if (!fs::exists(compiled_path)) continue;
    ++pairs;
    const ir::Graph original = frontends::open_model(entry.path().string());
    const fs::path out = fs::temp_directory_path() / ("coral_counts_" + entry.path().stem().string() + ".tflite");
    coral::CoralBackend backend;
    CompileConfig config;
    config.output_path = out.string();
    const auto result = backend.compile(original, config);
    ASSERT_EQ(result.output_path, out.string()) << name << ": " << (result.notes.empty() ? "" : result.notes.front());
    const ir::Graph written = frontends::open_model(out.string());
    const int file_ops = operators(written);
    EXPECT_EQ(static_cast<int>(result.partition.rows.size()), file_ops) << name;
    EXPECT_EQ(result.ops_on_target + result.ops_fallback, file_ops) << name;
    EXPECT_NE(result.counted_in.find("written file"), std::string::npos) << result.counted_in;
    // edgetpu_compiler's figures, from its output beside the original
    const ir::Graph compiled = frontends::open_model(compiled_path.string());
    int left = 0;
    for (const auto& op : compiled.ops) left += op.op_type != "tflite::edgetpu-custom-op";
    const int total = operators(original);
    std::printf("%s: written file %d ops (%d on the Edge TPU, %d on the CPU); edgetpu_compiler: %d ops, %d on the CPU\n",
                name.c_str(), file_ops, result.ops_on_target, result.ops_fallback, total, left);
    if (file_ops == total) {
      EXPECT_EQ(result.ops_fallback, left) << name;
      EXPECT_EQ(result.ops_on_target, total - left) << name;
    }
    // without an output the counts are the graph's, and say so
    const auto unwritten = backend.compile(original, {});
    EXPECT_TRUE(unwritten.counted_in.empty());
    EXPECT_EQ(static_cast<int>(unwritten.partition.rows.size()), total) << name << ": units are the file's ops";
    fs::remove(out);
  }
  EXPECT_GE(pairs, 3);
}

// The TFLite reader puts a RESHAPE before a FULLY_CONNECTED whose input is not 2-D
// (named "<output>/flatten"); the two are one op of the file, so one unit (one row,
// one count). Written, the counts are the written file's, whatever the writer makes
// of the pair.
TEST(CoralUnits, ReaderFlattenJoinsItsFullyConnected) {
  ir::Graph g = ir::parse(
      "graph \"t\" {\n"
      "  input %x : u8[1,2,2,4] quant(u8, scales=[0.1], zero_points=[128], axis=-1)\n"
      "  const %s : i64[2] = hex\"ffffffffffffffff1000000000000000\"\n"
      "  const %w : u8[3,16] quant(u8, scales=[0.01], zero_points=[128], axis=-1) = hex\"" + std::string(96, '8') + "\"\n"
      "  %\"x/flat\" = Reshape(%x, %s) : u8[1,16] quant(u8, scales=[0.1], zero_points=[128], axis=-1) @\"y/flatten\"\n"
      "  %y = FullyConnected(%\"x/flat\", %w) : u8[1,3] quant(u8, scales=[0.2], zero_points=[128], axis=-1) @\"y\"\n"
      "  output %y\n}\n");
  const auto units = group_units(g);
  ASSERT_EQ(units.size(), 1u);
  EXPECT_EQ(units[0].front(), 1u);  // the FullyConnected is the unit's main op
  coral::CoralBackend backend;
  const auto p = backend.partition(g);
  ASSERT_EQ(p.rows.size(), 1u);
  EXPECT_EQ(p.rows[0].target_op, "FULLY_CONNECTED");
  // written, the counts are the file's operators, whatever the writer made of the pair
  const auto out = std::filesystem::temp_directory_path() / "coral_units_fc.tflite";
  CompileConfig config;
  config.output_path = out.string();
  const auto r = backend.compile(g, config);
  ASSERT_EQ(r.output_path, out.string()) << (r.notes.empty() ? "" : r.notes.front());
  const ir::Graph written = frontends::open_model(out.string());
  int file_ops = 0;
  std::istringstream in(written.metadata.at("tflite.ops_by_type"));
  for (std::string e; std::getline(in, e, ',');) file_ops += std::atoi(e.c_str() + e.find_last_of(' ') + 1);
  std::printf("FULLY_CONNECTED on a 4-D input: the writer wrote %s; the report counts %zu\n",
              written.metadata.at("tflite.ops_by_type").c_str(), r.partition.rows.size());
  EXPECT_EQ(static_cast<int>(r.partition.rows.size()), file_ops);
  EXPECT_EQ(r.ops_on_target + r.ops_fallback, file_ops);
  std::filesystem::remove(out);
}
