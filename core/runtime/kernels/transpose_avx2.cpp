// AVX2 transpose of 4-byte elements in 8 x 8 register blocks (the NCHW <-> NHWC
// Transposes LayoutTransform puts at the edges of channels-last regions). Only this
// file's code after the pragma is compiled for AVX2; the one entry point is called
// only when the CPU has it (data_movement.cpp).
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
#endif
