// The ONNX frontend: reads a .onnx ModelProto (libonnx 1.12 / protobuf) into
// the IR. Canonical semantics are ONNX opset 13 (see core/ir/ops.def): models
// below opset 13 are upgraded with the ONNX version converter (opsets 11 and 12
// fall back to a native import when the converter fails); per-op differences
// of later opsets (Reduce* axes inputs, DFT axis input, GridSample mode names,
// RoiAlign's default mode) are normalised here.
//
// Constants never copy their payload: raw_data strings are moved out of the
// parsed proto, external data is memory-mapped (one mapping per file).
// String constants are stored as a sequence of (u32 little-endian byte length,
// bytes) records, one per element.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

class OnnxFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "onnx"; }
  std::string_view summary() const override {
    return "ONNX models (.onnx), opsets 1-20; below 13 upgraded to opset 13";
  }
  /// 1 for `.onnx` files whose head parses as ModelProto fields; 0.5 for the same
  /// header under another extension when it starts with a plausible ir_version; else 0.
  float match(std::span<const std::byte> head, const std::string& path) const override;
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override;
};

std::unique_ptr<Frontend> make_onnx_frontend();

}  // namespace ec::frontends
