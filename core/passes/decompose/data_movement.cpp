// Data movement TFLite has no builtin for, as ops it has.
//
//   DepthToSpace, CRD mode: channel c' b^2 + i b + j (CRD) is channel (i b + j) C' + c' in DCR,
//     so x as [N, C', b^2, H W], Transpose(0, 2, 1, 3), back to [N, C, H, W], then the DCR op
//     (TFLite's DEPTH_TO_SPACE). Exact; float and quantised alike (data movement only).
//   Dropout (inference): the identity; a used mask output becomes what it is in inference,
//     a constant of ones (bool) under its own name.
#include <algorithm>

#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {

using K = ir::OpKind;

std::size_t depth_to_space_crd(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::DepthToSpace || op.attr_string("mode", "DCR") != "CRD" || op.inputs.empty() || op.outputs.empty()) return 0;
  const auto xs = detail::static_shape(g, op.inputs[0]);
  const std::int64_t bs = op.attr_int("blocksize", 0);
  if (!xs || xs->size() != 4 || bs <= 0 || (*xs)[1] % (bs * bs))
    return detail::refuse(why, "DepthToSpace (CRD) needs a static 4-D input with channels divisible by blocksize^2");
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const std::int64_t N = (*xs)[0], C = (*xs)[1], H = (*xs)[2], W = (*xs)[3];
  OpBuilder b(g, detail::base_of(op));
  const std::string r = b.reshape(op.inputs[0], {N, C / (bs * bs), bs * bs, H * W}, x->dtype, x->quant);
  const std::string t =
      b.op(K::Transpose, {r}, {b.activation("dcr_order", x->dtype, x->quant)}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
  const std::string d = b.reshape(t, *xs, x->dtype, x->quant);
  auto attrs = op.attributes;
  attrs["mode"] = std::string("DCR");
  b.op(K::DepthToSpace, {d}, {op.outputs[0]}, attrs, op.name);
  return detail::finish(g, index, b);
}

std::size_t dropout(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Dropout || op.inputs.empty() || op.outputs.empty() || op.outputs[0].empty()) return 0;
  if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
    const ir::Tensor* t = g.find_tensor(op.inputs[2]);
    bool inference = t && t->is_constant() && t->data->size() > 0;
    if (inference) inference = std::all_of(t->data->data(), t->data->data() + t->data->size(), [](std::byte v) { return v == std::byte{0}; });
    // training mode with a ratio of 0 drops nothing (PyTorch exports Swin's attention dropout so)
    if (!inference && op.inputs.size() > 1 && !op.inputs[1].empty())
      if (const auto r = f32_values(g, op.inputs[1]); r && r->size() == 1 && (*r)[0] == 0.f) inference = true;
    if (!inference) return detail::refuse(why, "Dropout in training mode (or decided at run time)");
  }
  std::optional<std::vector<std::int64_t>> mask_shape;  // of a used mask
  if (op.outputs.size() > 1 && !op.outputs[1].empty()) {
    bool used = std::find(g.outputs.begin(), g.outputs.end(), op.outputs[1]) != g.outputs.end();
    for (const auto& o : g.ops)
      used |= std::find(o.inputs.begin(), o.inputs.end(), op.outputs[1]) != o.inputs.end();
    if (used) {
      mask_shape = detail::static_shape(g, op.inputs[0]);
      if (!mask_shape) return detail::refuse(why, "Dropout's mask output is used and the input's shape is not static");
    }
  }
  if (mask_shape) {  // the mask is all true in inference: a constant, under its own name
    ir::Tensor& m = *g.find_tensor(op.outputs[1]);
    std::int64_t n = 1;
    for (auto e : *mask_shape) n *= e;
    const std::vector<std::uint8_t> ones(static_cast<std::size_t>(n), 1);
    m.dtype = ir::DType::Bool;
    m.shape = ir::Shape::of(*mask_shape);
    m.data = ir::ConstantData::copy_of(ones.data(), ones.size());
  } else if (op.outputs.size() > 1 && !op.outputs[1].empty()) {
    g.tensors.erase(op.outputs[1]);  // the unused mask
  }
  OpBuilder b(g, detail::base_of(op));
  b.op(K::Identity, {op.inputs[0]}, {op.outputs[0]}, {}, op.name);
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
