// Shape functions of quantisation ops and the integer forms of Conv/MatMul.
#include "core/ir/shape_inference/shape_fn.h"

namespace ec::ir::shape_inference {


// y's type is the zero point's (uint8 when absent).
void infer_quantize(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), ctx.has(2) ? ctx.dtype(2) : DType::UInt8);
}

void infer_dequantize(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), ctx.dtype(1) == DType::Undefined ? DType::Float32 : ctx.dtype(1));
}

// y like x (uint8), y_scale and y_zero_point scalars.
void infer_dynamic_quantize(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), DType::UInt8);
  ctx.set(1, Shape::of(std::vector<std::int64_t>{}), DType::Float32);
  ctx.set(2, Shape::of(std::vector<std::int64_t>{}), DType::UInt8);
}

// Same geometry as Conv; inputs x, w first.
void infer_conv_integer(InferContext& ctx) {
  infer_conv(ctx);
  ctx.set_dtype(0, DType::Int32);
}

// x, x_scale, x_zp, w, w_scale, w_zp, y_scale, y_zp[, B]: geometry of Conv(x, w).
void infer_qlinear_conv(InferContext& ctx) {
  const Operation& op = ctx.op();
  const Shape &x = ctx.shape(0), &w = ctx.shape(3);
  if (!x.rank_known || x.rank() < 3) return;
  Shape y = x;
  y.dims[1] = w.rank_known && w.rank() >= 1 ? w.dims[0] : Dim::unknown();
  for (std::size_t k = 2; k < y.rank(); ++k) y.dims[k] = Dim::unknown();
  const auto ks = op.attr_ints("kernel_shape"), strides = op.attr_ints("strides"), pads = op.attr_ints("pads"),
             dil = op.attr_ints("dilations");
  const std::size_t nsp = x.rank() - 2;
  const bool same = op.attr_string("auto_pad", "NOTSET").rfind("SAME", 0) == 0;
  for (std::size_t k = 0; k < nsp; ++k) {
    const Dim& in = x.dims[2 + k];
    const Dim kd = ks.size() == nsp ? Dim::fixed(ks[k]) : (w.rank_known && w.rank() == x.rank() ? w.dims[2 + k] : Dim::unknown());
    const std::int64_t s = k < strides.size() ? strides[k] : 1, d = k < dil.size() ? dil[k] : 1;
    if (!in.is_static() || !kd.is_static() || s <= 0) continue;
    if (same) {
      y.dims[2 + k] = Dim::fixed((in.value + s - 1) / s);
    } else {
      const std::int64_t p = pads.size() == 2 * nsp ? pads[k] + pads[nsp + k] : 0;
      const std::int64_t span = in.value + p - d * (kd.value - 1) - 1;
      if (span >= 0) y.dims[2 + k] = Dim::fixed(span / s + 1);
    }
  }
  ctx.set(0, std::move(y), ctx.dtype(7));
}

void infer_matmul_integer(InferContext& ctx) { ctx.set(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(1)), DType::Int32); }

// a, a_scale, a_zp, b, b_scale, b_zp, y_scale, y_zp
void infer_qlinear_matmul(InferContext& ctx) {
  ctx.set(0, matmul_shape(ctx, ctx.shape(0), ctx.shape(3)), ctx.dtype(7));
}

}  // namespace ec::ir::shape_inference
