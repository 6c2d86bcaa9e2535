// The cpu backend: every op the runtime has a kernel for is placed on the CPU with
// its reason, the timeline has one cpu_eager attempt per unit, and the registry
// resolves "cpu" and "auto" (to cpu, saying why) and refuses unknown targets.
#include <gtest/gtest.h>

#include <string>

#include "core/backends/backend_registry.h"
#include "core/backends/cpu/cpu_backend.h"
#include "core/errors.h"
#include "core/ir/text_format.h"

namespace ec::backends {
namespace {

ir::Graph small_graph() {
  return ir::parse(R"(graph "g" {
  input %x : f32[1,4]
  %r = Relu(%x) : f32[1,4]
  %y = Sigmoid(%r) : f32[1,4]
  output %y
})");
}

TEST(CpuBackend, PlacesEveryOpWithItsKernelAsTheReason) {
  CpuBackend b;
  EXPECT_TRUE(b.is_available().available);
  const ir::Graph g = small_graph();
  const Partition p = b.partition(g);
  ASSERT_EQ(p.rows.size(), 2u);
  EXPECT_EQ(p.ops_on_target(), 2);
  EXPECT_EQ(p.segments, 1);
  for (const auto& r : p.rows) {
    EXPECT_EQ(r.rule, "cpu.kernel");
    EXPECT_FALSE(r.reason.empty());
  }
}

TEST(CpuBackend, TimelineHasOneEagerAttemptPerUnit) {
  CpuBackend b;
  const CompileResult res = b.compile(small_graph(), {});
  ASSERT_EQ(res.timeline.size(), 2u);
  for (const auto& e : res.timeline) {
    EXPECT_EQ(e.stage, "cpu_eager");
    EXPECT_TRUE(e.ok);
  }
  EXPECT_EQ(res.ops_on_target, 2);
  EXPECT_EQ(res.ops_fallback, 0);
}

TEST(CpuBackend, OpWithoutKernelIsUnsupportedWithTheReason) {
  ir::Graph g = ir::parse(R"(graph "g" {
  input %x : f32[1,4]
  %y = Relu(%x) : f32[1,4]
  output %y
})");
  g.ops[0].op_type = "com.example::Frobnicate";
  g.ops[0].kind = ir::OpKind::Unknown;
  const OpSupport s = CpuBackend().supports_op(g, 0);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("no kernel"), std::string::npos);
}

TEST(BackendRegistry, ResolvesCpuAndAutoAndRefusesUnknownTargets) {
  EXPECT_EQ(resolve_backend("cpu").backend->name(), "cpu");
  const Resolved a = resolve_backend("auto");
  EXPECT_FALSE(a.reason.empty());
  try {
    (void)resolve_backend("tpu9000");
    FAIL() << "an unknown target resolved";
  } catch (const EdgeCompilerError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu"), std::string::npos);  // lists the known targets
  }
}

}  // namespace
}  // namespace ec::backends
