// save_onnx: IR -> .onnx (the mirror of the ONNX frontend in
// core/frontends/onnx). Writes a ModelProto at default-domain opset 17 (the newest
// Debian's libonnx 1.12 checks) with the float graph as it is, ops the IR fused
// written as their standard ONNX decomposition, and a quantised graph as
// QuantizeLinear/DequantizeLinear pairs around float ops (QDQ, per-channel where
// the IR has it). The op table and what each row becomes: README.md here.
#pragma once

#include <string>

#include "core/ir/graph.h"

namespace ec::backends::onnx_export {

struct OnnxWriteOptions {
  std::string producer_version;  // producer_name is "edgecompiler"
};

/// Serialises g as an ONNX model. Throws UnsupportedOpError naming the first op
/// (or quantised tensor) with no ONNX form at opset 17; nothing is returned then,
/// so the caller writes nothing.
std::string save_onnx(const ir::Graph& g, const OnnxWriteOptions& opts = {});

/// True when `path` names an ONNX file (ends in .onnx).
bool is_onnx_path(const std::string& path);

}  // namespace ec::backends::onnx_export
