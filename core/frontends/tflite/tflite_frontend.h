// The TensorFlow Lite frontend: reads .tflite flatbuffers (schema version 3,
// file identifier "TFL3") into the IR. flatbuffers' Verifier checks every file
// before any field is read; then every index (tensors, buffers, op codes,
// subgraphs) and every constant's size is checked before use, so a damaged
// file is one FrontendError naming the file and the problem.
//
// The IR keeps TFLite's conventions: NHWC activations (`layout: NHWC` on Conv
// and pooling, Conv weights OHWI, depthwise weights [C*M, KH, KW, 1]), and the
// file's quantisation params as they are (u8 asymmetric stays u8). Custom ops
// (TFLite_Detection_PostProcess, PosenetDecoderOp, edgetpu-custom-op) are
// opaque ops "tflite::<custom code>". See README.md for the op table.
#pragma once

#include <memory>

#include "core/frontends/frontend.h"

namespace ec::frontends {

class TfliteFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "tflite"; }
  std::string_view summary() const override { return "TensorFlow Lite flatbuffers (.tflite)"; }
  /// 1 for the file identifier "TFL3" at bytes 4..7; 0.3 for a `.tflite` file
  /// without it (so its own error is what the user sees); else 0.
  float match(std::span<const std::byte> head, const std::string& path) const override;
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override;
};

std::unique_ptr<Frontend> make_tflite_frontend();

/// Reads a .tflite held in memory (`path` names it in errors). The bytes are
/// shared by the graph's constants.
ir::Graph load_tflite(std::shared_ptr<const std::string> bytes, const std::string& path,
                      const OpenOptions& opts = {});

}  // namespace ec::frontends
