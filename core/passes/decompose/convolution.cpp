// Convolutions and pools in the forms TFLite has builtins for.
//
//   1-D op over [N, C, W]      -> Reshape [N, C, 1, W], the 2-D op (kernel [1, k]), Reshape back
//   Conv, group G (not depthwise) -> Split(x, G) on C, G Convs, Concat
//   ConvTranspose, group G     -> the same, weights [C, M/G, ...] split on C
//   ConvTranspose, dilation d  -> the kernel dilated: k' = (k - 1) d + 1 taps, zeros between
#include <cstring>

#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {
namespace {

using K = ir::OpKind;

bool is_conv_or_pool(K k) {
  return k == K::Conv || k == K::ConvTranspose || k == K::MaxPool || k == K::AveragePool || k == K::GlobalAveragePool ||
         k == K::GlobalMaxPool;
}

// ints attribute `key` of a 1-D op with `inner` prepended (pads: [b, e] -> [inner, b, inner, e]).
void widen(ir::Operation& op, const std::string& key, std::int64_t inner, bool pads) {
  const auto v = op.attr_ints(key);
  if (v.empty()) return;
  if (pads && v.size() == 2) op.attributes[key] = std::vector<std::int64_t>{inner, v[0], inner, v[1]};
  else if (!pads && v.size() == 1) op.attributes[key] = std::vector<std::int64_t>{inner, v[0]};
}

// A copy of constant `name` (rows [r0, r0 + n) of its first axis), with its per-channel
// params sliced when they run along `qaxis` = 0.
std::string slice_rows(OpBuilder& b, const ir::Tensor& w, std::int64_t r0, std::int64_t n, const std::string& suffix) {
  auto shape = w.shape.sizes();
  const std::size_t row = w.data->size() / static_cast<std::size_t>(shape[0]);
  shape[0] = n;
  std::optional<ir::QuantParams> q = w.quant;
  if (q && q->scales.size() > 1 && q->axis == 0) {
    q->scales.assign(w.quant->scales.begin() + r0, w.quant->scales.begin() + r0 + n);
    if (q->zero_points.size() > 1) q->zero_points.assign(w.quant->zero_points.begin() + r0, w.quant->zero_points.begin() + r0 + n);
  }
  return b.constant(suffix, w.dtype, shape, w.data->data() + row * static_cast<std::size_t>(r0), row * static_cast<std::size_t>(n), q);
}

bool static_rank(const ir::Tensor* t, std::size_t rank) {
  return t && t->shape.rank_known && t->shape.rank() == rank && t->shape.is_static();
}

}  // namespace

std::size_t one_d_as_two_d(ir::Graph& g, std::size_t index, std::string* why) {
  ir::Operation op = g.ops[index];
  if (!is_conv_or_pool(op.kind) || op.inputs.empty() || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() != 3 || op.attr_string("layout", "NCHW") != "NCHW") return 0;
  if (!x->shape.is_static() || !y || !y->shape.is_static()) {
    if (why) *why = "a 1-D " + op.op_type + " needs static shapes to become its 2-D form";
    return 0;
  }
  if (op.outputs.size() > 1 && !op.outputs[1].empty()) {
    if (why) *why = "MaxPool's indices output has no TFLite form";
    return 0;
  }
  const auto xs = x->shape.sizes(), ys = y->shape.sizes();
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const std::string x4 = b.reshape(op.inputs[0], {xs[0], xs[1], 1, xs[2]}, x->dtype, x->quant);
  ir::Operation two = op;
  two.inputs[0] = x4;
  widen(two, "kernel_shape", 1, false);
  widen(two, "strides", 1, false);
  // The unit H axis takes the W dilation: with a kernel height of 1 it changes nothing, and the
  // Edge TPU maps a dilated convolution only with the same dilation on both axes.
  {
    const auto d = two.attr_ints("dilations");
    widen(two, "dilations", d.size() == 1 ? d[0] : 1, false);
  }
  widen(two, "output_padding", 0, false);
  widen(two, "output_shape", 1, false);
  widen(two, "pads", 0, true);
  if ((op.kind == K::Conv || op.kind == K::ConvTranspose) && op.inputs.size() > 1) {
    const ir::Tensor* w = g.find_tensor(op.inputs[1]);
    if (!w || !w->is_constant() || !static_rank(w, 3)) {
      if (why) *why = "a 1-D " + op.op_type + " needs a constant weight";
      return 0;
    }
    const auto ws = w->shape.sizes();
    two.inputs[1] = b.constant("weight", w->dtype, {ws[0], ws[1], 1, ws[2]}, w->data->data(), w->data->size(), w->quant);
  }
  const std::string y4 = b.activation("out4d", y->dtype, y->quant, std::vector<std::int64_t>{ys[0], ys[1], 1, ys[2]});
  two.outputs = {y4};
  two.name = op.name;
  b.ops().push_back(std::move(two));
  b.reshape(y4, ys, y->dtype, y->quant, op.outputs[0]);
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

std::size_t grouped_conv(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Conv && op.kind != K::ConvTranspose) return 0;
  const std::int64_t G = op.attr_int("group", 1);
  if (G <= 1 || op.inputs.size() < 2) return 0;
  const bool nhwc = op.attr_string("layout", "NCHW") == "NHWC";
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!x || !w || !y || !x->shape.rank_known || !w->is_constant() || !w->shape.is_static()) {
    if (why) *why = "a grouped " + op.op_type + " needs a constant weight and a known input rank";
    return 0;
  }
  const std::size_t caxis = nhwc ? x->shape.rank() - 1 : 1;
  if (!x->shape.dims[caxis].is_static()) return 0;
  const std::int64_t C = x->shape.dims[caxis].value;
  const auto ws = w->shape.sizes();
  // depthwise (every channel its own group, weight with one input channel) has its own TFLite op
  if (op.kind == K::Conv && G == C && ws[nhwc ? ws.size() - 1 : 1] == 1) return 0;
  if (C % G != 0 || ws[0] % G != 0) {
    if (why) *why = "channels not divisible by the group count";
    return 0;
  }
  if (nhwc && op.kind == K::ConvTranspose) return 0;
  const ir::Tensor* bias = op.inputs.size() > 2 && !op.inputs[2].empty() ? g.find_tensor(op.inputs[2]) : nullptr;
  if (bias && (!bias->is_constant() || !bias->shape.is_static())) {
    if (why) *why = "a grouped " + op.op_type + " needs a constant bias";
    return 0;
  }
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  std::vector<std::string> parts;
  for (std::int64_t i = 0; i < G; ++i) parts.push_back(b.activation("group" + std::to_string(i) + "_in", x->dtype, x->quant));
  b.op(K::Split, {op.inputs[0]}, parts, {{"axis", static_cast<std::int64_t>(caxis)}});
  const std::int64_t rows = ws[0] / G;
  const std::int64_t out_per_group = op.kind == K::Conv ? rows : ws[1];
  std::vector<std::string> outs;
  for (std::int64_t i = 0; i < G; ++i) {
    ir::Operation c = op;
    c.attributes["group"] = std::int64_t{1};
    c.inputs = {parts[static_cast<std::size_t>(i)], slice_rows(b, *w, i * rows, rows, "group" + std::to_string(i) + "_weight")};
    if (bias) {
      const std::int64_t n = out_per_group;
      c.inputs.push_back(slice_rows(b, *bias, i * n, n, "group" + std::to_string(i) + "_bias"));
    }
    if (auto os = op.attr_ints("output_shape"); !os.empty()) c.attributes["output_shape"] = os;
    outs.push_back(b.activation("group" + std::to_string(i) + "_out", y->dtype, y->quant));
    c.outputs = {outs.back()};
    c.name = (op.name.empty() ? op.outputs[0] : op.name) + "/group" + std::to_string(i);
    b.ops().push_back(std::move(c));
  }
  b.op(K::Concat, outs, {op.outputs[0]}, {{"axis", static_cast<std::int64_t>(caxis)}}, op.name);
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

std::size_t dilated_conv_transpose(ir::Graph& g, std::size_t index, std::string* why) {
  ir::Operation op = g.ops[index];
  if (op.kind != K::ConvTranspose || op.inputs.size() < 2) return 0;
  const auto d = op.attr_ints("dilations");
  bool dilated = false;
  for (auto v : d) dilated |= v != 1;
  if (!dilated) return 0;
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  if (!w || !w->is_constant() || !w->shape.is_static() || w->shape.rank() != d.size() + 2) {
    if (why) *why = "a dilated ConvTranspose needs a constant weight";
    return 0;
  }
  if (w->quant && !w->quant->zero_points.empty())
    for (auto z : w->quant->zero_points)
      if (z != 0) {
        if (why) *why = "a dilated ConvTranspose with weight zero points";
        return 0;
      }
  const auto ws = w->shape.sizes();
  const std::size_t es = ir::dtype_size(w->dtype);
  std::vector<std::int64_t> ns = ws;
  std::int64_t taps = 1, ntaps = 1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    ns[2 + i] = (ws[2 + i] - 1) * d[i] + 1;
    taps *= ws[2 + i];
    ntaps *= ns[2 + i];
  }
  const std::int64_t planes = ws[0] * ws[1];
  std::vector<std::byte> buf(static_cast<std::size_t>(planes * ntaps) * es, std::byte{0});
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t t = 0; t < taps; ++t) {
      // tap t's coordinates in the old kernel, then its offset in the dilated one
      std::int64_t rest = t, off = 0, stride = 1;
      for (std::size_t i = d.size(); i-- > 0;) {
        const std::int64_t c = rest % ws[2 + i];
        rest /= ws[2 + i];
        off += c * d[i] * stride;
        stride *= ns[2 + i];
      }
      std::memcpy(&buf[static_cast<std::size_t>(p * ntaps + off) * es], w->data->data() + static_cast<std::size_t>(p * taps + t) * es, es);
    }
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  op.inputs[1] = b.constant("dilated_weight", w->dtype, ns, buf.data(), buf.size(), w->quant);
  op.attributes["dilations"] = std::vector<std::int64_t>(d.size(), 1);
  op.attributes["kernel_shape"] = std::vector<std::int64_t>(ns.begin() + 2, ns.end());
  g.ops[index] = std::move(op);
  return 1;
}

std::size_t pool_3d(ir::Graph& g, std::size_t index, std::string* why) {
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::MaxPool && op.kind != K::AveragePool) || op.inputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() != 5 || op.attr_string("layout", "NCHW") != "NCHW") return 0;
  auto refuse = [&](const std::string& w) {
    if (why) *why = w;
    return std::size_t{0};
  };
  if (!x->shape.is_static() || !y || !y->shape.is_static()) return refuse("a 3-D pool needs static shapes");
  if (op.outputs.size() > 1 && !op.outputs[1].empty()) return refuse("MaxPool's indices output has no TFLite form");
  const auto k = op.attr_ints("kernel_shape");
  auto st = op.attr_ints("strides"), pads = op.attr_ints("pads"), dil = op.attr_ints("dilations");
  if (st.empty()) st = {1, 1, 1};
  if (pads.empty()) pads = {0, 0, 0, 0, 0, 0};
  if (k.size() != 3 || st.size() != 3 || pads.size() != 6) return refuse("a 3-D pool with malformed attributes");
  if (pads[0] != 0 || pads[3] != 0) return refuse("a 3-D pool padded in time (depth)");
  if (!dil.empty() && dil != std::vector<std::int64_t>{1, 1, 1}) return refuse("a dilated 3-D pool");
  if (op.attr_string("auto_pad", "NOTSET") != "NOTSET") return refuse("a 3-D pool with auto_pad");
  if (op.kind == K::AveragePool && k[0] > 1 && x->dtype != ir::DType::Float32) return refuse("an int8 3-D average pool over time");
  const auto xs = x->shape.sizes(), ys = y->shape.sizes();
  const std::int64_t N = xs[0], C = xs[1], D = xs[2], Do = ys[2];
  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  const auto dt = x->dtype;
  const auto q = x->quant;
  // [N, C, D, H, W] -> [N, D, C, H, W] -> [N*D, C, H, W]: a 2-D pool per frame
  std::string v = b.op(K::Transpose, {op.inputs[0]}, {b.activation("frames", dt, q)}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3, 4}}});
  v = b.reshape(v, {N * D, C, xs[3], xs[4]}, dt, q);
  ir::Operation p2 = op;
  p2.inputs = {v};
  p2.outputs = {b.activation("pooled_frames", dt, q, std::vector<std::int64_t>{N * D, C, ys[3], ys[4]})};
  p2.attributes["kernel_shape"] = std::vector<std::int64_t>{k[1], k[2]};
  p2.attributes["strides"] = std::vector<std::int64_t>{st[1], st[2]};
  p2.attributes["pads"] = std::vector<std::int64_t>{pads[1], pads[2], pads[4], pads[5]};
  p2.attributes.erase("dilations");
  p2.name = (op.name.empty() ? op.outputs[0] : op.name) + "/frames";
  b.ops().push_back(p2);
  v = b.reshape(p2.outputs[0], {N, D, C, ys[3], ys[4]}, dt, q);
  // in time: the max (or mean) of kd strided slices of the frames
  std::string acc;
  for (std::int64_t j = 0; j < k[0]; ++j) {
    const std::string sl = b.op(K::Slice, {v, b.i64("starts", {j}), b.i64("ends", {j + (Do - 1) * st[0] + 1}), b.i64("axes", {1}),
                                           b.i64("steps", {st[0]})},
                                {b.activation("tap", dt, q, std::vector<std::int64_t>{N, Do, C, ys[3], ys[4]})});
    if (acc.empty()) acc = sl;
    else acc = b.op(op.kind == K::MaxPool ? K::Max : K::Add, {acc, sl}, {b.activation("taps", dt, q, std::vector<std::int64_t>{N, Do, C, ys[3], ys[4]})});
  }
  if (op.kind == K::AveragePool && k[0] > 1) {
    acc = b.op1(K::Mul, {acc, b.f32_scalar("one_over_kd", 1.f / static_cast<float>(k[0]))});
  }
  b.op(K::Transpose, {acc}, {op.outputs[0]}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3, 4}}}, op.name);
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

}  // namespace ec::passes::decompose
