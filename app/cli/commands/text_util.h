// Small text helpers shared by the CLI's subcommands.
#pragma once

#include <iomanip>
#include <sstream>
#include <string>
#include <vector>

#include "core/errors.h"

namespace ec::cli {

/// "a, b,c" -> {"a", "b", "c"}: comma-separated names, spaces dropped, empty items skipped.
inline std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  return out;
}

/// `v` with exactly `digits` decimals.
inline std::string fixed(double v, int digits) {
  std::ostringstream ss;
  ss << std::fixed << std::setprecision(digits) << v;
  return ss.str();
}

}  // namespace ec::cli
