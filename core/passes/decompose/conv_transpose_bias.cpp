// A ConvTranspose's bias as an Add after it, for the Edge TPU: TFLite's TRANSPOSE_CONV
// takes a bias only from op version 3, which the Edge TPU compiler's TFLite cannot
// parse ("TRANSPOSE_CONV v3/v4" fail the parse and the whole model with it;
// core/backends/coral/README.md). Float; the Add is calibrated and quantised like any other.
#include "core/ir/activation.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {

std::size_t conv_transpose_bias_as_add(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if (op.kind != K::ConvTranspose || op.inputs.size() < 3 || op.inputs[2].empty() || op.outputs.empty()) return 0;
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  const auto bias = f32_values(g, op.inputs[2]);
  if (!y || y->dtype != ir::DType::Float32 || y->quant || !y->shape.rank_known || y->shape.rank() < 3) return 0;
  if (!bias) {
    if (why) *why = "a ConvTranspose bias that is not a float constant stays its input (TRANSPOSE_CONV v3)";
    return 0;
  }
  if (ir::fused_activation(op) != ir::Activation::None) {
    if (why) *why = "a ConvTranspose with a fused activation keeps its bias (TRANSPOSE_CONV v3)";
    return 0;
  }
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  ir::Operation conv = op;
  conv.inputs.resize(2);
  conv.outputs = {b.activation("no_bias", ir::DType::Float32, std::nullopt, y->shape.is_static() ? std::optional(y->shape.sizes()) : std::nullopt)};
  b.ops().push_back(conv);
  // [M] -> [1, M, 1, ...] against NCHW
  std::vector<std::int64_t> shape(y->shape.rank(), 1);
  shape[1] = static_cast<std::int64_t>(bias->size());
  b.op(K::Add, {conv.outputs[0], b.f32("bias", shape, *bias)}, {op.outputs[0]}, {}, op.name + "/bias");
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

}  // namespace ec::passes::decompose
