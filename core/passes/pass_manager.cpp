#include "core/passes/pass_manager.h"

#include <chrono>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/ir/shape_inference.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {

void PassManager::add(const std::string& name) { add(make_pass(name)); }

PipelineReport PassManager::run(ir::Graph& g) {
  PipelineReport report;
  report.ops_before = g.ops.size();
  // Snapshots are whole graphs when kept; for diffs alone, what diff_graphs reads.
  auto snapshot = [&] {
    return options_.keep_snapshots ? ir::freeze(g) : ir::freeze(diff_snapshot(g));
  };
  ir::FrozenGraph previous;
  if (options_.record_diffs || options_.keep_snapshots) previous = snapshot();
  for (const auto& pass : passes_) {
    PassRecord rec;
    rec.pass = std::string(pass->name());
    rec.ops_before = g.ops.size();
    const auto t0 = std::chrono::steady_clock::now();
    PassResult result = pass->run(g);
    g.tensors.compact();  // drops the slots of the tensors the pass erased (nothing refers into them now)
    const auto t1 = std::chrono::steady_clock::now();
    rec.milliseconds = std::chrono::duration<double, std::milli>(t1 - t0).count();
    // A pass may have made shapes static (folding a Reshape target to a
    // constant) or added tensors without shapes: re-infer before the snapshot
    // so the next pass, the diff and the output see them.
    if (options_.infer_shapes) ir::infer_shapes(g);
    rec.ops_after = g.ops.size();
    for (const StatisticSpec& s : pass->statistics()) {
      auto it = result.statistics.find(std::string(s.key));
      rec.statistics.push_back({std::string(s.key), std::string(s.label),
                                it == result.statistics.end() ? 0 : it->second});
    }
    rec.diagnostics = std::move(result.diagnostics);
    if (options_.record_diffs || options_.keep_snapshots) {
      ir::FrozenGraph now = snapshot();
      if (options_.record_diffs) rec.diff = diff_graphs(*previous, *now);
      if (options_.keep_snapshots) {
        rec.before = previous;
        rec.after = now;
      }
      previous = std::move(now);
    }
    report.milliseconds += rec.milliseconds;
    if (options_.validate_each) {
      for (auto& issue : ir::validate(g))
        if (issue.severity == ir::ValidationIssue::Severity::Error) rec.validation.push_back(issue);
    }
    const bool invalid = !rec.validation.empty();
    std::string first = invalid ? ir::to_string(rec.validation.front()) : std::string();
    report.passes.push_back(std::move(rec));
    if (invalid)
      throw GraphError("pass " + std::string(pass->name()) + " left an invalid graph: " + first +
                       " (this is a bug in the pass; please report it with the model)");
  }
  report.ops_after = g.ops.size();
  return report;
}

PassManager make_pipeline(const std::vector<std::string>& names, PassManagerOptions options) {
  PassManager pm(options);
  for (const auto& n : names) pm.add(n);
  return pm;
}

Message statistic_message(const std::string& pass, const StatisticValue& s) {
  return message("pass." + pass + "." + s.key, {std::to_string(s.value)},
                 std::to_string(s.value) + " " + s.label);
}

nlohmann::json to_json(const PassRecord& r) {
  nlohmann::json j;
  j["pass"] = r.pass;
  j["milliseconds"] = r.milliseconds;
  j["ops_before"] = r.ops_before;
  j["ops_after"] = r.ops_after;
  j["statistics"] = nlohmann::json::array();
  for (const auto& s : r.statistics)
    j["statistics"].push_back({{"key", s.key}, {"label", s.label}, {"value", s.value}});
  j["diagnostics"] = nlohmann::json::array();
  for (const auto& d : r.diagnostics)
    j["diagnostics"].push_back(
        {{"severity", d.severity == Diagnostic::Severity::Warning ? "warning" : "note"},
         {"op", d.op},
         {"message", d.message}});
  j["valid"] = r.validation.empty();
  j["diff"] = to_json(r.diff);
  return j;
}

nlohmann::json to_json(const PipelineReport& r) {
  nlohmann::json j;
  j["ops_before"] = r.ops_before;
  j["ops_after"] = r.ops_after;
  j["milliseconds"] = r.milliseconds;
  j["passes"] = nlohmann::json::array();
  for (const auto& p : r.passes) j["passes"].push_back(to_json(p));
  return j;
}

}  // namespace ec::passes
