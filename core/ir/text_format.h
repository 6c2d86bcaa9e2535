// The IR's deterministic text form. print(parse(print(g))) == print(g), and
// parse(print(g)) is structurally equal to g (round-trip tested).
//
//   graph "tiny" version 1 {
//     meta "source.format" = "onnx"
//     input %x : f32[batch,3,8,8]
//     const %w : f32[4,3,3,3] = hex"0000803f..."
//     const %b : f32[4] = elided(16 bytes)          // only with elide_constants_above
//     %y = Conv(%x, %w, %b) {group = 1, pads = [1,1,1,1]} : f32[batch,4,8,8] @"/conv1/Conv"
//     %z = Relu(%y) : f32[batch,4,8,8]
//     output %z
//   }
//
// Also declared: `tensor %t : f32[...]` (a typed intermediate), quantisation as
// `quant(i8, scales=[0.1], zero_points=[0], axis=-1)` after a type.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <string_view>

#include "core/ir/graph.h"

namespace ec::ir {

struct PrintOptions {
  /// Constants larger than this many bytes print as `elided(N bytes)`; such a
  /// dump is for reading, and parse() refuses it.
  std::size_t elide_constants_above = std::numeric_limits<std::size_t>::max();
};

std::string print(const Graph& g, const PrintOptions& opts = {});

/// Parses the text form. Throws GraphError "line L: what is wrong" on bad input.
Graph parse(std::string_view text);

}  // namespace ec::ir
