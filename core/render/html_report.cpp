#include "core/render/html_report.h"

#include <cmath>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/passes/graph_diff.h"
#include "core/render/graph_picture.h"
#include "core/render/resources.h"
#include "core/report/model_summary.h"

namespace ec::render {
namespace {

using nlohmann::json;

json scene_json(GraphPicture& pic, const std::string& name) {
  const layout::Scene& sc = pic.layout().layout();
  json nodes = json::array(), edges = json::array(), expanded = json::array();
  for (const auto& n : sc.nodes) {
    const int kind = n.kind == layout::Scene::Kind::Item ? 0 : n.kind == layout::Scene::Kind::CollapsedGroup ? 1 : 2;
    nodes.push_back({kind, n.id, std::lround(n.box.x), std::lround(n.box.y), std::lround(n.box.w), std::lround(n.box.h)});
  }
  for (const auto& e : sc.edges) {
    if (e.points.size() < 2) continue;
    json pts = json::array();
    for (const auto& p : e.points) {
      pts.push_back(std::lround(p.x));
      pts.push_back(std::lround(p.y));
    }
    edges.push_back(std::move(pts));
  }
  for (std::size_t g = 1; g < pic.layout().group_count(); ++g)
    if (pic.layout().expanded(int(g))) expanded.push_back(g);
  return {{"name", name}, {"w", std::lround(sc.width)}, {"h", std::lround(sc.height)},
          {"nodes", std::move(nodes)}, {"edges", std::move(edges)}, {"expanded", std::move(expanded)}};
}

json overlay_json(const Overlay& o) {
  json legend = json::array();
  for (const auto& e : o.legend) legend.push_back({e.colour, e.label});
  json values = json::array();
  for (const auto& v : o.value) values.push_back(v ? json(std::round(*v * 1000) / 1000) : json());
  return {{"title", o.title}, {"fill", o.fill}, {"note", o.note}, {"value", values}, {"legend", legend}};
}

// The parts of a report the page shows (big per-tensor histograms left out).
json pick(const json& j, std::initializer_list<const char*> keys) {
  json out = json::object();
  for (const char* k : keys)
    if (auto it = j.find(k); it != j.end()) out[k] = *it;
  return out;
}

std::string type_text(const ir::Tensor* t) {
  if (!t) return "?";
  return std::string(ir::dtype_name(t->dtype)) + t->shape.to_string();
}

}  // namespace

std::string make_html_report(const ir::Graph& g, const Evidence& ev, const HtmlReportOptions& opt) {
  GraphPicture pic(g);
  json data;
  data["generator"] = "edgecompiler";
  const report::ModelSummary summary = report::summarize(g, opt.model_path);
  data["summary"] = report::to_json(summary);
  data["model"] = {{"name", g.name}, {"path", opt.model_path}, {"ops", g.ops.size()}};

  // Items: ops, then graph inputs, then outputs (core/layout/ir_input.h).
  json items = json::array();
  for (std::size_t i = 0; i < pic.texts().size(); ++i) {
    const ItemText& t = pic.texts()[i];
    items.push_back({t.title, t.detail, t.shape, t.fill});
  }
  data["items"] = std::move(items);
  json ops = json::array();
  for (const auto& op : g.ops) {
    std::string attrs;
    for (const auto& [k, v] : op.attributes) attrs += (attrs.empty() ? "" : "; ") + k + "=" + passes::format_attribute(v);
    std::string ins;
    for (const auto& in : op.inputs) {
      if (in.empty()) continue;
      const ir::Tensor* t = g.find_tensor(in);
      if (t && t->is_constant()) continue;
      ins += (ins.empty() ? "" : ", ") + type_text(t);
    }
    ops.push_back({op.name, attrs.size() > 400 ? attrs.substr(0, 400) + "\u2026" : attrs, ins});
  }
  data["ops"] = std::move(ops);
  json groups = json::array();
  for (const auto& grp : pic.tree().groups) groups.push_back({grp.label, grp.parent, grp.depth, grp.item_count});
  data["groups"] = std::move(groups);

  // Scenes: the workbench's first view, each nesting depth (small graphs), everything.
  json scenes = json::array();
  pic.first_view();
  scenes.push_back(scene_json(pic, "overview"));
  const int depth = pic.max_depth();
  if (g.ops.size() <= opt.all_depths_max_ops)
    for (int d = 1; d <= depth; ++d) {
      pic.collapse_below(d);
      scenes.push_back(scene_json(pic, "depth " + std::to_string(d)));
    }
  pic.collapse_below(-1);
  scenes.push_back(scene_json(pic, "all expanded"));
  data["scenes"] = std::move(scenes);

  json overlays = json::object();
  if (ev.compile) overlays["placement"] = overlay_json(make_overlay(g, OverlayKind::Placement, ev));
  if (ev.quant) overlays["sqnr"] = overlay_json(make_overlay(g, OverlayKind::Sqnr, ev));
  if (ev.bench) {
    try {
      overlays["latency"] = overlay_json(make_overlay(g, OverlayKind::Latency, ev));
    } catch (const EdgeCompilerError&) {
      // a benchmark without a per-op profile: statistics only
    }
  }
  overlays["diff"] = overlay_json(make_overlay(g, OverlayKind::Diff, ev));
  data["overlays"] = std::move(overlays);

  if (ev.compile)
    data["compile"] = pick(*ev.compile, {"model", "target", "target_reason", "backend", "quantize", "output", "verified_by",
                                         "ops", "partition", "status_table", "backend_timeline", "estimate", "notes"});
  if (ev.quant) {
    json q = pick(*ev.quant, {"strategy", "per_channel", "calibration_samples", "data_source", "measured_samples",
                              "outputs", "float_ops", "warnings"});
    json layers = json::array();
    if (auto it = ev.quant->find("layers"); it != ev.quant->end() && it->is_array())
      for (const auto& l : *it)
        layers.push_back(pick(l, {"op", "op_type", "per_channel", "hybrid", "weight_sqnr_db", "output_sqnr_db", "channel_sqnr_db"}));
    q["layers"] = std::move(layers);
    json tensors = json::array();
    if (auto it = ev.quant->find("tensors"); it != ev.quant->end() && it->is_array())
      for (const auto& t : *it) tensors.push_back(pick(t, {"tensor", "producer", "sqnr_db", "clip_fraction"}));
    q["tensors"] = std::move(tensors);
    data["quant"] = std::move(q);
  }
  if (ev.bench)
    data["bench"] = pick(*ev.bench, {"model", "init_ms", "first_inference_ms", "warmup", "warmup_mean_ms", "iterations",
                                     "mean_ms", "stdev_ms", "min_ms", "max_ms", "p50_ms", "p90_ms", "p95_ms", "p99_ms",
                                     "throughput_per_s", "peak_memory_mib", "arena_bytes", "threads", "latencies_ms",
                                     "top_ops", "ms_by_op_type", "run_id", "inputs"});

  std::string data_text = data.dump(-1, ' ', false, json::error_handler_t::replace);
  // Inside <script type="application/json">: "</" would end the element.
  std::string safe;
  safe.reserve(data_text.size() + 64);
  for (std::size_t i = 0; i < data_text.size(); ++i) {
    if (data_text[i] == '<' && i + 1 < data_text.size() && data_text[i + 1] == '/') {
      safe += "<\\/";
      ++i;
    } else {
      safe += data_text[i];
    }
  }

  const std::string_view tmpl = resource("report.html");
  if (tmpl.empty()) throw EdgeCompilerError(ErrorKind::Io, "the HTML report template was not built in");
  const std::pair<std::string_view, std::string> parts[] = {
      {"{{TITLE}}", xml_escape(g.name + " \u2014 edgecompiler report")},
      {"{{CSS}}", std::string(resource("report.css"))},
      {"{{DATA}}", safe},
      {"{{SCRIPT}}", std::string(resource("report.js"))},
  };
  // Each marker once, in template order; inserted text is never searched again.
  std::string out;
  std::size_t pos = 0;
  for (const auto& [marker, text] : parts) {
    const std::size_t at = tmpl.find(marker, pos);
    if (at == std::string_view::npos) throw EdgeCompilerError(ErrorKind::Io, "the HTML report template lacks " + std::string(marker));
    out.append(tmpl.substr(pos, at - pos));
    out += text;
    pos = at + marker.size();
  }
  out.append(tmpl.substr(pos));
  return out;
}

}  // namespace ec::render
