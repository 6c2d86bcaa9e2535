// int8 x int8 -> int32 matrix product for the int8 kernels:
//
//   C[M, N] = A[M, K] * B[K, N]     (raw int8 values; zero points are corrected by the caller)
//
// Both operands are widened to int16 and interleaved in pairs along K, so the
// micro-kernel's step is a multiply-add of pairs (AVX2 vpmaddwd: 8 int32 lanes
// of a0*b0 + a1*b1). A (the weight side: output channels) is packed once, in
// blocks of kMR rows; B (the activation side: pixels, batch rows) is packed per
// run in slabs of whole kNR-column panels, by a caller-supplied packer (im2col
// or a strided matrix). The micro-kernel (4 x 16) is chosen once: AVX-512 VNNI
// (igemm_avx512.cpp), AVX2 (igemm_avx2.cpp; separate TUs with target
// attributes) or portable loops;
// gemm::active_isa() == Generic (EC_GEMM_ISA=generic) forces the portable one.
// Tasks (row groups x column slabs) run on the current thread pool; integer
// sums are exact, so results never depend on the split or the thread count.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/runtime/thread_pool.h"

namespace ec::runtime::quantized {

constexpr int kMR = 4;   // rows of A per micro-tile
constexpr int kNR = 16;  // columns of B per micro-tile

/// A packed: [ceil(M / kMR)][kp][kMR][2] int16 (K padded to 2*kp with zeros).
struct PackedA {
  std::int64_t m = 0, k = 0, kp = 0;
  std::vector<std::int16_t> data;
  std::size_t bytes() const { return data.size() * sizeof(std::int16_t); }
};

/// Packs A(i, k) = base[i * rs + k * cs], i < M, k < K (int8 values, or int16 values
/// for the exact integer ops whose operands are int8/uint8 less a zero point).
PackedA pack_a(const std::int8_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs);
PackedA pack_a(const std::int16_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs);

/// int16 values of a packed B slab of `nc` columns: [ceil(nc / kNR)][kp][kNR][2].
inline std::size_t packed_b_size(std::int64_t kp, std::int64_t nc) {
  return static_cast<std::size_t>((nc + kNR - 1) / kNR * kp * kNR * 2);
}

/// Packs columns [j0, j0 + nc) of B(k, j) = base[k * rs + j * cs] (k < K) into `out`
/// (padding columns and the odd K row are zero).
void pack_b_strided(const std::int8_t* base, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t cs,
                    std::int64_t j0, std::int64_t nc, std::int16_t* out);
void pack_b_strided(const std::int16_t* base, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t cs,
                    std::int64_t j0, std::int64_t nc, std::int16_t* out);

/// Packs a row-major int8 matrix slab `src` [K][nc] (row stride ld) into `out`.
inline void pack_b_rows(const std::int8_t* src, std::int64_t K, std::int64_t kp, std::int64_t ld, std::int64_t nc,
                        std::int16_t* out) {
  pack_b_strided(src, K, kp, ld, 1, 0, nc, out);
}

/// Packs columns [j0, j0 + nc) of B; the buffer holds packed_b_size(kp, nc) int16.
using PackB = std::function<void(std::int64_t j0, std::int64_t nc, std::int16_t* out)>;
/// Receives one micro-tile: rows [m0, m0 + mr), columns [j0, j0 + nr) of C in
/// `tile` (row stride kNR).
using TileFn = std::function<void(std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* tile)>;

/// The driver shared by igemm() and igemm4(): A packed in blocks of MR rows of kg groups
/// of G values (element type TA), B packed per task into column slabs whose packed size
/// (kg * G * sizeof(TB) bytes per column) stays in L2; tasks are slabs x row groups, enough
/// for every thread; micro(kg, a_block, b_panel, tile) fills an MR x kNR tile.
/// micro2, when given, fills the tiles of two adjacent panels at once (each A value loaded
/// once for twice the products: the VNNI kernels' 8 x 32 form), written one after the other.
/// b_packed, when given, is B already packed whole (panels of kNR columns): read in place,
/// `pack` unused.
template <int MR, int G, typename TA, typename TB, typename Micro>
void igemm_driver(std::int64_t M, std::int64_t kg, const TA* a, std::int64_t N,
                  const std::function<void(std::int64_t, std::int64_t, TB*)>& pack, const TileFn& epilogue,
                  Micro micro,
                  void (*micro2)(std::int64_t, const TA*, const TB*, const TB*, std::int32_t*) = nullptr,
                  const TB* b_packed = nullptr) {
  if (M == 0 || N == 0) return;
  const std::int64_t mblocks = (M + MR - 1) / MR, col_bytes = std::max<std::int64_t>(1, kg * G * std::int64_t(sizeof(TB)));
  std::int64_t nc = std::clamp<std::int64_t>((192 * 1024) / col_bytes / kNR * kNR, kNR, 512);
  const std::int64_t threads = current_threads();
  while (nc > kNR && (N + nc - 1) / nc < 2 * threads) nc -= kNR;  // narrow the slabs first
  const std::int64_t slabs = (N + nc - 1) / nc;
  const std::int64_t mgroups = std::min<std::int64_t>(mblocks, std::max<std::int64_t>(1, (2 * threads + slabs - 1) / slabs));
  const std::int64_t mper = (mblocks + mgroups - 1) / mgroups;
  parallel_for(slabs * mgroups, [&](std::int64_t t) {
    const std::int64_t s = t / mgroups, g = t % mgroups;
    const std::int64_t j0 = s * nc, w = std::min(nc, N - j0);
    thread_local std::vector<TB> bbuf;
    const TB* bslab = b_packed ? b_packed + (j0 / kNR) * kg * kNR * G : nullptr;  // B packed once: read in place
    if (!bslab) {
      scratch(bbuf, static_cast<std::size_t>((w + kNR - 1) / kNR * kg * kNR * G));
      pack(j0, w, bbuf.data());
      bslab = bbuf.data();
    }
    alignas(64) std::int32_t tile[2 * MR * kNR];
    const std::int64_t mb_end = std::min(mblocks, (g + 1) * mper);
    for (std::int64_t pn = 0; pn * kNR < w;) {
      const TB* bp = bslab + pn * kg * kNR * G;
      if (micro2 && (pn + 1) * kNR < w) {  // two panels (the second may be partial)
        const int nr2 = static_cast<int>(std::min<std::int64_t>(kNR, w - (pn + 1) * kNR));
        for (std::int64_t mb = g * mper; mb < mb_end; ++mb) {
          micro2(kg, a + mb * kg * MR * G, bp, bp + kg * kNR * G, tile);
          const int mr = static_cast<int>(std::min<std::int64_t>(MR, M - mb * MR));
          epilogue(mb * MR, mr, j0 + pn * kNR, kNR, tile);
          epilogue(mb * MR, mr, j0 + (pn + 1) * kNR, nr2, tile + MR * kNR);
        }
        pn += 2;
        continue;
      }
      const int nr = static_cast<int>(std::min<std::int64_t>(kNR, w - pn * kNR));
      for (std::int64_t mb = g * mper; mb < mb_end; ++mb) {
        micro(kg, a + mb * kg * MR * G, bp, tile);
        epilogue(mb * MR, static_cast<int>(std::min<std::int64_t>(MR, M - mb * MR)), j0 + pn * kNR, nr, tile);
      }
      ++pn;
    }
  });
}

/// C = A * B, delivered tile by tile to `epilogue` (called concurrently, each
/// element exactly once).
void igemm(const PackedA& a, std::int64_t N, const PackB& pack, const TileFn& epilogue);

/// Micro-kernels: c[kMR][kNR] = sum over kp pairs of a[p][r][0..1] . b[p][j][0..1].
void igemm_micro_generic(std::int64_t kp, const std::int16_t* a, const std::int16_t* b, std::int32_t* c);
void igemm_micro_avx2(std::int64_t kp, const std::int16_t* a, const std::int16_t* b, std::int32_t* c);
/// AVX-512 VNNI (vpdpwssd), used when the active ISA is AVX-512 and the CPU has VNNI.
void igemm_micro_avx512vnni(std::int64_t kp, const std::int16_t* a, const std::int16_t* b, std::int32_t* c);

/// acc[i] += w * row[i], i < n: the depthwise tap loop (AVX2 build, or plain loops).
void dw_accumulate_avx2(std::int32_t* acc, const std::int16_t* row, std::int64_t n, std::int32_t w);
/// The AVX2 depthwise loop when the active ISA allows it (see igemm()), else null.
using DwAccumulateFn = void (*)(std::int32_t*, const std::int16_t*, std::int64_t, std::int32_t);
DwAccumulateFn dw_accumulate_kernel();

/// out[j] = clamp(MBQM(acc[j] + bias, multiplier, shift) + zp, lo, hi), j < n: the
/// requantisation of one row of outputs sharing a channel (TFLite arithmetic,
/// fixed_point.h; the multiplier must be a QuantizeMultiplier result).
using RequantRowFn = void (*)(const std::int32_t* acc, std::int64_t n, std::int32_t bias, std::int32_t multiplier,
                              int shift, std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out);
void requant_row_generic(const std::int32_t* acc, std::int64_t n, std::int32_t bias, std::int32_t multiplier, int shift,
                         std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out);
void requant_row_avx2(const std::int32_t* acc, std::int64_t n, std::int32_t bias, std::int32_t multiplier, int shift,
                      std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out);
/// The AVX2 row requantiser when the active ISA allows it, else the generic one.
void requant_row_avx512(const std::int32_t* acc, std::int64_t n, std::int32_t bias, std::int32_t multiplier,
                        int shift, std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out);
RequantRowFn requant_row_kernel();

/// Depthwise row: acc[j] = bias + sum_t w[t] * rows[t][j], j < n (AVX2; reads up to 15
/// values past the end of each row and writes up to 15 past acc[n - 1]).
void dw_taps_avx2(const std::int16_t* const* rows, const std::int16_t* w, int taps, std::int64_t n, std::int32_t bias,
                  std::int32_t* acc);

/// Add/Sub of two int8 rows with TFLite's integer scheme (fixed_point.h add_quantized),
/// bit for bit: out[i] = clamp(MBQM<1(MBQM<1((x1 + off1) << 20, m1) +- MBQM<1((x2 + off2)
/// << 20, m2), mo) + zo, lo, hi). Every multiplier's shift must be <= 0 (callers check).
struct AddRowParams {
  std::int32_t off1, off2, out_zp, lo, hi;
  std::int32_t m1, m2, mo;
  int shift1, shift2, shift_o;
  bool sub;
};
using AddRowFn = void (*)(const std::int8_t* a, const std::int8_t* b, std::int64_t n, const AddRowParams& p,
                          std::int8_t* out);
void add_row_avx2(const std::int8_t* a, const std::int8_t* b, std::int64_t n, const AddRowParams& p, std::int8_t* out);
void add_row_avx512(const std::int8_t* a, const std::int8_t* b, std::int64_t n, const AddRowParams& p,
                    std::int8_t* out);
/// The widest add_row the active ISA allows, or null (the scalar loop).
AddRowFn add_row_kernel();
/// add_row_avx512's input step on n values u[i] = x + offset (|u| <= 255), for tests:
/// out[i] = MBQM(u[i] << 20, m, shift) with m >= 0, -30 <= shift <= -1, in 32-bit arithmetic.
void add_input_mbqm_avx512(const std::int32_t* u, std::int64_t n, std::int32_t m, int shift, std::int32_t* out);

/// TFLite's int8 Mul over a row (AVX-512), bit for bit fixed_point.h mul_quantized:
/// out[i] = clamp(zp + MBQM((a[i] + off_a) * (b + off_b), multiplier, shift), lo, hi) with
/// b = b_ptr[i], or b_ptr[0] for every i when `b_scalar` (a channel's gate); `rows` > 1:
/// as many consecutive rows of n in a and out, each with the same b (a channels-last gate
/// over pixels).
void mul_row_avx512(const std::int8_t* a, const std::int8_t* b_ptr, bool b_scalar, std::int64_t n,
                    std::int32_t off_a, std::int32_t off_b, std::int32_t multiplier, int shift,
                    std::int32_t zp, std::int32_t lo, std::int32_t hi, std::int8_t* out,
                    std::int64_t rows = 1);
/// Whether mul_row_avx512 may be used (active ISA AVX-512, CPU with BW and VL).
bool use_mul_row_avx512();

/// One row of a depthwise plane (AVX2): dst[(q % sw) * Wq + q / sw] = src[iw] - z for
/// q = iw + pw, iw < n (sw = 1 or 2 vectorised, other strides element by element).
void widen_row_avx2(const std::int8_t* src, std::int64_t n, std::int32_t z, std::int64_t pw, std::int64_t sw,
                    std::int64_t Wq, std::int16_t* dst);

/// ONNX QuantizeLinear per tensor of f32 (AVX2), bit for bit the scalar form:
/// q[i] = clamp(nearbyint(x[i] / scale) + zp, qmin, qmax) (IEEE division, ties to even),
/// stored as int8 (qmin >= -128) or uint8 (`u8`). NaN gives qmin.
void quantize_linear_avx2(const float* x, std::int64_t n, float scale, std::int32_t zp, std::int32_t qmin,
                          std::int32_t qmax, bool u8, void* q);

/// out[t] = src[2 t], t < n (AVX2; reads nothing past src[2 n - 1]): im2col of stride-2 rows.
void gather_stride2_avx2(const std::int8_t* src, std::int64_t n, std::int8_t* out);
/// Sum of n int8 values (AVX2), exact.
std::int64_t sum_i8_avx2(const std::int8_t* x, std::int64_t n);
/// y[i] = lut[x[i] + 128], i < n (AVX-512 VBMI vpermi2b, 64 per step).
void lut_apply_avx512vbmi(const std::int8_t* lut, const std::int8_t* x, std::int64_t n, std::int8_t* y);
/// The table lookup the CPU and the active ISA allow: VBMI, else a scalar loop.
void lut_apply(const std::int8_t* lut, const std::int8_t* x, std::int64_t n, std::int8_t* y);

/// out[i] = max over r < count of rows[r][i], i < n: int8 max pooling's vertical and
/// horizontal passes (AVX2).
void max_rows_avx2(const std::int8_t* const* rows, int count, std::int64_t n, std::int8_t* out);

/// ONNX DequantizeLinear per tensor of int8 (or uint8 when `u8`) to f32 (AVX2), bit for bit
/// the portable (double(q) - zp) * scale rounded to float: y[i] = float(q[i] - zp) * scale.
void dequantize_linear_avx2(const void* q, bool u8, std::int64_t n, float scale, std::int32_t zp, float* y);

/// AVX2 forms of the hybrid input quantisation (fixed_point.h asymmetric_*), bit-identical:
/// lo/hi folded with the min/max of x, and asymmetric_quantize_with.
void minmax_avx2(const float* x, std::int64_t n, float& lo, float& hi);
void asymmetric_quantize_avx2(const float* x, std::int64_t n, float scale, std::int32_t zero_point, std::int8_t* q);
/// Calibration observers (core/quantize/observer.cpp), AVX2, the same results as their loops:
/// min and max of x (n >= 1) and whether every value is finite.
bool minmax_finite_avx2(const float* x, std::int64_t n, float& lo, float& hi);
/// The quantisation report's error sums (core/quantize/quant_math.cpp), AVX2: over
/// e = x - approx with approx = q ? (q - zp) * scale : a, adds sum x^2 and sum e^2 (in
/// float over blocks of 1024 values, in double across blocks) and folds max |e|.
void sqnr_sums_avx2(const float* x, const float* a, const std::int8_t* q, std::int64_t n, float scale,
                    std::int32_t zp, double& signal, double& noise, float& max_abs_error);
/// Whether the AVX2 helpers may be used (the active ISA, see igemm()).
bool use_avx2();

}  // namespace ec::runtime::quantized
