// What `edgecompile inspect` reports about a graph: the same struct feeds the
// CLI's text and --json output and the workbench's summary panel.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/ir/graph.h"

namespace ec::report {

struct TensorSummary {
  std::string name;
  std::string dtype;  // "f32"
  ir::Shape shape;    // to_string(): "[batch,3,224,224]"
};

struct ModelSummary {
  std::string path;
  std::string format;
  std::string name;
  std::string producer;  // "pytorch 1.13.0"
  std::string opset;     // "ai.onnx:13"
  std::string ir_version;
  std::vector<TensorSummary> inputs, outputs;
  std::int64_t op_count = 0;
  std::map<std::string, std::int64_t> ops_by_type;
  std::int64_t parameter_count = 0;  // elements of all constant tensors
  std::int64_t parameter_bytes = 0;
  // Arithmetic for one inference, named dynamic dims taken as 1 (batch 1), per
  // core/ir/op_cost.h. MACs: Conv, Gemm, MatMul, FullyConnected, Einsum,
  // LSTM/GRU/RNN gates; flops = 2 * macs (as before); total_flops adds the
  // other ops' arithmetic (other_flops).
  std::int64_t macs = 0;
  std::int64_t flops = 0;
  std::int64_t other_flops = 0;
  std::int64_t total_flops = 0;
  bool overflow = false;  // some count exceeded int64: the totals leave it out
  std::map<std::string, std::int64_t> macs_by_type;
  std::map<std::string, std::int64_t> flops_by_type;  // other_flops per op type
  struct OpWithoutEstimate {
    std::string op, op_type, reason;
  };
  std::vector<std::string> macs_unknown_ops;  // names of ops without an estimate (any reason)
  std::vector<OpWithoutEstimate> ops_without_estimate;  // the same ops, with type and reason
  std::map<std::string, std::int64_t> unknown_ops;  // op types the IR does not know
  std::vector<std::string> validation_warnings;
  /// The source file's own op names and counts (e.g. TFLite's CONV_2D,
  /// DEPTHWISE_CONV_2D), when the frontend records them.
  std::map<std::string, std::int64_t> source_ops_by_type;
  /// Format-specific file metadata ("tflite.min_runtime_version", signatures, ...).
  std::map<std::string, std::string> file_metadata;
  /// Quantisation of every tensor that carries it (activations, weights, biases).
  struct TensorQuant {
    std::string name, dtype;
    std::vector<float> scales;
    std::vector<std::int64_t> zero_points;
    int axis = -1;
  };
  std::vector<TensorQuant> quantization;
  /// Opaque ops (custom ops the IR keeps whole): name, type, attributes as text.
  struct OpaqueOp {
    std::string name, op_type, detail;
    std::vector<std::string> inputs, outputs;
  };
  std::vector<OpaqueOp> opaque_ops;
  /// Totals over `quantization` (none: quantized_tensors == 0).
  struct QuantSummary {
    std::map<std::string, std::int64_t> tensors_by_dtype;  // "i8" -> tensors stored in it
    std::int64_t quantized_tensors = 0;
    std::int64_t per_channel_tensors = 0;
    std::int64_t quantized_ops = 0;  // ops whose outputs are all quantised
  } quant_summary;
};

/// One line for a tensor's quantisation: "u8 scale 0.0078 zp 128" or
/// "i8 per-channel axis 0 (32): scale 0.0012..0.0051 zp 0". Used by inspect and the GUI.
std::string quant_text(const ModelSummary::TensorQuant& q);

/// `file_format` names the frontend that read the file ("eir"); the summary's
/// format then says where the graph came from too: "eir (from onnx)".
ModelSummary summarize(const ir::Graph& g, const std::string& path = {}, const std::string& file_format = {});
nlohmann::json to_json(const ModelSummary& s);
/// Human-readable multi-line text, as printed by `edgecompile inspect`.
std::string to_text(const ModelSummary& s);

}  // namespace ec::report
