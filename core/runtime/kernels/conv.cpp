// Convolution (any number of spatial dims, groups, dilations, pads, strides,
// auto_pad) and ConvTranspose. NCHW layout.
//
// Conv:  y[n, m, o] = b[m] + sum_{c in group(m), k} x[n, c, o*s - pb + k*d] * w[m, c', k]
//        out = floor((in + pb + pe - ((K - 1) * d + 1)) / s) + 1
// The float path lowers each (image, group) to one packed GEMM (core/runtime/gemm)
// over an im2col matrix, bias and clamp-type activations fused into its epilogue:
//        Y_g[M/g, P] = W_g[M/g, C/g * prod(K)] * col[C/g * prod(K), P]
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {

ConvGeometry conv_geometry(const ir::Operation& op, const Shape& x, const Shape& w, bool transpose, bool any_layout) {
  if (x.size() < 3) fail("input must be at least 3-D (N, C, spatial...), got " + shape_string(x));
  if (w.size() != x.size()) fail("weight rank " + std::to_string(w.size()) + " differs from input rank " +
                                 std::to_string(x.size()));
  if (!any_layout && attr_str(op, "layout", "NCHW") != "NCHW")
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
// Each channel is first copied into a zero-padded plane xp (so no tap needs a
// bounds check), then 16 outputs of a row are accumulated in registers over
// all taps and stored once, clamped (fused RELU/RELU6). The body is compiled
// twice: for the baseline ISA and, inlined into a wrapper with a target
// attribute, for AVX2 + FMA.
namespace {

struct DepthwiseArgs {
  std::int64_t H, W, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw;
  std::int64_t HP, WP;  // padded plane: rows (OH-1)*sh + (KH-1)*dh + 1, cols likewise
  bool split;            // stride 2, dilation 1: each padded row stored as even then odd columns
  std::int64_t HALF, RS;  // split: offset of the odd columns; floats per stored row
  float act_lo, act_hi;
  static constexpr std::int64_t kMaxRow = 1024;  // widest output row the blocked body takes
  bool blocked() const { return (sw == 1 || split) && KW <= 16 && (OW + 15) / 16 * 16 <= kMaxRow; }
};

// 8 floats; GCC lowers it to two SSE registers for the baseline ISA and to one
// ymm register inside the AVX2 wrapper. Only ever local, never passed.
typedef float V8 __attribute__((vector_size(32)));

// R output rows x 16 columns per step: 2R independent accumulators hide the
// FMA latency. Results go through a row buffer (the last block may run past OW).
// 16 floats, one zmm register inside the AVX-512 wrapper.
typedef float V16 __attribute__((vector_size(64)));

template <int R, typename V>
[[gnu::always_inline]] inline void depthwise_block(const DepthwiseArgs& a, const float* xp, const std::int64_t* tap,
                                                   const float* wc, float bias, float* yc, std::int64_t oh0) {
  constexpr int kLanes = int(sizeof(V) / sizeof(float)), kVecs = 16 / kLanes;  // 16 columns per step
  const std::int64_t OW16 = (a.OW + 15) / 16 * 16;
  float tail[R][16];
  for (std::int64_t ow = 0; ow < OW16; ow += 16) {
    V acc[R][kVecs];
    for (int r = 0; r < R; ++r)
      for (int h = 0; h < kVecs; ++h) acc[r][h] = V{} + bias;
    for (std::int64_t kh = 0; kh < a.KH; ++kh)
      for (std::int64_t kw = 0; kw < a.KW; ++kw) {
        const float wv = wc[kh * a.KW + kw];
        for (int r = 0; r < R; ++r) {
          const float* xr = xp + ((oh0 + r) * a.sh + kh * a.dh) * a.RS + ow + tap[kw];
          for (int h = 0; h < kVecs; ++h) {
            V v;
            std::memcpy(&v, xr + kLanes * h, sizeof v);
            acc[r][h] += wv * v;
          }
        }
      }
    // min(max(v, lo), hi), as selects (std::min/max do not vectorise without -ffast-math)
    // Whole blocks go straight to y; the last, partial one through a row buffer.
    const bool whole = ow + 16 <= a.OW;
    const V lo = V{} + a.act_lo, hi = V{} + a.act_hi;
    for (int r = 0; r < R; ++r)
      for (int h = 0; h < kVecs; ++h) {
        V v = acc[r][h];
        v = v < lo ? lo : v;
        v = hi < v ? hi : v;
        float* dst = whole ? yc + (oh0 + r) * a.OW + ow + kLanes * h : &tail[r][kLanes * h];
        std::memcpy(dst, &v, sizeof(V));
      }
  }
  if (const std::int64_t done = a.OW / 16 * 16; done < a.OW)
    for (int r = 0; r < R; ++r)
      std::memcpy(yc + (oh0 + r) * a.OW + done, tail[r], sizeof(float) * static_cast<std::size_t>(a.OW - done));
}

template <typename V>
[[gnu::always_inline]] inline void depthwise_channel_body(const DepthwiseArgs& a, const float* xc, const float* wc,
                                                          float bias, float* yc, float* xp) {
  // xp[r, q] = x[r - ph, q - pw], 0 outside the input, rows RS apart with zero
  // slack so whole 8-wide blocks may read past the last column (split: even q
  // at [0, WE), odd q from HALF).
  const std::int64_t q0 = std::min(a.pw, a.WP), q1 = std::max(q0, std::min(a.WP, a.pw + a.W));
  for (std::int64_t r = 0; r < a.HP; ++r) {
    float* dst = xp + r * a.RS;
    const std::int64_t ih = r - a.ph;
    if (ih < 0 || ih >= a.H) {
      std::memset(dst, 0, sizeof(float) * static_cast<std::size_t>(a.RS));
      continue;
    }
    const float* src = xc + ih * a.W - a.pw;
    if (!a.split) {
      // Zero only the padding around the copied columns.
      std::memset(dst, 0, sizeof(float) * static_cast<std::size_t>(q0));
      std::memcpy(dst + q0, src + q0, sizeof(float) * static_cast<std::size_t>(q1 - q0));
      std::memset(dst + q1, 0, sizeof(float) * static_cast<std::size_t>(a.RS - q1));
    } else {
      // De-interleaved straight from x: padded column q = src[q] for q in [q0, q1)
      // goes to even[q / 2] (q even) or odd[q / 2] (q odd); the rest stays zero.
      std::memset(dst, 0, sizeof(float) * static_cast<std::size_t>(a.RS));
      float* even = dst;
      float* odd = dst + a.HALF;
      for (std::int64_t i = (q0 + 1) / 2; i < q1 / 2; ++i) {  // both 2i and 2i + 1 inside
        even[i] = src[2 * i];
        odd[i] = src[2 * i + 1];
      }
      if (q0 % 2 == 1 && q0 < q1) odd[q0 / 2] = src[q0];
      if (q1 % 2 == 1 && q1 - 1 >= q0) even[q1 / 2] = src[q1 - 1];
    }
  }
  std::int64_t tap[16];  // column of tap kw for output column 0 (unit step per output column)
  for (std::int64_t kw = 0; kw < a.KW; ++kw) tap[kw] = a.split ? (kw & 1 ? a.HALF : 0) + (kw >> 1) : kw * a.dw;
  std::int64_t oh = 0;
  for (; oh + 4 <= a.OH; oh += 4) depthwise_block<4, V>(a, xp, tap, wc, bias, yc, oh);
  for (; oh < a.OH; ++oh) depthwise_block<1, V>(a, xp, tap, wc, bias, yc, oh);
}

// Fallback for shapes the blocked body does not take (strides other than 1
// and 2-with-dilation-1, kernels wider than 16, very wide rows): plain loops.
void depthwise_channel_plain(const DepthwiseArgs& a, const float* xc, const float* wc, float bias, float* yc) {
  for (std::int64_t oh = 0; oh < a.OH; ++oh)
    for (std::int64_t ow = 0; ow < a.OW; ++ow) {
      float acc = bias;
      for (std::int64_t kh = 0; kh < a.KH; ++kh) {
        const std::int64_t ih = oh * a.sh - a.ph + kh * a.dh;
        if (ih < 0 || ih >= a.H) continue;
        for (std::int64_t kw = 0; kw < a.KW; ++kw) {
          const std::int64_t iw = ow * a.sw - a.pw + kw * a.dw;
          if (iw >= 0 && iw < a.W) acc += wc[kh * a.KW + kw] * xc[ih * a.W + iw];
        }
      }
      yc[oh * a.OW + ow] = std::min(std::max(acc, a.act_lo), a.act_hi);
    }
}

void depthwise_channel_generic(const DepthwiseArgs& a, const float* xc, const float* wc, float bias, float* yc,
                               float* xp) {
  depthwise_channel_body<V8>(a, xc, wc, bias, yc, xp);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void depthwise_channel_avx2(const DepthwiseArgs& a, const float* xc,
                                                                 const float* wc, float bias, float* yc, float* xp) {
  depthwise_channel_body<V8>(a, xc, wc, bias, yc, xp);
}
__attribute__((target("avx512f,avx512vl,fma,prefer-vector-width=512"))) void depthwise_channel_avx512(
    const DepthwiseArgs& a, const float* xc, const float* wc, float bias, float* yc, float* xp) {
  depthwise_channel_body<V16>(a, xc, wc, bias, yc, xp);
}
#endif

using DepthwiseFn = void (*)(const DepthwiseArgs&, const float*, const float*, float, float*, float*);

DepthwiseFn depthwise_for(gemm::Isa isa) {
#if defined(__x86_64__)
  if (isa == gemm::Isa::Avx512) return &depthwise_channel_avx512;
  if (isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2)) return &depthwise_channel_avx2;
#endif
  (void)isa;
  return &depthwise_channel_generic;
}

}  // namespace

static void conv_depthwise2d(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                             float act_lo, float act_hi) {
  DepthwiseArgs a{g.in[0], g.in[1], g.out[0], g.out[1], g.kernel[0], g.kernel[1], g.strides[0], g.strides[1],
                  g.dilations[0], g.dilations[1], g.pad_begin[0], g.pad_begin[1], 0, 0, false, 0, 0, act_lo, act_hi};
  a.HP = (a.OH - 1) * a.sh + (a.KH - 1) * a.dh + 1;
  a.WP = (a.OW - 1) * a.sw + (a.KW - 1) * a.dw + 1;
  a.split = a.sw == 2 && a.dw == 1;
  // Reads reach 15 columns past the last needed one (whole 16-wide blocks).
  a.HALF = a.split ? (a.WP + 1) / 2 + 16 : 0;
  a.RS = a.split ? 2 * a.HALF : a.WP + 16;
  const DepthwiseFn fn = depthwise_for(gemm::active_isa());
  parallel_for(g.n * g.c, [&](std::int64_t nc) {
    const std::int64_t c = nc % g.c;
    const float* xc = x + nc * a.H * a.W;
    const float* wc = w + c * a.KH * a.KW;
    const float bias = b ? b[c] : 0.f;
    float* yc = y + nc * a.OH * a.OW;
    if (!a.blocked()) return depthwise_channel_plain(a, xc, wc, bias, yc);
    thread_local std::vector<float> plane;
    scratch(plane, static_cast<std::size_t>((a.HP + 1) * a.RS));  // + a row of slack for reads past the end
    fn(a, xc, wc, bias, yc, plane.data());
  });
}

namespace {

// A run of a panel's columns that lies in one output row.
struct Segment {
  std::int64_t t, n, oh, ow;  // panel columns [t, t+n) are outputs (oh, ow..ow+n)
};

// The output rows a panel of `cols` columns starting at output position j touches
// (one segment per row, at most cols); returns how many.
[[gnu::always_inline]] inline int panel_segments(std::int64_t j, std::int64_t cols, std::int64_t OW, Segment* segs) {
  int nseg = 0;
  for (std::int64_t t = 0; t < cols;) {
    const std::int64_t oh = j / OW, ow = j % OW, n = std::min(cols - t, OW - ow);
    segs[nseg++] = {t, n, oh, ow};
    t += n;
    j += n;
  }
  return nseg;
}

// Columns u of a segment of n output columns whose input column iw0 + u*sw lies in
// [0, W): [lo, hi) (lo == hi when none does). Stride 1 needs no division.
struct ColumnSpan {
  std::int64_t lo, hi;
};
[[gnu::always_inline]] inline ColumnSpan valid_columns(std::int64_t iw0, std::int64_t n, std::int64_t sw,
                                                       std::int64_t W) {
  if (sw == 1) {
    const std::int64_t lo = std::min(n, std::max<std::int64_t>(0, -iw0));
    return {lo, std::max(lo, std::min(n, W - iw0))};
  }
  const std::int64_t lo = iw0 >= 0 ? 0 : std::min(n, (-iw0 + sw - 1) / sw);
  return {lo, std::max(lo, std::min(n, W - iw0 <= 0 ? 0 : (W - iw0 - 1) / sw + 1))};
}

// (c, kh, kw) of im2col row p, then stepped row by row without divisions.
struct TapCursor {
  std::int64_t KH, KW, c, kh, kw;
  TapCursor(std::int64_t p, std::int64_t KH_, std::int64_t KW_)
      : KH(KH_), KW(KW_), c(p / (KH_ * KW_)), kh((p / KW_) % KH_), kw(p % KW_) {}
  void next() {
    if (++kw == KW) {
      kw = 0;
      if (++kh == KH) {
        kh = 0;
        ++c;
      }
    }
  }
};

// Rows [p0, p0+kc) x columns [j0, j0+nc) of the im2col matrix of x, packed (see Im2colPacker).
// `split` (stride 2, dilation 1; else null): x with each row's even columns then its odd
// columns, `half` = (W + 1) / 2 floats each, so the strided gather becomes a contiguous copy.
[[gnu::always_inline]] inline void im2col_pack_body(const ConvGeometry& g, const float* x, const float* split,
                                                    std::int64_t half, std::int64_t p0, std::int64_t kc,
                                                    std::int64_t j0, std::int64_t nc, int nr, float* out) {
  const std::int64_t H = g.in[0], W = g.in[1], OW = g.out[1], KH = g.kernel[0], KW = g.kernel[1];
  const std::int64_t sh = g.strides[0], sw = g.strides[1], dh = g.dilations[0], dw = g.dilations[1];
  const std::int64_t ph = g.pad_begin[0], pw = g.pad_begin[1];
  Segment segs[64];
  for (std::int64_t jp = 0; jp < nc; jp += nr) {
    const std::int64_t cols = std::min<std::int64_t>(nr, nc - jp);
    float* dst = out + jp * kc;
    const int nseg = panel_segments(j0 + jp, cols, OW, segs);
    TapCursor tap(p0, KH, KW);
    for (std::int64_t p = 0; p < kc; ++p, tap.next()) {
      const std::int64_t c = tap.c, kh = tap.kh, kw = tap.kw;
      float* d = dst + p * nr;
      const float* xc = x + c * H * W;
      for (int si = 0; si < nseg; ++si) {
        const Segment& sg = segs[si];
        float* ds = d + sg.t;
        const std::int64_t ih = sg.oh * sh - ph + kh * dh;
        if (ih < 0 || ih >= H) {
          for (std::int64_t u = 0; u < sg.n; ++u) ds[u] = 0.f;
          continue;
        }
        const float* xr = xc + ih * W;
        const std::int64_t iw0 = sg.ow * sw - pw + kw * dw;
        const auto [lo, hi] = valid_columns(iw0, sg.n, sw, W);
        for (std::int64_t u = 0; u < lo; ++u) ds[u] = 0.f;
        if (sw == 1) {
          const float* src = xr + iw0;
          for (std::int64_t u = lo; u < hi; ++u) ds[u] = src[u];  // short: a loop beats a memcpy call
        } else if (split) {
          // x[ih, iw0 + 2u] is column (iw0 >> 1) + u of the row's even (iw0 even) or odd half.
          const float* src = split + ((c * H + ih) * 2 + (iw0 & 1)) * half + (iw0 >> 1);
          for (std::int64_t u = lo; u < hi; ++u) ds[u] = src[u];
        } else
          for (std::int64_t u = lo; u < hi; ++u) ds[u] = xr[iw0 + u * sw];
        for (std::int64_t u = hi; u < sg.n; ++u) ds[u] = 0.f;
      }
      for (std::int64_t u = cols; u < nr; ++u) d[u] = 0.f;
    }
  }
}

using Im2colFn = void (*)(const ConvGeometry&, const float*, const float*, std::int64_t, std::int64_t, std::int64_t,
                          std::int64_t, std::int64_t, int, float*);

void im2col_pack_generic(const ConvGeometry& g, const float* x, const float* split, std::int64_t half,
                         std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc, int nr, float* out) {
  im2col_pack_body(g, x, split, half, p0, kc, j0, nc, nr, out);
}

#if defined(__x86_64__)
// The same loops with wider vectors for the copies and zero fills (the pack is
// ~17 % of resnet18's time with the AVX-512 GEMM).
__attribute__((target("avx2"))) void im2col_pack_avx2(const ConvGeometry& g, const float* x, const float* split,
                                                      std::int64_t half, std::int64_t p0, std::int64_t kc,
                                                      std::int64_t j0, std::int64_t nc, int nr, float* out) {
  im2col_pack_body(g, x, split, half, p0, kc, j0, nc, nr, out);
}
// AVX-512, 32-column panels, rows read contiguously (stride 1, or stride 2 from the
// split rows): each packed row of a panel is built in two registers by one masked
// load per output-row segment (lanes outside the input stay zero; masked-off
// lanes are never read), then stored whole. Same values as im2col_pack_body.
__attribute__((target("avx512f,avx512vl,prefer-vector-width=512"))) void im2col_pack_avx512(
    const ConvGeometry& g, const float* x, const float* split, std::int64_t half, std::int64_t p0, std::int64_t kc,
    std::int64_t j0, std::int64_t nc, int nr, float* out) {
  const std::int64_t sw = g.strides[1];
  if (nr != 32 || !(sw == 1 || split)) return im2col_pack_body(g, x, split, half, p0, kc, j0, nc, nr, out);
  const std::int64_t H = g.in[0], W = g.in[1], OW = g.out[1], KH = g.kernel[0], KW = g.kernel[1];
  const std::int64_t sh = g.strides[0], dh = g.dilations[0], dw = g.dilations[1];
  const std::int64_t ph = g.pad_begin[0], pw = g.pad_begin[1];
  Segment segs[33];
  for (std::int64_t jp = 0; jp < nc; jp += 32) {
    const std::int64_t cols = std::min<std::int64_t>(32, nc - jp);
    float* dst = out + jp * kc;
    const int nseg = panel_segments(j0 + jp, cols, OW, segs);
    TapCursor tap(p0, KH, KW);
    for (std::int64_t p = 0; p < kc; ++p, tap.next()) {
      const std::int64_t c = tap.c, kh = tap.kh, kw = tap.kw;
      __m512 v0 = _mm512_setzero_ps(), v1 = _mm512_setzero_ps();
      for (int si = 0; si < nseg; ++si) {
        const Segment& sg = segs[si];
        const std::int64_t ih = sg.oh * sh - ph + kh * dh;
        if (ih < 0 || ih >= H) continue;
        const std::int64_t iw0 = sg.ow * sw - pw + kw * dw;
        // Element u of the segment is src[u] for u in [lo, hi).
        const auto [lo, hi] = valid_columns(iw0, sg.n, sw, W);
        if (lo >= hi) continue;
        const float* src = sw == 1 ? x + (c * H + ih) * W : split + ((c * H + ih) * 2 + (iw0 & 1)) * half;
        src += sw == 1 ? iw0 : iw0 >> 1;
        // Panel lanes [sg.t + lo, sg.t + hi) take src[lane - sg.t].
        const std::uint64_t bits = ((std::uint64_t{1} << (sg.t + hi)) - 1) & ~((std::uint64_t{1} << (sg.t + lo)) - 1);
        const auto base = reinterpret_cast<std::uintptr_t>(src) - static_cast<std::uintptr_t>(sg.t) * sizeof(float);
        const auto m0 = static_cast<__mmask16>(bits & 0xFFFF), m1 = static_cast<__mmask16>(bits >> 16);
        if (m0) v0 = _mm512_mask_loadu_ps(v0, m0, reinterpret_cast<const float*>(base));
        if (m1) v1 = _mm512_mask_loadu_ps(v1, m1, reinterpret_cast<const float*>(base + 16 * sizeof(float)));
      }
      _mm512_storeu_ps(dst + p * 32, v0);
      _mm512_storeu_ps(dst + p * 32 + 16, v1);
    }
  }
}
#endif

Im2colFn im2col_for(gemm::Isa isa) {
#if defined(__x86_64__)
  if (isa == gemm::Isa::Avx512) return &im2col_pack_avx512;
  if (isa == gemm::Isa::Avx2) return &im2col_pack_avx2;
#endif
  (void)isa;
  return &im2col_pack_generic;
}

}  // namespace

// The im2col matrix of a 2-D convolution, never stored: the GEMM asks for
// packed KC x NC blocks and they are gathered straight from the input,
//   B[(c, kh, kw), (oh, ow)] = x[c, oh*sh - ph + kh*dh, ow*sw - pw + kw*dw]  (0 outside).
class Im2colPacker final : public gemm::BPacker {
 public:
  Im2colPacker(const ConvGeometry& g, const float* xg, std::int64_t channels)
      : g_(g), x_(xg), fn_(im2col_for(gemm::active_isa())) {
    if (g.strides[1] != 2 || g.dilations[1] != 1) return;
    // Stride 2: each input row split once into its even and odd columns.
    const std::int64_t H = g.in[0], W = g.in[1];
    half_ = (W + 1) / 2;
    split_.resize(static_cast<std::size_t>(channels * H * 2 * half_));
    for (std::int64_t r = 0; r < channels * H; ++r) {
      const float* src = xg + r * W;
      float* even = split_.data() + r * 2 * half_;
      float* odd = even + half_;
      for (std::int64_t i = 0; i < W / 2; ++i) {
        even[i] = src[2 * i];
        odd[i] = src[2 * i + 1];
      }
      if (W % 2) even[W / 2] = src[W - 1];
    }
  }
  void pack(std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc, int nr, float* out) const override {
    fn_(g_, x_, split_.empty() ? nullptr : split_.data(), half_, p0, kc, j0, nc, nr, out);
  }

 private:
  const ConvGeometry& g_;
  const float* x_;
  Im2colFn fn_;
  std::vector<float> split_;
  std::int64_t half_ = 0;
};

// A 1-D convolution is the 2-D one with a unit H axis (same memory): every 2-D fast
// path (depthwise direct, streamed im2col) applies.
static ConvGeometry with_unit_height(const ConvGeometry& g) {
  ConvGeometry g2 = g;
  auto lift = [](std::vector<std::int64_t>& v, std::int64_t unit) { v.insert(v.begin(), unit); };
  lift(g2.in, 1), lift(g2.out, 1), lift(g2.kernel, 1), lift(g2.strides, 1), lift(g2.dilations, 1);
  lift(g2.pad_begin, 0), lift(g2.pad_end, 0);
  return g2;
}

// A 3-D convolution as one 2-D convolution per output depth od: the input planes each
// kernel depth kd reads (x[c, od*sd - pd + kd*dd], zeros outside) copied as channels
// c*KD + kd of a [C/group * KD, H, W] image, which the OIDHW weights [M, C/group, KD, KH, KW]
// already are as OIHW [M, C/group * KD, KH, KW]; the GEMM writes y[:, od] in place
// (row stride OD*OH*OW). The im2col matrix is streamed as for 2-D.
static void conv3d_by_depth(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                            float act_lo, float act_hi) {
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group, KD = g.kernel[0];
  const std::int64_t D = g.in[0], plane = g.in[1] * g.in[2], oplane = g.out[1] * g.out[2];
  const std::int64_t in_sp = D * plane, out_sp = g.out[0] * oplane, kdim = cg * shape_numel(g.kernel);
  ConvGeometry g2;
  g2.n = 1, g2.c = cg * KD, g2.m = mg, g2.group = 1;
  auto tail = [](const std::vector<std::int64_t>& v) { return std::vector<std::int64_t>(v.begin() + 1, v.end()); };
  g2.in = tail(g.in), g2.out = tail(g.out), g2.kernel = tail(g.kernel), g2.strides = tail(g.strides);
  g2.dilations = tail(g.dilations), g2.pad_begin = tail(g.pad_begin), g2.pad_end = tail(g.pad_end);
  thread_local std::vector<float> slab_buffer;
  float* slab = scratch(slab_buffer, static_cast<std::size_t>(cg * KD * plane));
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      gemm::Epilogue ep;
      if (b) {
        ep.bias_kind = gemm::Epilogue::Bias::PerRow;
        ep.bias = b + grp * mg;
      }
      ep.lo = act_lo;
      ep.hi = act_hi;
      const float* xg = x + (n * g.c + grp * cg) * in_sp;
      for (std::int64_t od = 0; od < g.out[0]; ++od) {
        for (std::int64_t c = 0; c < cg; ++c)
          for (std::int64_t kd = 0; kd < KD; ++kd) {
            const std::int64_t id = od * g.strides[0] - g.pad_begin[0] + kd * g.dilations[0];
            float* dst = slab + (c * KD + kd) * plane;
            if (id < 0 || id >= D) std::fill_n(dst, plane, 0.f);
            else std::copy_n(xg + c * in_sp + id * plane, plane, dst);
          }
        gemm::sgemm(mg, oplane, kdim, 1.f, w + grp * mg * kdim, kdim, false, Im2colPacker(g2, slab, cg * KD), false,
                    y + (n * g.m + grp * mg) * out_sp + od * oplane, out_sp, ep);
      }
    }
}

// im2col + GEMM. col[(c, kpos), p] = x[c, p*s - pb + kpos*d] (0 outside).
void conv_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y, float act_lo,
               float act_hi) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  const Shape in_st = strides_of(g.in);
  if (k == 1) return conv_fast(with_unit_height(g), x, w, b, y, act_lo, act_hi);
  if (k == 2 && cg == 1 && mg == 1) return conv_depthwise2d(g, x, w, b, y, act_lo, act_hi);
  bool pointwise = true;  // 1x1, stride 1, no pad: x itself is the column matrix
  for (std::size_t d = 0; d < k; ++d)
    pointwise = pointwise && g.kernel[d] == 1 && g.strides[d] == 1 && g.pad_begin[d] == 0 && g.pad_end[d] == 0;
  if (k == 3 && !pointwise && !(cg == 1 && mg == 1)) return conv3d_by_depth(g, x, w, b, y, act_lo, act_hi);
  std::vector<float> col;
  if (!pointwise && k != 2) col.resize(static_cast<std::size_t>(cg * k_sp * out_sp));
  std::vector<std::int64_t> o(k), kk(k);
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      const float* xg = x + (n * g.c + grp * cg) * in_sp;
      gemm::Epilogue ep;  // + b, clamped
      if (b) {
        ep.bias_kind = gemm::Epilogue::Bias::PerRow;
        ep.bias = b + grp * mg;
      }
      ep.lo = act_lo;
      ep.hi = act_hi;
      const float* wg = w + grp * mg * cg * k_sp;
      float* yg = y + (n * g.m + grp * mg) * out_sp;
      if (!pointwise && k == 2) {
        // Y_g[mg, P] = W_g[mg, cg*KH*KW] * im2col[cg*KH*KW, P], im2col packed on the fly
        gemm::sgemm(mg, out_sp, cg * k_sp, 1.f, wg, cg * k_sp, false, Im2colPacker(g, xg, cg), false, yg, out_sp, ep);
        continue;
      }
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
      // Y_g[mg, P] = W_g[mg, cg*K] * col[cg*K, P] + b, clamped
      gemm::sgemm(mg, out_sp, cg * k_sp, 1.f, wg, cg * k_sp, false, pointwise ? xg : col.data(), out_sp, false, false,
                  yg, out_sp, ep);
    }
}

// A Conv of NC... layout (used for 3-D: NCDHW) on oneDNN's channels-last kernels: x copied
// to N...C (NDHWC), the weights to O...I (ODHWI) once per session (kept in the session's cache and
// declared constant there, so oneDNN's reordered copy is cached too), y copied back. The
// LayoutTransform pass converts 2-D regions only; for 3-D the two copies cost a few per
// cent of what oneDNN saves over our per-depth GEMMs (video3d: 2x, docs/PERFORMANCE.md). False (y
// untouched) when oneDNN cannot take it (outside a session run, weights not a session
// constant, oneDNN off or declining).
static bool conv_channels_last_onednn(const ConvGeometry& g, const Tensor& X, const Tensor& W, const float* b,
                                      Tensor& Y, ir::Activation act) {
  gemm::PackCache* cache = gemm::current_pack_cache();
  const auto wbytes = static_cast<std::size_t>(W.numel()) * sizeof(float);
  if (!onednn_conv_enabled() || !cache || !cache->is_constant(W.data<float>(), wbytes)) return false;
  const auto r = static_cast<std::int64_t>(X.rank());
  std::vector<std::int64_t> to_last{0}, to_first{0, r - 1};  // [N, C, S...] <-> [N, S..., C]
  for (std::int64_t d = 2; d < r; ++d) to_last.push_back(d), to_first.push_back(d - 1);
  to_last.push_back(1);
  const std::string key = "conv-channels-last|" + std::to_string(reinterpret_cast<std::uintptr_t>(W.data<float>()));
  auto w_t = std::static_pointer_cast<const Tensor>(cache->find_prepared(key));
  if (!w_t) {
    auto made = std::make_shared<Tensor>(permute(W, to_last));
    w_t = std::static_pointer_cast<const Tensor>(cache->put_prepared(key, made, wbytes));
    if (w_t == made) cache->add_constant_range(made->data<float>(), wbytes);
  }
  const Tensor x_t = permute(X, to_last);
  Shape ys{g.n};
  ys.insert(ys.end(), g.out.begin(), g.out.end());
  ys.push_back(g.m);
  Tensor y_t = Tensor::uninitialized(DType::Float32, ys);
  if (!conv_onednn(g, x_t.data<float>(), w_t->data<float>(), b, y_t.mutable_data<float>(), act)) return false;
  Y = permute(y_t, to_first);
  return true;
}

Outputs kernel_Conv(const ir::Operation& op, Inputs x) {
  if (attr_str(op, "layout", "NCHW") == "NHWC") return conv_nhwc(op, x);
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (X.dtype() != DType::Float32 || W.dtype() != DType::Float32)
    throw UnsupportedOpError("Conv on " + std::string(ir::dtype_name(X.dtype())), "the CPU runtime",
                             "only f32 convolutions run on the CPU runtime");
  const ConvGeometry g = conv_geometry(op, X.shape(), W.shape(), false);
  Shape out{g.n, g.m};
  out.insert(out.end(), g.out.begin(), g.out.end());
  Tensor Y = Tensor::uninitialized(DType::Float32, out);  // conv_fast writes every element
  if (B.defined() && B.numel() != g.m) fail("bias has " + std::to_string(B.numel()) + " values, expected " + std::to_string(g.m));
  float lo = 0, hi = 0;
  const bool clamp = fused_clamp(op, lo, hi);  // otherwise (SIGMOID, TANH) applied after
  const float* b = B.defined() ? B.data<float>() : nullptr;
  // 3-D kernels that span depth and the plane (3x3x3: video3d 2x faster on oneDNN). A
  // factorised (1,k,k) or (k,1,1) kernel (R(2+1)D) is a plain 2-D convolution per depth or
  // a 1x1 GEMM for our per-depth path, which ran r2plus1d_18 2x faster than oneDNN's 3-D
  // kernel; 1-D convolutions keep our 2-D paths too (audio1d: oneDNN's dilated depthwise
  // 1-D convolutions 10-30x slower).
  const bool full_3d = g.in.size() == 3 && g.kernel[0] > 1 && g.kernel[1] * g.kernel[2] > 1;
  if (full_3d && Y.numel() > 0 &&
      conv_channels_last_onednn(g, X, W, b, Y, ir::fused_activation(op)))
    return {Y};  // the activation was oneDNN's post-op
  if (Y.numel() > 0) conv_fast(g, X.data<float>(), W.data<float>(), b, Y.mutable_data<float>(), lo, hi);
  if (!clamp) apply_fused_activation(op, Y);
  return {Y};
}

// y[n, m, i*s - pb + k*d] += x[n, c, i] * w[c, m', k]   (the adjoint of Conv)
void conv_transpose_reference(const ConvGeometry& g, const float* px, const float* pw, const float* b, float* py) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  const Shape out_st = strides_of(g.out);
  std::fill_n(py, g.n * g.m * out_sp, 0.f);
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
  if (b)
    for (std::int64_t n = 0; n < g.n; ++n)
      for (std::int64_t m = 0; m < g.m; ++m)
        for (std::int64_t p = 0; p < out_sp; ++p) py[(n * g.m + m) * out_sp + p] += b[m];
}

void conv_transpose_fast(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group, rows = mg * k_sp;
  if (k == 0 || in_sp == 0 || out_sp == 0) {
    for (std::int64_t n = 0; n < g.n; ++n)
      for (std::int64_t m = 0; m < g.m; ++m) std::fill_n(y + (n * g.m + m) * out_sp, out_sp, b ? b[m] : 0.f);
    if (k == 0 || in_sp == 0) return;
  }
  // Per axis d, the output index of input index i and tap t (-1: outside the output).
  std::vector<std::vector<std::int64_t>> pos(k);
  for (std::size_t d = 0; d < k; ++d) {
    pos[d].resize(static_cast<std::size_t>(g.in[d] * g.kernel[d]));
    for (std::int64_t t = 0; t < g.kernel[d]; ++t)
      for (std::int64_t i = 0; i < g.in[d]; ++i) {
        const std::int64_t o = i * g.strides[d] - g.pad_begin[d] + t * g.dilations[d];
        pos[d][static_cast<std::size_t>(t * g.in[d] + i)] = o >= 0 && o < g.out[d] ? o : -1;
      }
  }
  const Shape out_st = strides_of(g.out);
  // A band of whole input rows (outermost spatial axis) per GEMM, col at most ~4 MB.
  const std::int64_t row_len = in_sp / g.in[0];
  const std::int64_t band_rows = std::clamp<std::int64_t>((std::int64_t(1) << 20) / std::max<std::int64_t>(rows * row_len, 1), 1, g.in[0]);
  thread_local std::vector<float> col_buffer;
  float* col = scratch(col_buffer, static_cast<std::size_t>(rows * band_rows * row_len));
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      float* yg = y + (n * g.m + grp * mg) * out_sp;
      for (std::int64_t m = 0; m < mg; ++m) std::fill_n(yg + m * out_sp, out_sp, b ? b[grp * mg + m] : 0.f);
      const float* xg = x + (n * g.c + grp * cg) * in_sp;
      const float* wg = w + grp * cg * rows;  // [cg, mg * k_sp]
      for (std::int64_t r0 = 0; r0 < g.in[0]; r0 += band_rows) {
        const std::int64_t nr = std::min(band_rows, g.in[0] - r0), cols = nr * row_len;
        // col[mg * k_sp, cols] = W_g^T [mg * k_sp, cg] x X_g[cg, band]
        gemm::sgemm(rows, cols, cg, 1.f, wg, rows, true, xg + r0 * row_len, in_sp, false, false, col, cols);
        // col2im: each output channel on one task (no two tasks write the same element).
        parallel_for_if(mg > 1 && rows * cols >= (std::int64_t(1) << 14), mg, [&](std::int64_t m) {
          float* ym = yg + m * out_sp;
          std::vector<std::int64_t> kk(k, 0), ii(k, 0);
          for (std::int64_t kp = 0; kp < k_sp; ++kp, next_index(kk, g.kernel)) {
            const float* c = col + (m * k_sp + kp) * cols;
            // every input position of the band, the last axis as the inner loop (a 1-D
            // input's band is a piece of that axis)
            const std::int64_t last = k == 1 ? cols : g.in[k - 1];
            const std::int64_t* pl = pos[k - 1].data() + kk[k - 1] * g.in[k - 1] + (k == 1 ? r0 : 0);
            std::fill(ii.begin(), ii.end(), 0);
            ii[0] = r0;
            for (std::int64_t p = 0; p < cols; p += last) {
              std::int64_t base = 0;
              bool inside = true;
              for (std::size_t d = 0; d + 1 < k; ++d) {
                const std::int64_t o = pos[d][static_cast<std::size_t>(kk[d] * g.in[d] + ii[d])];
                if (o < 0) { inside = false; break; }
                base += o * out_st[d];
              }
              if (inside) {
                float* yr = ym + base;
                const float* cr = c + p;
                for (std::int64_t i = 0; i < last; ++i)
                  if (pl[i] >= 0) yr[pl[i]] += cr[i];
              }
              // next input row (all axes but the last)
              for (std::size_t d = k - 1; d-- > 0;) {
                if (++ii[d] < g.in[d]) break;
                ii[d] = 0;
              }
            }
          }
        });
      }
    }
}

Outputs kernel_ConvTranspose(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (X.dtype() != DType::Float32 || W.dtype() != DType::Float32)
    throw UnsupportedOpError("ConvTranspose on " + std::string(ir::dtype_name(X.dtype())), "the CPU runtime", "");
  const ConvGeometry g = conv_geometry(op, X.shape(), W.shape(), true);
  Shape out{g.n, g.m};
  out.insert(out.end(), g.out.begin(), g.out.end());
  Tensor Y = Tensor::uninitialized(DType::Float32, out);  // conv_transpose_fast writes every element
  if (B.defined() && B.numel() != g.m) fail("bias has " + std::to_string(B.numel()) + " values, expected " + std::to_string(g.m));
  if (Y.numel() > 0)
    conv_transpose_fast(g, X.data<float>(), W.data<float>(), B.defined() ? B.data<float>() : nullptr, Y.mutable_data<float>());
  apply_fused_activation(op, Y);  // as the int8 kernel clamps (no pass fuses one into it today)
  return {Y};
}

}  // namespace ec::runtime::kernels
