// IR-level shape and dtype inference.
//
// infer_shapes() walks the ops in topological order and, per op, calls the
// shape function of its family (core/ir/shape_inference/<family>.cpp; the one
// table is in shape_inference.cpp). It fills what the importer or a pass left
// unknown: an unknown rank, an unknown dim ("?" or libonnx's "unk__N"), an
// undefined dtype. It never overwrites a static dim: where a shape function
// disagrees with one, the disagreement is returned as a conflict (validate()
// reports the same conflicts as issues). Symbolic dims ("batch") propagate by
// name. Small integer tensors built from Shape ops (the Shape -> Gather ->
// Concat -> Reshape chains of PyTorch exports) are tracked by value, symbolic
// dims included, so a Reshape whose target is computed still gets a shape.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace ec::ir {

/// A shape function's result that contradicts what the graph declares, or an
/// op whose inputs are inconsistent (e.g. Concat of unequal non-axis dims).
struct ShapeConflict {
  std::string op;      // op name (or "#index")
  std::string tensor;  // the output concerned; empty for an input inconsistency
  std::string message; // one line
};

struct ShapeInferenceResult {
  std::size_t tensors_refined = 0;  // outputs whose shape or dtype gained information
  std::vector<ShapeConflict> conflicts;
};

/// Fills unknown shapes and dtypes of op outputs in place (see above).
ShapeInferenceResult infer_shapes(Graph& g);

/// The conflicts infer_shapes would find, without changing the graph.
std::vector<ShapeConflict> check_shapes(const Graph& g);

}  // namespace ec::ir
