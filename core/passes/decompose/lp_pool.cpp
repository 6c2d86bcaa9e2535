// LpPool and GlobalLpPool as ops TFLite has: the p-norm of each window is
// (sum |x|^p)^(1/p) = (mean |x|^p * n)^(1/p) over the window's n taps, padding counted
// as zeros (count_include_pad), so an AveragePool (or ReduceSum over every spatial axis
// for the global form) of |x|^p does the sum. p = 1 and p = 2 use Abs and Mul / Sqrt,
// others Pow. float.
#include "core/passes/decompose/common.h"
#include "core/passes/decompose/decompose.h"

namespace ec::passes::decompose {

std::size_t lp_pool(ir::Graph& g, std::size_t index, std::string* why) {
  using K = ir::OpKind;
  const ir::Operation op = g.ops[index];
  if ((op.kind != K::LpPool && op.kind != K::GlobalLpPool) || op.inputs.empty() || op.outputs.empty()) return 0;
  if (!detail::is_float(g, op.inputs[0])) return detail::refuse(why, op.op_type + " on a non-float tensor");
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (!x->shape.rank_known || x->shape.rank() < 3) return detail::refuse(why, op.op_type + " needs an input of known rank >= 3");
  for (const std::int64_t d : op.attr_ints("dilations"))
    if (d != 1) return detail::refuse(why, "LpPool with dilations");
  const std::int64_t p = op.attr_int("p", 2);
  if (p <= 0) return detail::refuse(why, op.op_type + " with p <= 0");
  OpBuilder b(g, detail::base_of(op));
  const std::string& v = op.inputs[0];
  // |x|^p keeps x's shape, stated so that a 1-D pool made here is seen as 1-D by the
  // step that makes it 2-D (made tensors otherwise get shapes only after the pass)
  const auto xs = detail::static_shape(g, v);
  const std::string powered = b.activation("powered", ir::DType::Float32, std::nullopt, xs);
  if (p == 1) b.op(K::Abs, {v}, {powered});
  else if (p == 2) b.op(K::Mul, {v, v}, {powered});
  else b.op(K::Pow, {b.op1(K::Abs, {v}), b.f32_scalar("p", static_cast<float>(p))}, {powered});
  std::string sum;
  if (op.kind == K::GlobalLpPool) {
    std::vector<std::int64_t> axes;
    for (std::int64_t d = 2; d < static_cast<std::int64_t>(x->shape.rank()); ++d) axes.push_back(d);
    sum = b.op1(K::ReduceSum, {powered}, {{"axes", axes}, {"keepdims", std::int64_t{1}}});
  } else {
    const std::vector<std::int64_t> kernel = op.attr_ints("kernel_shape");
    double taps = 1;
    for (const std::int64_t k : kernel) taps *= static_cast<double>(k);
    std::map<std::string, ir::Attribute> attrs = {{"kernel_shape", kernel}, {"count_include_pad", std::int64_t{1}}};
    for (const char* key : {"pads", "strides", "auto_pad", "ceil_mode"})
      if (const ir::Attribute* a = op.attr(key)) attrs[key] = *a;
    const std::string mean = b.activation("window_mean", ir::DType::Float32, std::nullopt, detail::static_shape(g, op.outputs[0]));
    b.op(K::AveragePool, {powered}, {mean}, attrs);
    sum = b.op1(K::Mul, {mean, b.f32_scalar("taps", static_cast<float>(taps))});
  }
  if (p == 1) detail::emit_as(b, sum, op.outputs[0]);
  else if (p == 2) b.op(K::Sqrt, {sum}, {op.outputs[0]}, {}, op.name);
  else b.op(K::Pow, {sum, b.f32_scalar("inv_p", static_cast<float>(1.0 / static_cast<double>(p)))}, {op.outputs[0]}, {}, op.name);
  return detail::finish(g, index, b);
}

}  // namespace ec::passes::decompose
