// Small float graphs in the IR text form for the Metal backend tests.
#pragma once

#include <string>

#include "core/ir/text_format.h"

namespace metal_test {

/// `n` zero bytes as hex.
inline std::string zeros(std::size_t n) { return "hex\"" + std::string(2 * n, '0') + "\""; }
inline ec::ir::Graph graph(const std::string& body) { return ec::ir::parse("graph \"t\" {\n" + body + "\n}\n"); }
/// input %x -> one unary op named "op" -> output %y.
inline ec::ir::Graph unary(const std::string& op, const std::string& type) {
  return graph("  input %x : " + type + "\n  %y = " + op + "(%x) : " + type + " @\"op\"\n  output %y");
}

}  // namespace metal_test
