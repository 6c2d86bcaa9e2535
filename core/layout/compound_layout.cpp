#include "core/layout/compound_layout.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <queue>
#include <unordered_map>

namespace ec::layout {

CompoundLayout::CompoundLayout(CompoundInput input, CompoundOptions options)
    : input_(std::move(input)), options_(options) {
  std::vector<std::string> names;
  names.reserve(input_.items.size());
  for (const auto& item : input_.items) names.push_back(item.name);
  tree_ = ScopeTree::build(names, options_.min_group_items);
  expanded_.assign(tree_.groups.size(), 0);
  expanded_[0] = 1;
  build_levels();
}

void CompoundLayout::build_levels() {
  const std::size_t ng = tree_.groups.size();
  levels_.assign(ng, Level{});
  struct RawEdge {
    Slot from, to;
    int key;
  };
  std::vector<std::vector<RawEdge>> raw(ng);
  std::vector<std::vector<int>> in_keys(ng), out_keys(ng);
  auto child_slot = [&](int group, int item) {
    const int c = tree_.child_towards(group, item);
    return c < 0 ? Slot{Slot::Kind::Item, -1 - c} : Slot{Slot::Kind::Group, c};
  };
  for (const auto& [a, b] : input_.edges) {
    if (a == b) continue;
    int ga = tree_.group_of[std::size_t(a)], gb = tree_.group_of[std::size_t(b)];
    // Lowest common group.
    int x = ga, y = gb;
    while (tree_.groups[std::size_t(x)].depth > tree_.groups[std::size_t(y)].depth) {
      x = tree_.groups[std::size_t(x)].parent;
    }
    while (tree_.groups[std::size_t(y)].depth > tree_.groups[std::size_t(x)].depth) {
      y = tree_.groups[std::size_t(y)].parent;
    }
    while (x != y) {
      x = tree_.groups[std::size_t(x)].parent;
      y = tree_.groups[std::size_t(y)].parent;
    }
    const int lca = x;
    raw[std::size_t(lca)].push_back({child_slot(lca, a), child_slot(lca, b), a});
    for (int g = ga; g != lca; g = tree_.groups[std::size_t(g)].parent) {
      out_keys[std::size_t(g)].push_back(a);
      raw[std::size_t(g)].push_back({child_slot(g, a), Slot{Slot::Kind::OutPort, a}, a});
    }
    for (int g = gb; g != lca; g = tree_.groups[std::size_t(g)].parent) {
      in_keys[std::size_t(g)].push_back(a);
      raw[std::size_t(g)].push_back({Slot{Slot::Kind::InPort, a}, child_slot(g, b), a});
    }
  }

  for (std::size_t g = 0; g < ng; ++g) {
    Level& level = levels_[g];
    auto unique_sorted = [](std::vector<int>& v) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    unique_sorted(in_keys[g]);
    unique_sorted(out_keys[g]);
    for (int k : in_keys[g]) level.members.push_back({Slot::Kind::InPort, k});
    level.in_count = int(in_keys[g].size());
    // Children in order of their first item: sub-groups and items interleaved.
    const auto& grp = tree_.groups[g];
    std::vector<std::pair<int, Slot>> children;
    for (int c : grp.groups)
      children.push_back({tree_.groups[std::size_t(c)].first_item, {Slot::Kind::Group, c}});
    for (int i : grp.items) children.push_back({i, {Slot::Kind::Item, i}});
    std::stable_sort(children.begin(), children.end(),
                     [](const auto& l, const auto& r) { return l.first < r.first; });
    std::unordered_map<int, int> group_slot, item_slot;
    for (const auto& [first, slot] : children) {
      (slot.kind == Slot::Kind::Group ? group_slot : item_slot)[slot.id] =
          int(level.members.size());
      level.members.push_back(slot);
    }
    const int out_start = int(level.members.size());
    for (int k : out_keys[g]) level.members.push_back({Slot::Kind::OutPort, k});
    level.out_count = int(out_keys[g].size());

    auto index_of = [&](const Slot& s) {
      switch (s.kind) {
        case Slot::Kind::InPort:
          return int(std::lower_bound(in_keys[g].begin(), in_keys[g].end(), s.id) -
                     in_keys[g].begin());
        case Slot::Kind::OutPort:
          return out_start + int(std::lower_bound(out_keys[g].begin(), out_keys[g].end(), s.id) -
                                 out_keys[g].begin());
        case Slot::Kind::Group:
          return group_slot.at(s.id);
        case Slot::Kind::Item:
          return item_slot.at(s.id);
      }
      return -1;
    };
    std::map<std::pair<int, int>, int> pair_index;
    for (const auto& e : raw[g]) {
      const int f = index_of(e.from), t = index_of(e.to);
      const auto [it, inserted] = pair_index.try_emplace({f, t}, int(level.slot_edges.size()));
      if (inserted) level.slot_edges.emplace_back(f, t);
      level.edges.push_back({f, t, e.key});
      level.edge_of_level_edge.push_back(it->second);
    }
  }
}

void CompoundLayout::set_expanded(int group, bool expanded) {
  if (group <= 0 || bool(expanded_[std::size_t(group)]) == expanded) return;
  expanded_[std::size_t(group)] = expanded ? 1 : 0;
  // The group's own inner layout does not change; its parents' do (its size did).
  for (int g = tree_.groups[std::size_t(group)].parent; g >= 0;
       g = tree_.groups[std::size_t(g)].parent) {
    levels_[std::size_t(g)].valid = false;
  }
  scene_valid_ = false;
}

void CompoundLayout::expand_all() {
  for (std::size_t g = 1; g < tree_.groups.size(); ++g) set_expanded(int(g), true);
}

void CompoundLayout::collapse_all() {
  for (std::size_t g = 1; g < tree_.groups.size(); ++g) set_expanded(int(g), false);
}

void CompoundLayout::expand_to_budget(std::size_t max_blocks) {
  collapse_all();
  auto children = [&](int g) {
    return tree_.groups[std::size_t(g)].groups.size() + tree_.groups[std::size_t(g)].items.size();
  };
  std::size_t visible = children(0);
  std::priority_queue<std::pair<std::size_t, int>> queue;
  for (int c : tree_.groups[0].groups) queue.push({tree_.groups[std::size_t(c)].item_count, c});
  while (!queue.empty()) {
    const int g = queue.top().second;
    queue.pop();
    const std::size_t added = children(g) - 1;
    if (visible + added > max_blocks) continue;
    visible += added;
    set_expanded(g, true);
    for (int c : tree_.groups[std::size_t(g)].groups)
      queue.push({tree_.groups[std::size_t(c)].item_count, c});
  }
}

bool CompoundLayout::reveal(int item) {
  bool changed = false;
  for (int g = tree_.group_of[std::size_t(item)]; g > 0; g = tree_.groups[std::size_t(g)].parent) {
    if (!expanded_[std::size_t(g)]) {
      set_expanded(g, true);
      changed = true;
    }
  }
  return changed;
}

int CompoundLayout::visible_holder(int item) const {
  int holder = -1 - item;
  for (int g = tree_.group_of[std::size_t(item)]; g > 0; g = tree_.groups[std::size_t(g)].parent) {
    if (!expanded_[std::size_t(g)]) holder = g;
  }
  return holder;
}

Box CompoundLayout::collapsed_box(int group) const {
  const auto& grp = tree_.groups[std::size_t(group)];
  const double w =
      std::max(options_.collapsed_min_width, double(grp.label.size()) * options_.char_width + 28);
  return {0, 0, std::min(w, 320.0), options_.collapsed_height};
}

void CompoundLayout::layout_group(int group) {
  Level& level = levels_[std::size_t(group)];
  if (level.valid) return;
  ++last_relayouts_;
  LayeredGraph lg;
  lg.nodes.reserve(level.members.size());
  for (const Slot& s : level.members) {
    LayeredGraph::Node node;
    switch (s.kind) {
      case Slot::Kind::InPort:
      case Slot::Kind::OutPort:
        node.w = options_.layered.dummy_width;
        node.pin = s.kind == Slot::Kind::InPort ? Pin::Top : Pin::Bottom;
        break;
      case Slot::Kind::Item:
        node.w = input_.items[std::size_t(s.id)].w;
        node.h = input_.items[std::size_t(s.id)].h;
        break;
      case Slot::Kind::Group:
        if (expanded_[std::size_t(s.id)]) {
          layout_group(s.id);
          node.w = levels_[std::size_t(s.id)].w;
          node.h = levels_[std::size_t(s.id)].h;
        } else {
          const Box b = collapsed_box(s.id);
          node.w = b.w;
          node.h = b.h;
        }
        break;
    }
    lg.nodes.push_back(node);
  }
  lg.edges = level.slot_edges;
  level.result = layered_layout(lg, options_.layered);
  const double pad = options_.group_padding;
  const double label_w =
      double(tree_.groups[std::size_t(group)].label.size()) * options_.char_width + 2 * pad + 16;
  level.w = std::max(level.result.width + 2 * pad, label_w);
  level.inner_dx = (level.w - level.result.width) / 2;
  level.h = options_.group_header + level.result.height + pad;
  level.valid = true;
}

double CompoundLayout::port_x(int group, bool in, int key_item, double frame_x) const {
  const Level& level = levels_[std::size_t(group)];
  const int start = in ? 0 : int(level.members.size()) - level.out_count;
  const int count = in ? level.in_count : level.out_count;
  auto first = level.members.begin() + start, last = first + count;
  const auto it =
      std::lower_bound(first, last, key_item, [](const Slot& s, int key) { return s.id < key; });
  assert(it != last && it->id == key_item);
  return frame_x + level.inner_dx +
         level.result.nodes[std::size_t(it - level.members.begin())].cx();
}

void CompoundLayout::compose(int group, double ox, double oy) {
  const Level& level = levels_[std::size_t(group)];
  const auto& res = level.result;
  for (std::size_t i = 0; i < level.members.size(); ++i) {
    const Slot& s = level.members[i];
    Box b = res.nodes[i];
    b.x += ox;
    b.y += oy;
    if (s.kind == Slot::Kind::Item) {
      scene_.node_of_item[std::size_t(s.id)] = int(scene_.nodes.size());
      scene_.nodes.push_back({Scene::Kind::Item, s.id, b});
      ++scene_.visible_items;
    } else if (s.kind == Slot::Kind::Group) {
      scene_.node_of_group[std::size_t(s.id)] = int(scene_.nodes.size());
      if (expanded_[std::size_t(s.id)]) {
        scene_.nodes.push_back({Scene::Kind::GroupFrame, s.id, b});
        compose(s.id, b.x + levels_[std::size_t(s.id)].inner_dx, b.y + options_.group_header);
      } else {
        scene_.nodes.push_back({Scene::Kind::CollapsedGroup, s.id, b});
      }
    }
  }
  const double frame_top = oy - options_.group_header;
  const double frame_bottom = oy + res.height + options_.group_padding;
  std::vector<char> drawn(level.slot_edges.size(), 0);
  for (std::size_t e = 0; e < level.edges.size(); ++e) {
    const LevelEdge& le = level.edges[e];
    const int idx = level.edge_of_level_edge[e];
    const Slot& from = level.members[std::size_t(le.from_slot)];
    const Slot& to = level.members[std::size_t(le.to_slot)];
    const bool from_group = from.kind == Slot::Kind::Group && expanded_[std::size_t(from.id)];
    const bool to_group = to.kind == Slot::Kind::Group && expanded_[std::size_t(to.id)];
    // Without an expanded end, every key of this slot pair draws the same line.
    if (!from_group && !to_group) {
      if (drawn[std::size_t(idx)]) continue;
      drawn[std::size_t(idx)] = 1;
    }
    const auto& src = res.edges[std::size_t(idx)];
    Scene::Edge out;
    out.from_item = le.key_item;
    out.continues = to_group || to.kind == Slot::Kind::OutPort;
    out.points.reserve(src.points.size() + 2);
    if (from.kind == Slot::Kind::InPort)
      out.points.push_back({src.points.front().x + ox, frame_top});
    for (const Point& p : src.points) out.points.push_back({p.x + ox, p.y + oy});
    if (to.kind == Slot::Kind::OutPort)
      out.points.push_back({src.points.back().x + ox, frame_bottom});
    if (from_group && !src.reversed) {
      out.points.front().x =
          port_x(from.id, false, le.key_item, res.nodes[std::size_t(le.from_slot)].x + ox);
    }
    if (to_group && !src.reversed) {
      out.points.back().x =
          port_x(to.id, true, le.key_item, res.nodes[std::size_t(le.to_slot)].x + ox);
    }
    // Meet a group's border square on: the last (first) stretch runs straight down into
    // the in-port (out of the out-port), bending in the gap above (below) the frame.
    const double bend = options_.layered.layer_gap / 2;
    if (to_group && !src.reversed && out.points.size() >= 2) {
      const Point port = out.points.back();
      const Point prev = out.points[out.points.size() - 2];
      if (std::abs(prev.x - port.x) > 0.5) {
        const double y = std::max(prev.y, port.y - std::min(bend, (port.y - prev.y) / 2));
        out.points.insert(out.points.end() - 1, Point{port.x, y});
      }
    }
    if (from_group && !src.reversed && out.points.size() >= 2) {
      const Point port = out.points.front();
      const Point next = out.points[1];
      if (std::abs(next.x - port.x) > 0.5) {
        const double y = std::min(next.y, port.y + std::min(bend, (next.y - port.y) / 2));
        out.points.insert(out.points.begin() + 1, Point{port.x, y});
      }
    }
    scene_.edges.push_back(std::move(out));
  }
}

const Scene& CompoundLayout::layout() {
  last_relayouts_ = 0;
  if (scene_valid_) return scene_;
  layout_group(0);
  scene_ = Scene{};
  scene_.node_of_item.assign(input_.items.size(), -1);
  scene_.node_of_group.assign(tree_.groups.size(), -1);
  scene_.nodes.reserve(input_.items.size() + tree_.groups.size());
  compose(0, 0, 0);
  scene_.width = levels_[0].result.width;
  scene_.height = levels_[0].result.height;
  scene_valid_ = true;
  return scene_;
}

}  // namespace ec::layout
