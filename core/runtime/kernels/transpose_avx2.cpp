// AVX2 transpose of 4-byte elements in 8 x 8 register blocks (the NCHW <-> NHWC
// Transposes LayoutTransform puts at the edges of channels-last regions), and the
// AVX-512 interleave of an image's 2-4 channel planes (its NCHW -> NHWC input edge, f32 or
// 8-bit). Only this file's code after the pragmas is compiled for those ISAs; the entry
// points are called only when the CPU has them (data_movement.cpp).
#include <immintrin.h>

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx2")

namespace ec::runtime::kernels {
namespace {

// y[j, i] = x[i, j] for an 8 x 8 block: x rows `xs` apart, y rows `ys` apart.
inline void block8(const float* x, std::int64_t xs, float* y, std::int64_t ys) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(x + i * xs);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);      // a0 b0 a1 b1 | a4 b4 a5 b5
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);  // a2 b2 a3 b3 | a6 b6 a7 b7
  }
  for (int i = 0; i < 8; i += 4)
    for (int h = 0; h < 2; ++h) {
      r[i + 2 * h] = _mm256_shuffle_ps(t[i + h], t[i + 2 + h], 0x44);  // a b c d, column 2h (+4)
      r[i + 2 * h + 1] = _mm256_shuffle_ps(t[i + h], t[i + 2 + h], 0xEE);  // column 2h + 1 (+4)
    }
  // r[0..3]: columns 0..3 (low lanes) and 4..7 (high lanes) of rows 0-3; r[4..7] of rows 4-7.
  for (int c = 0; c < 4; ++c) {
    _mm256_storeu_ps(y + c * ys, _mm256_permute2f128_ps(r[c], r[4 + c], 0x20));
    _mm256_storeu_ps(y + (c + 4) * ys, _mm256_permute2f128_ps(r[c], r[4 + c], 0x31));
  }
}

}  // namespace

void transpose_f32_avx2(const float* x, float* y, std::int64_t R, std::int64_t C, std::int64_t i0,
                        std::int64_t i1, std::int64_t j0, std::int64_t j1) {
  std::int64_t i = i0;
  for (; i + 8 <= i1; i += 8) {
    std::int64_t j = j0;
    for (; j + 8 <= j1; j += 8) block8(x + i * C + j, C, y + j * R + i, R);
    for (; j < j1; ++j)
      for (std::int64_t k = i; k < i + 8; ++k) y[j * R + k] = x[k * C + j];
  }
  for (; i < i1; ++i)
    for (std::int64_t j = j0; j < j1; ++j) y[j * R + i] = x[i * C + j];
}

}  // namespace ec::runtime::kernels

#pragma GCC pop_options

namespace ec::runtime::kernels {
namespace {

// The block's permutation: for output vector k, lane l reads lane (k L + l) / R of plane
// (k L + l) % R.
template <int L, typename I>
void interleave_plan(int R, I (*idx)[L], std::uint64_t* masks) {
  for (int k = 0; k < R; ++k) {
    for (int r = 0; r < R; ++r) masks[k * R + r] = 0;
    for (int l = 0; l < L; ++l) {
      const int e = k * L + l;
      idx[k][l] = static_cast<I>(e / R);
      masks[k * R + e % R] |= std::uint64_t(1) << l;
    }
  }
}

}  // namespace

__attribute__((target("avx512f"))) std::int64_t interleave_f32_avx512(const float* x, float* y, int R,
                                                                      std::int64_t C, std::int64_t j0,
                                                                      std::int64_t j1) {
  if (R < 2 || R > 4) return j0;
  alignas(64) std::int32_t idx[4][16];
  std::uint64_t masks[16];
  interleave_plan<16>(R, idx, masks);
  __m512i vidx[4];
  for (int k = 0; k < R; ++k) vidx[k] = _mm512_load_si512(idx[k]);
  std::int64_t j = j0;
  for (; j + 16 <= j1; j += 16) {
    __m512 planes[4], out[4];
    for (int r = 0; r < R; ++r) planes[r] = _mm512_loadu_ps(x + r * C + j);
    for (int k = 0; k < R; ++k) {
      __m512 o = _mm512_setzero_ps();
      for (int r = 0; r < R; ++r)
        o = _mm512_mask_permutexvar_ps(o, static_cast<__mmask16>(masks[k * R + r]), vidx[k], planes[r]);
      out[k] = o;
    }
    for (int k = 0; k < R; ++k) _mm512_storeu_ps(y + j * R + 16 * k, out[k]);
  }
  return j;
}

__attribute__((target("avx512f,avx512bw,avx512vbmi"))) std::int64_t interleave_u8_avx512vbmi(
    const std::uint8_t* x, std::uint8_t* y, int R, std::int64_t C, std::int64_t j0, std::int64_t j1) {
  if (R < 2 || R > 4) return j0;
  alignas(64) std::uint8_t idx[4][64];
  std::uint64_t masks[16];
  interleave_plan<64>(R, idx, masks);
  __m512i vidx[4];
  for (int k = 0; k < R; ++k) vidx[k] = _mm512_load_si512(idx[k]);
  std::int64_t j = j0;
  for (; j + 64 <= j1; j += 64) {
    __m512i planes[4], out[4];
    for (int r = 0; r < R; ++r) planes[r] = _mm512_loadu_si512(x + r * C + j);
    for (int k = 0; k < R; ++k) {
      __m512i o = _mm512_setzero_si512();
      for (int r = 0; r < R; ++r) o = _mm512_mask_permutexvar_epi8(o, masks[k * R + r], vidx[k], planes[r]);
      out[k] = o;
    }
    for (int k = 0; k < R; ++k) _mm512_storeu_si512(y + j * R + 64 * k, out[k]);
  }
  return j;
}

}  // namespace ec::runtime::kernels
#endif
