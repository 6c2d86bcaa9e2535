#include "core/render/graph_picture.h"

#include <algorithm>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <unordered_set>

#include <cairo.h>
#include <librsvg/rsvg.h>

#include "core/errors.h"
#include "core/ir/activation.h"

namespace ec::render {
namespace {

// Text metrics of the drawing (DejaVu Sans-like at 12 / 10 px), as the workbench's
// fonts size its boxes: padding, title line, body lines.
constexpr double kTitleChar = 7.2, kBodyChar = 6.0, kTitleLine = 15, kBodyLine = 13, kPadX = 8, kPadY = 5;
constexpr double kMargin = 16, kHeader = 28;

std::string category_fill(const ir::Operation& op) {
  using C = ir::OpCategory;
  if (!op.is_known()) return "#f4a6a6";
  switch (ir::op_info(op.kind).category) {
    case C::Convolution: return "#9cc3e6";
    case C::Linear: return "#8fb8de";
    case C::Pooling: return "#b5d9a8";
    case C::Normalization: return "#c9b8e0";
    case C::Activation: return "#f3c28c";
    case C::Elementwise: return "#e8e19a";
    case C::Logic: return "#d9d9d9";
    case C::Reduction: return "#a8d8d0";
    case C::DataMovement: return "#e0e0e8";
    case C::Generator: return "#f0d0e0";
    default: return "#dcdcdc";
  }
}

std::string list_text(const std::vector<std::int64_t>& v, const char* sep) {
  std::string s;
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

// The workbench's key attributes (widgets/OpFormat.cpp keyAttributesText).
std::string key_attributes(const ir::Operation& op) {
  static const struct { const char* key; const char* short_name; } kKnown[] = {
      {"kernel_shape", "k"}, {"strides", "s"}, {"group", "g"}, {"axis", "axis"},
      {"perm", "perm"}, {"pads", "p"}, {"dilations", "d"}, {"epsilon", "eps"}};
  std::string out;
  for (const auto& k : kKnown) {
    const ir::Attribute* a = op.attr(k.key);
    if (!a) continue;
    std::string text;
    const std::string key = k.key;
    if (const auto* ints = std::get_if<std::vector<std::int64_t>>(a)) {
      const bool uniform = !ints->empty() && std::all_of(ints->begin(), ints->end(), [&](auto x) { return x == ints->front(); });
      if ((key == "pads" || key == "dilations") && uniform && ints->front() == (key == "pads" ? 0 : 1)) continue;
      if (key == "strides" && uniform && ints->front() == 1) continue;
      text = key == "perm" ? "[" + list_text(*ints, ",") + "]" : list_text(*ints, "\u00d7");
    } else if (const auto* i = std::get_if<std::int64_t>(a)) {
      if (key == "group" && *i == 1) continue;
      text = std::to_string(*i);
    } else if (const auto* f = std::get_if<double>(a)) {
      char b[32];
      std::snprintf(b, sizeof b, "%g", *f);
      text = b;
    } else {
      continue;
    }
    if (!out.empty()) out += "  ";
    out += std::string(k.short_name) + " " + text;
  }
  if (const ir::Activation act = ir::fused_activation(op); act != ir::Activation::None)
    out += (out.empty() ? "" : "  ") + std::string("+") + std::string(ir::activation_name(act));
  return out;
}

std::string type_text(const ir::Tensor* t) {
  if (!t) return "?";
  return std::string(ir::dtype_name(t->dtype)) + t->shape.to_string();
}

// Characters of UTF-8 text (continuation bytes not counted).
std::size_t chars(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}

std::string elide(const std::string& s, std::size_t max) {
  if (chars(s) <= max) return s;
  std::string out;
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size() && n < max - 1; ++i) {
    out += s[i];
    if ((static_cast<unsigned char>(s[i]) & 0xc0) != 0x80) ++n;
    while (i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) & 0xc0) == 0x80) out += s[++i];
  }
  return out + "\u2026";
}

bool in_scope(const std::string& name, const std::string& scope) {
  return name.size() > scope.size() && name.compare(0, scope.size(), scope) == 0 && name[scope.size()] == '/';
}

// Whether a "#rrggbb" fill is dark enough to need light text (relative luminance < 0.45).
bool is_dark(const std::string& fill) {
  if (fill.size() != 7 || fill[0] != '#') return false;
  const auto channel = [&](std::size_t at) { return double(std::strtol(fill.substr(at, 2).c_str(), nullptr, 16)) / 255.0; };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5) < 0.45;
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string o;
  o.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&': o += "&amp;"; break;
      case '<': o += "&lt;"; break;
      case '>': o += "&gt;"; break;
      case '"': o += "&quot;"; break;
      case '\'': o += "&#39;"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t') o += ' ';
        else o += c;
    }
  }
  return o;
}

GraphPicture::GraphPicture(const ir::Graph& g, const std::string& scope_arg) {
  if (scope_arg.empty()) {
    graph_ = g;
    for (std::size_t i = 0; i < g.ops.size(); ++i) op_index_.push_back(i);
  } else {
    // The ops of one scope as a graph of their own: what they read from outside
    // becomes inputs, what leaves the scope (or the model) becomes outputs.
    std::string scope = scope_arg.front() == '/' ? scope_arg : "/" + scope_arg;
    while (scope.size() > 1 && scope.back() == '/') scope.pop_back();
    graph_.name = g.name + " " + scope;
    graph_.metadata = g.metadata;
    std::unordered_set<std::string> produced, consumed_outside;
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      if (in_scope(g.ops[i].name, scope)) {
        op_index_.push_back(i);
        graph_.ops.push_back(g.ops[i]);
        for (const auto& o : g.ops[i].outputs) produced.insert(o);
      } else {
        for (const auto& t : g.ops[i].inputs) consumed_outside.insert(t);
      }
    }
    if (graph_.ops.empty())
      throw EdgeCompilerError(ErrorKind::Usage, "--scope " + scope_arg + ": no op of '" + g.name + "' is in that scope");
    std::unordered_set<std::string> seen;
    for (const auto& op : graph_.ops) {
      for (const auto& t : op.inputs) {
        if (t.empty()) continue;
        const ir::Tensor* tt = g.find_tensor(t);
        if (tt) graph_.add_tensor(*tt);
        if (!produced.count(t) && tt && !tt->is_constant() && seen.insert(t).second) graph_.inputs.push_back(t);
      }
      for (const auto& t : op.outputs) {
        if (t.empty()) continue;
        if (const ir::Tensor* tt = g.find_tensor(t)) graph_.add_tensor(*tt);
        const bool model_out = std::find(g.outputs.begin(), g.outputs.end(), t) != g.outputs.end();
        if (consumed_outside.count(t) || model_out) graph_.outputs.push_back(t);
      }
    }
  }

  layout::CompoundInput in = layout::make_compound_input(graph_, &items_);
  texts_.resize(in.items.size());
  const std::size_t n_ops = items_.ops;
  for (std::size_t i = 0; i < in.items.size(); ++i) {
    ItemText& t = texts_[i];
    if (i < n_ops) {
      const auto& op = graph_.ops[i];
      t.title = op.op_type;
      t.detail = key_attributes(op);
      std::string shapes;
      for (const auto& out : op.outputs)
        if (!out.empty()) shapes += (shapes.empty() ? "" : ", ") + type_text(graph_.find_tensor(out));
      t.shape = shapes;
      t.fill = category_fill(op);
    } else {
      const bool input = i < items_.first_output();
      t.title = input ? graph_.inputs[i - items_.first_input()] : graph_.outputs[i - items_.first_output()];
      t.shape = type_text(graph_.find_tensor(t.title));
      t.fill = "#ffffff";
    }
    t.title = elide(t.title, 36);
    t.detail = elide(t.detail, 44);
    t.shape = elide(t.shape, 44);
    double w = chars(t.title) * kTitleChar;
    if (!t.detail.empty()) w = std::max(w, chars(t.detail) * kBodyChar);
    if (!t.shape.empty()) w = std::max(w, chars(t.shape) * kBodyChar);
    in.items[i].w = std::clamp(std::ceil(w) + 2 * kPadX, 64.0, 300.0);
    in.items[i].h = std::ceil(2 * kPadY + kTitleLine + (t.detail.empty() ? 0 : kBodyLine) + (t.shape.empty() ? 0 : kBodyLine));
  }
  layout::CompoundOptions options;
  options.char_width = kTitleChar;
  options.collapsed_height = std::ceil(2 * kPadY + kTitleLine + kBodyLine);
  layout_ = std::make_unique<layout::CompoundLayout>(std::move(in), options);
  layout_->expand_all();
}

int GraphPicture::max_depth() const {
  int d = 0;
  for (const auto& g : tree().groups) d = std::max(d, g.depth);
  return d;
}

void GraphPicture::collapse_below(int depth) {
  for (std::size_t g = 1; g < layout_->group_count(); ++g)
    layout_->set_expanded(int(g), depth < 0 || tree().groups[g].depth < depth);
}

void GraphPicture::first_view(std::size_t blocks) { layout_->expand_to_budget(blocks); }

Drawing draw_svg(GraphPicture& pic, const Overlay& overlay, const SvgOptions& opt) {
  Drawing out;
  const layout::Scene& scene = pic.layout().layout();
  const auto& texts = pic.texts();
  const auto& tree = pic.tree();
  const std::size_t n_ops = pic.items().ops;
  const bool coloured = overlay.kind != OverlayKind::None;
  const bool legend = opt.legend;
  // Legend: under the title, one row of swatches.
  const double legend_h = legend ? 24 : 0;
  const double top = kMargin + (opt.title.empty() ? 0 : kHeader) + legend_h;
  double legend_w = 0;
  std::vector<LegendEntry> entries = overlay.legend;
  if (!coloured) entries = {{"#9cc3e6", "convolution"}, {"#8fb8de", "linear"}, {"#f3c28c", "activation"},
                            {"#e8e19a", "element-wise"}, {"#b5d9a8", "pooling"}, {"#e0e0e8", "data movement"}};
  for (const auto& e : entries) legend_w += 22 + chars(e.label) * kBodyChar + 14;
  // The part of the scene drawn: all of it, or the region asked for (clipped to the scene).
  layout::Box area{0, 0, scene.width, scene.height};
  if (opt.region) {
    const double x0 = std::max(0.0, opt.region->x), y0 = std::max(0.0, opt.region->y);
    const double x1 = std::min(scene.width, opt.region->x + opt.region->w);
    const double y1 = std::min(scene.height, opt.region->y + opt.region->h);
    area = {x0, y0, std::max(1.0, x1 - x0), std::max(1.0, y1 - y0)};
  }
  auto outside = [&](const layout::Box& b) {
    return b.x > area.x + area.w || b.x + b.w < area.x || b.y > area.y + area.h || b.y + b.h < area.y;
  };
  const double width = std::max(area.w, std::max(legend_w, chars(opt.title) * 8.0)) + 2 * kMargin;
  const double height = area.h + top + kMargin;

  std::ostringstream s;
  s << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << fmt(width) << "\" height=\"" << fmt(height)
    << "\" viewBox=\"0 0 " << fmt(width) << ' ' << fmt(height) << "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\">\n"
    << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n";
  if (!opt.title.empty())
    s << "<text x=\"" << kMargin << "\" y=\"" << kMargin + 14 << "\" font-size=\"15\" font-weight=\"bold\">"
      << xml_escape(opt.title) << "</text>\n";
  if (legend) {
    s << "<g class=\"legend\" font-size=\"11\">\n";
    double x = kMargin;
    const double y = kMargin + (opt.title.empty() ? 0 : kHeader);
    for (const auto& e : entries) {
      s << "<rect x=\"" << fmt(x) << "\" y=\"" << fmt(y) << "\" width=\"16\" height=\"12\" rx=\"2\" fill=\"" << e.colour
        << "\" stroke=\"#555\" stroke-width=\"0.5\"/><text x=\"" << fmt(x + 22) << "\" y=\"" << fmt(y + 10) << "\">"
        << xml_escape(e.label) << "</text>\n";
      x += 22 + chars(e.label) * kBodyChar + 14;
    }
    s << "</g>\n";
  }
  if (opt.region)
    s << "<clipPath id=\"region\"><rect x=\"" << fmt(area.x) << "\" y=\"" << fmt(area.y) << "\" width=\"" << fmt(area.w)
      << "\" height=\"" << fmt(area.h) << "\"/></clipPath>\n";
  s << "<g transform=\"translate(" << fmt(kMargin - area.x) << ',' << fmt(top - area.y) << ")\""
    << (opt.region ? " clip-path=\"url(#region)\"" : "") << ">\n";
  // Group frames first (paint order), then edges, then boxes.
  for (const auto& node : scene.nodes) {
    if (node.kind != layout::Scene::Kind::GroupFrame) continue;
    const auto& b = node.box;
    if (outside(b)) continue;
    s << "<g class=\"frame\"><rect x=\"" << fmt(b.x) << "\" y=\"" << fmt(b.y) << "\" width=\"" << fmt(b.w) << "\" height=\""
      << fmt(b.h) << "\" rx=\"6\" fill=\"#f5f7fa\" stroke=\"#b0b8c4\" stroke-dasharray=\"4 3\"/><text x=\"" << fmt(b.x + 8)
      << "\" y=\"" << fmt(b.y + 15) << "\" font-size=\"11\" fill=\"#445\">" << xml_escape(tree.groups[std::size_t(node.id)].label)
      << "</text></g>\n";
  }
  s << "<g class=\"edges\" fill=\"none\" stroke=\"#8a94a3\" stroke-width=\"1.2\">\n";
  for (const auto& e : scene.edges) {
    if (e.points.size() < 2) continue;
    if (opt.region) {
      double x0 = e.points[0].x, x1 = x0, y0 = e.points[0].y, y1 = y0;
      for (const auto& p : e.points) x0 = std::min(x0, p.x), x1 = std::max(x1, p.x), y0 = std::min(y0, p.y), y1 = std::max(y1, p.y);
      if (outside({x0, y0, x1 - x0, y1 - y0})) continue;
    }
    s << "<polyline points=\"";
    for (std::size_t i = 0; i < e.points.size(); ++i) s << (i ? " " : "") << fmt(e.points[i].x) << ',' << fmt(e.points[i].y);
    s << "\"/>\n";
  }
  s << "</g>\n";
  for (const auto& node : scene.nodes) {
    const auto& b = node.box;
    if (node.kind != layout::Scene::Kind::GroupFrame && outside(b)) continue;
    if (node.kind == layout::Scene::Kind::CollapsedGroup) {
      const auto& grp = tree.groups[std::size_t(node.id)];
      s << "<g class=\"group\" data-group=\"" << node.id << "\"><rect x=\"" << fmt(b.x) << "\" y=\"" << fmt(b.y)
        << "\" width=\"" << fmt(b.w) << "\" height=\"" << fmt(b.h) << "\" rx=\"6\" fill=\"#eef1f6\" stroke=\"#6b7685\" stroke-width=\"1.5\"/>"
        << "<text x=\"" << fmt(b.x + kPadX) << "\" y=\"" << fmt(b.y + kPadY + 12) << "\" font-size=\"12\" font-weight=\"bold\">"
        << xml_escape(elide(grp.label, 40)) << "</text><text x=\"" << fmt(b.x + kPadX) << "\" y=\"" << fmt(b.y + kPadY + 12 + kBodyLine)
        << "\" font-size=\"10\" fill=\"#555\">" << grp.item_count << " ops</text></g>\n";
      ++out.group_nodes;
      continue;
    }
    if (node.kind != layout::Scene::Kind::Item) continue;
    const std::size_t i = std::size_t(node.id);
    const ItemText& t = texts[i];
    const bool is_op = i < n_ops;
    out.op_nodes += is_op;
    std::string fill = t.fill;
    if (is_op && coloured) {
      const std::size_t orig = pic.op_index()[i];
      fill = orig < overlay.fill.size() && !overlay.fill[orig].empty() ? overlay.fill[orig] : "#f0f0f0";
    }
    s << "<g class=\"" << (is_op ? "op" : "io") << "\"" << (is_op ? " data-op=\"" + std::to_string(i) + "\"" : "") << ">";
    if (is_op) {
      std::string tip = pic.graph().ops[i].name;
      const std::size_t orig = pic.op_index()[i];
      if (coloured && orig < overlay.note.size() && !overlay.note[orig].empty()) tip += "\n" + overlay.note[orig];
      s << "<title>" << xml_escape(tip) << "</title>";
    }
    s << "<rect x=\"" << fmt(b.x) << "\" y=\"" << fmt(b.y) << "\" width=\"" << fmt(b.w) << "\" height=\"" << fmt(b.h) << "\" rx=\""
      << (is_op ? 4 : 10) << "\" fill=\"" << fill << "\" stroke=\"#4a5260\"/>";
    double y = b.y + kPadY + 11;
    // Text stays readable on a dark overlay fill (viridis' low end): white, as the view draws it.
    const bool dark = is_dark(fill);
    s << "<text x=\"" << fmt(b.x + kPadX) << "\" y=\"" << fmt(y) << "\" font-size=\"12\" font-weight=\"bold\""
      << (dark ? " fill=\"#ffffff\"" : "") << ">" << xml_escape(t.title) << "</text>";
    for (const std::string* line : {&t.detail, &t.shape}) {
      if (line->empty()) continue;
      y += kBodyLine;
      s << "<text x=\"" << fmt(b.x + kPadX) << "\" y=\"" << fmt(y) << "\" font-size=\"10\" fill=\"" << (dark ? "#eeeeee" : "#333") << "\">" << xml_escape(*line) << "</text>";
    }
    s << "</g>\n";
  }
  s << "</g>\n</svg>\n";
  out.svg = s.str();
  out.width = width;
  out.height = height;
  return out;
}

std::string svg_to_png(const std::string& svg, int width, int height) {
  GError* err = nullptr;
  RsvgHandle* h = rsvg_handle_new_from_data(reinterpret_cast<const guint8*>(svg.data()), svg.size(), &err);
  if (!h) {
    std::string why = err ? err->message : "unknown error";
    if (err) g_error_free(err);
    throw EdgeCompilerError(ErrorKind::Input, "librsvg refused the drawing: " + why);
  }
  cairo_surface_t* surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height);
  cairo_t* cr = cairo_create(surface);
  cairo_set_source_rgb(cr, 1, 1, 1);
  cairo_paint(cr);
  RsvgRectangle viewport{0, 0, double(width), double(height)};  // aspect kept, centred
  const gboolean ok = rsvg_handle_render_document(h, cr, &viewport, &err);
  std::string why = ok ? "" : (err ? err->message : "render failed");
  if (err) g_error_free(err);
  cairo_surface_flush(surface);
  std::string png;
  if (ok) {
    cairo_surface_write_to_png_stream(
        surface,
        [](void* closure, const unsigned char* data, unsigned int length) {
          static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
          return CAIRO_STATUS_SUCCESS;
        },
        &png);
  }
  cairo_destroy(cr);
  cairo_surface_destroy(surface);
  g_object_unref(h);
  if (!ok) throw EdgeCompilerError(ErrorKind::Input, "librsvg could not render the drawing: " + why);
  return png;
}

}  // namespace ec::render
