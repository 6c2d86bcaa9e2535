#include "core/render/overlay.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/passes/graph_diff.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/util/json_text.h"
#include "core/util/safe_file.h"

namespace ec::render {
namespace {

// Placement colours (the workbench's Partition panel: TPU green, CPU red, after-unsupported amber).
constexpr const char* kTarget = "#4caf50";
constexpr const char* kUnsupported = "#e53935";
constexpr const char* kAfter = "#fb8c00";
constexpr const char* kCpu = "#9e9e9e";
constexpr const char* kAne = "#43a047";
constexpr const char* kGpu = "#1e88e5";
constexpr const char* kOverride = "#8e24aa";
constexpr const char* kRemoved = "#e53935";
constexpr const char* kChanged = "#fbc02d";
constexpr const char* kSame = "#e0e0e0";

std::string fixed(double v, int digits) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", digits, v);
  return b;
}

// Op index by op name and by output tensor name (a TFLite unit is named after its output).
struct OpLookup {
  std::unordered_map<std::string, std::size_t> by_name;
  explicit OpLookup(const ir::Graph& g) {
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      if (!g.ops[i].name.empty()) by_name.emplace(g.ops[i].name, i);
    }
    for (std::size_t i = 0; i < g.ops.size(); ++i)
      for (const auto& o : g.ops[i].outputs)
        if (!o.empty()) by_name.emplace(o, i);
  }
  std::optional<std::size_t> find(const std::string& n) const {
    auto it = by_name.find(n);
    if (it == by_name.end()) return std::nullopt;
    return it->second;
  }
};

std::string str(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}
std::optional<double> num(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::vector<std::string> names_in(const nlohmann::json& r, const std::string& kind) {
  std::vector<std::string> out;
  auto collect = [&](const char* array, const char* key) {
    auto it = r.find(array);
    if (it == r.end() || !it->is_array()) return;
    for (const auto& row : *it) {
      if (!row.is_object()) continue;
      const std::string n = str(row, key);
      if (!n.empty()) out.push_back(n);
    }
  };
  if (kind == "compile") collect("ops", "name");
  if (kind == "quantisation") {
    collect("layers", "op");
    collect("tensors", "producer");
  }
  if (kind == "benchmark") collect("op_profile", "name");
  return out;
}

void require(const Evidence& e, const std::optional<nlohmann::json>& r, const char* flag, OverlayKind k) {
  (void)e;
  if (!r)
    throw EdgeCompilerError(ErrorKind::Usage, std::string("--overlay ") + overlay_name(k) + " needs " + flag);
}

}  // namespace

std::optional<OverlayKind> overlay_from_name(const std::string& n) {
  if (n == "placement") return OverlayKind::Placement;
  if (n == "sqnr") return OverlayKind::Sqnr;
  if (n == "latency") return OverlayKind::Latency;
  if (n == "diff") return OverlayKind::Diff;
  if (n == "none") return OverlayKind::None;
  return std::nullopt;
}

const char* overlay_name(OverlayKind k) {
  switch (k) {
    case OverlayKind::Placement: return "placement";
    case OverlayKind::Sqnr: return "sqnr";
    case OverlayKind::Latency: return "latency";
    case OverlayKind::Diff: return "diff";
    default: return "none";
  }
}

nlohmann::json read_report(const std::string& path, const std::string& flag) {
  const std::string what = flag + " " + path;
  const std::string text = util::read_regular_file(path, std::uint64_t{512} << 20, what);
  nlohmann::json j = util::parse_json(text, what);
  if (!j.is_object()) throw EdgeCompilerError(ErrorKind::Input, what + ": not a report (a JSON object)");
  return j;
}

void check_report_matches(const ir::Graph& g, const nlohmann::json& report, const std::string& path,
                          const std::string& kind) {
  const auto names = names_in(report, kind);
  if (names.empty()) return;
  const OpLookup ops(g);
  std::size_t matched = 0;
  for (const auto& n : names) matched += ops.find(n).has_value();
  if (matched * 2 < names.size())
    throw EdgeCompilerError(ErrorKind::Input,
                            path + ": a " + kind + " report of another model: " + std::to_string(matched) +
                                " of the " + std::to_string(names.size()) + " ops it names are ops of '" + g.name +
                                "'");
}

std::string ramp_colour(double v, double lo, double hi, bool high_is_good) {
  double t = hi > lo ? std::clamp((v - lo) / (hi - lo), 0.0, 1.0) : 1.0;
  if (!high_is_good) t = 1.0 - t;
  // red (0) -> yellow (0.5) -> green (1)
  const int r = t < 0.5 ? 229 : int(229 - (t - 0.5) * 2 * (229 - 67));
  const int gr = t < 0.5 ? int(57 + t * 2 * (192 - 57)) : int(192 - (t - 0.5) * 2 * (192 - 160));
  const int b = t < 0.5 ? int(53 - t * 2 * 0) : int(53 + (t - 0.5) * 2 * (71 - 53));
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, gr, b);
  return buf;
}

Overlay make_overlay(const ir::Graph& g, OverlayKind kind, const Evidence& ev) {
  Overlay o;
  o.kind = kind;
  const std::size_t n = g.ops.size();
  o.fill.assign(n, "");
  o.note.assign(n, "");
  o.value.assign(n, std::nullopt);
  const OpLookup ops(g);
  switch (kind) {
    case OverlayKind::None: return o;
    case OverlayKind::Placement: {
      require(ev, ev.compile, "--compile-report R.json", kind);
      const auto& r = *ev.compile;
      const std::string backend = str(r, "backend");
      // what the backend calls its placement (Capabilities::target_label: "TPU"); none for the reference
      std::string target_label = backend;
      bool reference = false;
      for (const auto& entry : backends::backend_table())
        if (entry.name == backend) {
          reference = entry.reference;
          if (auto l = entry.factory()->capabilities().target_label; !l.empty()) target_label = l;
        }
      std::map<std::string, std::size_t> counts;
      auto rows = r.find("ops");
      if (rows != r.end() && rows->is_array())
        for (const auto& row : *rows) {
          auto i = ops.find(str(row, "name"));
          if (!i) continue;
          const std::string placement = str(row, "placement"), cause = str(row, "cause"), unit = str(row, "unit");
          std::string colour, label;
          if (!unit.empty()) {
            colour = unit == "ANE" ? kAne : unit == "GPU" ? kGpu : kUnsupported;
            label = unit == "ANE" ? "ANE" : unit == "GPU" ? "GPU" : "CPU";
          } else if (cause == "unsupported") {
            colour = kUnsupported, label = "CPU: unsupported";
          } else if (cause == "after_unsupported") {
            colour = kAfter, label = "CPU: after the first unsupported op";
          } else if (cause == "override") {
            colour = kOverride, label = "override";
          } else if (placement == "target" && !reference) {
            colour = kTarget, label = target_label;
          } else {
            colour = kCpu, label = "CPU";
          }
          o.fill[*i] = colour;
          const std::string status = str(row, "status"), reason = str(row, "reason");
          o.note[*i] = label + (status.empty() ? "" : ": " + status) + (reason.empty() ? "" : " (" + reason + ")");
          if (counts[label]++ == 0) o.legend.push_back({colour, label});
        }
      o.title = "Placement: " + backend;
      for (auto& e : o.legend) e.label += " (" + std::to_string(counts[e.label]) + ")";
      return o;
    }
    case OverlayKind::Sqnr: {
      require(ev, ev.quant, "--quant-report Q.json", kind);
      const auto& r = *ev.quant;
      auto set = [&](const std::string& name, std::optional<double> v) {
        auto i = ops.find(name);
        if (!i || !v || o.value[*i]) return;
        o.value[*i] = *v;
      };
      if (auto it = r.find("layers"); it != r.end() && it->is_array())
        for (const auto& row : *it) set(str(row, "op"), num(row, "output_sqnr_db"));
      if (auto it = r.find("tensors"); it != r.end() && it->is_array())
        for (const auto& row : *it) set(str(row, "producer"), num(row, "sqnr_db"));
      std::unordered_set<std::size_t> float_ops;
      if (auto it = r.find("float_ops"); it != r.end() && it->is_array())
        for (const auto& row : *it)
          if (auto i = ops.find(str(row, "op"))) {
            o.note[*i] = "kept float: " + str(row, "reason");
            o.fill[*i] = "#90caf9";
            float_ops.insert(*i);
          }
      for (std::size_t i = 0; i < n; ++i)
        if (o.value[i]) {
          o.fill[i] = ramp_colour(*o.value[i], 10, 40);
          o.note[i] = "SQNR " + fixed(*o.value[i], 1) + " dB";
        }
      o.title = "Output SQNR per op (int8 vs float)";
      o.legend = {{ramp_colour(40, 10, 40), ">= 40 dB"}, {ramp_colour(25, 10, 40), "25 dB"},
                  {ramp_colour(10, 10, 40), "<= 10 dB"}};
      if (!float_ops.empty()) o.legend.push_back({"#90caf9", "kept float"});
      return o;
    }
    case OverlayKind::Latency: {
      require(ev, ev.bench, "--bench B.json (or --run ID)", kind);
      const auto& r = *ev.bench;
      double max_ms = 0, total = 0;
      if (auto it = r.find("op_profile"); it != r.end() && it->is_array())
        for (const auto& row : *it) {
          auto i = ops.find(str(row, "name"));
          auto ms = num(row, "ms");
          if (!i || !ms) continue;
          o.value[*i] = o.value[*i].value_or(0) + *ms;
          max_ms = std::max(max_ms, *o.value[*i]);
          total += *ms;
        }
      if (max_ms <= 0)
        throw EdgeCompilerError(ErrorKind::Input, ev.bench_path + ": the benchmark has no per-op profile of this model's ops (bench without --no-profile)");
      for (std::size_t i = 0; i < n; ++i)
        if (o.value[i]) {
          o.fill[i] = ramp_colour(*o.value[i], 0, max_ms, false);
          o.note[i] = fixed(*o.value[i], 3) + " ms (" + fixed(100 * *o.value[i] / total, 1) + "%)";
        }
      o.title = "Time per op (mean over the timed runs)";
      o.legend = {{ramp_colour(0, 0, 1, false), "0 ms"}, {ramp_colour(0.5, 0, 1, false), fixed(max_ms / 2, 3) + " ms"},
                  {ramp_colour(1, 0, 1, false), fixed(max_ms, 3) + " ms"}};
      return o;
    }
    case OverlayKind::Diff: {
      ir::Graph work = g;
      passes::PassManager pm = passes::make_pipeline(passes::default_pipeline());
      const auto report = pm.run(work);
      std::unordered_map<std::string, std::size_t> by_name;
      for (std::size_t i = 0; i < n; ++i) by_name.emplace(g.ops[i].name, i);
      std::size_t removed = 0, changed = 0;
      // Only ops of the original graph are drawn: the first pass that removed or changed each.
      for (const auto& rec : report.passes) {
        for (const auto& r : rec.diff.removed) {
          auto it = by_name.find(r.name);
          if (it == by_name.end() || !o.note[it->second].empty()) continue;
          o.fill[it->second] = kRemoved;
          o.note[it->second] = "removed by " + rec.pass;
          ++removed;
        }
        for (const auto& c : rec.diff.changed) {
          auto it = by_name.find(c.before.name);
          if (it == by_name.end() || !o.note[it->second].empty()) continue;
          o.fill[it->second] = kChanged;
          o.note[it->second] = "changed by " + rec.pass;
          ++changed;
        }
      }
      for (std::size_t i = 0; i < n; ++i)
        if (o.note[i].empty()) {
          o.fill[i] = kSame;
          o.note[i] = "unchanged by the default pipeline";
        }
      o.title = "What the default pipeline changed (" + std::to_string(n) + " -> " + std::to_string(work.ops.size()) + " ops)";
      o.legend = {{kRemoved, "removed (" + std::to_string(removed) + ")"},
                  {kChanged, "changed (" + std::to_string(changed) + ")"},
                  {kSame, "unchanged (" + std::to_string(n - removed - changed) + ")"}};
      return o;
    }
  }
  return o;
}

}  // namespace ec::render
