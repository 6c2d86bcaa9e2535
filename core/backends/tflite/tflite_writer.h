// save_tflite: IR -> .tflite (the mirror of load_tflite in
// core/frontends/tflite/tflite_frontend.cpp). Writes TFLite schema 3 with
// both `deprecated_builtin_code` and `builtin_code`, an empty sentinel buffer
// 0, a `min_runtime_version` metadata entry and one "serving_default" signature.
#pragma once

#include <string>

#include "core/ir/graph.h"

namespace ec::backends::tflite {

struct TfliteWriteOptions {
  /// Graph inputs read NHWC: a model input that only feeds a Transpose to NHWC
  /// becomes that NHWC tensor (the TRANSPOSE at the boundary is dropped).
  bool nhwc_io = false;
  /// A quantised graph keeps int8 inputs/outputs: its QuantizeLinear at the
  /// inputs and DequantizeLinear at the outputs are dropped.
  bool int8_io = false;
  /// A quantised graph gets LegaliseTflite too (decompositions with derived int8 params).
  /// The Coral backend defers it to writing: its checked overrides come first.
  bool legalise_int8 = true;
};

/// Legalises any IR graph for TFLite: named dims fixed to 1, the passes a
/// TFLite graph needs (constant folding, Conv+BatchNorm and MatMul+Add
/// fusion, fused activations, NCHW -> NHWC with Transposes at the edges),
/// then the I/O options. A graph read from .tflite passes through unchanged
/// apart from the I/O options.
ir::Graph prepare_for_tflite(ir::Graph g, const TfliteWriteOptions& opts);

/// Serialises a prepared graph. Throws UnsupportedOpError naming the first op
/// with no TFLite form (nothing is written by the caller then).
std::string save_tflite(const ir::Graph& g, const TfliteWriteOptions& opts = {});

}  // namespace ec::backends::tflite
