// PassManager and registry: records, statistics, validation after each pass,
// the registry table and the default pipeline.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/ir/text_format.h"
#include "core/ir/validate.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {
namespace {

const char* kGraph = R"(graph "g" version 1 {
  input %x : f32[4]
  const %c1 : f32[] = hex"00004040"
  const %c2 : f32[] = hex"00004040"
  %i = Identity(%x) : f32[4]
  %a = Mul(%i, %c1) : f32[4]
  %b = Mul(%i, %c2) : f32[4]
  %dead = Relu(%b) : f32[4]
  %y = Add(%a, %b) : f32[4]
  output %y
})";

TEST(PassRegistry, TableIsConsistent) {
  ASSERT_FALSE(pass_table().empty());
  for (const auto& e : pass_table()) {
    auto p = e.make();
    EXPECT_EQ(p->name(), e.name);
    EXPECT_EQ(p->summary(), e.summary);
    EXPECT_FALSE(p->description().empty()) << e.name;
    EXPECT_FALSE(p->statistics().empty()) << e.name;
    EXPECT_EQ(find_pass(e.name), &e);
  }
  for (const auto& n : default_pipeline()) EXPECT_NE(find_pass(n), nullptr) << n;
  EXPECT_EQ(find_pass("Nope"), nullptr);
}

TEST(PassRegistry, UnknownPassListsValidNames) {
  try {
    make_pass("Nope");
    FAIL() << "no error";
  } catch (const EdgeCompilerError& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Usage);
    EXPECT_EQ(std::string(e.what()), "unknown pass 'Nope'; valid passes: " + pass_names());
  }
}

TEST(PassManager, RecordsStatisticsDiffAndCounts) {
  ir::Graph g = ir::parse(kGraph);
  PassManager pm = make_pipeline({"Cleanup", "CommonSubexpressionElimination", "DeadCodeElimination"});
  const PipelineReport r = pm.run(g);
  ASSERT_EQ(r.passes.size(), 3u);
  EXPECT_EQ(r.ops_before, 5u);
  EXPECT_EQ(r.ops_after, 2u);  // Mul, Add
  EXPECT_EQ(r.passes[0].pass, "Cleanup");
  EXPECT_EQ(r.passes[0].statistics[0].key, "identity_removed");
  EXPECT_EQ(r.passes[0].statistics[0].value, 1);
  EXPECT_EQ(r.passes[0].diff.removed.size(), 1u);
  EXPECT_EQ(r.passes[0].diff.removed[0].op_type, "Identity");
  EXPECT_EQ(r.passes[1].ops_before, 4u);
  EXPECT_EQ(r.passes[1].ops_after, 3u);
  EXPECT_EQ(r.passes[2].diff.removed.size(), 1u);
  EXPECT_EQ(r.passes[2].diff.removed[0].op_type, "Relu");
  for (const auto& p : r.passes) {
    EXPECT_TRUE(p.validation.empty());
    EXPECT_GE(p.milliseconds, 0.0);
  }
  EXPECT_TRUE(ir::validate(g).empty());
  EXPECT_EQ(g.outputs, std::vector<std::string>{"y"});
}

TEST(PassManager, JsonShape) {
  ir::Graph g = ir::parse(kGraph);
  PassManager pm = make_pipeline({"Cleanup"});
  const nlohmann::json j = to_json(pm.run(g));
  EXPECT_EQ(j["ops_before"], 5);
  ASSERT_EQ(j["passes"].size(), 1u);
  const auto& p = j["passes"][0];
  EXPECT_EQ(p["pass"], "Cleanup");
  EXPECT_EQ(p["statistics"][0]["label"], "Identity removed");
  EXPECT_EQ(p["valid"], true);
  EXPECT_EQ(p["diff"]["ops_removed"][0]["op_type"], "Identity");
}

TEST(PassManager, KeepsSnapshotsWhenAsked) {
  ir::Graph g = ir::parse(kGraph);
  PassManagerOptions o;
  o.keep_snapshots = true;
  PassManager pm = make_pipeline({"Cleanup", "DeadCodeElimination"}, o);
  const auto r = pm.run(g);
  ASSERT_TRUE(r.passes[0].before && r.passes[0].after && r.passes[1].before);
  EXPECT_EQ(r.passes[0].before->ops.size(), 5u);
  EXPECT_EQ(r.passes[0].after, r.passes[1].before);  // shared, not copied again
  EXPECT_EQ(ir::print(*r.passes[1].after), ir::print(g));
}

// A pass that breaks the graph is caught by validation and named.
class BreakingPass final : public Pass {
 public:
  std::string_view name() const override { return "Breaking"; }
  std::string_view summary() const override { return "test"; }
  std::string_view description() const override { return "test"; }
  std::span<const StatisticSpec> statistics() const override { return {}; }
  PassResult run(ir::Graph& g) override {
    g.ops[0].inputs[0] = "missing";
    return {};
  }
};

TEST(PassManager, ValidationFailureNamesThePass) {
  ir::Graph g = ir::parse(kGraph);
  PassManager pm;
  pm.add(std::make_unique<BreakingPass>());
  try {
    pm.run(g);
    FAIL() << "no error";
  } catch (const GraphError& e) {
    EXPECT_NE(std::string(e.what()).find("pass Breaking left an invalid graph"), std::string::npos) << e.what();
  }
}

// Every pass leaves a valid graph on every golden input, alone and in the default pipeline.
TEST(PassManager, EveryPassKeepsGoldenInputsValid) {
  const std::string dir = EC_PASS_GOLDEN_DIR;
  for (const char* name : {"cleanup", "constant_folding", "op_fusion", "fuse_activation", "cse", "dce",
                           "layout_transform"}) {
    std::ifstream in(dir + "/" + name + ".in.eir");
    std::stringstream ss;
    ss << in.rdbuf();
    for (const auto& e : pass_table()) {
      ir::Graph g = ir::parse(ss.str());
      PassManager pm;
      pm.add(e.make());
      EXPECT_NO_THROW(pm.run(g)) << name << " / " << e.name;
    }
    ir::Graph g = ir::parse(ss.str());
    EXPECT_NO_THROW(make_pipeline(default_pipeline()).run(g)) << name;
  }
}

}  // namespace
}  // namespace ec::passes
