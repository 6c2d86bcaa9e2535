// Per-op data drawn ON the graph: placement from a CompileReport, SQNR from a
// QuantReport, time from a benchmark's per-op profile, what the optimisation
// pipeline did. Reports are the JSON the CLI writes (docs/compile-json.md,
// quantize-json.md, bench-json.md), matched to the graph's ops by name.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/ir/graph.h"

namespace ec::render {

enum class OverlayKind { None, Placement, Sqnr, Latency, Diff };

/// "placement" | "sqnr" | "latency" | "diff" -> kind; nullopt otherwise.
std::optional<OverlayKind> overlay_from_name(const std::string& name);
const char* overlay_name(OverlayKind k);

struct LegendEntry {
  std::string colour;  ///< "#rrggbb"
  std::string label;
};

/// One overlay: a fill and a note per op of the graph (index = op index), and its legend.
struct Overlay {
  OverlayKind kind = OverlayKind::None;
  std::string title;               ///< "Placement: coral (12 TPU, 3 CPU)"
  std::vector<std::string> fill;   ///< "" = the op's category colour (no data)
  std::vector<std::string> note;   ///< one line for tooltips ("TPU: Mapped to Edge TPU")
  std::vector<std::optional<double>> value;  ///< SQNR dB / ms, for charts and sorting
  std::vector<LegendEntry> legend;
};

/// The evidence the overlays read; each report optional.
struct Evidence {
  std::optional<nlohmann::json> compile, quant, bench;
  std::string compile_path, quant_path, bench_path;
};

/// Reads a report file (`flag` names it in errors: "--compile-report R.json: ...").
/// Throws EdgeCompilerError(Io / Input) with one line.
nlohmann::json read_report(const std::string& path, const std::string& flag);

/// Throws EdgeCompilerError(Input) naming `path` when the report names ops of which
/// fewer than half are ops of `g` (a report of another model).
void check_report_matches(const ir::Graph& g, const nlohmann::json& report, const std::string& path,
                          const std::string& kind);

/// Builds one overlay. Placement/SQNR/latency need their report (Usage error naming
/// the missing flag otherwise); diff runs the default optimisation pipeline on a copy.
Overlay make_overlay(const ir::Graph& g, OverlayKind kind, const Evidence& evidence);

/// The colour of `v` on a red (lo) -> yellow -> green (hi) scale.
std::string ramp_colour(double v, double lo, double hi, bool high_is_good = true);

}  // namespace ec::render
