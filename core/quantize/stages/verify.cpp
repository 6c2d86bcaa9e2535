// Stages verify_parameters, rewrite and verify_graph (stages.h): the chosen
// params checked, the int8 graph built from the plan, validated and loaded on
// the CPU runtime.
#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/ir/validate.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {

void verify_parameters(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  QuantReport& report = c.result.report;
  for (const auto& [t, p] : c.plan.params) {
    for (float s : p.scales)
      if (!(std::isfinite(s) && s > 0)) throw QuantizationError(t, "scale " + std::to_string(s) + " is not finite and > 0");
    for (auto z : p.zero_points)
      if (z < -128 || z > 127) throw QuantizationError(t, "zero point " + std::to_string(z) + " is outside int8");
    const auto [lo, hi] = represented_range(p);
    if (hi - lo > 1e4f)
      report.warnings.push_back("tensor '" + t + "': range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "] is very wide (scale " + std::to_string(p.scales[0]) +
                                "); small values lose precision: try --calibration-percentile 99.99");
  }
  for (const auto& [i, l] : c.plan.layers) {
    for (float s : l.weights.params.scales)
      if (!(std::isfinite(s) && s > 0)) throw QuantizationError(fg.ops[i].inputs[1], "weight scale is not finite and > 0");
    if (!c.per_channel && l.weights.channel_sqnr_db.size() > 1) {
      const auto [mn, mx] = std::minmax_element(l.weights.channel_sqnr_db.begin(), l.weights.channel_sqnr_db.end());
      if (*mx - *mn > 20)
        report.warnings.push_back("op '" + fg.ops[i].name + "': weight channels differ widely in range (channel SQNR " +
                                  std::to_string(static_cast<int>(*mn)) + ".." + std::to_string(static_cast<int>(*mx)) +
                                  " dB); per-channel weights (--per-channel) would help");
    }
  }
}

void rewrite(QuantContext& c) {
  c.result.graph = build_int8_graph(c.plan, c.options.int8_io);
  for (const auto& issue : ir::validate(c.result.graph))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      throw QuantizationError(issue.tensor.empty() ? issue.op : issue.tensor,
                              "the quantised graph is invalid: " + issue.message + " (a bug; please report it)");
}

// Loaded as `edgecompile run` will: a graph the runtime refuses is never returned
// (choose_ops' probe should have made it so). The report's figures come from
// running this graph, never from a simulation.
void verify_graph(QuantContext& c) {
  for (const auto& t : c.act) c.q_names.push_back(int8_name(c.plan, t));
  try {
    if (c.options.int8_io) ExposedRunner check(c.result.graph, {}, c.options.threads);
    c.exec = c.options.int8_io ? build_int8_graph(c.plan, false) : c.result.graph;
    q_runner(c, 0);  // each lane prepares its session once; this one before any run, to refuse here
  } catch (const EdgeCompilerError& e) {
    throw QuantizationError(e.what(), std::string("the CPU runtime cannot run the quantised graph: ") + e.what() +
                                          " (a bug; please report it; --keep-float OP keeps the op in float meanwhile)");
  }
}

}  // namespace ec::quantize::detail
