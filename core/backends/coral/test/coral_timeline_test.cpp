// Overrides and the backend timeline: a unit whose Edge TPU compile fails and whose
// override succeeds; one where both fail and CPU eager runs; the reasons are the
// exception texts; the CompileReport JSON carries them.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/backends/coral/coral_backend.h"
#include "core/errors.h"
#include "core/report/compile_report.h"
#include "core/session/session.h"
#include "test_graphs.h"

using namespace ec;
using namespace ec::backends;
using namespace coral_test;

namespace {

std::vector<TimelineEntry> entries(const CompileResult& r, const std::string& unit) {
  std::vector<TimelineEntry> v;
  for (const auto& e : r.timeline)
    if (e.unit == unit) v.push_back(e);
  return v;
}

ir::Graph unary(const std::string& op, const std::string& attrs, double in_scale, int in_zp, double out_scale, int out_zp) {
  return graph("  input %x : " + i8("1,8,8,16", in_scale, in_zp) + "\n  %y = " + op + "(%x)" + attrs + " : " +
               i8("1,8,8,16", out_scale, out_zp) + " @\"act\"\n  output %y");
}

}  // namespace

TEST(CoralOverrides, HardSwishWithinOneLsb) {
  // x in [-6.4, 6.35], hard swish in [-0.375, 6.35]
  auto g = unary("HardSwish", "", 0.05, 0, 6.725 / 255, -114);
  coral::CoralBackend b;
  int lsb = -1;
  const auto& o = b.overrides().at("HardSwish").front();
  const ir::Graph out = coral::apply_checked_override(g, 0, o, &lsb);
  EXPECT_LE(lsb, 1);
  EXPECT_EQ(out.ops.size(), 4u);
}

TEST(CoralOverrides, HardSigmoidWithinOneLsb) {
  // x in [-6.4, 6.35]; relu6(x + 3) / 6 in [0, 1] on TFLite's fixed logistic-style params
  auto g = unary("HardSigmoid", " {alpha = 0.16666667, beta = 0.5}", 0.05, 0, 1.0 / 256, -128);
  coral::CoralBackend b;
  int lsb = -1;
  const auto& o = b.overrides().at("HardSigmoid").front();
  const ir::Graph out = coral::apply_checked_override(g, 0, o, &lsb);
  EXPECT_LE(lsb, 1);
  EXPECT_EQ(out.ops.size(), 3u);  // ADD, RELU6, MUL (6 alpha = 1: no MUL first)
}

TEST(CoralOverrides, GeluTanhFormWithinItsStatedBound) {
  // x in [-6.4, 6.35], GELU in [-0.17, 6.35]: the tanh form's int8 ops stay within 3 LSB
  auto g = unary("Gelu", "", 0.05, 0, 6.52 / 255, -121);
  coral::CoralBackend b;
  int lsb = -1;
  const auto& o = b.overrides().at("Gelu").front();
  EXPECT_EQ(o.max_lsb, 3);
  const ir::Graph out = coral::apply_checked_override(g, 0, o, &lsb);
  EXPECT_LE(lsb, 3);
  EXPECT_EQ(out.ops.size(), 6u);
  const auto r = b.compile(g, {});
  EXPECT_EQ(r.ops_fallback, 0) << "every op of the tanh form maps";
  const auto e = entries(r, "act");
  ASSERT_GE(e.size(), 2u);
  EXPECT_EQ(e[1].stage, "override");
  EXPECT_TRUE(e[1].ok) << e[1].reason;
  EXPECT_NE(e[1].reason.find("LSB"), std::string::npos) << "the error is stated: " << e[1].reason;
}

TEST(CoralOverrides, GroupedConvolutionPerGroupIsExact) {
  // 8 -> 8 channels in 4 groups: SPLIT, four CONV_2D, CONCATENATION, all mapped
  std::string w = "hex\"";
  for (int i = 0; i < 8 * 2 * 3 * 3; ++i) w += i % 3 ? "03" : "fd";
  auto g = graph("  input %x : " + i8("1,8,6,6", 0.05, 0) + "\n  const %w : " + i8("8,2,3,3", 0.02, 0) + " = " + w +
                 "\"\n  %y = Conv(%x, %w) {group = 4, kernel_shape = [3,3], pads = [1,1,1,1]} : " +
                 i8("1,8,6,6", 0.1, 0) + " @\"gconv\"\n  output %y");
  coral::CoralBackend b;
  const auto r = b.compile(g, {});
  EXPECT_EQ(r.ops_fallback, 0);
  const auto e = entries(r, "gconv");
  ASSERT_GE(e.size(), 2u);
  EXPECT_EQ(e[1].stage, "override");
  EXPECT_TRUE(e[1].ok) << e[1].reason;
  EXPECT_NE(e[1].reason.find("exact"), std::string::npos) << e[1].reason;
}

namespace {

// Hex of `n` int8 values cycling through small signed numbers (deterministic weights).
std::string cycle_hex(int n, int mod) {
  static const char* digits = "0123456789abcdef";
  std::string h = "hex\"";
  for (int i = 0; i < n; ++i) {
    const auto v = static_cast<std::uint8_t>(static_cast<std::int8_t>(i * 7 % mod - mod / 2));
    h += digits[v >> 4];
    h += digits[v & 15];
  }
  return h + "\"";
}

// tokens x features: a FULLY_CONNECTED (weight [N, K]) or a MatMul (weight [K, N]) with a
// [4, 6] output, which the Edge TPU does not map as it is.
ir::Graph linear_2d(bool matmul) {
  const std::string w = matmul ? i8("8,6", 0.02, 0) : i8("6,8", 0.02, 0);
  const std::string bias = matmul ? "" : ", %b";
  std::string body = "  input %x : " + i8("4,8", 0.05, 3) + "\n  const %w : " + w + " = " + cycle_hex(48, 19) + "\n";
  if (!matmul)
    body += "  const %b : i32[6] quant(i32, scales=[0.001], zero_points=[0], axis=-1) = "
            "hex\"0a000000f6ffffff640000009cffffff0000000001000000\"\n";
  body += std::string("  %y = ") + (matmul ? "MatMul" : "FullyConnected") + "(%x, %w" + bias + ") : " +
          i8("4,6", 0.08, -5) + " @\"fc\"\n  output %y";
  return graph(body);
}

}  // namespace

TEST(CoralOverrides, FullyConnectedWith2dOutputAsConv1x1IsExact) {
  for (const bool matmul : {false, true}) {
    SCOPED_TRACE(matmul ? "MatMul" : "FullyConnected");
    const ir::Graph g = linear_2d(matmul);
    coral::CoralBackend b;
    const auto r = b.compile(g, {});
    EXPECT_EQ(r.ops_fallback, 0) << "RESHAPE, CONV_2D, RESHAPE all map";
    EXPECT_EQ(r.ops_on_target, 3);
    const auto e = entries(r, "fc");
    ASSERT_GE(e.size(), 2u);
    EXPECT_FALSE(e[0].ok);
    // FULLY_CONNECTED: "a fully-connected ... layer with 2D output"; MatMul of an int8 graph
    // not legalised first: BATCH_MATMUL, not in the table
    EXPECT_NE(e[0].reason.find(matmul ? "BATCH_MATMUL" : "2D output"), std::string::npos) << e[0].reason;
    EXPECT_EQ(e[1].stage, "override");
    EXPECT_TRUE(e[1].ok) << e[1].reason;
    EXPECT_NE(e[1].reason.find("exact"), std::string::npos) << e[1].reason;

    // the same integers: every int8 input value through both graphs
    const auto& o = b.overrides().at(matmul ? "MatMul" : "FullyConnected").front();
    const ir::Graph rewritten = coral::apply_checked_override(g, 0, o);
    ASSERT_EQ(rewritten.ops.size(), 3u);
    EXPECT_EQ(rewritten.ops[1].kind, ir::OpKind::Conv);
    runtime::Tensor x = runtime::Tensor::uninitialized(ir::DType::Int8, {4, 8});
    for (int round = 0; round < 8; ++round) {
      for (int i = 0; i < 32; ++i) x.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>((i * 37 + round * 32) % 256 - 128);
      const auto want = runtime::run_graph(ir::freeze(ir::Graph(g)), {{"x", x}}).at("y");
      const auto got = runtime::run_graph(ir::freeze(ir::Graph(rewritten)), {{"x", x}}).at("y");
      ASSERT_EQ(got.shape(), want.shape());
      for (int i = 0; i < 24; ++i) EXPECT_EQ(got.data<std::int8_t>()[i], want.data<std::int8_t>()[i]) << "round " << round << " at " << i;
    }
  }
}

TEST(CoralOverrides, GatherOfConstantRunAsSliceIsExact) {
  // x[:, -1] of [1, 6, 8] tokens (a recurrent classifier's last step): SLICE, RESHAPE
  const auto make = [](const std::string& idx_decl, const std::string& out_dims) {
    return graph("  input %x : " + i8("1,6,8", 0.05, 3) + "\n  " + idx_decl + "\n  %y = Gather(%x, %i) {axis = 1} : " +
                 i8(out_dims, 0.05, 3) + " @\"last\"\n  output %y");
  };
  const ir::Graph g = make("const %i : i64[] = hex\"ffffffffffffffff\"", "1,8");
  coral::CoralBackend b;
  const auto r = b.compile(g, {});
  EXPECT_EQ(r.ops_fallback, 0);
  const auto e = entries(r, "last");
  ASSERT_GE(e.size(), 2u);
  EXPECT_EQ(e[1].stage, "override");
  EXPECT_TRUE(e[1].ok) << e[1].reason;
  const ir::Graph rewritten = coral::apply_checked_override(g, 0, b.overrides().at("Gather").front());
  ASSERT_EQ(rewritten.ops.size(), 2u);
  EXPECT_EQ(rewritten.ops[0].kind, ir::OpKind::Slice);
  runtime::Tensor x = runtime::Tensor::uninitialized(ir::DType::Int8, {1, 6, 8});
  for (int i = 0; i < 48; ++i) x.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(i * 5 - 100);
  const auto want = runtime::run_graph(ir::freeze(ir::Graph(g)), {{"x", x}}).at("y");
  const auto got = runtime::run_graph(ir::freeze(ir::Graph(rewritten)), {{"x", x}}).at("y");
  ASSERT_EQ(got.shape(), want.shape());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(got.data<std::int8_t>()[i], want.data<std::int8_t>()[i]);
  EXPECT_EQ(got.data<std::int8_t>()[0], static_cast<std::int8_t>(40 * 5 - 100));  // x[0, 5, 0]

  // positions 0 and 2 are no run: GATHER stays on the CPU, the override's reason in the timeline
  const ir::Graph h = make("const %i : i64[2] = hex\"00000000000000000200000000000000\"", "1,2,8");
  const auto rh = b.compile(h, {});
  EXPECT_EQ(rh.ops_fallback, 1);
  const auto eh = entries(rh, "last");
  ASSERT_GE(eh.size(), 2u);
  EXPECT_FALSE(eh[1].ok);
  EXPECT_NE(eh[1].reason.find("consecutive"), std::string::npos) << eh[1].reason;
}

TEST(CoralTimeline, CompileFailsOverrideSucceeds) {
  auto g = unary("HardSwish", "", 0.05, 0, 6.725 / 255, -114);
  coral::CoralBackend b;
  const auto r = b.compile(g, {});
  const auto e = entries(r, "act");
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].stage, "target_compile");
  EXPECT_FALSE(e[0].ok);
  EXPECT_NE(e[0].reason.find("Operation not supported"), std::string::npos) << e[0].reason;
  EXPECT_EQ(e[1].stage, "override");
  EXPECT_TRUE(e[1].ok) << e[1].reason;
  EXPECT_EQ(r.ops_fallback, 0);
  EXPECT_EQ(r.ops_on_target, 4);  // ADD, RELU6, MUL, MUL
  EXPECT_EQ(r.partition.find("act")->cause, PlacementCause::Override);
}

TEST(CoralTimeline, LeakyReluOverride) {
  auto g = unary("LeakyRelu", " {alpha = 0.1}", 0.05, 0, 0.05, 0);
  coral::CoralBackend b;
  const auto r = b.compile(g, {});
  const auto e = entries(r, "act");
  ASSERT_GE(e.size(), 2u);
  EXPECT_TRUE(e[1].ok) << e[1].reason;
  EXPECT_EQ(r.ops_fallback, 0);
}

TEST(CoralTimeline, OverrideFailsThenCpuEager) {
  // alpha > 1: max(x, alpha x) is not leaky ReLU; the override refuses, with its reason
  auto g = unary("LeakyRelu", " {alpha = 2.0}", 0.05, 0, 0.1, 0);
  coral::CoralBackend b;
  // a second override that throws a plain std::exception: its text must reach the timeline
  b.register_override("LeakyRelu", {"always_throws", "test", [](ir::Graph&, std::size_t) {
                                       throw std::runtime_error("boom: rewrite exploded");
                                     }});
  const auto r = b.compile(g, {});
  const auto e = entries(r, "act");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].stage, "target_compile");
  EXPECT_EQ(e[1].stage, "override");
  EXPECT_FALSE(e[1].ok);
  EXPECT_NE(e[1].reason.find("alpha"), std::string::npos) << e[1].reason;
  EXPECT_EQ(e[2].stage, "override");
  EXPECT_FALSE(e[2].ok);
  EXPECT_NE(e[2].reason.find("boom: rewrite exploded"), std::string::npos) << e[2].reason;
  EXPECT_EQ(e[3].stage, "cpu_eager");
  EXPECT_TRUE(e[3].ok);
  EXPECT_EQ(r.ops_fallback, 1);

  const auto rep = report::make_compile_report("m.eir", "coral", "", "none", r);
  const auto j = report::to_json(rep);
  EXPECT_EQ(j["schema"], "edgecompiler.compile/1");
  EXPECT_EQ(j["partition"]["ops_on_cpu"], 1);
  bool found = false;
  for (const auto& t : j["backend_timeline"]) found |= t["reason"].get<std::string>().find("boom") != std::string::npos;
  EXPECT_TRUE(found);
  EXPECT_TRUE(j["estimate"]["is_estimate"].get<bool>());
  EXPECT_EQ(j["verified_by"], "predicted");
}

TEST(CoralTimeline, EveryUnitHasAttempts) {
  auto g = graph("  input %x : " + i8("1,8,8,16") + "\n  %a = Relu(%x) : " + i8("1,8,8,16") +
                 " @\"r1\"\n  %b = \"tflite::Custom\"(%a) : " + i8("1,8,8,16") + " @\"c\"\n  %y = Relu(%b) : " +
                 i8("1,8,8,16") + " @\"r2\"\n  output %y");
  coral::CoralBackend b;
  const auto r = b.compile(g, {});
  for (const char* u : {"r1", "c", "r2"}) EXPECT_FALSE(entries(r, u).empty()) << u;
  const auto r2 = entries(r, "r2");
  ASSERT_EQ(r2.size(), 2u);
  EXPECT_NE(r2[0].reason.find("More than one subgraph is not supported"), std::string::npos);
  EXPECT_EQ(r2[1].stage, "cpu_eager");
}

TEST(CoralCompile, OutputWithoutWriterSaysSo) {
  auto g = unary("Relu", "", 0.05, 0, 0.05, 0);
  coral::CoralBackend b;
  CompileConfig c;
  c.output_path = (std::filesystem::temp_directory_path() / "never_written_by_coral_test.tflite").string();
  const auto r = b.compile(g, c);
  std::filesystem::remove(c.output_path);  // written when the writer is built in: no scratch left behind
  if (!coral::tflite_writer_available()) {
    EXPECT_TRUE(r.output_path.empty());
    ASSERT_FALSE(r.notes.empty());
    EXPECT_NE(r.notes[0].find("writer"), std::string::npos);
  }
}

// With an edgetpu_compiler on PATH (here a stand-in printing a verbatim-format log),
// the report says "verified by" its version and lists where prediction and compiler disagree.
TEST(CoralCompile, VerifiedByEdgetpuCompilerOnPath) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / "coral_fake_compiler";
  fs::create_directories(dir);
  {
    std::ofstream f(dir / "edgetpu_compiler");
    f << "#!/bin/sh\ncat <<'LOG'\nEdge TPU Compiler version 16.0.384591198\n\nModel compiled successfully in 5 ms.\n\n"
         "Number of Edge TPU subgraphs: 1\nTotal number of operations: 1\n\n"
         "Operator                       Count      Status\n\n"
         "RELU                           1          Operation is otherwise supported, but not mapped due to some unspecified limitation\n"
         "LOG\n";
  }
  fs::permissions(dir / "edgetpu_compiler", fs::perms::owner_all);
  const std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", (dir.string() + ":" + old_path).c_str(), 1);
  auto g = unary("Relu", "", 0.05, 0, 0.05, 0);
  coral::CoralBackend b;
  CompileConfig c;
  c.output_path = (dir / "relu.tflite").string();
  const auto r = b.compile(g, c);
  ::setenv("PATH", old_path.c_str(), 1);
  EXPECT_EQ(r.verified_by, "edgetpu_compiler 16.0.384591198");
  bool disagree = false;
  for (const auto& n : r.notes) disagree |= n.find("disagree on RELU") != std::string::npos;
  EXPECT_TRUE(disagree);
  fs::remove_all(dir);
}
