// Reductions TFLite has no builtin for, from the ones it has (SUM, REDUCE_MAX).
//
//   ReduceL1(x)        = sum(|x|)
//   ReduceL2(x)        = sqrt(sum(x x))
//   ReduceSumSquare(x) = sum(x x)
//   ReduceLogSum(x)    = log(sum(x))
//   ReduceLogSumExp(x) = m + log(sum(e^(x - m))), m = max(x)   (no overflow for large x)
// Same axes and keepdims as the op; noop_with_empty_axes with no axes is left.
#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {

std::size_t reduction(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  const K k = op.kind;
  if (k != K::ReduceL1 && k != K::ReduceL2 && k != K::ReduceSumSquare && k != K::ReduceLogSum && k != K::ReduceLogSumExp)
    return 0;
  if (op.inputs.empty() || op.outputs.empty()) return 0;
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x || !x->shape.rank_known || !detail::is_float(g, op.inputs[0]) || !detail::is_float(g, op.outputs[0]))
    return detail::refuse(why, op.op_type + " on a non-float or unknown-rank input");
  if (op.inputs.size() > 1 && !op.inputs[1].empty()) return detail::refuse(why, op.op_type + " with axes computed at run time");
  const auto axes = detail::reduce_axes(op, static_cast<std::int64_t>(x->shape.rank()));
  if (!axes) return detail::refuse(why, op.op_type + " with noop_with_empty_axes and no axes");
  const std::int64_t keep = op.attr_int("keepdims", 1) != 0 ? 1 : 0;
  OpBuilder b(g, detail::base_of(op));
  const std::string& in = op.inputs[0];
  auto f = [&](K kind, std::vector<std::string> v) { return b.op1(kind, std::move(v)); };
  auto reduce = [&](K kind, const std::string& v, std::int64_t keepdims) {
    return b.op1(kind, {v}, {{"axes", *axes}, {"keepdims", keepdims}});
  };
  switch (k) {
    case K::ReduceL1: reduce(K::ReduceSum, f(K::Abs, {in}), keep); break;
    case K::ReduceL2: f(K::Sqrt, {reduce(K::ReduceSum, f(K::Mul, {in, in}), keep)}); break;
    case K::ReduceSumSquare: reduce(K::ReduceSum, f(K::Mul, {in, in}), keep); break;
    case K::ReduceLogSum: f(K::Log, {reduce(K::ReduceSum, in, keep)}); break;
    default: {  // ReduceLogSumExp
      const std::string m = reduce(K::ReduceMax, in, 1);
      const std::string s = reduce(K::ReduceSum, f(K::Exp, {f(K::Sub, {in, m})}), keep);
      f(K::Add, {f(K::Log, {s}), keep ? m : reduce(K::ReduceMax, in, 0)});
      break;
    }
  }
  detail::write_last_to(b, op);
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
