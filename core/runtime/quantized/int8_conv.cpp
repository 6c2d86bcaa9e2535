// int8 and hybrid Conv (NCHW, 1-D and 2-D, groups, depthwise, strides,
// dilations, pads incl. auto_pad, per-channel or per-tensor symmetric weights,
// i32 bias, fused clamp activations).
//
// int8 mirrors TFLite's reference_integer_ops::ConvPerChannel:
//   acc[c] = bias[c] + sum_k (x_k - zx) * w[c, k]              (padding reads x = zx)
//   y      = clamp(MBQM(acc, M_c) + zy, act_min, act_max),     M_c = sx * sw[c] / sy
// Computed here as sum_k x_k * w[c, k] + (bias[c] - zx * sum_k w[c, k]) with
// the padding of the im2col matrix filled with zx: the same integer, exactly.
// The product is the int8 GEMM (igemm.h): A = weights of a group [M/g, C/g*kh*kw]
// (packed once at load), B = im2col slab of the image [C/g*kh*kw, pixels]
// (1x1 stride-1 unpadded convolutions read x itself). Depthwise (group = C = M)
// runs direct: each channel copied once into a zero-padded int16 plane of x - zx.
//
// Hybrid (TFLite's hybrid conv): each image is quantised asymmetrically from its
// own min/max (s_n, z_n), the same int8 product runs, and
//   y = (acc - z_n * sum_k w[c, k]) * s_n * sw[c] + bias_f32[c], then the fused clamp.
#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

using Shape = std::vector<std::int64_t>;

// Geometry collapsed to 2-D (a 1-D convolution has H = 1).
struct Geo2 {
  std::int64_t n, c, m, group, H, W, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw;
};

Geo2 geo2(const kernels::ConvGeometry& g) {
  Geo2 r{};
  r.n = g.n;
  r.c = g.c;
  r.m = g.m;
  r.group = g.group;
  const bool one = g.in.size() == 1;
  const std::size_t a = 0, b = one ? 0 : 1;
  r.H = one ? 1 : g.in[a];
  r.W = g.in[b];
  r.OH = one ? 1 : g.out[a];
  r.OW = g.out[b];
  r.KH = one ? 1 : g.kernel[a];
  r.KW = g.kernel[b];
  r.sh = one ? 1 : g.strides[a];
  r.sw = g.strides[b];
  r.dh = one ? 1 : g.dilations[a];
  r.dw = g.dilations[b];
  r.ph = one ? 0 : g.pad_begin[a];
  r.pw = g.pad_begin[b];
  return r;
}

// Rows [0, K) x pixel columns [j0, j0 + nc) of one group's im2col matrix, row-major
// (row stride nc); taps outside the input read `pad`.
void im2col_slab(const Geo2& geo, const std::int8_t* x /* group's first channel */, std::int64_t cg,
                 std::int64_t j0, std::int64_t nc, std::int8_t pad, std::int8_t* out) {
  const Geo2 g = geo;  // a local copy: the loops below store through int8 pointers
  const std::int64_t sw = g.sw;
  const bool avx2 = use_avx2();
  // Per kernel column kw, outputs ow read iw = ow * sw + base: padding before first_in and
  // from end_in on (computed once per call: no divisions in the loops).
  std::vector<std::int64_t> first_in(static_cast<std::size_t>(g.KW)), end_in(first_in.size());
  for (std::int64_t kw = 0; kw < g.KW; ++kw) {
    const std::int64_t base = -g.pw + kw * g.dw;
    first_in[static_cast<std::size_t>(kw)] = base >= 0 ? 0 : (-base + sw - 1) / sw;
    end_in[static_cast<std::size_t>(kw)] = g.W - base > 0 ? (g.W - base + sw - 1) / sw : 0;
  }
  const std::int64_t oh0 = j0 / g.OW, ow0 = j0 % g.OW;
  std::int64_t k = 0;
  for (std::int64_t c = 0; c < cg; ++c)
    for (std::int64_t kh = 0; kh < g.KH; ++kh)
      for (std::int64_t kw = 0; kw < g.KW; ++kw, ++k) {
        const std::int8_t* xc = x + c * g.H * g.W;
        std::int8_t* o = out + k * nc;
        const std::int64_t base = -g.pw + kw * g.dw;
        const std::int64_t fi = first_in[static_cast<std::size_t>(kw)], ei = end_in[static_cast<std::size_t>(kw)];
        std::int64_t oh = oh0, ow = ow0;
        for (std::int64_t j = 0; j < nc;) {
          const std::int64_t ih = oh * g.sh - g.ph + kh * g.dh;
          const std::int64_t run = std::min(nc - j, g.OW - ow);  // rest of this output row
          if (ih < 0 || ih >= g.H) {
            std::fill(o + j, o + j + run, pad);
          } else {
            const std::int8_t* row = xc + ih * g.W;
            const std::int64_t t_lo = std::clamp<std::int64_t>(fi - ow, 0, run);
            const std::int64_t t_hi = std::clamp<std::int64_t>(ei - ow, t_lo, run);
            std::fill(o + j, o + j + t_lo, pad);
            const std::int8_t* src = row + (ow + t_lo) * sw + base;
            if (sw == 1) {
              std::copy(src, src + (t_hi - t_lo), o + j + t_lo);
            } else if (sw == 2 && avx2) {
              gather_stride2_avx2(src, t_hi - t_lo, o + j + t_lo);
            } else {
              for (std::int64_t t = t_lo; t < t_hi; ++t, src += sw) o[j + t] = *src;
            }
            std::fill(o + j + t_hi, o + j + run, pad);
          }
          j += run;
          ow = 0;
          ++oh;
        }
      }
}

struct ConvWeights {
  Shape shape;                       // [M, C/g, k...]
  std::vector<PackedA> groups;       // packed per group (int16 pairs: AVX2, portable)
  std::vector<PackedA4> groups4;     // packed per group for VNNI (when the CPU has it)
  std::vector<std::int32_t> wsum;    // per output channel
  std::vector<std::int16_t> dw;      // depthwise taps, [C][KH*KW] (2-D depthwise only)
  std::int64_t k = 0;                // C/g * prod(kernel)
};

ConvWeights prepare_weights(const Tensor& W, std::int64_t group) {
  ConvWeights cw;
  cw.shape = W.shape();
  const std::int64_t M = W.dim(0);
  cw.k = M ? W.numel() / M : 0;
  const std::int8_t* w = W.data<std::int8_t>();
  cw.wsum.assign(static_cast<std::size_t>(M), 0);
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t i = 0; i < cw.k; ++i) cw.wsum[static_cast<std::size_t>(m)] += w[m * cw.k + i];
  if (group <= 0 || M % group) fail("output channels are not divisible by group");
  const std::int64_t mg = M / group;
  for (std::int64_t g = 0; g < group; ++g) cw.groups.push_back(pack_a(w + g * mg * cw.k, mg, cw.k, cw.k, 1));
  if (use_vnni())
    for (std::int64_t g = 0; g < group; ++g) cw.groups4.push_back(pack_a4(w + g * mg * cw.k, mg, cw.k, cw.k, 1));
  if (group == M && W.dim(1) == 1) cw.dw.assign(w, w + W.numel());  // depthwise taps as int16
  return cw;
}

// Runs the im2col + GEMM path for image n: tile_epi(c0, mr, p0, nr, tile, u8) per micro-tile
// (rows = output channels c0.., columns = pixels p0.., row stride kNR). With u8 (the VNNI
// GEMM, igemm_u8.h) the tile holds sum_k (x + 128) * w: the epilogue subtracts 128 * wsum.
template <typename TileEpi>
void conv_gemm_tiles(const Geo2& g, const ConvWeights& cw, const std::int8_t* xn, std::int8_t pad, TileEpi&& tile_epi) {
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group, P = g.OH * g.OW;
  const bool direct = g.KH == 1 && g.KW == 1 && g.sh == 1 && g.sw == 1 && g.ph == 0 && g.pw == 0 &&
                      g.OH == g.H && g.OW == g.W;
  if (!cw.groups4.empty() && use_vnni()) {
    for (std::int64_t grp = 0; grp < g.group; ++grp) {
      const PackedA4& a = cw.groups4[static_cast<std::size_t>(grp)];
      const std::int8_t* xg = xn + grp * cg * g.H * g.W;
      PackB4 pack = [&](std::int64_t j0, std::int64_t nc, std::uint8_t* out) {
        if (direct) {
          pack_b4_strided(xg, a.k, a.kq, P, 1, j0, nc, out);
          return;
        }
        thread_local std::vector<std::int8_t> col;
        scratch(col, static_cast<std::size_t>(a.k * nc));
        im2col_slab(g, xg, cg, j0, nc, pad, col.data());
        pack_b4_strided(col.data(), a.k, a.kq, nc, 1, 0, nc, out);
      };
      TileFn tile = [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* t) {
        tile_epi(grp * mg + m0, mr, j0, nr, t, true);
      };
      igemm4(a, P, pack, tile);
    }
    return;
  }
  for (std::int64_t grp = 0; grp < g.group; ++grp) {
    const PackedA& a = cw.groups[static_cast<std::size_t>(grp)];
    const std::int8_t* xg = xn + grp * cg * g.H * g.W;
    PackB pack = [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) {
      if (direct) {
        pack_b_strided(xg, a.k, a.kp, P, 1, j0, nc, out);
        return;
      }
      thread_local std::vector<std::int8_t> col;
      scratch(col, static_cast<std::size_t>(a.k * nc));
      im2col_slab(g, xg, cg, j0, nc, pad, col.data());
      pack_b_rows(col.data(), a.k, a.kp, nc, nc, out);
    };
    TileFn tile = [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* t) {
      tile_epi(grp * mg + m0, mr, j0, nr, t, false);
    };
    igemm(a, P, pack, tile);
  }
}

// Same, epi(c, p, acc) per output element with acc = sum_k x * w.
template <typename Epi>
void conv_gemm(const Geo2& g, const ConvWeights& cw, const std::int8_t* xn, std::int8_t pad, Epi&& epi) {
  conv_gemm_tiles(g, cw, xn, pad, [&](std::int64_t c0, int mr, std::int64_t j0, int nr, const std::int32_t* t, bool u8) {
    for (int r = 0; r < mr; ++r) {
      const std::int32_t off = u8 ? 128 * cw.wsum[static_cast<std::size_t>(c0 + r)] : 0;
      for (int j = 0; j < nr; ++j) epi(c0 + r, j0 + j, t[r * kNR + j] - off);
    }
  });
}

bool is_depthwise(const Geo2& g, std::int64_t rank) {
  return rank == 4 && g.group == g.c && g.m == g.c && g.group > 1;
}

// Depthwise 2-D (group = C = M), direct: per (image, channel) the input is copied
// once into a zero-padded int16 plane of x - zp[n] whose columns are grouped by
// phase (column q at [q % sw][q / sw]), so for every tap the outputs of a row
// read consecutive values whatever the stride; then every output row gets
// acc[oh][ow] = sum_{kh,kw} w[c, kh, kw] * plane[oh*sh + kh*dh][ow*sw + kw*dw] (no bias),
// and chan_out(n, c, acc) receives the channel's OH*OW sums at once (one
// requantisation call per channel, not per row).
template <typename ChanOut>
void depthwise_channels(const Geo2& g, const std::int8_t* x, const std::int32_t* zp, const std::int16_t* taps_all,
                        ChanOut&& chan_out) {
  const std::int64_t Hp = (g.OH - 1) * g.sh + (g.KH - 1) * g.dh + 1;
  const std::int64_t Wp = (g.OW - 1) * g.sw + (g.KW - 1) * g.dw + 1;
  const std::int64_t sw = g.sw, Wq = (Wp + sw - 1) / sw + 16, RS = sw * Wq;  // + 16: dw_taps_avx2 reads ahead
  const std::int64_t T = g.KH * g.KW;
  const bool fast = dw_accumulate_kernel() != nullptr && T <= 64;  // AVX2 allowed
  const std::int64_t ih_end = std::min(g.H, Hp - g.ph), iw_end = std::min(g.W, Wp - g.pw);
  // Offset of tap (kh, kw) from its output row's start in the plane (no divisions per row).
  std::vector<std::int64_t> tap_off(static_cast<std::size_t>(T));
  for (std::int64_t kh = 0; kh < g.KH; ++kh)
    for (std::int64_t kw = 0; kw < g.KW; ++kw) {
      const std::int64_t off = kw * g.dw;
      tap_off[static_cast<std::size_t>(kh * g.KW + kw)] = kh * g.dh * RS + (off % sw) * Wq + off / sw;
    }
  parallel_for(g.n * g.c, [&](std::int64_t nc) {
    const std::int64_t n = nc / g.c, c = nc % g.c;
    const std::int8_t* xc = x + nc * g.H * g.W;
    const std::int32_t z = zp[n];
    thread_local std::vector<std::int16_t> plane;
    thread_local std::vector<std::int32_t> acc;
    plane.assign(static_cast<std::size_t>(Hp * RS), 0);
    scratch(acc, static_cast<std::size_t>(g.OH * g.OW + 16));  // + 16: dw_taps_avx2 stores whole blocks
    for (std::int64_t ih = 0; ih < ih_end; ++ih) {
      const std::int8_t* src = xc + ih * g.W;
      std::int16_t* dst = plane.data() + (ih + g.ph) * RS;
      if (fast) {
        widen_row_avx2(src, iw_end, z, g.pw, sw, Wq, dst);
      } else {
        // Padded column q = iw + pw goes to phase q % sw, slot q / sw (stepped, no divisions).
        std::int64_t phase = g.pw % sw, slot = g.pw / sw;
        for (std::int64_t iw = 0; iw < iw_end; ++iw) {
          dst[phase * Wq + slot] = static_cast<std::int16_t>(src[iw] - z);
          if (++phase == sw) {
            phase = 0;
            ++slot;
          }
        }
      }
    }
    const std::int16_t* taps = taps_all + c * T;
    const std::int16_t* rows[64];
    for (std::int64_t oh = 0; oh < g.OH; ++oh) {
      std::int32_t* a = acc.data() + oh * g.OW;
      const std::int16_t* row0 = plane.data() + oh * g.sh * RS;
      if (fast) {
        for (std::int64_t t = 0; t < T; ++t) rows[t] = row0 + tap_off[static_cast<std::size_t>(t)];
        dw_taps_avx2(rows, taps, static_cast<int>(T), g.OW, 0, a);
      } else {
        std::fill(a, a + g.OW, 0);
        for (std::int64_t t = 0; t < T; ++t) {
          const std::int16_t* row = row0 + tap_off[static_cast<std::size_t>(t)];
          const std::int32_t wv = taps[t];
          for (std::int64_t ow = 0; ow < g.OW; ++ow) a[ow] += wv * row[ow];
        }
      }
    }
    chan_out(n, c, static_cast<const std::int32_t*>(acc.data()));
  });
}

// The i32 bias of an int8 Conv with M output channels (zeros without one).

class ConvInt8 final : public PreparedOp {
 public:
  /// `weights`: the OIHW int8 weights when not the op's constant (an NHWC op's, reordered).
  ConvInt8(const ir::Operation& op, const ir::Graph& graph, const Tensor* weights = nullptr) : op_(op) {
    require_nchw(op);
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& w = ir_tensor(graph, op.inputs[1]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = activation_quant_of(x), qy = activation_quant_of(y);
    const QParams qw = quant_of(w, {ir::DType::Int8});
    W_ = weights ? *weights : constant_of(graph, op, op.inputs[1], ir::DType::Int8, "weight");
    if (W_.rank() < 3 || W_.rank() > 4)
      throw UnsupportedOpError(op.op_type + " with " + std::to_string(W_.rank() - 2) + " spatial dims",
                               "the CPU runtime's int8 kernels", "1-D and 2-D convolutions only");
    const std::int64_t M = W_.dim(0);
    check_weight_params(w, qw, 0, M);
    zx_ = qx.zero_point();
    zy_ = qy.zero_point();
    output_activation_range(op, qy, act_min_, act_max_);
    group_ = op.attr_int("group", 1);
    cw_ = prepare_weights(W_, group_);
    bias_ = weighted_op_bias(op, graph, M);
    for (std::int64_t c = 0; c < M; ++c) {
      mult_.push_back(quantize_multiplier(double(qx.scale()) * double(qw.scale(c)) / double(qy.scale())));
      // Wrapping (uint32) sums: the int32 total is exact whatever order the terms come in.
      const auto wsum = static_cast<std::uint32_t>(cw_.wsum[static_cast<std::size_t>(c)]);
      const auto b = static_cast<std::uint32_t>(bias_[static_cast<std::size_t>(c)]);
      bias_adj_.push_back(static_cast<std::int32_t>(b - static_cast<std::uint32_t>(zx_) * wsum));
      bias_adj4_.push_back(static_cast<std::int32_t>(b - static_cast<std::uint32_t>(zx_ + 128) * wsum));
      rq4_.push_back(requant_channel(bias_adj4_.back(), mult_.back().multiplier, mult_.back().shift));
      fold_bias(rq4_.back(), cw_.k * 255 * 128);  // |sum (x + 128) w| <= K * 255 * 128
      rq_.push_back(requant_channel(bias_adj_.back(), mult_.back().multiplier, mult_.back().shift));
      rq_dw_.push_back(requant_channel(bias_[static_cast<std::size_t>(c)], mult_.back().multiplier, mult_.back().shift));
      fold_bias(rq_dw_.back(), cw_.k * 255 * 128);  // |sum (x - zx) w| <= taps * 255 * 128
    }
    if (use_vnni() && group_ == 1 && W_.numel() == M * W_.dim(1))  // 1x1: the GEMV form for 1x1 planes
      rows_ = RowsGemm(W_.data<std::int8_t>(), M, W_.dim(1), W_.dim(1), 1, bias_adj4_, mult_);
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 Conv input is " + X.type_string());
    const auto geo = kernels::conv_geometry(op_, X.shape(), W_.shape(), false);
    const Geo2 g = geo2(geo);
    Shape out_shape{g.n, g.m};
    out_shape.insert(out_shape.end(), geo.out.begin(), geo.out.end());
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out_shape);
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    const std::int64_t P = g.OH * g.OW;
    if (is_depthwise(g, X.rank())) {
      depthwise(g, x, y);
      return {Y};
    }
    if (P == 1 && g.H * g.W == 1 && !rows_.w.data.empty() && use_vnni()) {
      // A 1x1 Conv on 1x1 planes (squeeze-excite) is a FullyConnected over the images:
      // x [N, C] -> y [N, M], one activation row per image (igemm_rows4's batch-1 form).
      rows_.run(x, g.n, g.c, zy_, act_min_, act_max_, y);
      return {Y};
    }
    const RequantRowFn requant_row = requant_row_kernel();
    const RequantTileFn requant_tile = requant_tile_kernel();
    for (std::int64_t n = 0; n < g.n; ++n) {
      std::int8_t* yn = y + n * g.m * P;
      // Each tile row is one channel: requantised 16 pixels at a time.
      conv_gemm_tiles(g, cw_, x + n * g.c * g.H * g.W, static_cast<std::int8_t>(zx_),
                      [&](std::int64_t c0, int mr, std::int64_t j0, int nr, const std::int32_t* t, bool u8) {
                        if (u8) {  // VNNI tiles: one call per tile, constants per channel precomputed
                          requant_tile_avx512(t, mr, nr, rq4_.data() + c0, zy_, act_min_, act_max_, yn + c0 * P + j0, P);
                          return;
                        }
                        if (requant_tile) {
                          requant_tile(t, mr, nr, rq_.data() + c0, zy_, act_min_, act_max_, yn + c0 * P + j0, P);
                          return;
                        }
                        const std::vector<std::int32_t>& bias = bias_adj_;
                        for (int r = 0; r < mr; ++r) {
                          const auto c = static_cast<std::size_t>(c0 + r);
                          requant_row(t + r * kNR, nr, bias[c], mult_[c].multiplier, mult_[c].shift, zy_, act_min_,
                                      act_max_, yn + (c0 + r) * P + j0);
                        }
                      });
    }
    return {Y};
  }

 private:
  // y[c, oh, ow] = requant(bias[c] + sum_{kh,kw} w[c, kh, kw] * (x - zx)[oh*sh - ph + kh*dh, ow*sw - pw + kw*dw])
  void depthwise(const Geo2& g, const std::int8_t* x, std::int8_t* y) const {
    if (use_vnni() && (g.sw == 1 || g.sw == 2) && g.dw == 1 && g.KW <= 16 && g.KH * ((g.KW + 1) / 2) <= 64) {
      depthwise_vnni(g, x, y);
      return;
    }
    const RequantRowFn requant_row = requant_row_kernel();
    const std::vector<std::int32_t> zp(static_cast<std::size_t>(g.n), zx_);
    depthwise_channels(g, x, zp.data(), cw_.dw.data(), [&](std::int64_t n, std::int64_t c, const std::int32_t* a) {
      const auto cc = static_cast<std::size_t>(c);
      requant_row(a, g.OH * g.OW, bias_[cc], mult_[cc].multiplier, mult_[cc].shift, zy_, act_min_, act_max_,
                  y + (n * g.c + c) * g.OH * g.OW);
    });
  }

  // Per channel: x - zx into a zero-padded int16 plane (only the borders cleared), then
  // dw_channel_vnni (igemm_u8.h): taps in pairs by vpdpwssd, requantised in registers.
  void depthwise_vnni(const Geo2& g, const std::int8_t* x, std::int8_t* y) const {
    const std::int64_t Hp = (g.OH - 1) * g.sh + (g.KH - 1) * g.dh + 1, Wp = (g.OW - 1) * g.sw + g.KW;
    const DwChannel d{g.OH, g.OW, g.KH, g.KW, g.sh, g.sw, g.dh, Wp, zy_, act_min_, act_max_};
    const std::int64_t T = g.KH * g.KW, w_in = std::max<std::int64_t>(0, std::min(g.W, Wp - g.pw));
    const std::int8_t* w = W_.data<std::int8_t>();
    parallel_for(g.n * g.c, [&](std::int64_t nc) {
      const std::int64_t c = nc % g.c;
      const std::int8_t* xc = x + nc * g.H * g.W;
      thread_local std::vector<std::int16_t> plane;
      scratch(plane, static_cast<std::size_t>(Hp * d.RS + 64 + 2 * g.KW));  // + the reads past the last row
      std::int16_t* pl = plane.data();
      for (std::int64_t i = 0; i < Hp; ++i) {
        std::int16_t* row = pl + i * d.RS;
        const std::int64_t ih = i - g.ph;
        if (ih < 0 || ih >= g.H) {
          std::fill(row, row + d.RS, std::int16_t(0));
          continue;
        }
        std::fill(row, row + g.pw, std::int16_t(0));
        widen_sub_avx512(xc + ih * g.W, w_in, zx_, row + g.pw);
        std::fill(row + g.pw + w_in, row + d.RS, std::int16_t(0));
      }
      dw_channel_vnni(d, pl, w + c * T, rq_dw_[static_cast<std::size_t>(c)], y + nc * g.OH * g.OW);
    });
  }

  ir::Operation op_;
  Tensor W_;
  ConvWeights cw_;
  std::vector<RequantChannel> rq_dw_;  // depthwise_vnni: the bias alone (the plane holds x - zx)
  RowsGemm rows_;                      // 1x1 weights for 1x1 planes (VNNI machines)
  std::int64_t group_ = 1;
  std::int32_t zx_ = 0, zy_ = 0, act_min_ = -128, act_max_ = 127;
  std::vector<std::int32_t> bias_, bias_adj_, bias_adj4_;  // bias_adj4_: the VNNI GEMM's (x + 128)
  std::vector<QuantizedMultiplier> mult_;
  std::vector<RequantChannel> rq4_, rq_;  // tile requantisation per output channel: VNNI, int16 GEMM
};

// asymmetric_quantize_floats of one image, split over the thread pool: min/max per
// chunk (order-free), then the chunks quantised; the same result on any thread count.
void quantize_image(const float* x, std::int64_t n, std::int8_t* q, float& scale, std::int32_t& zp) {
  constexpr std::int64_t kChunk = 16384;
  const std::int64_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<float> lo(static_cast<std::size_t>(chunks), 0.f), hi(static_cast<std::size_t>(chunks), 0.f);
  const bool avx2 = use_avx2();
  parallel_for(chunks, [&](std::int64_t c) {
    float l = 0.f, h = 0.f;
    const std::int64_t b = c * kChunk, e = std::min(n, b + kChunk);
    if (avx2) minmax_avx2(x + b, e - b, l, h);
    else
      for (std::int64_t i = b; i < e; ++i) l = std::min(l, x[i]), h = std::max(h, x[i]);
    lo[static_cast<std::size_t>(c)] = l;
    hi[static_cast<std::size_t>(c)] = h;
  });
  const float l = chunks ? *std::min_element(lo.begin(), lo.end()) : 0.f;
  const float h = chunks ? *std::max_element(hi.begin(), hi.end()) : 0.f;
  asymmetric_params(l, h, scale, zp);
  if (l == h) {
    std::fill(q, q + n, std::int8_t(0));
    return;
  }
  parallel_for(chunks, [&](std::int64_t c) {
    const std::int64_t b = c * kChunk;
    if (avx2) asymmetric_quantize_avx2(x + b, std::min(kChunk, n - b), scale, zp, q + b);
    else asymmetric_quantize_with(x + b, std::min(kChunk, n - b), scale, zp, q + b);
  });
}

class ConvHybrid final : public PreparedOp {
 public:
  ConvHybrid(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    require_nchw(op);
    const ir::Tensor& w = ir_tensor(graph, op.inputs[1]);
    const QParams qw = quant_of(w, {ir::DType::Int8});
    W_ = constant_of(graph, op, op.inputs[1], ir::DType::Int8, "weight");
    if (W_.rank() < 3 || W_.rank() > 4)
      throw UnsupportedOpError(op.op_type + " with " + std::to_string(W_.rank() - 2) + " spatial dims",
                               "the CPU runtime's int8 kernels", "1-D and 2-D convolutions only");
    const std::int64_t M = W_.dim(0);
    check_weight_params(w, qw, 0, M);
    for (std::int64_t c = 0; c < M; ++c) wscale_.push_back(qw.scale(c));
    cw_ = prepare_weights(W_, op.attr_int("group", 1));
    bias_.assign(static_cast<std::size_t>(M), 0.f);
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const Tensor B = constant_of(graph, op, op.inputs[2], ir::DType::Float32, "bias");
      if (B.numel() != M) fail("bias has " + std::to_string(B.numel()) + " values for " + std::to_string(M) + " channels");
      std::copy(B.data<float>(), B.data<float>() + M, bias_.begin());
    }
    const ir::ActivationInfo& act = ir::activation_info(ir::fused_activation(op));
    if (!act.clamp)
      throw UnsupportedOpError(op.op_type + " with fused_activation " + std::string(act.name),
                               "the CPU runtime's hybrid kernels", "apply it as a separate op");
    lo_ = act.lo;  // infinite where the clamp is open
    hi_ = act.hi;
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Float32) fail("hybrid Conv input is " + X.type_string());
    const auto geo = kernels::conv_geometry(op_, X.shape(), W_.shape(), false);
    const Geo2 g = geo2(geo);
    Shape out_shape{g.n, g.m};
    out_shape.insert(out_shape.end(), geo.out.begin(), geo.out.end());
    Tensor Y = Tensor::uninitialized(ir::DType::Float32, out_shape);
    const std::int64_t P = g.OH * g.OW, img = g.c * g.H * g.W;
    float* y = Y.mutable_data<float>();
    if (is_depthwise(g, X.rank())) {  // all images quantised first, then the direct loop
      std::vector<std::int8_t> q(static_cast<std::size_t>(g.n * img));
      std::vector<float> s(static_cast<std::size_t>(g.n));
      std::vector<std::int32_t> z(static_cast<std::size_t>(g.n));
      for (std::int64_t n = 0; n < g.n; ++n)
        quantize_image(X.data<float>() + n * img, img, q.data() + n * img, s[static_cast<std::size_t>(n)],
                                   z[static_cast<std::size_t>(n)]);
      depthwise_channels(g, q.data(), z.data(), cw_.dw.data(), [&](std::int64_t n, std::int64_t c, const std::int32_t* a) {
        const auto cc = static_cast<std::size_t>(c);
        const float scale = s[static_cast<std::size_t>(n)] * wscale_[cc];
        float* yc = y + (n * g.c + c) * g.OH * g.OW;
        for (std::int64_t i = 0; i < g.OH * g.OW; ++i) yc[i] = std::clamp(float(a[i]) * scale + bias_[cc], lo_, hi_);
      });
      return {Y};
    }
    std::vector<std::int8_t> q(static_cast<std::size_t>(img));
    for (std::int64_t n = 0; n < g.n; ++n) {
      float s = 1.f;
      std::int32_t z = 0;
      quantize_image(X.data<float>() + n * img, img, q.data(), s, z);
      float* yn = y + n * g.m * P;
      conv_gemm(g, cw_, q.data(), static_cast<std::int8_t>(z), [&](std::int64_t c, std::int64_t p, std::int32_t acc) {
        const auto cc = static_cast<std::size_t>(c);
        const float v = float(acc - z * cw_.wsum[cc]) * (s * wscale_[cc]) + bias_[cc];
        yn[c * P + p] = std::clamp(v, lo_, hi_);
      });
    }
    return {Y};
  }

 private:
  ir::Operation op_;
  Tensor W_;
  ConvWeights cw_;
  std::vector<float> wscale_, bias_;
  float lo_ = -std::numeric_limits<float>::infinity(), hi_ = std::numeric_limits<float>::infinity();
};

// Whether some |v[i]| >= limit, i < n (no early exit: the loop vectorises).
bool any_magnitude_from(const std::int32_t* v, std::int64_t n, std::int64_t limit) {
  const auto lim = static_cast<std::int32_t>(limit);
  bool any = false;
  for (std::int64_t i = 0; i < n; ++i) any |= (v[i] >= lim) | (v[i] <= -lim);
  return any;
}

// int8 Conv, channels-last (x [N, H, W, C], w [M, kH, kW, C/group] OHWI), the same
// integers as TFLite's ConvPerChannel: oneDNN's VNNI convolution gives the exact sums
// sum (x - zx) w (kernels::conv_onednn_s8) band by band, and while each band is in
// cache our requantisation (requant_nhwc_avx512) adds the bias and writes int8.
// oneDNN stores its sums through f32, exact up to 2^24 (kOneDnnExactInt8Sum): when a
// channel's sum could be larger (sum |w| * max |x - zx|: deep layers, large kernels),
// the input channels are cut into parts whose sums cannot be, each part a convolution
// of its own on a copy of its channels, the parts' int32 sums added by us; such a Conv
// first runs whole with its sums checked, and only when one reaches 2^24 (its output
// then far beyond int8) do the parts redo it (rounding to f32 is monotone: a stored
// |sum| below 2^24 is exact). Depthwise Convs and pointwise ones with few input
// channels run on our own VNNI kernels instead (dw_nhwc_vnni, pw_nhwc_vnni). A grouped
// Conv that needs parts, a machine without VNNI, or a Conv oneDNN cannot take runs on
// the NCHW kernel between two Transposes instead (ConvInt8, the same integers).
class ConvInt8Nhwc final : public PreparedOp {
 public:
  ConvInt8Nhwc(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const QParams qx = activation_quant_of(ir_tensor(graph, op.inputs[0]));
    const QParams qy = activation_quant_of(ir_tensor(graph, op.outputs[0]));
    const QParams qw = quant_of(ir_tensor(graph, op.inputs[1]), {ir::DType::Int8});
    W_ = constant_of(graph, op, op.inputs[1], ir::DType::Int8, "weight");
    const std::int64_t M = W_.dim(0);
    check_channels(ir_tensor(graph, op.inputs[1]), qw, 0, M);
    zx_ = qx.zero_point();
    zy_ = qy.zero_point();
    output_activation_range(op, qy, lo_, hi_);
    bias_ = weighted_op_bias(op, graph, M);
    for (std::int64_t m = 0; m < M; ++m)
      mult_.push_back(
          quantize_multiplier(double(qx.scale()) * double(qw.scale(m)) / double(qy.scale())));
    split_channels(op.attr_int("group", 1), std::max(127 - zx_, zx_ + 128));
    panels_ok_ = requant_panels(bias_.data(), mult_.data(), M, panels_, max_sum_);
    // The geometry of the graph's static input shape, made once (per call it cost a dozen
    // attribute look-ups and allocations, 2 % of int8 mobilenet_v3_large).
    if (const ir::Tensor& x = ir_tensor(graph, op.inputs[0]); x.shape.is_static() && x.shape.rank() == 4) {
      try {
        geo_ = kernels::conv_geometry_nhwc(op_, x.shape.sizes(), W_.shape());
        geo_x_ = x.shape.sizes();
      } catch (const EdgeCompilerError&) {
        // reported by the run, as for any other shape
      }
    }
#if defined(__x86_64__)
    // Depthwise (one input channel per output channel): our VNNI kernel, its sums exact,
    // its biases taking off what x + 128 adds.
    if (op.attr_int("group", 1) == M && W_.dim(3) == 1 && W_.rank() == 4 && use_vnni() &&
        dw_nhwc_fits(W_.dim(1), W_.dim(2))) {
      const std::int64_t taps = W_.dim(1) * W_.dim(2);
      std::vector<std::int32_t> b;
      if (dw_nhwc_biases(W_.data<std::int8_t>(), bias_.data(), M, taps, zx_, b) &&
          requant_panels(b.data(), mult_.data(), M, dw_panels_, taps * 255 * 128) &&
          std::all_of(dw_panels_.begin(), dw_panels_.end(),
                      [](const RequantPanel& p) { return p.fold; }))
        dw_w_ = pack_dw_nhwc(W_.data<std::int8_t>(), M, W_.dim(1), W_.dim(2));
    }
#endif
    // Pointwise (1x1, stride 1, unpadded, one group) with few input channels: our VNNI
    // kernel, its sums requantised in registers (oneDNN's int32 output and our pass over it
    // cost more there than the products).
    if (W_.rank() == 4 && W_.dim(1) == 1 && W_.dim(2) == 1 && op.attr_int("group", 1) == 1 &&
        use_vnni() && W_.dim(3) <= kPwMaxInputChannels) {
      const std::int64_t K = W_.dim(3);
      std::vector<std::int32_t> b4(static_cast<std::size_t>(M));
      const std::int8_t* w = W_.data<std::int8_t>();
      for (std::int64_t m = 0; m < M; ++m) {
        std::int64_t sum = 0;
        for (std::int64_t k = 0; k < K; ++k) sum += w[m * K + k];
        b4[static_cast<std::size_t>(m)] = static_cast<std::int32_t>(
            static_cast<std::uint32_t>(bias_[static_cast<std::size_t>(m)]) -
            static_cast<std::uint32_t>(zx_ + 128) * static_cast<std::uint32_t>(sum));
      }
      pw_w_ = pack_w4(w, M, K, K, 1);
      if (!requant_panels(b4.data(), mult_.data(), M, pw_panels_, K * 255 * 128))
        pw_w_ = PackedW4{};
    }
    // The fallback's inputs: the op's tensors (constants shared, not copied). It packs the
    // weights again, so it is made at load only when it will run (no exact oneDNN form
    // here), else on first use.
    for (const auto* names : {&op.inputs, &op.outputs})
      for (const auto& n : *names)
        if (!n.empty()) fallback_graph_.add_tensor(ir_tensor(graph, n));
    if (!kernels::onednn_int8_conv_available() || (!exact_ && parts_.empty())) nchw();
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 Conv input is " + X.type_string());
    kernels::ConvGeometry made;
    const kernels::ConvGeometry& g = geometry(X.shape(), made);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, {g.n, g.out[0], g.out[1], g.m});
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    if (Y.numel() == 0) return {Y};
#if defined(__x86_64__)
    if (dw_takes(g)) {
      dw_nhwc_vnni(dw_geometry(g), X.data<std::int8_t>(), dw_w_.data(), dw_panels_.data(), y);
      return {Y};
    }
    if (pw_takes(g)) {
      pw_nhwc_vnni(pw_w_, pw_panels_.data(), X.data<std::int8_t>(), g.n * g.in[0] * g.in[1], zy_,
                   lo_, hi_, y, table());
      return {Y};
    }
#endif
    if (parts_.empty() && exact_ &&
        kernels::conv_onednn_s8(g, X.data<std::int8_t>(), zx_, W_.data<std::int8_t>(),
                                [&](const std::int32_t* acc, std::int64_t first, std::int64_t count) {
                                  requantise(acc, count, g.m, y + first * g.m);
                                }))
      return {Y};
    if (!parts_.empty()) {
      // Sums that may pass 2^24 rarely do (the output then saturates far beyond int8):
      // one convolution, its sums checked. Rounding to f32 is monotone, so a stored
      // |sum| < 2^24 is exact; any larger one and the parts redo it all exactly.
      std::atomic<bool> beyond{false};
      if (kernels::conv_onednn_s8(
              g, X.data<std::int8_t>(), zx_, W_.data<std::int8_t>(),
              [&](const std::int32_t* acc, std::int64_t first, std::int64_t count) {
                if (beyond.load(std::memory_order_relaxed)) return;
                if (any_magnitude_from(acc, count * g.m, kernels::kOneDnnExactInt8Sum)) {
                  beyond.store(true, std::memory_order_relaxed);
                  return;
                }
                requantise(acc, count, g.m, y + first * g.m);
              }) &&
          !beyond.load())
        return {Y};
      if (run_parts(g, X, y)) return {Y};
    }
    // NHWC -> NCHW, the NCHW kernel, back.
    const std::int64_t N = g.n, H = g.in[0], W = g.in[1], C = g.c, OH = g.out[0], OW = g.out[1], M = g.m;
    Tensor Xt = Tensor::uninitialized(ir::DType::Int8, {N, C, H, W});
    transpose_planes(X.data<std::int8_t>(), N, H * W, C, Xt.mutable_data<std::int8_t>());
    const Tensor Yt = nchw().run(std::array<Tensor, 1>{Xt})[0];
    transpose_planes(Yt.data<std::int8_t>(), N, M, OH * OW, y);
    if (has_table_) lut_apply(table_.data(), y, Y.numel(), y);
    return {Y};
  }

  bool take_output_table(const std::int8_t* table) override {
    std::copy(table, table + table_.size(), table_.begin());
    has_table_ = true;
    return true;
  }

  // A depthwise Conv on our kernel right after a 1x1 Conv on ours: the pair runs as one
  // (dw_nhwc_vnni_after), the 1x1 Conv's output computed row by row as it is read.
  bool runs_after(const PreparedOp& pre) const override {
    const auto* p = dynamic_cast<const ConvInt8Nhwc*>(&pre);
    return p && !dw_w_.empty() && !p->pw_w_.data.empty() && p->pw_w_.n == W_.dim(0);
  }
  std::vector<Tensor> run_after(const PreparedOp& pre, std::span<const Tensor> pre_inputs,
                                std::span<const Tensor> inputs) const override {
#if defined(__x86_64__)
    const auto& p = static_cast<const ConvInt8Nhwc&>(pre);
    const Tensor& X = pre_inputs[0];
    if (X.dtype() == ir::DType::Int8 && X.rank() == 4) {
      kernels::ConvGeometry made1, made;
      const kernels::ConvGeometry& g1 = p.geometry(X.shape(), made1);
      if (p.pw_takes(g1)) {
        const kernels::ConvGeometry& g = geometry({g1.n, g1.out[0], g1.out[1], g1.m}, made);
        if (dw_takes(g)) {
          Tensor Y = Tensor::uninitialized(ir::DType::Int8, {g.n, g.out[0], g.out[1], g.m});
          if (Y.numel() == 0) return {Y};
          dw_nhwc_vnni_after(PwStage{&p.pw_w_, p.pw_panels_.data(), X.data<std::int8_t>(), p.zy_, p.lo_, p.hi_,
                                     p.table()},
                             dw_geometry(g), dw_w_.data(), dw_panels_.data(), Y.mutable_data<std::int8_t>());
          return {Y};
        }
      }
    }
#endif
    return PreparedOp::run_after(pre, pre_inputs, inputs);
  }

 private:
  // The geometry for input shape x: the one made at load, or one made now in `made`.
  const kernels::ConvGeometry& geometry(const Shape& x, kernels::ConvGeometry& made) const {
    if (x == geo_x_) return geo_;
    made = kernels::conv_geometry_nhwc(op_, x, W_.shape());
    return made;
  }
  // Whether our depthwise / pointwise kernel takes geometry g (prepared for it at load).
  bool dw_takes(const kernels::ConvGeometry& g) const {
    return !dw_w_.empty() && g.in.size() == 2 && g.dilations[0] == 1 && g.dilations[1] == 1;
  }
  bool pw_takes(const kernels::ConvGeometry& g) const {
    return !pw_w_.data.empty() && g.in.size() == 2 && g.strides[0] == 1 && g.strides[1] == 1 &&
           g.pad_begin[0] == 0 && g.pad_begin[1] == 0 && g.out[0] == g.in[0] && g.out[1] == g.in[1];
  }
  DwNhwc dw_geometry(const kernels::ConvGeometry& g) const {
    return {g.n,          g.in[0],      g.in[1],        g.c,           g.out[0], g.out[1], g.kernel[0], g.kernel[1],
            g.strides[0], g.strides[1], g.pad_begin[0], g.pad_begin[1], zx_,     zy_,      lo_,         hi_,
            table()};
  }
  // The table of the activation this Conv took (take_output_table), or null.
  const std::int8_t* table() const { return has_table_ ? table_.data() : nullptr; }

  // The NCHW kernel on OIHW weights, made once.
  const ConvInt8& nchw() const {
    std::call_once(nchw_once_, [&] {
      const std::int64_t M = W_.dim(0), KH = W_.dim(1), KW = W_.dim(2), CG = W_.dim(3);
      const std::int8_t* w = W_.data<std::int8_t>();
      Tensor oihw = Tensor::uninitialized(ir::DType::Int8, {M, CG, KH, KW});
      std::int8_t* o = oihw.mutable_data<std::int8_t>();
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t c = 0; c < CG; ++c)
          for (std::int64_t k = 0; k < KH * KW; ++k) o[(m * CG + c) * KH * KW + k] = w[(m * KH * KW + k) * CG + c];
      ir::Operation op = op_;
      op.attributes.erase("layout");
      nchw_ = std::make_unique<ConvInt8>(op, fallback_graph_, &oihw);
    });
    return *nchw_;
  }

  // Input channels [c0, c0 + c) and their weights [M, kH, kW, c], dense.
  struct Part {
    std::int64_t c0 = 0, c = 0;
    Tensor w;
  };

  // exact_ when every channel's |sum| <= 2^24; otherwise (group 1) parts_: consecutive
  // input channels, as many as keep every output channel's bound within 2^24.
  void split_channels(std::int64_t group, std::int64_t range) {
    const std::int64_t M = W_.dim(0), T = W_.dim(1) * W_.dim(2), CG = W_.dim(3);
    const std::int8_t* w = W_.data<std::int8_t>();
    // bound[m * CG + c]: sum over the taps of |w[m, tap, c]| * range.
    std::vector<std::int64_t> bound(static_cast<std::size_t>(M * CG), 0);
    for (std::int64_t m = 0; m < M; ++m)
      for (std::int64_t t = 0; t < T; ++t)
        for (std::int64_t c = 0; c < CG; ++c)
          bound[static_cast<std::size_t>(m * CG + c)] += std::abs(std::int32_t(w[(m * T + t) * CG + c])) * range;
    std::vector<std::int64_t> total(static_cast<std::size_t>(M), 0);
    exact_ = true;
    for (std::int64_t m = 0; m < M; ++m) {
      for (std::int64_t c = 0; c < CG; ++c) total[static_cast<std::size_t>(m)] += bound[static_cast<std::size_t>(m * CG + c)];
      exact_ &= total[static_cast<std::size_t>(m)] <= kernels::kOneDnnExactInt8Sum;
      max_sum_ = std::max(max_sum_, total[static_cast<std::size_t>(m)]);
    }
    if (exact_ || group != 1) return;
    std::vector<std::int64_t> run(static_cast<std::size_t>(M));
    for (std::int64_t c0 = 0; c0 < CG;) {
      std::fill(run.begin(), run.end(), 0);
      std::int64_t c = c0;
      for (bool fits = true; c < CG; ++c) {
        for (std::int64_t m = 0; fits && m < M; ++m)
          fits = run[static_cast<std::size_t>(m)] + bound[static_cast<std::size_t>(m * CG + c)] <=
                 kernels::kOneDnnExactInt8Sum;
        if (!fits) break;
        for (std::int64_t m = 0; m < M; ++m) run[static_cast<std::size_t>(m)] += bound[static_cast<std::size_t>(m * CG + c)];
      }
      if (c == c0) {  // one channel alone may pass 2^24: no parts, the NCHW kernel
        parts_.clear();
        return;
      }
      Part p{c0, c - c0, Tensor::uninitialized(ir::DType::Int8, {M, W_.dim(1), W_.dim(2), c - c0})};
      std::int8_t* pw = p.w.mutable_data<std::int8_t>();
      for (std::int64_t mt = 0; mt < M * T; ++mt) std::copy(w + mt * CG + c0, w + mt * CG + c, pw + mt * (c - c0));
      parts_.push_back(std::move(p));
      c0 = c;
    }
  }

  // The parts one after another, their sums added into one int32 buffer, requantised
  // at the end; false (nothing written) when oneDNN cannot take them.
  bool run_parts(const kernels::ConvGeometry& g, const Tensor& X, std::int8_t* y) const {
    std::int64_t pixels = g.n;
    for (auto o : g.out) pixels *= o;
    const std::int64_t in_pixels = g.n * g.in[0] * g.in[1];
    std::vector<std::int32_t> acc(static_cast<std::size_t>(pixels * g.m));
    std::vector<std::int8_t> xp;
    for (std::size_t i = 0; i < parts_.size(); ++i) {
      const Part& p = parts_[i];
      // The part's weights belong to this op, constant for the session: oneDNN may
      // keep them reordered in the session's cache like the model's own weights.
      if (gemm::PackCache* cache = gemm::current_pack_cache()) cache->add_constant_range(p.w.raw(), p.w.nbytes());
      xp.resize(static_cast<std::size_t>(in_pixels * p.c));
      const std::int8_t* x = X.data<std::int8_t>();
      parallel_for((in_pixels + 1023) / 1024, [&](std::int64_t b) {
        for (std::int64_t q = b * 1024; q < std::min(in_pixels, (b + 1) * 1024); ++q)
          std::memcpy(xp.data() + q * p.c, x + q * g.c + p.c0, static_cast<std::size_t>(p.c));
      });
      kernels::ConvGeometry gp = g;
      gp.c = p.c;
      const bool first = i == 0;
      if (!kernels::conv_onednn_s8(gp, xp.data(), zx_, p.w.data<std::int8_t>(),
                                   [&](const std::int32_t* a, std::int64_t at, std::int64_t count) {
                                     std::int32_t* dst = acc.data() + at * g.m;
                                     if (first) {
                                       std::copy(a, a + count * g.m, dst);
                                       return;
                                     }
                                     // Wrapping (uint32) adds: int32 sums in any order, as TFLite's.
                                     for (std::int64_t k = 0; k < count * g.m; ++k)
                                       dst[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(dst[k]) +
                                                                          static_cast<std::uint32_t>(a[k]));
                                   }))
        return false;
    }
    parallel_for((pixels + 255) / 256, [&](std::int64_t b) {
      const std::int64_t p0 = b * 256, count = std::min<std::int64_t>(256, pixels - p0);
      requantise(acc.data() + p0 * g.m, count, g.m, y + p0 * g.m);
    });
    return true;
  }

  // y = clamp(MBQM(acc + bias) + zy) for `count` pixels of M channels.
  // (then through the table, when the Conv took one)
  void requantise(const std::int32_t* acc, std::int64_t count, std::int64_t M, std::int8_t* out) const {
    if (panels_ok_ && requant_tile_kernel() == requant_tile_avx512) {
      requant_nhwc_avx512(acc, count, M, panels_.data(), zy_, lo_, hi_, out);
    } else {
      for (std::int64_t i = 0; i < count * M; ++i) {
        const auto c = static_cast<std::size_t>(i % M);
        const std::int32_t q = multiply_by_quantized_multiplier(acc[i] + bias_[c], mult_[c]) + zy_;
        out[i] = static_cast<std::int8_t>(std::clamp(q, lo_, hi_));
      }
    }
    if (has_table_) lut_apply(table_.data(), out, count * M, out);
  }

  // x [N, R, S] -> y [N, S, R] (int8), split over images and rows.
  static void transpose_planes(const std::int8_t* x, std::int64_t N, std::int64_t R, std::int64_t S, std::int8_t* y) {
    parallel_for(N * S, [&](std::int64_t ns) {
      const std::int64_t n = ns / S, s = ns % S;
      const std::int8_t* src = x + n * R * S + s;
      std::int8_t* dst = y + ns * R;
      for (std::int64_t r = 0; r < R; ++r) dst[r] = src[r * S];
    });
  }

  ir::Operation op_;
  Tensor W_;
  Shape geo_x_;                  // the graph's static input shape (empty: not static)
  kernels::ConvGeometry geo_;    // its geometry
  Lut table_{};                  // the activation after it (take_output_table)
  bool has_table_ = false;
  std::vector<Part> parts_;
  ir::Graph fallback_graph_;
  mutable std::once_flag nchw_once_;
  mutable std::unique_ptr<ConvInt8> nchw_;
  std::vector<std::int32_t> bias_;
  std::vector<QuantizedMultiplier> mult_;
  std::vector<RequantPanel> panels_;
  std::vector<std::int32_t> dw_w_;  // depthwise weights for dw_nhwc_vnni (pack_dw_nhwc), else empty
  std::vector<RequantPanel> dw_panels_;  // its requantisation (dw_nhwc_biases)
  PackedW4 pw_w_;  // pointwise with few input channels: pw_nhwc_vnni's weights, else empty
  std::vector<RequantPanel> pw_panels_;
  std::int64_t max_sum_ = 0;        // the largest bound of a channel's |sum| (split_channels)
  bool exact_ = false, panels_ok_ = false;
  std::int32_t zx_ = 0, zy_ = 0, lo_ = -128, hi_ = 127;
};

}  // namespace

bool int8_runs_channels_last(const ir::Operation& op, const ir::Graph& graph) {
  if (op.inputs.empty()) return false;
  const ir::Tensor* x = graph.find_tensor(op.inputs[0]);
  if (!x || x->dtype != ir::DType::Int8 || !x->quant) return false;
  switch (op.kind) {
    case ir::OpKind::Conv: {
      const ir::Tensor* w = op.inputs.size() > 1 ? graph.find_tensor(op.inputs[1]) : nullptr;
      const ir::Tensor* b = op.inputs.size() > 2 && !op.inputs[2].empty() ? graph.find_tensor(op.inputs[2]) : nullptr;
      if (!w || w->dtype != ir::DType::Int8 || !w->is_constant() || !w->quant || !w->shape.is_static() ||
          w->shape.dims.size() != 4 || (b && (b->dtype != ir::DType::Int32 || !b->is_constant())))
        return false;
      return std::all_of(w->quant->zero_points.begin(), w->quant->zero_points.end(), [](auto z) { return z == 0; });
    }
    default:
      return true;
  }
}

std::unique_ptr<PreparedOp> prepare_fast_nhwc(const ir::Operation& op, const ir::Graph& graph) {
  if (op.attr_string("layout", "NCHW") != "NHWC" || fp32_requantization() || !int8_runs_channels_last(op, graph))
    return nullptr;
  switch (op.kind) {
    case ir::OpKind::Conv: return std::make_unique<ConvInt8Nhwc>(op, graph);
    case ir::OpKind::MaxPool: return prepare_MaxPool(op, graph);
    case ir::OpKind::AveragePool: return prepare_AveragePool(op, graph);
    case ir::OpKind::GlobalAveragePool: return prepare_GlobalAveragePool(op, graph);
    case ir::OpKind::GlobalMaxPool: return prepare_GlobalMaxPool(op, graph);
    default: return nullptr;
  }
}

std::unique_ptr<PreparedOp> prepare_Conv(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ConvInt8>(op, graph);
}
std::unique_ptr<PreparedOp> prepare_ConvHybrid(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<ConvHybrid>(op, graph);
}

}  // namespace ec::runtime::quantized
