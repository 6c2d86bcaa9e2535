// AVX2 kernels of the int8 path: the 4 x 16 GEMM micro-kernel (8 ymm int32
// accumulators; per K pair two loads of B, and per row one broadcast A pair and
// two vpmaddwd: a0*b0 + a1*b1 per lane), the vectorised requantisation of a
// row of outputs, and the depthwise tap loops. Only these functions carry the
// target attribute; the TU is compiled for plain x86-64 like the rest, so no
// inline code built for AVX2 is shared with functions that run on any CPU.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <cstring>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/igemm_u8.h"

namespace ec::runtime::quantized {

__attribute__((target("avx2"))) void igemm_micro_avx2(std::int64_t kp, const std::int16_t* a, const std::int16_t* b,
                                                      std::int32_t* c) {
  static_assert(kMR == 4 && kNR == 16, "the AVX2 micro-kernel is written for 4 x 16 tiles");
  __m256i c00 = _mm256_setzero_si256(), c01 = _mm256_setzero_si256();
  __m256i c10 = _mm256_setzero_si256(), c11 = _mm256_setzero_si256();
  __m256i c20 = _mm256_setzero_si256(), c21 = _mm256_setzero_si256();
  __m256i c30 = _mm256_setzero_si256(), c31 = _mm256_setzero_si256();
  for (std::int64_t p = 0; p < kp; ++p, a += kMR * 2, b += kNR * 2) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b));
    const __m256i b1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(b + 16));
    std::int32_t pr[4];
    std::memcpy(pr, a, sizeof pr);  // four (a0, a1) int16 pairs
    __m256i av = _mm256_set1_epi32(pr[0]);
    c00 = _mm256_add_epi32(c00, _mm256_madd_epi16(av, b0));
    c01 = _mm256_add_epi32(c01, _mm256_madd_epi16(av, b1));
    av = _mm256_set1_epi32(pr[1]);
    c10 = _mm256_add_epi32(c10, _mm256_madd_epi16(av, b0));
    c11 = _mm256_add_epi32(c11, _mm256_madd_epi16(av, b1));
    av = _mm256_set1_epi32(pr[2]);
    c20 = _mm256_add_epi32(c20, _mm256_madd_epi16(av, b0));
    c21 = _mm256_add_epi32(c21, _mm256_madd_epi16(av, b1));
    av = _mm256_set1_epi32(pr[3]);
    c30 = _mm256_add_epi32(c30, _mm256_madd_epi16(av, b0));
    c31 = _mm256_add_epi32(c31, _mm256_madd_epi16(av, b1));
  }
  // Pairs are (column j: k even, k odd) in lanes 2j, 2j+1 of b, so lane j of the
  // madd result is column j: b0 holds columns 0-7, b1 columns 8-15.
  auto* out = reinterpret_cast<__m256i*>(c);
  _mm256_storeu_si256(out + 0, c00);
  _mm256_storeu_si256(out + 1, c01);
  _mm256_storeu_si256(out + 2, c10);
  _mm256_storeu_si256(out + 3, c11);
  _mm256_storeu_si256(out + 4, c20);
  _mm256_storeu_si256(out + 5, c21);
  _mm256_storeu_si256(out + 6, c30);
  _mm256_storeu_si256(out + 7, c31);
}

// acc[i] += w * row[i] for i < n (the depthwise convolution's tap loop, stride 1):
// 8 int16 inputs widened to int32 per step.
__attribute__((target("avx2"))) void dw_accumulate_avx2(std::int32_t* acc, const std::int16_t* row, std::int64_t n,
                                                        std::int32_t w) {
  const __m256i wv = _mm256_set1_epi32(w);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256i x = _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(row + i)));
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + i));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + i), _mm256_add_epi32(a, _mm256_mullo_epi32(x, wv)));
  }
  for (; i < n; ++i) acc[i] += w * row[i];
}

namespace {

// SRDHM of the even 32-bit lanes of a (as 64-bit lanes) by m: the quotient in the low 32 bits.
__attribute__((target("avx2"))) inline __m256i srdhm_even(__m256i a, __m256i m64) {
  const __m256i zero = _mm256_setzero_si256();
  const __m256i pos_nudge = _mm256_set1_epi64x(1LL << 30), neg_nudge = _mm256_set1_epi64x(1 - (1LL << 30));
  const __m256i trunc_fix = _mm256_set1_epi64x((1LL << 31) - 1);
  const __m256i ab = _mm256_mul_epi32(a, m64);
  __m256i v = _mm256_add_epi64(ab, _mm256_blendv_epi8(pos_nudge, neg_nudge, _mm256_cmpgt_epi64(zero, ab)));
  v = _mm256_add_epi64(v, _mm256_and_si256(_mm256_cmpgt_epi64(zero, v), trunc_fix));  // divide truncating toward 0
  return _mm256_srli_epi64(v, 31);
}

// 8 lanes of MultiplyByQuantizedMultiplier(x, m, shift) (fixed_point.h), m in [0, 2^31).
__attribute__((target("avx2"))) inline __m256i mbqm8(__m256i x, __m256i m64, int left, __m128i right_count,
                                                     __m256i rmask, __m256i rhalf) {
  x = _mm256_sll_epi32(x, _mm_cvtsi32_si128(left));  // wraps like the scalar form
  const __m256i even = srdhm_even(x, m64), odd = srdhm_even(_mm256_srli_epi64(x, 32), m64);
  const __m256i h = _mm256_blend_epi32(even, _mm256_slli_epi64(odd, 32), 0xAA);
  // RoundingDivideByPOT(h, right): ties away from zero.
  const __m256i zero = _mm256_setzero_si256();
  const __m256i rem = _mm256_and_si256(h, rmask);
  const __m256i thr = _mm256_sub_epi32(rhalf, _mm256_cmpgt_epi32(zero, h));
  return _mm256_sub_epi32(_mm256_sra_epi32(h, right_count), _mm256_cmpgt_epi32(rem, thr));
}

// Broadcast constants of mbqm8 for a multiplier with shift <= 0.
struct Mbqm8 {
  __m256i m64, rmask, rhalf;
  __m128i rc;
};
__attribute__((target("avx2"))) inline Mbqm8 mbqm8_params(std::int32_t m, int shift) {
  const std::int32_t mask = static_cast<std::int32_t>((1LL << -shift) - 1);
  return {_mm256_set1_epi64x(m), _mm256_set1_epi32(mask), _mm256_set1_epi32(mask >> 1), _mm_cvtsi32_si128(-shift)};
}

}  // namespace

// 8 lanes of TFLite's int8 Add (see AddRowParams); rows of 8 (tails in a bounce buffer).
__attribute__((target("avx2"))) void add_row_avx2(const std::int8_t* a, const std::int8_t* b, std::int64_t n,
                                                  const AddRowParams& p, std::int8_t* out) {
  const Mbqm8 m1 = mbqm8_params(p.m1, p.shift1), m2 = mbqm8_params(p.m2, p.shift2), mo = mbqm8_params(p.mo, p.shift_o);
  const __m256i o1 = _mm256_set1_epi32(p.off1), o2 = _mm256_set1_epi32(p.off2), zo = _mm256_set1_epi32(p.out_zp);
  const __m256i lo = _mm256_set1_epi32(p.lo), hi = _mm256_set1_epi32(p.hi);
  for (std::int64_t i = 0; i < n; i += 8) {
    const std::int64_t w = n - i < 8 ? n - i : 8;
    alignas(8) std::int8_t ba[8] = {}, bb[8] = {};
    std::memcpy(ba, a + i, static_cast<std::size_t>(w));
    std::memcpy(bb, b + i, static_cast<std::size_t>(w));
    __m256i x1 = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(ba)));
    __m256i x2 = _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bb)));
    x1 = _mm256_slli_epi32(_mm256_add_epi32(x1, o1), 20);
    x2 = _mm256_slli_epi32(_mm256_add_epi32(x2, o2), 20);
    x1 = mbqm8(x1, m1.m64, 0, m1.rc, m1.rmask, m1.rhalf);
    x2 = mbqm8(x2, m2.m64, 0, m2.rc, m2.rmask, m2.rhalf);
    __m256i r = mbqm8(p.sub ? _mm256_sub_epi32(x1, x2) : _mm256_add_epi32(x1, x2), mo.m64, 0, mo.rc, mo.rmask, mo.rhalf);
    r = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(r, zo), lo), hi);
    const __m128i p16 = _mm_packs_epi32(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1));
    alignas(16) std::int8_t o[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(o), _mm_packs_epi16(p16, p16));
    std::memcpy(out + i, o, static_cast<std::size_t>(w));
  }
}

// A GEMM tile requantised at once (see igemm_u8.h): per row, the channel's constants
// broadcast from memory and mbqm8 on two halves of 8.
__attribute__((target("avx2"))) void requant_tile_avx2(const std::int32_t* tile, int mr, int nr,
                                                       const RequantChannel* ch, std::int32_t zp, std::int32_t lo,
                                                       std::int32_t hi, std::int8_t* out, std::int64_t out_stride) {
  const __m256i vz = _mm256_set1_epi32(zp), vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  for (int r = 0; r < mr; ++r, tile += kNR, out += out_stride) {
    const RequantChannel& c = ch[r];
    const __m256i m64 = _mm256_set1_epi64x(c.multiplier), vb = _mm256_set1_epi32(c.bias);
    const __m256i rmask = _mm256_set1_epi32(c.rmask), rhalf = _mm256_set1_epi32(c.rhalf);
    const __m128i rc = _mm_cvtsi32_si128(c.right);
    __m256i a = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile)), vb);
    __m256i b = _mm256_add_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(tile + 8)), vb);
    a = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(mbqm8(a, m64, c.left, rc, rmask, rhalf), vz), vlo), vhi);
    b = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(mbqm8(b, m64, c.left, rc, rmask, rhalf), vz), vlo), vhi);
    const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);  // a0-7 | b0-7
    const __m256i p8 = _mm256_packs_epi16(p16, p16);
    const __m128i v = _mm_unpacklo_epi64(_mm256_castsi256_si128(p8), _mm256_extracti128_si256(p8, 1));
    if (nr == 16) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out), v);
    } else {
      alignas(16) std::int8_t o[16];
      _mm_store_si128(reinterpret_cast<__m128i*>(o), v);
      std::memcpy(out, o, static_cast<std::size_t>(nr));
    }
  }
}

// out[j] = clamp(MBQM(acc[j] + bias, multiplier, shift) + zp, lo, hi) for j < n, 16 lanes per step.
__attribute__((target("avx2"))) void requant_row_avx2(const std::int32_t* acc, std::int64_t n, std::int32_t bias,
                                                      std::int32_t multiplier, int shift, std::int32_t zp,
                                                      std::int32_t lo, std::int32_t hi, std::int8_t* out) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const __m256i m64 = _mm256_set1_epi64x(multiplier), vb = _mm256_set1_epi32(bias), vz = _mm256_set1_epi32(zp);
  const __m256i vlo = _mm256_set1_epi32(lo), vhi = _mm256_set1_epi32(hi);
  const std::int32_t mask = static_cast<std::int32_t>((1LL << right) - 1);
  const __m256i rmask = _mm256_set1_epi32(mask), rhalf = _mm256_set1_epi32(mask >> 1);
  const __m128i rc = _mm_cvtsi32_si128(right);
  for (std::int64_t j = 0; j < n; j += 16) {
    alignas(32) std::int32_t buf[16] = {};
    const std::int64_t w = n - j < 16 ? n - j : 16;
    std::memcpy(buf, acc + j, static_cast<std::size_t>(w) * sizeof(std::int32_t));
    __m256i a = _mm256_add_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(buf)), vb);
    __m256i b = _mm256_add_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(buf + 8)), vb);
    a = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(mbqm8(a, m64, left, rc, rmask, rhalf), vz), vlo), vhi);
    b = _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(mbqm8(b, m64, left, rc, rmask, rhalf), vz), vlo), vhi);
    const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);  // a0-7 | b0-7
    const __m256i p8 = _mm256_packs_epi16(p16, p16);
    const __m128i r = _mm_unpacklo_epi64(_mm256_castsi256_si128(p8), _mm256_extracti128_si256(p8, 1));
    alignas(16) std::int8_t o[16];
    _mm_store_si128(reinterpret_cast<__m128i*>(o), r);
    std::memcpy(out + j, o, static_cast<std::size_t>(w));
  }
}

// Depthwise, stride 1: acc[j] = bias + sum_t w[t] * rows[t][j] for j < n. Taps are
// taken in pairs: the two rows interleaved (unpacklo/hi) and multiplied-added
// with (w[t], w[t+1]) by vpmaddwd -- products fit int16 pairs, sums are exact.
// Reads up to 15 int16 past rows[t][n - 1] (the caller pads its plane).
__attribute__((target("avx2"))) void dw_taps_avx2(const std::int16_t* const* rows, const std::int16_t* w, int taps,
                                                  std::int64_t n, std::int32_t bias, std::int32_t* acc) {
  // (w[t], w[t+1]) as int16 pairs, once per row.
  std::int32_t wp[32];
  for (int t = 0; t < taps; t += 2)
    wp[t / 2] = static_cast<std::int32_t>(static_cast<std::uint16_t>(w[t]) |
                                          (static_cast<std::uint32_t>(static_cast<std::uint16_t>(t + 1 < taps ? w[t + 1] : 0)) << 16));
  for (std::int64_t j = 0; j < n; j += 16) {
    __m256i lo = _mm256_set1_epi32(bias), hi = lo;
    for (int t = 0; t < taps; t += 2) {
      const bool pair = t + 1 < taps;
      const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[t] + j));
      const __m256i r1 = pair ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[t + 1] + j)) : _mm256_setzero_si256();
      const __m256i wv = _mm256_set1_epi32(wp[t / 2]);
      lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(r0, r1), wv));  // outputs 0-3 | 8-11
      hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(r0, r1), wv));  // outputs 4-7 | 12-15
    }
    // Whole blocks are stored: the caller's buffer has 16 values of slack, and the
    // next row's sums overwrite what this one wrote past its end.
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + j), _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(acc + j + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
  }
}

// A depthwise plane row: x - z widened to int16, split by column phase for stride 2.
__attribute__((target("avx2"))) void widen_row_avx2(const std::int8_t* src, std::int64_t n, std::int32_t z,
                                                    std::int64_t pw, std::int64_t sw, std::int64_t Wq,
                                                    std::int16_t* dst) {
  const __m256i vz = _mm256_set1_epi16(static_cast<short>(z));
  std::int64_t iw = 0;
  if (sw == 1) {
    for (; iw + 16 <= n; iw += 16) {
      const __m256i v = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + iw)));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + pw + iw), _mm256_sub_epi16(v, vz));
    }
    for (; iw < n; ++iw) dst[pw + iw] = static_cast<std::int16_t>(src[iw] - z);
    return;
  }
  if (sw == 2) {
    // Columns q = iw + pw: even q to phase 0, odd to phase 1, slot q / 2.
    std::int16_t* ph[2] = {dst, dst + Wq};
    const int first = static_cast<int>(pw & 1);  // phase of iw = 0
    const std::int64_t s0 = pw / 2;              // slot of iw = 0
    // 32 inputs -> 16 per phase: de-interleave bytes of each 16-byte half, widen.
    const __m128i even = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m128i odd = _mm_setr_epi8(1, 3, 5, 7, 9, 11, 13, 15, -1, -1, -1, -1, -1, -1, -1, -1);
    for (; iw + 32 <= n; iw += 32) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + iw));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + iw + 16));
      const __m128i e = _mm_unpacklo_epi64(_mm_shuffle_epi8(a, even), _mm_shuffle_epi8(b, even));
      const __m128i o = _mm_unpacklo_epi64(_mm_shuffle_epi8(a, odd), _mm_shuffle_epi8(b, odd));
      // iw even -> phase `first`, slot s0 + iw/2 (+1 for the odd inputs when first == 1).
      const std::int64_t slot = s0 + iw / 2;
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(ph[first] + slot), _mm256_sub_epi16(_mm256_cvtepi8_epi16(e), vz));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(ph[first ^ 1] + slot + first),
                          _mm256_sub_epi16(_mm256_cvtepi8_epi16(o), vz));
    }
  }
  // The rest (and other strides): column q = iw + pw to phase q % sw, slot q / sw, stepped.
  std::int64_t phase = (iw + pw) % sw, slot = (iw + pw) / sw;
  for (; iw < n; ++iw) {
    dst[phase * Wq + slot] = static_cast<std::int16_t>(src[iw] - z);
    if (++phase == sw) {
      phase = 0;
      ++slot;
    }
  }
}

// min/max of x folded into lo/hi, as std::min(lo, x[i]) / std::max(hi, x[i]) do
// (a NaN keeps the running value).
__attribute__((target("avx2"))) void minmax_avx2(const float* x, std::int64_t n, float& lo, float& hi) {
  __m256 l = _mm256_set1_ps(lo), h = _mm256_set1_ps(hi);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    l = _mm256_min_ps(v, l);  // v < l ? v : l
    h = _mm256_max_ps(v, h);  // v > h ? v : h
  }
  alignas(32) float lb[8], hb[8];
  _mm256_store_ps(lb, l);
  _mm256_store_ps(hb, h);
  for (int k = 0; k < 8; ++k) lo = std::min(lo, lb[k]), hi = std::max(hi, hb[k]);
  for (; i < n; ++i) lo = std::min(lo, x[i]), hi = std::max(hi, x[i]);
}

// 8 lanes: nearbyint(x / s) (ties to even in the default rounding mode), + zp, clamped.
__attribute__((target("avx2"))) inline __m256i quantize_linear8(const float* p, __m256 vs, __m256 vz, __m256 lo,
                                                                __m256 hi) {
  __m256 v = _mm256_round_ps(_mm256_div_ps(_mm256_loadu_ps(p), vs), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  v = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(v, vz), lo), hi);  // NaN -> lo (max_ps returns lo)
  return _mm256_cvtps_epi32(v);
}

__attribute__((target("avx2"))) void quantize_linear_avx2(const float* x, std::int64_t n, float scale,
                                                          std::int32_t zp, std::int32_t qmin, std::int32_t qmax,
                                                          bool u8, void* q) {
  const __m256 vs = _mm256_set1_ps(scale), vz = _mm256_set1_ps(float(zp));
  const __m256 lo = _mm256_set1_ps(float(qmin)), hi = _mm256_set1_ps(float(qmax));
  auto* out = static_cast<std::uint8_t*>(q);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i a = quantize_linear8(x + i, vs, vz, lo, hi), b = quantize_linear8(x + i + 8, vs, vz, lo, hi);
    // Values are within the storage range: packs keep them (signed), packus for u8.
    const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);
    const __m256i p8 = u8 ? _mm256_packus_epi16(p16, p16) : _mm256_packs_epi16(p16, p16);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                     _mm_unpacklo_epi64(_mm256_castsi256_si128(p8), _mm256_extracti128_si256(p8, 1)));
  }
  for (; i < n; ++i) {
    const float r = std::nearbyint(x[i] / scale) + float(zp);
    const float c = r > float(qmin) ? (r < float(qmax) ? r : float(qmax)) : float(qmin);
    const auto v = static_cast<std::int32_t>(c);
    out[i] = static_cast<std::uint8_t>(v);
  }
}

// sum of n int8 values: vpsadbw of x ^ 0x80 (x + 128 as bytes) against zero adds 8 bytes
// into each 64-bit lane exactly; 128 * n is taken off at the end.
__attribute__((target("avx2"))) std::int64_t sum_i8_avx2(const std::int8_t* x, std::int64_t n) {
  const __m256i flip = _mm256_set1_epi8(static_cast<char>(0x80)), zero = _mm256_setzero_si256();
  __m256i acc = _mm256_setzero_si256();
  std::int64_t i = 0, s = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i v = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(x + i)), flip);
    acc = _mm256_add_epi64(acc, _mm256_sad_epu8(v, zero));
  }
  alignas(32) std::int64_t lanes[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
  s = lanes[0] + lanes[1] + lanes[2] + lanes[3] - 128 * i;
  for (; i < n; ++i) s += x[i];
  return s;
}

// 256-entry int8 table lookups, 64 per step: vpermi2b over the table's two halves
// (indices x + 128, low 7 bits), the half chosen by the index's top bit.
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void lut_apply_avx512vbmi(const std::int8_t* lut,
                                                                                 const std::int8_t* x,
                                                                                 std::int64_t n, std::int8_t* y) {
  const __m512i t0 = _mm512_loadu_si512(lut), t1 = _mm512_loadu_si512(lut + 64), t2 = _mm512_loadu_si512(lut + 128),
                t3 = _mm512_loadu_si512(lut + 192);
  const __m512i flip = _mm512_set1_epi8(static_cast<char>(0x80));
  for (std::int64_t i = 0; i < n; i += 64) {
    const __mmask64 m = n - i >= 64 ? ~__mmask64(0) : (__mmask64(1) << (n - i)) - 1;
    const __m512i idx = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, x + i), flip);
    const __m512i lo = _mm512_permutex2var_epi8(t0, idx, t1), hi = _mm512_permutex2var_epi8(t2, idx, t3);
    _mm512_mask_storeu_epi8(y + i, m, _mm512_mask_blend_epi8(_mm512_movepi8_mask(idx), lo, hi));
  }
}

// out[t] = src[2 t], t < n, reading src[0, 2 n - 1] only: 32 bytes in, their even bytes
// out (pshufb per 16-byte half), 16 per step.
__attribute__((target("avx2"))) void gather_stride2_avx2(const std::int8_t* src, std::int64_t n, std::int8_t* out) {
  const __m128i even = _mm_setr_epi8(0, 2, 4, 6, 8, 10, 12, 14, -1, -1, -1, -1, -1, -1, -1, -1);
  std::int64_t t = 0;
  for (; t + 16 <= n; t += 16) {
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * t));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 2 * t + 16));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + t),
                     _mm_unpacklo_epi64(_mm_shuffle_epi8(a, even), _mm_shuffle_epi8(b, even)));
  }
  for (; t < n; ++t) out[t] = src[2 * t];
}

// out[i] = max over r < count of rows[r][i] (int8), 32 bytes per step.
__attribute__((target("avx2"))) void max_rows_avx2(const std::int8_t* const* rows, int count, std::int64_t n,
                                                   std::int8_t* out) {
  std::int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i m = _mm256_set1_epi8(-128);
    for (int r = 0; r < count; ++r)
      m = _mm256_max_epi8(m, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rows[r] + i)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), m);
  }
  for (; i < n; ++i) {
    std::int8_t m = -128;
    for (int r = 0; r < count; ++r) m = std::max(m, rows[r][i]);
    out[i] = m;
  }
}

// y = float(q - zp) * scale: the exact product rounded once, as the portable
// (double(q) - zp) * double(scale) rounded to float (|q - zp| < 2^9: exact in double).
__attribute__((target("avx2"))) void dequantize_linear_avx2(const void* q, bool u8, std::int64_t n, float scale,
                                                            std::int32_t zp, float* y) {
  const auto* in = static_cast<const std::uint8_t*>(q);
  const __m256 vs = _mm256_set1_ps(scale);
  const __m256i vz = _mm256_set1_epi32(zp);
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m128i b = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + i));
    const __m256i v = u8 ? _mm256_cvtepu8_epi32(b) : _mm256_cvtepi8_epi32(b);
    _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(v, vz)), vs));
  }
  for (; i < n; ++i) {
    const std::int32_t v = u8 ? std::int32_t(in[i]) : std::int32_t(static_cast<std::int8_t>(in[i]));
    y[i] = float(v - zp) * scale;
  }
}

__attribute__((target("avx2"))) bool minmax_finite_avx2(const float* x, std::int64_t n, float& lo, float& hi) {
  // Non-finite: |v| == inf, or v != v; one flag vector for the whole run.
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)), inf = _mm256_set1_ps(INFINITY);
  __m256 l = _mm256_set1_ps(x[0]), h = l, bad = _mm256_setzero_ps();
  std::int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    l = _mm256_min_ps(v, l);  // v < l ? v : l, as std::min(l, v)
    h = _mm256_max_ps(v, h);  // v > h ? v : h, as std::max(h, v)
    bad = _mm256_or_ps(bad, _mm256_cmp_ps(_mm256_and_ps(v, abs_mask), inf, _CMP_NLT_UQ));  // >= inf or NaN
  }
  alignas(32) float lb[8], hb[8];
  _mm256_store_ps(lb, l);
  _mm256_store_ps(hb, h);
  float a = lb[0], b = hb[0];
  for (int k = 1; k < 8; ++k) a = std::min(a, lb[k]), b = std::max(b, hb[k]);
  bool finite = _mm256_movemask_ps(bad) == 0;
  for (; i < n; ++i) {
    a = std::min(a, x[i]);
    b = std::max(b, x[i]);
    finite &= std::isfinite(x[i]);
  }
  lo = a;
  hi = b;
  return finite;
}

__attribute__((target("avx2,fma"))) void sqnr_sums_avx2(const float* x, const float* a, const std::int8_t* q,
                                                        std::int64_t n, float scale, std::int32_t zp, double& signal,
                                                        double& noise, float& max_abs_error) {
  const __m256 vs = _mm256_set1_ps(scale);
  const __m256i vz = _mm256_set1_epi32(zp);
  const __m256 abs_mask = _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF));
  __m256 m = _mm256_setzero_ps();
  double sig = 0, noi = 0;
  std::int64_t i = 0;
  alignas(32) float bs[8], bn[8];
  while (i + 8 <= n) {
    const std::int64_t end = std::min(n - (n - i) % 8, i + 1024);
    __m256 s = _mm256_setzero_ps(), z = _mm256_setzero_ps();
    for (; i < end; i += 8) {
      const __m256 xv = _mm256_loadu_ps(x + i);
      const __m256 ap =
          q ? _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sub_epi32(
                                _mm256_cvtepi8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + i))), vz)),
                            vs)
            : _mm256_loadu_ps(a + i);
      const __m256 e = _mm256_sub_ps(xv, ap);
      s = _mm256_fmadd_ps(xv, xv, s);
      z = _mm256_fmadd_ps(e, e, z);
      m = _mm256_max_ps(m, _mm256_and_ps(e, abs_mask));
    }
    _mm256_store_ps(bs, s);
    _mm256_store_ps(bn, z);
    for (int k = 0; k < 8; ++k) sig += bs[k], noi += bn[k];
  }
  alignas(32) float bm[8];
  _mm256_store_ps(bm, m);
  for (int k = 0; k < 8; ++k) max_abs_error = std::max(max_abs_error, bm[k]);
  for (; i < n; ++i) {
    const float ap = q ? static_cast<float>(q[i] - zp) * scale : a[i];
    const double xv = x[i], e = xv - static_cast<double>(ap);
    sig += xv * xv;
    noi += e * e;
    max_abs_error = std::max(max_abs_error, static_cast<float>(std::abs(e)));
  }
  signal += sig;
  noise += noi;
}

// 8 lanes of round-half-away(x * inv) + zp, clamped to [-128, 127].
__attribute__((target("avx2"))) inline __m256i quantize8(const float* p, __m256 vinv, __m256i vz) {
  const __m256 v = _mm256_mul_ps(_mm256_loadu_ps(p), vinv);
  __m256i r = _mm256_cvttps_epi32(v);
  const __m256 frac = _mm256_sub_ps(v, _mm256_cvtepi32_ps(r));
  r = _mm256_sub_epi32(r, _mm256_castps_si256(_mm256_cmp_ps(frac, _mm256_set1_ps(0.5f), _CMP_GE_OQ)));
  r = _mm256_add_epi32(r, _mm256_castps_si256(_mm256_cmp_ps(frac, _mm256_set1_ps(-0.5f), _CMP_LE_OQ)));
  return _mm256_min_epi32(_mm256_max_epi32(_mm256_add_epi32(r, vz), _mm256_set1_epi32(-128)), _mm256_set1_epi32(127));
}

// asymmetric_quantize_with (fixed_point.h), 16 values per step: truncate, then
// +-1 when the fraction reaches one half (round half away from zero), exactly.
__attribute__((target("avx2"))) void asymmetric_quantize_avx2(const float* x, std::int64_t n, float scale,
                                                              std::int32_t zero_point, std::int8_t* q) {
  const float inv = 1.f / scale;
  const __m256 vinv = _mm256_set1_ps(inv);
  const __m256i vz = _mm256_set1_epi32(zero_point);
  std::int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i a = quantize8(x + i, vinv, vz), b = quantize8(x + i + 8, vinv, vz);
    const __m256i p16 = _mm256_permute4x64_epi64(_mm256_packs_epi32(a, b), 0xD8);
    const __m256i p8 = _mm256_packs_epi16(p16, p16);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(q + i),
                     _mm_unpacklo_epi64(_mm256_castsi256_si128(p8), _mm256_extracti128_si256(p8, 1)));
  }
  for (; i < n; ++i) {
    const float v = x[i] * inv;
    std::int32_t r = static_cast<std::int32_t>(v);
    const float frac = v - static_cast<float>(r);
    r += frac >= 0.5f ? 1 : frac <= -0.5f ? -1 : 0;
    r += zero_point;
    q[i] = static_cast<std::int8_t>(r < -128 ? -128 : r > 127 ? 127 : r);
  }
}

}  // namespace ec::runtime::quantized
