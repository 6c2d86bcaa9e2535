// Convolution (any number of spatial dims, groups, dilations, pads, strides,
// auto_pad) and ConvTranspose. NCHW layout.
//
// Conv:  y[n, m, o] = b[m] + sum_{c in group(m), k} x[n, c, o*s - pb + k*d] * w[m, c', k]
//        out = floor((in + pb + pe - ((K - 1) * d + 1)) / s) + 1
// The float path lowers each (image, group) to one GEMM over an im2col matrix:
//        Y_g[M/g, P] = W_g[M/g, C/g * prod(K)] * col[C/g * prod(K), P]
#include <Eigen/Core>

#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/conv_reference.h"

namespace ec::runtime::kernels {

ConvGeometry conv_geometry(const ir::Operation& op, const Shape& x, const Shape& w, bool transpose) {
  if (x.size() < 3) fail("input must be at least 3-D (N, C, spatial...), got " + shape_string(x));
  if (w.size() != x.size()) fail("weight rank " + std::to_string(w.size()) + " differs from input rank " +
                                 std::to_string(x.size()));
  if (attr_str(op, "layout", "NCHW") != "NCHW")
    throw UnsupportedOpError(op.op_type + " with layout " + attr_str(op, "layout", ""), "the CPU runtime",
                             "run the layout pass back to NCHW");
  ConvGeometry g;
  const std::size_t k = x.size() - 2;
  g.n = x[0];
  g.c = x[1];
  g.group = attr_int(op, "group", 1);
  if (g.group <= 0) fail("group must be positive");
  g.m = transpose ? w[1] * g.group : w[0];
  if (transpose ? w[0] != g.c : w[1] * g.group != g.c)
    fail("weight " + shape_string(w) + " does not match " + std::to_string(g.c) + " input channels in " +
         std::to_string(g.group) + " groups");
  if (!transpose && g.m % g.group != 0) fail("output channels are not divisible by group");
  g.in.assign(x.begin() + 2, x.end());
  g.kernel.assign(w.begin() + 2, w.end());
  g.strides = attr_ints(op, "strides");
  g.dilations = attr_ints(op, "dilations");
  auto pads = attr_ints(op, "pads");
  if (g.strides.empty()) g.strides.assign(k, 1);
  if (g.dilations.empty()) g.dilations.assign(k, 1);
  if (pads.empty()) pads.assign(2 * k, 0);
  if (g.strides.size() != k || g.dilations.size() != k || pads.size() != 2 * k)
    fail("strides/dilations/pads do not match " + std::to_string(k) + " spatial dims");
  for (std::size_t i = 0; i < k; ++i)
    if (g.strides[i] <= 0 || g.dilations[i] <= 0) fail("strides and dilations must be positive");
  g.pad_begin.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(k));
  g.pad_end.assign(pads.begin() + static_cast<std::ptrdiff_t>(k), pads.end());
  const std::string auto_pad = attr_str(op, "auto_pad", "NOTSET");
  g.out.resize(k);
  const auto out_padding = attr_ints(op, "output_padding");
  const auto output_shape = attr_ints(op, "output_shape");
  for (std::size_t i = 0; i < k; ++i) {
    const std::int64_t ext = (g.kernel[i] - 1) * g.dilations[i] + 1;  // dilated kernel extent
    if (!transpose) {
      if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        const std::int64_t out = (g.in[i] + g.strides[i] - 1) / g.strides[i];
        const std::int64_t total = std::max<std::int64_t>(0, (out - 1) * g.strides[i] + ext - g.in[i]);
        g.pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
        g.pad_end[i] = total - g.pad_begin[i];
      } else if (auto_pad == "VALID") {
        g.pad_begin[i] = g.pad_end[i] = 0;
      }
      const std::int64_t span = g.in[i] + g.pad_begin[i] + g.pad_end[i] - ext;
      if (span < 0) fail("kernel is larger than the padded input " + shape_string(x));
      g.out[i] = span / g.strides[i] + 1;
    } else {
      const std::int64_t opad = i < out_padding.size() ? out_padding[i] : 0;
      const std::int64_t full = g.strides[i] * (g.in[i] - 1) + opad + ext;
      if (!output_shape.empty()) {
        const std::int64_t want = output_shape[output_shape.size() - k + i];
        // total may be negative (output_shape larger than the full output): floor division,
        // so the extra rows land at the end, as in the ONNX reference.
        const std::int64_t total = full - want;
        const std::int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
        if (auto_pad == "SAME_UPPER") {
          g.pad_begin[i] = half;
          g.pad_end[i] = total - half;
        } else {
          g.pad_begin[i] = total - half;
          g.pad_end[i] = half;
        }
      } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        const std::int64_t want = g.in[i] * g.strides[i];
        const std::int64_t total = full - want;
        g.pad_begin[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
        g.pad_end[i] = total - g.pad_begin[i];
      } else if (auto_pad == "VALID") {
        g.pad_begin[i] = g.pad_end[i] = 0;
      }
      g.out[i] = full - g.pad_begin[i] - g.pad_end[i];
      if (g.out[i] < 0) fail("negative output size");
    }
  }
  return g;
}

// Plain loops, the definition the fast path is tested against.
void conv_reference(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  const Shape in_st = strides_of(g.in), k_st = strides_of(g.kernel);
  std::vector<std::int64_t> o(k), kk(k);
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t m = 0; m < g.m; ++m) {
      const std::int64_t grp = m / mg;
      std::fill(o.begin(), o.end(), 0);
      for (std::int64_t op = 0; op < out_sp; ++op, next_index(o, g.out)) {
        double acc = b ? b[m] : 0.0;
        for (std::int64_t c = 0; c < cg; ++c) {
          const float* xc = x + (n * g.c + grp * cg + c) * in_sp;
          const float* wc = w + (m * cg + c) * k_sp;
          std::fill(kk.begin(), kk.end(), 0);
          for (std::int64_t kp = 0; kp < k_sp; ++kp, next_index(kk, g.kernel)) {
            std::int64_t off = 0;
            bool inside = true;
            for (std::size_t d = 0; d < k; ++d) {
              const std::int64_t pos = o[d] * g.strides[d] - g.pad_begin[d] + kk[d] * g.dilations[d];
              if (pos < 0 || pos >= g.in[d]) { inside = false; break; }
              off += pos * in_st[d];
            }
            if (inside) acc += double(xc[off]) * double(wc[kp]);
          }
        }
        y[(n * g.m + m) * out_sp + op] = static_cast<float>(acc);
      }
    }
  (void)k_st;
}

// Depthwise 2-D (one input and one output channel per group), direct:
//   y[n, c, oh, ow] = b[c] + sum_{kh, kw} x[n, c, oh*sh - ph + kh*dh, ow*sw - pw + kw*dw] * w[c, kh, kw]
// For each tap the valid ow range is computed once, so the inner loop has no bounds checks.
static void conv_depthwise2d(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y) {
  const std::int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1], KH = g.kernel[0], KW = g.kernel[1];
  const std::int64_t sh = g.strides[0], sw = g.strides[1], dh = g.dilations[0], dw = g.dilations[1];
  const std::int64_t ph = g.pad_begin[0], pw = g.pad_begin[1];
  for (std::int64_t nc = 0; nc < g.n * g.c; ++nc) {
    const std::int64_t c = nc % g.c;
    const float* xc = x + nc * H * W;
    const float* wc = w + c * KH * KW;
    float* yc = y + nc * OH * OW;
    std::fill(yc, yc + OH * OW, b ? b[c] : 0.f);
    for (std::int64_t kw = 0; kw < KW; ++kw) {
      // ow with 0 <= ow*sw - pw + kw*dw < W
      const std::int64_t off = kw * dw - pw;
      std::int64_t lo = off >= 0 ? 0 : (-off + sw - 1) / sw;
      std::int64_t hi = W - off <= 0 ? 0 : (W - off - 1) / sw + 1;
      hi = std::min(hi, OW);
      if (lo >= hi) continue;
      for (std::int64_t oh = 0; oh < OH; ++oh) {
        float* yr = yc + oh * OW;
        for (std::int64_t kh = 0; kh < KH; ++kh) {
          const std::int64_t ih = oh * sh - ph + kh * dh;
          if (ih < 0 || ih >= H) continue;
          const float wv = wc[kh * KW + kw];
          const float* xr = xc + ih * W + off;
          if (sw == 1)
            for (std::int64_t ow = lo; ow < hi; ++ow) yr[ow] += wv * xr[ow];
          else
            for (std::int64_t ow = lo; ow < hi; ++ow) yr[ow] += wv * xr[ow * sw];
        }
      }
    }
  }
}

// im2col + GEMM. col[(c, kpos), p] = x[c, p*s - pb + kpos*d] (0 outside).
void conv_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  const Shape in_st = strides_of(g.in);
  if (k == 2 && cg == 1 && mg == 1) return conv_depthwise2d(g, x, w, b, y);
  using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  bool pointwise = true;  // 1x1, stride 1, no pad: x itself is the column matrix
  for (std::size_t d = 0; d < k; ++d)
    pointwise = pointwise && g.kernel[d] == 1 && g.strides[d] == 1 && g.pad_begin[d] == 0 && g.pad_end[d] == 0;
  RowMat col;
  if (!pointwise) col.resize(cg * k_sp, out_sp);
  std::vector<std::int64_t> o(k), kk(k);
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      const float* xg = x + (n * g.c + grp * cg) * in_sp;
      if (!pointwise) {
        std::fill(kk.begin(), kk.end(), 0);
        for (std::int64_t kp = 0; kp < k_sp; ++kp, next_index(kk, g.kernel)) {
          std::fill(o.begin(), o.end(), 0);
          // Offsets of this kernel tap for every output position (-1 = padding).
          std::vector<std::int64_t> offs(static_cast<std::size_t>(out_sp));
          for (std::int64_t p = 0; p < out_sp; ++p, next_index(o, g.out)) {
            std::int64_t off = 0;
            for (std::size_t d = 0; d < k; ++d) {
              const std::int64_t pos = o[d] * g.strides[d] - g.pad_begin[d] + kk[d] * g.dilations[d];
              if (pos < 0 || pos >= g.in[d]) { off = -1; break; }
              off += pos * in_st[d];
            }
            offs[static_cast<std::size_t>(p)] = off;
          }
          for (std::int64_t c = 0; c < cg; ++c) {
            float* row = col.data() + (c * k_sp + kp) * out_sp;
            const float* xc = xg + c * in_sp;
            for (std::int64_t p = 0; p < out_sp; ++p) {
              const std::int64_t off = offs[static_cast<std::size_t>(p)];
              row[p] = off < 0 ? 0.f : xc[off];
            }
          }
        }
      }
      Eigen::Map<const RowMat> wm(w + grp * mg * cg * k_sp, mg, cg * k_sp);
      Eigen::Map<RowMat> ym(y + (n * g.m + grp * mg) * out_sp, mg, out_sp);
      if (pointwise)
        ym.noalias() = wm * Eigen::Map<const RowMat>(xg, cg, out_sp);
      else
        ym.noalias() = wm * col;
      if (b)
        for (std::int64_t m = 0; m < mg; ++m) ym.row(m).array() += b[grp * mg + m];
    }
}

Outputs kernel_Conv(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (X.dtype() != DType::Float32 || W.dtype() != DType::Float32)
    throw UnsupportedOpError("Conv on " + std::string(ir::dtype_name(X.dtype())), "the CPU runtime",
                             "only f32 convolutions run on the CPU runtime");
  const ConvGeometry g = conv_geometry(op, X.shape(), W.shape(), false);
  Shape out{g.n, g.m};
  out.insert(out.end(), g.out.begin(), g.out.end());
  Tensor Y(DType::Float32, out);
  if (B.defined() && B.numel() != g.m) fail("bias has " + std::to_string(B.numel()) + " values, expected " + std::to_string(g.m));
  if (Y.numel() > 0)
    conv_fast(g, X.data<float>(), W.data<float>(), B.defined() ? B.data<float>() : nullptr, Y.mutable_data<float>());
  apply_fused_activation(op, Y);
  return {Y};
}

// y[n, m, i*s - pb + k*d] += x[n, c, i] * w[c, m', k]   (the adjoint of Conv)
Outputs kernel_ConvTranspose(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (X.dtype() != DType::Float32 || W.dtype() != DType::Float32)
    throw UnsupportedOpError("ConvTranspose on " + std::string(ir::dtype_name(X.dtype())), "the CPU runtime", "");
  const ConvGeometry g = conv_geometry(op, X.shape(), W.shape(), true);
  Shape out{g.n, g.m};
  out.insert(out.end(), g.out.begin(), g.out.end());
  Tensor Y(DType::Float32, out);
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  const Shape out_st = strides_of(g.out);
  const float *px = X.data<float>(), *pw = W.data<float>();
  float* py = Y.mutable_data<float>();
  std::vector<std::int64_t> i(k), kk(k);
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t c = 0; c < g.c; ++c) {
      const std::int64_t grp = c / cg;
      std::fill(i.begin(), i.end(), 0);
      for (std::int64_t ip = 0; ip < in_sp; ++ip, next_index(i, g.in)) {
        const float xv = px[(n * g.c + c) * in_sp + ip];
        std::fill(kk.begin(), kk.end(), 0);
        for (std::int64_t kp = 0; kp < k_sp; ++kp, next_index(kk, g.kernel)) {
          std::int64_t off = 0;
          bool inside = true;
          for (std::size_t d = 0; d < k; ++d) {
            const std::int64_t pos = i[d] * g.strides[d] - g.pad_begin[d] + kk[d] * g.dilations[d];
            if (pos < 0 || pos >= g.out[d]) { inside = false; break; }
            off += pos * out_st[d];
          }
          if (!inside) continue;
          for (std::int64_t m = 0; m < mg; ++m)
            py[(n * g.m + grp * mg + m) * out_sp + off] += xv * pw[(c * mg + m) * k_sp + kp];
        }
      }
    }
  if (B.defined())
    for (std::int64_t n = 0; n < g.n; ++n)
      for (std::int64_t m = 0; m < g.m; ++m)
        for (std::int64_t p = 0; p < out_sp; ++p) py[(n * g.m + m) * out_sp + p] += B.data<float>()[m];
  return {Y};
}

}  // namespace ec::runtime::kernels
