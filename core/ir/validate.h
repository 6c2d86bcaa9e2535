// Structural checks of an IR graph. Returns issues instead of throwing so views
// and the CLI can show all of them at once.
#pragma once

#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace ec::ir {

struct ValidationIssue {
  enum class Severity { Error, Warning } severity = Severity::Error;
  std::string op;      // op name (or "#index" when unnamed); empty for graph-level issues
  std::string tensor;  // tensor concerned, if any
  std::string message; // one line
};

/// Checks: SSA, dangling inputs, cycles/order, graph inputs and outputs
/// defined, arity and required attributes per the op table, attribute kinds,
/// constant byte size vs. dtype x shape, quantisation params (scale > 0, one
/// per channel). Unknown ops are a Warning.
std::vector<ValidationIssue> validate(const Graph& g);

/// Throws GraphError with the first Error-severity issue, if any.
void validate_or_throw(const Graph& g);

/// "op 'x': message (tensor 't')".
std::string to_string(const ValidationIssue& issue);

}  // namespace ec::ir
