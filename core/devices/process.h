// Runs a program (ssh, scp) with its arguments, no shell in between, capturing
// its output, with a time limit.
#pragma once

#include <string>
#include <vector>

namespace ec::devices {

struct ProcessResult {
  int exit_code = -1;      // the program's exit status; 127 when it could not be started
  std::string out, err;
  bool timed_out = false;  // killed after the time limit
  /// The last non-empty line of stderr (what a one-line error quotes).
  std::string last_error_line() const;
};

/// Runs argv[0] (searched on PATH) with argv; stdin is /dev/null. Kills it after
/// `timeout_s` seconds. Never throws for a failing program; throws EdgeCompilerError
/// (Io) only when no process can be created.
ProcessResult run_process(const std::vector<std::string>& argv, int timeout_s);

/// Quotes a word for a POSIX shell ('...'), for the remote command line.
std::string shell_quote(const std::string& s);

}  // namespace ec::devices
