// The Pass interface. A pass rewrites a Graph in place and returns what it did
// as named statistics and diagnostics; passes never print. The PassManager
// (pass_manager.h) snapshots the graph around each pass and records a GraphDiff.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace ec::passes {

/// A statistic a pass declares: a key and the label printed after its value
/// ("conv_bn_fused" -> "Conv+BatchNorm fused", printed as "3 Conv+BatchNorm fused").
struct StatisticSpec {
  std::string_view key;
  std::string_view label;
};

/// Something a pass wants the user to know (e.g. why a candidate was not folded).
struct Diagnostic {
  enum class Severity { Note, Warning } severity = Severity::Note;
  std::string op;       // op name concerned, if any
  std::string message;  // one line
};

/// What one run of a pass did.
struct PassResult {
  std::map<std::string, std::int64_t> statistics;  // by StatisticSpec::key
  std::vector<Diagnostic> diagnostics;

  void add(std::string_view key, std::int64_t n = 1) { statistics[std::string(key)] += n; }
  void note(std::string op, std::string message) {
    diagnostics.push_back({Diagnostic::Severity::Note, std::move(op), std::move(message)});
  }
  void warn(std::string op, std::string message) {
    diagnostics.push_back({Diagnostic::Severity::Warning, std::move(op), std::move(message)});
  }
};

class Pass {
 public:
  virtual ~Pass() = default;
  /// Registry name: "ConstantFolding".
  virtual std::string_view name() const = 0;
  /// One line for --list and the GUI pass list.
  virtual std::string_view summary() const = 0;
  /// A paragraph: what it rewrites, and what it leaves alone.
  virtual std::string_view description() const = 0;
  /// The statistics run() reports, in display order.
  virtual std::span<const StatisticSpec> statistics() const = 0;
  /// Rewrites `g`. Precondition: g passes ir::validate(); postcondition: it still does.
  virtual PassResult run(ir::Graph& g) = 0;
};

}  // namespace ec::passes
