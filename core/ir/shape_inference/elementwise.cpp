// Shape functions of element-wise ops, activations, comparisons and logic:
// numpy broadcasting. Integer Add/Sub/Mul/Div on tracked shape values compute
// the values too (PyTorch's `channels // groups` in a Reshape target).
#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {
namespace {

std::vector<const Shape*> input_shapes(const InferContext& ctx) {
  std::vector<const Shape*> v;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) v.push_back(&ctx.shape(i));
  return v;
}

// Element-wise value arithmetic with scalar broadcasting (the shape chains only
// combine a vector with a scalar or two vectors of one length).
void propagate_values(InferContext& ctx) {
  Scalar (*f)(const Scalar&, const Scalar&) = nullptr;
  switch (ctx.op().kind) {
    case OpKind::Add: f = &scalar_add; break;
    case OpKind::Sub: f = &scalar_sub; break;
    case OpKind::Mul: f = &scalar_mul; break;
    case OpKind::Div: f = &scalar_div; break;
    default: return;
  }
  const Value *a = ctx.value(0), *b = ctx.value(1);
  if (!a || !b || a->empty() || b->empty()) return;
  if (a->size() != b->size() && a->size() != 1 && b->size() != 1) return;
  const std::size_t n = std::max(a->size(), b->size());
  Value r;
  for (std::size_t k = 0; k < n; ++k)
    r.push_back(f((*a)[a->size() == 1 ? 0 : k], (*b)[b->size() == 1 ? 0 : k]));
  ctx.set_value(0, std::move(r));
}

}  // namespace

void infer_broadcast(InferContext& ctx) {
  ctx.set(0, broadcast(ctx, input_shapes(ctx)), ctx.dtype(0));
  propagate_values(ctx);
}

void infer_compare(InferContext& ctx) { ctx.set(0, broadcast(ctx, input_shapes(ctx)), DType::Bool); }

void infer_unary(InferContext& ctx) { ctx.set(0, ctx.shape(0), ctx.dtype(0)); }

void infer_unary_bool(InferContext& ctx) { ctx.set(0, ctx.shape(0), DType::Bool); }

void infer_where(InferContext& ctx) {
  ctx.set(0, broadcast(ctx, input_shapes(ctx)), ctx.dtype(1));
}

}  // namespace ec::ir::shape_inference
