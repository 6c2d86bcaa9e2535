// Data movement TFLite has no builtin for, as ops it has.
//
//   DepthToSpace, CRD mode: channel c' b^2 + i b + j (CRD) is channel (i b + j) C' + c' in DCR,
//     so x as [N, C', b^2, H W], Transpose(0, 2, 1, 3), back to [N, C, H, W], then the DCR op
//     (TFLite's DEPTH_TO_SPACE). Exact; float and quantised alike (data movement only).
//   Dropout (inference): the identity; a used mask output becomes what it is in inference,
//     a constant of ones (bool) under its own name.
#include <algorithm>
#include <cstring>

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

namespace ec::passes::decompose {

std::size_t compress_as_gather(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Compress || op.inputs.size() < 2 || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* c = g.find_tensor(op.inputs[1]);
  if (!x || !c || !c->is_constant() || c->dtype != ir::DType::Bool)
    return detail::refuse(why, "Compress with a condition computed at run time (TFLite has no op with a data-dependent shape here)");
  const auto xs = detail::static_shape(g, op.inputs[0]);
  if (!xs) return detail::refuse(why, "Compress of a tensor of unknown shape");
  const auto bytes = c->data->bytes();
  std::vector<std::int64_t> keep;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    if (bytes[i] != std::byte{0}) keep.push_back(static_cast<std::int64_t>(i));
  if (keep.empty()) return detail::refuse(why, "Compress that keeps nothing (an empty output)");
  OpBuilder b(g, detail::base_of(op));
  std::string v = op.inputs[0];
  std::int64_t axis = 0;
  if (const ir::Attribute* a = op.attr("axis")) {
    axis = std::get<std::int64_t>(*a);
    if (axis < 0) axis += static_cast<std::int64_t>(xs->size());
  } else {  // no axis: over the flattened input
    std::int64_t n = 1;
    for (const std::int64_t d : *xs) n *= d;
    v = b.reshape(v, {n}, x->dtype, x->quant);
  }
  b.op(K::Gather, {v, b.i64("indices", keep)}, {op.outputs[0]}, {{"axis", axis}}, op.name);
  return detail::finish(g, index, b);
}

std::size_t center_crop_pad(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::CenterCropPad || op.inputs.size() < 2 || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* s = g.find_tensor(op.inputs[1]);
  const auto xs = detail::static_shape(g, op.inputs[0]);
  if (!x || !xs || !s || !s->is_constant() || s->dtype != ir::DType::Int64)
    return detail::refuse(why, "CenterCropPad needs a static input shape and a constant target shape");
  const auto target = s->data->as<std::int64_t>();
  const std::int64_t rank = static_cast<std::int64_t>(xs->size());
  std::vector<std::int64_t> axes = op.attr_ints("axes");
  if (axes.empty())
    for (std::int64_t d = 0; d < rank; ++d) axes.push_back(d);
  if (axes.size() != target.size()) return detail::refuse(why, "CenterCropPad whose shape and axes differ in length");
  std::vector<std::int64_t> starts, ends, slice_axes, pads(2 * static_cast<std::size_t>(rank), 0);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < 0 || a >= rank) return detail::refuse(why, "CenterCropPad with an axis out of range");
    const std::int64_t in = (*xs)[static_cast<std::size_t>(a)], out = target[i];
    if (out < in) {  // crop: the window starts at (in - out) / 2
      starts.push_back((in - out) / 2);
      ends.push_back((in - out) / 2 + out);
      slice_axes.push_back(a);
    } else if (out > in) {  // pad: (out - in) / 2 before, the rest after
      pads[static_cast<std::size_t>(a)] = (out - in) / 2;
      pads[static_cast<std::size_t>(a + rank)] = out - in - (out - in) / 2;
    }
  }
  OpBuilder b(g, detail::base_of(op));
  std::string v = op.inputs[0];
  const bool pad = std::any_of(pads.begin(), pads.end(), [](std::int64_t p) { return p != 0; });
  if (!starts.empty())
    v = b.op1(K::Slice, {v, b.i64("starts", starts), b.i64("ends", ends), b.i64("axes", slice_axes)}, {}, x->dtype, x->quant);
  if (pad) v = b.op1(K::Pad, {v, b.i64("pads", pads)}, {{"mode", std::string("constant")}}, x->dtype, x->quant);
  detail::emit_as(b, v, op.outputs[0]);
  return detail::finish(g, index, b);
}

// Gather with constant indices that name one run of consecutive positions (x[:, -1], a class
// token x[:, 0], x[:, 2:5] exported as Gather) as Slice of that run, then (scalar index) a
// Reshape dropping the axis. The Edge TPU maps SLICE and RESHAPE but not GATHER. Exact:
// the same values move; any dtype, params pass through.
std::size_t gather_as_slice(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Gather || op.inputs.size() != 2 || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* ix = g.find_tensor(op.inputs[1]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  const auto xs = detail::static_shape(g, op.inputs[0]);
  const auto ys = detail::static_shape(g, op.outputs[0]);
  if (!x || !ix || !y || !xs || !ys || xs->empty())
    return detail::refuse(why, "Gather needs a static data shape to become a Slice");
  if (!ix->is_constant() || !ix->shape.rank_known || ix->shape.rank() > 1 || !ix->data ||
      (ix->dtype != ir::DType::Int64 && ix->dtype != ir::DType::Int32))
    return detail::refuse(why, "Gather becomes a Slice only with constant scalar or 1-D indices");
  const auto rank = static_cast<std::int64_t>(xs->size());
  std::int64_t axis = op.attr_int("axis", 0);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) return detail::refuse(why, "Gather axis out of range");
  const std::int64_t n = (*xs)[static_cast<std::size_t>(axis)];
  std::vector<std::int64_t> idx;
  const std::size_t count = ix->data->size() / ir::dtype_size(ix->dtype);
  for (std::size_t i = 0; i < count; ++i) {
    std::int64_t v = 0;
    if (ix->dtype == ir::DType::Int64) std::memcpy(&v, ix->data->data() + 8 * i, 8);
    else {
      std::int32_t v32 = 0;
      std::memcpy(&v32, ix->data->data() + 4 * i, 4);
      v = v32;
    }
    if (v < 0) v += n;
    if (v < 0 || v >= n) return detail::refuse(why, "Gather index " + std::to_string(v) + " out of range");
    idx.push_back(v);
  }
  if (idx.empty()) return detail::refuse(why, "Gather with no index");
  for (std::size_t i = 1; i < idx.size(); ++i)
    if (idx[i] != idx[i - 1] + 1) return detail::refuse(why, "Gather indices are not one run of consecutive positions");
  OpBuilder b(g, detail::base_of(op));
  const bool scalar = ix->shape.rank() == 0;
  const std::string v = b.op(K::Slice,
                             {op.inputs[0], b.i64("starts", {idx.front()}),
                              b.i64("ends", {idx.back() + 1}), b.i64("axes", {axis})},
                             {scalar ? b.activation("slice", y->dtype, y->quant) : op.outputs[0]}, {},
                             scalar ? std::string() : op.name);
  if (scalar) {
    b.reshape(v, *ys, y->dtype, y->quant, op.outputs[0]);
    if (!op.name.empty()) b.ops().back().name = op.name;
  }
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
