#include "core/backends/coral/compiler_log.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "core/errors.h"
#include <filesystem>
#include <regex>
#include <sstream>

namespace ec::backends::coral {
namespace {

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return {};
  const auto b = s.find_last_not_of(" \t\r");
  return s.substr(a, b - a + 1);
}

bool starts(const std::string& s, const std::string& p) { return s.rfind(p, 0) == 0; }

std::optional<int> int_after(const std::string& s, const std::string& p) {
  if (!starts(s, p)) return std::nullopt;
  try {
    return std::stoi(trim(s.substr(p.size())));
  } catch (...) {
    return std::nullopt;
  }
}

}  // namespace

CompilerLog parse_compiler_log(const std::string& text) {
  CompilerLog log;
  std::istringstream in(text);
  std::string line;
  bool table = false;
  // "OPERATOR   COUNT   STATUS": name, a number, then the status text.
  static const std::regex row_re(R"(^([A-Za-z0-9_\-]+)\s+([0-9]+)\s+(\S.*)$)");
  while (std::getline(in, line)) {
    const std::string l = trim(line);
    if (l.empty()) continue;
    if (starts(l, "Edge TPU Compiler version ")) { log.version = trim(l.substr(26)); continue; }
    if (starts(l, "Model compiled successfully") || starts(l, "Models compiled successfully") ||
        l == "Compilation succeeded!") { log.succeeded = true; continue; }
    if (starts(l, "ERROR:") || starts(l, "Compilation failed") || l == "Model not quantized" ||
        starts(l, "Internal compiler error") || starts(l, "Invalid model") || starts(l, "Model could not be parsed") ||
        starts(l, "Compilation timeout")) { log.errors.push_back(l); continue; }
    if (auto v = int_after(l, "Number of operations that will run on Edge TPU:")) { log.ops_on_tpu = v; continue; }
    if (auto v = int_after(l, "Number of operations that will run on CPU:")) { log.ops_on_cpu = v; continue; }
    if (auto v = int_after(l, "Number of Edge TPU subgraphs:")) { log.subgraphs = v; continue; }
    if (auto v = int_after(l, "Total number of operations:")) { log.total_ops = v; continue; }
    auto field = [&](const std::string& key, std::string& out) {
      if (!starts(l, key)) return false;
      out = trim(l.substr(key.size()));
      return true;
    };
    if (field("On-chip memory used for caching model parameters:", log.on_chip_used)) continue;
    if (field("On-chip memory remaining for caching model parameters:", log.on_chip_remaining)) continue;
    if (field("Off-chip memory used for streaming uncached model parameters:", log.off_chip_used)) continue;
    if (field("Input model:", log.input_model) || field("Input:", log.input_model)) continue;
    if (field("Output model:", log.output_model) || field("Output:", log.output_model)) continue;
    if (field("Operation log:", log.operation_log)) continue;
    if (starts(l, "Operator") && l.find("Count") != std::string::npos && l.find("Status") != std::string::npos) {
      table = true;
      continue;
    }
    if (table) {
      std::smatch m;
      if (std::regex_match(l, m, row_re)) log.rows.push_back({m[1], std::stoi(m[2]), trim(m[3])});
      else table = false;
    }
  }
  // an operation log file has no summary lines: count from the table
  if (!log.rows.empty() && !log.ops_on_tpu) {
    int tpu = 0, cpu = 0;
    for (const auto& r : log.rows) (r.status == "Mapped to Edge TPU" ? tpu : cpu) += r.count;
    log.ops_on_tpu = tpu;
    log.ops_on_cpu = cpu;
  }
  return log;
}

std::string find_edgetpu_compiler() {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  std::stringstream ss(path);
  std::string dir;
  while (std::getline(ss, dir, ':')) {
    if (dir.empty()) continue;
    const auto p = std::filesystem::path(dir) / "edgetpu_compiler";
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec) && ::access(p.c_str(), X_OK) == 0) return p.string();
  }
  return {};
}

namespace {
std::string quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

std::string run_edgetpu_compiler(const std::string& compiler, const std::string& model, const std::string& out_dir) {
  const std::string cmd = quote(compiler) + " -s -o " + quote(out_dir) + " " + quote(model) + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) throw BackendError("coral", "cannot start " + compiler);
  std::string text;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) text.append(buf, n);
  const int status = ::pclose(p);
  if (status != 0) {
    const auto log = parse_compiler_log(text);
    throw BackendError("coral", "edgetpu_compiler failed (status " + std::to_string(status) + ")" +
                                    (log.errors.empty() ? std::string() : ": " + log.errors.back()));
  }
  return text;
}

}  // namespace ec::backends::coral
