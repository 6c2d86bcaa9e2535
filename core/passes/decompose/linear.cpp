// Gemm forms the TFLite writer has no FULLY_CONNECTED for, as ones it has:
//
//   Y = alpha op(A) op(B) + beta C
//     op(A) = Transpose(A) when transA
//     op(A) op(B): Gemm(transB) without alpha, beta, C (FULLY_CONNECTED) when B is a constant,
//                  else MatMul(op(A), op(B)) (BATCH_MATMUL)
//     alpha: Mul;  beta C: a constant C scaled here, else Mul;  + C: Add (C broadcasts as the op's)
// C goes into the FULLY_CONNECTED as its bias when it is a constant [N] / [1, N] and
// alpha and beta are 1. float only.
#include <algorithm>

#include "core/ir/activation.h"
#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {

std::size_t gemm(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if (op.kind != K::Gemm || op.inputs.size() < 2 || op.outputs.empty()) return 0;
  const bool trans_a = op.attr_int("transA", 0) != 0, trans_b = op.attr_int("transB", 0) != 0;
  const double alpha = detail::attr_double(op, "alpha", 1.0), beta = detail::attr_double(op, "beta", 1.0);
  const bool has_c = op.inputs.size() > 2 && !op.inputs[2].empty();
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  if (!w) return 0;
  const bool w_const = w->is_constant() && w->shape.is_static() && w->shape.rank() == 2;
  const auto bs = detail::static_shape(g, op.inputs[1]);
  // The output's columns N, and whether C is a bias FULLY_CONNECTED takes as it is.
  const std::int64_t N = bs && bs->size() == 2 ? (*bs)[trans_b ? 0 : 1] : -1;
  bool bias_as_is = !has_c;
  if (has_c) {
    const ir::Tensor* c = g.find_tensor(op.inputs[2]);
    const auto cs = detail::static_shape(g, op.inputs[2]);
    bias_as_is = c && c->is_constant() && cs && N > 0 &&
                 (*cs == std::vector<std::int64_t>{N} || *cs == std::vector<std::int64_t>{1, N});
  }
  if (!trans_a && alpha == 1.0 && beta == 1.0 && w_const && bias_as_is) return 0;  // FULLY_CONNECTED as it is
  if (ir::fused_activation(op) != ir::Activation::None) return detail::refuse(why, "Gemm with a fused activation");
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    if (!op.inputs[i].empty() && !detail::is_float(g, op.inputs[i])) return detail::refuse(why, "Gemm on non-float tensors");
  if (!detail::is_float(g, op.outputs[0])) return detail::refuse(why, "Gemm on non-float tensors");

  OpBuilder b(g, detail::base_of(op));
  const std::vector<std::int64_t> swap{1, 0};
  const std::string a = trans_a ? b.op1(K::Transpose, {op.inputs[0]}, {{"perm", swap}}) : op.inputs[0];
  const bool bias_in_fc = has_c && bias_as_is && w_const && alpha == 1.0 && beta == 1.0;
  std::string y;
  if (w_const) {
    std::vector<std::string> in{a, op.inputs[1]};
    if (bias_in_fc) in.push_back(op.inputs[2]);
    y = b.op1(K::Gemm, in, {{"transB", std::int64_t{trans_b ? 1 : 0}}});
  } else {
    y = b.op1(K::MatMul, {a, trans_b ? b.op1(K::Transpose, {op.inputs[1]}, {{"perm", swap}}) : op.inputs[1]});
  }
  if (alpha != 1.0) y = b.op1(K::Mul, {y, b.f32_scalar("alpha", static_cast<float>(alpha))});
  if (has_c && !bias_in_fc && beta != 0.0) {
    std::string c = op.inputs[2];
    if (beta != 1.0) {
      if (auto v = f32_values(g, c)) {
        for (float& e : *v) e = static_cast<float>(beta * e);
        c = b.f32("beta_c", g.find_tensor(op.inputs[2])->shape.sizes(), *v);
      } else {
        c = b.op1(K::Mul, {c, b.f32_scalar("beta", static_cast<float>(beta))});
      }
    }
    y = b.op1(K::Add, {y, c});
  }
  detail::write_last_to(b, op);
  return detail::finish(g, index, b);
}

// A constant-weight FullyConnected / MatMul / Gemm (plain) whose output has more than one
// dimension > 1 ([T, N] tokens, a recurrent layer's input projection over the sequence), as
//   Reshape x [..., K] -> [1, M, 1, K]   (M = the product of the leading dims)
//   Conv 1x1, NHWC, weight [N, 1, 1, K]  (the same integers and params, bias and activation)
//   Reshape [1, M, 1, N] -> y's shape
// The Edge TPU maps FULLY_CONNECTED only with a one-dimensional output; a 1x1 CONV_2D is
// the same sum of products over K for every row, with the same requantisation, so the
// result is the same integers (float or int8).
std::size_t fc_as_conv1x1(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::FullyConnected && op.kind != K::MatMul && op.kind != K::Gemm) || op.inputs.size() < 2 ||
      op.outputs.empty())
    return 0;
  if (op.kind == K::Gemm && (op.attr_int("transA", 0) != 0 || detail::attr_double(op, "alpha", 1.0) != 1.0 ||
                             detail::attr_double(op, "beta", 1.0) != 1.0))
    return detail::refuse(why, "a Gemm with transA, alpha or beta stays as it is");
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  const auto xs = detail::static_shape(g, op.inputs[0]);
  const auto ys = detail::static_shape(g, op.outputs[0]);
  if (!x || !w || !y || !xs || !ys || xs->empty() || ys->empty())
    return detail::refuse(why, op.op_type + " needs static input and output shapes to become a 1x1 convolution");
  if (!w->is_constant() || !w->shape.is_static() || w->shape.rank() != 2 || !w->data)
    return detail::refuse(why, op.op_type + " needs a constant 2-D weight to become a 1x1 convolution");
  // [N, K] as FULLY_CONNECTED and Gemm(transB) hold it; MatMul and Gemm hold [K, N]
  const bool n_first = op.kind == K::FullyConnected || (op.kind == K::Gemm && op.attr_int("transB", 0) != 0);
  const auto ws = w->shape.sizes();
  const std::int64_t N = n_first ? ws[0] : ws[1], Kd = n_first ? ws[1] : ws[0];
  if (xs->back() != Kd || ys->back() != N) return detail::refuse(why, op.op_type + ": weight and shapes disagree");
  std::int64_t M = 1;
  for (std::size_t i = 0; i + 1 < xs->size(); ++i) M *= (*xs)[i];
  const ir::Tensor* bias = op.inputs.size() > 2 && !op.inputs[2].empty() ? g.find_tensor(op.inputs[2]) : nullptr;
  if (bias && (!bias->is_constant() || !bias->shape.is_static() || bias->num_elements().value_or(0) != N))
    return detail::refuse(why, op.op_type + " needs a constant bias of " + std::to_string(N) + " values");

  OpBuilder b(g, detail::base_of(op));
  // the weight as OHWI [N, 1, 1, K]: FULLY_CONNECTED's bytes as they are, [K, N] transposed
  const std::size_t es = ir::dtype_size(w->dtype);
  std::vector<std::uint8_t> bytes(w->data->size());
  const auto* src = reinterpret_cast<const std::uint8_t*>(w->data->data());
  if (n_first) std::copy(src, src + bytes.size(), bytes.begin());
  else
    for (std::int64_t k = 0; k < Kd; ++k)
      for (std::int64_t n = 0; n < N; ++n)
        std::copy_n(src + static_cast<std::size_t>(k * N + n) * es, es, bytes.data() + static_cast<std::size_t>(n * Kd + k) * es);
  std::optional<ir::QuantParams> wq = w->quant;
  if (wq && wq->scales.size() > 1) wq->axis = 0;  // per output channel: axis 0 of OHWI
  std::vector<std::string> conv_in = {b.reshape(op.inputs[0], {1, M, 1, Kd}, x->dtype, x->quant),
                                      b.constant("weight", w->dtype, {N, 1, 1, Kd}, bytes.data(), bytes.size(), wq)};
  if (bias) {
    std::optional<ir::QuantParams> bq = bias->quant;
    if (bq && bq->scales.size() > 1) bq->axis = 0;
    conv_in.push_back(b.constant("bias", bias->dtype, {N}, bias->data->data(), bias->data->size(), bq));
  }
  const std::string conv_out = b.activation("conv_out", y->dtype, y->quant, std::vector<std::int64_t>{1, M, 1, N});
  b.op(K::Conv, conv_in, {conv_out},
       {{"kernel_shape", std::vector<std::int64_t>{1, 1}}, {"strides", std::vector<std::int64_t>{1, 1}},
        {"pads", std::vector<std::int64_t>{0, 0, 0, 0}}, {"dilations", std::vector<std::int64_t>{1, 1}},
        {"group", std::int64_t{1}}, {"layout", std::string("NHWC")},
        {std::string(ir::kFusedActivationAttr), std::string(ir::activation_name(ir::fused_activation(op)))}},
       detail::base_of(op) + "/conv1x1");
  b.reshape(conv_out, *ys, y->dtype, y->quant, op.outputs[0]);
  if (!op.name.empty()) b.ops().back().name = op.name;
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
