// Pooling over any number of spatial dims (NCHW): Max (with optional indices),
// Average (count_include_pad), Lp, and their global forms.
//   out = floor_or_ceil((in + pb + pe - ((K - 1) * d + 1)) / s) + 1
// With ceil_mode a last window that would start inside the end padding is dropped.
#include <immintrin.h>

#include <limits>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

struct PoolGeometry {
  std::int64_t n = 0, c = 0;
  Shape in, out, kernel, strides, dilations, pb, pe;
};

// `x` is in NCHW order; nhwc = the op's layout is NHWC and the caller permuted the shape.
PoolGeometry pool_geometry(const ir::Operation& op, const Shape& x, bool nhwc = false) {
  if (x.size() < 3) fail("input must be at least 3-D (N, C, spatial...), got " + shape_string(x));
  if (!nhwc && attr_str(op, "layout", "NCHW") != "NCHW")
    throw UnsupportedOpError(op.op_type + " with layout NHWC", "the CPU runtime", "run the layout pass back to NCHW");
  const std::size_t k = x.size() - 2;
  PoolGeometry g;
  g.n = x[0];
  g.c = x[1];
  g.in.assign(x.begin() + 2, x.end());
  g.kernel = attr_ints(op, "kernel_shape");
  g.strides = attr_ints(op, "strides");
  g.dilations = attr_ints(op, "dilations");
  auto pads = attr_ints(op, "pads");
  if (g.strides.empty()) g.strides.assign(k, 1);
  if (g.dilations.empty()) g.dilations.assign(k, 1);
  if (pads.empty()) pads.assign(2 * k, 0);
  if (g.kernel.size() != k || g.strides.size() != k || g.dilations.size() != k || pads.size() != 2 * k)
    fail("kernel_shape/strides/dilations/pads do not match " + std::to_string(k) + " spatial dims");
  g.pb.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(k));
  g.pe.assign(pads.begin() + static_cast<std::ptrdiff_t>(k), pads.end());
  const bool ceil_mode = attr_int(op, "ceil_mode", 0) != 0;
  const std::string auto_pad = attr_str(op, "auto_pad", "NOTSET");
  g.out.resize(k);
  for (std::size_t i = 0; i < k; ++i) {
    if (g.kernel[i] <= 0 || g.strides[i] <= 0 || g.dilations[i] <= 0) fail("kernel, strides and dilations must be positive");
    const std::int64_t ext = (g.kernel[i] - 1) * g.dilations[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      g.out[i] = (g.in[i] + g.strides[i] - 1) / g.strides[i];
      const std::int64_t total = std::max<std::int64_t>(0, (g.out[i] - 1) * g.strides[i] + ext - g.in[i]);
      g.pb[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      g.pe[i] = total - g.pb[i];
      continue;
    }
    if (auto_pad == "VALID") g.pb[i] = g.pe[i] = 0;
    const std::int64_t span = g.in[i] + g.pb[i] + g.pe[i] - ext;
    if (span < 0) fail("kernel is larger than the padded input " + shape_string(x));
    g.out[i] = (ceil_mode ? (span + g.strides[i] - 1) / g.strides[i] : span / g.strides[i]) + 1;
    if (ceil_mode && (g.out[i] - 1) * g.strides[i] >= g.in[i] + g.pb[i]) --g.out[i];
  }
  return g;
}

enum class PoolKind { Max, Average, Lp };

// AveragePool's divisor for a window whose kernel rows [kh_lo, kh_hi) and columns
// [kw_lo, kw_hi) fall inside the input: those taps, or with count_include_pad the taps
// inside the padded input (rows_padded of its rows, columns counted from w0 here).
std::int64_t average_count(const PoolGeometry& g, bool include_pad, std::int64_t rows_padded,
                           std::int64_t kh_lo, std::int64_t kh_hi, std::int64_t kw_lo,
                           std::int64_t kw_hi, std::int64_t w0) {
  if (!include_pad)
    return std::max<std::int64_t>(0, kh_hi - kh_lo) * std::max<std::int64_t>(0, kw_hi - kw_lo);
  std::int64_t cols_padded = 0;
  for (std::int64_t kw = 0; kw < g.kernel[1]; ++kw) {
    const std::int64_t w = w0 + kw * g.dilations[1];
    cols_padded += (w >= -g.pb[1] && w < g.in[1] + g.pe[1]) ? 1 : 0;
  }
  return rows_padded * cols_padded;
}

// 2-D f32 Max/Average fast path (no indices): the valid kernel rows and columns of each
// window are clipped once, so the inner loops have no bounds checks. Same results as the
// generic loop below (tests compare it with the 3-D generic path).
Tensor pool2d_f32(const PoolGeometry& g, const Tensor& X, PoolKind kind, bool include_pad) {
  Tensor Y = Tensor::uninitialized(DType::Float32, {g.n, g.c, g.out[0], g.out[1]});  // every element written
  const std::int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1];
  const std::int64_t KH = g.kernel[0], KW = g.kernel[1], sh = g.strides[0], sw = g.strides[1];
  const std::int64_t dh = g.dilations[0], dw = g.dilations[1], ph = g.pb[0], pw = g.pb[1];
  const float* px = X.data<float>();
  float* py = Y.mutable_data<float>();
  parallel_for(g.n * g.c, [&](std::int64_t nc) {  // one channel per task (current thread pool)
    const float* xc = px + nc * H * W;
    float* yc = py + nc * OH * OW;
    for (std::int64_t oh = 0; oh < OH; ++oh) {
      const std::int64_t h0 = oh * sh - ph;
      // kernel rows inside the input: 0 <= h0 + kh*dh < H
      const std::int64_t kh_lo = h0 >= 0 ? 0 : (-h0 + dh - 1) / dh;
      const std::int64_t kh_hi = std::min(KH, H - h0 <= 0 ? 0 : (H - h0 - 1) / dh + 1);
      std::int64_t rows_padded = 0;  // rows inside [-pb, H + pe)
      for (std::int64_t kh = 0; kh < KH; ++kh) {
        const std::int64_t h = h0 + kh * dh;
        rows_padded += (h >= -ph && h < H + g.pe[0]) ? 1 : 0;
      }
      // One output column the general way: its window clipped to the input.
      auto column = [&](std::int64_t ow) {
        const std::int64_t w0 = ow * sw - pw;
        // Interior windows need no clipping and no divisions.
        const bool inside = w0 >= 0 && w0 + (KW - 1) * dw < W;
        const std::int64_t kw_lo = inside ? 0 : w0 >= 0 ? 0 : (-w0 + dw - 1) / dw;
        const std::int64_t kw_hi = inside ? KW : std::min(KW, W - w0 <= 0 ? 0 : (W - w0 - 1) / dw + 1);
        float acc = kind == PoolKind::Max ? -std::numeric_limits<float>::infinity() : 0.f;
        for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh) {
          const float* xr = xc + (h0 + kh * dh) * W + w0;
          if (kind == PoolKind::Max)
            for (std::int64_t kw = kw_lo; kw < kw_hi; ++kw) acc = acc < xr[kw * dw] ? xr[kw * dw] : acc;  // std::max
          else
            for (std::int64_t kw = kw_lo; kw < kw_hi; ++kw) acc += xr[kw * dw];
        }
        if (kind == PoolKind::Average) {
          const std::int64_t count = average_count(g, include_pad, rows_padded, kh_lo, kh_hi, kw_lo, kw_hi, w0);
          acc = count ? acc / static_cast<float>(count) : 0.f;
        }
        yc[oh * OW + ow] = acc;
      };
      // Columns whose windows lie wholly inside the row: [in_lo, in_hi). They are
      // computed a tap at a time across the row (vectorisable over ow), each output
      // accumulating its taps in the same (kh, kw) order as column(), so the results
      // are the same bit for bit.
      const std::int64_t in_lo = std::min(OW, (pw + sw - 1) / sw);
      const std::int64_t span = (KW - 1) * dw;  // w0 + span < W  <=>  ow * sw < W + pw - span
      const std::int64_t in_hi = std::max(in_lo, std::min(OW, W + pw - span <= 0 ? 0 : (W + pw - span - 1) / sw + 1));
      for (std::int64_t ow = 0; ow < in_lo; ++ow) column(ow);
      if (in_hi > in_lo) {
        float* yr = yc + oh * OW;
        const float init = kind == PoolKind::Max ? -std::numeric_limits<float>::infinity() : 0.f;
        for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] = init;
        for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh)
          for (std::int64_t kw = 0; kw < KW; ++kw) {
            const float* src = xc + (h0 + kh * dh) * W + kw * dw - pw;  // + ow * sw
            if (kind == PoolKind::Max) {
              if (sw == 1)
                for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] = yr[ow] < src[ow] ? src[ow] : yr[ow];
              else if (sw == 2)
                for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] = yr[ow] < src[2 * ow] ? src[2 * ow] : yr[ow];
              else
                for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] = yr[ow] < src[ow * sw] ? src[ow * sw] : yr[ow];
            } else {
              if (sw == 1)
                for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] += src[ow];
              else
                for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] += src[ow * sw];
            }
          }
        if (kind == PoolKind::Average) {
          // Interior columns: every kernel column counts (inside the input, hence inside the pads).
          const std::int64_t rows = include_pad ? rows_padded : std::max<std::int64_t>(0, kh_hi - kh_lo);
          const std::int64_t count = rows * KW;
          for (std::int64_t ow = in_lo; ow < in_hi; ++ow) yr[ow] = count ? yr[ow] / static_cast<float>(count) : 0.f;
        }
      }
      for (std::int64_t ow = in_hi; ow < OW; ++ow) column(ow);
    }
  });
  return Y;
}

// A 1-D pool is the 2-D one with a unit H axis (same memory).
PoolGeometry with_unit_height(const PoolGeometry& g) {
  PoolGeometry g2 = g;
  for (auto* v : {&g2.in, &g2.out, &g2.kernel, &g2.strides, &g2.dilations}) v->insert(v->begin(), 1);
  g2.pb.insert(g2.pb.begin(), 0);
  g2.pe.insert(g2.pe.begin(), 0);
  return g2;
}

// A 3-D pool as a 2-D pool of every depth plane ([N, C*D, H, W], the same memory), then
// a pass over depth: y[od] = max, or sum / count, of the planes od*sd - pd + kd*dd inside
// the input. A window clipped to the input is a box, so its tap count is the depth count
// times the plane's (which the 2-D average already divided by); the same holds with
// count_include_pad for the padded box. Max is exact; average within float rounding.
Tensor pool3d_f32(const PoolGeometry& g, const Tensor& X, PoolKind kind, bool include_pad) {
  const std::int64_t D = g.in[0], OD = g.out[0], KD = g.kernel[0], sd = g.strides[0], dd = g.dilations[0];
  PoolGeometry g2;
  g2.n = g.n, g2.c = g.c * D;
  auto tail = [](const Shape& v) { return Shape(v.begin() + 1, v.end()); };
  g2.in = tail(g.in), g2.out = tail(g.out), g2.kernel = tail(g.kernel), g2.strides = tail(g.strides);
  g2.dilations = tail(g.dilations), g2.pb = tail(g.pb), g2.pe = tail(g.pe);
  const Tensor planes = pool2d_f32(g2, X.reshaped({g.n, g.c * D, g.in[1], g.in[2]}), kind, include_pad);
  const std::int64_t P = g.out[1] * g.out[2];
  Tensor Y = Tensor::uninitialized(DType::Float32, {g.n, g.c, OD, g.out[1], g.out[2]});
  const float* px = planes.data<float>();
  float* py = Y.mutable_data<float>();
  parallel_for_if(g.n * g.c * OD * P >= (1 << 14), g.n * g.c, [&](std::int64_t nc) {
    for (std::int64_t od = 0; od < OD; ++od) {
      float* yr = py + (nc * OD + od) * P;
      const std::int64_t d0 = od * sd - g.pb[0];
      std::int64_t inside = 0, padded = 0;
      for (std::int64_t kd = 0; kd < KD; ++kd) {
        const std::int64_t d = d0 + kd * dd;
        padded += d >= -g.pb[0] && d < D + g.pe[0];
        if (d < 0 || d >= D) continue;
        const float* xr = px + (nc * D + d) * P;
        if (inside++ == 0) std::copy_n(xr, P, yr);
        else if (kind == PoolKind::Max)
          for (std::int64_t i = 0; i < P; ++i) yr[i] = yr[i] < xr[i] ? xr[i] : yr[i];
        else
          for (std::int64_t i = 0; i < P; ++i) yr[i] += xr[i];
      }
      if (inside == 0) {
        std::fill_n(yr, P, kind == PoolKind::Max ? -std::numeric_limits<float>::infinity() : 0.f);
        continue;
      }
      if (kind == PoolKind::Average) {
        const float inv = 1.f / static_cast<float>(include_pad ? padded : inside);
        for (std::int64_t i = 0; i < P; ++i) yr[i] *= inv;
      }
    }
  });
  return Y;
}

// Visits each window: f(nc, out_pos, list of (input offset) inside the input, taps in padded area).
Outputs pool(const ir::Operation& op, Inputs x, PoolKind kind) {
  const Tensor& X = x[0];
  const PoolGeometry g = pool_geometry(op, X.shape());
  const std::size_t k = g.in.size();
  const bool include_pad = attr_int(op, "count_include_pad", 0) != 0;
  const double p = static_cast<double>(attr_int(op, "p", 2));
  const bool want_indices = op.outputs.size() > 1 && !op.outputs[1].empty();
  const bool col_major = attr_int(op, "storage_order", 0) != 0;
  Shape out{g.n, g.c};
  out.insert(out.end(), g.out.begin(), g.out.end());
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const Shape in_st = strides_of(g.in);
  // Column-major strides over the spatial dims (MaxPool storage_order = 1).
  Shape cm_st(k, 1);
  for (std::size_t d = 1; d < k; ++d) cm_st[d] = cm_st[d - 1] * g.in[d - 1];
  if (X.dtype() == DType::Float32 && !want_indices && kind != PoolKind::Lp) {
    if (k == 2) return {pool2d_f32(g, X, kind, include_pad)};
    if (k == 1) return {pool2d_f32(with_unit_height(g), X, kind, include_pad).reshaped(out)};
    if (k == 3) return {pool3d_f32(g, X, kind, include_pad).reshaped(out)};
  }
  Tensor I(DType::Int64, want_indices ? out : Shape{0});
  auto compute = [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    const T* px = X.data<T>();
    T* py = Y.mutable_data<T>();
    std::vector<std::int64_t> o(k), kk(k);
    for (std::int64_t nc = 0; nc < g.n * g.c; ++nc) {
      const T* xc = px + nc * in_sp;
      std::fill(o.begin(), o.end(), 0);
      for (std::int64_t op_i = 0; op_i < out_sp; ++op_i, next_index(o, g.out)) {
        double acc = kind == PoolKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
        std::int64_t count = 0, best = -1, best_cm = -1;
        std::fill(kk.begin(), kk.end(), 0);
        for (std::int64_t kp = 0; kp < k_sp; ++kp, next_index(kk, g.kernel)) {
          std::int64_t off = 0, off_cm = 0;
          bool inside = true, in_padded = true;
          for (std::size_t d = 0; d < k; ++d) {
            const std::int64_t pos = o[d] * g.strides[d] - g.pb[d] + kk[d] * g.dilations[d];
            if (pos < 0 || pos >= g.in[d]) inside = false;
            if (pos < -g.pb[d] || pos >= g.in[d] + g.pe[d]) in_padded = false;
            off += pos * in_st[d];
            off_cm += pos * cm_st[d];
          }
          if (include_pad && in_padded) ++count;
          if (!inside) continue;
          const double v = static_cast<double>(xc[off]);
          if (!include_pad) ++count;
          if (kind == PoolKind::Max) {
            if (v > acc || best < 0) { acc = v; best = off; best_cm = off_cm; }
          } else if (kind == PoolKind::Average) {
            acc += v;
          } else {
            acc += std::pow(std::abs(v), p);
          }
        }
        double r = acc;
        if (kind == PoolKind::Average) r = count ? acc / double(count) : 0.0;
        if (kind == PoolKind::Lp) r = std::pow(acc, 1.0 / p);
        py[nc * out_sp + op_i] = static_cast<T>(r);
        if (want_indices) I.mutable_data<std::int64_t>()[nc * out_sp + op_i] = nc * in_sp + (col_major ? best_cm : best);
      }
    }
    return Y;
  };
  Tensor Y = kind == PoolKind::Max ? dispatch_numeric(X.dtype(), compute) : dispatch_float(X.dtype(), compute);
  if (want_indices) return {Y, I};
  return {Y};
}

enum class GlobalKind { Max, Average, Lp };

Outputs global_pool(const ir::Operation& op, Inputs x, GlobalKind kind) {
  const Tensor& X = x[0];
  if (X.rank() < 3) fail("input must be at least 3-D, got " + X.type_string());
  if (attr_str(op, "layout", "NCHW") != "NCHW")
    throw UnsupportedOpError(op.op_type + " with layout NHWC", "the CPU runtime", "");
  const double p = static_cast<double>(attr_int(op, "p", 2));
  Shape out{X.dim(0), X.dim(1)};
  out.resize(X.rank(), 1);
  const std::int64_t sp = X.numel() / std::max<std::int64_t>(1, X.dim(0) * X.dim(1));
  return {dispatch_float(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    for (std::int64_t nc = 0; nc < X.dim(0) * X.dim(1); ++nc) {
      const T* xc = X.data<T>() + nc * sp;
      double acc = kind == GlobalKind::Max ? -std::numeric_limits<double>::infinity() : 0.0;
      for (std::int64_t i = 0; i < sp; ++i) {
        const double v = xc[i];
        if (kind == GlobalKind::Max) acc = std::max(acc, v);
        else if (kind == GlobalKind::Average) acc += v;
        else acc += std::pow(std::abs(v), p);
      }
      if (kind == GlobalKind::Average) acc /= double(sp);
      if (kind == GlobalKind::Lp) acc = std::pow(acc, 1.0 / p);
      Y.mutable_data<T>()[nc] = static_cast<T>(acc);
    }
    return Y;
  })};
}


// One output pixel's window in NHWC over C channels, each block of channels kept in a
// register over all the taps (rows x cols of them, x at x0 + r rs + q cs): y = the max
// (taken as `y < x ? x : y`, as the loop below) or the sum from 0 in tap order divided by
// `count` (0 when count is 0): the same values as the loop, which re-reads y at every tap.
struct PoolWindow {
  const float* x0;
  std::int64_t rows, cols, rs, cs;
};
using PoolWindowFn = void (*)(const PoolWindow&, std::int64_t C, bool max, std::int64_t count, float* y);

__attribute__((target("avx2"))) void pool_window_avx2(const PoolWindow& w, std::int64_t C, bool max,
                                                     std::int64_t count, float* y) {
  const float inf = std::numeric_limits<float>::infinity();
  std::int64_t c = 0;
  for (; c + 8 <= C; c += 8) {
    __m256 a = max ? _mm256_set1_ps(-inf) : _mm256_setzero_ps();
    for (std::int64_t r = 0; r < w.rows; ++r)
      for (std::int64_t q = 0; q < w.cols; ++q) {
        const __m256 v = _mm256_loadu_ps(w.x0 + r * w.rs + q * w.cs + c);
        a = max ? _mm256_max_ps(v, a) : _mm256_add_ps(a, v);  // max_ps(v, a): v > a ? v : a
      }
    if (!max) a = count == 0 ? _mm256_setzero_ps() : _mm256_div_ps(a, _mm256_set1_ps(static_cast<float>(count)));
    _mm256_storeu_ps(y + c, a);
  }
  for (; c < C; ++c) {
    float a = max ? -inf : 0.f;
    for (std::int64_t r = 0; r < w.rows; ++r)
      for (std::int64_t q = 0; q < w.cols; ++q) {
        const float v = w.x0[r * w.rs + q * w.cs + c];
        a = max ? (a < v ? v : a) : a + v;
      }
    y[c] = max ? a : count == 0 ? 0.f : a / static_cast<float>(count);
  }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's unmasked AVX-512 forms
__attribute__((target("avx512f"))) void pool_window_avx512(const PoolWindow& w, std::int64_t C, bool max,
                                                          std::int64_t count, float* y) {
  const float inf = std::numeric_limits<float>::infinity();
  for (std::int64_t c = 0; c < C; c += 16) {
    // Full blocks unmasked (masked stores are slow on AMD), the tail masked.
    const bool full = C - c >= 16;
    const __mmask16 m = full ? __mmask16(0xFFFF) : __mmask16((1u << (C - c)) - 1);
    __m512 a = max ? _mm512_set1_ps(-inf) : _mm512_setzero_ps();
    for (std::int64_t r = 0; r < w.rows; ++r)
      for (std::int64_t q = 0; q < w.cols; ++q) {
        const float* p = w.x0 + r * w.rs + q * w.cs + c;
        const __m512 v = full ? _mm512_loadu_ps(p) : _mm512_maskz_loadu_ps(m, p);
        a = max ? _mm512_max_ps(v, a) : _mm512_add_ps(a, v);
      }
    if (!max) a = count == 0 ? _mm512_setzero_ps() : _mm512_div_ps(a, _mm512_set1_ps(static_cast<float>(count)));
    if (full) _mm512_storeu_ps(y + c, a);
    else _mm512_mask_storeu_ps(y + c, m, a);
  }
}
#pragma GCC diagnostic pop

// 2-D f32 Max/Average pooling in NHWC: the same window clipping as pool2d_f32,
// with the channels as the innermost (vectorised) loop.
Tensor pool2d_nhwc_f32(const PoolGeometry& g, const Tensor& X, PoolKind kind, bool include_pad) {
  const std::int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1], C = g.c;
  Tensor Y = Tensor::uninitialized(DType::Float32, {g.n, OH, OW, C});  // every element written
  const std::int64_t KH = g.kernel[0], KW = g.kernel[1], sh = g.strides[0], sw = g.strides[1];
  const std::int64_t dh = g.dilations[0], dw = g.dilations[1], ph = g.pb[0], pw = g.pb[1];
  const float* px = X.data<float>();
  float* py = Y.mutable_data<float>();
  const gemm::Isa isa = gemm::active_isa();
  const PoolWindowFn window = isa == gemm::Isa::Avx512 ? pool_window_avx512
                              : isa == gemm::Isa::Avx2 ? pool_window_avx2
                                                       : nullptr;
  parallel_for(g.n * OH, [&](std::int64_t row) {  // one output row per task
    const std::int64_t n = row / OH, oh = row % OH;
    const float* xn = px + n * H * W * C;
    const std::int64_t h0 = oh * sh - ph;
    const std::int64_t kh_lo = h0 >= 0 ? 0 : (-h0 + dh - 1) / dh;
    const std::int64_t kh_hi = std::min(KH, H - h0 <= 0 ? 0 : (H - h0 - 1) / dh + 1);
    std::int64_t rows_padded = 0;
    for (std::int64_t kh = 0; kh < KH; ++kh) {
      const std::int64_t h = h0 + kh * dh;
      rows_padded += (h >= -ph && h < H + g.pe[0]) ? 1 : 0;
    }
    for (std::int64_t ow = 0; ow < OW; ++ow) {
      const std::int64_t w0 = ow * sw - pw;
      const std::int64_t kw_lo = w0 >= 0 ? 0 : (-w0 + dw - 1) / dw;
      const std::int64_t kw_hi = std::min(KW, W - w0 <= 0 ? 0 : (W - w0 - 1) / dw + 1);
      float* yo = py + (row * OW + ow) * C;
      if (window) {
        const std::int64_t count = average_count(g, include_pad, rows_padded, kh_lo, kh_hi, kw_lo, kw_hi, w0);
        const PoolWindow win{xn + ((h0 + kh_lo * dh) * W + w0 + kw_lo * dw) * C,
                             std::max<std::int64_t>(0, kh_hi - kh_lo), std::max<std::int64_t>(0, kw_hi - kw_lo),
                             dh * W * C, dw * C};
        window(win, C, kind == PoolKind::Max, count, yo);
        continue;
      }
      const float init = kind == PoolKind::Max ? -std::numeric_limits<float>::infinity() : 0.f;
      for (std::int64_t c = 0; c < C; ++c) yo[c] = init;
      for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh)
        for (std::int64_t kw = kw_lo; kw < kw_hi; ++kw) {
          const float* xr = xn + ((h0 + kh * dh) * W + w0 + kw * dw) * C;
          if (kind == PoolKind::Max)
            for (std::int64_t c = 0; c < C; ++c) yo[c] = yo[c] < xr[c] ? xr[c] : yo[c];  // std::max
          else
            for (std::int64_t c = 0; c < C; ++c) yo[c] += xr[c];
        }
      if (kind == PoolKind::Average) {
        const std::int64_t count = average_count(g, include_pad, rows_padded, kh_lo, kh_hi, kw_lo, kw_hi, w0);
        if (count == 0)
          for (std::int64_t c = 0; c < C; ++c) yo[c] = 0.f;
        else
          for (std::int64_t c = 0; c < C; ++c) yo[c] = yo[c] / static_cast<float>(count);
      }
    }
  });
  return Y;
}

}  // namespace

// NHWC: 2-D f32 without indices runs pool2d_nhwc_f32; anything else goes through
// the NCHW kernel between two transposes.
Outputs pool_nhwc(const ir::Operation& op, Inputs x, bool max) {
  const Tensor& X = x[0];
  const PoolKind kind = max ? PoolKind::Max : PoolKind::Average;
  const bool want_indices = op.outputs.size() > 1 && !op.outputs[1].empty();
  if (X.rank() == 4 && X.dtype() == DType::Float32 && !want_indices) {
    const PoolGeometry g = pool_geometry(op, {X.dim(0), X.dim(3), X.dim(1), X.dim(2)}, true);
    return {pool2d_nhwc_f32(g, X, kind, attr_int(op, "count_include_pad", 0) != 0)};
  }
  if (want_indices) throw UnsupportedOpError("MaxPool with indices and layout NHWC", "the CPU runtime", "");
  if (X.rank() < 3) fail("input must be at least 3-D, got " + X.type_string());
  ir::Operation nchw = op;
  nchw.attributes.erase("layout");
  std::vector<Tensor> in{nhwc_to_nchw(X)};
  Outputs y = pool(nchw, in, kind);
  return {nchw_to_nhwc(y[0])};
}

namespace {

// acc[c] = sum over s < S of x[s * C + c] for c < cn, in double and in pixel order (the NCHW
// kernel's accumulation, so both layouts give the same floats).
void sum_pixels_generic(const float* x, std::int64_t S, std::int64_t C, std::int64_t cn,
                        double* acc) {
  std::fill(acc, acc + cn, 0.0);
  for (std::int64_t s = 0; s < S; ++s)
    for (std::int64_t c = 0; c < cn; ++c) acc[c] += x[s * C + c];
}

// K independent registers of 4 (AVX2) or 8 (AVX-512) double sums stay in registers over
// all S pixels: each pixel costs K converts and K adds, with no store-to-load chain.
template <int K>
__attribute__((target("avx2,fma"))) void sum_pixels_avx2_k(const float* x, std::int64_t S,
                                                           std::int64_t C, double* acc) {
  __m256d a[K];
  for (int k = 0; k < K; ++k) a[k] = _mm256_setzero_pd();
  for (std::int64_t s = 0; s < S; ++s, x += C)
    for (int k = 0; k < K; ++k)
      a[k] = _mm256_add_pd(a[k], _mm256_cvtps_pd(_mm_loadu_ps(x + 4 * k)));
  for (int k = 0; k < K; ++k) _mm256_storeu_pd(acc + 4 * k, a[k]);
}
__attribute__((target("avx2,fma"))) void sum_pixels_avx2(const float* x, std::int64_t S,
                                                         std::int64_t C, std::int64_t cn,
                                                         double* acc) {
  std::int64_t c = 0;
  for (; c + 32 <= cn; c += 32) sum_pixels_avx2_k<8>(x + c, S, C, acc + c);
  for (; c + 4 <= cn; c += 4) sum_pixels_avx2_k<1>(x + c, S, C, acc + c);
  if (c < cn) sum_pixels_generic(x + c, S, C, cn - c, acc + c);
}

#pragma GCC push_options
#pragma GCC target("avx512f")
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's unmasked AVX-512 forms
template <int K>
void sum_pixels_avx512_k(const float* x, std::int64_t S, std::int64_t C, double* acc) {
  __m512d a[K];
  for (int k = 0; k < K; ++k) a[k] = _mm512_setzero_pd();
  for (std::int64_t s = 0; s < S; ++s, x += C)
    for (int k = 0; k < K; ++k)
      a[k] = _mm512_add_pd(a[k], _mm512_cvtps_pd(_mm256_loadu_ps(x + 8 * k)));
  for (int k = 0; k < K; ++k) _mm512_storeu_pd(acc + 8 * k, a[k]);
}
void sum_pixels_avx512(const float* x, std::int64_t S, std::int64_t C, std::int64_t cn,
                       double* acc) {
  std::int64_t c = 0;
  for (; c + 64 <= cn; c += 64) sum_pixels_avx512_k<8>(x + c, S, C, acc + c);
  for (; c + 32 <= cn; c += 32) sum_pixels_avx512_k<4>(x + c, S, C, acc + c);
  for (; c + 8 <= cn; c += 8) sum_pixels_avx512_k<1>(x + c, S, C, acc + c);
  if (c < cn) sum_pixels_avx2(x + c, S, C, cn - c, acc + c);
}
#pragma GCC diagnostic pop
#pragma GCC pop_options

}  // namespace

static bool is_nhwc(const ir::Operation& op) { return attr_str(op, "layout", "NCHW") == "NHWC"; }

// y[n, 0, 0, c] = mean (or max) over h, w of x[n, h, w, c]; channels innermost.
Outputs global_pool_nhwc(const ir::Operation& op, Inputs x, bool max) {
  const Tensor& X = x[0];
  if (X.rank() < 3) fail("input must be at least 3-D, got " + X.type_string());
  const std::int64_t N = X.dim(0), C = X.dim(X.rank() - 1), S = X.numel() / std::max<std::int64_t>(1, N * C);
  Shape out(X.rank(), 1);
  out[0] = N;
  out[X.rank() - 1] = C;
  if (X.dtype() != DType::Float32) {
    ir::Operation nchw = op;
    nchw.attributes.erase("layout");
    std::vector<Tensor> in{nhwc_to_nchw(X)};
    return {nchw_to_nhwc(global_pool(nchw, in, max ? GlobalKind::Max : GlobalKind::Average)[0])};
  }
  Tensor Y = Tensor::uninitialized(DType::Float32, out);
  // Tasks: (image, block of 64 channels); each channel summed over every pixel in order,
  // so the result does not depend on the thread count.
  constexpr std::int64_t kBlock = 64;
  const std::int64_t blocks = (C + kBlock - 1) / kBlock;
  const gemm::Isa isa = gemm::active_isa();
  const auto sum = isa == gemm::Isa::Avx512 ? sum_pixels_avx512
                   : isa == gemm::Isa::Avx2 ? sum_pixels_avx2
                                            : sum_pixels_generic;
  parallel_for(N * blocks, [&](std::int64_t t) {
    const std::int64_t n = t / blocks, c0 = t % blocks * kBlock, cn = std::min(kBlock, C - c0);
    const float* xn = X.data<float>() + n * S * C + c0;
    float* yn = Y.mutable_data<float>() + n * C + c0;
    double acc[kBlock];
    if (max) {
      std::fill(acc, acc + cn, -std::numeric_limits<double>::infinity());
      for (std::int64_t s = 0; s < S; ++s) {
        const float* xs = xn + s * C;
        for (std::int64_t c = 0; c < cn; ++c) acc[c] = acc[c] < xs[c] ? xs[c] : acc[c];
      }
    } else {
      sum(xn, S, C, cn, acc);
    }
    for (std::int64_t c = 0; c < cn; ++c) yn[c] = static_cast<float>(max ? acc[c] : acc[c] / double(S));
  });
  return {Y};
}

Outputs kernel_MaxPool(const ir::Operation& op, Inputs x) {
  return is_nhwc(op) ? pool_nhwc(op, x, true) : pool(op, x, PoolKind::Max);
}
Outputs kernel_AveragePool(const ir::Operation& op, Inputs x) {
  return is_nhwc(op) ? pool_nhwc(op, x, false) : pool(op, x, PoolKind::Average);
}
Outputs kernel_LpPool(const ir::Operation& op, Inputs x) { return pool(op, x, PoolKind::Lp); }
Outputs kernel_GlobalAveragePool(const ir::Operation& op, Inputs x) {
  return is_nhwc(op) ? global_pool_nhwc(op, x, false) : global_pool(op, x, GlobalKind::Average);
}
Outputs kernel_GlobalMaxPool(const ir::Operation& op, Inputs x) {
  return is_nhwc(op) ? global_pool_nhwc(op, x, true) : global_pool(op, x, GlobalKind::Max);
}
Outputs kernel_GlobalLpPool(const ir::Operation& op, Inputs x) { return global_pool(op, x, GlobalKind::Lp); }

}  // namespace ec::runtime::kernels
