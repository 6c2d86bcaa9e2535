// One small graph per compute-unit rule (compute_units.cpp): the unit each op is
// predicted on, the rule and its reason; an fp32 compile predicts no Neural Engine.
#include <gtest/gtest.h>

#include "core/backends/backend_registry.h"
#include "core/backends/metal/metal_backend.h"
#include "core/errors.h"
#include "metal_test_graphs.h"

using namespace ec;
using namespace ec::backends;
using namespace metal_test;

namespace {

PartitionRow row_of(const ir::Graph& g, const std::string& name, std::map<std::string, std::string> options = {}) {
  metal::MetalBackend b;
  CompileConfig c;
  c.options = std::move(options);
  const Partition p = b.partition(g, c);
  const auto* r = p.find(name);
  EXPECT_NE(r, nullptr) << name;
  return r ? *r : PartitionRow{};
}

void expect_off_ane(const PartitionRow& r, const std::string& unit, const std::string& rule) {
  EXPECT_EQ(r.unit, unit) << r.reason;
  EXPECT_EQ(r.rule, rule) << r.reason;
  EXPECT_NE(r.reason.find(rule), std::string::npos) << "the reason names its rule: " << r.reason;
  EXPECT_FALSE(r.reason.empty());
}

}  // namespace

// Every rule holds: the Neural Engine, at fp16 by default.
TEST(MetalUnits, AneByDefault) {
  const auto r = row_of(unary("Relu", "f32[1,16,8,8]"), "op");
  EXPECT_EQ(r.unit, "ANE");
  EXPECT_EQ(r.placement, Placement::Target);
  EXPECT_EQ(r.status, "Neural Engine (predicted)");
  EXPECT_EQ(r.target_op, "relu");
}

TEST(MetalUnits, Fp32PrecisionGoesToGpu) {
  expect_off_ane(row_of(unary("Relu", "f32[1,16,8,8]"), "op", {{"precision", "fp32"}}), "GPU", "ane.precision_fp32");
}

TEST(MetalUnits, Fp32WithoutGpuGoesToCpu) {
  const auto r = row_of(unary("Relu", "f32[1,16,8,8]"), "op", {{"precision", "fp32"}, {"compute_units", "cpu_and_ne"}});
  expect_off_ane(r, "CPU", "ane.precision_fp32");
  EXPECT_EQ(r.placement, Placement::Cpu);
}

TEST(MetalUnits, CpuOnly) {
  expect_off_ane(row_of(unary("Relu", "f32[1,16,8,8]"), "op", {{"compute_units", "cpu_only"}}), "CPU", "units.cpu_only");
}

TEST(MetalUnits, CpuAndGpu) {
  expect_off_ane(row_of(unary("Relu", "f32[1,16,8,8]"), "op", {{"compute_units", "cpu_and_gpu"}}), "GPU",
                 "units.no_neural_engine");
}

TEST(MetalUnits, DynamicShape) {
  const auto r = row_of(unary("Relu", "f32[?,16]"), "op");
  expect_off_ane(r, "GPU", "ane.dynamic_shape");
  EXPECT_NE(r.reason.find("[?,16]"), std::string::npos) << r.reason;
}

TEST(MetalUnits, RankAboveLimit) {
  const auto r = row_of(unary("Relu", "f32[1,2,2,2,2,2]"), "op");
  expect_off_ane(r, "CPU", "ane.rank_limit");
  EXPECT_NE(r.reason.find("rank 6"), std::string::npos) << r.reason;
}

TEST(MetalUnits, GatherIsNotOnTheNeuralEngine) {
  auto g = graph("  input %x : f32[10,4]\n  const %i : i64[2] = hex\"00000000000000000300000000000000\"\n"
                 "  %y = Gather(%x, %i) {axis = 0} : f32[2,4] @\"op\"\n  output %y");
  const auto r = row_of(g, "op");
  expect_off_ane(r, "CPU", "ane.op_not_supported");
  EXPECT_EQ(r.target_op, "gather");
}

TEST(MetalUnits, DilatedConvolution) {
  auto g = graph("  input %x : f32[1,4,16,16]\n  const %w : f32[4,4,3,3] = " + zeros(4 * 4 * 9 * 4) +
                 "\n  %y = Conv(%x, %w) {dilations = [2,2], kernel_shape = [3,3], pads = [2,2,2,2]} : f32[1,4,16,16] @\"op\"\n"
                 "  output %y");
  const auto r = row_of(g, "op");
  expect_off_ane(r, "GPU", "ane.op_not_supported");
  EXPECT_NE(r.reason.find("dilat"), std::string::npos) << r.reason;
}

TEST(MetalUnits, TensorTooLarge) {  // 32768 x 32768 fp16 = 2 GiB (shape only: no data is made)
  expect_off_ane(row_of(unary("Relu", "f32[1,1,32768,32768]"), "op"), "GPU", "ane.tensor_too_large");
}

TEST(MetalUnits, UnknownOptionValuesAreUsageErrors) {
  metal::MetalBackend b;
  CompileConfig c;
  c.options = {{"compute_units", "npu"}};
  try {
    (void)b.partition(unary("Relu", "f32[1,4]"), c);
    FAIL();
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_NE(std::string(e.what()).find("cpu_and_ne"), std::string::npos) << e.what();
  }
}

// An fp32 compile: no op on the Neural Engine, estimate labelled, prediction labelled.
TEST(MetalUnits, Fp32CompilePredictsNoNeuralEngine) {
  auto g = graph("  input %x : f32[1,4,8,8]\n  const %w : f32[4,4,1,1] = " + zeros(64) +
                 "\n  %a = Conv(%x, %w) {kernel_shape = [1,1]} : f32[1,4,8,8] @\"conv\"\n"
                 "  %y = Relu(%a) : f32[1,4,8,8] @\"relu\"\n  output %y");
  metal::MetalBackend b;
  CompileConfig c;
  c.options = {{"precision", "fp32"}};
  const auto res = b.compile(g, c);
  ASSERT_EQ(res.partition.rows.size(), 2u);
  for (const auto& r : res.partition.rows) EXPECT_NE(r.unit, "ANE") << r.name;
  EXPECT_EQ(res.verified_by, "predicted");
  EXPECT_NE(res.estimate.model.find("estimate"), std::string::npos);
  EXPECT_GT(res.estimate.latency_ms, 0);
}

TEST(MetalUnits, VirtualDevicesHavePublishedTops) {
  const auto d = metal::virtual_ane_devices();
  ASSERT_GE(d.size(), 3u);
  for (const auto& x : d) {
    EXPECT_GT(x.tops, 0) << x.name;
    EXPECT_FALSE(x.source.empty()) << x.name;
  }
  for (const auto& r : metal::unit_rules()) EXPECT_FALSE(r.source.empty()) << r.id;
}

TEST(MetalUnits, RegisteredAsMetal) {
  auto r = resolve_backend("metal");
  EXPECT_EQ(r.backend->name(), "metal");
  EXPECT_EQ(r.backend->capabilities().artefact, ".mlpackage");
  try {
    (void)resolve_backend("apple");
    FAIL();
  } catch (const BackendError& e) {
    EXPECT_NE(std::string(e.what()).find("metal"), std::string::npos) << e.what();
  }
}

// Virtual Apple Neural Engines: one device per row of the TOPS table, each with an
// estimate of its own (a faster engine, a shorter latency), never available to run on.
TEST(MetalUnits, VirtualNeuralEngines) {
  metal::MetalBackend b;
  const auto devices = b.virtual_devices();
  ASSERT_EQ(devices.size(), metal::virtual_ane_devices().size());
  const auto g = unary("Relu", "f32[1,64,56,56]");
  double slowest_tops = 1e9, fastest_tops = 0, slowest_ms = 0, fastest_ms = 0;
  for (const auto& d : devices) {
    EXPECT_TRUE(d.is_virtual()) << d.id;
    EXPECT_EQ(d.discovered_by(), "backend metal");
    EXPECT_FALSE(d.is_available().available);
    EXPECT_EQ(d.id.rfind("ane-virtual-", 0), 0u) << d.id;
    const double tops = std::stod(d.meta("PeakTOPS"));
    const double ms = b.estimate_for_device(g, d.id).latency_ms;
    EXPECT_GT(ms, 0) << d.id;
    if (tops < slowest_tops) slowest_tops = tops, slowest_ms = ms;
    if (tops > fastest_tops) fastest_tops = tops, fastest_ms = ms;
  }
  EXPECT_LE(fastest_ms, slowest_ms);
}

// Recurrent layers: off the Neural Engine, on the CPU (coremltools issues 1780, 337).
TEST(MetalUnits, RecurrentOnCpu) {
  auto g = graph("  input %x : f32[5,1,3]\n  const %W : f32[1,16,3] = " + zeros(192) + "\n  const %R : f32[1,16,4] = " + zeros(256) +
                 "\n  %y, %h, %c = LSTM(%x, %W, %R) {hidden_size = 4} : f32[5,1,1,4], f32[1,1,4], f32[1,1,4] @\"op\"\n  output %y");
  const auto r = row_of(g, "op");
  expect_off_ane(r, "CPU", "ane.recurrent");
  EXPECT_EQ(r.target_op.find("lstm") != std::string::npos, true) << r.target_op;
  expect_off_ane(row_of(g, "op", {{"precision", "fp32"}}), "CPU", "ane.recurrent");  // before the fp32 rule
}

// 3-D convolution: CPU before iOS17, GPU from iOS17 (coremltools issue 1368).
TEST(MetalUnits, Conv3dCpuBeforeIos17GpuAfter) {
  auto g = graph("  input %x : f32[1,2,4,6,6]\n  const %w : f32[3,2,3,3,3] = " + zeros(648) +
                 "\n  %y = Conv(%x, %w) {pads = [1,1,1,1,1,1]} : f32[1,3,4,6,6] @\"op\"\n  output %y");
  expect_off_ane(row_of(g, "op"), "CPU", "ane.conv3d");
  expect_off_ane(row_of(g, "op", {{"deployment_target", "iOS17"}}), "GPU", "ane.conv3d");
}
