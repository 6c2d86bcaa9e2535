// GraphDiff: matching by output names, op names and structure; attribute
// deltas; constants; determinism and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/ir/text_format.h"
#include "core/passes/graph_diff.h"

namespace ec::passes {
namespace {

const char* kBefore = R"(graph "g" version 1 {
  input %x : f32[1,1,2,2]
  const %w : f32[1,1,1,1] = hex"0000803f"
  %c = Conv(%x, %w) {kernel_shape = [1,1]} : f32[1,1,2,2] @conv
  %r = Relu(%c) : f32[1,1,2,2] @relu
  %s = Sigmoid(%r) : f32[1,1,2,2]
  output %s
})";

TEST(GraphDiff, IdenticalGraphsDiffEmpty) {
  const ir::Graph a = ir::parse(kBefore), b = ir::parse(kBefore);
  const GraphDiff d = diff_graphs(a, b);
  EXPECT_TRUE(d.empty());
  EXPECT_EQ(d.unchanged, 3u);
}

TEST(GraphDiff, FusionIsAChangeAndARemoval) {
  const ir::Graph a = ir::parse(kBefore);
  const ir::Graph b = ir::parse(R"(graph "g" version 1 {
  input %x : f32[1,1,2,2]
  const %w : f32[1,1,1,1] = hex"0000803f"
  %r = Conv(%x, %w) {fused_activation = "RELU", kernel_shape = [1,1]} : f32[1,1,2,2] @conv
  %s = Sigmoid(%r) : f32[1,1,2,2]
  output %s
})");
  const GraphDiff d = diff_graphs(a, b);
  ASSERT_EQ(d.removed.size(), 1u);
  EXPECT_EQ(d.removed[0].op_type, "Relu");
  EXPECT_TRUE(d.added.empty());
  ASSERT_EQ(d.changed.size(), 1u);  // matched by op name
  const OpChange& c = d.changed[0];
  EXPECT_EQ(c.after.name, "conv");
  EXPECT_TRUE(c.outputs_changed);
  EXPECT_FALSE(c.inputs_changed);
  ASSERT_EQ(c.attributes.size(), 1u);
  EXPECT_EQ(c.attributes[0].key, "fused_activation");
  EXPECT_FALSE(c.attributes[0].before.has_value());
  EXPECT_EQ(format_attribute(*c.attributes[0].after), "\"RELU\"");
  EXPECT_EQ(d.unchanged, 1u);  // Sigmoid, matched by output name
}

TEST(GraphDiff, StructureMatchesRenamedOutputs) {
  const ir::Graph a = ir::parse(R"(graph "g" { input %x : f32[2]  %a = Relu(%x) : f32[2]  %b = Neg(%a) : f32[2]  output %b })");
  const ir::Graph b = ir::parse(R"(graph "g" { input %x : f32[2]  %a2 = Relu(%x) : f32[2]  %b = Neg(%a2) : f32[2]  output %b })");
  const GraphDiff d = diff_graphs(a, b);
  EXPECT_TRUE(d.added.empty());
  EXPECT_TRUE(d.removed.empty());
  ASSERT_EQ(d.changed.size(), 2u);  // Relu (outputs), Neg (inputs)
  EXPECT_EQ(d.changed[0].after.op_type, "Relu");
  EXPECT_TRUE(d.changed[0].outputs_changed);
  EXPECT_TRUE(d.changed[1].inputs_changed);
}

TEST(GraphDiff, ConstantsAddedRemovedChanged) {
  const ir::Graph a = ir::parse(R"(graph "g" { input %x : f32[1]  const %k : f32[1] = hex"0000803f"  const %old : f32[1] = hex"00000000"  %y = Mul(%x, %k) : f32[1]  %z = Add(%y, %old) : f32[1]  output %z })");
  const ir::Graph b = ir::parse(R"(graph "g" { input %x : f32[1]  const %k : f32[1] = hex"00000040"  const %new : f32[1] = hex"00000000"  %y = Mul(%x, %k) : f32[1]  %z = Add(%y, %new) : f32[1]  output %z })");
  const GraphDiff d = diff_graphs(a, b);
  EXPECT_EQ(d.constants_changed, std::vector<std::string>{"k"});
  EXPECT_EQ(d.constants_added, std::vector<std::string>{"new"});
  EXPECT_EQ(d.constants_removed, std::vector<std::string>{"old"});
  ASSERT_EQ(d.changed.size(), 1u);
  EXPECT_EQ(d.changed[0].after.op_type, "Add");
}

TEST(GraphDiff, DeterministicJson) {
  const ir::Graph a = ir::parse(kBefore);
  ir::Graph b = ir::parse(kBefore);
  b.ops.erase(b.ops.begin() + 1);
  b.ops[1].inputs[0] = "c";
  b.ops[0].attributes["pads"] = std::vector<std::int64_t>{0, 0, 0, 0};
  const nlohmann::json j1 = to_json(diff_graphs(a, b)), j2 = to_json(diff_graphs(a, b));
  EXPECT_EQ(j1.dump(), j2.dump());
  EXPECT_EQ(j1["ops_removed"][0]["op_type"], "Relu");
  EXPECT_EQ(j1["ops_changed"][0]["attributes"][0]["name"], "pads");
  EXPECT_TRUE(j1["ops_changed"][0]["attributes"][0]["before"].is_null());
  EXPECT_EQ(j1["ops_changed"][0]["attributes"][0]["after"], nlohmann::json({0, 0, 0, 0}));
  EXPECT_EQ(j1["ops_before"], 3);
  EXPECT_EQ(j1["ops_after"], 2);
}

}  // namespace
}  // namespace ec::passes
