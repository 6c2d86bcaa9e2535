// Shape functions of reductions (axes as attribute), ArgMax/ArgMin and TopK.
#include "core/ir/shape_inference/shape_fn.h"

#include <set>

namespace ec::ir::shape_inference {

void infer_reduce(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  const Operation& op = ctx.op();
  const auto r = static_cast<std::int64_t>(x.rank());
  const bool keep = op.attr_int("keepdims", 1) != 0;
  std::vector<std::int64_t> axes_attr = op.attr_ints("axes");
  if (op.inputs.size() > 1 && !op.inputs[1].empty()) {  // axes computed at run time
    const auto v = ctx.ints(1);
    if (!v) {
      if (keep) ctx.set(0, unknown_dims(x.rank()), ctx.dtype(0));
      else ctx.set(0, Shape::unknown_rank(), ctx.dtype(0));
      return;
    }
    axes_attr = *v;
  }
  if (axes_attr.empty() && op.attr_int("noop_with_empty_axes", 0) != 0) {
    ctx.set(0, x, ctx.dtype(0));
    return;
  }
  std::set<std::int64_t> axes;
  for (auto a : axes_attr) {
    auto n = norm_axis(a, r);
    if (!n) {
      ctx.conflict("axis " + std::to_string(a) + " is out of range for " + x.to_string());
      return;
    }
    axes.insert(*n);
  }
  if (axes_attr.empty())
    for (std::int64_t k = 0; k < r; ++k) axes.insert(k);
  Shape y;
  for (std::int64_t k = 0; k < r; ++k) {
    if (!axes.count(k))
      y.dims.push_back(x.dims[static_cast<std::size_t>(k)]);
    else if (keep)
      y.dims.push_back(Dim::fixed(1));
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_arg_reduce(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(x.rank()));
  if (!axis) return;
  Shape y = x;
  if (ctx.op().attr_int("keepdims", 1) != 0)
    y.dims[static_cast<std::size_t>(*axis)] = Dim::fixed(1);
  else
    y.dims.erase(y.dims.begin() + *axis);
  ctx.set(0, std::move(y), DType::Int64);
}

void infer_topk(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", -1), static_cast<std::int64_t>(x.rank()));
  if (!axis) return;
  Shape y = x;
  const Value* k = ctx.value(1);
  y.dims[static_cast<std::size_t>(*axis)] = k && k->size() == 1 ? (*k)[0].to_dim() : Dim::unknown();
  ctx.set(0, y, ctx.dtype(0));
  ctx.set(1, y, DType::Int64);
}

}  // namespace ec::ir::shape_inference
