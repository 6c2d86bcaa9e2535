// Driver, packing and portable micro-kernel of the VNNI int8 GEMM (see igemm_u8.h).
#include "core/runtime/quantized/igemm_u8.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

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

namespace {
// c[r][j] = sum over kq quads of a[q][r][0..3] . b[q][j][0..3] (either operand u8 or s8).
template <typename TA, typename TB>
void micro_generic(std::int64_t kq, const TA* a, const TB* b, std::int32_t* c) {
  std::int32_t acc[kMR4][kNR] = {};
  for (std::int64_t q = 0; q < kq; ++q, a += kMR4 * 4, b += kNR * 4)
    for (int r = 0; r < kMR4; ++r)
      for (int j = 0; j < kNR; ++j)
        for (int t = 0; t < 4; ++t) acc[r][j] += std::int32_t(a[4 * r + t]) * std::int32_t(b[4 * j + t]);
  for (int r = 0; r < kMR4; ++r)
    for (int j = 0; j < kNR; ++j) c[r * kNR + j] = acc[r][j];
}
}  // namespace

void igemm4_micro_generic(std::int64_t kq, const std::int8_t* a, const std::uint8_t* b, std::int32_t* c) {
  micro_generic(kq, a, b, c);
}

RequantChannel requant_channel(std::int32_t bias, std::int32_t multiplier, int shift) {
  const int left = shift > 0 ? shift : 0, right = shift > 0 ? 0 : -shift;
  const auto mask = static_cast<std::int32_t>((1LL << right) - 1);
  RequantChannel c{bias, multiplier, left, right, mask, mask >> 1};
  c.single = right <= 30;
  if (c.single) {
    c.round = (std::int64_t(1) << 30) + (right ? std::int64_t(1) << (30 + right) : 0);
    c.correct = right ? std::int64_t(1) << 31 : 0;
    c.shift64 = 31 + right;
  }
  return c;
}

void fold_bias(RequantChannel& c, std::int64_t max_abs_sum) {
  const std::int64_t b = c.bias;
  if (!c.single || c.left != 0 || max_abs_sum < 0 || max_abs_sum + (b < 0 ? -b : b) >= (std::int64_t(1) << 31)) return;
  c.fold = true;
  c.round_b = c.round + b * c.multiplier;
  c.thr_b = -(std::int64_t(1) << 30) - b * c.multiplier;
}

std::vector<std::int32_t> pack_dw_nhwc(const std::int8_t* w, std::int64_t C, std::int64_t KH, std::int64_t KW) {
  const std::int64_t Q = (KW + 3) / 4, blocks = (C + kNR - 1) / kNR;
  std::vector<std::int32_t> out(static_cast<std::size_t>(blocks * KH * Q * kNR), 0);
  for (std::int64_t c = 0; c < C; ++c)
    for (std::int64_t kh = 0; kh < KH; ++kh)
      for (std::int64_t j = 0; j < Q; ++j) {
        std::uint32_t quad = 0;
        for (std::int64_t t = 0; t < 4 && 4 * j + t < KW; ++t)
          quad |= std::uint32_t(std::uint8_t(w[(c * KH + kh) * KW + 4 * j + t])) << (8 * t);
        out[static_cast<std::size_t>((((c / kNR) * KH + kh) * Q + j) * kNR + c % kNR)] =
            static_cast<std::int32_t>(quad);
      }
  return out;
}

bool dw_nhwc_biases(const std::int8_t* w, const std::int32_t* bias, std::int64_t C,
                    std::int64_t taps, std::int32_t zx, std::vector<std::int32_t>& out) {
  out.resize(static_cast<std::size_t>(C));
  for (std::int64_t c = 0; c < C; ++c) {
    std::int64_t sum = 0;
    for (std::int64_t t = 0; t < taps; ++t) sum += w[c * taps + t];
    const std::int64_t b = std::int64_t(bias[c]) - std::int64_t(zx + 128) * sum;
    if (b < INT32_MIN || b > INT32_MAX) return false;
    out[static_cast<std::size_t>(c)] = static_cast<std::int32_t>(b);
  }
  return true;
}

PackedW4 pack_w4(const std::int8_t* base, std::int64_t N, std::int64_t K, std::int64_t rs, std::int64_t cs) {
  PackedW4 p;
  p.n = N;
  p.k = K;
  p.kq = (K + 3) / 4;
  const std::int64_t panels = (N + kNR - 1) / kNR;
  p.data.assign(static_cast<std::size_t>(panels * p.kq * kNR * 4), 0);
  for (std::int64_t n = 0; n < N; ++n) {
    std::int8_t* o = p.data.data() + (n / kNR) * p.kq * kNR * 4 + (n % kNR) * 4;
    for (std::int64_t k = 0; k < K; ++k) o[(k / 4) * kNR * 4 + (k & 3)] = base[n * rs + k * cs];
  }
  return p;
}

void pack_rows4(const std::int8_t* x, std::int64_t R, std::int64_t K, std::int64_t kq, std::int64_t ld,
                std::uint8_t* out) {
  const std::int64_t blocks = (R + kMR4 - 1) / kMR4, kfull = K / 4;
  parallel_for(blocks, [&](std::int64_t b) {
    std::uint8_t* o = out + b * kq * kMR4 * 4;
    for (int r = 0; r < kMR4; ++r) {
      const std::int64_t row = b * kMR4 + r;
      std::uint8_t* d = o + r * 4;
      if (row >= R) {
        for (std::int64_t q = 0; q < kq; ++q) std::memset(d + q * kMR4 * 4, 0x80, 4);
        continue;
      }
      const std::int8_t* src = x + row * ld;
      for (std::int64_t q = 0; q < kfull; ++q) {
        std::uint32_t v;
        std::memcpy(&v, src + 4 * q, 4);
        v ^= 0x80808080u;  // x + 128 in every byte
        std::memcpy(d + q * kMR4 * 4, &v, 4);
      }
      for (std::int64_t q = kfull; q < kq; ++q)
        for (int t = 0; t < 4; ++t) {
          const std::int64_t k = 4 * q + t;
          d[q * kMR4 * 4 + t] = static_cast<std::uint8_t>((k < K ? src[k] : 0) ^ 0x80);
        }
    }
  });
}

void igemm_rows4(const PackedW4& w, const std::uint8_t* packed, std::int64_t R, const TileFn& epilogue) {
  // B is the weights, packed once as whole panels: read in place (no per-run packing).
  const std::function<void(std::int64_t, std::int64_t, std::int8_t*)> pack;
#if defined(__x86_64__)
  const bool vnni = use_vnni(), one = R == 1;  // batch 1: one row per tile, not eight
  igemm_driver<kMR4, 4>(R, w.kq, packed, w.n, pack, epilogue,
                        vnni ? (one ? igemm_row1_micro_avx512vnni : igemm_rows4_micro_avx512vnni)
                             : igemm_rows4_micro_generic,
                        vnni ? (one ? igemm_row1_micro2_avx512vnni : igemm_rows4_micro2_avx512vnni) : nullptr,
                        w.data.data());
#else
  igemm_driver<kMR4, 4>(R, w.kq, packed, w.n, pack, epilogue, igemm_rows4_micro_generic, nullptr, w.data.data());
#endif
}

void igemm_rows4_micro_generic(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b, std::int32_t* c) {
  micro_generic(kq, a, b, c);
}

RowsGemm::RowsGemm(const std::int8_t* base, std::int64_t N, std::int64_t K, std::int64_t rs, std::int64_t cs,
                   std::vector<std::int32_t> b4, std::vector<QuantizedMultiplier> m)
    : w(pack_w4(base, N, K, rs, cs)), bias4(std::move(b4)), mult(std::move(m)) {
  panels_ok = requant_panels(bias4.data(), mult.data(), N, panels);
}

void RowsGemm::run(const std::int8_t* x, std::int64_t R, std::int64_t ld, std::int32_t zp, std::int32_t lo,
                   std::int32_t hi, std::int8_t* y) const {
  const std::int64_t N = w.n;
  thread_local std::vector<std::uint8_t> packed;
  scratch(packed, static_cast<std::size_t>((R + kMR4 - 1) / kMR4 * w.kq * kMR4 * 4));
  pack_rows4(x, R, w.k, w.kq, ld, packed.data());
  igemm_rows4(w, packed.data(), R, [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* t) {
    std::int8_t* out = y + m0 * N + j0;
#if defined(__x86_64__)
    if (panels_ok && use_vnni()) {
      requant_cols_avx512(t, mr, nr, panels[static_cast<std::size_t>(j0 / kNR)], zp, lo, hi, out, N);
      return;
    }
#endif
    for (int i = 0; i < mr; ++i)
      for (int j = 0; j < nr; ++j) {
        const auto n = static_cast<std::size_t>(j0 + j);
        const auto acc = static_cast<std::int32_t>(static_cast<std::uint32_t>(t[i * kNR + j]) +
                                                   static_cast<std::uint32_t>(bias4[n]));
        out[i * N + j] = static_cast<std::int8_t>(std::clamp(multiply_by_quantized_multiplier(acc, mult[n]) + zp, lo, hi));
      }
  });
}

bool requant_panels(const std::int32_t* bias, const QuantizedMultiplier* m, std::int64_t N,
                    std::vector<RequantPanel>& out, std::int64_t max_abs_sum) {
  out.assign(static_cast<std::size_t>((N + kNR - 1) / kNR), RequantPanel{});
  for (auto& p : out) p.fold = max_abs_sum >= 0;
  for (std::int64_t n = 0; n < N; ++n) {
    RequantChannel c = requant_channel(bias[n], m[n].multiplier, m[n].shift);
    if (!c.single) return false;
    fold_bias(c, max_abs_sum);
    RequantPanel& p = out[static_cast<std::size_t>(n / kNR)];
    const auto j = static_cast<std::size_t>(n % kNR);
    p.bias[j] = c.bias;
    p.multiplier[j] = c.multiplier;
    p.left[j] = c.left;
    p.round[j & 1][j / 2] = c.round;
    p.correct[j & 1][j / 2] = c.correct;
    p.shift64[j & 1][j / 2] = c.shift64;
    p.round_b[j & 1][j / 2] = c.round_b;
    p.thr_b[j & 1][j / 2] = c.thr_b;
    p.fold = p.fold && c.fold;
  }
  // Lanes past N (computed, never stored) repeat channel N - 1, so that a panel's vector
  // properties (Step16's fast form) are those of its real channels.
  if (N % kNR != 0) {
    RequantPanel& p = out.back();
    for (std::int64_t j = N % kNR; j < kNR; ++j) {
      const std::size_t l = static_cast<std::size_t>((N - 1) % kNR),
                        k = static_cast<std::size_t>(j);
      p.bias[k] = p.bias[l];
      p.multiplier[k] = p.multiplier[l];
      p.left[k] = p.left[l];
      p.round[k & 1][k / 2] = p.round[l & 1][l / 2];
      p.correct[k & 1][k / 2] = p.correct[l & 1][l / 2];
      p.shift64[k & 1][k / 2] = p.shift64[l & 1][l / 2];
      p.round_b[k & 1][k / 2] = p.round_b[l & 1][l / 2];
      p.thr_b[k & 1][k / 2] = p.thr_b[l & 1][l / 2];
    }
  }
  return true;
}

RequantTileFn requant_tile_kernel() {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  static const bool bw = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl");
  if (isa == gemm::Isa::Avx512 && bw) return requant_tile_avx512;
#endif
  return isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2) ? requant_tile_avx2 : nullptr;
}

bool use_vnni() {
#if defined(__x86_64__)
  static const bool cpu = __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw") &&
                          __builtin_cpu_supports("avx512vl");
  return cpu && gemm::active_isa() == gemm::Isa::Avx512;
#else
  return false;
#endif
}

void igemm4(const PackedA4& a, std::int64_t N, const PackB4& pack, const TileFn& epilogue) {
#if defined(__x86_64__)
  const bool vnni = use_vnni();
  const auto micro = vnni ? igemm4_micro_avx512vnni : igemm4_micro_generic;
  igemm_driver<kMR4, 4>(a.m, a.kq, a.data.data(), N, pack, epilogue, micro,
                        vnni ? igemm4_micro2_avx512vnni : nullptr);
#else
  igemm_driver<kMR4, 4>(a.m, a.kq, a.data.data(), N, pack, epilogue, igemm4_micro_generic);
#endif
}

}  // namespace ec::runtime::quantized
