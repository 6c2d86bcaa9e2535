// AVX-512 VNNI micro-kernel of the int8 path: the same 4 x 16 tile and packing as
// igemm_avx2.cpp, one zmm of B per K pair (16 columns x an int16 pair) and one
// vpdpwssd per row (a0*b0 + a1*b1 added to 16 int32 lanes, no saturation). Two
// sets of accumulators (even and odd K pairs) hide the instruction's latency;
// integer sums are exact, so the tile equals the AVX2 and portable kernels' bit
// for bit. Only this function carries the target attribute.
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#include "core/runtime/quantized/igemm.h"

namespace ec::runtime::quantized {

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
#endif

}  // namespace ec::runtime::quantized
