// Shape functions of normalisations with more than one output (the others keep
// their input's shape: infer_unary).
#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {

// Y like X; training outputs running_mean / running_var [C].
void infer_batch_norm(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  ctx.set(0, x, ctx.dtype(0));
  const bool nhwc = ctx.op().attr_string("layout", "NCHW") == "NHWC";
  Shape c = unknown_dims(1);
  if (x.rank_known && x.rank() >= 2) c.dims[0] = x.dims[nhwc ? x.rank() - 1 : 1];
  for (std::size_t k = 1; k < ctx.num_outputs(); ++k) ctx.set(k, c, ctx.dtype(0));
}

// Y like X; Mean and InvStdDev keep X's dims before `axis` and have 1 after.
void infer_layer_norm(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  ctx.set(0, x, ctx.dtype(0));
  if (!x.rank_known) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", -1), static_cast<std::int64_t>(x.rank()));
  if (!axis) {
    ctx.conflict("axis " + std::to_string(ctx.op().attr_int("axis", -1)) + " is out of range for " + x.to_string());
    return;
  }
  Shape stats = x;
  for (std::size_t k = static_cast<std::size_t>(*axis); k < x.rank(); ++k) stats.dims[k] = Dim::fixed(1);
  for (std::size_t k = 1; k < ctx.num_outputs(); ++k) ctx.set(k, stats, DType::Float32);
}

}  // namespace ec::ir::shape_inference
