// A layered (Sugiyama-style) layout of a directed graph, top to bottom, in
// plain C++ (no Qt) so it is unit-tested and benchmarked on its own.
//
// Phases, in the order they run:
//   1. cycle breaking — a stable topological rank (node order is the tie-break);
//      edges against it are reversed for layout and drawn pointing back up;
//   2. layering — longest path from the sources, then sources pulled down next to
//      their first consumer; Pin::Top nodes form layer 0, Pin::Bottom the last;
//   3. dummy nodes — an edge spanning k layers gets k-1 dummies, so edges are
//      routed through gaps in every layer they cross instead of through boxes;
//   4. crossing reduction — barycenter sweeps down and up (bounded), keeping the
//      best order seen, then adjacent-swap refinement on small graphs;
//   5. coordinates — iterated barycentric placement; each layer is projected onto
//      "keep the order, keep the gaps" by weighted isotonic regression
//      (pool-adjacent-violators), which is the least-squares optimum, O(n) a layer.
//      Dummy chains weigh more (1/2/8 as in Gansner et al.) so long edges run straight.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ec::layout {

struct Point {
  double x = 0, y = 0;
};

/// An axis-aligned box; (x, y) is the top-left corner.
struct Box {
  double x = 0, y = 0, w = 0, h = 0;
  double right() const { return x + w; }
  double bottom() const { return y + h; }
  double cx() const { return x + w / 2; }
  /// True when the interiors overlap (touching edges do not count).
  bool overlaps(const Box& o) const {
    return x < o.right() && o.x < right() && y < o.bottom() && o.y < bottom();
  }
};

/// Where a node must sit regardless of its edges (group ports).
enum class Pin : std::uint8_t { None, Top, Bottom };

struct LayeredGraph {
  struct Node {
    double w = 0, h = 0;
    Pin pin = Pin::None;
  };
  /// Node order is the preferred order: topological where possible.
  std::vector<Node> nodes;
  /// (from, to) node indices; duplicates and self loops are ignored.
  std::vector<std::pair<int, int>> edges;
};

struct LayeredOptions {
  double layer_gap = 36;     ///< vertical room between layers, where edges bend
  double node_gap = 18;      ///< horizontal room between neighbours in a layer
  double dummy_width = 6;    ///< width an edge passing through a layer reserves
  int ordering_sweeps = 10;  ///< bound on barycenter down+up sweep pairs
  int placement_sweeps = 8;  ///< coordinate sweeps (alternating down / up)
  /// Adjacent-swap refinement runs only up to this many nodes (dummies included).
  std::size_t transpose_limit = 4000;
};

struct LayeredResult {
  std::vector<Box> nodes;  ///< per input node
  std::vector<int> layer;  ///< per input node
  struct Edge {
    int from = 0, to = 0;       ///< input node indices, as given
    std::vector<Point> points;  ///< polyline from `from`'s bottom to `to`'s top
    bool reversed = false;      ///< drawn against the layering (breaks a cycle)
  };
  std::vector<Edge> edges;  ///< one per distinct (from, to), self loops dropped
  double width = 0, height = 0;
  std::size_t crossings = 0;    ///< edge crossings between adjacent layers after ordering
  std::size_t dummy_count = 0;  ///< dummy nodes inserted for long edges
  int layer_count = 0;
};

LayeredResult layered_layout(const LayeredGraph& g, const LayeredOptions& options = {});

/// Number of pairwise crossings of the straight segments between two adjacent
/// layers; `edges` holds (position in upper layer, position in lower layer).
/// O(E log V) with an accumulator tree (Barth, Jünger, Mutzel 2002).
std::size_t count_bilayer_crossings(std::vector<std::pair<int, int>> edges, int lower_size);

}  // namespace ec::layout
