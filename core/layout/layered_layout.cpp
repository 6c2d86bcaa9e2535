#include "core/layout/layered_layout.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <limits>
#include <queue>
#include <unordered_set>

namespace ec::layout {
namespace {

struct Work {
  // Real nodes are 0..real-1, dummies follow.
  int real = 0;
  std::vector<int> layer_of;
  std::vector<double> width, height;
  std::vector<std::vector<int>> up, down;  // neighbours in the layer above / below
  std::vector<std::vector<int>> layers;    // node ids in order
  std::vector<int> pos;                    // index within its layer
  std::vector<double> x;                   // centre x

  bool dummy(int v) const { return v >= real; }
  int count() const { return int(layer_of.size()); }
};

double edge_weight(const Work& w, int a, int b) {
  const int dummies = int(w.dummy(a)) + int(w.dummy(b));
  return dummies == 2 ? 8.0 : dummies == 1 ? 2.0 : 1.0;
}

void renumber(Work& w, int layer) {
  const auto& l = w.layers[std::size_t(layer)];
  for (std::size_t i = 0; i < l.size(); ++i) w.pos[std::size_t(l[i])] = int(i);
}

std::size_t total_crossings(const Work& w) {
  std::size_t total = 0;
  std::vector<std::pair<int, int>> segs;
  for (std::size_t i = 0; i + 1 < w.layers.size(); ++i) {
    segs.clear();
    for (int u : w.layers[i]) {
      for (int v : w.down[std::size_t(u)])
        segs.emplace_back(w.pos[std::size_t(u)], w.pos[std::size_t(v)]);
    }
    total += count_bilayer_crossings(segs, int(w.layers[i + 1].size()));
  }
  return total;
}

// Reorders one layer by the barycenter of its neighbours in the adjacent layer
// (`neighbours` = up for a downward sweep). Nodes without neighbours keep their place.
void barycenter_layer(Work& w, int layer, const std::vector<std::vector<int>>& neighbours) {
  auto& l = w.layers[std::size_t(layer)];
  std::vector<std::pair<double, int>> keyed;
  keyed.reserve(l.size());
  for (int v : l) {
    const auto& n = neighbours[std::size_t(v)];
    double key = w.pos[std::size_t(v)];
    if (!n.empty()) {
      double sum = 0;
      for (int u : n) sum += w.pos[std::size_t(u)];
      key = sum / double(n.size());
    }
    keyed.emplace_back(key, v);
  }
  std::stable_sort(keyed.begin(), keyed.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (std::size_t i = 0; i < l.size(); ++i) l[i] = keyed[i].second;
  renumber(w, layer);
}

// Crossings between the edges of v and of w (v left of w) towards one adjacent layer.
std::size_t pair_crossings(const Work& wk, const std::vector<int>& nv, const std::vector<int>& nw) {
  std::size_t c = 0;
  for (int a : nv) {
    for (int b : nw) c += wk.pos[std::size_t(a)] > wk.pos[std::size_t(b)] ? 1 : 0;
  }
  return c;
}

void transpose(Work& w, int max_passes) {
  for (int pass = 0; pass < max_passes; ++pass) {
    bool improved = false;
    for (std::size_t li = 0; li < w.layers.size(); ++li) {
      auto& l = w.layers[li];
      for (std::size_t j = 0; j + 1 < l.size(); ++j) {
        const int v = l[j], u = l[j + 1];
        const auto& uv = w.up[std::size_t(v)];
        const auto& uu = w.up[std::size_t(u)];
        const auto& dv = w.down[std::size_t(v)];
        const auto& du = w.down[std::size_t(u)];
        if (uv.size() * uu.size() + dv.size() * du.size() > 4096) continue;
        const std::size_t now = pair_crossings(w, uv, uu) + pair_crossings(w, dv, du);
        const std::size_t swapped = pair_crossings(w, uu, uv) + pair_crossings(w, du, dv);
        if (swapped < now) {
          std::swap(l[j], l[j + 1]);
          w.pos[std::size_t(v)] = int(j + 1);
          w.pos[std::size_t(u)] = int(j);
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
}

void order_layers(Work& w, const LayeredOptions& opt) {
  // Start: each layer sorted by its first pass of barycenters, top to bottom.
  for (std::size_t i = 0; i < w.layers.size(); ++i) renumber(w, int(i));
  for (std::size_t i = 1; i < w.layers.size(); ++i) barycenter_layer(w, int(i), w.up);

  std::size_t best = total_crossings(w);
  std::vector<std::vector<int>> best_layers = w.layers;
  int stale = 0;
  for (int it = 0; it < opt.ordering_sweeps && best > 0; ++it) {
    for (int i = int(w.layers.size()) - 2; i >= 0; --i) barycenter_layer(w, i, w.down);
    for (std::size_t i = 1; i < w.layers.size(); ++i) barycenter_layer(w, int(i), w.up);
    const std::size_t c = total_crossings(w);
    if (c < best) {
      best = c;
      best_layers = w.layers;
      stale = 0;
    } else if (++stale >= 2) {
      break;
    }
  }
  w.layers = std::move(best_layers);
  for (std::size_t i = 0; i < w.layers.size(); ++i) renumber(w, int(i));
  if (std::size_t(w.count()) <= opt.transpose_limit && best > 0) transpose(w, 6);
}

// Weighted isotonic regression of `target` under x[i+1] >= x[i] + sep[i]:
// shift by the cumulative separations, solve "non-decreasing" with
// pool-adjacent-violators, shift back.
void project_layer(const std::vector<double>& target, const std::vector<double>& weight,
                   const std::vector<double>& sep, std::vector<double>& out) {
  const std::size_t n = target.size();
  std::vector<double> offset(n, 0.0);
  for (std::size_t i = 1; i < n; ++i) offset[i] = offset[i - 1] + sep[i - 1];
  struct Block {
    double wsum, wtsum;
    std::size_t start;
  };
  std::vector<Block> blocks;
  blocks.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    blocks.push_back({weight[i], weight[i] * (target[i] - offset[i]), i});
    while (blocks.size() > 1) {
      const Block& b = blocks.back();
      const Block& a = blocks[blocks.size() - 2];
      if (a.wtsum / a.wsum <= b.wtsum / b.wsum) break;
      Block merged{a.wsum + b.wsum, a.wtsum + b.wtsum, a.start};
      blocks.pop_back();
      blocks.back() = merged;
    }
  }
  out.resize(n);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const std::size_t end = b + 1 < blocks.size() ? blocks[b + 1].start : n;
    const double value = blocks[b].wtsum / blocks[b].wsum;
    for (std::size_t i = blocks[b].start; i < end; ++i) out[i] = value + offset[i];
  }
}

void place_x(Work& w, const LayeredOptions& opt) {
  auto gap = [&](int a, int b) {
    const int dummies = int(w.dummy(a)) + int(w.dummy(b));
    return dummies == 2 ? opt.dummy_width : dummies == 1 ? opt.node_gap / 2 : opt.node_gap;
  };
  std::vector<std::vector<double>> seps(w.layers.size());
  for (std::size_t li = 0; li < w.layers.size(); ++li) {
    const auto& l = w.layers[li];
    auto& s = seps[li];
    double cursor = 0;
    for (std::size_t i = 0; i < l.size(); ++i) {
      if (i > 0) {
        s.push_back((w.width[std::size_t(l[i - 1])] + w.width[std::size_t(l[i])]) / 2 +
                    gap(l[i - 1], l[i]));
        cursor += s.back();
      }
      w.x[std::size_t(l[i])] = cursor;
    }
    for (int v : l) w.x[std::size_t(v)] -= cursor / 2;  // centre every layer on 0
  }

  std::vector<double> target, weight, out;
  auto place = [&](std::size_t li, bool use_up, bool use_down) {
    const auto& l = w.layers[li];
    target.assign(l.size(), 0.0);
    weight.assign(l.size(), 0.0);
    for (std::size_t i = 0; i < l.size(); ++i) {
      const int v = l[i];
      double sw = 0, st = 0;
      auto add = [&](const std::vector<int>& n) {
        for (int u : n) {
          const double ew = edge_weight(w, u, v);
          sw += ew;
          st += ew * w.x[std::size_t(u)];
        }
      };
      if (use_up) add(w.up[std::size_t(v)]);
      if (use_down) add(w.down[std::size_t(v)]);
      if (sw == 0) {
        target[i] = w.x[std::size_t(v)];
        weight[i] = 0.05;  // nothing pulls it: stay put unless pushed
      } else {
        target[i] = st / sw;
        weight[i] = sw;
      }
    }
    project_layer(target, weight, seps[li], out);
    for (std::size_t i = 0; i < l.size(); ++i) w.x[std::size_t(l[i])] = out[i];
  };
  const std::size_t nl = w.layers.size();
  for (int s = 0; s < opt.placement_sweeps; ++s) {
    if (s % 2 == 0) {
      for (std::size_t li = 1; li < nl; ++li) place(li, true, false);
    } else {
      for (std::size_t li = nl - 1; li-- > 0;) place(li, false, true);
    }
  }
  for (std::size_t li = 0; li < nl; ++li) place(li, true, true);
}

}  // namespace

std::size_t count_bilayer_crossings(std::vector<std::pair<int, int>> edges, int lower_size) {
  if (edges.size() < 2 || lower_size < 2) return 0;
  std::sort(edges.begin(), edges.end());
  std::size_t first = 1;
  while (first < std::size_t(lower_size)) first *= 2;
  std::vector<std::size_t> tree(2 * first - 1, 0);
  first -= 1;
  std::size_t crossings = 0;
  for (const auto& e : edges) {
    std::size_t index = std::size_t(e.second) + first;
    ++tree[index];
    while (index > 0) {
      if (index % 2 == 1) crossings += tree[index + 1];  // edges ending right of this one
      index = (index - 1) / 2;
      ++tree[index];
    }
  }
  return crossings;
}

LayeredResult layered_layout(const LayeredGraph& g, const LayeredOptions& opt) {
  LayeredResult result;
  const int n = int(g.nodes.size());
  result.nodes.resize(static_cast<std::size_t>(n));
  result.layer.assign(std::size_t(n), 0);
  if (n == 0) return result;

  // Distinct edges, in input order.
  std::vector<std::pair<int, int>> edges;
  {
    std::unordered_set<std::uint64_t> seen;
    seen.reserve(g.edges.size() * 2);
    for (const auto& [a, b] : g.edges) {
      assert(a >= 0 && a < n && b >= 0 && b < n);
      if (a == b) continue;
      if (seen.insert((std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b)).second) {
        edges.emplace_back(a, b);
      }
    }
  }
  std::vector<std::vector<int>> succ(static_cast<std::size_t>(n)),
      pred(static_cast<std::size_t>(n));
  for (const auto& [a, b] : edges) {
    succ[std::size_t(a)].push_back(b);
    pred[std::size_t(b)].push_back(a);
  }

  // 1. Stable topological rank; on a cycle, the lowest-index waiting node goes next.
  std::vector<int> rank(std::size_t(n), -1), indeg(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) indeg[std::size_t(v)] = int(pred[std::size_t(v)].size());
  {
    std::priority_queue<int, std::vector<int>, std::greater<>> ready;
    for (int v = 0; v < n; ++v) {
      if (indeg[std::size_t(v)] == 0) ready.push(v);
    }
    int next_forced = 0, r = 0;
    while (r < n) {
      int v;
      if (!ready.empty()) {
        v = ready.top();
        ready.pop();
        if (rank[std::size_t(v)] >= 0) continue;
      } else {
        while (rank[std::size_t(next_forced)] >= 0) ++next_forced;
        v = next_forced;
      }
      rank[std::size_t(v)] = r++;
      for (int s : succ[std::size_t(v)]) {
        if (--indeg[std::size_t(s)] == 0 && rank[std::size_t(s)] < 0) ready.push(s);
      }
    }
  }
  std::vector<int> by_rank(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) by_rank[std::size_t(rank[std::size_t(v)])] = v;

  // Oriented edges (from lower rank to higher).
  struct OEdge {
    int u, v;
    bool reversed;
  };
  std::vector<OEdge> oedges;
  oedges.reserve(edges.size());
  std::vector<std::vector<int>> opred(static_cast<std::size_t>(n)),
      osucc(static_cast<std::size_t>(n));
  for (const auto& [a, b] : edges) {
    const bool rev = rank[std::size_t(a)] > rank[std::size_t(b)];
    const int u = rev ? b : a, v = rev ? a : b;
    oedges.push_back({u, v, rev});
    osucc[std::size_t(u)].push_back(v);
    opred[std::size_t(v)].push_back(u);
  }

  // 2. Layers.
  bool has_top = false;
  for (const auto& node : g.nodes) has_top |= node.pin == Pin::Top;
  const int base = has_top ? 1 : 0;
  std::vector<int>& layer = result.layer;
  for (int v : by_rank) {
    const auto& node = g.nodes[std::size_t(v)];
    if (node.pin == Pin::Top) {
      layer[std::size_t(v)] = 0;
      continue;
    }
    int l = base;
    for (int u : opred[std::size_t(v)]) l = std::max(l, layer[std::size_t(u)] + 1);
    layer[std::size_t(v)] = l;
  }
  // Sources (a graph input, a constant-only op) sit right above their first consumer.
  for (auto it = by_rank.rbegin(); it != by_rank.rend(); ++it) {
    const int v = *it;
    if (g.nodes[std::size_t(v)].pin != Pin::None || !opred[std::size_t(v)].empty() ||
        osucc[std::size_t(v)].empty()) {
      continue;
    }
    int l = std::numeric_limits<int>::max();
    for (int s : osucc[std::size_t(v)]) l = std::min(l, layer[std::size_t(s)] - 1);
    layer[std::size_t(v)] = std::max(layer[std::size_t(v)], l);
  }
  int max_layer = 0;
  for (int v = 0; v < n; ++v) {
    if (g.nodes[std::size_t(v)].pin != Pin::Bottom)
      max_layer = std::max(max_layer, layer[std::size_t(v)]);
  }
  bool has_bottom = false;
  for (int v = 0; v < n; ++v) {
    if (g.nodes[std::size_t(v)].pin == Pin::Bottom) {
      layer[std::size_t(v)] = max_layer + 1;
      has_bottom = true;
    }
  }
  // Bottom pins get a layer of their own below everything, so edges into them point down.
  if (has_bottom) max_layer += 1;
  const int layer_count = max_layer + 1;
  result.layer_count = layer_count;

  // 3. Dummies.
  Work w;
  w.real = n;
  w.layer_of = layer;
  w.width.resize(static_cast<std::size_t>(n));
  w.height.resize(static_cast<std::size_t>(n));
  for (int v = 0; v < n; ++v) {
    w.width[std::size_t(v)] = g.nodes[std::size_t(v)].w;
    w.height[std::size_t(v)] = g.nodes[std::size_t(v)].h;
  }
  w.up.resize(static_cast<std::size_t>(n));
  w.down.resize(static_cast<std::size_t>(n));
  std::vector<std::vector<int>> chains(oedges.size());
  for (std::size_t e = 0; e < oedges.size(); ++e) {
    const auto& oe = oedges[e];
    auto& chain = chains[e];
    chain.push_back(oe.u);
    int prev = oe.u;
    for (int l = layer[std::size_t(oe.u)] + 1; l < layer[std::size_t(oe.v)]; ++l) {
      const int d = w.count();
      w.layer_of.push_back(l);
      w.width.push_back(opt.dummy_width);
      w.height.push_back(0);
      w.up.emplace_back();
      w.down.emplace_back();
      w.down[std::size_t(prev)].push_back(d);
      w.up[std::size_t(d)].push_back(prev);
      chain.push_back(d);
      prev = d;
    }
    w.down[std::size_t(prev)].push_back(oe.v);
    w.up[std::size_t(oe.v)].push_back(prev);
    chain.push_back(oe.v);
  }
  result.dummy_count = std::size_t(w.count() - n);
  w.layers.resize(static_cast<std::size_t>(layer_count));
  // Initial order within a layer: real nodes by rank, dummies after their source.
  {
    std::vector<std::pair<double, int>> keyed;
    keyed.reserve(std::size_t(w.count()));
    for (int v = 0; v < n; ++v) keyed.emplace_back(rank[std::size_t(v)], v);
    for (std::size_t e = 0; e < chains.size(); ++e) {
      for (std::size_t i = 1; i + 1 < chains[e].size(); ++i) {
        keyed.emplace_back(rank[std::size_t(chains[e].front())] + 0.5, chains[e][i]);
      }
    }
    std::stable_sort(keyed.begin(), keyed.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [key, v] : keyed)
      w.layers[std::size_t(w.layer_of[std::size_t(v)])].push_back(v);
  }
  w.pos.assign(std::size_t(w.count()), 0);
  w.x.assign(std::size_t(w.count()), 0.0);

  // 4. Crossing reduction.
  order_layers(w, opt);
  result.crossings = total_crossings(w);

  // 5. Coordinates.
  place_x(w, opt);
  std::vector<double> layer_top(static_cast<std::size_t>(layer_count)),
      layer_h(std::size_t(layer_count), 0.0);
  for (int v = 0; v < n; ++v) {
    auto& h = layer_h[std::size_t(layer[std::size_t(v)])];
    h = std::max(h, w.height[std::size_t(v)]);
  }
  double y = 0;
  for (int l = 0; l < layer_count; ++l) {
    layer_top[std::size_t(l)] = y;
    y += layer_h[std::size_t(l)] + opt.layer_gap;
  }
  result.height = y - opt.layer_gap;

  double min_x = std::numeric_limits<double>::max(), max_x = std::numeric_limits<double>::lowest();
  for (int v = 0; v < w.count(); ++v) {
    min_x = std::min(min_x, w.x[std::size_t(v)] - w.width[std::size_t(v)] / 2);
    max_x = std::max(max_x, w.x[std::size_t(v)] + w.width[std::size_t(v)] / 2);
  }
  for (double& xv : w.x) xv -= min_x;
  result.width = max_x - min_x;
  for (int v = 0; v < n; ++v) {
    const int l = layer[std::size_t(v)];
    const double h = w.height[std::size_t(v)];
    result.nodes[std::size_t(v)] = {w.x[std::size_t(v)] - w.width[std::size_t(v)] / 2,
                                    layer_top[std::size_t(l)] + (layer_h[std::size_t(l)] - h) / 2,
                                    w.width[std::size_t(v)], h};
  }

  // Where each edge leaves its source and enters its target: spread along the
  // box edge in the order of the other end, so fans do not cross at the box.
  std::vector<double> out_x(chains.size()), in_x(chains.size());
  {
    std::vector<std::vector<std::size_t>> outs(static_cast<std::size_t>(n)),
        ins(static_cast<std::size_t>(n));
    for (std::size_t e = 0; e < chains.size(); ++e) {
      outs[std::size_t(chains[e].front())].push_back(e);
      ins[std::size_t(chains[e].back())].push_back(e);
    }
    auto spread = [&](std::vector<std::size_t>& list, int v, bool outgoing,
                      std::vector<double>& xs) {
      const Box& b = result.nodes[std::size_t(v)];
      auto other_x = [&](std::size_t e) {
        const auto& c = chains[e];
        return w.x[std::size_t(outgoing ? c[1] : c[c.size() - 2])];
      };
      std::sort(list.begin(), list.end(),
                [&](std::size_t a, std::size_t c) { return other_x(a) < other_x(c); });
      const double usable = std::max(0.0, b.w - 16);  // keep clear of the corners
      for (std::size_t i = 0; i < list.size(); ++i) {
        xs[list[i]] = list.size() == 1 || usable < 8
                          ? b.cx()
                          : b.x + 8 + usable * (double(i) + 0.5) / double(list.size());
      }
    };
    for (int v = 0; v < n; ++v) {
      spread(outs[std::size_t(v)], v, true, out_x);
      spread(ins[std::size_t(v)], v, false, in_x);
    }
  }

  result.edges.reserve(oedges.size());
  for (std::size_t e = 0; e < oedges.size(); ++e) {
    const auto& chain = chains[e];
    LayeredResult::Edge out;
    out.reversed = oedges[e].reversed;
    out.from = out.reversed ? oedges[e].v : oedges[e].u;
    out.to = out.reversed ? oedges[e].u : oedges[e].v;
    auto& pts = out.points;
    pts.push_back({out_x[e], result.nodes[std::size_t(chain.front())].bottom()});
    for (std::size_t i = 1; i + 1 < chain.size(); ++i) {
      const int d = chain[i];
      const int l = w.layer_of[std::size_t(d)];
      const double dx = w.x[std::size_t(d)];
      const double top = layer_top[std::size_t(l)], bottom = top + layer_h[std::size_t(l)];
      // A straight vertical run through consecutive dummies is one segment.
      if (pts.size() >= 2 && pts.back().x == dx && pts[pts.size() - 2].x == dx) {
        pts.back().y = bottom;
      } else {
        pts.push_back({dx, top});
        if (bottom > top) pts.push_back({dx, bottom});
      }
    }
    pts.push_back({in_x[e], result.nodes[std::size_t(chain.back())].y});
    if (out.reversed) std::reverse(pts.begin(), pts.end());
    result.edges.push_back(std::move(out));
  }
  return result;
}

}  // namespace ec::layout
