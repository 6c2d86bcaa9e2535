// One small graph per partition rule of the Coral backend (op_rules.cpp): the
// compiler's status string, our reason, and where the op lands.
#include <gtest/gtest.h>

#include "core/backends/backend_registry.h"
#include "core/backends/coral/coral_backend.h"
#include "core/backends/coral/op_rules.h"
#include "core/errors.h"
#include "test_graphs.h"

using namespace ec;
using namespace ec::backends;
using namespace coral_test;

namespace {

Partition part(const ir::Graph& g, int segments = 1) {
  coral::CoralBackend b;
  CompileConfig c;
  c.num_segments = segments;
  return b.partition(g, c);
}

PartitionRow row(const Partition& p, const std::string& name) {  // a copy: p is often a temporary
  const auto* r = p.find(name);
  EXPECT_NE(r, nullptr) << name;
  return r ? *r : PartitionRow{};
}

std::string conv1x1(const std::string& in, const std::string& out, const std::string& name, const std::string& extra = "") {
  return "  %" + out + " = Conv(%" + in + ", %w) {group = 1, kernel_shape = [1,1], layout = \"NHWC\"" + extra + "} : " +
         i8("1,8,8,16") + " @\"" + name + "\"\n";
}

const std::string kW = "  const %w : i8[16,1,1,16] quant(i8, scales=[0.01], zero_points=[0], axis=-1) = " + zeros(256) + "\n";

}  // namespace

// A fully int8 chain maps in one segment.
TEST(CoralRules, Int8ChainMaps) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n" + kW + conv1x1("x", "a", "conv") +
                 "  %b = Relu(%a) : " + i8("1,8,8,16") + " @\"relu\"\n  output %b");
  const auto p = part(g);
  EXPECT_EQ(p.ops_on_target(), 2);
  EXPECT_EQ(p.ops_on_cpu(), 0);
  EXPECT_EQ(p.segments, 1);
  EXPECT_EQ(row(p, "conv").status, "Mapped to Edge TPU");
  EXPECT_EQ(row(p, "conv").target_op, "CONV_2D");
}

// A float op: the compiler's data-type status, and the fix in our reason.
TEST(CoralRules, FloatOpIsUnsupportedDataType) {
  auto g = graph("  input %x : f32[1,8,8,16]\n  %b = Relu(%x) : f32[1,8,8,16] @\"relu\"\n  output %b");
  const auto& r = row(part(g), "relu");
  EXPECT_EQ(r.placement, Placement::Cpu);
  EXPECT_EQ(r.cause, PlacementCause::Unsupported);
  EXPECT_EQ(r.status, "Operation is working on an unsupported data type");
  EXPECT_NE(r.reason.find("f32"), std::string::npos) << r.reason;
  EXPECT_NE(r.reason.find("quantise"), std::string::npos) << r.reason;
}

// A dynamic dim: sizes must be constant at compile time.
TEST(CoralRules, DynamicShape) {
  auto g = graph("  input %x : i8[1,?,8,16] " + q() + "\n  %b = Relu(%x) : i8[1,?,8,16] " + q() +
                 " @\"relu\"\n  output %b");
  const auto& r = row(part(g), "relu");
  EXPECT_EQ(r.placement, Placement::Cpu);
  EXPECT_EQ(r.rule, "model.static_shapes");
  EXPECT_NE(r.reason.find("batch"), std::string::npos) << r.reason;
}

// Rank: only the 3 innermost dims may be > 1.
TEST(CoralRules, RankBeyondThreeInnermostDims) {
  auto g = graph("  input %x : " + i8("2,8,8,16") + "\n  %b = Relu(%x) : " + i8("2,8,8,16") + " @\"relu\"\n  output %b");
  const auto& r = row(part(g), "relu");
  EXPECT_EQ(r.status, "Tensor has unsupported rank (up to 3 innermost dimensions mapped)");
  EXPECT_NE(r.reason.find("dim 0"), std::string::npos) << r.reason;
}

// An unsupported op mid-graph: it and everything reading its result go to the CPU,
// a supported op on an independent branch stays on the Edge TPU (as deeplabv3's CONV_2D
// beside the image-pooling branch does).
TEST(CoralRules, UnsupportedMidGraphThenSupported) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n" + kW + conv1x1("x", "a", "conv0") +
                 "  %c = \"tflite::MyCustom\"(%a) : " + i8("1,8,8,16") + " @\"custom\"\n" + conv1x1("c", "d", "after") +
                 conv1x1("a", "e", "beside") + "  output %d\n  output %e");
  const auto p = part(g);
  EXPECT_EQ(row(p, "conv0").placement, Placement::Target);
  EXPECT_EQ(row(p, "custom").status, "Operation not supported");
  EXPECT_EQ(row(p, "custom").cause, PlacementCause::Unsupported);
  EXPECT_EQ(row(p, "after").status, "More than one subgraph is not supported");
  EXPECT_EQ(row(p, "after").cause, PlacementCause::AfterUnsupported);
  EXPECT_EQ(row(p, "after").blocked_by, "custom");
  EXPECT_EQ(row(p, "beside").placement, Placement::Target);
  EXPECT_EQ(p.segments, 1);
  // --num-segments 2 maps the op after the custom op in a second segment
  const auto p2 = part(g, 2);
  EXPECT_EQ(row(p2, "after").placement, Placement::Target);
  EXPECT_EQ(row(p2, "after").segment, 1);
  EXPECT_EQ(p2.segments, 2);
}

// A leading float->int8 QUANTIZE stays on the CPU without splitting the model; a
// trailing DEQUANTIZE is on an unsupported data type.
TEST(CoralRules, LeadingQuantizeAndTrailingDequantize) {
  auto g = graph("  input %x : f32[1,8,8,16]\n  const %s : f32[] = hex\"cdcccc3d\"\n  const %z : i8[] = hex\"00\"\n"
                 "  %xq = QuantizeLinear(%x, %s, %z) : " + i8("1,8,8,16") + " @\"quant\"\n" + kW + conv1x1("xq", "a", "conv") +
                 "  %y = DequantizeLinear(%a, %s, %z) : f32[1,8,8,16] @\"dequant\"\n  output %y");
  const auto p = part(g);
  EXPECT_EQ(row(p, "quant").cause, PlacementCause::LeadingQuantize);
  EXPECT_EQ(row(p, "quant").status, "Operation is otherwise supported, but not mapped due to some unspecified limitation");
  EXPECT_EQ(row(p, "conv").placement, Placement::Target);
  EXPECT_EQ(row(p, "dequant").status, "Operation is working on an unsupported data type");
  EXPECT_EQ(p.ops_on_target(), 1);
}

// Per-op limits of the table.
TEST(CoralRules, ConvNeedsSameDilation) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n" + kW + conv1x1("x", "a", "conv", ", dilations = [1,2]") + "  output %a");
  const auto& r = row(part(g), "conv");
  EXPECT_EQ(r.rule, "conv.same_dilation");
  EXPECT_EQ(r.placement, Placement::Cpu);
}

TEST(CoralRules, PoolWithFusedActivation) {
  // the TFLite reader splits a fused activation off as "<output>/activation"
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  %p = AveragePool(%x) {kernel_shape = [2,2], layout = \"NHWC\"} : " +
                 i8("1,4,4,16") + " @\"pool\"\n  %y = Relu(%p) : " + i8("1,4,4,16") + " @\"y/activation\"\n  output %y");
  const auto p = part(g);
  ASSERT_EQ(p.rows.size(), 1u);  // one unit: pool + its activation
  EXPECT_EQ(p.rows[0].rule, "pool.no_fused_activation");
}

TEST(CoralRules, SoftmaxOneDimensional) {
  auto g = graph("  input %x : " + i8("1,4,10") + "\n  %y = Softmax(%x) : i8[1,4,10] quant(i8, scales=[0.00390625], zero_points=[-128], axis=-1) @\"sm\"\n  output %y");
  EXPECT_EQ(row(part(g), "sm").rule, "softmax.1d_16000");
  auto ok = graph("  input %x : " + i8("1,1001") + "\n  %y = Softmax(%x) : i8[1,1001] quant(i8, scales=[0.00390625], zero_points=[-128], axis=-1) @\"sm\"\n  output %y");
  EXPECT_EQ(row(part(ok), "sm").placement, Placement::Target);
}

TEST(CoralRules, MeanZReductionMultipleOfFour) {
  auto g = graph("  input %x : " + i8("1,8,8,6") + "\n  %y = ReduceMean(%x) {axes = [3], keepdims = 1} : " + i8("1,8,8,1") +
                 " @\"mean\"\n  output %y");
  EXPECT_EQ(row(part(g), "mean").rule, "mean.z_multiple_of_4");
  auto b = graph("  input %x : " + i8("1,8,8,8") + "\n  %y = ReduceMean(%x) {axes = [0], keepdims = 1} : " + i8("1,8,8,8") +
                 " @\"mean\"\n  output %y");
  EXPECT_EQ(row(part(b), "mean").rule, "mean.no_batch");
}

TEST(CoralRules, PadNotInBatch) {
  // pads [b0,h0,w0,c0, b1,h1,w1,c1] as the IR holds them (int64)
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  const %p : i64[8] = hex\"" + "0100000000000000" +
                 std::string(14 * 8, '0') + "\"\n  %y = Pad(%x, %p) : " + i8("2,8,8,16") + " @\"pad\"\n  output %y");
  EXPECT_EQ(row(part(g), "pad").rule, "pad.no_batch");
}

TEST(CoralRules, ResizeFromOnePixelWithAlignCorners) {
  auto g = graph("  input %x : " + i8("1,1,1,16") + "\n  const %s : i64[4] = hex\"" + std::string(64, '0') +
                 "\"\n  %y = Resize(%x, %\"\", %\"\", %s) {mode = \"linear\", coordinate_transformation_mode = \"align_corners\"} : " +
                 i8("1,33,33,16") + " @\"resize\"\n  output %y");
  const auto& r = row(part(g), "resize");
  EXPECT_EQ(r.target_op, "RESIZE_BILINEAR");
  EXPECT_EQ(r.rule, "resize.whole_scale");
  auto ok = graph("  input %x : " + i8("1,33,33,16") + "\n  const %s : i64[4] = hex\"" + std::string(64, '0') +
                  "\"\n  %y = Resize(%x, %\"\", %\"\", %s) {mode = \"linear\", coordinate_transformation_mode = \"align_corners\"} : " +
                  i8("1,513,513,16") + " @\"resize\"\n  output %y");
  EXPECT_EQ(row(part(ok), "resize").placement, Placement::Target);
}

TEST(CoralRules, ConcatConstantMustBeZeroPad) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  const %c : i8[1,8,8,16] " + q() + " = hex\"" +
                 std::string(2048, '1') + "\"\n  %y = Concat(%x, %c) {axis = 3} : " + i8("1,8,8,32") + " @\"cat\"\n  output %y");
  EXPECT_EQ(row(part(g), "cat").rule, "concat.constant_zero_pad");
}

TEST(CoralRules, StridedSliceUnitStrides) {
  auto i64 = [](std::initializer_list<long> v) {
    std::string h;
    for (long x : v) {
      char b[17];
      std::snprintf(b, sizeof b, "%016lx", x);
      std::string le;
      for (int k = 14; k >= 0; k -= 2) le += std::string(b + k, 2);
      h += le;
    }
    return "hex\"" + h + "\"";
  };
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  const %b : i64[4] = " + i64({0, 0, 0, 0}) +
                 "\n  const %e : i64[4] = " + i64({1, 8, 8, 16}) + "\n  const %a : i64[4] = " + i64({0, 1, 2, 3}) +
                 "\n  const %st : i64[4] = " + i64({1, 2, 2, 1}) + "\n  %y = Slice(%x, %b, %e, %a, %st) : " + i8("1,4,4,16") +
                 " @\"ss\"\n  output %y");
  const auto& r = row(part(g), "ss");
  EXPECT_EQ(r.target_op, "STRIDED_SLICE");
  EXPECT_EQ(r.rule, "strided_slice.unit_strides");
}

TEST(CoralRules, NotInTableSaysWhatToDo) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  %y = ArgMax(%x) {axis = 3, keepdims = 0} : i64[1,8,8] @\"argmax\"\n  output %y");
  const auto& r = row(part(g), "argmax");
  EXPECT_EQ(r.status, "Operation not supported");
  EXPECT_EQ(r.target_op, "ARG_MAX");
  EXPECT_NE(r.reason.find("supported-operation table"), std::string::npos);
}

// Every rule names its source and a status string of the compiler.
TEST(CoralRules, EveryRuleHasSourceAndStatus) {
  for (const auto& r : coral::rules()) {
    EXPECT_FALSE(r.source.empty()) << r.id;
    EXPECT_FALSE(r.status.empty()) << r.id;
    EXPECT_TRUE(r.applies_to == "*" || coral::find_supported_op(r.applies_to)) << r.id;
  }
  EXPECT_EQ(coral::supported_ops().size(), 40u);
}

TEST(BackendRegistry, ResolvesTargets) {
  EXPECT_EQ(resolve_backend("coral").backend->name(), "coral");
  EXPECT_EQ(resolve_backend("cpu").backend->name(), "cpu");
  const auto a = resolve_backend("auto");
  EXPECT_EQ(a.backend->name(), "cpu");
  EXPECT_NE(a.reason.find("so cpu"), std::string::npos) << a.reason;  // device discovery decides above this layer
  try {
    resolve_backend("tpu");
    FAIL();
  } catch (const BackendError& e) {
    for (const char* t : {"coral", "cpu", "auto"}) EXPECT_NE(std::string(e.what()).find(t), std::string::npos) << e.what();
  }
  EXPECT_TRUE(resolve_backend("coral").backend->is_available().available);
}
