// The real edgetpu_compiler: finding it, running it, and parsing what it prints
// (the summary on stdout and the operation log file; formats in edgetpu.md §3).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace ec::backends::coral {

struct CompilerLogRow {
  std::string op;      // CONV_2D
  int count = 0;
  std::string status;  // "Mapped to Edge TPU", ...
};

/// What edgetpu_compiler said about one model.
struct CompilerLog {
  std::string version;                // "16.0.384591198"
  bool succeeded = false;             // "Model compiled successfully" / "Compilation succeeded!"
  std::optional<int> ops_on_tpu, ops_on_cpu, subgraphs, total_ops;
  std::string on_chip_used, on_chip_remaining, off_chip_used;  // as printed ("80.00KiB")
  std::string input_model, output_model, operation_log;
  std::vector<CompilerLogRow> rows;   // the Operator / Count / Status table
  std::vector<std::string> errors;    // ERROR: lines and whole-model failures
};

/// Parses stdout (with or without -s) or an operation log file. Never throws:
/// unknown lines are ignored.
CompilerLog parse_compiler_log(const std::string& text);

/// Path of edgetpu_compiler on PATH, or "".
std::string find_edgetpu_compiler();

/// Runs `COMPILER -s -o OUT_DIR MODEL` and returns its stdout and stderr (2>&1).
/// Throws BackendError when it cannot be started or exits non-zero (the text says why).
std::string run_edgetpu_compiler(const std::string& compiler, const std::string& model, const std::string& out_dir);

}  // namespace ec::backends::coral
