// Layout of a graph whose items are grouped by a ScopeTree into collapsible
// groups. Every expanded group is laid out on its own (layered_layout) with its
// direct children as nodes: items, collapsed groups as boxes, expanded groups
// as boxes of their own inner layout's size. Edges that cross a group's border
// enter through an in-port on its top edge and leave through an out-port on its
// bottom edge, so a group's inner layout depends only on what is inside it.
// That makes layouts cacheable per group: expanding or collapsing one group
// re-lays out that group and its ancestors, and nothing else.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/layout/layered_layout.h"
#include "core/layout/scope_tree.h"

namespace ec::layout {

/// A flat graph of items to lay out with grouping.
struct CompoundInput {
  struct Item {
    std::string name;  ///< scope source ("/features/features.0/Conv"); "" = top level
    double w = 0, h = 0;
  };
  std::vector<Item> items;                 ///< in topological order where possible
  std::vector<std::pair<int, int>> edges;  ///< (from item, to item)
};

struct CompoundOptions {
  LayeredOptions layered;
  double group_header = 22;      ///< room for a group's label above its contents
  double group_padding = 10;     ///< inner margin of an expanded group
  double collapsed_height = 44;  ///< size of a collapsed group's box
  double collapsed_min_width = 110;
  double char_width = 7.5;  ///< to size group labels without a font
  std::size_t min_group_items = 2;
};

/// What to draw: absolute boxes and polylines for the current expansion state.
struct Scene {
  enum class Kind { Item, CollapsedGroup, GroupFrame };
  struct Node {
    Kind kind = Kind::Item;
    int id = 0;  ///< item index, or group index
    Box box;
  };
  struct Edge {
    int from_item = -1;      ///< item whose output this edge carries
    bool continues = false;  ///< ends on a group border where another edge takes over
    std::vector<Point> points;
  };
  std::vector<Node> nodes;  ///< frames come before what they contain (paint order)
  std::vector<Edge> edges;
  std::vector<int> node_of_item;   ///< index into nodes, or -1 when inside a collapsed group
  std::vector<int> node_of_group;  ///< index into nodes, or -1 when hidden (root: -1)
  double width = 0, height = 0;
  std::size_t visible_items = 0;
};

class CompoundLayout {
 public:
  CompoundLayout(CompoundInput input, CompoundOptions options = {});

  const ScopeTree& tree() const { return tree_; }
  const CompoundInput& input() const { return input_; }
  std::size_t group_count() const { return tree_.groups.size(); }

  bool expanded(int group) const { return expanded_[std::size_t(group)]; }
  /// Expands or collapses `group` (the root stays expanded); marks it and its
  /// ancestors for re-layout.
  void set_expanded(int group, bool expanded);
  void expand_all();
  void collapse_all();
  /// Expands the biggest groups first, top-down, while the top-level view stays
  /// within `max_blocks` boxes: what a model shows when first opened.
  void expand_to_budget(std::size_t max_blocks);
  /// Expands every group holding `item`; returns true if anything changed.
  bool reveal(int item);
  /// The group box that shows `item` (itself if visible: -1 - item).
  int visible_holder(int item) const;

  /// Lays out what changed since the last call and returns the scene.
  const Scene& layout();
  /// Group layouts recomputed by the last layout() call (incrementality check).
  std::size_t last_relayout_count() const { return last_relayouts_; }

 private:
  struct Slot {
    enum class Kind { InPort, OutPort, Group, Item } kind;
    int id;  ///< source item for ports, group or item index otherwise
  };
  struct LevelEdge {
    int from_slot, to_slot, key_item;
  };
  struct Level {
    std::vector<Slot> members;  ///< in-ports, children in item order, out-ports
    std::vector<LevelEdge> edges;
    std::vector<std::pair<int, int>> slot_edges;  ///< distinct (from, to) members
    // Cache, valid while nothing inside the group was expanded or collapsed.
    std::vector<int> edge_of_level_edge;  ///< LevelEdge → slot_edges / result.edges index
    int in_count = 0, out_count = 0;      ///< ports lead and trail `members`, sorted by key
    bool valid = false;
    LayeredResult result;
    double w = 0, h = 0;  ///< expanded frame size
    double inner_dx = 0;  ///< inner layout's x inside the frame
  };

  void build_levels();
  void layout_group(int group);
  Box collapsed_box(int group) const;
  void compose(int group, double ox, double oy);
  /// Absolute x of the port of expanded `group` for `key_item` (in or out).
  double port_x(int group, bool in, int key_item, double group_x) const;

  CompoundInput input_;
  CompoundOptions options_;
  ScopeTree tree_;
  std::vector<char> expanded_;
  std::vector<Level> levels_;
  Scene scene_;
  bool scene_valid_ = false;
  std::size_t last_relayouts_ = 0;
};

}  // namespace ec::layout
