// The graph as a picture, laid out as the workbench lays it out: the same item
// texts (op type, key attributes, output type), the same layered layout grouped by
// name scope (core/layout), the same category colours. Used by `edgecompile draw`
// (SVG, PNG) and the HTML report (scenes at several expansion states).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/layout/compound_layout.h"
#include "core/layout/ir_input.h"
#include "core/render/overlay.h"

namespace ec::render {

/// What each layout item shows.
struct ItemText {
  std::string title;   ///< op type, or the graph input/output name
  std::string detail;  ///< key attributes ("k 3×3 s 2")
  std::string shape;   ///< output types ("f32[1,32,112,112]")
  std::string fill;    ///< category colour "#rrggbb"
};

/// A graph prepared for drawing: texts, sizes and the compound layout.
class GraphPicture {
 public:
  /// `scope` non-empty: only ops whose name lies in that scope ("/features/features.3",
  /// with or without the leading '/'); throws EdgeCompilerError(Usage) when none does.
  explicit GraphPicture(const ir::Graph& g, const std::string& scope = {});

  const ir::Graph& graph() const { return graph_; }
  const layout::IrItems& items() const { return items_; }
  const std::vector<ItemText>& texts() const { return texts_; }
  layout::CompoundLayout& layout() { return *layout_; }
  const layout::ScopeTree& tree() const { return layout_->tree(); }
  /// Original op index of each drawn op (== i unless a scope was chosen).
  const std::vector<std::size_t>& op_index() const { return op_index_; }

  /// Expansion: groups deeper than `depth` collapsed (depth < 0: all expanded).
  void collapse_below(int depth);
  /// The workbench's first view: the biggest groups expanded while at most `blocks` show.
  void first_view(std::size_t blocks = 40);
  int max_depth() const;

 private:
  ir::Graph graph_;
  std::vector<std::size_t> op_index_;
  layout::IrItems items_;
  std::vector<ItemText> texts_;
  std::unique_ptr<layout::CompoundLayout> layout_;
};

struct SvgOptions {
  std::string title;  ///< a line above the graph (model name, overlay)
  bool legend = true;
  /// Only this part of the scene (layout coordinates), e.g. what a view shows: nodes and
  /// edges outside it are left out and the rest is clipped to it. None: the whole scene.
  std::optional<layout::Box> region;
};

struct Drawing {
  std::string svg;
  double width = 0, height = 0;  ///< of the SVG, in px
  std::size_t op_nodes = 0, group_nodes = 0;
};

/// The current scene as a standalone SVG document: one `<g class="op">` per visible
/// op (`data-op` its index in the drawn graph), one `<g class="group">` per collapsed
/// group, one `<g class="legend">`. Ops are filled by the overlay when it colours them.
/// With `options.region`, only the nodes that intersect it.
Drawing draw_svg(GraphPicture& picture, const Overlay& overlay, const SvgOptions& options = {});

/// Rasterises an SVG document to PNG at `width` x `height` pixels (librsvg + cairo;
/// aspect kept, centred on white). Throws EdgeCompilerError when librsvg refuses it.
std::string svg_to_png(const std::string& svg, int width, int height);

/// "&amp;"-escaped text for XML/HTML.
std::string xml_escape(const std::string& s);

}  // namespace ec::render
