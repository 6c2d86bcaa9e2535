// Shape functions of pooling ops, and the sliding-window formula Conv shares.
#include "core/ir/shape_inference/shape_fn.h"

#include "core/ir/shape_inference/spatial.h"

namespace ec::ir::shape_inference {

std::vector<Dim> window_output(InferContext& ctx, const std::vector<Dim>& in,
                               const std::vector<Dim>& kernel, bool ceil_mode) {
  const Operation& op = ctx.op();
  const std::size_t nsp = in.size();
  const auto strides = op.attr_ints("strides"), dil = op.attr_ints("dilations"), pads = op.attr_ints("pads");
  const std::string auto_pad = op.attr_string("auto_pad", "NOTSET");
  std::vector<Dim> out;
  for (std::size_t k = 0; k < nsp; ++k) {
    const std::int64_t s = k < strides.size() ? strides[k] : 1, d = k < dil.size() ? dil[k] : 1;
    if (!in[k].is_static() || !kernel[k].is_static() || s <= 0 || d <= 0) {
      out.push_back(Dim::unknown());
      continue;
    }
    const std::int64_t n = in[k].value, extent = d * (kernel[k].value - 1) + 1;
    std::int64_t o;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      o = (n + s - 1) / s;
    } else {
      std::int64_t pb = 0, pe = 0;
      if (auto_pad != "VALID" && pads.size() == 2 * nsp) {
        pb = pads[k];
        pe = pads[nsp + k];
      }
      const std::int64_t span = n + pb + pe - extent;
      if (span < 0) {
        ctx.conflict("window of " + std::to_string(extent) + " is larger than the padded input (" +
                     std::to_string(n + pb + pe) + ")");
        out.push_back(Dim::unknown());
        continue;
      }
      o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
      // ceil_mode: the last window must start inside the input or its begin padding
      if (ceil_mode && (o - 1) * s >= n + pb) --o;
    }
    out.push_back(Dim::fixed(o));
  }
  return out;
}

void infer_pool(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() < 3) return;
  const bool nhwc = ctx.op().attr_string("layout", "NCHW") == "NHWC";
  const std::size_t nsp = x.rank() - 2;
  const auto ks = ctx.op().attr_ints("kernel_shape");
  std::vector<Dim> kernel(nsp, Dim::unknown()), in(nsp);
  for (std::size_t k = 0; k < nsp; ++k) {
    if (ks.size() == nsp) kernel[k] = Dim::fixed(ks[k]);
    in[k] = x.dims[nhwc ? 1 + k : 2 + k];
  }
  const auto out = window_output(ctx, in, kernel, ctx.op().attr_int("ceil_mode", 0) != 0);
  Shape y = x;
  for (std::size_t k = 0; k < nsp; ++k) y.dims[nhwc ? 1 + k : 2 + k] = out[k];
  ctx.set(0, y, ctx.dtype(0));
  if (ctx.num_outputs() > 1) ctx.set(1, y, DType::Int64);  // MaxPool's indices
}

void infer_global_pool(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() < 3) return;
  const bool nhwc = ctx.op().attr_string("layout", "NCHW") == "NHWC";
  Shape y = x;
  for (std::size_t k = 0; k + 2 < x.rank(); ++k) y.dims[nhwc ? 1 + k : 2 + k] = Dim::fixed(1);
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_max_unpool(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (auto shape = ctx.value(2)) {
    Shape y;
    for (const auto& s : *shape) y.dims.push_back(s.to_dim());
    ctx.set(0, std::move(y), ctx.dtype(0));
    return;
  }
  if (!x.rank_known || x.rank() < 3) return;
  const Operation& op = ctx.op();
  const std::size_t nsp = x.rank() - 2;
  const auto ks = op.attr_ints("kernel_shape"), strides = op.attr_ints("strides"), pads = op.attr_ints("pads");
  Shape y = x;
  for (std::size_t k = 0; k < nsp; ++k) {
    const Dim& in = x.dims[2 + k];
    if (!in.is_static() || ks.size() != nsp) {
      y.dims[2 + k] = Dim::unknown();
      continue;
    }
    const std::int64_t s = k < strides.size() ? strides[k] : 1;
    const std::int64_t p = pads.size() == 2 * nsp ? pads[k] + pads[nsp + k] : 0;
    y.dims[2 + k] = Dim::fixed((in.value - 1) * s + ks[k] - p);
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

// MaxRoiPool [num_rois, C, pooled...]; RoiAlign [num_rois, C, output_height, output_width].
void infer_roi_pool(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &rois = ctx.shape(1);
  Shape y;
  y.dims.push_back(rois.rank_known && rois.rank() >= 1 ? rois.dims[0] : Dim::unknown());
  y.dims.push_back(x.rank_known && x.rank() >= 2 ? x.dims[1] : Dim::unknown());
  if (ctx.op().kind == OpKind::RoiAlign) {
    y.dims.push_back(Dim::fixed(ctx.op().attr_int("output_height", 1)));
    y.dims.push_back(Dim::fixed(ctx.op().attr_int("output_width", 1)));
  } else {
    for (auto v : ctx.op().attr_ints("pooled_shape")) y.dims.push_back(Dim::fixed(v));
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

}  // namespace ec::ir::shape_inference
