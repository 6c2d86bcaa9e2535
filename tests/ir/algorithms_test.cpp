// UseLists, topological_sort and is_topologically_sorted.
#include "core/ir/algorithms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "core/errors.h"
#include "ir_test_util.h"

namespace ec::ir {
namespace {

using test_util::make_chain;
using test_util::make_conv_relu;
using test_util::make_op;

std::vector<std::string> op_names(const Graph& g) {
  std::vector<std::string> names;
  for (const auto& op : g.ops) names.push_back(op.name);
  return names;
}

TEST(UseLists, ProducerAndConsumersOfConvRelu) {
  Graph g = make_conv_relu();
  UseLists uses(g);
  EXPECT_EQ(uses.producer("x"), -1);  // graph input
  EXPECT_EQ(uses.producer("w"), -1);  // constant
  EXPECT_EQ(uses.producer("y"), 0);
  EXPECT_EQ(uses.producer("z"), 1);
  EXPECT_EQ(uses.producer("nope"), -1);
  EXPECT_EQ(uses.consumers("x"), (std::vector<std::size_t>{0}));
  EXPECT_EQ(uses.consumers("y"), (std::vector<std::size_t>{1}));
  EXPECT_TRUE(uses.consumers("z").empty());
  EXPECT_TRUE(uses.consumers("nope").empty());
  EXPECT_TRUE(uses.multiply_defined().empty());
}

TEST(UseLists, ConsumerListedOnceEvenWhenReadTwice) {
  Graph g = make_chain(1);
  g.ops.push_back(make_op(OpKind::Add, "add", {"t0", "t0"}, {"s"}));
  g.ops.push_back(make_op(OpKind::Mul, "mul", {"x", "t0"}, {"m"}));
  UseLists uses(g);
  EXPECT_EQ(uses.consumers("t0"), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(uses.consumers("x"), (std::vector<std::size_t>{0, 2}));
}

TEST(UseLists, OptionalEmptyNamesAreNotTensors) {
  Graph g = make_chain(1);
  g.ops.push_back(make_op(OpKind::Clip, "clip", {"t0", "", "x"}, {"c"}));
  g.ops.push_back(make_op(OpKind::Dropout, "drop", {"c"}, {"d", ""}));
  UseLists uses(g);
  EXPECT_TRUE(uses.consumers("").empty());
  EXPECT_EQ(uses.producer(""), -1);
  EXPECT_EQ(uses.producer("d"), 2);
  EXPECT_TRUE(uses.multiply_defined().empty());
}

TEST(UseLists, MultiplyDefinedIsSortedAndUnique) {
  Graph g = make_chain(2);
  g.ops.push_back(make_op(OpKind::Relu, "again1", {"x"}, {"t1"}));
  g.ops.push_back(make_op(OpKind::Relu, "again2", {"x"}, {"t1"}));
  g.ops.push_back(make_op(OpKind::Relu, "again3", {"x"}, {"t0"}));
  UseLists uses(g);
  EXPECT_EQ(uses.multiply_defined(), (std::vector<std::string>{"t0", "t1"}));
  EXPECT_EQ(uses.producer("t1"), 1);  // the first producer wins
}

TEST(TopologicalSort, SortedGraphIsUnchanged) {
  Graph g = make_conv_relu();
  EXPECT_TRUE(is_topologically_sorted(g));
  auto before = op_names(g);
  topological_sort(g);
  EXPECT_EQ(op_names(g), before);
}

TEST(TopologicalSort, ShuffledChainGetsSorted) {
  Graph g = make_chain(50);
  auto expected = op_names(g);
  std::mt19937 rng(42);
  std::shuffle(g.ops.begin(), g.ops.end(), rng);
  ASSERT_FALSE(is_topologically_sorted(g));
  topological_sort(g);
  EXPECT_TRUE(is_topologically_sorted(g));
  EXPECT_EQ(op_names(g), expected);  // a chain has exactly one order
}

TEST(TopologicalSort, StableForIndependentOps) {
  // Two independent branches a0->a1 and b0->b1, interleaved; then a join.
  Graph g;
  g.inputs = {"x"};
  g.ops.push_back(make_op(OpKind::Relu, "b0", {"x"}, {"tb0"}));
  g.ops.push_back(make_op(OpKind::Add, "join", {"ta1", "tb1"}, {"out"}));
  g.ops.push_back(make_op(OpKind::Relu, "a0", {"x"}, {"ta0"}));
  g.ops.push_back(make_op(OpKind::Relu, "b1", {"tb0"}, {"tb1"}));
  g.ops.push_back(make_op(OpKind::Relu, "a1", {"ta0"}, {"ta1"}));
  g.ops.push_back(make_op(OpKind::Relu, "lone", {"x"}, {"tl"}));
  topological_sort(g);
  // Only "join" had to move: everything else keeps its relative order.
  EXPECT_EQ(op_names(g), (std::vector<std::string>{"b0", "a0", "b1", "a1", "join", "lone"}));
  EXPECT_TRUE(is_topologically_sorted(g));
}

TEST(TopologicalSort, MovesOnlyWhatMustMove) {
  Graph g = make_chain(5);        // op0..op4
  std::swap(g.ops[1], g.ops[3]);  // op0 op3 op2 op1 op4
  topological_sort(g);
  EXPECT_EQ(op_names(g), (std::vector<std::string>{"op0", "op1", "op2", "op3", "op4"}));
}

TEST(TopologicalSort, CycleThrowsNamingAnOpOnTheCycle) {
  Graph g;
  g.inputs = {"x"};
  g.ops.push_back(make_op(OpKind::Relu, "/pre/Relu", {"x"}, {"p"}));
  g.ops.push_back(make_op(OpKind::Add, "/a/Add", {"p", "c"}, {"a"}));
  g.ops.push_back(make_op(OpKind::Relu, "/b/Relu", {"a"}, {"b"}));
  g.ops.push_back(make_op(OpKind::Relu, "/c/Relu", {"b"}, {"c"}));
  g.ops.push_back(make_op(OpKind::Relu, "/after/Relu", {"c"}, {"d"}));
  try {
    topological_sort(g);
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("graph has a cycle through op '"), std::string::npos) << msg;
    // The named op must be one of the three on the cycle, never /pre or /after.
    bool on_cycle = msg.find("'/a/Add' (tensor 'c')") != std::string::npos ||
                    msg.find("'/b/Relu' (tensor 'a')") != std::string::npos ||
                    msg.find("'/c/Relu' (tensor 'b')") != std::string::npos;
    EXPECT_TRUE(on_cycle) << msg;
    EXPECT_EQ(e.kind(), ErrorKind::Graph);
  }
}

TEST(TopologicalSort, SelfLoopOfUnnamedOpUsesIndex) {
  Graph g;
  g.inputs = {"x"};
  g.ops.push_back(make_op(OpKind::Add, "", {"x", "s"}, {"s"}));
  try {
    topological_sort(g);
    FAIL() << "expected GraphError";
  } catch (const GraphError& e) {
    EXPECT_STREQ(e.what(), "graph has a cycle through op '#0' (tensor 's')");
  }
  EXPECT_FALSE(is_topologically_sorted(g));
}

TEST(TopologicalSort, MultiOutputProducerAndDuplicateReads) {
  Graph g;
  g.inputs = {"x"};
  g.ops.push_back(make_op(OpKind::Add, "use", {"s0", "s1"}, {"u"}));
  g.ops.push_back(make_op(OpKind::Add, "twice", {"s1", "s1"}, {"v"}));
  g.ops.push_back(make_op(OpKind::Split, "split", {"x"}, {"s0", "s1"}));
  topological_sort(g);
  EXPECT_EQ(op_names(g), (std::vector<std::string>{"split", "use", "twice"}));
}

TEST(TopologicalSort, DanglingInputsDoNotBlock) {
  Graph g;
  g.ops.push_back(make_op(OpKind::Relu, "r2", {"r1out"}, {"r2out"}));
  g.ops.push_back(make_op(OpKind::Relu, "r1", {"nowhere"}, {"r1out"}));
  topological_sort(g);
  EXPECT_EQ(op_names(g), (std::vector<std::string>{"r1", "r2"}));
}

TEST(TopologicalSort, LargeReversedChain) {
  Graph g = make_chain(100000);
  std::reverse(g.ops.begin(), g.ops.end());
  topological_sort(g);
  EXPECT_TRUE(is_topologically_sorted(g));
  EXPECT_EQ(g.ops.front().name, "op0");
  EXPECT_EQ(g.ops.back().name, "op99999");
}

TEST(IsTopologicallySorted, DetectsUseBeforeDefinition) {
  Graph g = make_conv_relu();
  std::swap(g.ops[0], g.ops[1]);
  EXPECT_FALSE(is_topologically_sorted(g));
  Graph empty;
  EXPECT_TRUE(is_topologically_sorted(empty));
}

}  // namespace
}  // namespace ec::ir
