// Driver, packing and portable micro-kernel of the VNNI int8 GEMM (see igemm_u8.h).
#include "core/runtime/quantized/igemm_u8.h"

#include <algorithm>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {

PackedA4 pack_a4(const std::int8_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs) {
  PackedA4 p;
  p.m = M;
  p.k = K;
  p.kq = (K + 3) / 4;
  const std::int64_t mb = (M + kMR4 - 1) / kMR4;
  p.data.assign(static_cast<std::size_t>(mb * p.kq * kMR4 * 4), 0);
  for (std::int64_t b = 0; b < mb; ++b)
    for (int r = 0; r < kMR4; ++r) {
      const std::int64_t i = b * kMR4 + r;
      if (i >= M) break;
      std::int8_t* out = p.data.data() + b * p.kq * kMR4 * 4 + r * 4;
      for (std::int64_t k = 0; k < K; ++k) out[(k / 4) * kMR4 * 4 + (k & 3)] = base[i * rs + k * cs];
    }
  return p;
}

void pack_b4_strided(const std::int8_t* base, std::int64_t K, std::int64_t kq, std::int64_t rs, std::int64_t cs,
                     std::int64_t j0, std::int64_t nc, std::uint8_t* out) {
  if (cs == 1 && use_vnni()) {
    pack_b4_rows_avx512(base, K, kq, rs, j0, nc, out);
    return;
  }
  const std::int64_t panels = (nc + kNR - 1) / kNR;
  for (std::int64_t pn = 0; pn < panels; ++pn) {
    const int w = static_cast<int>(std::min<std::int64_t>(kNR, nc - pn * kNR));
    std::uint8_t* o = out + pn * kq * kNR * 4;
    const std::int8_t* col0 = base + (j0 + pn * kNR) * cs;
    for (std::int64_t q = 0; q < kq; ++q, o += kNR * 4)
      for (int j = 0; j < kNR; ++j)
        for (int r = 0; r < 4; ++r) {
          const std::int64_t k = 4 * q + r;
          const std::int8_t v = j < w && k < K ? col0[k * rs + j * cs] : 0;
          o[4 * j + r] = static_cast<std::uint8_t>(v ^ 0x80);  // x + 128
        }
  }
}

void igemm4_micro_generic(std::int64_t kq, const std::int8_t* a, const std::uint8_t* b, std::int32_t* c) {
  std::int32_t acc[kMR4][kNR] = {};
  for (std::int64_t q = 0; q < kq; ++q, a += kMR4 * 4, b += kNR * 4)
    for (int r = 0; r < kMR4; ++r)
      for (int j = 0; j < kNR; ++j)
        for (int t = 0; t < 4; ++t) acc[r][j] += std::int32_t(a[4 * r + t]) * std::int32_t(b[4 * j + t]);
  for (int r = 0; r < kMR4; ++r)
    for (int j = 0; j < kNR; ++j) c[r * kNR + j] = acc[r][j];
}

RequantChannel requant_channel(std::int32_t bias, std::int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto mask = static_cast<std::int32_t>((1LL << right) - 1);
  return {bias, multiplier, left, right, mask, mask >> 1};
}

RequantTileFn requant_tile_kernel() {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  static const bool bw = __builtin_cpu_supports("avx512bw");
  if (isa == gemm::Isa::Avx512 && bw) return requant_tile_avx512;
#endif
  return isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2) ? requant_tile_avx2 : nullptr;
}

bool use_vnni() {
#if defined(__x86_64__)
  static const bool cpu = __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw");
  return cpu && gemm::active_isa() == gemm::Isa::Avx512;
#else
  return false;
#endif
}

void igemm4(const PackedA4& a, std::int64_t N, const PackB4& pack, const TileFn& epilogue) {
#if defined(__x86_64__)
  const auto micro = use_vnni() ? igemm4_micro_avx512vnni : igemm4_micro_generic;
#else
  const auto micro = igemm4_micro_generic;
#endif
  igemm_driver<kMR4, 4>(a.m, a.kq, a.data.data(), N, pack, epilogue, micro);
}

}  // namespace ec::runtime::quantized
