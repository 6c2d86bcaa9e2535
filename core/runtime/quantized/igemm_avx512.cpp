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
#include <numeric>
#include <vector>

#include "core/runtime/quantized/igemm.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {

namespace {
std::atomic<std::int64_t> dw_nhwc_runs{0};
std::atomic<bool> dw_plain_quads{false};
std::atomic<std::int64_t> pw_nhwc_runs{0};
std::atomic<std::int64_t> dw_after_runs{0};
}  // namespace
std::int64_t dw_nhwc_vnni_runs() { return dw_nhwc_runs.load(); }
std::int64_t pw_nhwc_vnni_runs() { return pw_nhwc_runs.load(); }
std::int64_t dw_after_pw_runs() { return dw_after_runs.load(); }
void force_dw_plain_quads(bool on) { dw_plain_quads.store(on); }

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

// Stores the 16 int32 lanes of v as bytes saturated to int8, lanes under mask k: the
// register form of vpmovsdb (so a clamp to [-128, 127] is never needed before it), then a
// plain store for whole rows (a byte-masked one for tails) rather than the masked memory
// form on every row.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline void store16_i8(std::int8_t* out,
                                                                                        __mmask16 k, __m512i v) {
  const __m128i b = _mm512_cvtsepi32_epi8(v);
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

// MBQM in one 64-bit step (RequantChannel::single) on 16 lanes, the per-call constants in
// vectors: the even lanes' 64-bit constants in [0], the odd lanes' in [1]. Per half: the
// product with the multiplier, the rounding constant, the correction when the product is
// below thr (-2^30, or -2^30 - bias * m with the bias folded into the rounding,
// RequantChannel::fold), the arithmetic shift by s = 31 + right.
// A zero point z added to every result rides in the rounding constant, and the odd lanes
// shift by s - 32, which leaves their results in the high halves where the blend takes
// them (`fast`): floor((t + z 2^s) / 2^s) = floor(t / 2^s) + z, and the high half of
// t >> (s - 32) is t >> s. That needs s >= 32 in the odd lanes (right >= 1) and s <= 54
// (|t| < 2^62 + 2^s, so t + z 2^s stays within int64); otherwise z is added after and
// the odd results are shifted down and moved up. Bit for bit the scalar form either way.
struct Step16 {
  __m512i m, m_odd, rd[2], co[2], sh[2], th[2], z;
  bool fast;
};
__attribute__((target("avx512f"))) inline Step16 step16(__m512i m, const __m512i* round,
                                                        const __m512i* correct,
                                                        const __m512i* shift, const __m512i* thr,
                                                        std::int32_t z, bool allow_fast = true) {
  Step16 s;
  s.m = m;
  s.m_odd = _mm512_srli_epi64(m, 32);
  s.z = _mm512_set1_epi32(z);
  const __m512i s32 = _mm512_set1_epi64(32), s54 = _mm512_set1_epi64(54);
  s.fast = allow_fast && _mm512_cmplt_epi64_mask(shift[1], s32) == 0 &&
           _mm512_cmpgt_epi64_mask(shift[0], s54) == 0 &&
           _mm512_cmpgt_epi64_mask(shift[1], s54) == 0;
  const __m512i z64 = _mm512_set1_epi64(z);
  for (int h = 0; h < 2; ++h) {
    s.rd[h] = s.fast ? _mm512_add_epi64(round[h], _mm512_sllv_epi64(z64, shift[h])) : round[h];
    s.co[h] = correct[h];
    s.th[h] = thr[h];
  }
  s.sh[0] = shift[0];
  s.sh[1] = s.fast ? _mm512_sub_epi64(shift[1], s32) : shift[1];
  return s;
}
// One channel's constants in every lane (folded: the bias inside round and thr; the caller
// then neither adds the bias nor shifts left).
__attribute__((target("avx512f"))) inline Step16 step16(const RequantChannel& c, std::int32_t z,
                                                        bool folded = false,
                                                        bool allow_fast = true) {
  const __m512i rd[2] = {_mm512_set1_epi64(folded ? c.round_b : c.round),
                         _mm512_set1_epi64(folded ? c.round_b : c.round)};
  const __m512i co[2] = {_mm512_set1_epi64(c.correct), _mm512_set1_epi64(c.correct)};
  const __m512i sh[2] = {_mm512_set1_epi64(c.shift64), _mm512_set1_epi64(c.shift64)};
  const __m512i th[2] = {_mm512_set1_epi64(folded ? c.thr_b : -(std::int64_t(1) << 30)),
                         _mm512_set1_epi64(folded ? c.thr_b : -(std::int64_t(1) << 30))};
  return step16(_mm512_set1_epi32(c.multiplier), rd, co, sh, th, z, allow_fast);
}
// MBQM(x) + z of 16 lanes; Fast must equal s.fast.
// Low = false when every result at or below z is clamped to lo >= z afterwards (a ReLU's
// range): a product P below the threshold (-2^30) gives a quotient <= 0 with the correction
// (TFLite's rounding of a negative product) and without it (P + round < 2^(s-1), floored by
// 2^s to <= 0; z, when it rides in the rounding, is added to both), so the correction (two
// compares, two masked subtractions) is left out.
template <bool Fast, bool Low = true>
__attribute__((target("avx512f"), always_inline)) inline __m512i run_step16(__m512i x,
                                                                            const Step16& s) {
  const __m512i pe = _mm512_mul_epi32(x, s.m),
                po = _mm512_mul_epi32(_mm512_srli_epi64(x, 32), s.m_odd);
  __m512i te = _mm512_add_epi64(pe, s.rd[0]), to = _mm512_add_epi64(po, s.rd[1]);
  if constexpr (Low) {
    te = _mm512_mask_sub_epi64(te, _mm512_cmplt_epi64_mask(pe, s.th[0]), te, s.co[0]);
    to = _mm512_mask_sub_epi64(to, _mm512_cmplt_epi64_mask(po, s.th[1]), to, s.co[1]);
  }
  const __m512i e = _mm512_srav_epi64(te, s.sh[0]), o = _mm512_srav_epi64(to, s.sh[1]);
  if constexpr (Fast) return _mm512_mask_blend_epi32(__mmask16(0xAAAA), e, o);
  return _mm512_add_epi32(_mm512_mask_blend_epi32(__mmask16(0xAAAA), e, _mm512_slli_epi64(o, 32)),
                          s.z);
}
__attribute__((target("avx512f"), always_inline)) inline __m512i run_step16(__m512i x,
                                                                            const Step16& s) {
  return s.fast ? run_step16<true>(x, s) : run_step16<false>(x, s);
}
// clamp(q, lo, hi) where the clamp is narrower than int8; store16_i8 saturates to int8.
template <bool Clamp>
__attribute__((target("avx512f"), always_inline)) inline __m512i clamp16(__m512i q, __m512i lo,
                                                                         __m512i hi) {
  if constexpr (Clamp) return _mm512_min_epi32(_mm512_max_epi32(q, lo), hi);
  return q;
}
// with_flags(f, a, b, ...) calls f.template operator()<a, b, ...>() with the flags as
// constants: one loop body, compiled once per combination.
template <bool... Done, typename F>
inline void with_flags(F&& f) {
  f.template operator()<Done...>();
}
template <bool... Done, typename F, typename... Rest>
inline void with_flags(F&& f, bool b, Rest... rest) {
  if (b)
    with_flags<Done..., true>(f, rest...);
  else
    with_flags<Done..., false>(f, rest...);
}

// An Add input's MBQM(u 2^20, m, -e) on 16 lanes in 32-bit arithmetic, u = x + offset
// (|u| <= 255), e >= 1: SRDHM(u 2^20, m) = floor((u m + 2^10) / 2^11) for either sign
// (TFLite's two nudges agree on a product that is a multiple of 2^20), with
// u m = u mh 2^11 + u ml (mh = m >> 11, ml = m & 2047: both products within 2^28), then
// RoundingDivideByPOT(h, e) = (h + 2^(e-1) - [h < 0]) >> e. Bit for bit
// multiply_by_quantized_multiplier (test: Int8Oracle.AddInputStepEqualsScalarMbqm, every
// u against 1800 multipliers), 9 vector ops where the 64-bit step takes 13.
struct AddIn16 {
  __m512i mh, ml, half;
  __m128i e;
};
__attribute__((target("avx512f"))) inline AddIn16 add_in16_params(std::int32_t m, int shift) {
  return {_mm512_set1_epi32(m >> 11), _mm512_set1_epi32(m & 2047), _mm512_set1_epi32(1 << (-shift - 1)),
          _mm_cvtsi32_si128(-shift)};
}
__attribute__((target("avx512f"), always_inline)) inline __m512i add_in16(__m512i u, const AddIn16& p) {
  const __m512i lo = _mm512_srai_epi32(_mm512_add_epi32(_mm512_mullo_epi32(u, p.ml), _mm512_set1_epi32(1 << 10)), 11);
  const __m512i h = _mm512_add_epi32(_mm512_mullo_epi32(u, p.mh), lo);
  return _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(h, p.half), _mm512_srai_epi32(h, 31)), p.e);
}
}  // namespace

__attribute__((target("avx512f"))) void add_input_mbqm_avx512(const std::int32_t* u, std::int64_t n,
                                                               std::int32_t m, int shift, std::int32_t* out) {
  const AddIn16 p = add_in16_params(m, shift);
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    _mm512_mask_storeu_epi32(out + i, k, add_in16(_mm512_maskz_loadu_epi32(k, u + i), p));
  }
}

namespace {
// add_row_avx512's loop (constants by value: stores through int8_t* could alias anything
// reached by reference, which would reload every constant per step).
// Lin1/Lin2: that input's multiplier is exactly 1/2 (2^30, shift 0; always the input of the
// larger scale): then MBQM((a + off) 2^20) = (a + off) 2^19 exactly (the product is
// (a + off) 2^50, whose rounding constant and nudge stay below the quotient's unit); the
// other input through add_in16.
template <bool Fast, bool Clamp, bool Lin1, bool Lin2>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void add_loop(
    const std::int8_t* a, const std::int8_t* b, std::int64_t n, const AddIn16 s1, const AddIn16 s2,
    const Step16 so, const __m512i o1, const __m512i o2, const __m512i lo, const __m512i hi,
    bool sub, std::int8_t* out) {
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    __m512i x1 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i)), o1);
    __m512i x2 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b + i)), o2);
    x1 = Lin1 ? _mm512_slli_epi32(x1, 19) : add_in16(x1, s1);
    x2 = Lin2 ? _mm512_slli_epi32(x2, 19) : add_in16(x2, s2);
    const __m512i r =
        run_step16<Fast>(sub ? _mm512_sub_epi32(x1, x2) : _mm512_add_epi32(x1, x2), so);
    store16_i8(out + i, k, clamp16<Clamp>(r, lo, hi));
  }
}
// ((a[i] + off_a) * (b + off_b)) << left of 16 lanes under k (|product| <= 2^16: exact), b
// the broadcast bs or b_ptr[i]: what TFLite's Mul requantises.
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline __m512i mul_product16(
    const std::int8_t* a, const std::int8_t* b_ptr, bool b_scalar, std::int64_t i, __mmask16 k,
    __m512i oa, __m512i ob, __m512i bs, __m128i lc) {
  const __m512i x1 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, a + i)), oa);
  const __m512i x2 =
      b_scalar ? bs
               : _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(k, b_ptr + i)), ob);
  return _mm512_sll_epi32(_mm512_mullo_epi32(x1, x2), lc);
}
// mul_row_avx512's single-step loop over k[i] = (b[i] + off_b) << left, made once per call
// (its rows share it): (a + off_a) k is the product << left, the same bits mod 2^32.
template <bool Fast, bool Clamp>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void mul_loop_k(const std::int8_t* a, const std::int32_t* k,
                                                                    std::int64_t n, const Step16 s, const __m512i oa,
                                                                    const __m512i lo, const __m512i hi,
                                                                    std::int8_t* out) {
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    const __m512i x1 = _mm512_add_epi32(_mm512_cvtepi8_epi32(_mm_maskz_loadu_epi8(m, a + i)), oa);
    const __m512i x = _mm512_mullo_epi32(x1, _mm512_maskz_loadu_epi32(m, k + i));
    store16_i8(out + i, m, clamp16<Clamp>(run_step16<Fast>(x, s), lo, hi));
  }
}
// mul_row_avx512's single-step loop (constants by value, as add_loop).
template <bool Fast, bool Clamp>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void mul_loop(
    const std::int8_t* a, const std::int8_t* b_ptr, bool b_scalar, std::int64_t n, const Step16 s,
    const __m512i oa, const __m512i ob, const __m512i bs, const __m128i lc, const __m512i lo,
    const __m512i hi, std::int8_t* out) {
  for (std::int64_t i = 0; i < n; i += 16) {
    const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    const __m512i x = mul_product16(a, b_ptr, b_scalar, i, k, oa, ob, bs, lc);
    store16_i8(out + i, k, clamp16<Clamp>(run_step16<Fast>(x, s), lo, hi));
  }
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
  // Each input in 32-bit arithmetic (add_in16; exactly 1/2: a shift), the sum's MBQM in one
  // 64-bit step (RequantChannel).
  const RequantChannel ro = requant_channel(0, p.mo, p.shift_o);
  const bool lin1 = p.m1 == (1 << 30) && p.shift1 == 0, lin2 = p.m2 == (1 << 30) && p.shift2 == 0;
  const auto in32 = [](bool lin, std::int32_t m, int shift) { return lin || (m >= 0 && shift <= -1 && shift >= -30); };
  if (ro.single && in32(lin1, p.m1, p.shift1) && in32(lin2, p.m2, p.shift2)) {
    const AddIn16 s1 = add_in16_params(lin1 ? 0 : p.m1, lin1 ? -1 : p.shift1),
                  s2 = add_in16_params(lin2 ? 0 : p.m2, lin2 ? -1 : p.shift2);
    const Step16 so = step16(ro, p.out_zp);
    with_flags(
        [&]<bool Fast, bool Clamp, bool Lin1, bool Lin2>() {
          add_loop<Fast, Clamp, Lin1, Lin2>(a, b, n, s1, s2, so, o1, o2, lo, hi, p.sub, out);
        },
        so.fast, p.lo != -128 || p.hi != 127, lin1, lin2);
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
    const std::int8_t* a, const std::int8_t* b_ptr, bool b_scalar, std::int64_t n,
    std::int32_t off_a, std::int32_t off_b, std::int32_t multiplier, int shift, std::int32_t zp,
    std::int32_t lo, std::int32_t hi, std::int8_t* out, std::int64_t rows) {
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
    const Step16 s = step16(c, zp);
    if (rows > 1) {  // a channels-last gate: its row converted and shifted once for all the pixels
      thread_local std::vector<std::int32_t> kv;
      std::int32_t* k = scratch(kv, static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i)
        k[i] = static_cast<std::int32_t>(static_cast<std::uint32_t>(std::int32_t(b_ptr[b_scalar ? 0 : i]) + off_b)
                                         << left);
      with_flags(
          [&]<bool Fast, bool Clamp>() {
            for (std::int64_t r = 0; r < rows; ++r)
              mul_loop_k<Fast, Clamp>(a + r * n, k, n, s, oa, vlo, vhi, out + r * n);
          },
          s.fast, lo != -128 || hi != 127);
      return;
    }
    with_flags(
        [&]<bool Fast, bool Clamp>() {
          for (std::int64_t r = 0; r < rows; ++r)
            mul_loop<Fast, Clamp>(a + r * n, b_ptr, b_scalar, n, s, oa, ob, bs, lc, vlo, vhi,
                                  out + r * n);
        },
        s.fast, lo != -128 || hi != 127);
    return;
  }
  for (std::int64_t row = 0; row < rows; ++row, a += n, out += n)
    for (std::int64_t i = 0; i < n; i += 16) {
      const __mmask16 k = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
      const __m512i x = mul_product16(a, b_ptr, b_scalar, i, k, oa, ob, bs, lc);
      const __m512i even = srdhm_even16(x, m64), odd = srdhm_even16(_mm512_srli_epi64(x, 32), m64);
      const __m512i h =
          _mm512_mask_blend_epi32(__mmask16(0xAAAA), even, _mm512_slli_epi64(odd, 32));
      const __m512i rem = _mm512_and_si512(h, rmask);
      const __m512i thr =
          _mm512_mask_add_epi32(rhalf, _mm512_cmplt_epi32_mask(h, zero), rhalf, one);
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
    const Step16 k = step16(c, zp);
    for (std::int64_t j = 0; j < n; j += 16) {
      const __mmask16 m = n - j >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - j)) - 1);
      const __m512i x = _mm512_sll_epi32(_mm512_add_epi32(_mm512_maskz_loadu_epi32(m, acc + j), vb), lc);
      store16_i8(out + j, m, clamp16<true>(run_step16(x, k), vlo, vhi));
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
// arithmetic on the row's 16 lanes (masked when nr < 16). Every row has its own channel, so
// its step is built in the general form (Step16's fast form costs more to set up than it
// saves on one row).
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
      store16_i8(out, m,
                 clamp16<true>(run_step16(_mm512_loadu_si512(tile), step16(c, zp, true, false)),
                               vlo, vhi));
      continue;
    }
    __m512i x = _mm512_add_epi32(_mm512_loadu_si512(tile), _mm512_set1_epi32(c.bias));
    x = _mm512_sllv_epi32(x, _mm512_set1_epi32(c.left));  // wraps like the scalar form
    if (c.single) {
      store16_i8(out, m, clamp16<true>(run_step16(x, step16(c, zp, false, false)), vlo, vhi));
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
  const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  const __m512i bias = _mm512_load_si512(p.bias), left = _mm512_load_si512(p.left);
  const __m512i rd[2] = {_mm512_load_si512(p.round[0]), _mm512_load_si512(p.round[1])};
  const __m512i co[2] = {_mm512_load_si512(p.correct[0]), _mm512_load_si512(p.correct[1])};
  const __m512i sh[2] = {_mm512_load_si512(p.shift64[0]), _mm512_load_si512(p.shift64[1])};
  const __m512i th[2] = {_mm512_set1_epi64(-(std::int64_t(1) << 30)),
                         _mm512_set1_epi64(-(std::int64_t(1) << 30))};
  const Step16 s = step16(_mm512_load_si512(p.multiplier), rd, co, sh, th, zp);
  for (int r = 0; r < mr; ++r, tile += kNR, out += out_stride) {
    const __m512i x = _mm512_sllv_epi32(_mm512_add_epi32(_mm512_loadu_si512(tile), bias), left);
    store16_i8(out, m, clamp16<true>(run_step16(x, s), vlo, vhi));
  }
}

// Channels-last sums: the panels' constants along each pixel's channels.
namespace {
// One panel's requantisation constants (requant_panels) in vectors, lane j channel
// 16 * panel + j, the output zero point z inside (Step16).
// (fold: the biases inside the rounding; acc then needs neither the add nor the shift.)
struct PanelVec {
  __m512i bias, left;
  Step16 s;
  bool fold;
};
__attribute__((target("avx512f"), always_inline)) inline PanelVec panel_vec(
    const RequantPanel& p, std::int32_t z, bool allow_fast = true) {
  PanelVec v;
  v.fold = p.fold;
  v.bias = _mm512_load_si512(p.bias);
  v.left = _mm512_load_si512(p.left);
  __m512i rd[2], co[2], sh[2], th[2];
  for (int h = 0; h < 2; ++h) {
    rd[h] = _mm512_load_si512(p.fold ? p.round_b[h] : p.round[h]);
    co[h] = _mm512_load_si512(p.correct[h]);
    sh[h] = _mm512_load_si512(p.shift64[h]);
    th[h] = p.fold ? _mm512_load_si512(p.thr_b[h]) : _mm512_set1_epi64(-(std::int64_t(1) << 30));
  }
  v.s = step16(_mm512_load_si512(p.multiplier), rd, co, sh, th, z, allow_fast);
  return v;
}
// clamp(MBQM(acc + bias) + z, lo, hi) of 16 channels' sums; the flags equal v.fold, v.s.fast,
// whether [lo, hi] is narrower than int8 and lo < z (run_step16's Low).
template <bool Fold, bool Fast, bool Clamp, bool Low = true>
__attribute__((target("avx512f"), always_inline)) inline __m512i requant_panel16(__m512i acc,
                                                                                 const PanelVec& v,
                                                                                 __m512i lo,
                                                                                 __m512i hi) {
  const __m512i x = Fold ? acc : _mm512_sllv_epi32(_mm512_add_epi32(acc, v.bias), v.left);
  return clamp16<Clamp>(run_step16<Fast, Low>(x, v.s), lo, hi);
}
// requant_nhwc_avx512's loop over the pixels for one panel (constants by value, as add_loop).
template <bool Fold, bool Fast, bool Clamp, bool Low>
__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_pixels(
    const std::int32_t* a, std::int64_t pixels, std::int64_t stride, __mmask16 m, const PanelVec v,
    const __m512i lo, const __m512i hi, std::int8_t* o) {
  for (std::int64_t r = 0; r < pixels; ++r, a += stride, o += stride)
    store16_i8(o, m, requant_panel16<Fold, Fast, Clamp, Low>(_mm512_maskz_loadu_epi32(m, a), v, lo, hi));
}
}  // namespace

__attribute__((target("avx512f,avx512bw,avx512vl"))) void requant_nhwc_avx512(const std::int32_t* acc,
                                                                     std::int64_t pixels, std::int64_t channels,
                                                                     const RequantPanel* panels, std::int32_t zp,
                                                                     std::int32_t lo, std::int32_t hi,
                                                                     std::int8_t* out) {
  const __m512i vlo = _mm512_set1_epi32(lo), vhi = _mm512_set1_epi32(hi);
  for (std::int64_t c0 = 0; c0 < channels; c0 += kNR) {
    const PanelVec v = panel_vec(panels[c0 / kNR], zp);
    const std::int64_t nr = std::min<std::int64_t>(kNR, channels - c0);
    const __mmask16 m = nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
    with_flags(
        [&]<bool Fold, bool Fast, bool Clamp, bool Low>() {
          if constexpr (Low || (Fold && Fast))
            requant_pixels<Fold, Fast, Clamp, Low>(acc + c0, pixels, channels, m, v, vlo, vhi, out + c0);
        },
        v.fold, v.s.fast, lo != -128 || hi != 127, lo < zp || !(v.fold && v.s.fast));
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
// (k: step16(c, zp, c.fold) when c.single)
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline void dw_store16(
    __m512i acc, const RequantChannel& c, const Step16& k, std::int32_t zp, std::int32_t lo,
    std::int32_t hi, std::int8_t* out, int n) {
  const __mmask16 m = n >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << n) - 1);
  __m512i q;
  if (c.fold) {
    q = run_step16(acc, k);
  } else if (c.single) {
    q = run_step16(_mm512_sllv_epi32(_mm512_add_epi32(acc, _mm512_set1_epi32(c.bias)),
                                     _mm512_set1_epi32(c.left)),
                   k);
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
  const Step16 k = c.single ? step16(c, d.zp, c.fold) : Step16{};
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
      dw_store16(a, c, k, d.zp, d.lo, d.hi, buf, 16);
      dw_store16(b, c, k, d.zp, d.lo, d.hi, buf + 16, 16);
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
        dw_store16(acc, c, k, d.zp, d.lo, d.hi, o + j0,
                   static_cast<int>(std::min<std::int64_t>(16, d.OW - j0)));
      }
      continue;
    }
    for (std::int64_t j0 = 0; j0 < d.OW; j0 += 32) {
      __m512i a, b;
      dw_sums32(d, wp, pairs, r0 + j0, lo_idx, hi_idx, a, b);
      const std::int64_t left = d.OW - j0;
      dw_store16(a, c, k, d.zp, d.lo, d.hi, o + j0,
                 static_cast<int>(std::min<std::int64_t>(16, left)));
      if (left > 16)
        dw_store16(b, c, k, d.zp, d.lo, d.hi, o + j0 + 16,
                   static_cast<int>(std::min<std::int64_t>(16, left - 16)));
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

// ---- Pointwise channels-last convolution (igemm_u8.h pw_nhwc_vnni).
namespace {
constexpr std::int64_t kPwChunk = 64;  // pixels per task step: their x + 128 stays in L1
// x + 128 of n bytes (x ^ 0x80) from src into dst, 64 a step.
__attribute__((target("avx512f,avx512bw"))) inline void flip_run(const std::int8_t* src, std::int64_t n,
                                                                 std::uint8_t* dst) {
  const __m512i f = _mm512_set1_epi8(static_cast<char>(0x80));
  std::int64_t i = 0;
  for (; i + 64 <= n; i += 64) _mm512_storeu_si512(dst + i, _mm512_xor_si512(_mm512_loadu_si512(src + i), f));
  if (i < n) {
    const __mmask64 m = (__mmask64(1) << (n - i)) - 1;
    _mm512_mask_storeu_epi8(dst + i, m, _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, src + i), f));
  }
}
// Whether every panel's Step16 takes its fast form (the conditions step16 tests).
bool panels_fast(const RequantPanel* panels, std::int64_t P) {
  for (std::int64_t p = 0; p < P; ++p)
    for (int j = 0; j < 8; ++j)
      if (panels[p].shift64[1][j] < 32 || panels[p].shift64[0][j] > 54 || panels[p].shift64[1][j] > 54)
        return false;
  return true;
}
// The 4 bytes at p in every int32 lane.
__attribute__((target("avx512f"), always_inline)) inline __m512i bcast4(const std::uint8_t* p) {
  std::int32_t quad;
  std::memcpy(&quad, p, 4);
  return _mm512_set1_epi32(quad);
}
// One pixel's quad at x4 into two panels' sums: a += x4 . w0, b += x4 . w1.
__attribute__((target("avx512f,avx512vnni"), always_inline)) inline void dp_pair(
    const std::uint8_t* x4, __m512i w0, __m512i w1, __m512i& a, __m512i& b) {
  const __m512i x = bcast4(x4);
  a = _mm512_dpbusd_epi32(a, x, w0);
  b = _mm512_dpbusd_epi32(b, x, w1);
}
// Pixels [0, rows) of one chunk: xu holds them as x + 128, Kp = 4 kq bytes per pixel (rows
// rounded up to 8, the extra ones anything). Panels go in pairs: the sums of 8 pixels and
// 32 channels in 16 registers, each broadcast quad of x feeding two vpdpbusd (one per panel
// they are load-bound); an odd last panel alone.
template <bool Fold, bool Fast, bool Clamp, bool Low>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void pw_chunk(
    const PackedW4& w, const RequantPanel* panels, const std::uint8_t* xu, std::int64_t rows,
    std::int32_t zp, std::int32_t lo32, std::int32_t hi32, std::int8_t* y) {
  const std::int64_t N = w.n, kq = w.kq, Kp = 4 * kq, P = (N + kNR - 1) / kNR;
  const __m512i lo = _mm512_set1_epi32(lo32), hi = _mm512_set1_epi32(hi32);
  const auto mask_of = [&](std::int64_t pn) {
    const std::int64_t nr = std::min<std::int64_t>(kNR, N - pn * kNR);
    return nr >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << nr) - 1);
  };
  std::int64_t pn = 0;
  for (; pn + 1 < P; pn += 2) {
    const PanelVec v0 = panel_vec(panels[pn], zp, Fast), v1 = panel_vec(panels[pn + 1], zp, Fast);
    const std::int8_t* wp = w.data.data() + pn * kq * kNR * 4;
    const __mmask16 m1 = mask_of(pn + 1);
    for (std::int64_t r0 = 0; r0 < rows; r0 += 8) {
      __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
              a7 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0;
      const std::uint8_t* xr = xu + r0 * Kp;
      const std::int8_t* wq = wp;
      for (std::int64_t q = 0; q < kq; ++q, xr += 4, wq += kNR * 4) {
        const __m512i w0 = _mm512_loadu_si512(wq), w1 = _mm512_loadu_si512(wq + kq * kNR * 4);
        dp_pair(xr, w0, w1, a0, b0);
        dp_pair(xr + Kp, w0, w1, a1, b1);
        dp_pair(xr + 2 * Kp, w0, w1, a2, b2);
        dp_pair(xr + 3 * Kp, w0, w1, a3, b3);
        dp_pair(xr + 4 * Kp, w0, w1, a4, b4);
        dp_pair(xr + 5 * Kp, w0, w1, a5, b5);
        dp_pair(xr + 6 * Kp, w0, w1, a6, b6);
        dp_pair(xr + 7 * Kp, w0, w1, a7, b7);
      }
      const __m512i acc[16] = {a0, a1, a2, a3, a4, a5, a6, a7, b0, b1, b2, b3, b4, b5, b6, b7};
      const int mr = static_cast<int>(std::min<std::int64_t>(8, rows - r0));
      std::int8_t* o = y + r0 * N + pn * kNR;
      for (int r = 0; r < mr; ++r) {
        store16_i8(o + r * N, __mmask16(0xFFFF), requant_panel16<Fold, Fast, Clamp, Low>(acc[r], v0, lo, hi));
        store16_i8(o + r * N + kNR, m1, requant_panel16<Fold, Fast, Clamp, Low>(acc[8 + r], v1, lo, hi));
      }
    }
  }
  for (; pn < P; ++pn) {
    const PanelVec v = panel_vec(panels[pn], zp, Fast);
    const std::int8_t* wp = w.data.data() + pn * kq * kNR * 4;
    const __mmask16 m = mask_of(pn);
    for (std::int64_t r0 = 0; r0 < rows; r0 += 8) {
      // Eight named accumulators (an array of them made GCC copy each around every
      // vpdpbusd and spill the weights).
      __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0,
              a7 = a0;
      const std::uint8_t* xr = xu + r0 * Kp;
      const std::int8_t* wq = wp;
      for (std::int64_t q = 0; q < kq; ++q, xr += 4, wq += kNR * 4) {
        const __m512i wv = _mm512_loadu_si512(wq);
        a0 = _mm512_dpbusd_epi32(a0, bcast4(xr), wv);
        a1 = _mm512_dpbusd_epi32(a1, bcast4(xr + Kp), wv);
        a2 = _mm512_dpbusd_epi32(a2, bcast4(xr + 2 * Kp), wv);
        a3 = _mm512_dpbusd_epi32(a3, bcast4(xr + 3 * Kp), wv);
        a4 = _mm512_dpbusd_epi32(a4, bcast4(xr + 4 * Kp), wv);
        a5 = _mm512_dpbusd_epi32(a5, bcast4(xr + 5 * Kp), wv);
        a6 = _mm512_dpbusd_epi32(a6, bcast4(xr + 6 * Kp), wv);
        a7 = _mm512_dpbusd_epi32(a7, bcast4(xr + 7 * Kp), wv);
      }
      const __m512i acc[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
      const int mr = static_cast<int>(std::min<std::int64_t>(8, rows - r0));
      std::int8_t* o = y + r0 * N + pn * kNR;
      for (int r = 0; r < mr; ++r)
        store16_i8(o + r * N, m, requant_panel16<Fold, Fast, Clamp, Low>(acc[r], v, lo, hi));
    }
  }
}
// x + 128 of rows [0, rows) of x [., K] into xu [rows rounded up to 8][Kp].
__attribute__((target("avx512f,avx512bw,avx512vl"))) void pw_flip(const std::int8_t* x,
                                                                  std::int64_t rows, std::int64_t K,
                                                                  std::int64_t Kp,
                                                                  std::uint8_t* xu) {
  const __m512i f = _mm512_set1_epi8(static_cast<char>(0x80));
  if (Kp == K) {  // rows without padding (K a multiple of 4): one flat run of bytes
    flip_run(x, rows * K, xu);
  } else {
    for (std::int64_t r = 0; r < rows; ++r)
      for (std::int64_t k0 = 0; k0 < Kp; k0 += 64) {
        const std::int64_t n = std::clamp<std::int64_t>(K - k0, 0, 64),
                           np = std::min<std::int64_t>(Kp - k0, 64);
        const __mmask64 mk = n >= 64 ? ~__mmask64(0) : (__mmask64(1) << n) - 1;
        const __mmask64 mp = np >= 64 ? ~__mmask64(0) : (__mmask64(1) << np) - 1;
        _mm512_mask_storeu_epi8(xu + r * Kp + k0, mp,
                                _mm512_xor_si512(_mm512_maskz_loadu_epi8(mk, x + r * K + k0), f));
      }
  }
  std::memset(xu + rows * Kp, 0x80, static_cast<std::size_t>(((rows + 7) / 8 * 8 - rows) * Kp));
}

// pw_chunk for these panels: folded and fast where every panel is (step16's conditions),
// the clamp where [lo, hi] is narrower than int8, without the negative products' correction
// where lo >= zp (compiled for the folded fast form only: the others are rare).
using PwChunkFn = void (*)(const PackedW4&, const RequantPanel*, const std::uint8_t*, std::int64_t,
                           std::int32_t, std::int32_t, std::int32_t, std::int8_t*);
PwChunkFn pw_chunk_for(const PackedW4& w, const RequantPanel* panels, std::int32_t zp, std::int32_t lo,
                       std::int32_t hi) {
  const std::int64_t P = (w.n + kNR - 1) / kNR;
  const bool fold = std::all_of(panels, panels + P, [](const RequantPanel& p) { return p.fold; }),
             fast = panels_fast(panels, P);
  PwChunkFn chunk = nullptr;
  with_flags(
      [&]<bool Fold, bool Fast, bool Clamp, bool Low>() {
        if constexpr (Low || (Fold && Fast)) chunk = pw_chunk<Fold, Fast, Clamp, Low>;
      },
      fold, fast, lo != -128 || hi != 127, lo < zp || !(fold && fast));
  return chunk;
}
// Pixels [0, count) of x [., K] into y [., N], kPwChunk at a time through xu (kPwChunk Kp).
// `table` (or null): every output through it, each chunk's while in L1.
void pw_pixels(PwChunkFn chunk, const PackedW4& w, const RequantPanel* panels, const std::int8_t* x,
               std::int64_t count, std::int32_t zp, std::int32_t lo, std::int32_t hi, const std::int8_t* table,
               std::int8_t* y, std::uint8_t* xu) {
  for (std::int64_t p0 = 0; p0 < count; p0 += kPwChunk) {
    const std::int64_t rows = std::min(kPwChunk, count - p0);
    pw_flip(x + p0 * w.k, rows, w.k, 4 * w.kq, xu);
    chunk(w, panels, xu, rows, zp, lo, hi, y + p0 * w.n);
    if (table) lut_apply(table, y + p0 * w.n, rows * w.n, y + p0 * w.n);
  }
}
}  // namespace

void pw_nhwc_vnni(const PackedW4& w, const RequantPanel* panels, const std::int8_t* x,
                  std::int64_t pixels, std::int32_t zp, std::int32_t lo, std::int32_t hi,
                  std::int8_t* y, const std::int8_t* table) {
  if (pixels == 0 || w.n == 0) return;
  pw_nhwc_runs.fetch_add(1, std::memory_order_relaxed);
  const PwChunkFn chunk = pw_chunk_for(w, panels, zp, lo, hi);
  const std::int64_t chunks = (pixels + kPwChunk - 1) / kPwChunk;
  const std::int64_t tasks = std::min<std::int64_t>(chunks, current_threads() * 8);
  parallel_for(tasks, [&](std::int64_t t) {
    thread_local std::vector<std::uint8_t> xu;
    scratch(xu, static_cast<std::size_t>(kPwChunk * 4 * w.kq));
    const std::int64_t c0 = chunks * t / tasks, c1 = chunks * (t + 1) / tasks;
    pw_pixels(chunk, w, panels, x + c0 * kPwChunk * w.k, std::min(pixels, c1 * kPwChunk) - c0 * kPwChunk,
              zp, lo, hi, table, y + c0 * kPwChunk * w.n, xu.data());
  });
}

// ---- Channels-last depthwise convolution (igemm_u8.h dw_nhwc_vnni).
// The input as u(i) = x[i, c] + 128 (uint8; zx + 128 outside the image, so that the
// padding adds (zx + 128) w like every other tap: the bias takes (zx + 128) sum(w) off).
// A quad row of input row ih holds at position q, for every channel c, the int32 whose
// bytes are u(q - pl), u(q - pl + 1), u(q - pl + 2), u(q - pl + 3): the taps 4j .. 4j + 3
// of output ow meet the quad at q = ow sw + 4j, so one vpdpbusd adds four taps of 16
// channels. Positions are [0, QW); Cp = channels rounded up to 16.
namespace {
// The row of input `row` as u, padded: QW + 4 positions of Cp bytes (lanes past C: the pad).
__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline)) inline void dw_flip_row(
    const DwNhwc& d, const std::int8_t* row, std::int64_t QW, std::int64_t Cp, std::uint8_t* flip) {
  const auto pad = static_cast<std::uint8_t>(d.zx + 128);
  const __m512i f = _mm512_set1_epi8(static_cast<char>(0x80)),
                pad_x = _mm512_set1_epi8(static_cast<char>(pad ^ 0x80));
  if (Cp == d.C) {  // no lanes past C: the row's pixels are one flat run of bytes
    const std::int64_t i0 = std::clamp<std::int64_t>(d.pl, 0, QW + 4),
                       i1 = std::clamp<std::int64_t>(d.pl + d.W, i0, QW + 4);
    std::memset(flip, pad, static_cast<std::size_t>(i0 * Cp));
    flip_run(row + (i0 - d.pl) * d.C, (i1 - i0) * Cp, flip + i0 * Cp);
    std::memset(flip + i1 * Cp, pad, static_cast<std::size_t>((QW + 4 - i1) * Cp));
    return;
  }
  for (std::int64_t i = 0; i < QW + 4; ++i) {
    std::uint8_t* o = flip + i * Cp;
    const std::int64_t ix = i - d.pl;
    if (ix < 0 || ix >= d.W) {
      std::memset(o, pad, static_cast<std::size_t>(Cp));
      continue;
    }
    for (std::int64_t c0 = 0; c0 < Cp; c0 += 64) {
      const std::int64_t n = std::clamp<std::int64_t>(d.C - c0, 0, 64),
                         np = std::min<std::int64_t>(Cp - c0, 64);
      const __mmask64 m = n >= 64 ? ~__mmask64(0) : (__mmask64(1) << n) - 1;
      const __mmask64 mp = np >= 64 ? ~__mmask64(0) : (__mmask64(1) << np) - 1;
      const __m512i v = _mm512_mask_loadu_epi8(pad_x, m, row + ix * d.C + c0);
      _mm512_mask_storeu_epi8(o + c0, mp, _mm512_xor_si512(v, f));
    }
  }
}
__attribute__((target("avx512f"), always_inline)) inline __m512i dw_u32(const std::uint8_t* u) {
  return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(u)));
}
// The quad row of `row` into Q (flip: scratch for dw_flip_row), position by position per 16
// channels: the next position's byte enters each lane at the top, q >> 8 | u << 24 (with
// VBMI2 one funnel shift; the plain form for VNNI machines without it).
using QuadRowFn = void (*)(const DwNhwc&, const std::int8_t*, std::int64_t, std::int64_t,
                           std::uint8_t*, std::int32_t*);
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi2"))) void dw_quad_row_vbmi2(
    const DwNhwc& d, const std::int8_t* row, std::int64_t QW, std::int64_t Cp, std::uint8_t* flip,
    std::int32_t* Q) {
  dw_flip_row(d, row, QW, Cp, flip);
  for (std::int64_t c0 = 0; c0 < Cp; c0 += 16) {
    const std::uint8_t* u = flip + c0;
    __m512i q = _mm512_setzero_si512();  // after three pushes: u(0) << 8 | u(1) << 16 | u(2) << 24
    for (int t = 0; t < 3; ++t) q = _mm512_shrdi_epi32(q, dw_u32(u + t * Cp), 8);
    if (d.sw % 2 == 0) {  // only even positions are read: store those
      for (std::int64_t i = 0; i < QW; i += 2) {
        q = _mm512_shrdi_epi32(q, dw_u32(u + (i + 3) * Cp), 8);
        _mm512_storeu_si512(Q + i * Cp + c0, q);
        q = _mm512_shrdi_epi32(q, dw_u32(u + (i + 4) * Cp), 8);
      }
      continue;
    }
    for (std::int64_t i = 0; i < QW; ++i) {
      q = _mm512_shrdi_epi32(q, dw_u32(u + (i + 3) * Cp), 8);
      _mm512_storeu_si512(Q + i * Cp + c0, q);
    }
  }
}
__attribute__((target("avx512f,avx512bw,avx512vl"))) void dw_quad_row_plain(
    const DwNhwc& d, const std::int8_t* row, std::int64_t QW, std::int64_t Cp, std::uint8_t* flip,
    std::int32_t* Q) {
  dw_flip_row(d, row, QW, Cp, flip);
  for (std::int64_t c0 = 0; c0 < Cp; c0 += 16) {
    const std::uint8_t* u = flip + c0;
    __m512i q = _mm512_setzero_si512();
    for (int t = 0; t < 3; ++t)
      q = _mm512_or_si512(_mm512_srli_epi32(q, 8), _mm512_slli_epi32(dw_u32(u + t * Cp), 24));
    for (std::int64_t i = 0; i < QW; ++i) {
      q = _mm512_or_si512(_mm512_srli_epi32(q, 8), _mm512_slli_epi32(dw_u32(u + (i + 3) * Cp), 24));
      if (d.sw % 2 != 0 || i % 2 == 0)
        _mm512_storeu_si512(Q + i * Cp + c0, q);  // even strides read even ones
    }
  }
}

// Four outputs' sums (step apart) of one tap quad w.
__attribute__((target("avx512f,avx512vnni"), always_inline)) inline void dw_taps4(
    const std::int32_t* b, std::int64_t step, __m512i w, __m512i& a0, __m512i& a1, __m512i& a2,
    __m512i& a3) {
  a0 = _mm512_dpbusd_epi32(a0, _mm512_loadu_si512(b), w);
  a1 = _mm512_dpbusd_epi32(a1, _mm512_loadu_si512(b + step), w);
  a2 = _mm512_dpbusd_epi32(a2, _mm512_loadu_si512(b + 2 * step), w);
  a3 = _mm512_dpbusd_epi32(a3, _mm512_loadu_si512(b + 3 * step), w);
}
// The depthwise Conv's input rows: x's, or (x null) computed from pw.x by the 1x1 Conv pw
// (dw_nhwc_vnni_after) into a row buffer as they are first needed.
struct DwSource {
  const std::int8_t* x = nullptr;
  const PwStage* pw = nullptr;
  PwChunkFn chunk = nullptr;
};
// Output rows [r0, r1) of the N * OH, KH x KW known at compile time (or 0: d's). The quad
// rows live in a ring of KH slots (input row ih of image n in slot (n H + ih) % KH: the KH
// rows an output row reads are in different slots), built on first use. Every panel has
// its bias folded (dw_nhwc_vnni's contract); Fast and Clamp as in requant_panel16.
template <int KHc, int KWc, bool Fast, bool Clamp, bool Low>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void dw_nhwc_rows(
    const DwNhwc& d, const DwSource& src, const std::int32_t* wpk, const RequantPanel* panels,
    QuadRowFn quad_row, std::int8_t* y, std::int64_t r0, std::int64_t r1) {
  const std::int64_t KH = KHc ? KHc : d.KH, KW = KWc ? KWc : d.KW, Qk = (KW + 3) / 4, T = KH * Qk;
  const std::int64_t Cp = (d.C + 15) / 16 * 16, QW = (d.OW - 1) * d.sw + 4 * (Qk - 1) + 1,
                     len = QW * Cp;
  thread_local std::vector<std::int32_t> ring;
  thread_local std::vector<std::uint8_t> flip;
  scratch(ring, static_cast<std::size_t>((KH + 1) * len));
  scratch(flip, static_cast<std::size_t>((QW + 4) * Cp));
  // The 1x1 Conv's rows are computed `block` at a time: its kernel takes pixels 8 at a time,
  // so a 28-, 14- or 7-pixel row alone wastes 1/8 of its products; 8 / gcd(W, 8) rows do not.
  thread_local std::vector<std::int8_t> pw_row;
  thread_local std::vector<std::uint8_t> pw_xu;
  const std::int64_t block = 8 / std::gcd<std::int64_t>(d.W, 8);
  std::int64_t block_lo = -1, block_hi = -1;  // the input rows (keys) in pw_row
  if (!src.x) {
    scratch(pw_row, static_cast<std::size_t>(block * d.W * d.C));
    scratch(pw_xu, static_cast<std::size_t>(kPwChunk * 4 * src.pw->w->kq));
  }
  std::int32_t* outside = ring.data() + KH * len;  // a row above or below the input
  std::fill(outside, outside + len,
            static_cast<std::int32_t>(std::uint32_t(std::uint8_t(d.zx + 128)) * 0x01010101u));
  std::int64_t tag[64];
  std::fill(tag, tag + KH, -1);
  const __m512i vlo = _mm512_set1_epi32(d.lo), vhi = _mm512_set1_epi32(d.hi);
  const std::int64_t step = d.sw * Cp;
  for (std::int64_t r = r0; r < r1; ++r) {
    const std::int64_t n = r / d.OH, oh = r % d.OH;
    const std::int32_t* rows[64];
    for (std::int64_t kh = 0; kh < KH; ++kh) {
      const std::int64_t ih = oh * d.sh - d.pt + kh;
      if (ih < 0 || ih >= d.H) {
        rows[kh] = outside;
        continue;
      }
      const std::int64_t key = n * d.H + ih, slot = key % KH;
      std::int32_t* q = ring.data() + slot * len;
      if (tag[slot] != key) {
        const std::int8_t* in = src.x ? src.x + key * d.W * d.C : nullptr;
        if (!in) {  // the 1x1 Conv's output row `key`, computed now with the block from it
          if (key < block_lo || key >= block_hi) {
            const PwStage& pw = *src.pw;
            block_lo = key;
            block_hi = std::min(key + block, (n + 1) * d.H);
            pw_pixels(src.chunk, *pw.w, pw.panels, pw.x + key * d.W * pw.w->k, (block_hi - key) * d.W, pw.zp, pw.lo,
                      pw.hi, pw.table, pw_row.data(), pw_xu.data());
          }
          in = pw_row.data() + (key - block_lo) * d.W * d.C;
        }
        quad_row(d, in, QW, Cp, flip.data(), q);
        tag[slot] = key;
      }
      rows[kh] = q;
    }
    std::int8_t* yr = y + r * d.OW * d.C;
    for (std::int64_t c0 = 0; c0 < d.C; c0 += 16) {
      const __mmask16 m = d.C - c0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (d.C - c0)) - 1);
      // Up to 6 tap quads stay in registers; more (5x5: 10) are read from L1 at each use,
      // which leaves the registers to the sums and the requantisation (held, they spilled
      // the sums instead).
      constexpr bool kHeld = KHc && KWc && KHc * ((KWc + 3) / 4) <= 6;
      __m512i wv[kHeld ? KHc * ((KWc + 3) / 4) : 1];
      const std::int32_t* wc = wpk + (c0 / 16) * T * 16;
      if constexpr (kHeld)
        for (std::int64_t k = 0; k < T; ++k) wv[k] = _mm512_loadu_si512(wc + k * 16);
      const PanelVec pv = panel_vec(panels[c0 / 16], d.zp, Fast);
      std::int64_t ow = 0;
      // Eight outputs a step where the quads are read from L1 (5x5, ten quads): a 28 x 28 x 120
      // 5x5 layer 54 -> 50 us (1 thread), the same per 4-output step where they are held.
      if constexpr (!kHeld)
        for (; ow + 8 <= d.OW; ow += 8) {
          __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0;
          const std::int64_t at = ow * step + c0;
          const std::int32_t* wl = wc;
          asm("" : "+r"(wl));
#pragma GCC unroll 1
          for (std::int64_t kh = 0; kh < KH; ++kh)
            for (std::int64_t j = 0; j < Qk; ++j) {
              const __m512i w = _mm512_loadu_si512(wl + (kh * Qk + j) * 16);
              const std::int32_t* b = rows[kh] + at + j * 4 * Cp;
              dw_taps4(b, step, w, a0, a1, a2, a3);
              dw_taps4(b + 4 * step, step, w, a4, a5, a6, a7);
            }
          std::int8_t* o = yr + ow * d.C + c0;
          store16_i8(o, m, requant_panel16<true, Fast, Clamp, Low>(a0, pv, vlo, vhi));
          store16_i8(o + d.C, m, requant_panel16<true, Fast, Clamp, Low>(a1, pv, vlo, vhi));
          store16_i8(o + 2 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a2, pv, vlo, vhi));
          store16_i8(o + 3 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a3, pv, vlo, vhi));
          store16_i8(o + 4 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a4, pv, vlo, vhi));
          store16_i8(o + 5 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a5, pv, vlo, vhi));
          store16_i8(o + 6 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a6, pv, vlo, vhi));
          store16_i8(o + 7 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a7, pv, vlo, vhi));
        }
      for (; ow + 4 <= d.OW; ow += 4) {
        __m512i a0 = _mm512_setzero_si512(), a1 = a0, a2 = a0, a3 = a0;
        const std::int64_t at = ow * step + c0;
        if constexpr (kHeld) {  // unrolled: a loop made GCC copy the sums around each vpdpbusd
#pragma GCC unroll 16
          for (std::int64_t kh = 0; kh < KH; ++kh)
#pragma GCC unroll 4
            for (std::int64_t j = 0; j < Qk; ++j)
              dw_taps4(rows[kh] + at + j * 4 * Cp, step, wv[kh * Qk + j], a0, a1, a2, a3);
        } else {
          const std::int32_t* wl = wc;
          asm("" : "+r"(wl));  // the quads' loads not hoisted out of the loop
#pragma GCC unroll 1
          for (std::int64_t kh = 0; kh < KH; ++kh)
            for (std::int64_t j = 0; j < Qk; ++j)
              dw_taps4(rows[kh] + at + j * 4 * Cp, step, _mm512_loadu_si512(wl + (kh * Qk + j) * 16), a0,
                       a1, a2, a3);
        }
        std::int8_t* o = yr + ow * d.C + c0;
        store16_i8(o, m, requant_panel16<true, Fast, Clamp, Low>(a0, pv, vlo, vhi));
        store16_i8(o + d.C, m, requant_panel16<true, Fast, Clamp, Low>(a1, pv, vlo, vhi));
        store16_i8(o + 2 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a2, pv, vlo, vhi));
        store16_i8(o + 3 * d.C, m, requant_panel16<true, Fast, Clamp, Low>(a3, pv, vlo, vhi));
      }
      for (; ow < d.OW; ++ow) {
        __m512i a0 = _mm512_setzero_si512();
        for (std::int64_t kh = 0; kh < KH; ++kh) {
          const std::int32_t* b = rows[kh] + ow * step + c0;
          for (std::int64_t j = 0; j < Qk; ++j, b += 4 * Cp)
            a0 = _mm512_dpbusd_epi32(a0, _mm512_loadu_si512(b),
                                     kHeld ? wv[kh * Qk + j] : _mm512_loadu_si512(wc + (kh * Qk + j) * 16));
        }
        store16_i8(yr + ow * d.C + c0, m, requant_panel16<true, Fast, Clamp, Low>(a0, pv, vlo, vhi));
      }
    }
    if (d.table) lut_apply(d.table, yr, d.OW * d.C, yr);
  }
}
}  // namespace

namespace {
// dw_nhwc_vnni on rows from src, in `per_thread` ranges of output rows per thread.
void dw_nhwc_run(const DwNhwc& d, const DwSource& src, const std::int32_t* w_packed,
                 const RequantPanel* panels, std::int8_t* y, std::int64_t per_thread) {
  const std::int64_t rows = d.N * d.OH;
  static const bool vbmi2 = __builtin_cpu_supports("avx512vbmi2");
  const QuadRowFn quad_row =
      vbmi2 && !dw_plain_quads.load() ? dw_quad_row_vbmi2 : dw_quad_row_plain;
  const bool fast = panels_fast(panels, (d.C + 15) / 16);
  using RowsFn = void (*)(const DwNhwc&, const DwSource&, const std::int32_t*,
                          const RequantPanel*, QuadRowFn, std::int8_t*, std::int64_t, std::int64_t);
  RowsFn rows_of = nullptr;
  with_flags(
      [&]<bool Fast, bool Clamp, bool Low>() {
        if constexpr (Low || Fast)
          rows_of = d.KH == 3 && d.KW == 3   ? dw_nhwc_rows<3, 3, Fast, Clamp, Low>
                    : d.KH == 5 && d.KW == 5 ? dw_nhwc_rows<5, 5, Fast, Clamp, Low>
                                             : dw_nhwc_rows<0, 0, Fast, Clamp, Low>;
      },
      fast, d.lo != -128 || d.hi != 127, d.lo < d.zp || !fast);
  // Each range builds its first KH quad rows again (and computes their input rows again
  // when they come from a 1x1 Conv), the rest once.
  const std::int64_t threads = current_threads(),
                     chunks = threads <= 1 ? 1 : std::min(rows, threads * per_thread);
  parallel_for(chunks, [&](std::int64_t i) {
    rows_of(d, src, w_packed, panels, quad_row, y, rows * i / chunks, rows * (i + 1) / chunks);
  });
}
}  // namespace

void dw_nhwc_vnni(const DwNhwc& d, const std::int8_t* x, const std::int32_t* w_packed, const RequantPanel* panels,
                  std::int8_t* y) {
  if (d.N * d.OH == 0 || d.OW == 0 || d.C == 0) return;
  dw_nhwc_runs.fetch_add(1, std::memory_order_relaxed);
  dw_nhwc_run(d, DwSource{x, nullptr, nullptr}, w_packed, panels, y, 4);
}

void dw_nhwc_vnni_after(const PwStage& pw, const DwNhwc& d, const std::int32_t* w_packed,
                        const RequantPanel* panels, std::int8_t* y) {
  if (d.N * d.OH == 0 || d.OW == 0 || d.C == 0) return;
  dw_after_runs.fetch_add(1, std::memory_order_relaxed);
  // One range per thread: a range's first rows are the 1x1 Conv's work done twice.
  dw_nhwc_run(d, DwSource{nullptr, &pw, pw_chunk_for(*pw.w, pw.panels, pw.zp, pw.lo, pw.hi)}, w_packed,
              panels, y, 1);
}
#endif

}  // namespace ec::runtime::quantized
