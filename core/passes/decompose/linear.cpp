// Gemm forms the TFLite writer has no FULLY_CONNECTED for, as ones it has:
//
//   Y = alpha op(A) op(B) + beta C
//     op(A) = Transpose(A) when transA
//     op(A) op(B): Gemm(transB) without alpha, beta, C (FULLY_CONNECTED) when B is a constant,
//                  else MatMul(op(A), op(B)) (BATCH_MATMUL)
//     alpha: Mul;  beta C: a constant C scaled here, else Mul;  + C: Add (C broadcasts as the op's)
// C goes into the FULLY_CONNECTED as its bias when it is a constant [N] / [1, N] and
// alpha and beta are 1. float only.
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
  if (op.attr_string("fused_activation", "NONE") != "NONE") return detail::refuse(why, "Gemm with a fused activation");
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

}  // namespace ec::passes::decompose
