// The int8 GEMM in VNNI form (AVX-512 VNNI vpdpbusd: unsigned bytes x signed
// bytes, four products summed into each int32 lane, no saturation):
//
//   C[M, N] = A[M, K] * (B[K, N] + 128)       (A int8 weights, B int8 activations)
//
// vpdpbusd needs one unsigned operand, so the activations are flipped to uint8
// (x ^ 0x80 = x + 128) while they are packed; the caller subtracts
// 128 * sum_k A[m, k] with its other corrections (the integer result is exact, so
// the requantised output equals the int16 path's (igemm.h) bit for bit). A (the
// weights) is packed once in blocks of kMR4 rows: [ceil(M / kMR4)][kq][kMR4][4]
// int8 (K padded to 4*kq with zero weights); B per run in panels of kNR columns:
// [ceil(nc / kNR)][kq][kNR][4] uint8. Tiles of kMR4 x kNR are delivered to the
// same TileFn as igemm() (row stride kNR). Chosen only when the active ISA is
// AVX-512 and the CPU has VNNI (use_vnni()); vpmaddubsw (AVX2) saturates its int16
// pair sums, so AVX2 machines keep the exact int16 path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/igemm.h"

namespace ec::runtime::quantized {

constexpr int kMR4 = 8;  // rows of A per VNNI micro-tile (columns: kNR)

/// A packed for the VNNI kernel.
struct PackedA4 {
  std::int64_t m = 0, k = 0, kq = 0;
  std::vector<std::int8_t> data;
  std::size_t bytes() const { return data.size(); }
};

/// Packs A(i, k) = base[i * rs + k * cs], i < M, k < K.
PackedA4 pack_a4(const std::int8_t* base, std::int64_t M, std::int64_t K, std::int64_t rs, std::int64_t cs);

/// Bytes of a packed B slab of `nc` columns: [ceil(nc / kNR)][kq][kNR][4].
inline std::size_t packed_b4_size(std::int64_t kq, std::int64_t nc) {
  return static_cast<std::size_t>((nc + kNR - 1) / kNR * kq * kNR * 4);
}

/// Packs columns [j0, j0 + nc) of B(k, j) = base[k * rs + j * cs] (k < K) into `out` as
/// B + 128 (padding columns and K rows are 128, i.e. int8 0; their weights are 0 anyway).
void pack_b4_strided(const std::int8_t* base, std::int64_t K, std::int64_t kq, std::int64_t rs, std::int64_t cs,
                     std::int64_t j0, std::int64_t nc, std::uint8_t* out);

/// Packs columns [j0, j0 + nc) of B into `out` (packed_b4_size(kq, nc) bytes).
using PackB4 = std::function<void(std::int64_t j0, std::int64_t nc, std::uint8_t* out)>;

/// C = A * (B + 128), delivered tile by tile (kMR4 x kNR) to `epilogue`.
void igemm4(const PackedA4& a, std::int64_t N, const PackB4& pack, const TileFn& epilogue);

/// Micro-kernels: c[kMR4][kNR] = sum over kq quads of a[q][r][0..3] . b[q][j][0..3].
void igemm4_micro_generic(std::int64_t kq, const std::int8_t* a, const std::uint8_t* b, std::int32_t* c);
void igemm4_micro_avx512vnni(std::int64_t kq, const std::int8_t* a, const std::uint8_t* b, std::int32_t* c);
/// Two adjacent panels b0, b1 at once (16 accumulators, each broadcast used twice): the
/// tiles of b0 then b1 in c (2 x kMR4 x kNR).
void igemm4_micro2_avx512vnni(std::int64_t kq, const std::int8_t* a, const std::uint8_t* b0, const std::uint8_t* b1,
                              std::int32_t* c);
/// The AVX-512 form of pack_b4_strided for contiguous rows (cs == 1); same bytes.
void pack_b4_rows_avx512(const std::int8_t* base, std::int64_t K, std::int64_t kq, std::int64_t rs, std::int64_t j0,
                         std::int64_t nc, std::uint8_t* out);

/// Requantisation constants of one output channel (see requant_tile_avx512).
/// MultiplyByQuantizedMultiplier rounds twice (SaturatingRoundingDoublingHighMul, then
/// RoundingDivideByPOT by `right`); for right <= 30 both roundings are one 64-bit step,
/// exactly (`single`): with p = (x << left) * multiplier,
///   result = (p + round - (p < -2^30 ? correct : 0)) >> (31 + right),
///   round = 2^30 + (right ? 2^(30 + right) : 0), correct = right ? 2^31 : 0
/// (floor((p + 2^30) / 2^31) is the high mul for every sign; nested floors of integer
/// divisions fold into one; the second rounding's "-1 when negative" is the correction).
struct RequantChannel {
  std::int32_t bias, multiplier, left, right, rmask, rhalf;
  std::int64_t round = 0, correct = 0, shift64 = 0;
  bool single = false;
  // fold (fold_bias): no left shift and x + bias never wraps for the caller's sums, so
  // p = (x + bias) m = x m + bias m: round_b = round + bias m, and the correction applies
  // when x m < thr_b = -2^30 - bias m; x itself then needs neither the add nor the shift.
  bool fold = false;
  std::int64_t round_b = 0, thr_b = 0;
};
/// Sets c.fold (and its constants) when c is single, has no left shift and every sum the
/// caller passes satisfies |x| <= max_abs_sum with |x| + |bias| < 2^31 (no int32 wrap in
/// the scalar form's x + bias): the same results, two vector ops fewer per 16 outputs.
void fold_bias(RequantChannel& c, std::int64_t max_abs_sum);
/// RequantChannel of (bias, multiplier, shift): left = max(shift, 0), right = max(-shift, 0),
/// rmask = 2^right - 1, rhalf = rmask >> 1, and the single-step constants.
RequantChannel requant_channel(std::int32_t bias, std::int32_t multiplier, int shift);

// ---- The GEMM with the roles swapped, for FullyConnected / Gemm / MatMul with a constant
// weight (int8_linear.cpp): rows of activations x [R, K] are the broadcast side (uint8,
// x + 128), the weights the vector side (16 output channels per panel), so a tile is
// kMR4 activation rows x kNR output channels and its rows are contiguous in y [R, N].

/// Weights W(n, k) packed once in panels of kNR output channels: [ceil(N / kNR)][kq][kNR][4].
struct PackedW4 {
  std::int64_t n = 0, k = 0, kq = 0;
  std::vector<std::int8_t> data;
};
/// Packs W(n, k) = base[n * rs + k * cs], n < N, k < K (padding 0).
PackedW4 pack_w4(const std::int8_t* base, std::int64_t N, std::int64_t K, std::int64_t rs, std::int64_t cs);
/// Packs rows [0, R) of x (x(r, k) = x[r * ld + k]) as uint8 x + 128 in blocks of kMR4 rows:
/// [ceil(R / kMR4)][kq][kMR4][4] (padding rows and K values are 128, i.e. int8 0).
void pack_rows4(const std::int8_t* x, std::int64_t R, std::int64_t K, std::int64_t kq, std::int64_t ld,
                std::uint8_t* out);
/// C = (X + 128) * W^T over `packed` rows (pack_rows4), tile by tile (kMR4 x kNR) to `epilogue`
/// (m0 = first activation row, j0 = first output channel); the VNNI micro-kernel when
/// use_vnni(), else portable loops.
void igemm_rows4(const PackedW4& w, const std::uint8_t* packed, std::int64_t R, const TileFn& epilogue);
void igemm_rows4_micro_avx512vnni(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b, std::int32_t* c);
void igemm_rows4_micro2_avx512vnni(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b0, const std::int8_t* b1,
                                   std::int32_t* c);
void igemm_rows4_micro_generic(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b, std::int32_t* c);
/// The same for a single activation row (R = 1): only row 0 of each tile is computed.
void igemm_row1_micro_avx512vnni(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b, std::int32_t* c);
void igemm_row1_micro2_avx512vnni(std::int64_t kq, const std::uint8_t* a, const std::int8_t* b0, const std::int8_t* b1,
                                  std::int32_t* c);

/// Requantisation constants of kNR output channels held in the lanes of a tile (a panel of
/// PackedW4): per lane bias, multiplier and left shift, and the single-step constants
/// (RequantChannel) split into even and odd lanes.
struct RequantPanel {
  alignas(64) std::int32_t bias[16], multiplier[16], left[16];
  alignas(64) std::int64_t round[2][8], correct[2][8], shift64[2][8];
  // fold: every channel's bias folded into its rounding (RequantChannel::fold)
  alignas(64) std::int64_t round_b[2][8], thr_b[2][8];
  bool fold = false;
};
/// Panels for channels [0, N) (bias[n], m[n]); false when some channel's right shift is
/// beyond the single step (> 30): the caller then requantises element by element.
/// max_abs_sum >= 0: no sum the caller passes exceeds it in magnitude, so a panel whose
/// channels all allow it folds its biases (fold_bias: two vector ops fewer per 16).
bool requant_panels(const std::int32_t* bias, const QuantizedMultiplier* m, std::int64_t N,
                    std::vector<RequantPanel>& out, std::int64_t max_abs_sum = -1);
/// out[r * out_stride + j] = clamp(MBQM(tile[r * kNR + j] + bias_j) + zp, lo, hi) for r < mr,
/// j < nr, with lane j's constants from `p` (AVX-512), bit for bit requant_row_generic's.
void requant_cols_avx512(const std::int32_t* tile, int mr, int nr, const RequantPanel& p, std::int32_t zp,
                         std::int32_t lo, std::int32_t hi, std::int8_t* out, std::int64_t out_stride);

/// Channels-last int32 sums acc [pixels, channels] requantised (AVX-512):
/// out[p * channels + c] = clamp(MBQM(acc[p * channels + c] + bias_c) + zp, lo, hi), channel
/// c's constants in lane c % kNR of panels[c / kNR] (requant_panels), bit for bit
/// requant_row_generic's.
void requant_nhwc_avx512(const std::int32_t* acc, std::int64_t pixels, std::int64_t channels,
                         const RequantPanel* panels, std::int32_t zp, std::int32_t lo, std::int32_t hi,
                         std::int8_t* out);

/// A whole GEMM tile requantised at once (AVX-512): for r < mr, j < nr,
/// out[r * out_stride + j] = clamp(MBQM(tile[r * kNR + j] + ch[r].bias, ch[r]) + zp, lo, hi),
/// bit for bit requant_row_generic's result, with every row's constants loaded from `ch`.
void requant_tile_avx512(const std::int32_t* tile, int mr, int nr, const RequantChannel* ch, std::int32_t zp,
                         std::int32_t lo, std::int32_t hi, std::int8_t* out, std::int64_t out_stride);

/// The same with AVX2 (8 lanes, two per row; partial rows through a bounce buffer).
void requant_tile_avx2(const std::int32_t* tile, int mr, int nr, const RequantChannel* ch, std::int32_t zp,
                       std::int32_t lo, std::int32_t hi, std::int8_t* out, std::int64_t out_stride);
using RequantTileFn = void (*)(const std::int32_t*, int, int, const RequantChannel*, std::int32_t, std::int32_t,
                               std::int32_t, std::int8_t*, std::int64_t);
/// The widest requant_tile the active ISA allows, or null (requant_row_generic per row).
RequantTileFn requant_tile_kernel();

/// An int8 x int8 product with a constant weight W [N, K] through igemm_rows4, requantised
/// per output channel (TFLite FullyConnectedPerChannel): y[r, n] = clamp(MBQM(sum_k
/// (x[r, k] + 128) w[n, k] + bias4[n], m[n]) + zp, lo, hi), bias4 holding every other term.
/// Used by FullyConnected/Gemm/MatMul and by 1x1 Conv on 1x1 planes (squeeze-excite).
struct RowsGemm {
  PackedW4 w;
  std::vector<std::int32_t> bias4;
  std::vector<QuantizedMultiplier> mult;
  std::vector<RequantPanel> panels;
  bool panels_ok = false;
  /// Packs W(n, k) = base[n * rs + k * cs] and the constants.
  RowsGemm(const std::int8_t* base, std::int64_t N, std::int64_t K, std::int64_t rs, std::int64_t cs,
           std::vector<std::int32_t> bias4, std::vector<QuantizedMultiplier> mult);
  RowsGemm() = default;
  /// Rows [0, R) of x (row stride ld) into y [R, N].
  void run(const std::int8_t* x, std::int64_t R, std::int64_t ld, std::int32_t zp, std::int32_t lo, std::int32_t hi,
           std::int8_t* y) const;
};

/// One channel of an int8 depthwise convolution, stride 1 or 2 along W, no dilation along W
/// (int8_conv.cpp): `plane` is the channel's x - zx as int16, padded (row stride RS >= the
/// padded width, the first output's window at its origin; lanes past a row's outputs read
/// on into the next rows, the last row up to 64 + 2 KW values past the plane: readable,
/// their sums are dropped),
/// `w` its KH x KW taps (KW <= 16, KH * ceil(KW / 2) <= 64); out[oh * OW + ow] =
/// clamp(MBQM(sum + bias) + zp, lo, hi) with `c` (AVX-512 VNNI vpdpwssd, two taps per step).
struct DwChannel {
  std::int64_t OH, OW, KH, KW, sh, sw, dh, RS;
  std::int32_t zp, lo, hi;
};
void dw_channel_vnni(const DwChannel& d, const std::int16_t* plane, const std::int8_t* w, const RequantChannel& c,
                     std::int8_t* out);
/// A channels-last int8 depthwise convolution (one output channel per input channel,
/// dilation 1, batch N): y[n, oh, ow, c] = clamp(MBQM(sum over kh, kw of
/// (x[n, oh sh - pt + kh, ow sw - pl + kw, c] - zx) w[c, kh, kw] + bias_c) + zp, lo, hi),
/// taps outside the input adding 0: TFLite's per-channel DepthwiseConv.
struct DwNhwc {
  std::int64_t N, H, W, C, OH, OW, KH, KW, sh, sw, pt, pl;
  std::int32_t zx, zp, lo, hi;
  const std::int8_t* table = nullptr;  // or every output through it (lut_apply), row by row
};
/// Whether dw_nhwc_vnni takes a KH x KW kernel (its tap quads fit its registers' array).
inline bool dw_nhwc_fits(std::int64_t KH, std::int64_t KW) {
  return KH >= 1 && KW >= 1 && KH * ((KW + 3) / 4) <= 64;
}
/// w[c * KH * KW + kh * KW + kw] as quads of int8 taps (w[c, kh, 4j .. 4j + 3], 0 past KW),
/// one int32 per channel: [ceil(C / 16)][KH][ceil(KW / 4)][16].
std::vector<std::int32_t> pack_dw_nhwc(const std::int8_t* w, std::int64_t C, std::int64_t KH, std::int64_t KW);
/// dw_nhwc_vnni's biases: bias[c] - (zx + 128) * sum of channel c's taps (its sums are of
/// x + 128, padding included as zx + 128); false when one leaves int32.
bool dw_nhwc_biases(const std::int8_t* w, const std::int32_t* bias, std::int64_t C,
                    std::int64_t taps, std::int32_t zx, std::vector<std::int32_t>& out);
/// The convolution on AVX-512 VNNI (use_vnni()), bit for bit the reference's: each input
/// row becomes once a row of quads (x[iw .. iw + 3] + 128 as uint8) per channel, so one
/// vpdpbusd adds four taps for 16 channels; the sums are requantised in registers with
/// channel c's constants in lane c % 16 of panels[c / 16] (requant_panels over
/// dw_nhwc_biases, every panel folded: |sum| <= KH KW 255 128). Output rows are split over
/// the thread pool.
void dw_nhwc_vnni(const DwNhwc& d, const std::int8_t* x, const std::int32_t* w_packed, const RequantPanel* panels,
                  std::int8_t* y);
/// A pointwise channels-last int8 convolution (1x1, stride 1, unpadded, one group) over
/// `pixels` rows of x [pixels, K]: y[p, n] = clamp(MBQM(sum_k (x[p, k] + 128) W(n, k) +
/// bias_n) + zp, lo, hi), W packed by pack_w4, channel n's constants (bias included) in
/// lane n % 16 of panels[n / 16] (requant_panels). For few input channels, where a GEMM's
/// int32 output costs more than its products: per 8 pixels and 16 channels the sums stay
/// in registers (vpdpbusd, AVX-512 VNNI: use_vnni()) and are requantised there; pixels
/// are split over the thread pool.
/// `table` (or null): every output passed through it (lut_apply) 64 pixels at a time,
/// while they are in L1 (an int8 activation after the Conv: PreparedOp::take_output_table).
void pw_nhwc_vnni(const PackedW4& w, const RequantPanel* panels, const std::int8_t* x,
                  std::int64_t pixels, std::int32_t zp, std::int32_t lo, std::int32_t hi,
                  std::int8_t* y, const std::int8_t* table = nullptr);
/// A pointwise Conv as pw_nhwc_vnni takes it (w, panels, zp, lo, hi) on x [N, H, W, w->k],
/// whose output a depthwise Conv alone reads (dw_nhwc_vnni_after).
struct PwStage {
  const PackedW4* w = nullptr;
  const RequantPanel* panels = nullptr;
  const std::int8_t* x = nullptr;
  std::int32_t zp = 0, lo = -128, hi = 127;
  const std::int8_t* table = nullptr;  // as pw_nhwc_vnni's
};
/// dw_nhwc_vnni on the output of `pw` (d's input: [N, H, W, C = pw.w->n]), which is never
/// in memory whole: each thread computes the rows of it that its output rows read, as
/// they are first needed, into a row buffer in its cache (an expanded tensor of an
/// inverted-residual block otherwise goes out to memory and back). Bit for bit the two
/// convolutions apart; a range's first input rows are computed once more by the
/// range before (one range per thread).
void dw_nhwc_vnni_after(const PwStage& pw, const DwNhwc& d, const std::int32_t* w_packed,
                        const RequantPanel* panels, std::int8_t* y);
/// How many pairs dw_nhwc_vnni_after has run in this process (for tests: which path ran).
std::int64_t dw_after_pw_runs();
/// The int8 Conv takes pw_nhwc_vnni up to this many input channels (beyond, oneDNN's
/// register blocking wins: mobilenet_v2's 384 -> 96 ran 1.2x slower on it).
constexpr std::int64_t kPwMaxInputChannels = 256;
/// How many convolutions pw_nhwc_vnni has run in this process (for tests: which path ran).
std::int64_t pw_nhwc_vnni_runs();
/// Tests: dw_nhwc_vnni builds its quad rows without VBMI2 (the form for VNNI machines that
/// lack it) while `on`.
void force_dw_plain_quads(bool on);
/// How many convolutions dw_nhwc_vnni has run in this process (for tests: which path ran).
std::int64_t dw_nhwc_vnni_runs();
/// dst[i] = src[i] - z as int16, i < n (AVX-512 BW, VL).
void widen_sub_avx512(const std::int8_t* src, std::int64_t n, std::int32_t z, std::int16_t* dst);

/// Whether the VNNI path is taken: the active ISA is AVX-512 (gemm::active_isa(),
/// EC_GEMM_ISA) and the CPU has AVX-512 VNNI.
bool use_vnni();

}  // namespace ec::runtime::quantized
