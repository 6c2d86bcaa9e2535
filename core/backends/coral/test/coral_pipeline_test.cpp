// The per-backend pipeline and quantiser constraints (Backend::pipeline(),
// Backend::quant_constraints()) and the split read back from a compiled
// *_edgetpu.tflite (Backend::partition_of_artefact, report::report_of_artefact).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "core/backends/backend_registry.h"
#include "core/backends/coral/coral_backend.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/calibration_data.h"
#include "core/report/compile_flow.h"

using namespace ec;

namespace {

int count_type(const ir::Graph& g, const std::string& type) {
  int n = 0;
  for (const auto& op : g.ops) n += op.op_type == type;
  return n;
}

ir::Graph layer_norm_graph() {
  std::ifstream in(std::string(EC_TESTS_DIR) + "/passes/golden/fuse_layer_norm.in.eir");
  std::stringstream s;
  s << in.rdbuf();
  return ir::parse(s.str());
}

}  // namespace

TEST(CoralPipeline, NamesItsOwnPasses) {
  backends::coral::CoralBackend coral;
  const auto cpu = backends::resolve_backend("cpu");
  EXPECT_EQ(cpu.backend->pipeline(), passes::default_pipeline());
  const auto p = coral.pipeline();
  for (const auto& name : p) EXPECT_NE(passes::find_pass(name), nullptr) << name;
  EXPECT_EQ(p.front(), "PinBatch");  // the Edge TPU runs batch 1: static shapes for the rewrites
  EXPECT_EQ(std::count(p.begin(), p.end(), "FuseLayerNorm"), 0);
  EXPECT_GT(std::count(p.begin(), p.end(), "OpFusion"), 0);

  // The CPU pipeline fuses the decomposed layer norm into one op its runtime has;
  // the Edge TPU has no such op, so its pipeline keeps the parts it can map.
  ir::Graph for_cpu = layer_norm_graph(), for_coral = layer_norm_graph();
  passes::make_pipeline(cpu.backend->pipeline()).run(for_cpu);
  passes::make_pipeline(p).run(for_coral);
  EXPECT_GT(count_type(for_cpu, "LayerNormalization"), 0);
  EXPECT_EQ(count_type(for_coral, "LayerNormalization"), 0);
  EXPECT_GT(count_type(for_coral, "ReduceMean"), 0);
}

TEST(CoralPipeline, QuantiserHonoursTheTargetsConstraints) {
  backends::coral::CoralBackend coral;
  const auto c = coral.quant_constraints();
  EXPECT_TRUE(c.requires_int8);
  EXPECT_EQ(c.strategies, (std::vector<std::string>{"ptq", "qat"}));

  const ir::Graph g = layer_norm_graph();
  report::CompileRequest r;
  r.model = "ln.eir";
  r.target = "coral";
  r.quantize = "dynamic";
  try {
    report::compile_model(g, r);
    FAIL() << "dynamic quantisation accepted for the Edge TPU";
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("ptq or qat"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("8-bit"), std::string::npos) << e.what();
  }
  // A float model with --quantize none: the Edge TPU cannot take it.
  r.quantize = "none";
  EXPECT_THROW(report::compile_model(g, r), EdgeCompilerError);
  // The CPU takes either.
  r.target = "cpu";
  EXPECT_NO_THROW(report::compile_model(g, r));

  // PTQ for coral runs the coral pipeline: no LayerNormalization in what it compiles.
  r.target = "coral";
  r.quantize = "ptq";
  r.samples = quantize::random_samples(g, 4, 1);
  const auto run = report::compile_model(g, r);
  EXPECT_EQ(count_type(run.graph, "LayerNormalization"), 0);
  EXPECT_EQ(run.strategy, "ptq");
  EXPECT_EQ(run.report.quantize, "ptq");
}

// A 1-D convolution exported with a dynamic batch (an audio model): the pipeline pins the
// batch first, so the conv becomes its 2-D form before quantisation and the file is written
// (it was refused as "Conv (layout NCHW; NHWC expected after legalisation)").
TEST(CoralPipeline, DynamicBatchOneDConvolutionCompiles) {
  const ir::Graph g = ir::parse(R"(graph "audio" version 1 {
  input %x : f32[batch,2,16]
  const %w : f32[4,2,3] = hex"0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf0000803f000000bf"
  %c = Conv(%x, %w) {kernel_shape = [3], pads = [1,1], strides = [2]} : f32[batch,4,8]
  %y = Relu(%c) : f32[batch,4,8]
  output %y
})");
  const auto dir = std::filesystem::temp_directory_path() / ("ec_coral_1d_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  report::CompileRequest r;
  r.model = "audio.eir";
  r.target = "coral";
  r.quantize = "ptq";
  r.samples = quantize::random_samples(g, 2, 1);
  r.output_path = (dir / "audio.tflite").string();
  const auto run = report::compile_model(g, r);
  EXPECT_TRUE(std::filesystem::is_regular_file(r.output_path)) << report::to_text(run.report);
  EXPECT_EQ(run.report.result.partition.ops_on_target(), static_cast<int>(run.report.result.partition.rows.size()))
      << report::to_text(run.report);
  std::filesystem::remove_all(dir);
}

TEST(CoralPipeline, PerTensorTargetsGetPerTensorWeights) {
  const ir::Graph g = frontends::open_model(EC_SAMPLE_MODEL);
  quantize::QuantizeOptions o;
  o.target.target = "per-tensor device";
  o.target.per_channel = false;
  const auto samples = quantize::random_samples(g, 2, 3);
  const auto per_tensor = quantize::quantize(g, samples, o);
  EXPECT_FALSE(per_tensor.report.per_channel);
  int weights = 0;
  for (const auto& [name, t] : per_tensor.graph.tensors) {
    if (!t.quant || !t.is_constant() || t.dtype != ir::DType::Int8) continue;
    ++weights;
    EXPECT_EQ(t.quant->scales.size(), 1u) << name;
  }
  EXPECT_GT(weights, 0);
  o.target.per_channel = true;
  EXPECT_TRUE(quantize::quantize(g, samples, o).report.per_channel);
}

TEST(CoralArtefact, ReadsTheSplitOfRealCompiledFiles) {
  const std::filesystem::path dir = EC_EDGETPU_TESTDATA;
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is missing";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".tflite") continue;
    const bool compiled = entry.path().filename().string().find("_edgetpu") != std::string::npos;
    const ir::Graph g = frontends::open_model(entry.path().string());
    const auto rep = report::report_of_artefact(g, entry.path().filename().string());
    if (!compiled) {
      EXPECT_FALSE(rep) << entry.path() << ": an uncompiled model has no recorded split";
      continue;
    }
    ++files;
    ASSERT_TRUE(rep) << entry.path();
    EXPECT_EQ(rep->backend, "coral");
    EXPECT_EQ(rep->target, "coral");
    const auto& p = rep->result.partition;
    EXPECT_EQ(p.segments, count_type(g, "tflite::edgetpu-custom-op")) << entry.path();
    EXPECT_EQ(p.ops_on_target(), p.segments);
    for (const auto& row : p.rows) {
      if (row.placement == backends::Placement::Target) {
        EXPECT_EQ(row.status, "Mapped to Edge TPU");
      } else {
        EXPECT_FALSE(row.reason.empty()) << row.name;
        EXPECT_NE(row.reason.find("left on the CPU by edgetpu_compiler"), std::string::npos) << row.reason;
      }
    }
    EXPECT_NE(report::to_text(*rep).find("Edge TPU"), std::string::npos);
  }
  EXPECT_GE(files, 3);
}
