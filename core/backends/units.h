// Helpers shared by backends that emit TensorFlow Lite: the op as TFLite names
// it, and the grouping of IR ops into units, one per op of a .tflite file (a
// fused activation the TFLite reader split off, named "<output>/activation",
// belongs to its producer; the Reshape it puts before a FULLY_CONNECTED whose
// input is not 2-D, named "<output>/flatten", belongs to that op).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace ec::backends {

/// TFLite builtin (or custom) name of an IR op: Conv -> CONV_2D or DEPTHWISE_CONV_2D, ...
/// Ops with no TFLite counterpart get their IR type in upper case.
std::string tflite_op_name(const ir::Graph& graph, const ir::Operation& op);

/// True for a depthwise Conv (group == input channels, group > 1).
bool is_depthwise(const ir::Graph& graph, const ir::Operation& op);

/// Units in graph order: each a list of graph.ops indices, main op first.
std::vector<std::vector<std::size_t>> group_units(const ir::Graph& graph);

}  // namespace ec::backends
