// Shape functions of the remaining ops: Dropout, NonMaxSuppression, DFT, windows.
#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {

void infer_dropout(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), ctx.dtype(0));
  if (ctx.num_outputs() > 1) ctx.set(1, ctx.shape(0), DType::Bool);
}

// [selected, 3] (batch, class, box index)
void infer_nms(InferContext& ctx) {
  Shape y = unknown_dims(2);
  y.dims[1] = Dim::fixed(3);
  ctx.set(0, std::move(y), DType::Int64);
}

// Input [..., n, 1 or 2]; output [..., n' , 2] with n' = dft_length (input 1)
// or n, halved + 1 when onesided.
void infer_dft(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() < 2) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", 1), static_cast<std::int64_t>(x.rank()) - 1);
  if (!axis) return;
  Shape y = x;
  y.dims.back() = Dim::fixed(2);
  Dim& d = y.dims[static_cast<std::size_t>(*axis)];
  if (ctx.has(1)) {
    auto len = ctx.ints(1);
    d = len && len->size() == 1 ? Dim::fixed((*len)[0]) : Dim::unknown();
  }
  if (ctx.op().attr_int("onesided", 0) != 0)
    d = d.is_static() ? Dim::fixed(d.value / 2 + 1) : Dim::unknown();
  ctx.set(0, std::move(y), ctx.dtype(0));
}

// [size]
void infer_window(InferContext& ctx) {
  Shape y = unknown_dims(1);
  if (auto n = ctx.ints(0); n && n->size() == 1 && (*n)[0] >= 0) y.dims[0] = Dim::fixed((*n)[0]);
  ctx.set(0, std::move(y), dtype_attr(ctx.op(), "output_datatype", DType::Float32));
}

}  // namespace ec::ir::shape_inference
