// A 3-D convolution as ONE 2-D convolution over frames, for targets that need it in
// int8 (TFLite's CONV_3D is float only; the Edge TPU has none): time is unrolled
// into the batch and the kd frames each output frame reads are stacked in channels,
// so every output value is the same single sum (one int32 accumulation once
// quantised, exactly as a CONV_3D would compute it):
//
//   x [N, C, D, H, W] -Transpose-> [N, D, C, H, W] -Reshape-> [N, D, C*H*W] (-Pad in D)
//   tap k: Slice frames k*dd, k*dd + sd, ... (Do of them) -> Reshape [N*Do, C, H, W]
//   Concat the kd taps on C -> [N*Do, kd*C, H, W]
//   Conv 2-D, weight w'[m, k*C + c] = w[m, c, k]      -> [N*Do, M, Ho, Wo]
//   Reshape [N, Do, M, Ho, Wo] -Transpose-> y [N, M, Do, Ho, Wo]
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"

namespace ec::passes::decompose {

std::size_t conv3d_as_conv2d(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Conv || op.inputs.size() < 2 || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  if (!x || !x->shape.rank_known || x->shape.rank() != 5) return 0;
  auto refuse = [&](const std::string& r) {
    if (why) *why = r;
    return std::size_t{0};
  };
  if (x->dtype != ir::DType::Float32 || x->quant) return refuse("a 3-D convolution becomes 2-D ones only in float, before quantisation");
  if (!x->shape.is_static() || !y || !y->shape.rank_known || !y->shape.is_static()) return refuse("a 3-D convolution needs static shapes");
  const auto wv = f32_values(g, op.inputs[1]);
  if (!w || !wv || !w->shape.is_static() || w->shape.rank() != 5) return refuse("a 3-D convolution needs a constant float weight");
  if (op.attr_int("group", 1) != 1) return refuse("a grouped 3-D convolution");
  if (op.attr_string("auto_pad", "NOTSET") != "NOTSET") return refuse("a 3-D convolution with auto_pad");
  auto s = op.attr_ints("strides"), d = op.attr_ints("dilations"), p = op.attr_ints("pads");
  if (s.empty()) s = {1, 1, 1};
  if (d.empty()) d = {1, 1, 1};
  if (p.empty()) p = {0, 0, 0, 0, 0, 0};
  if (s.size() != 3 || d.size() != 3 || p.size() != 6) return refuse("a 3-D convolution with malformed attributes");
  const auto xs = x->shape.sizes(), ws = w->shape.sizes(), ys = y->shape.sizes();
  const std::int64_t N = xs[0], C = xs[1], D = xs[2], H = xs[3], W = xs[4];
  const std::int64_t M = ws[0], kd = ws[2], Do = ys[2];
  if (ws[1] != C || ys[1] != M) return refuse("a 3-D convolution whose weight does not match its input");
  if (kd < 1 || Do < 1 || (Do - 1) * s[0] + (kd - 1) * d[0] + 1 > D + p[0] + p[3])
    return refuse("a 3-D convolution whose output depth does not match its attributes");
  const std::int64_t taps2 = ws[3] * ws[4];

  OpBuilder b(g, op.name.empty() ? op.outputs[0] : op.name);
  std::string v = b.op1(K::Transpose, {op.inputs[0]}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3, 4}}});
  v = b.reshape(v, {N, D, C * H * W});
  if (p[0] > 0 || p[3] > 0) v = b.op1(K::Pad, {v, b.i64("pads", {0, p[0], 0, 0, p[3], 0})}, {{"mode", std::string("constant")}});
  std::vector<std::string> taps;
  for (std::int64_t k = 0; k < kd; ++k) {
    const std::int64_t first = k * d[0];
    const std::string sl = b.op1(K::Slice, {v, b.i64("starts", {first}), b.i64("ends", {first + (Do - 1) * s[0] + 1}),
                                            b.i64("axes", {1}), b.i64("steps", {s[0]})});
    taps.push_back(b.reshape(sl, {N * Do, C, H, W}));
  }
  const std::string stack = taps.size() == 1 ? taps[0] : b.op1(K::Concat, taps, {{"axis", std::int64_t{1}}});
  std::vector<float> w2(static_cast<std::size_t>(M * kd * C * taps2));
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t k = 0; k < kd; ++k)
        for (std::int64_t t = 0; t < taps2; ++t)
          w2[static_cast<std::size_t>(((m * kd + k) * C + c) * taps2 + t)] = (*wv)[static_cast<std::size_t>(((m * C + c) * kd + k) * taps2 + t)];
  ir::Operation conv = op;
  conv.name = (op.name.empty() ? op.outputs[0] : op.name) + "/frames";
  conv.inputs[0] = stack;
  conv.inputs[1] = b.f32("weight", {M, kd * C, ws[3], ws[4]}, w2);
  conv.outputs = {b.activation("frames_out", ir::DType::Float32, std::nullopt, std::vector<std::int64_t>{N * Do, M, ys[3], ys[4]})};
  conv.attributes["kernel_shape"] = std::vector<std::int64_t>{ws[3], ws[4]};
  conv.attributes["strides"] = std::vector<std::int64_t>{s[1], s[2]};
  conv.attributes["dilations"] = std::vector<std::int64_t>{d[1], d[2]};
  conv.attributes["pads"] = std::vector<std::int64_t>{p[1], p[2], p[4], p[5]};
  b.ops().push_back(conv);
  const std::string r = b.reshape(conv.outputs[0], {N, Do, M, ys[3], ys[4]});
  b.op(K::Transpose, {r}, {op.outputs[0]}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3, 4}}}, op.name);
  const std::size_t n = b.ops().size();
  splice_ops(g, index, std::move(b.ops()));
  return n;
}

}  // namespace ec::passes::decompose
