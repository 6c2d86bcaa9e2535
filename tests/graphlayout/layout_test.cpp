// The layered layout and scope grouping behind the workbench's graph view.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>

#include "core/layout/compound_layout.h"
#include "core/layout/layered_layout.h"
#include "core/layout/scope_tree.h"

using namespace ec::layout;

namespace {

// A network-like DAG: a chain with residual skips and short parallel branches.
LayeredGraph network(int n, unsigned seed) {
  std::mt19937 rng(seed);
  LayeredGraph g;
  for (int i = 0; i < n; ++i)
    g.nodes.push_back({40.0 + double(rng() % 80), 30.0 + double(rng() % 20)});
  for (int i = 1; i < n; ++i) {
    g.edges.emplace_back(i - 1, i);
    if (i >= 3 && rng() % 4 == 0) g.edges.emplace_back(i - 3, i);  // skip connection
    if (i >= 2 && rng() % 5 == 0) g.edges.emplace_back(int(rng() % unsigned(i)), i);
  }
  return g;
}

bool segment_hits_box(Point a, Point b, const Box& box) {
  // Sample the segment; boxes are >= 30 units, samples every 2 units.
  const double len = std::hypot(b.x - a.x, b.y - a.y);
  const int steps = std::max(2, int(len / 2));
  Box inner{box.x + 1, box.y + 1, box.w - 2, box.h - 2};
  for (int s = 1; s < steps; ++s) {
    const double t = double(s) / steps;
    const double x = a.x + (b.x - a.x) * t, y = a.y + (b.y - a.y) * t;
    if (x > inner.x && x < inner.right() && y > inner.y && y < inner.bottom()) return true;
  }
  return false;
}

std::vector<std::string> scoped_names(int blocks, int ops_per_block) {
  std::vector<std::string> names;
  names.push_back("/stem/Conv");
  names.push_back("/stem/Relu");
  for (int b = 0; b < blocks; ++b) {
    for (int o = 0; o < ops_per_block; ++o) {
      names.push_back("/blocks/blocks." + std::to_string(b) + "/conv/Op_" + std::to_string(o));
    }
  }
  names.push_back("onnx::Flatten_9");
  names.push_back("/head/Gemm");  // a one-op scope: no group
  return names;
}

}  // namespace

// Every edge runs from a higher layer to a lower one, and its polyline goes down.
TEST(LayeredLayout, EdgesGoDownward) {
  const LayeredGraph g = network(300, 1);
  const LayeredResult r = layered_layout(g);
  ASSERT_EQ(r.nodes.size(), g.nodes.size());
  for (const auto& [a, b] : g.edges) EXPECT_LT(r.layer[std::size_t(a)], r.layer[std::size_t(b)]);
  for (const auto& e : r.edges) {
    EXPECT_FALSE(e.reversed);
    ASSERT_GE(e.points.size(), 2u);
    for (std::size_t i = 1; i < e.points.size(); ++i) EXPECT_GE(e.points[i].y, e.points[i - 1].y);
    EXPECT_DOUBLE_EQ(e.points.front().y, r.nodes[std::size_t(e.from)].bottom());
    EXPECT_DOUBLE_EQ(e.points.back().y, r.nodes[std::size_t(e.to)].y);
  }
}

// No two boxes overlap, and no edge passes through a box it does not connect.
TEST(LayeredLayout, NoOverlapsAndEdgesAvoidBoxes) {
  const LayeredGraph g = network(200, 7);
  const LayeredResult r = layered_layout(g);
  for (std::size_t i = 0; i < r.nodes.size(); ++i) {
    for (std::size_t j = i + 1; j < r.nodes.size(); ++j) {
      EXPECT_FALSE(r.nodes[i].overlaps(r.nodes[j])) << i << " overlaps " << j;
    }
  }
  for (const auto& e : r.edges) {
    for (std::size_t s = 1; s < e.points.size(); ++s) {
      for (std::size_t v = 0; v < r.nodes.size(); ++v) {
        if (int(v) == e.from || int(v) == e.to) continue;
        EXPECT_FALSE(segment_hits_box(e.points[s - 1], e.points[s], r.nodes[v]))
            << "edge " << e.from << "->" << e.to << " crosses box " << v;
      }
    }
  }
}

// Known small graphs end with the minimum number of crossings.
TEST(LayeredLayout, CrossingsOfKnownGraphsAreMinimal) {
  {  // a, b over c, d with a->d and b->c: given order crosses once, the minimum is 0
    LayeredGraph g;
    g.nodes.assign(4, {40, 20});
    g.edges = {{0, 3}, {1, 2}};
    EXPECT_EQ(layered_layout(g).crossings, 0u);
  }
  {  // K(2,2) must cross exactly once
    LayeredGraph g;
    g.nodes.assign(4, {40, 20});
    g.edges = {{0, 2}, {0, 3}, {1, 2}, {1, 3}};
    EXPECT_EQ(layered_layout(g).crossings, 1u);
  }
  {  // three parallel chains fed in scrambled order: planar, so 0 crossings
    LayeredGraph g;
    g.nodes.assign(9, {40, 20});
    g.edges = {{0, 5}, {1, 3}, {2, 4}, {5, 7}, {3, 8}, {4, 6}};
    EXPECT_EQ(layered_layout(g).crossings, 0u);
  }
  {  // a diamond with a long skip edge: planar
    LayeredGraph g;
    g.nodes.assign(5, {40, 20});
    g.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {3, 4}, {0, 4}};
    const LayeredResult r = layered_layout(g);
    EXPECT_EQ(r.crossings, 0u);
    EXPECT_EQ(r.dummy_count, 2u);  // the skip edge passes two layers
  }
}

TEST(LayeredLayout, BilayerCrossingCount) {
  EXPECT_EQ(count_bilayer_crossings({{0, 1}, {1, 0}}, 2), 1u);
  EXPECT_EQ(count_bilayer_crossings({{0, 0}, {1, 1}}, 2), 0u);
  EXPECT_EQ(count_bilayer_crossings({{0, 2}, {1, 1}, {2, 0}}, 3), 3u);
}

// A cycle is broken by reversing an edge; nothing is lost.
TEST(LayeredLayout, CyclesAreBroken) {
  LayeredGraph g;
  g.nodes.assign(3, {40, 20});
  g.edges = {{0, 1}, {1, 2}, {2, 0}, {1, 1}};
  const LayeredResult r = layered_layout(g);
  ASSERT_EQ(r.edges.size(), 3u);  // the self loop is dropped
  EXPECT_EQ(std::count_if(r.edges.begin(), r.edges.end(), [](const auto& e) { return e.reversed; }),
            1);
}

TEST(LayeredLayout, PinsSitOnTheFirstAndLastLayer) {
  LayeredGraph g;
  g.nodes = {{6, 0, Pin::Top}, {40, 20}, {40, 20}, {40, 20}, {6, 0, Pin::Bottom}};
  g.edges = {{0, 2}, {1, 2}, {2, 3}, {1, 4}};
  const LayeredResult r = layered_layout(g);
  EXPECT_EQ(r.layer[0], 0);
  for (int v = 1; v < 4; ++v) EXPECT_GT(r.layer[std::size_t(v)], 0);
  EXPECT_EQ(r.layer[4], r.layer_count - 1);
  for (int v = 0; v < 4; ++v) EXPECT_LT(r.layer[std::size_t(v)], r.layer[4]);
}

TEST(ScopeTree, ScopesOfPyTorchAndOnnxNames) {
  EXPECT_EQ(ScopeTree::scopes_of("/features/features.3/conv/conv.0/Conv"),
            (std::vector<std::string_view>{"features", "features.3", "conv", "conv.0"}));
  EXPECT_TRUE(ScopeTree::scopes_of("onnx::Conv_12").empty());
  EXPECT_TRUE(ScopeTree::scopes_of("/Flatten").empty());
  EXPECT_TRUE(ScopeTree::scopes_of("").empty());
}

TEST(ScopeTree, HierarchyIsCorrect) {
  const auto names = scoped_names(3, 4);
  const ScopeTree t = ScopeTree::build(names);
  // root: stem, blocks (no head: one op), blocks.N/conv merged into "blocks.N/conv".
  const auto& root = t.groups[0];
  ASSERT_EQ(root.groups.size(), 2u);
  EXPECT_EQ(t.groups[std::size_t(root.groups[0])].label, "stem");
  const auto& blocks = t.groups[std::size_t(root.groups[1])];
  EXPECT_EQ(blocks.label, "blocks");
  EXPECT_EQ(blocks.item_count, 12u);
  ASSERT_EQ(blocks.groups.size(), 3u);
  EXPECT_EQ(t.groups[std::size_t(blocks.groups[1])].label, "blocks.1/conv");
  EXPECT_EQ(t.groups[std::size_t(blocks.groups[1])].path, "/blocks/blocks.1/conv");
  EXPECT_EQ(root.item_count, names.size());
  EXPECT_EQ(root.items, (std::vector<int>{int(names.size()) - 2, int(names.size()) - 1}));
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int g = t.group_of[i];
    EXPECT_NE(std::find(t.groups[std::size_t(g)].items.begin(),
                        t.groups[std::size_t(g)].items.end(), int(i)),
              t.groups[std::size_t(g)].items.end());
    for (int p = g; p > 0; p = t.groups[std::size_t(p)].parent) {
      EXPECT_EQ(names[i].rfind(t.groups[std::size_t(p)].path + "/", 0), 0u);
    }
  }
}

namespace {
CompoundInput scoped_chain(int blocks, int ops_per_block) {
  CompoundInput in;
  for (const auto& n : scoped_names(blocks, ops_per_block)) in.items.push_back({n, 80, 36});
  for (int i = 1; i < int(in.items.size()); ++i) {
    in.edges.emplace_back(i - 1, i);
    if (i >= 4 && i % 4 == 0) in.edges.emplace_back(i - 4, i);  // residuals across blocks
  }
  return in;
}

void expect_consistent(const Scene& s, const CompoundLayout& l) {
  // Items shown are exactly those whose groups are all expanded.
  std::size_t shown = 0;
  for (std::size_t i = 0; i < l.input().items.size(); ++i) {
    const bool visible = l.visible_holder(int(i)) < 0;
    EXPECT_EQ(s.node_of_item[i] >= 0, visible) << "item " << i;
    shown += visible ? 1 : 0;
  }
  EXPECT_EQ(s.visible_items, shown);
  // Leaves (items and collapsed groups) never overlap; frames hold their contents.
  std::vector<Box> leaves;
  for (const auto& n : s.nodes) {
    if (n.kind != Scene::Kind::GroupFrame) leaves.push_back(n.box);
  }
  for (std::size_t i = 0; i < leaves.size(); ++i) {
    for (std::size_t j = i + 1; j < leaves.size(); ++j) EXPECT_FALSE(leaves[i].overlaps(leaves[j]));
  }
  for (std::size_t i = 0; i < l.input().items.size(); ++i) {
    if (s.node_of_item[i] < 0) continue;
    const Box& b = s.nodes[std::size_t(s.node_of_item[i])].box;
    for (int g = l.tree().group_of[i]; g > 0; g = l.tree().groups[std::size_t(g)].parent) {
      const Box& f = s.nodes[std::size_t(s.node_of_group[std::size_t(g)])].box;
      EXPECT_TRUE(b.x >= f.x && b.right() <= f.right() && b.y >= f.y && b.bottom() <= f.bottom());
    }
  }
}
}  // namespace

TEST(CompoundLayout, ExpandCollapseIsConsistentAndIncremental) {
  CompoundLayout layout(scoped_chain(6, 5));
  const ScopeTree& t = layout.tree();
  layout.expand_all();
  const Scene all = layout.layout();
  EXPECT_EQ(all.visible_items, layout.input().items.size());
  expect_consistent(all, layout);

  layout.collapse_all();
  const Scene& collapsed = layout.layout();
  expect_consistent(collapsed, layout);
  EXPECT_LT(collapsed.visible_items, 6u);

  // Expanding one block lays out only it (first time) and its ancestors.
  const int blocks = t.groups[0].groups[1];
  layout.set_expanded(blocks, true);
  const int block2 = t.groups[std::size_t(blocks)].groups[2];
  layout.set_expanded(block2, true);
  const Scene& one = layout.layout();
  expect_consistent(one, layout);
  EXPECT_EQ(layout.last_relayout_count(), 2u);  // blocks, root; block2 is cached from expand_all
  EXPECT_EQ(one.node_of_item[t.groups[std::size_t(block2)].items.front()] >= 0, true);
  layout.set_expanded(block2, false);
  layout.layout();
  EXPECT_EQ(layout.last_relayout_count(), 2u);  // blocks, root: block2's layout is cached
  layout.set_expanded(block2, true);
  layout.layout();
  EXPECT_EQ(layout.last_relayout_count(), 2u);

  // Back to all expanded: the same picture as before.
  layout.expand_all();
  const Scene& again = layout.layout();
  ASSERT_EQ(again.nodes.size(), all.nodes.size());
  for (std::size_t i = 0; i < all.nodes.size(); ++i) {
    EXPECT_DOUBLE_EQ(again.nodes[i].box.x, all.nodes[i].box.x);
    EXPECT_DOUBLE_EQ(again.nodes[i].box.y, all.nodes[i].box.y);
  }
}

TEST(CompoundLayout, EdgesCrossGroupBordersThroughPorts) {
  CompoundLayout layout(scoped_chain(3, 4));
  layout.expand_all();
  const Scene& s = layout.layout();
  // Every edge starts on the bottom of a box (or enters a frame through its top)
  // and ends on the top of a box (or leaves a frame through its bottom); where it
  // meets a frame's border, another edge continues from the same point.
  auto on = [&](Point p, bool top, bool frames_only) {
    return std::any_of(s.nodes.begin(), s.nodes.end(), [&](const auto& n) {
      if (frames_only && n.kind != Scene::Kind::GroupFrame) return false;
      const double y = top ? n.box.y : n.box.bottom();
      return std::abs(p.y - y) < 1e-6 && p.x >= n.box.x - 1e-6 && p.x <= n.box.right() + 1e-6;
    });
  };
  auto continues = [&](Point p, bool as_start) {
    return std::any_of(s.edges.begin(), s.edges.end(), [&](const auto& e) {
      const Point q = as_start ? e.points.front() : e.points.back();
      return std::abs(q.x - p.x) < 1e-6 && std::abs(q.y - p.y) < 1e-6;
    });
  };
  std::size_t through_ports = 0;
  for (const auto& e : s.edges) {
    const Point a = e.points.front(), b = e.points.back();
    if (on(a, true, true)) {
      EXPECT_TRUE(continues(a, false)) << "nothing enters the in-port at " << a.x << "," << a.y;
      ++through_ports;
    } else {
      EXPECT_TRUE(on(a, false, false));
    }
    if (on(b, false, true)) {
      EXPECT_TRUE(continues(b, true)) << "nothing leaves the out-port at " << b.x << "," << b.y;
    } else {
      EXPECT_TRUE(on(b, true, false));
    }
  }
  EXPECT_GT(through_ports, 0u);
  // Only an edge that ends where it does not continue gets an arrowhead.
  for (const auto& e : s.edges) {
    const Point b = e.points.back();
    EXPECT_EQ(e.continues, on(b, false, true) || on(b, true, true));
  }
}

TEST(CompoundLayout, FirstViewIsAFewDozenBlocks) {
  CompoundInput in;
  for (int stage = 0; stage < 4; ++stage) {
    for (int b = 0; b < 20; ++b) {
      for (int o = 0; o < 30; ++o) {
        in.items.push_back({"/stages/stages." + std::to_string(stage) + "/blocks." +
                                std::to_string(b) + "/Op_" + std::to_string(o),
                            80, 36});
      }
    }
  }
  for (int i = 1; i < int(in.items.size()); ++i) in.edges.emplace_back(i - 1, i);
  CompoundLayout layout(std::move(in));
  layout.expand_to_budget(40);
  const Scene& s = layout.layout();
  std::size_t blocks = 0;
  for (const auto& n : s.nodes) blocks += n.kind != Scene::Kind::GroupFrame ? 1 : 0;
  EXPECT_GE(blocks, 4u);
  EXPECT_LE(blocks, 40u);
}
