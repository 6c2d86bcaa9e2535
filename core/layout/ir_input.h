// The IR graph as a CompoundInput: one item per op (item i = op i), then one per
// graph input, then one per graph output; an edge per (producer, consumer) of
// every tensor. Sizes are estimates from text lengths; a view with real fonts
// overwrites them before laying out.
#pragma once

#include <cstddef>

#include "core/ir/graph.h"
#include "core/layout/compound_layout.h"

namespace ec::layout {

struct IrItems {
  std::size_t ops = 0, inputs = 0, outputs = 0;
  std::size_t first_input() const { return ops; }
  std::size_t first_output() const { return ops + inputs; }
};

/// Builds the layout input for `g`; `items` receives how the item range is split.
CompoundInput make_compound_input(const ec::ir::Graph& g, IrItems* items = nullptr,
                                  double char_width = 7.0, double line_height = 16.0);

}  // namespace ec::layout
