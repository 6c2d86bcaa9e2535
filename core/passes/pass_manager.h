// PassManager: runs passes in order, snapshotting the graph before and after
// each, and records per pass a GraphDiff, the time taken, its statistics and
// diagnostics, and validate()'s verdict. The record feeds the CLI (text and
// --json, docs/optimize-json.md) and the workbench alike.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/ir/graph.h"
#include "core/ir/validate.h"
#include "core/message.h"
#include "core/passes/graph_diff.h"
#include "core/passes/pass.h"

namespace ec::passes {

/// One statistic as reported: key, label and value.
struct StatisticValue {
  std::string key, label;
  std::int64_t value = 0;
};

struct PassRecord {
  std::string pass;
  double milliseconds = 0;  // run() only; snapshot, diff and validation excluded
  std::vector<StatisticValue> statistics;  // every declared statistic, in declared order
  std::vector<Diagnostic> diagnostics;
  std::size_t ops_before = 0, ops_after = 0;
  GraphDiff diff;                                  // empty unless record_diffs
  std::vector<ir::ValidationIssue> validation;     // errors found after the pass
  ir::FrozenGraph before, after;                   // set when keep_snapshots
};

struct PipelineReport {
  std::vector<PassRecord> passes;
  std::size_t ops_before = 0, ops_after = 0;
  double milliseconds = 0;  // sum of the passes' run() times
};

struct PassManagerOptions {
  bool record_diffs = true;
  /// Keep the before/after graphs of every pass (for a GUI showing them).
  bool keep_snapshots = false;
  /// Run ir::validate() after each pass; an Error stops the pipeline with a
  /// GraphError naming the pass (the record is still filled in).
  bool validate_each = true;
  /// Run ir::infer_shapes() after each pass (not counted in its time).
  bool infer_shapes = true;
};

class PassManager {
 public:
  explicit PassManager(PassManagerOptions options = {}) : options_(options) {}
  void add(std::unique_ptr<Pass> pass) { passes_.push_back(std::move(pass)); }
  /// Adds a registered pass by name; throws EdgeCompilerError (Usage) for unknown names.
  void add(const std::string& name);
  const std::vector<std::unique_ptr<Pass>>& passes() const { return passes_; }

  /// Runs every pass on `g` in order. Throws GraphError naming the pass when
  /// validate_each finds an error after it.
  PipelineReport run(ir::Graph& g);

 private:
  PassManagerOptions options_;
  std::vector<std::unique_ptr<Pass>> passes_;
};

/// Statistic `s` of pass `pass` as a message: id "pass.<pass>.<key>", one argument
/// (the value), text "<value> <label>" ("12 duplicate constants merged").
Message statistic_message(const std::string& pass, const StatisticValue& s);

/// A pipeline of registered passes by name (throws on unknown names).
PassManager make_pipeline(const std::vector<std::string>& names, PassManagerOptions options = {});

nlohmann::json to_json(const PassRecord& r);
nlohmann::json to_json(const PipelineReport& r);

}  // namespace ec::passes
