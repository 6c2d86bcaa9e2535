// Shape functions of Conv and ConvTranspose (NCHW, or NHWC with OHWI weights
// as LayoutTransform makes them), any spatial rank.
#include "core/ir/shape_inference/shape_fn.h"

#include "core/ir/shape_inference/spatial.h"

namespace ec::ir::shape_inference {

void infer_conv(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &w = ctx.shape(1);
  const bool nhwc = ctx.op().attr_string("layout", "NCHW") == "NHWC";
  if (!x.rank_known || x.rank() < 3) {
    if (w.rank_known && w.rank() >= 3) ctx.set(0, unknown_dims(w.rank()), ctx.dtype(0));
    return;
  }
  const std::size_t nsp = x.rank() - 2;
  std::vector<Dim> kernel(nsp, Dim::unknown());
  Dim out_channels = Dim::unknown();
  if (w.rank_known && w.rank() == x.rank()) {
    out_channels = w.dims[0];
    for (std::size_t k = 0; k < nsp; ++k) kernel[k] = w.dims[nhwc ? 1 + k : 2 + k];
  }
  const auto ks = ctx.op().attr_ints("kernel_shape");
  if (ks.size() == nsp)
    for (std::size_t k = 0; k < nsp; ++k) kernel[k] = Dim::fixed(ks[k]);
  std::vector<Dim> in(nsp);
  for (std::size_t k = 0; k < nsp; ++k) in[k] = x.dims[nhwc ? 1 + k : 2 + k];
  const auto out = window_output(ctx, in, kernel, false);
  Shape y;
  y.dims.push_back(x.dims[0]);
  if (!nhwc) y.dims.push_back(out_channels);
  y.dims.insert(y.dims.end(), out.begin(), out.end());
  if (nhwc) y.dims.push_back(out_channels);
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_conv_transpose(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &w = ctx.shape(1);
  const Operation& op = ctx.op();
  if (!x.rank_known || x.rank() < 3) return;
  const std::size_t nsp = x.rank() - 2;
  const std::int64_t group = op.attr_int("group", 1);
  Dim out_channels = Dim::unknown();
  std::vector<Dim> kernel(nsp, Dim::unknown());
  if (w.rank_known && w.rank() == x.rank()) {
    out_channels = scalar_mul(Scalar::from_dim(w.dims[1]), Scalar::of(group)).to_dim();
    for (std::size_t k = 0; k < nsp; ++k) kernel[k] = w.dims[2 + k];
  }
  const auto ks = op.attr_ints("kernel_shape");
  if (ks.size() == nsp)
    for (std::size_t k = 0; k < nsp; ++k) kernel[k] = Dim::fixed(ks[k]);
  Shape y;
  y.dims = {x.dims[0], out_channels};
  const auto output_shape = op.attr_ints("output_shape");
  if (output_shape.size() == nsp) {
    for (auto v : output_shape) y.dims.push_back(Dim::fixed(v));
    ctx.set(0, std::move(y), ctx.dtype(0));
    return;
  }
  auto strides = op.attr_ints("strides"), dil = op.attr_ints("dilations"),
       pads = op.attr_ints("pads"), opad = op.attr_ints("output_padding");
  const std::string auto_pad = op.attr_string("auto_pad", "NOTSET");
  for (std::size_t k = 0; k < nsp; ++k) {
    const Dim& in = x.dims[2 + k];
    const std::int64_t s = k < strides.size() ? strides[k] : 1, d = k < dil.size() ? dil[k] : 1;
    const std::int64_t op_k = k < opad.size() ? opad[k] : 0;
    if (!in.is_static() || !kernel[k].is_static()) {
      y.dims.push_back(Dim::unknown());
      continue;
    }
    std::int64_t out;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out = in.value * s;
    } else {
      const std::int64_t pb = pads.size() == 2 * nsp ? pads[k] : 0, pe = pads.size() == 2 * nsp ? pads[nsp + k] : 0;
      out = s * (in.value - 1) + op_k + (kernel[k].value - 1) * d + 1 - pb - pe;
    }
    y.dims.push_back(out >= 0 ? Dim::fixed(out) : Dim::unknown());
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

}  // namespace ec::ir::shape_inference
