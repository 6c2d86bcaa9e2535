// Groups of ops by name scope. PyTorch exports name ops after the module that
// made them ("/features/features.3/conv/conv.0/Conv" is op "Conv" in scopes
// features > features.3 > conv > conv.0); ONNX-style names ("onnx::Conv_12",
// "Conv_0") have no scope and sit at the top level.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ec::layout {

struct ScopeTree {
  struct Group {
    std::string path;   ///< "/features/features.3" ("" for the root)
    std::string label;  ///< "features.3"; merged single-child chains read "a/b"
    int parent = -1;
    int depth = 0;
    std::vector<int> groups;     ///< child groups, in order of their first item
    std::vector<int> items;      ///< items directly in this group, in item order
    std::size_t item_count = 0;  ///< items in this group and all below it
    int first_item = 0;          ///< lowest item index inside
  };
  /// Groups in pre-order: [0] is the root, a parent comes before its children.
  std::vector<Group> groups;
  /// Innermost group of every item.
  std::vector<int> group_of;

  /// Builds the tree from item names (item order = topological order). A scope
  /// with fewer than `min_items` items is dissolved into its parent; a scope
  /// holding nothing but one sub-scope is merged with it.
  static ScopeTree build(const std::vector<std::string>& names, std::size_t min_items = 2);

  /// The scopes of one name: "/a/b/Conv" → {"a", "b"}; "onnx::Conv_1" → {}.
  static std::vector<std::string_view> scopes_of(std::string_view name);

  /// True when group `ancestor` is `group` or contains it.
  bool contains(int ancestor, int group) const;
  /// The child of `group` that holds item `item` (an item slot is encoded as
  /// -1 - item when the item sits directly in `group`). `group` must contain it.
  int child_towards(int group, int item) const;
};

}  // namespace ec::layout
