// `edgecompile draw MODEL --output g.svg|g.png [--overlay placement|sqnr|latency|diff]
//  [--compile-report R.json] [--quant-report Q.json] [--bench B.json | --run ID]
//  [--collapse DEPTH] [--scope NAME] [--width W] [--height H]`: the graph as a picture,
// laid out as the workbench lays it out (core/render), from a terminal with no display.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/evidence.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/render/graph_picture.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct DrawOptions {
  std::string model, output, overlay = "none", scope;
  int collapse = -1;
  int width = 0, height = 0;
  EvidenceOptions evidence;
};

bool ends_with(const std::string& s, const std::string& e) {
  return s.size() >= e.size() && s.compare(s.size() - e.size(), e.size(), e) == 0;
}

int run_draw(const DrawOptions& o) {
  const bool png = ends_with(o.output, ".png");
  if (!png && !ends_with(o.output, ".svg"))
    throw EdgeCompilerError(ErrorKind::Usage, "--output " + o.output + ": name the picture *.svg or *.png");
  const auto overlay = render::overlay_from_name(o.overlay);
  if (!overlay) throw EdgeCompilerError(ErrorKind::Usage, "--overlay " + o.overlay + ": valid overlays: placement, sqnr, latency, diff");
  if ((o.width || o.height) && !png) throw EdgeCompilerError(ErrorKind::Usage, "--width/--height are for .png outputs");
  flows::check_writable(o.output, "--output");

  const ir::Graph g = frontends::open_model(o.model);
  const render::Evidence ev = load_evidence(g, o.evidence);
  const render::Overlay ov = render::make_overlay(g, *overlay, ev);
  render::GraphPicture pic(g, o.scope);
  pic.collapse_below(o.collapse);
  render::SvgOptions so;
  so.title = g.name + (o.scope.empty() ? "" : " \u2014 " + o.scope) + (ov.title.empty() ? "" : " \u2014 " + ov.title);
  const render::Drawing d = render::draw_svg(pic, ov, so);
  std::string bytes = d.svg;
  int w = 0, h = 0;
  if (png) {
    // The requested size; one side given: the other by the drawing's aspect; none: its own size
    // (at most 8192 px wide).
    const double aspect = d.height / d.width;
    w = o.width, h = o.height;
    if (!w && !h) w = int(std::min(d.width, 8192.0));
    if (!w) w = std::max(1, int(std::lround(h / aspect)));
    if (!h) h = std::max(1, int(std::lround(w * aspect)));
    if (double(w) * h > 400e6)
      throw EdgeCompilerError(ErrorKind::Usage, "--width x --height: " + std::to_string(w) + "x" + std::to_string(h) + " is more than 400 million pixels");
    bytes = render::svg_to_png(d.svg, w, h);
  }
  util::write_file_atomically(o.output, bytes);
  std::cout << "wrote " << o.output << " (" << bytes.size() << " bytes; " << d.op_nodes << " op boxes, " << d.group_nodes
            << " collapsed groups";
  if (png) std::cout << "; " << w << "x" << h << " px";
  std::cout << ")\n";
  return 0;
}

}  // namespace

Command add_draw_command(CLI::App& app) {
  auto o = std::make_shared<DrawOptions>();
  auto* cmd = app.add_subcommand("draw", "Draw the graph as SVG or PNG, laid out as the workbench lays it out");
  cmd->add_option("model", o->model, "Model file")->required();
  cmd->add_option("--output", o->output, "The picture to write (.svg or .png)")->required();
  cmd->add_option("--overlay", o->overlay, "Colour ops by placement, sqnr, latency or diff (what the default passes change)");
  add_evidence_options(cmd, o->evidence);
  cmd->add_option("--collapse", o->collapse, "Collapse name-scope groups at this nesting depth and deeper (1: top-level groups)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--scope", o->scope, "Draw only the ops of this name scope (e.g. /features/features.3)");
  cmd->add_option("--width", o->width, "PNG width in pixels")->check(CLI::Range(1, 65536));
  cmd->add_option("--height", o->height, "PNG height in pixels")->check(CLI::Range(1, 65536));
  return {cmd, [o] { return run_draw(*o); }};
}

}  // namespace ec::cli
