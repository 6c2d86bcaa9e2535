#include "app/workbench/GraphExport.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/render/graph_picture.h"
#include "widgets/GraphView.h"

namespace ec::workbench {

GraphPictureJob graphPictureJob(const ec::widgets::GraphView& view, GraphArea area, bool png,
                                const QString& title) {
  GraphPictureJob job;
  job.graph = view.graph();
  job.png = png;
  job.expanded.resize(std::size_t(std::max(0, view.groupCount())));
  for (int g = 0; g < view.groupCount(); ++g) job.expanded[std::size_t(g)] = view.isGroupExpanded(g);
  const auto shown = view.overlayPicture();
  std::string heading = title.toStdString();
  if (!shown.fill.empty()) {
    // The view's colours exactly; kind only says "coloured" to the drawing.
    job.overlay.kind = ec::render::OverlayKind::Placement;
    job.overlay.title = shown.title.toStdString();
    job.overlay.fill.reserve(shown.fill.size());
    for (const QColor& c : shown.fill) job.overlay.fill.push_back(c.isValid() ? c.name().toStdString() : std::string());
    for (const auto& [label, colour] : shown.legend)
      job.overlay.legend.push_back({colour.name().toStdString(), label.toStdString()});
    if (!job.overlay.title.empty()) heading += " \u2014 " + job.overlay.title;
  }
  job.title = heading;
  if (area == GraphArea::Visible) {
    job.visibleOnly = true;
    view.visibleNodes(&job.items, &job.groups);
  }
  return job;
}

std::string renderGraphPicture(const GraphPictureJob& job, std::size_t* opNodes) {
  ec::render::GraphPicture picture(*job.graph);
  auto& layout = picture.layout();
  // The view and the picture build the same scope tree from the same graph.
  if (job.expanded.size() == layout.group_count()) {
    for (std::size_t g = 1; g < layout.group_count(); ++g) layout.set_expanded(int(g), job.expanded[g] != 0);
  } else {
    picture.first_view();
  }
  ec::render::SvgOptions options;
  options.title = job.title;
  if (job.visibleOnly) {
    // The part of the drawing holding what the view shows (its own boxes measure text
    // with the screen's fonts, so the view's rectangle itself would not fit).
    const auto& scene = layout.layout();
    double x0 = std::numeric_limits<double>::max(), y0 = x0, x1 = -x0, y1 = -x0;
    auto take = [&](int node) {
      if (node < 0) return;
      const auto& b = scene.nodes[std::size_t(node)].box;
      x0 = std::min(x0, b.x), y0 = std::min(y0, b.y), x1 = std::max(x1, b.right()), y1 = std::max(y1, b.bottom());
    };
    for (int item : job.items)
      if (item >= 0 && std::size_t(item) < scene.node_of_item.size()) take(scene.node_of_item[std::size_t(item)]);
    for (int group : job.groups)
      if (group >= 0 && std::size_t(group) < scene.node_of_group.size()) take(scene.node_of_group[std::size_t(group)]);
    constexpr double kPad = 12;
    if (x1 >= x0) options.region = ec::layout::Box{x0 - kPad, y0 - kPad, x1 - x0 + 2 * kPad, y1 - y0 + 2 * kPad};
    else options.region = ec::layout::Box{0, 0, 1, 1};  // nothing on screen
  }
  const ec::render::Drawing drawing = ec::render::draw_svg(picture, job.overlay, options);
  if (opNodes) *opNodes = drawing.op_nodes;
  if (!job.png) return drawing.svg;
  const double aspect = drawing.height / drawing.width;
  // The drawing's own size, at most maxPngWidth wide, and within what cairo can hold
  // (32767 px a side) and 64 million pixels (256 MB).
  double wf = std::min(drawing.width, double(job.maxPngWidth));
  wf = std::min({wf, 32767.0 / aspect, std::sqrt(64e6 / aspect)});
  const int w = std::max(1, int(wf));
  const int h = std::max(1, int(std::lround(w * aspect)));
  return ec::render::svg_to_png(drawing.svg, w, h);
}

}  // namespace ec::workbench
