// NHWC convolution (see nhwc.h). With channels last, a 1x1 convolution is a
// plain GEMM over the pixels, an im2col row is KH*KW contiguous runs of C/group
// floats, and a depthwise tap is a vector over channels.
//   y[n, oh, ow, m] = b[m] + sum_{kh, kw, c'} x[n, oh*sh - ph + kh*dh, ow*sw - pw + kw*dw, g*cg + c']
//                                           * w[m, kh, kw, c']        (g = m / mg)
#include <cstring>
#include <limits>

// The V8 helpers below are always inlined; their by-value vector ABI never crosses a call.
#pragma GCC diagnostic ignored "-Wpsabi"

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/kernels/vmath.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {

namespace {

Tensor permute4(const Tensor& x, bool to_nhwc) {
  // Any rank >= 3: channels move between position 1 and last.
  const std::size_t r = x.rank();
  const std::int64_t N = x.dim(0);
  const std::int64_t C = to_nhwc ? x.dim(1) : x.dim(r - 1);
  const std::int64_t S = x.numel() / std::max<std::int64_t>(1, N * C);
  Shape out;
  out.push_back(N);
  if (to_nhwc) {
    out.insert(out.end(), x.shape().begin() + 2, x.shape().end());
    out.push_back(C);
  } else {
    out.push_back(C);
    out.insert(out.end(), x.shape().begin() + 1, x.shape().end() - 1);
  }
  Tensor y(x.dtype(), out);
  const std::size_t es = ir::dtype_size(x.dtype());
  const std::byte* src = x.raw();
  std::byte* dst = y.mutable_raw();
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t s = 0; s < S; ++s) {
        const std::int64_t nchw = (n * C + c) * S + s, nhwc = (n * S + s) * C + c;
        std::memcpy(dst + static_cast<std::size_t>(to_nhwc ? nhwc : nchw) * es,
                    src + static_cast<std::size_t>(to_nhwc ? nchw : nhwc) * es, es);
      }
  return y;
}

}  // namespace

Tensor nchw_to_nhwc(const Tensor& x) { return permute4(x, true); }
Tensor nhwc_to_nchw(const Tensor& x) { return permute4(x, false); }

ConvGeometry conv_geometry_nhwc(const ir::Operation& op, const Shape& x, const Shape& w) {
  if (x.size() != 4 || w.size() != 4)
    fail("NHWC Conv needs a 4-D input and weight, got " + shape_string(x) + " and " + shape_string(w));
  return conv_geometry(op, {x[0], x[3], x[1], x[2]}, {w[0], w[3], w[1], w[2]}, false, true);
}

// ---- depthwise, direct -------------------------------------------------------
namespace {

typedef float V8 __attribute__((vector_size(32)));

struct DwArgs {
  std::int64_t H, W, C, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw;
  float lo, hi;
};

[[gnu::always_inline]] inline V8 load8(const float* p) {
  V8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline void store8(float* p, V8 v) { std::memcpy(p, &v, sizeof v); }
[[gnu::always_inline]] inline V8 clamp8(V8 v, float lo, float hi) {
  const V8 l = V8{} + lo, h = V8{} + hi;
  v = v < l ? l : v;
  return h < v ? h : v;
}

// One output row oh of one image. wt is [KH*KW, C] (taps major), so a tap's
// weights for 8 channels are one vector. Interior columns (every kw tap inside
// the input) take R = 4 columns x 8 channels per step, the tap's weight vector
// loaded once for the 4 columns; border columns and the channel tail go one by one.
[[gnu::always_inline]] inline void dw_row_body(const DwArgs& a, const float* x, const float* wt, const float* b,
                                               float* y, std::int64_t oh) {
  const std::int64_t h0 = oh * a.sh - a.ph;
  const std::int64_t kh_lo = h0 >= 0 ? 0 : (-h0 + a.dh - 1) / a.dh;
  const std::int64_t kh_hi = std::min(a.KH, a.H - h0 <= 0 ? 0 : (a.H - h0 - 1) / a.dh + 1);
  const std::int64_t C = a.C, C8 = C / 8 * 8;
  float* yr = y + oh * a.OW * C;
  // Interior columns: 0 <= ow*sw - pw and ow*sw - pw + (KW-1)*dw < W.
  std::int64_t in_lo = (a.pw + a.sw - 1) / a.sw;
  std::int64_t in_hi = a.W - (a.KW - 1) * a.dw + a.pw;  // exclusive bound on ow*sw
  in_hi = in_hi <= 0 ? 0 : (in_hi - 1) / a.sw + 1;
  in_hi = std::min(in_hi, a.OW);
  in_lo = std::min(in_lo, in_hi);
  auto one_column = [&](std::int64_t ow) {
    const std::int64_t w0 = ow * a.sw - a.pw;
    const std::int64_t kw_lo = w0 >= 0 ? 0 : (-w0 + a.dw - 1) / a.dw;
    const std::int64_t kw_hi = std::min(a.KW, a.W - w0 <= 0 ? 0 : (a.W - w0 - 1) / a.dw + 1);
    float* yo = yr + ow * C;
    std::int64_t c = 0;
    for (; c < C8; c += 8) {
      V8 acc = b ? load8(b + c) : V8{};
      for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh)
        for (std::int64_t kw = kw_lo; kw < kw_hi; ++kw)
          acc += load8(x + ((h0 + kh * a.dh) * a.W + w0 + kw * a.dw) * C + c) * load8(wt + (kh * a.KW + kw) * C + c);
      store8(yo + c, clamp8(acc, a.lo, a.hi));
    }
    for (; c < C; ++c) {
      float acc = b ? b[c] : 0.f;
      for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh)
        for (std::int64_t kw = kw_lo; kw < kw_hi; ++kw)
          acc += x[((h0 + kh * a.dh) * a.W + w0 + kw * a.dw) * C + c] * wt[(kh * a.KW + kw) * C + c];
      yo[c] = std::min(std::max(acc, a.lo), a.hi);
    }
  };
  for (std::int64_t ow = 0; ow < in_lo; ++ow) one_column(ow);
  std::int64_t ow = in_lo;
  for (; ow + 4 <= in_hi; ow += 4) {
    const std::int64_t w0 = ow * a.sw - a.pw;
    for (std::int64_t c = 0; c < C8; c += 8) {
      V8 acc0 = b ? load8(b + c) : V8{}, acc1 = acc0, acc2 = acc0, acc3 = acc0;
      for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh) {
        const float* xr = x + ((h0 + kh * a.dh) * a.W + w0) * C + c;
        const float* wr = wt + kh * a.KW * C + c;
        for (std::int64_t kw = 0; kw < a.KW; ++kw) {
          const V8 wv = load8(wr + kw * C);
          const float* xp = xr + kw * a.dw * C;
          const std::int64_t step = a.sw * C;
          acc0 += load8(xp) * wv;
          acc1 += load8(xp + step) * wv;
          acc2 += load8(xp + 2 * step) * wv;
          acc3 += load8(xp + 3 * step) * wv;
        }
      }
      float* yo = yr + ow * C + c;
      store8(yo, clamp8(acc0, a.lo, a.hi));
      store8(yo + C, clamp8(acc1, a.lo, a.hi));
      store8(yo + 2 * C, clamp8(acc2, a.lo, a.hi));
      store8(yo + 3 * C, clamp8(acc3, a.lo, a.hi));
    }
    if (C8 < C)
      for (std::int64_t r = 0; r < 4; ++r) {
        const std::int64_t wr0 = (ow + r) * a.sw - a.pw;
        for (std::int64_t c = C8; c < C; ++c) {
          float acc = b ? b[c] : 0.f;
          for (std::int64_t kh = kh_lo; kh < kh_hi; ++kh)
            for (std::int64_t kw = 0; kw < a.KW; ++kw)
              acc += x[((h0 + kh * a.dh) * a.W + wr0 + kw * a.dw) * C + c] * wt[(kh * a.KW + kw) * C + c];
          yr[(ow + r) * C + c] = std::min(std::max(acc, a.lo), a.hi);
        }
      }
  }
  for (; ow < a.OW; ++ow) one_column(ow);
}

void dw_row_generic(const DwArgs& a, const float* x, const float* wt, const float* b, float* y, std::int64_t oh) {
  dw_row_body(a, x, wt, b, y, oh);
}

#if defined(__x86_64__)
__attribute__((target("avx2,fma"))) void dw_row_avx2(const DwArgs& a, const float* x, const float* wt,
                                                      const float* b, float* y, std::int64_t oh) {
  dw_row_body(a, x, wt, b, y, oh);
}
#endif

using DwRowFn = void (*)(const DwArgs&, const float*, const float*, const float*, float*, std::int64_t);

DwRowFn dw_row_for(gemm::Isa isa) {
#if defined(__x86_64__)
  if (isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2)) return &dw_row_avx2;
#endif
  (void)isa;
  return &dw_row_generic;
}

void depthwise_nhwc(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y, float lo,
                    float hi) {
  DwArgs a{g.in[0], g.in[1], g.c, g.out[0], g.out[1], g.kernel[0], g.kernel[1], g.strides[0], g.strides[1],
           g.dilations[0], g.dilations[1], g.pad_begin[0], g.pad_begin[1], lo, hi};
  // wt[tap, c] = w[c, tap]   (w is [C, KH, KW, 1])
  const std::int64_t taps = a.KH * a.KW;
  std::vector<float> wt(static_cast<std::size_t>(taps * a.C));
  for (std::int64_t c = 0; c < a.C; ++c)
    for (std::int64_t t = 0; t < taps; ++t) wt[static_cast<std::size_t>(t * a.C + c)] = w[c * taps + t];
  const DwRowFn fn = dw_row_for(gemm::active_isa());
  parallel_for(g.n * a.OH, [&](std::int64_t row) {
    const std::int64_t n = row / a.OH, oh = row % a.OH;
    fn(a, x + n * a.H * a.W * a.C, wt.data(), b, y + n * a.OH * a.OW * a.C, oh);
  });
}

}  // namespace

// ---- GEMM paths ----------------------------------------------------------------
void conv_fast_nhwc(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y, float lo,
                    float hi) {
  if (g.in.size() != 2) fail("NHWC Conv takes 2 spatial dims");
  const std::int64_t H = g.in[0], W = g.in[1], OH = g.out[0], OW = g.out[1], KH = g.kernel[0], KW = g.kernel[1];
  const std::int64_t C = g.c, M = g.m, cg = C / g.group, mg = M / g.group;
  if (cg == 1 && mg == 1) return depthwise_nhwc(g, x, w, b, y, lo, hi);
  const std::int64_t K = KH * KW * cg, P = OH * OW;
  const bool pointwise = KH == 1 && KW == 1 && g.strides[0] == 1 && g.strides[1] == 1 && g.pad_begin[0] == 0 &&
                         g.pad_begin[1] == 0 && g.pad_end[0] == 0 && g.pad_end[1] == 0;
  const std::int64_t sh = g.strides[0], sw = g.strides[1], dh = g.dilations[0], dw = g.dilations[1];
  const std::int64_t ph = g.pad_begin[0], pw = g.pad_begin[1];
  // Whole output rows per im2col chunk, about 256 Ki floats (1 MiB, L2-sized).
  const std::int64_t rows_per_chunk = std::max<std::int64_t>(1, (256 * 1024) / std::max<std::int64_t>(1, OW * K));
  std::vector<float> col;
  if (!pointwise) col.resize(static_cast<std::size_t>(std::min(OH, rows_per_chunk) * OW * K));
  for (std::int64_t n = 0; n < g.n; ++n) {
    const float* xn = x + n * H * W * C;
    float* yn = y + n * P * M;
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      gemm::Epilogue ep;  // + b[m], clamped
      if (b) {
        ep.bias_kind = gemm::Epilogue::Bias::PerColumn;
        ep.bias = b + grp * mg;
      }
      ep.lo = lo;
      ep.hi = hi;
      const float* wg = w + grp * mg * K;  // [mg, KH, KW, cg]: the group's rows
      if (pointwise) {
        // Y[P, mg] (row stride M) = X[P, cg] (row stride C) * W_g^T
        gemm::sgemm(P, mg, cg, 1.f, xn + grp * cg, C, false, wg, K, true, false, yn + grp * mg, M, ep);
        continue;
      }
      for (std::int64_t oh0 = 0; oh0 < OH; oh0 += rows_per_chunk) {
        const std::int64_t rows = std::min(rows_per_chunk, OH - oh0);
        // col[(oh - oh0)*OW + ow, (kh*KW + kw)*cg + c'] = x[ih, iw, grp*cg + c'] (0 outside)
        parallel_for(rows, [&](std::int64_t r) {
          const std::int64_t oh = oh0 + r;
          for (std::int64_t ow = 0; ow < OW; ++ow) {
            float* dst = col.data() + (r * OW + ow) * K;
            for (std::int64_t kh = 0; kh < KH; ++kh) {
              const std::int64_t ih = oh * sh - ph + kh * dh;
              for (std::int64_t kw = 0; kw < KW; ++kw, dst += cg) {
                const std::int64_t iw = ow * sw - pw + kw * dw;
                if (ih < 0 || ih >= H || iw < 0 || iw >= W) {
                  std::memset(dst, 0, sizeof(float) * static_cast<std::size_t>(cg));
                } else {
                  const float* src = xn + (ih * W + iw) * C + grp * cg;
                  for (std::int64_t c = 0; c < cg; ++c) dst[c] = src[c];
                }
              }
            }
          }
        });
        // Y[rows*OW, mg] = col[rows*OW, K] * W_g^T[K, mg] + b, clamped
        gemm::sgemm(rows * OW, mg, K, 1.f, col.data(), K, false, wg, K, true, false, yn + oh0 * OW * M + grp * mg, M,
                    ep);
      }
    }
  }
}

Outputs conv_nhwc(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &W = x[1], &B = in(x, 2);
  if (X.dtype() != DType::Float32 || W.dtype() != DType::Float32)
    throw UnsupportedOpError("Conv on " + std::string(ir::dtype_name(X.dtype())), "the CPU runtime",
                             "only f32 convolutions run on the CPU runtime");
  const ConvGeometry g = conv_geometry_nhwc(op, X.shape(), W.shape());
  if (B.defined() && B.numel() != g.m)
    fail("bias has " + std::to_string(B.numel()) + " values, expected " + std::to_string(g.m));
  Tensor Y = Tensor::uninitialized(DType::Float32, {g.n, g.out[0], g.out[1], g.m});  // every element written
  // A residual Add the session folded in (InferenceSession::fuse_conv_add): y = act(conv + s).
  const std::int64_t sum_at = attr_int(op, "sum_input", -1);
  const Tensor* S = sum_at >= 0 ? &in(x, static_cast<std::size_t>(sum_at)) : nullptr;
  if (S && (!S->defined() || S->dtype() != DType::Float32 || S->shape() != Y.shape()))
    fail("the Add folded into this Conv needs an f32 " + shape_string(Y.shape()) + " operand, got " +
         (S->defined() ? S->type_string() : std::string("none")));
  float lo = 0, hi = 0;
  const bool clamp = fused_clamp(op, lo, hi) && !S;  // otherwise (SIGMOID, TANH, after a sum) applied after
  if (S) lo = -std::numeric_limits<float>::infinity(), hi = std::numeric_limits<float>::infinity();
  const float* b = B.defined() ? B.data<float>() : nullptr;
  // A 1x1 Conv on one or two pixels (squeeze-excite gates on [N, 1, 1, C]) is a
  // matrix-vector product: our GEMV reads the weights once, in order. oneDNN's
  // convolution took 0.07-0.09 ms for each of mobilenet_v3_large's (960 -> 240), in one
  // piece whatever the thread count (0.70 ms of its 7.4).
  bool gemv = g.group == 1 && g.in.size() == 2 && g.n * g.out[0] * g.out[1] <= 2;
  for (std::size_t d = 0; d < g.in.size() && gemv; ++d)
    gemv = g.kernel[d] == 1 && g.strides[d] == 1 && g.pad_begin[d] == 0 && g.pad_end[d] == 0;
  if (!gemv && Y.numel() > 0 &&
      conv_onednn(g, X.data<float>(), W.data<float>(), b, Y.mutable_data<float>(),
                  ir::fused_activation(op), S ? S->data<float>() : nullptr))
    return {Y};  // the activation was oneDNN's post-op (or ours after the sum)
  if (Y.numel() > 0) conv_fast_nhwc(g, X.data<float>(), W.data<float>(), b, Y.mutable_data<float>(), lo, hi);
  if (S) {
    float* y = Y.mutable_data<float>();
    vmath::binary(vmath::BinOp::Add, y, 1, S->data<float>(), 1, y, Y.numel());
  }
  if (!clamp) apply_fused_activation(op, Y);
  return {Y};
}

Outputs conv_pair_nhwc(const ir::Operation& pw, Inputs pw_in, const ir::Operation& dw,
                       Inputs dw_in) {
  const Tensor &X = pw_in[0], &W1 = pw_in[1], &B1 = in(pw_in, 2), &W2 = dw_in[1],
               &B2 = in(dw_in, 2);
  if (X.dtype() == DType::Float32 && W1.dtype() == DType::Float32 && W2.dtype() == DType::Float32 &&
      X.rank() == 4 && W1.rank() == 4 && W2.rank() == 4) {
    const ConvGeometry g1 = conv_geometry_nhwc(pw, X.shape(), W1.shape());
    const Shape t{g1.n, g1.out[0], g1.out[1], g1.m};
    const ConvGeometry g2 = conv_geometry_nhwc(dw, t, W2.shape());
    if ((!B1.defined() || B1.numel() == g1.m) && (!B2.defined() || B2.numel() == g2.m)) {
      Tensor Y = Tensor::uninitialized(DType::Float32, {g2.n, g2.out[0], g2.out[1], g2.m});
      if (Y.numel() > 0 &&
          conv_pw_dw_onednn(g1, X.data<float>(), W1.data<float>(),
                            B1.defined() ? B1.data<float>() : nullptr,
                            ir::fused_activation(pw), g2, W2.data<float>(),
                            B2.defined() ? B2.data<float>() : nullptr,
                            ir::fused_activation(dw), Y.mutable_data<float>()))
        return {Y};
    }
  }
  // Apart: t in full, then the depthwise Conv on it.
  std::vector<Tensor> args(dw_in.begin(), dw_in.end());
  args[0] = conv_nhwc(pw, pw_in)[0];
  return conv_nhwc(dw, args);
}

}  // namespace ec::runtime::kernels
