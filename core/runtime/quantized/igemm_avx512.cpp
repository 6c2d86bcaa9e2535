// AVX-512 kernels of the int8 path. The VNNI micro-kernel: the same 4 x 16 tile and packing as
// igemm_avx2.cpp, one zmm of B per K pair (16 columns x an int16 pair) and one
// vpdpwssd per row (a0*b0 + a1*b1 added to 16 int32 lanes, no saturation). Two
// sets of accumulators (even and odd K pairs) hide the instruction's latency;
// integer sums are exact, so the tile equals the AVX2 and portable kernels' bit
// for bit. Only this function carries the target attribute.
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
// GCC 12's avx512fintrin.h initialises its "undefined" vectors from themselves, which
// -Wmaybe-uninitialized reports wherever they are inlined (GCC bug 105593; fixed in 13).
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"  // the same bug, reported as certain in dw_store16
#endif
#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {

namespace {
std::atomic<std::int64_t> dw_nhwc_runs{0};
}
std::int64_t dw_nhwc_vnni_runs() { return dw_nhwc_runs.load(); }

#if defined(__x86_64__)
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm_micro_avx512vnni(std::int64_t kp,
                                                                                    const std::int16_t* a,
                                                                                    const std::int16_t* b,
                                                                                    std::int32_t* c) {
  static_assert(kMR == 4 && kNR == 16, "the VNNI micro-kernel is written for 4 x 16 tiles");
  __m512i c0 = _mm512_setzero_si512(), c1 = _mm512_setzero_si512(), c2 = _mm512_setzero_si512(),
          c3 = _mm512_setzero_si512();
  __m512i d0 = _mm512_setzero_si512(), d1 = _mm512_setzero_si512(), d2 = _mm512_setzero_si512(),
          d3 = _mm512_setzero_si512();
  std::int64_t p = 0;
  for (; p + 2 <= kp; p += 2, a += kMR * 4, b += kNR * 4) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + kNR * 2);
    std::int32_t pr[8];
    std::memcpy(pr, a, sizeof pr);  // two K pairs of four (a0, a1) int16 pairs
    c0 = _mm512_dpwssd_epi32(c0, _mm512_set1_epi32(pr[0]), b0);
    c1 = _mm512_dpwssd_epi32(c1, _mm512_set1_epi32(pr[1]), b0);
    c2 = _mm512_dpwssd_epi32(c2, _mm512_set1_epi32(pr[2]), b0);
    c3 = _mm512_dpwssd_epi32(c3, _mm512_set1_epi32(pr[3]), b0);
    d0 = _mm512_dpwssd_epi32(d0, _mm512_set1_epi32(pr[4]), b1);
    d1 = _mm512_dpwssd_epi32(d1, _mm512_set1_epi32(pr[5]), b1);
    d2 = _mm512_dpwssd_epi32(d2, _mm512_set1_epi32(pr[6]), b1);
    d3 = _mm512_dpwssd_epi32(d3, _mm512_set1_epi32(pr[7]), b1);
  }
  if (p < kp) {
    const __m512i b0 = _mm512_loadu_si512(b);
    std::int32_t pr[4];
    std::memcpy(pr, a, sizeof pr);
    c0 = _mm512_dpwssd_epi32(c0, _mm512_set1_epi32(pr[0]), b0);
    c1 = _mm512_dpwssd_epi32(c1, _mm512_set1_epi32(pr[1]), b0);
    c2 = _mm512_dpwssd_epi32(c2, _mm512_set1_epi32(pr[2]), b0);
    c3 = _mm512_dpwssd_epi32(c3, _mm512_set1_epi32(pr[3]), b0);
  }
  // Lane j of row r is column j (pairs sit in lanes 2j, 2j+1 of b).
  _mm512_storeu_si512(c + 0 * kNR, _mm512_add_epi32(c0, d0));
  _mm512_storeu_si512(c + 1 * kNR, _mm512_add_epi32(c1, d1));
  _mm512_storeu_si512(c + 2 * kNR, _mm512_add_epi32(c2, d2));
  _mm512_storeu_si512(c + 3 * kNR, _mm512_add_epi32(c3, d3));
}

namespace {

// Stores the 16 int32 lanes of v (already within int8) as bytes, lanes under mask k: the
// register form of vpmovdb, then a plain store for whole rows (a byte-masked one for tails)
// rather than the masked memory form of vpmovdb on every row.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline void store16_i8(std::int8_t* out,
                                                                                        __mmask16 k, __m512i v) {
  const __m128i b = _mm512_cvtepi32_epi8(v);
  if (k == __mmask16(0xFFFF)) _mm_storeu_si128(reinterpret_cast<__m128i*>(out), b);
  else _mm_mask_storeu_epi8(out, k, b);
}

// SRDHM of the even 32-bit lanes of a (as 64-bit lanes) by m: the quotient in the low 32 bits
// (fixed_point.h saturating_rounding_doubling_high_mul; m < 2^31, so no saturation case).
__attribute__((target("avx512f"))) inline __m512i srdhm_even16(__m512i a, __m512i m64) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i ab = _mm512_mul_epi32(a, m64);
  __m512i v = _mm512_add_epi64(ab, _mm512_mask_blend_epi64(_mm512_cmplt_epi64_mask(ab, zero),
                                                           _mm512_set1_epi64(1LL << 30),
                                                           _mm512_set1_epi64(1 - (1LL << 30))));
  // divide by 2^31 truncating toward zero
  v = _mm512_mask_add_epi64(v, _mm512_cmplt_epi64_mask(v, zero), v, _mm512_set1_epi64((1LL << 31) - 1));
  return _mm512_srli_epi64(v, 31);
}

// 16 lanes of MBQM(x, m, shift) with shift <= 0 (no left shift): SRDHM, then
// RoundingDivideByPOT with ties away from zero (fixed_point.h), bit for bit.
struct Mbqm16 {
  __m512i m64, rmask, rhalf;
  __m128i rc;
};
__attribute__((target("avx512f"))) inline Mbqm16 mbqm16_params(std::int32_t m, int shift) {
  const std::int32_t mask = static_cast<std::int32_t>((1LL << -shift) - 1);
  return {_mm512_set1_epi64(m), _mm512_set1_epi32(mask), _mm512_set1_epi32(mask >> 1), _mm_cvtsi32_si128(-shift)};
}
__attribute__((target("avx512f"))) inline __m512i mbqm16(__m512i x, const Mbqm16& p) {
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  const __m512i even = srdhm_even16(x, p.m64), odd = srdhm_even16(_mm512_srli_epi64(x, 32), p.m64);
  const __m512i h = _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
  const __m512i rem = _mm512_and_si512(h, p.rmask);
  const __m512i thr = _mm512_mask_add_epi32(p.rhalf, _mm512_cmplt_epi32_mask(h, zero), p.rhalf, one);
  const __m512i r = _mm512_sra_epi32(h, p.rc);
  return _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r, one);
}

// MBQM of the even 32-bit lanes of x in one 64-bit step (RequantChannel::single): the
// product with the even lanes of m, the rounding constant, the correction when the
// product is below -2^30, the arithmetic shift by 31 + right; the result in the low half.
// thr is -2^30, or with the bias folded into round (RequantChannel::fold) -2^30 - bias * m.
__attribute__((target("avx512f"))) inline __m512i mbqm_single_even(__m512i x, __m512i m, __m512i round,
                                                                    __m512i correct, __m512i shift, __m512i thr) {
  const __m512i p = _mm512_mul_epi32(x, m);
  const __mmask8 neg = _mm512_cmplt_epi64_mask(p, thr);
  __m512i t = _mm512_add_epi64(p, round);
  t = _mm512_mask_sub_epi64(t, neg, t, correct);
  return _mm512_srav_epi64(t, shift);
}

// 16 lanes: even lanes through mbqm_single_even, odd lanes moved down and back up.
__attribute__((target("avx512f"))) inline __m512i mbqm_single16(__m512i x, __m512i m, const __m512i* round,
                                                                 const __m512i* correct, const __m512i* shift,
                                                                 const __m512i* thr) {
  const __m512i even = mbqm_single_even(x, m, round[0], correct[0], shift[0], thr[0]);
  const __m512i odd = mbqm_single_even(_mm512_srli_epi64(x, 32), _mm512_srli_epi64(m, 32), round[1], correct[1],
                                       shift[1], thr[1]);
  return _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
}

// One channel's single-step constants in vectors.
// (folded: round and thr with the bias inside, RequantChannel::fold; the caller then
// neither adds the bias nor shifts left.)
struct Single16 {
  __m512i m, rd[2], co[2], sh[2], thr[2];
};
__attribute__((target("avx512f"))) inline Single16 single16(const RequantChannel& c, bool folded = false) {
  Single16 r;
  r.m = _mm512_set1_epi32(c.multiplier);
  r.rd[0] = r.rd[1] = _mm512_set1_epi64(folded ? c.round_b : c.round);
  r.co[0] = r.co[1] = _mm512_set1_epi64(c.correct);
  r.sh[0] = r.sh[1] = _mm512_set1_epi64(c.shift64);
  r.thr[0] = r.thr[1] = _mm512_set1_epi64(folded ? c.thr_b : -(std::int64_t(1) << 30));
  return r;
}

}  // namespace

// TFLite's int8 Add, 16 lanes per step (masked tails).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void add_row_avx512(const std::int8_t* a, const std::int8_t* b,
                                                                         std::int64_t n, const AddRowParams& p,
                                                                         std::int8_t* out) {
  const Mbqm16 m1 = mbqm16_params(p.m1, p.shift1), m2 = mbqm16_params(p.m2, p.shift2),
               mo = mbqm16_params(p.mo, p.shift_o);
  const __m512i o1 = _mm512_set1_epi32(p.off1), o2 = _mm512_set1_epi32(p.off2), zo = _mm512_set1_epi32(p.out_zp);
  const __m512i lo = _mm512_set1_epi32(p.lo), hi = _mm512_set1_epi32(p.hi);
  const RequantChannel r1 = requant_channel(0, p.m1, p.shift1), r2 = requant_channel(0, p.m2, p.shift2),
                       ro = requant_channel(0, p.mo, p.shift_o);
  if (r1.single && r2.single && ro.single) {  // each MBQM in one 64-bit step (RequantChannel)
    const Single16 s1 = single16(r1), s2 = single16(r2), so = single16(ro);
    for (std::int64_t i = 0; i < n; i += 16) {
      const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
      __m512i x1 = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i));
      __m512i x2 = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b + i));
      x1 = mbqm_single16(_mm512_slli_epi32(_mm512_add_epi32(x1, o1), 20), s1.m, s1.rd, s1.co, s1.sh, s1.thr);
      x2 = mbqm_single16(_mm512_slli_epi32(_mm512_add_epi32(x2, o2), 20), s2.m, s2.rd, s2.co, s2.sh, s2.thr);
      __m512i r = mbqm_single16(p.sub ? _mm512_sub_epi32(x1, x2) : _mm512_add_epi32(x1, x2), so.m, so.rd, so.co, so.sh, so.thr);
      r = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, zo), lo), hi);
      store16_i8(out + i, k, r);
    }
    return;
  }
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    __m512i x1 = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i));
    __m512i x2 = _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b + i));
    x1 = mbqm16(_mm512_slli_epi32(_mm512_add_epi32(x1, o1), 20), m1);
    x2 = mbqm16(_mm512_slli_epi32(_mm512_add_epi32(x2, o2), 20), m2);
    __m512i r = mbqm16(p.sub ? _mm512_sub_epi32(x1, x2) : _mm512_add_epi32(x1, x2), mo);
    r = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, zo), lo), hi);
    store16_i8(out + i, k, r);
  }
}

__attribute__((target("avx512f,avx512bw,avx512vl"))) void mul_row_avx512(
    const std::int8_t* a, const std::int8_t* b_ptr, bool b_scalar, std::int64_t n, std::int32_t off_a,
    std::int32_t off_b, std::int32_t multiplier, int shift, std::int32_t zp, std::int32_t lo, std::int32_t hi,
    std::int8_t* out) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const __m512i m64 = _mm512_set1_epi64(multiplier), oa = _mm512_set1_epi32(off_a), ob = _mm512_set1_epi32(off_b);
  const __m512i vz = _mm512_set1_epi32(zp), vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  const std::int32_t mask = static_cast<std::int32_t>((1LL << right) - 1);
  const __m512i rmask = _mm512_set1_epi32(mask), rhalf = _mm512_set1_epi32(mask >> 1), one = _mm512_set1_epi32(1);
  const __m128i lc = _mm_cvtsi32_si128(left), rc = _mm_cvtsi32_si128(right);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i bs = _mm512_set1_epi32(std::int32_t(b_ptr[0]) + off_b);
  const RequantChannel c = requant_channel(0, multiplier, shift);
  if (c.single) {  // MBQM in one 64-bit step (RequantChannel)
    const Single16 s = single16(c);
    for (std::int64_t i = 0; i < n; i += 16) {
      const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
      const __m512i x1 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i)), oa);
      const __m512i x2 =
          b_scalar ? bs : _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b_ptr + i)), ob);
      const __m512i x = _mm512_sll_epi32(_mm512_mullo_epi32(x1, x2), lc);
      const __m512i r = mbqm_single16(x, s.m, s.rd, s.co, s.sh, s.thr);
      store16_i8(out + i, k, _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, vz), vlo), vhi));
    }
    return;
  }
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    const __m512i x1 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i)), oa);
    const __m512i x2 =
        b_scalar ? bs : _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b_ptr + i)), ob);
    const __m512i x = _mm512_sll_epi32(_mm512_mullo_epi32(x1, x2), lc);  // |product| <= 2^16: exact
    const __m512i even = srdhm_even16(x, m64), odd = srdhm_even16(_mm512_srli_epi64(x, 32), m64);
    const __m512i h = _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
    const __m512i rem = _mm512_and_si512(h, rmask);
    const __m512i thr = _mm512_mask_add_epi32(rhalf, _mm512_cmplt_epi32_mask(h, zero), rhalf, one);
    __m512i r = _mm512_sra_epi32(h, rc);
    r = _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r, one);
    r = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, vz), vlo), vhi);
    store16_i8(out + i, k, r);
  }
}

// The 16-lane form of requant_row_avx2 (same arithmetic, bit for bit); partial
// blocks use masked loads and stores instead of a bounce buffer.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_row_avx512(const std::int32_t* acc, std::int64_t n,
                                                            std::int32_t bias, std::int32_t multiplier, int shift,
                                                            std::int32_t zp, std::int32_t lo, std::int32_t hi,
                                                            std::int8_t* out) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const __m512i m64 = _mm512_set1_epi64(multiplier), vb = _mm512_set1_epi32(bias), vz = _mm512_set1_epi32(zp);
  const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi), one = _mm512_set1_epi32(1);
  const std::int32_t mask = static_cast<std::int32_t>((1LL << right) - 1);
  const __m512i rmask = _mm512_set1_epi32(mask), rhalf = _mm512_set1_epi32(mask >> 1);
  const __m128i lc = _mm_cvtsi32_si128(left), rc = _mm_cvtsi32_si128(right);
  const __m512i zero = _mm512_setzero_si512();
  const RequantChannel c = requant_channel(bias, multiplier, shift);
  if (c.single) {  // one 64-bit rounding step (RequantChannel)
    const Single16 k = single16(c);
    for (std::int64_t j = 0; j < n; j += 16) {
      const __mmask16 m = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1);
      const __m512i x = _mm512_sll_epi32(_mm512_add_epi32(_mm512_maskz_loadu_epi32(m, acc + j), vb), lc);
      const __m512i r = mbqm_single16(x, k.m, k.rd, k.co, k.sh, k.thr);
      store16_i8(out + j, m, _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, vz), vlo), vhi));
    }
    return;
  }
  for (std::int64_t j = 0; j < n; j += 16) {
    const __mmask16 m = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1);
    __m512i x = _mm512_add_epi32(_mm512_maskz_loadu_epi32(m, acc + j), vb);
    x = _mm512_sll_epi32(x, lc);  // wraps like the scalar form
    const __m512i even = srdhm_even16(x, m64), odd = srdhm_even16(_mm512_srli_epi64(x, 32), m64);
    const __m512i h = _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
    // RoundingDivideByPOT(h, right): ties away from zero.
    const __m512i rem = _mm512_and_si512(h, rmask);
    const __m512i thr = _mm512_mask_add_epi32(rhalf, _mm512_cmplt_epi32_mask(h, zero), rhalf, one);
    __m512i r = _mm512_sra_epi32(h, rc);
    r = _mm512_mask_add_epi32(r, _mm512_cmpgt_epi32_mask(rem, thr), r, one);
    r = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(r, vz), vlo), vhi);
    store16_i8(out + j, m, r);  // in [lo, hi] within int8: exact
  }
}

// The VNNI micro-kernels (igemm_u8.h): 8 rows x 16 columns per panel, one or two panels
// (8 or 16 zmm accumulators); per K quad one load per panel and per row one broadcast of
// four bytes, then one vpdpbusd per panel (four u8*s8 products added to each int32 lane,
// no saturation: |sum| <= 4 * 255 * 128 per step). Conv (igemm4): the broadcast side is the
// s8 weights, the panels the u8 activations; Linear (igemm_rows4, Swapped): the broadcast
// side is the u8 activation rows, the panels the s8 weights. Two panels feed each
// broadcast twice: 1.35x the products per second of one panel on Zen 4, hot in cache.
// Rows < kMR4 computes (and stores) only the first Rows rows of each tile: a batch-1
// FullyConnected's single activation row.
template <bool Swapped, int Panels, typename TA, typename TB, int Rows = kMR4>
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void vnni_micro(
    std::int64_t kq, const TA* a, const TB* const* b, std::int32_t* c) {
  static_assert(kMR4 == 8 && kNR == 16, "the VNNI micro-kernels are written for 8 x 16 tiles");
  __m512i acc[Panels][Rows];
#pragma GCC unroll 16
  for (int p = 0; p < Panels; ++p)
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) acc[p][r] = _mm512_setzero_si512();
  for (std::int64_t q = 0; q < kq; ++q) {
    __m512i bv[Panels];
#pragma GCC unroll 2
    for (int p = 0; p < Panels; ++p) bv[p] = _mm512_loadu_si512(b[p] + q * kNR * 4);
    std::int32_t pr[Rows];
    std::memcpy(pr, a + q * kMR4 * 4, sizeof pr);  // four bytes of each row
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) {
      const __m512i w = _mm512_set1_epi32(pr[r]);
#pragma GCC unroll 2
      for (int p = 0; p < Panels; ++p)
        acc[p][r] = Swapped ? _mm512_dpbusd_epi32(acc[p][r], w, bv[p]) : _mm512_dpbusd_epi32(acc[p][r], bv[p], w);
    }
  }
#pragma GCC unroll 2
  for (int p = 0; p < Panels; ++p)
#pragma GCC unroll 8
    for (int r = 0; r < Rows; ++r) _mm512_storeu_si512(c + (p * kMR4 + r) * kNR, acc[p][r]);
}

__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm4_micro_avx512vnni(std::int64_t kq,
                                                                                     const std::int8_t* a,
                                                                                     const std::uint8_t* b,
                                                                                     std::int32_t* c) {
  const std::uint8_t* bs[1] = {b};
  vnni_micro<false, 1>(kq, a, bs, c);
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm4_micro2_avx512vnni(std::int64_t kq,
                                                                                      const std::int8_t* a,
                                                                                      const std::uint8_t* b0,
                                                                                      const std::uint8_t* b1,
                                                                                      std::int32_t* c) {
  const std::uint8_t* bs[2] = {b0, b1};
  vnni_micro<false, 2>(kq, a, bs, c);
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm_rows4_micro_avx512vnni(std::int64_t kq,
                                                                                         const std::uint8_t* a,
                                                                                         const std::int8_t* b,
                                                                                         std::int32_t* c) {
  const std::int8_t* bs[1] = {b};
  vnni_micro<true, 1>(kq, a, bs, c);
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm_rows4_micro2_avx512vnni(std::int64_t kq,
                                                                                          const std::uint8_t* a,
                                                                                          const std::int8_t* b0,
                                                                                          const std::int8_t* b1,
                                                                                          std::int32_t* c) {
  const std::int8_t* bs[2] = {b0, b1};
  vnni_micro<true, 2>(kq, a, bs, c);
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm_row1_micro_avx512vnni(std::int64_t kq,
                                                                                        const std::uint8_t* a,
                                                                                        const std::int8_t* b,
                                                                                        std::int32_t* c) {
  const std::int8_t* bs[1] = {b};
  vnni_micro<true, 1, std::uint8_t, std::int8_t, 1>(kq, a, bs, c);
}
__attribute__((target("avx512f,avx512bw,avx512vnni"))) void igemm_row1_micro2_avx512vnni(std::int64_t kq,
                                                                                         const std::uint8_t* a,
                                                                                         const std::int8_t* b0,
                                                                                         const std::int8_t* b1,
                                                                                         std::int32_t* c) {
  const std::int8_t* bs[2] = {b0, b1};
  vnni_micro<true, 2, std::uint8_t, std::int8_t, 1>(kq, a, bs, c);
}


// Per row: the channel's constants broadcast from memory, then requant_row_avx512's
// arithmetic on the row's 16 lanes (masked when nr < 16).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_tile_avx512(const std::int32_t* tile, int mr, int nr,
                                                                     const RequantChannel* ch, std::int32_t zp,
                                                                     std::int32_t lo, std::int32_t hi,
                                                                     std::int8_t* out, std::int64_t out_stride) {
  const __mmask16 m = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
  const __m512i vz = _mm512_set1_epi32(zp), vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  const __m512i zero = _mm512_setzero_si512(), one = _mm512_set1_epi32(1);
  for (int r = 0; r < mr; ++r, tile += kNR, out += out_stride) {
    const RequantChannel& c = ch[r];
    if (c.fold) {  // the bias inside the rounding constant, no left shift: two ops fewer
      const Single16 k = single16(c, true);
      __m512i q = mbqm_single16(_mm512_loadu_si512(tile), k.m, k.rd, k.co, k.sh, k.thr);
      q = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(q, vz), vlo), vhi);
      store16_i8(out, m, q);
      continue;
    }
    __m512i x = _mm512_add_epi32(_mm512_loadu_si512(tile), _mm512_set1_epi32(c.bias));
    x = _mm512_sllv_epi32(x, _mm512_set1_epi32(c.left));  // wraps like the scalar form
    if (c.single) {
      const Single16 k = single16(c);
      __m512i q = mbqm_single16(x, k.m, k.rd, k.co, k.sh, k.thr);
      q = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(q, vz), vlo), vhi);
      store16_i8(out, m, q);
      continue;
    }
    const __m512i m64 = _mm512_set1_epi64(c.multiplier);
    const __m512i even = srdhm_even16(x, m64), odd = srdhm_even16(_mm512_srli_epi64(x, 32), m64);
    const __m512i h = _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
    const __m512i rhalf = _mm512_set1_epi32(c.rhalf);
    const __m512i rem = _mm512_and_si512(h, _mm512_set1_epi32(c.rmask));
    const __m512i thr = _mm512_mask_add_epi32(rhalf, _mm512_cmplt_epi32_mask(h, zero), rhalf, one);
    __m512i q = _mm512_srav_epi32(h, _mm512_set1_epi32(c.right));
    q = _mm512_mask_add_epi32(q, _mm512_cmpgt_epi32_mask(rem, thr), q, one);
    q = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(q, vz), vlo), vhi);
    store16_i8(out, m, q);
  }
}


// Per row of the tile (an activation row): the panel's per-lane constants, one step.
__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_cols_avx512(const std::int32_t* tile, int mr, int nr,
                                                                     const RequantPanel& p, std::int32_t zp,
                                                                     std::int32_t lo, std::int32_t hi,
                                                                     std::int8_t* out, std::int64_t out_stride) {
  const __mmask16 m = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
  const __m512i vz = _mm512_set1_epi32(zp), vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  const __m512i bias = _mm512_load_si512(p.bias), mult = _mm512_load_si512(p.multiplier),
                left = _mm512_load_si512(p.left);
  const __m512i rd[2] = {_mm512_load_si512(p.round[0]), _mm512_load_si512(p.round[1])};
  const __m512i co[2] = {_mm512_load_si512(p.correct[0]), _mm512_load_si512(p.correct[1])};
  const __m512i sh[2] = {_mm512_load_si512(p.shift64[0]), _mm512_load_si512(p.shift64[1])};
  for (int r = 0; r < mr; ++r, tile += kNR, out += out_stride) {
    __m512i x = _mm512_sllv_epi32(_mm512_add_epi32(_mm512_loadu_si512(tile), bias), left);
    const __m512i th[2] = {_mm512_set1_epi64(-(std::int64_t(1) << 30)), _mm512_set1_epi64(-(std::int64_t(1) << 30))};
    __m512i q = mbqm_single16(x, mult, rd, co, sh, th);
    q = _mm512_min_epi32(_mm512_max_epi32(_mm512_add_epi32(q, vz), vlo), vhi);
    store16_i8(out, m, q);
  }
}

// Channels-last sums: the panels' constants along each pixel's channels.
namespace {
// One panel's requantisation constants (requant_panels) in vectors: lane j is channel
// 16 * panel + j.
// (fold: the biases inside rd and th; acc then needs neither the add nor the shift.)
struct PanelVec {
  __m512i bias, mult, left, rd[2], co[2], sh[2], th[2];
  bool fold;
};
__attribute__((target("avx512f"), always_inline)) inline PanelVec panel_vec(const RequantPanel& p) {
  PanelVec v;
  v.fold = p.fold;
  v.bias = _mm512_load_si512(p.bias);
  v.mult = _mm512_load_si512(p.multiplier);
  v.left = _mm512_load_si512(p.left);
  for (int h = 0; h < 2; ++h) {
    v.rd[h] = _mm512_load_si512(p.fold ? p.round_b[h] : p.round[h]);
    v.co[h] = _mm512_load_si512(p.correct[h]);
    v.sh[h] = _mm512_load_si512(p.shift64[h]);
    v.th[h] = p.fold ? _mm512_load_si512(p.thr_b[h]) : _mm512_set1_epi64(-(std::int64_t(1) << 30));
  }
  return v;
}
// clamp(MBQM(acc + bias) + zp, lo, hi) of 16 channels' sums.
__attribute__((target("avx512f"), always_inline)) inline __m512i requant_panel16(__m512i acc, const PanelVec& v,
                                                                                 __m512i zp, __m512i lo, __m512i hi) {
  const __m512i x = v.fold ? acc : _mm512_sllv_epi32(_mm512_add_epi32(acc, v.bias), v.left);
  const __m512i q = _mm512_add_epi32(mbqm_single16(x, v.mult, v.rd, v.co, v.sh, v.th), zp);
  return _mm512_min_epi32(_mm512_max_epi32(q, lo), hi);
}
}  // namespace

__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_nhwc_avx512(const std::int32_t* acc,
                                                                     std::int64_t pixels, std::int64_t channels,
                                                                     const RequantPanel* panels, std::int32_t zp,
                                                                     std::int32_t lo, std::int32_t hi,
                                                                     std::int8_t* out) {
  const __m512i vz = _mm512_set1_epi32(zp), vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  for (std::int64_t c0 = 0; c0 < channels; c0 += kNR) {
    const PanelVec v = panel_vec(panels[c0 / kNR]);
    const std::int64_t nr = std::min<std::int64_t>(kNR, channels - c0);
    const __mmask16 m = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
    const std::int32_t* a = acc + c0;
    std::int8_t* o = out + c0;
    for (std::int64_t r = 0; r < pixels; ++r, a += channels, o += channels)
      store16_i8(o, m, requant_panel16(_mm512_maskz_loadu_epi32(m, a), v, vz, vlo, vhi));
  }
}

// One channel of an int8 depthwise convolution (igemm_u8.h dw_channel_vnni): per kernel
// row, tap pairs (w[2p], w[2p+1]) (the last one (w, 0) when KW is odd) meet int16 pairs of
// the plane read at an offset, so one vpdpwssd adds two taps to 16 outputs:
//   stride 2: lane i at int16 offset 2 (j0 + i) + 2p holds (x[2j + 2p], x[2j + 2p + 1]) for
//             output j = j0 + i: outputs in order;
//   stride 1: lanes at offset j0 + 2p hold the pairs of the even outputs j0 + 2i, at
//             offset j0 + 1 + 2p those of the odd ones; two permutes put 32 in order.
// The sums are requantised in registers (RequantChannel, single step or the two roundings
// through the scalar form) and stored as int8.
namespace {
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline void dw_store16(__m512i acc, const RequantChannel& c,
                                                                    std::int32_t zp, std::int32_t lo, std::int32_t hi,
                                                                    std::int8_t* out, int n) {
  const __mmask16 m = n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
  __m512i q;
  if (c.fold) {
    const Single16 k = single16(c, true);
    q = _mm512_add_epi32(mbqm_single16(acc, k.m, k.rd, k.co, k.sh, k.thr), _mm512_set1_epi32(zp));
  } else if (c.single) {
    const __m512i x = _mm512_sllv_epi32(_mm512_add_epi32(acc, _mm512_set1_epi32(c.bias)), _mm512_set1_epi32(c.left));
    const Single16 k = single16(c);
    q = _mm512_add_epi32(mbqm_single16(x, k.m, k.rd, k.co, k.sh, k.thr), _mm512_set1_epi32(zp));
  } else {
    alignas(64) std::int32_t v[16];
    _mm512_store_si512(v, acc);
    for (int i = 0; i < 16; ++i) {
      const auto x = static_cast<std::int32_t>(static_cast<std::uint32_t>(v[i]) + static_cast<std::uint32_t>(c.bias));
      v[i] = multiply_by_quantized_multiplier(x, c.multiplier, c.left - c.right) + zp;
    }
    q = _mm512_load_si512(v);
  }
  q = _mm512_min_epi32(_mm512_max_epi32(q, _mm512_set1_epi32(lo)), _mm512_set1_epi32(hi));
  store16_i8(out, m, q);
}
// 32 sums at plane offsets base + i (stride 1): the pairs at even and at odd offsets, then
// permuted into order (outputs base + 0..15 in first, + 16..31 in second).
__attribute__((target("avx512f,avx512bw,avx512vnni"), always_inline)) inline void dw_sums32(
    const DwChannel& d, const __m512i* wp, std::int64_t pairs, const std::int16_t* base, __m512i lo_idx,
    __m512i hi_idx, __m512i& first, __m512i& second) {
  __m512i even = _mm512_setzero_si512(), odd = _mm512_setzero_si512();
  for (std::int64_t kh = 0; kh < d.KH; ++kh) {
    const std::int16_t* r = base + kh * d.dh * d.RS;
    for (std::int64_t p = 0; p < pairs; ++p) {
      const __m512i wv = wp[kh * pairs + p];
      even = _mm512_dpwssd_epi32(even, _mm512_loadu_si512(r + 2 * p), wv);
      odd = _mm512_dpwssd_epi32(odd, _mm512_loadu_si512(r + 2 * p + 1), wv);
    }
  }
  first = _mm512_permutex2var_epi32(even, lo_idx, odd);
  second = _mm512_permutex2var_epi32(even, hi_idx, odd);
}
}  // namespace

__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void dw_channel_vnni(const DwChannel& d,
                                                                             const std::int16_t* plane,
                                                                             const std::int8_t* w,
                                                                             const RequantChannel& c, std::int8_t* out) {
  const std::int64_t pairs = (d.KW + 1) / 2;
  __m512i wp[64];
  for (std::int64_t kh = 0; kh < d.KH; ++kh)
    for (std::int64_t p = 0; p < pairs; ++p) {
      const std::int64_t k0 = kh * d.KW + 2 * p;
      const auto a = static_cast<std::uint16_t>(std::int16_t(w[k0]));
      const auto b = static_cast<std::uint16_t>(2 * p + 1 < d.KW ? std::int16_t(w[k0 + 1]) : std::int16_t(0));
      wp[kh * pairs + p] = _mm512_set1_epi32(static_cast<std::int32_t>(a | (std::uint32_t(b) << 16)));
    }
  const __m512i lo_idx = _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  const __m512i hi_idx = _mm512_setr_epi32(8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
  if (d.sw == 1 && d.sh == 1 && d.RS <= 16) {
    // Small planes: the rows are contiguous in the plane (row stride RS), so 32 sums at
    // plane offset oh0 * RS cover the outputs of 32 / RS rows at once (lanes past OW in a
    // row are computed and dropped).
    const std::int64_t T = 32 / d.RS;
    alignas(64) std::int8_t buf[32];
    for (std::int64_t oh0 = 0; oh0 < d.OH; oh0 += T) {
      __m512i a, b;
      dw_sums32(d, wp, pairs, plane + oh0 * d.RS, lo_idx, hi_idx, a, b);
      dw_store16(a, c, d.zp, d.lo, d.hi, buf, 16);
      dw_store16(b, c, d.zp, d.lo, d.hi, buf + 16, 16);
      for (std::int64_t t = 0; t < T && oh0 + t < d.OH; ++t) std::memcpy(out + (oh0 + t) * d.OW, buf + t * d.RS, d.OW);
    }
    return;
  }
  for (std::int64_t oh = 0; oh < d.OH; ++oh) {
    const std::int16_t* r0 = plane + oh * d.sh * d.RS;
    std::int8_t* o = out + oh * d.OW;
    if (d.sw == 2) {
      for (std::int64_t j0 = 0; j0 < d.OW; j0 += 16) {
        __m512i acc = _mm512_setzero_si512();
        for (std::int64_t kh = 0; kh < d.KH; ++kh) {
          const std::int16_t* r = r0 + kh * d.dh * d.RS + 2 * j0;
          for (std::int64_t p = 0; p < pairs; ++p)
            acc = _mm512_dpwssd_epi32(acc, _mm512_loadu_si512(r + 2 * p), wp[kh * pairs + p]);
        }
        dw_store16(acc, c, d.zp, d.lo, d.hi, o + j0, static_cast<int>(std::min<std::int64_t>(16, d.OW - j0)));
      }
      continue;
    }
    for (std::int64_t j0 = 0; j0 < d.OW; j0 += 32) {
      __m512i a, b;
      dw_sums32(d, wp, pairs, r0 + j0, lo_idx, hi_idx, a, b);
      const std::int64_t left = d.OW - j0;
      dw_store16(a, c, d.zp, d.lo, d.hi, o + j0, static_cast<int>(std::min<std::int64_t>(16, left)));
      if (left > 16) dw_store16(b, c, d.zp, d.lo, d.hi, o + j0 + 16, static_cast<int>(std::min<std::int64_t>(16, left - 16)));
    }
  }
}

// A depthwise plane row: dst[i] = src[i] - z, i < n (int8 -> int16, 32 per step).
__attribute__((target("avx512f,avx512bw,avx512vl"))) void widen_sub_avx512(const std::int8_t* src, std::int64_t n,
                                                                   std::int32_t z, std::int16_t* dst) {
  const __m512i vz = _mm512_set1_epi16(static_cast<short>(z));
  for (std::int64_t i = 0; i < n; i += 32) {
    const __mmask32 m = n - i >= 32 ? __mmask32(0xFFFFFFFFu) : __mmask32((1u << (n - i)) - 1);
    const __m512i v = _mm512_cvtepi8_epi16(_mm256_maskz_loadu_epi8(m, src + i));
    _mm512_mask_storeu_epi16(dst + i, m, _mm512_sub_epi16(v, vz));
  }
}

// pack_b4_strided for contiguous rows: four rows of 16 bytes interleaved into
// 16 columns of 4 bytes (byte, then word unpacks), flipped to uint8. Partial
// panels and the last K quad take the plain loop (the same bytes).
__attribute__((target("avx512f,avx512bw"))) void pack_b4_rows_avx512(const std::int8_t* base, std::int64_t K,
                                                                     std::int64_t kq, std::int64_t rs,
                                                                     std::int64_t j0, std::int64_t nc,
                                                                     std::uint8_t* out) {
  const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));
  const std::int64_t panels = (nc + kNR - 1) / kNR;
  // Four whole panels (64 columns) per step: the same byte and word unpacks on zmm give
  // one panel's quads per 128-bit lane, a 4 x 4 transpose of lanes puts each panel's 64
  // bytes together.
  const std::int64_t grouped = nc / (4 * kNR) * 4, kfull = K / 4;
  const __m512i flip512 = _mm512_set1_epi8(static_cast<char>(0x80));
  for (std::int64_t pn = 0; pn < grouped; pn += 4) {
    const std::int8_t* col0 = base + j0 + pn * kNR;
    for (std::int64_t q = 0; q < kfull; ++q) {
      const std::int8_t* r = col0 + 4 * q * rs;
      const __m512i r0 = _mm512_xor_si512(_mm512_loadu_si512(r), flip512);
      const __m512i r1 = _mm512_xor_si512(_mm512_loadu_si512(r + rs), flip512);
      const __m512i r2 = _mm512_xor_si512(_mm512_loadu_si512(r + 2 * rs), flip512);
      const __m512i r3 = _mm512_xor_si512(_mm512_loadu_si512(r + 3 * rs), flip512);
      const __m512i t01l = _mm512_unpacklo_epi8(r0, r1), t01h = _mm512_unpackhi_epi8(r0, r1);
      const __m512i t23l = _mm512_unpacklo_epi8(r2, r3), t23h = _mm512_unpackhi_epi8(r2, r3);
      const __m512i q0 = _mm512_unpacklo_epi16(t01l, t23l), q1 = _mm512_unpackhi_epi16(t01l, t23l);
      const __m512i q2 = _mm512_unpacklo_epi16(t01h, t23h), q3 = _mm512_unpackhi_epi16(t01h, t23h);
      const __m512i u0 = _mm512_shuffle_i64x2(q0, q1, 0x44), u1 = _mm512_shuffle_i64x2(q0, q1, 0xEE);
      const __m512i u2 = _mm512_shuffle_i64x2(q2, q3, 0x44), u3 = _mm512_shuffle_i64x2(q2, q3, 0xEE);
      std::uint8_t* o = out + pn * kq * kNR * 4 + q * kNR * 4;
      _mm512_storeu_si512(o, _mm512_shuffle_i64x2(u0, u2, 0x88));                       // panel pn
      _mm512_storeu_si512(o + kq * kNR * 4, _mm512_shuffle_i64x2(u0, u2, 0xDD));        // pn + 1
      _mm512_storeu_si512(o + 2 * kq * kNR * 4, _mm512_shuffle_i64x2(u1, u3, 0x88));    // pn + 2
      _mm512_storeu_si512(o + 3 * kq * kNR * 4, _mm512_shuffle_i64x2(u1, u3, 0xDD));    // pn + 3
    }
  }
  for (std::int64_t pn = 0; pn < panels; ++pn) {
    const int w = static_cast<int>(std::min<std::int64_t>(kNR, nc - pn * kNR));
    std::uint8_t* o = out + pn * kq * kNR * 4;
    const std::int8_t* col0 = base + j0 + pn * kNR;
    for (std::int64_t q = 0; q < kq; ++q, o += kNR * 4) {
      if (pn < grouped && q < kfull) continue;  // done above
      if (w == kNR && 4 * q + 3 < K) {
        const std::int8_t* r = col0 + 4 * q * rs;
        const __m128i r0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r));
        const __m128i r1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + rs));
        const __m128i r2 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + 2 * rs));
        const __m128i r3 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(r + 3 * rs));
        const __m128i t01l = _mm_unpacklo_epi8(r0, r1), t01h = _mm_unpackhi_epi8(r0, r1);
        const __m128i t23l = _mm_unpacklo_epi8(r2, r3), t23h = _mm_unpackhi_epi8(r2, r3);
        auto* d = reinterpret_cast<__m128i*>(o);
        _mm_storeu_si128(d + 0, _mm_xor_si128(_mm_unpacklo_epi16(t01l, t23l), flip));  // columns 0-3
        _mm_storeu_si128(d + 1, _mm_xor_si128(_mm_unpackhi_epi16(t01l, t23l), flip));  // 4-7
        _mm_storeu_si128(d + 2, _mm_xor_si128(_mm_unpacklo_epi16(t01h, t23h), flip));  // 8-11
        _mm_storeu_si128(d + 3, _mm_xor_si128(_mm_unpackhi_epi16(t01h, t23h), flip));  // 12-15
        continue;
      }
      for (int j = 0; j < kNR; ++j)
        for (int t = 0; t < 4; ++t) {
          const std::int64_t k = 4 * q + t;
          const std::int8_t v = j < w && k < K ? col0[k * rs + j] : 0;
          o[4 * j + t] = static_cast<std::uint8_t>(v ^ 0x80);
        }
    }
  }
}

// ---- Channels-last depthwise convolution (igemm_u8.h dw_nhwc_vnni).
// A pair row of input row `row` (null: a row outside the input) holds at position q, for
// every channel c, the int32 (t(q - pl) | t(q - pl + 1) << 16) with t(i) = x[i, c] - zx
// as int16 (0 outside the row): the two taps (2p, 2p + 1) of output ow meet the pair at
// q = ow sw + 2p. Positions are [0, QW) (only even ones when the stride is even: no
// output reads an odd one); Cp = channels rounded up to 16.
namespace {
// t(i) of 16 channels from c0 (lanes past C: 0).
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline __m512i dw_tap16(
    const DwNhwc& d, const std::int8_t* row, std::int64_t i, std::int64_t c0, __mmask16 m, __m512i vz) {
  if (i < 0 || i >= d.W) return _mm512_setzero_si512();
  return _mm512_maskz_sub_epi32(m, _mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, row + i * d.C + c0)), vz);
}
// a & 0xFFFF | b << 16
__attribute__((target("avx512f"), always_inline)) inline __m512i dw_pair16(__m512i a, __m512i b) {
  return _mm512_ternarylogic_epi32(_mm512_set1_epi32(0xFFFF), a, _mm512_slli_epi32(b, 16), 0xEA);
}
// The pair of inputs i, i + 1 (both inside the row) for 16 whole channels from p: the
// bytes interleaved (a0 b0 a1 b1 ...), widened to int16 and zx taken off.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline __m512i dw_pair_inner(
    const std::int8_t* p, std::int64_t C, __m512i vz16) {
  const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + C));
  const __m256i ab = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi8(a, b)),
                                             _mm_unpackhi_epi8(a, b), 1);
  return _mm512_sub_epi16(_mm512_cvtepi8_epi16(ab), vz16);
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) void dw_pair_row(const DwNhwc& d, const std::int8_t* row,
                                                              std::int64_t QW, std::int64_t Cp, std::int32_t* Q) {
  const __m512i vz = _mm512_set1_epi32(d.zx), vz16 = _mm512_set1_epi16(static_cast<short>(d.zx));
  const std::int64_t dq = d.sw % 2 == 0 ? 2 : 1;  // even stride: even positions only
  // Positions whose pair lies inside the row: q - pl >= 0 and q - pl + 1 < W. The row is
  // read in order (position by position, its channels together), as it lies in memory.
  const std::int64_t qa = d.pl, qb = std::min(QW, d.W - 1 + d.pl);
  for (std::int64_t q = 0; q < QW; q += dq) {
    const bool inner = q >= qa && q < qb;
    std::int32_t* o = Q + q * Cp;
    for (std::int64_t c0 = 0; c0 < d.C; c0 += 16) {
      const __mmask16 m = d.C - c0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (d.C - c0)) - 1);
      _mm512_storeu_si512(o + c0, inner && m == __mmask16(0xFFFF)
                                      ? dw_pair_inner(row + (q - d.pl) * d.C + c0, d.C, vz16)
                                      : dw_pair16(dw_tap16(d, row, q - d.pl, c0, m, vz),
                                                  dw_tap16(d, row, q - d.pl + 1, c0, m, vz)));
    }
  }
}

// Output rows [r0, r1) of the N * OH, KH x KW known at compile time (or 0: d's). The
// pair rows live in a ring of KH slots (input row ih of image n in slot (n H + ih) % KH:
// the KH rows an output row reads are in different slots), built on first use.
template <int KHc, int KWc>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void dw_nhwc_rows(
    const DwNhwc& d, const std::int8_t* x, const std::int32_t* wpk, const RequantPanel* panels, std::int8_t* y,
    std::int64_t r0, std::int64_t r1) {
  const std::int64_t KH = KHc ? KHc : d.KH, KW = KWc ? KWc : d.KW, P = (KW + 1) / 2, T = KH * P;
  const std::int64_t Cp = (d.C + 15) / 16 * 16, QW = (d.OW - 1) * d.sw + 2 * P - 1, len = QW * Cp;
  thread_local std::vector<std::int32_t> ring;
  ring.resize(static_cast<std::size_t>((KH + 1) * len));
  std::int32_t* zero = ring.data() + KH * len;
  std::fill(zero, zero + len, 0);
  std::int64_t tag[64];
  std::fill(tag, tag + KH, -1);
  const __m512i vz = _mm512_set1_epi32(d.zp), vlo = _mm512_set1_epi32(d.lo), vhi = _mm512_set1_epi32(d.hi);
  const std::int64_t step = d.sw * Cp;
  for (std::int64_t r = r0; r < r1; ++r) {
    const std::int64_t n = r / d.OH, oh = r % d.OH;
    const std::int32_t* rows[64];
    for (std::int64_t kh = 0; kh < KH; ++kh) {
      const std::int64_t ih = oh * d.sh - d.pt + kh;
      if (ih < 0 || ih >= d.H) {
        rows[kh] = zero;
        continue;
      }
      const std::int64_t key = n * d.H + ih, slot = key % KH;
      std::int32_t* q = ring.data() + slot * len;
      if (tag[slot] != key) {
        dw_pair_row(d, x + key * d.W * d.C, QW, Cp, q);
        tag[slot] = key;
      }
      rows[kh] = q;
    }
    std::int8_t* yr = y + r * d.OW * d.C;
    for (std::int64_t c0 = 0; c0 < d.C; c0 += 16) {
      const __mmask16 m = d.C - c0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (d.C - c0)) - 1);
      __m512i wv[KHc && KWc ? KHc * ((KWc + 1) / 2) : 64];
      for (std::int64_t k = 0; k < T; ++k) wv[k] = _mm512_loadu_si512(wpk + ((c0 / 16) * T + k) * 16);
      const PanelVec pv = panel_vec(panels[c0 / 16]);
      std::int64_t ow = 0;
      for (; ow + 4 <= d.OW; ow += 4) {
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        for (std::int64_t kh = 0; kh < KH; ++kh) {
          const std::int32_t* b = rows[kh] + ow * step + c0;
          for (std::int64_t p = 0; p < P; ++p, b += 2 * Cp) {
            const __m512i w = wv[kh * P + p];
            a0 = _mm512_dpwssd_epi32(a0, _mm512_loadu_si512(b), w);
            a1 = _mm512_dpwssd_epi32(a1, _mm512_loadu_si512(b + step), w);
            a2 = _mm512_dpwssd_epi32(a2, _mm512_loadu_si512(b + 2 * step), w);
            a3 = _mm512_dpwssd_epi32(a3, _mm512_loadu_si512(b + 3 * step), w);
          }
        }
        std::int8_t* o = yr + ow * d.C + c0;
        store16_i8(o, m, requant_panel16(a0, pv, vz, vlo, vhi));
        store16_i8(o + d.C, m, requant_panel16(a1, pv, vz, vlo, vhi));
        store16_i8(o + 2 * d.C, m, requant_panel16(a2, pv, vz, vlo, vhi));
        store16_i8(o + 3 * d.C, m, requant_panel16(a3, pv, vz, vlo, vhi));
      }
      for (; ow < d.OW; ++ow) {
        __m512i a0 = _mm512_setzero_si512();
        for (std::int64_t kh = 0; kh < KH; ++kh) {
          const std::int32_t* b = rows[kh] + ow * step + c0;
          for (std::int64_t p = 0; p < P; ++p, b += 2 * Cp) a0 = _mm512_dpwssd_epi32(a0, _mm512_loadu_si512(b), wv[kh * P + p]);
        }
        store16_i8(yr + ow * d.C + c0, m, requant_panel16(a0, pv, vz, vlo, vhi));
      }
    }
  }
}
}  // namespace

void dw_nhwc_vnni(const DwNhwc& d, const std::int8_t* x, const std::int32_t* w_packed, const RequantPanel* panels,
                  std::int8_t* y) {
  const std::int64_t rows = d.N * d.OH;
  if (rows == 0 || d.OW == 0 || d.C == 0) return;
  dw_nhwc_runs.fetch_add(1, std::memory_order_relaxed);
  // A few chunks per thread: each builds its first KH pair rows again, the rest once.
  const std::int64_t threads = current_threads(), chunks = threads <= 1 ? 1 : std::min(rows, threads * 4);
  auto rows_of = d.KH == 3 && d.KW == 3   ? dw_nhwc_rows<3, 3>
                 : d.KH == 5 && d.KW == 5 ? dw_nhwc_rows<5, 5>
                                          : dw_nhwc_rows<0, 0>;
  parallel_for(chunks, [&](std::int64_t i) {
    rows_of(d, x, w_packed, panels, y, rows * i / chunks, rows * (i + 1) / chunks);
  });
}
#endif

}  // namespace ec::runtime::quantized
