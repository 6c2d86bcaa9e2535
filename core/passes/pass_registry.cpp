// The pass registry: ONE explicit table, and the default pipeline.
#include "core/passes/pass_registry.h"

#include <array>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/runtime/kernel_registry.h"

namespace ec::passes {
namespace {

const std::array<PassEntry, 13> kPasses{{
    {"Cleanup", "Remove Identity, Dropout, same-type Cast and no-op or chained Reshape",
     &make_cleanup_pass},
    {"ConstantFolding",
     "Evaluate constant subgraphs and static shape arithmetic with the reference kernels",
     &make_constant_folding_pass},
    {"OpFusion", "Fold BatchNorm and bias Add into Conv; MatMul+Add -> FullyConnected",
     &make_op_fusion_pass},
    {"FuseLayerNorm",
     "Rewrite the exported LayerNorm pattern (ReduceMean, Sub, Pow, ..., Mul, Add) into LayerNormalization",
     &make_fuse_layer_norm_pass},
    {"FuseGelu", "Rewrite the exported GELU (Div, Erf, Add, Mul, Mul) and x*HardSigmoid(x) into Gelu / HardSwish",
     &make_fuse_gelu_pass},
    {"FuseActivation",
     "Fold Relu/Relu6/Clip/Sigmoid/Tanh into Conv, Gemm, MatMul, FullyConnected (fused_activation)",
     &make_fuse_activation_pass},
    {"CommonSubexpressionElimination", "Merge ops that compute the same value from the same inputs",
     &make_cse_pass},
    {"DeadCodeElimination", "Remove ops and constants no graph output depends on", &make_dce_pass},
    {"LayoutTransform",
     "Rewrite NCHW ops to NHWC with Transposes only at the edges (for NHWC backends)",
     &make_layout_transform_pass},
    {"LegaliseTflite",
     "Rewrite ops without a TFLite builtin (GRU, LSTM beyond TFLite's sequence op, LayerNorm, 1-D and grouped "
     "convolutions, HardSigmoid, Erf) into ops with one",
     &make_legalise_tflite_pass},
    {"LegaliseTfliteInt8",
     "Rewrite ops TFLite has only in float into ops it has in int8 (LSTM/GRU unrolled, 3-D convolution as a 2-D one "
     "over frames), for fully quantised targets (the Edge TPU)",
     &make_legalise_tflite_int8_pass},
    {"PinBatch", "Fix the inputs' symbolic batch dim to 1 (for targets that run fixed shapes)", &make_pin_batch_pass},
    {"CompactUnitDims",
     "Write data movement over unit dims without them (Transpose of unit dims as Reshape, Concat without unit dims) "
     "for targets that map only the three innermost dims",
     &make_compact_unit_dims_pass},
}};

// Probe: y = op(x = 1, w = -1) with fused RELU must give 0.
bool fuses_relu(ir::OpKind kind, std::vector<std::int64_t> x_shape, std::vector<std::int64_t> w_shape) {
  ir::Operation op;
  op.kind = kind;
  op.op_type = std::string(ir::op_info(kind).name);
  op.inputs = {"x", "w"};
  op.outputs = {"y"};
  ir::set_fused_activation(op, ir::Activation::Relu);
  if (kind == ir::OpKind::Conv) {
    op.attributes["kernel_shape"] = std::vector<std::int64_t>{1, 1};
  }
  const std::vector<runtime::Tensor> in{
      runtime::Tensor::from_values<float>(ir::DType::Float32, x_shape, {1.0f}),
      runtime::Tensor::from_values<float>(ir::DType::Float32, w_shape, {-1.0f})};
  try {
    const auto out = runtime::run_kernel(op, in);
    return out.size() == 1 && out[0].defined() && out[0].numel() == 1 &&
           out[0].to_float_vector()[0] == 0.0f;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

std::span<const PassEntry> pass_table() { return kPasses; }

const PassEntry* find_pass(std::string_view name) {
  for (const auto& e : kPasses)
    if (e.name == name) return &e;
  return nullptr;
}

std::string pass_names() {
  std::string s;
  for (const auto& e : kPasses) (s += s.empty() ? "" : ", ") += e.name;
  return s;
}

std::unique_ptr<Pass> make_pass(std::string_view name) {
  if (const PassEntry* e = find_pass(name)) return e->make();
  throw EdgeCompilerError(ErrorKind::Usage,
                          "unknown pass '" + std::string(name) + "'; valid passes: " + pass_names());
}

bool runtime_supports_fused_activation() {
  static const bool supported =
      fuses_relu(ir::OpKind::Conv, {1, 1, 1, 1}, {1, 1, 1, 1}) &&
      fuses_relu(ir::OpKind::Gemm, {1, 1}, {1, 1}) && fuses_relu(ir::OpKind::MatMul, {1, 1}, {1, 1}) &&
      fuses_relu(ir::OpKind::FullyConnected, {1, 1}, {1, 1});
  return supported;
}

std::vector<std::string> default_pipeline() {
  // Clean-ups first so folding and fusion see through Identity/Dropout; CSE after
  // folding merges the duplicate shape arithmetic exporters emit; DCE last
  // removes what the others orphaned.
  std::vector<std::string> p{"Cleanup", "ConstantFolding", "CommonSubexpressionElimination",
                             "ConstantFolding", "Cleanup", "FuseLayerNorm", "FuseGelu", "OpFusion"};
  if (runtime_supports_fused_activation()) p.push_back("FuseActivation");
  p.push_back("DeadCodeElimination");
  return p;
}

}  // namespace ec::passes
