#include "core/layout/scope_tree.h"

#include <algorithm>
#include <unordered_map>

namespace ec::layout {

std::vector<std::string_view> ScopeTree::scopes_of(std::string_view name) {
  std::vector<std::string_view> scopes;
  if (name.empty() || name.front() != '/') return scopes;
  std::size_t start = 1;
  while (true) {
    const std::size_t slash = name.find('/', start);
    if (slash == std::string_view::npos) break;  // the rest is the op's own name
    if (slash > start) scopes.push_back(name.substr(start, slash - start));
    start = slash + 1;
  }
  return scopes;
}

bool ScopeTree::contains(int ancestor, int group) const {
  while (group >= 0) {
    if (group == ancestor) return true;
    group = groups[std::size_t(group)].parent;
  }
  return false;
}

int ScopeTree::child_towards(int group, int item) const {
  int g = group_of[std::size_t(item)];
  if (g == group) return -1 - item;
  while (groups[std::size_t(g)].parent != group) g = groups[std::size_t(g)].parent;
  return g;
}

ScopeTree ScopeTree::build(const std::vector<std::string>& names, std::size_t min_items) {
  // Raw tree: one node per distinct scope path.
  struct Raw {
    std::string path, label;
    int parent = -1;
    std::vector<int> children;
    std::vector<int> items;
    std::size_t count = 0;
    int first = 0;
  };
  std::vector<Raw> raw(1);
  raw[0].first = 0;
  std::unordered_map<std::string, int> by_path;
  std::vector<int> raw_of(names.size(), 0);
  std::string path;
  for (std::size_t i = 0; i < names.size(); ++i) {
    int g = 0;
    path.clear();
    for (std::string_view scope : scopes_of(names[i])) {
      path += '/';
      path += scope;
      auto [it, inserted] = by_path.try_emplace(path, int(raw.size()));
      if (inserted) {
        Raw r;
        r.path = path;
        r.label = std::string(scope);
        r.parent = g;
        r.first = int(i);
        raw.push_back(std::move(r));
        raw[std::size_t(g)].children.push_back(it->second);
      }
      g = it->second;
    }
    raw[std::size_t(g)].items.push_back(int(i));
    raw_of[i] = g;
  }
  // Counts bottom-up (children have higher indices than parents).
  for (std::size_t g = raw.size(); g-- > 0;) {
    raw[g].count += raw[g].items.size();
    if (raw[g].parent >= 0) raw[std::size_t(raw[g].parent)].count += raw[g].count;
  }

  ScopeTree tree;
  tree.group_of.assign(names.size(), 0);
  // Emits raw group `r` (already known to be kept) as tree group `into`,
  // dissolving small children into it and merging single-child chains.
  struct Emitter {
    std::vector<Raw>& raw;
    ScopeTree& tree;
    std::size_t min_items;
    void collect_items(int r, int into) {
      for (int item : raw[std::size_t(r)].items)
        tree.groups[std::size_t(into)].items.push_back(item);
      for (int c : raw[std::size_t(r)].children) collect_items(c, into);
    }
    void emit(int r, int into) {
      for (int item : raw[std::size_t(r)].items)
        tree.groups[std::size_t(into)].items.push_back(item);
      for (int c : raw[std::size_t(r)].children) {
        if (raw[std::size_t(c)].count < min_items) {
          collect_items(c, into);
          continue;
        }
        // Follow a chain of scopes that hold nothing but one kept sub-scope.
        int end = c;
        std::string label = raw[std::size_t(c)].label;
        while (raw[std::size_t(end)].items.empty() && raw[std::size_t(end)].children.size() == 1) {
          const int only = raw[std::size_t(end)].children.front();
          if (raw[std::size_t(only)].count < min_items) break;
          end = only;
          label += '/';
          label += raw[std::size_t(end)].label;
        }
        const int id = int(tree.groups.size());
        Group grp;
        grp.path = raw[std::size_t(end)].path;
        grp.label = std::move(label);
        grp.parent = into;
        grp.depth = tree.groups[std::size_t(into)].depth + 1;
        grp.first_item = raw[std::size_t(c)].first;
        tree.groups.push_back(std::move(grp));
        tree.groups[std::size_t(into)].groups.push_back(id);
        emit(end, id);
      }
    }
  };
  tree.groups.push_back(Group{});
  Emitter{raw, tree, min_items}.emit(0, 0);

  // Items in order, counts, innermost group of every item.
  for (std::size_t g = 0; g < tree.groups.size(); ++g) {
    auto& grp = tree.groups[g];
    std::sort(grp.items.begin(), grp.items.end());
    for (int item : grp.items) tree.group_of[std::size_t(item)] = int(g);
    grp.item_count = grp.items.size();
    if (!grp.items.empty()) grp.first_item = std::min(grp.first_item, grp.items.front());
  }
  for (std::size_t g = tree.groups.size(); g-- > 1;) {
    auto& parent = tree.groups[std::size_t(tree.groups[g].parent)];
    parent.item_count += tree.groups[g].item_count;
  }
  for (auto& grp : tree.groups) {
    std::stable_sort(grp.groups.begin(), grp.groups.end(), [&](int a, int b) {
      return tree.groups[std::size_t(a)].first_item < tree.groups[std::size_t(b)].first_item;
    });
  }
  return tree;
}

}  // namespace ec::layout
