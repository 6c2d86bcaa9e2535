// Small int8 graphs in the IR text form for the Coral backend tests.
#pragma once

#include <string>

#include "core/ir/text_format.h"

namespace coral_test {

/// Per-tensor int8 params text.
inline std::string q(double scale = 0.1, int zp = 0) {
  return "quant(i8, scales=[" + std::to_string(scale) + "], zero_points=[" + std::to_string(zp) + "], axis=-1)";
}
/// An int8 tensor type.
inline std::string i8(const std::string& dims, double scale = 0.1, int zp = 0) { return "i8[" + dims + "] " + q(scale, zp); }
/// `n` zero bytes as hex.
inline std::string zeros(std::size_t n) { return "hex\"" + std::string(2 * n, '0') + "\""; }

inline ec::ir::Graph graph(const std::string& body) { return ec::ir::parse("graph \"t\" {\n" + body + "\n}\n"); }

}  // namespace coral_test
