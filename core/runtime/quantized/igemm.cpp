// Driver and portable micro-kernel of the int8 GEMM (see igemm.h).
#include "core/runtime/quantized/igemm.h"

#include <algorithm>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {

namespace {

// The packers read int8 values (the int8 kernels) or int16 values (the exact
// integer ops of ONNX: ConvInteger, MatMulInteger, QLinear*) the same way.
template <typename T>
PackedA pack_a_any(const T* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs) {
  PackedA p;
  p.m = M;
  p.k = K;
  p.kp = (K + 1) / 2;
  const std::int64_t mb = (M + kMR - 1) / kMR;
  p.data.assign(static_cast<std::size_t>(mb * p.kp * kMR * 2), 0);
  for (std::int64_t b = 0; b < mb; ++b)
    for (int r = 0; r < kMR; ++r) {
      const std::int64_t i = b * kMR + r;
      if (i >= M) break;
      std::int16_t* out = p.data.data() + b * p.kp * kMR * 2 + r * 2;
      for (std::int64_t k = 0; k < K; ++k) out[(k / 2) * kMR * 2 + (k & 1)] = base[i * rs + k * cs];
    }
  return p;
}

template <typename T>
void pack_b_any(const T* base, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t cs, std::int64_t j0,
                std::int64_t nc, std::int16_t* out) {
  const std::int64_t panels = (nc + kNR - 1) / kNR;
  for (std::int64_t pn = 0; pn < panels; ++pn) {
    const int w = static_cast<int>(std::min<std::int64_t>(kNR, nc - pn * kNR));
    std::int16_t* o = out + pn * kp * kNR * 2;
    const T* col0 = base + (j0 + pn * kNR) * cs;
    for (std::int64_t p = 0; p < kp; ++p, o += kNR * 2) {
      const T* r0 = col0 + (2 * p) * rs;
      const bool has1 = 2 * p + 1 < K;
      const T* r1 = r0 + rs;
      if (cs == 1 && w == kNR && has1) {
        for (int j = 0; j < kNR; ++j) {  // contiguous rows: vectorises
          o[2 * j] = r0[j];
          o[2 * j + 1] = r1[j];
        }
        continue;
      }
      int j = 0;
      for (; j < w; ++j) {
        o[2 * j] = r0[j * cs];
        o[2 * j + 1] = has1 ? r1[j * cs] : 0;
      }
      for (; j < kNR; ++j) o[2 * j] = o[2 * j + 1] = 0;
    }
  }
}

}  // namespace

PackedA pack_a(const std::int8_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs) {
  return pack_a_any(base, M, K, rs, cs);
}
PackedA pack_a(const std::int16_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs) {
  return pack_a_any(base, M, K, rs, cs);
}

void pack_b_strided(const std::int8_t* base, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t cs,
                    std::int64_t j0, std::int64_t nc, std::int16_t* out) {
  pack_b_any(base, K, kp, rs, cs, j0, nc, out);
}
void pack_b_strided(const std::int16_t* base, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t cs,
                    std::int64_t j0, std::int64_t nc, std::int16_t* out) {
  pack_b_any(base, K, kp, rs, cs, j0, nc, out);
}

void igemm_micro_generic(std::int64_t kp, const std::int16_t* a, const std::int16_t* b, std::int32_t* c) {
  std::int32_t acc[kMR][kNR] = {};
  for (std::int64_t p = 0; p < kp; ++p, a += kMR * 2, b += kNR * 2)
    for (int r = 0; r < kMR; ++r) {
      const std::int32_t a0 = a[2 * r], a1 = a[2 * r + 1];
      for (int j = 0; j < kNR; ++j) acc[r][j] += a0 * b[2 * j] + a1 * b[2 * j + 1];
    }
  for (int r = 0; r < kMR; ++r)
    for (int j = 0; j < kNR; ++j) c[r * kNR + j] = acc[r][j];
}

namespace {

using MicroFn = void (*)(std::int64_t, const std::int16_t*, const std::int16_t*, std::int32_t*);

MicroFn micro_kernel() {
  // Follows the float GEMM's choice (EC_GEMM_ISA / gemm::force_isa), so one switch tests both.
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  if (isa == gemm::Isa::Avx512 && __builtin_cpu_supports("avx512vnni")) return igemm_micro_avx512vnni;
#endif
  if (isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2)) return igemm_micro_avx2;
  return igemm_micro_generic;
}

}  // namespace

bool use_avx2() { return gemm::active_isa() != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2); }

DwAccumulateFn dw_accumulate_kernel() {
  const gemm::Isa isa = gemm::active_isa();
  return isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2) ? dw_accumulate_avx2 : nullptr;
}

void requant_row_generic(const std::int32_t* acc, std::int64_t n, std::int32_t bias, std::int32_t multiplier, int shift,
                         std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out) {
  for (std::int64_t j = 0; j < n; ++j) {
    const auto x = static_cast<std::int32_t>(static_cast<std::uint32_t>(acc[j]) + static_cast<std::uint32_t>(bias));
    out[j] = static_cast<std::int8_t>(std::clamp(multiply_by_quantized_multiplier(x, multiplier, shift) + zp, lo, hi));
  }
}

RequantRowFn requant_row_kernel() {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  static const bool bw_vl = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  if (isa == gemm::Isa::Avx512 && bw_vl) return requant_row_avx512;
#endif
  return isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2) ? requant_row_avx2 : requant_row_generic;
}

void lut_apply(const std::int8_t* lut, const std::int8_t* x, std::int64_t n, std::int8_t* y) {
#if defined(__x86_64__)
  static const bool vbmi = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw");
  if (vbmi && gemm::active_isa() == gemm::Isa::Avx512) {
    lut_apply_avx512vbmi(lut, x, n, y);
    return;
  }
#endif
  for (std::int64_t i = 0; i < n; ++i) y[i] = lut[x[i] + 128];
}

bool use_mul_row_avx512() {
#if defined(__x86_64__)
  static const bool bw_vl = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  return bw_vl && gemm::active_isa() == gemm::Isa::Avx512;
#else
  return false;
#endif
}

AddRowFn add_row_kernel() {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  static const bool bw_vl = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  if (isa == gemm::Isa::Avx512 && bw_vl) return add_row_avx512;
#endif
  return isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2) ? add_row_avx2 : nullptr;
}

void igemm(const PackedA& a, std::int64_t N, const PackB& pack, const TileFn& epilogue) {
  igemm_driver<kMR, 2>(a.m, a.kp, a.data.data(), N, pack, epilogue, micro_kernel());
}

}  // namespace ec::runtime::quantized
