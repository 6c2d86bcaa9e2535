// The graph as a picture file, as the graph view shows it (File › Export › Graph as
// SVG / PNG). "Whole graph": core/render's drawing (the one `edgecompile draw` and the
// HTML report make) with the view's expanded groups and the overlay it paints, so the
// file shows what the window shows, all of it. "Visible area": a PNG is the view's own
// pixels (legend strip above the graph); an SVG is the same drawing cut to the ops,
// inputs, outputs and groups on screen.
//
// A job is taken from the view on the GUI thread (graphPictureJob) and rendered on any
// thread (renderGraphPicture): laying out and rasterising a big graph takes seconds.
#pragma once

#include <string>
#include <vector>

#include <QImage>
#include <QString>

#include "core/ir/graph.h"
#include "core/render/overlay.h"

namespace ec::widgets {
class GraphView;
}

namespace ec::workbench {

enum class GraphArea { Whole, Visible };

/// Everything a picture of the view needs, copied from it (immutable afterwards).
struct GraphPictureJob {
  ec::ir::FrozenGraph graph;
  std::vector<char> expanded;        ///< per group of the view's scope tree (0: root)
  ec::render::Overlay overlay;       ///< the fills the view paints (kind None: none)
  std::string title;                 ///< the line above the graph
  bool visibleOnly = false;          ///< cut to `items`/`groups` (what the view shows)
  std::vector<int> items, groups;    ///< layout items and collapsed groups on screen
  bool png = false;
  int maxPngWidth = 8192;            ///< as `edgecompile draw` without --width
};

/// What the view shows now, as a job. `title` names the model.
GraphPictureJob graphPictureJob(const ec::widgets::GraphView& view, GraphArea area, bool png,
                                const QString& title);

/// The file's bytes: an SVG document or a PNG. `opNodes` gets the op boxes drawn. Throws
/// the core's EdgeCompilerError (librsvg refused the drawing).
std::string renderGraphPicture(const GraphPictureJob& job, std::size_t* opNodes = nullptr);

}  // namespace ec::workbench
