// int8 pooling (NCHW).
//   MaxPool / GlobalMaxPool: the max of the stored values (monotonic), then a
//     requantisation when the output's params differ from the input's.
//   AveragePool / GlobalAveragePool: mirrors TFLite's reference_integer_ops::
//     AveragePool: acc = sum of the window's values, n = its element count,
//     y = acc > 0 ? (acc + n/2) / n : (acc - n/2) / n (half away from zero), clamped.
//     count_include_pad counts padding positions as zero_point values. When the
//     output's params differ, y = zy + round((acc - n*zx) * sx / (n * sy)).
//   Fast forms, the same values: MaxPool without dilation as separable row and tap
//   maxima; GlobalAveragePool as one vector sum per channel; AveragePool with every
//   window inside the input as column sums and a table of every average; channels-last
//   with AVX-512, MaxPool windows and AveragePool averages in vectors.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12's avx512fintrin.h initialises its "undefined" vectors from themselves, which
// -Wmaybe-uninitialized reports wherever they are inlined (GCC bug 105593; fixed in 13).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/runtime/kernels/common.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {
namespace {

using Shape = std::vector<std::int64_t>;

struct Pool2 {
  std::int64_t n, c, H, W, OH, OW, KH, KW, sh, sw, dh, dw, ph, pw, peh, pew;
};

// Geometry of a 1-D or 2-D pooling (a 1-D one has H = 1), ONNX rules incl.
// auto_pad and ceil_mode (a last window starting in the end padding is dropped).
Pool2 pool_geometry(const ir::Operation& op, const Shape& x, bool global) {
  if (x.size() != 3 && x.size() != 4)
    throw UnsupportedOpError(op.op_type + " on rank " + std::to_string(x.size()), "the CPU runtime's int8 kernels",
                             "1-D and 2-D pooling only");
  const bool one = x.size() == 3;
  Pool2 g{};
  g.n = x[0];
  g.c = x[1];
  g.H = one ? 1 : x[2];
  g.W = x.back();
  const std::size_t k = x.size() - 2;
  Shape kernel = global ? Shape(x.begin() + 2, x.end()) : op.attr_ints("kernel_shape");
  Shape strides = op.attr_ints("strides"), dil = op.attr_ints("dilations"), pads = op.attr_ints("pads");
  if (strides.empty()) strides.assign(k, 1);
  if (dil.empty()) dil.assign(k, 1);
  if (pads.empty()) pads.assign(2 * k, 0);
  if (global) strides.assign(k, 1), dil.assign(k, 1), pads.assign(2 * k, 0);
  if (kernel.size() != k || strides.size() != k || dil.size() != k || pads.size() != 2 * k)
    fail("kernel_shape/strides/dilations/pads do not match " + std::to_string(k) + " spatial dims");
  const bool ceil_mode = op.attr_int("ceil_mode", 0) != 0;
  const std::string auto_pad = op.attr_string("auto_pad", "NOTSET");
  Shape in(x.begin() + 2, x.end()), out(k), pb(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(k)),
      pe(pads.begin() + static_cast<std::ptrdiff_t>(k), pads.end());
  for (std::size_t i = 0; i < k; ++i) {
    if (kernel[i] <= 0 || strides[i] <= 0 || dil[i] <= 0) fail("kernel, strides and dilations must be positive");
    const std::int64_t ext = (kernel[i] - 1) * dil[i] + 1;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      out[i] = (in[i] + strides[i] - 1) / strides[i];
      const std::int64_t total = std::max<std::int64_t>(0, (out[i] - 1) * strides[i] + ext - in[i]);
      pb[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe[i] = total - pb[i];
      continue;
    }
    if (auto_pad == "VALID") pb[i] = pe[i] = 0;
    const std::int64_t span = in[i] + pb[i] + pe[i] - ext;
    if (span < 0) fail("kernel is larger than the padded input " + shape_string(x));
    out[i] = (ceil_mode ? (span + strides[i] - 1) / strides[i] : span / strides[i]) + 1;
    if (ceil_mode && (out[i] - 1) * strides[i] >= in[i] + pb[i]) --out[i];
  }
  auto at = [&](const Shape& v, std::int64_t fill) { return one ? fill : v[0]; };
  g.OH = at(out, 1);
  g.OW = out.back();
  g.KH = at(kernel, 1);
  g.KW = kernel.back();
  g.sh = at(strides, 1);
  g.sw = strides.back();
  g.dh = at(dil, 1);
  g.dw = dil.back();
  g.ph = at(pb, 0);
  g.pw = pb.back();
  g.peh = at(pe, 0);
  g.pew = pe.back();
  return g;
}

Shape out_shape(const Shape& x, const Pool2& g) {
  if (x.size() == 3) return {g.n, g.c, g.OW};
  return {g.n, g.c, g.OH, g.OW};
}

enum class Kind { Max, Average };

// tap(ih, iw) for every tap of the window at (h0, w0) inside the input; returns how many
// taps fall in the padding (ONNX's count_include_pad counts those, not those beyond it).
template <typename Tap>
std::int32_t for_each_tap(const Pool2& g, std::int64_t h0, std::int64_t w0, Tap&& tap) {
  std::int32_t padded = 0;
  for (std::int64_t kh = 0; kh < g.KH; ++kh) {
    const std::int64_t ih = h0 + kh * g.dh;
    const bool row_in_pads = ih >= -g.ph && ih < g.H + g.peh;
    for (std::int64_t kw = 0; kw < g.KW; ++kw) {
      const std::int64_t iw = w0 + kw * g.dw;
      if (ih < 0 || ih >= g.H || iw < 0 || iw >= g.W) {
        if (row_in_pads && iw >= -g.pw && iw < g.W + g.pew) ++padded;
        continue;
      }
      tap(ih, iw);
    }
  }
  return padded;
}

// Channels-last pooling rows: a[c] += x[c] and m[c] = max(m[c], x[c]) for c < n.
void add_row_generic(std::int32_t* a, const std::int8_t* x, std::int64_t n) {
  for (std::int64_t c = 0; c < n; ++c) a[c] += x[c];
}
void max_row_generic(std::int8_t* m, const std::int8_t* x, std::int64_t n) {
  for (std::int64_t c = 0; c < n; ++c) m[c] = std::max(m[c], x[c]);
}
__attribute__((target("avx2"))) void add_row_avx2(std::int32_t* a, const std::int8_t* x, std::int64_t n) {
  std::int64_t c = 0;
  for (; c + 8 <= n; c += 8) {
    const __m256i v = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + c)));
    auto* p = reinterpret_cast<__m256i*>(a + c);
    _mm256_storeu_si256(p, _mm256_add_epi32(_mm256_loadu_si256(p), v));
  }
  add_row_generic(a + c, x + c, n - c);
}
// Channels-last global sums: s[c] = sum over P pixels of x[p * C + c], c < n <= 32 (one
// block of channels; the sums stay in four registers over all the pixels; lanes past n
// add the next channels' bytes and are dropped).
__attribute__((target("avx2"))) void sum_pixels_avx2(const std::int8_t* x, std::int64_t P, std::int64_t C,
                                                    std::int64_t n, std::int32_t* s) {
  alignas(32) std::int8_t tail[32];
  __m256i a[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(),
                  _mm256_setzero_si256()};
  for (std::int64_t p = 0; p < P; ++p) {
    const std::int8_t* px = x + p * C;
    if (n < 32 && p == P - 1) {  // a short block's last pixel: copied (no read past x's end)
      std::memset(tail, 0, sizeof tail);
      std::memcpy(tail, px, static_cast<std::size_t>(n));
      px = tail;
    }
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(px));
    const __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    a[0] = _mm256_add_epi32(a[0], _mm256_cvtepi8_epi32(lo));
    a[1] = _mm256_add_epi32(a[1], _mm256_cvtepi8_epi32(_mm_srli_si128(lo, 8)));
    a[2] = _mm256_add_epi32(a[2], _mm256_cvtepi8_epi32(hi));
    a[3] = _mm256_add_epi32(a[3], _mm256_cvtepi8_epi32(_mm_srli_si128(hi, 8)));
  }
  alignas(32) std::int32_t all[32];
  for (int i = 0; i < 4; ++i) _mm256_store_si256(reinterpret_cast<__m256i*>(all + 8 * i), a[i]);
  std::memcpy(s, all, static_cast<std::size_t>(n) * sizeof(std::int32_t));
}
// The same with AVX-512 (BW) for up to 64 channels (n <= 64): x + 128 summed in uint16
// lanes, widened into int32 every 257 pixels (255 * 257 < 2^16), 2 vector adds per 64
// bytes instead of 8; lanes past n read nothing (masked loads).
__attribute__((target("avx512f,avx512bw"))) void sum_pixels_avx512(const std::int8_t* x, std::int64_t P,
                                                                    std::int64_t C, std::int64_t n,
                                                                    std::int32_t* s) {
  const __mmask64 m = n >= 64 ? ~__mmask64(0) : (__mmask64(1) << n) - 1;
  const __m512i f = _mm512_set1_epi8(static_cast<char>(0x80));
  __m512i s0 = _mm512_setzero_si512(), s1 = s0, s2 = s0, s3 = s0;
  for (std::int64_t p0 = 0; p0 < P; p0 += 257) {
    const std::int64_t p1 = std::min<std::int64_t>(P, p0 + 257);
    __m512i lo = _mm512_setzero_si512(), hi = lo;
    for (std::int64_t p = p0; p < p1; ++p) {
      const __m512i v = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + p * C), f);
      lo = _mm512_add_epi16(lo, _mm512_cvtepu8_epi16(_mm512_castsi512_si256(v)));
      hi = _mm512_add_epi16(hi, _mm512_cvtepu8_epi16(_mm512_extracti64x4_epi64(v, 1)));
    }
    s0 = _mm512_add_epi32(s0, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(lo)));
    s1 = _mm512_add_epi32(s1, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(lo, 1)));
    s2 = _mm512_add_epi32(s2, _mm512_cvtepu16_epi32(_mm512_castsi512_si256(hi)));
    s3 = _mm512_add_epi32(s3, _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(hi, 1)));
  }
  alignas(64) std::int32_t all[64];
  _mm512_store_si512(all, s0);
  _mm512_store_si512(all + 16, s1);
  _mm512_store_si512(all + 32, s2);
  _mm512_store_si512(all + 48, s3);
  const std::int32_t bias = static_cast<std::int32_t>(128 * P);  // P < 2^23
  for (std::int64_t c = 0; c < n; ++c) s[c] = all[c] - bias;
}
// The averages of n channels' sums over `count` values each, 8 a step in doubles: the
// same operations as PoolInt8::average without padding (equal params: the integer
// division rounding half away from zero, exact in doubles for |acc| < 2^31; else
// zy + round((acc - count zx) ratio / count) with std::round's ties away from zero).
__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) void averages_avx512(const std::int32_t* acc, std::int64_t n,
                                                                 std::int32_t count, bool same, std::int32_t zx,
                                                                 std::int32_t zy, double ratio, std::int32_t lo,
                                                                 std::int32_t hi, std::int8_t* y) {
  const __m512d vc = _mm512_set1_pd(double(count)), half = _mm512_set1_pd(0.5), vr = _mm512_set1_pd(ratio);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi), vzy = _mm256_set1_epi32(zy);
  const __m256i h = _mm256_set1_epi32(count / 2), czx = _mm256_set1_epi32(count * zx);
  for (std::int64_t c = 0; c < n; c += 8) {
    const __mmask8 k = n - c >= 8 ? __mmask8(0xFF) : __mmask8((1u << (n - c)) - 1);
    const __m256i a = _mm256_maskz_loadu_epi32(k, acc + c);
    __m256i q;
    if (same) {  // (acc > 0 ? acc + count / 2 : acc - count / 2) / count, truncated
      const __mmask8 pos = _mm256_cmpgt_epi32_mask(a, _mm256_setzero_si256());
      const __m256i t = _mm256_mask_add_epi32(_mm256_sub_epi32(a, h), pos, a, h);
      q = _mm512_cvttpd_epi32(_mm512_div_pd(_mm512_cvtepi32_pd(t), vc));
    } else {
      const __m512d v = _mm512_div_pd(_mm512_mul_pd(_mm512_cvtepi32_pd(_mm256_sub_epi32(a, czx)), vr), vc);
      const __m512d t = _mm512_roundscale_pd(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
      const __m512d frac = _mm512_sub_pd(v, t);  // exact
      const __mmask8 up = _mm512_cmp_pd_mask(frac, half, _CMP_GE_OQ),
                     down = _mm512_cmp_pd_mask(frac, _mm512_sub_pd(_mm512_setzero_pd(), half), _CMP_LE_OQ);
      __m512d r = _mm512_mask_add_pd(t, up, t, _mm512_set1_pd(1.0));
      r = _mm512_mask_sub_pd(r, down, r, _mm512_set1_pd(1.0));
      q = _mm256_add_epi32(_mm512_cvttpd_epi32(r), vzy);
    }
    q = _mm256_min_epi32(_mm256_max_epi32(q, vlo), vhi);
    _mm_mask_storeu_epi8(y + c, k, _mm256_cvtepi32_epi8(q));
  }
}
// One output pixel of a channels-last MaxPool (image x [H, W, C]): every tap inside the
// input, 64 channels a step (lanes past C and the start: -128, max's identity, as the
// loops' start).
__attribute__((target("avx512f,avx512bw"))) void max_window_avx512(const std::int8_t* x, const Pool2& g,
                                                                  std::int64_t h0, std::int64_t w0,
                                                                  std::int8_t* out) {
  const std::int64_t C = g.c;
  const __m512i lowest = _mm512_set1_epi8(-128);
  for (std::int64_t c0 = 0; c0 < C; c0 += 64) {
    const __mmask64 m = C - c0 >= 64 ? ~__mmask64(0) : (__mmask64(1) << (C - c0)) - 1;
    __m512i v = lowest;
    for (std::int64_t kh = 0; kh < g.KH; ++kh) {
      const std::int64_t ih = h0 + kh * g.dh;
      if (ih < 0 || ih >= g.H) continue;
      for (std::int64_t kw = 0; kw < g.KW; ++kw) {
        const std::int64_t iw = w0 + kw * g.dw;
        if (iw >= 0 && iw < g.W) v = _mm512_max_epi8(v, _mm512_mask_loadu_epi8(lowest, m, x + (ih * g.W + iw) * C + c0));
      }
    }
    _mm512_mask_storeu_epi8(out + c0, m, v);
  }
}
__attribute__((target("avx2"))) void max_row_avx2(std::int8_t* m, const std::int8_t* x, std::int64_t n) {
  std::int64_t c = 0;
  for (; c + 32 <= n; c += 32) {
    auto* p = reinterpret_cast<__m256i*>(m + c);
    _mm256_storeu_si256(p, _mm256_max_epi8(_mm256_loadu_si256(p),
                                           _mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + c))));
  }
  max_row_generic(m + c, x + c, n - c);
}

// Whether the AVX-512 forms above run: the active ISA is AVX-512 and the CPU has BW, DQ, VL.
bool use_avx512bw_dq() {
  static const bool has = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
                          __builtin_cpu_supports("avx512vl");
  return has && gemm::active_isa() == gemm::Isa::Avx512;
}

class PoolInt8 final : public PreparedOp {
 public:
  PoolInt8(const ir::Operation& op, const ir::Graph& graph, Kind kind, bool global)
      : op_(op), kind_(kind), global_(global) {
    nhwc_ = op.attr_string("layout", "NCHW") == "NHWC";
    if (!nhwc_) require_nchw(op);
    if (op.outputs.size() > 1 && !op.outputs[1].empty())
      throw UnsupportedOpError(op.op_type + " with indices", "the CPU runtime's int8 kernels", "");
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const std::size_t rank = x.shape.rank();  // known here: refuse now, not at the first run
    if (x.shape.rank_known && rank != 3 && rank != 4)
      throw UnsupportedOpError(op.op_type + " on rank " + std::to_string(rank), "the CPU runtime's int8 kernels",
                               "1-D and 2-D pooling only");
    qx_ = activation_quant_of(x);
    qy_ = activation_quant_of(y);
    same_ = qx_.scale() == qy_.scale() && qx_.zero_point() == qy_.zero_point();
    requant_ = Requantizer(qx_, qy_);
    include_pad_ = op.attr_int("count_include_pad", 0) != 0;
    output_activation_range(op, qy_, lo_, hi_);
    ratio_ = double(qx_.scale()) / double(qy_.scale());
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 " + op_.op_type + " input is " + X.type_string());
    if (nhwc_) return {run_nhwc(X)};
    const Pool2 g = pool_geometry(op_, X.shape(), global_);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, out_shape(X.shape(), g));
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    if (kind_ == Kind::Max && g.dh == 1 && g.dw == 1 && g.KH * g.KW > 1 && g.KW <= 64 && g.KH <= 64) {
      max_pool_separable(g, x, y);
      return {Y};
    }
    auto average = [&](std::int32_t acc, std::int32_t count, std::int32_t padded) {
      return this->average(acc, count, padded);
    };
    if (global_ && kind_ == Kind::Average && use_avx2() && g.H * g.W < (std::int64_t(1) << 23)) {
      // One sum per channel (exact: |sum| < 2^31 for fewer than 2^23 values).
      parallel_for(g.n * g.c, [&](std::int64_t nc) {
        const auto acc = static_cast<std::int32_t>(sum_i8_avx2(x + nc * g.H * g.W, g.H * g.W));
        y[nc] = average(acc, static_cast<std::int32_t>(g.H * g.W), 0);
      });
      return {Y};
    }
    if (kind_ == Kind::Average && !global_ && g.dh == 1 && g.dw == 1 && (g.OH - 1) * g.sh + g.KH <= g.H &&
        (g.OW - 1) * g.sw + g.KW <= g.W && g.ph == 0 && g.pw == 0) {
      // Every window inside the input: column sums of the window's rows over the whole
      // width, then the taps along them; the same sums, so the same averages.
      const auto count = static_cast<std::int32_t>(g.KH * g.KW);
      // Every average once per call: a table over the possible sums [-128 n, 127 n].
      std::vector<std::int8_t> table;
      if (count <= 256) {
        table.resize(static_cast<std::size_t>(255 * count + 1));
        for (std::int32_t a = -128 * count; a <= 127 * count; ++a)
          table[static_cast<std::size_t>(a + 128 * count)] = average(a, count, 0);
      }
      parallel_for(g.n * g.c, [&](std::int64_t nc) {
        const std::int8_t* xc = x + nc * g.H * g.W;
        std::int8_t* yc = y + nc * g.OH * g.OW;
        thread_local std::vector<std::int32_t> col;
        scratch(col, static_cast<std::size_t>(g.W));
        std::int32_t* cs = col.data();
        for (std::int64_t oh = 0; oh < g.OH; ++oh) {
          const std::int8_t* r0 = xc + oh * g.sh * g.W;
          for (std::int64_t iw = 0; iw < g.W; ++iw) cs[iw] = r0[iw];
          for (std::int64_t kh = 1; kh < g.KH; ++kh) {
            const std::int8_t* r = r0 + kh * g.W;
            for (std::int64_t iw = 0; iw < g.W; ++iw) cs[iw] += r[iw];
          }
          for (std::int64_t ow = 0; ow < g.OW; ++ow) {
            std::int32_t acc = 0;
            for (std::int64_t kw = 0; kw < g.KW; ++kw) acc += cs[ow * g.sw + kw];
            yc[oh * g.OW + ow] =
                table.empty() ? average(acc, count, 0) : table[static_cast<std::size_t>(acc + 128 * count)];
          }
        }
      });
      return {Y};
    }
    parallel_for(g.n * g.c, [&](std::int64_t nc) {
      const std::int8_t* xc = x + nc * g.H * g.W;
      std::int8_t* yc = y + nc * g.OH * g.OW;
      for (std::int64_t oh = 0; oh < g.OH; ++oh) {
        const std::int64_t h0 = oh * g.sh - g.ph;
        for (std::int64_t ow = 0; ow < g.OW; ++ow) {
          const std::int64_t w0 = ow * g.sw - g.pw;
          std::int32_t acc = kind_ == Kind::Max ? -128 : 0, count = 0;
          const std::int32_t padded = for_each_tap(g, h0, w0, [&](std::int64_t ih, std::int64_t iw) {
            const std::int32_t v = xc[ih * g.W + iw];
            if (kind_ == Kind::Max) acc = std::max(acc, v);
            else acc += v;
            ++count;
          });
          std::int32_t out;
          if (kind_ == Kind::Max) {
            out = requant_(static_cast<std::int8_t>(acc));
            out = std::clamp(out, lo_, hi_);
          } else {
            out = average(acc, count, padded);
          }
          yc[oh * g.OW + ow] = static_cast<std::int8_t>(out);
        }
      }
    });
    return {Y};
  }

 private:
  // The window's average (ONNX AveragePool; TFLite's rounding when the params are equal).
  std::int8_t average(std::int32_t acc, std::int32_t count, std::int32_t padded) const {
    const std::int32_t zx = qx_.zero_point(), zy = qy_.zero_point();
    if (include_pad_) {
      acc += padded * zx;
      count += padded;
    }
    if (count == 0) count = 1;
    const std::int32_t out = same_ ? (acc > 0 ? (acc + count / 2) / count : (acc - count / 2) / count)
                                   : zy + round_away(double(acc - count * zx) * ratio_ / double(count));
    return static_cast<std::int8_t>(std::clamp(out, lo_, hi_));
  }

  // Channels-last (x [N, H, W, C]): per output pixel every channel's window at once, the
  // same sums and maxima as the NCHW loops, so the same values.
  Tensor run_nhwc(const Tensor& X) const {
    if (X.rank() != 4) fail("int8 " + op_.op_type + " with layout NHWC needs a 4-D input, got " + X.type_string());
    const Shape& s = X.shape();
    const Pool2 g = pool_geometry(op_, {s[0], s[3], s[1], s[2]}, global_);
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, {g.n, g.OH, g.OW, g.c});
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    const std::int64_t C = g.c;
    const bool max = kind_ == Kind::Max, requant = !same_ || lo_ > -128 || hi_ < 127;
    const bool avx2 = use_avx2();
    if (global_ && !max && avx2 && g.H * g.W < (std::int64_t(1) << 23)) {
      // One sum per channel (exact: |sum| < 2^31 for fewer than 2^23 values), 32 channels at
      // a time over all the pixels, the blocks split over the pool.
      // With AVX-512: 64 channels a block, their averages in vectors (the same values).
      const bool wide = use_avx512bw_dq();
      const std::int64_t width = wide ? 64 : 32, blocks = (C + width - 1) / width, P = g.H * g.W;
      parallel_for(g.n * blocks, [&](std::int64_t nb) {
        const std::int64_t n = nb / blocks, c0 = nb % blocks * width, cn = std::min<std::int64_t>(width, C - c0);
        std::int32_t sums[64];
        if (wide) {
          sum_pixels_avx512(x + n * P * C + c0, P, C, cn, sums);
          averages_avx512(sums, cn, static_cast<std::int32_t>(P), same_, qx_.zero_point(), qy_.zero_point(), ratio_,
                          lo_, hi_, y + n * C + c0);
          return;
        }
        sum_pixels_avx2(x + n * P * C + c0, P, C, cn, sums);
        for (std::int64_t c = 0; c < cn; ++c)
          y[n * C + c0 + c] = average(sums[c], static_cast<std::int32_t>(P), 0);
      });
      return Y;
    }
    const auto add_row = avx2 ? add_row_avx2 : add_row_generic;
    const auto max_row = avx2 ? max_row_avx2 : max_row_generic;
    const bool wide = use_avx512bw_dq();
    if (max && !requant && wide) {  // each pixel's window in registers, no call per tap
      parallel_for(g.n * g.OH, [&](std::int64_t r) {
        const std::int64_t n = r / g.OH, oh = r % g.OH;
        for (std::int64_t ow = 0; ow < g.OW; ++ow)
          max_window_avx512(x + n * g.H * g.W * C, g, oh * g.sh - g.ph, ow * g.sw - g.pw,
                            y + ((n * g.OH + oh) * g.OW + ow) * C);
      });
      return Y;
    }
    parallel_for(g.n * g.OH, [&](std::int64_t r) {
      const std::int64_t n = r / g.OH, oh = r % g.OH, h0 = oh * g.sh - g.ph;
      thread_local std::vector<std::int32_t> sums;
      thread_local std::vector<std::int8_t> maxima;
      scratch(sums, static_cast<std::size_t>(C));
      scratch(maxima, static_cast<std::size_t>(C));
      std::int32_t* a = sums.data();
      std::int8_t* m = maxima.data();
      for (std::int64_t ow = 0; ow < g.OW; ++ow) {
        const std::int64_t w0 = ow * g.sw - g.pw;
        if (max) std::fill(m, m + C, std::int8_t(-128));
        else std::fill(a, a + C, 0);
        std::int32_t count = 0;
        const std::int32_t padded = for_each_tap(g, h0, w0, [&](std::int64_t ih, std::int64_t iw) {
          const std::int8_t* px = x + ((n * g.H + ih) * g.W + iw) * C;
          ++count;
          if (max) max_row(m, px, C);
          else add_row(a, px, C);
        });
        std::int8_t* out = y + ((n * g.OH + oh) * g.OW + ow) * C;
        if (!max && wide && count > 0 && (!include_pad_ || padded == 0))  // average() in vectors
          averages_avx512(a, C, count, same_, qx_.zero_point(), qy_.zero_point(), ratio_, lo_, hi_, out);
        else if (!max)
          for (std::int64_t c = 0; c < C; ++c) out[c] = average(a[c], count, padded);
        else if (!requant)
          std::memcpy(out, m, static_cast<std::size_t>(C));
        else
          for (std::int64_t c = 0; c < C; ++c)
            out[c] = static_cast<std::int8_t>(std::clamp<std::int32_t>(requant_(m[c]), lo_, hi_));
      }
    });
    return Y;
  }

  // Max pooling without dilation, per output row: the max of the window's input rows
  // (vertical pass, over the whole width), into a row padded with -128 on both sides,
  // then the max of the KW taps along it (horizontal pass; stride > 1 reads column
  // phases, so every tap is a contiguous run). -128 is the identity of max, as the
  // loop above starts from it: windows and padding give the same values.
  void max_pool_separable(const Pool2& g, const std::int8_t* x, std::int8_t* y) const {
    const std::int64_t Wp = std::max(g.W + g.pw, (g.OW - 1) * g.sw + g.KW), sw = g.sw;
    const std::int64_t Wq = (Wp + sw - 1) / sw;  // slots per phase
    const bool avx2 = use_avx2();
    auto max_rows = [&](const std::int8_t* const* rows, int count, std::int64_t n, std::int8_t* out) {
      if (avx2) {
        max_rows_avx2(rows, count, n, out);
        return;
      }
      for (std::int64_t i = 0; i < n; ++i) {
        std::int8_t m = -128;
        for (int r = 0; r < count; ++r) m = std::max(m, rows[r][i]);
        out[i] = m;
      }
    };
    const bool requant = !same_ || lo_ > -128 || hi_ < 127;
    parallel_for(g.n * g.c, [&](std::int64_t nc) {
      const std::int8_t* xc = x + nc * g.H * g.W;
      std::int8_t* yc = y + nc * g.OH * g.OW;
      thread_local std::vector<std::int8_t> row, phases;
      row.assign(static_cast<std::size_t>(Wp), -128);
      phases.resize(static_cast<std::size_t>(sw * Wq));
      const std::int8_t* rows[64];
      for (std::int64_t oh = 0; oh < g.OH; ++oh) {
        const std::int64_t h0 = oh * g.sh - g.ph;
        int count = 0;
        for (std::int64_t ih = std::max<std::int64_t>(h0, 0); ih < std::min(g.H, h0 + g.KH); ++ih)
          rows[count++] = xc + ih * g.W;
        std::int8_t* yr = yc + oh * g.OW;
        const std::int64_t w_in = std::min(g.W, Wp - g.pw);
        if (count == 0) {
          std::fill(row.begin(), row.end(), std::int8_t(-128));
        } else {
          max_rows(rows, count, w_in, row.data() + g.pw);
        }
        const std::int8_t* src = row.data();
        if (sw > 1) {  // column q to phase q % sw, slot q / sw
          std::int8_t* ph = phases.data();
          const std::int8_t* r = row.data();
          std::fill(ph, ph + sw * Wq, std::int8_t(-128));
          for (std::int64_t p = 0; p < sw; ++p) {  // stepped: no division per column
            std::int8_t* d = ph + p * Wq;
            for (std::int64_t q = p, slot = 0; q < Wp; q += sw, ++slot) d[slot] = r[q];
          }
          src = ph;
        }
        for (std::int64_t kw = 0; kw < g.KW; ++kw) rows[kw] = src + (kw % sw) * Wq + kw / sw;
        max_rows(rows, static_cast<int>(g.KW), g.OW, yr);
        if (requant)
          for (std::int64_t ow = 0; ow < g.OW; ++ow) yr[ow] = static_cast<std::int8_t>(std::clamp<std::int32_t>(requant_(yr[ow]), lo_, hi_));
      }
    });
  }

  ir::Operation op_;
  Kind kind_;
  bool global_, same_ = true, include_pad_ = false, nhwc_ = false;
  QParams qx_, qy_;
  Requantizer requant_;
  double ratio_ = 1.0;
  std::int32_t lo_ = -128, hi_ = 127;
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_MaxPool(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PoolInt8>(op, graph, Kind::Max, false);
}
std::unique_ptr<PreparedOp> prepare_AveragePool(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PoolInt8>(op, graph, Kind::Average, false);
}
std::unique_ptr<PreparedOp> prepare_GlobalAveragePool(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PoolInt8>(op, graph, Kind::Average, true);
}
std::unique_ptr<PreparedOp> prepare_GlobalMaxPool(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<PoolInt8>(op, graph, Kind::Max, true);
}

}  // namespace ec::runtime::quantized
