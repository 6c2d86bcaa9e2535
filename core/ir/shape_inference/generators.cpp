// Shape functions of generators: ConstantOfShape, Range, random ops.
#include "core/ir/shape_inference/shape_fn.h"

#include <cmath>

namespace ec::ir::shape_inference {

void infer_constant_of_shape(InferContext& ctx) {
  DType t = DType::Float32;
  if (const Attribute* a = ctx.op().attr("value"))
    if (const auto* tv = std::get_if<TensorValue>(a)) t = tv->dtype;
  const Value* shape = ctx.value(0);
  if (!shape) {
    const Shape& s = ctx.shape(0);
    ctx.set(0, s.rank_known && s.rank() == 1 && s.dims[0].is_static()
                   ? unknown_dims(static_cast<std::size_t>(s.dims[0].value))
                   : Shape::unknown_rank(),
            t);
    return;
  }
  Shape y;
  for (const auto& e : *shape) y.dims.push_back(e.to_dim());
  ctx.set(0, std::move(y), t);
}

// ceil((limit - start) / delta) elements when all three are constants.
void infer_range(InferContext& ctx) {
  auto s = ctx.reals(0), l = ctx.reals(1), d = ctx.reals(2);
  Shape y = unknown_dims(1);
  if (s && l && d && s->size() == 1 && l->size() == 1 && d->size() == 1 && (*d)[0] != 0) {
    const double n = std::ceil(((*l)[0] - (*s)[0]) / (*d)[0]);
    y.dims[0] = Dim::fixed(n > 0 ? static_cast<std::int64_t>(n) : 0);
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_random(InferContext& ctx) {
  Shape y;
  for (auto v : ctx.op().attr_ints("shape")) y.dims.push_back(Dim::fixed(v));
  ctx.set(0, std::move(y), dtype_attr(ctx.op(), "dtype", DType::Float32));
}

void infer_random_like(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), dtype_attr(ctx.op(), "dtype", ctx.dtype(0)));
}

// [batch, sample_size]
void infer_multinomial(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  Shape y = unknown_dims(2);
  if (x.rank_known && x.rank() == 2) y.dims[0] = x.dims[0];
  y.dims[1] = Dim::fixed(ctx.op().attr_int("sample_size", 1));
  ctx.set(0, std::move(y), dtype_attr(ctx.op(), "dtype", DType::Int32));
}

}  // namespace ec::ir::shape_inference
