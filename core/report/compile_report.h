// CompileReport: what `edgecompile compile` prints, its --json and --report file,
// and what every workbench view reads (docs/compile-json.md).
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/backends/backend.h"

namespace ec::report {

struct StatusRow {  // the Operator / Count / Status table, rows grouped by (op, status)
  std::string op;
  int count = 0;
  std::string status;
};

struct CompileReport {
  static constexpr const char* kSchema = "edgecompiler.compile/1";
  std::string model, target, backend, target_reason;
  std::string output;        // "" when nothing was written
  std::string verified_by;   // "predicted" or "edgetpu_compiler VERSION"
  std::string quantize;      // strategy used ("none" when the model was taken as it is)
  backends::CompileResult result;
  std::vector<std::string> notes;

  std::vector<StatusRow> status_table() const;
};

/// Builds the report of one compile.
CompileReport make_compile_report(std::string model, std::string target, std::string target_reason,
                                  std::string quantize, backends::CompileResult result);

nlohmann::json to_json(const CompileReport& r);
/// The summary in the shape edgetpu_compiler prints (ops on the Edge TPU vs CPU, segments,
/// Operator / Count / Status, memory and latency labelled as estimates), plus every CPU op's reason.
std::string to_text(const CompileReport& r);

}  // namespace ec::report
