// ConvInteger and MatMulInteger, and the exact integer products QLinearConv and
// QLinearMatMul requantise (kernels/qlinear.cpp):
//
//   ConvInteger:   y[n, m, p] = sum_{c, t} (x[n, c, p s - pad + t d] - x_zp) (w[m, c, t] - w_zp[m])
//   MatMulInteger: y = (a - a_zp) (b - b_zp)                                       (int32)
//
// Both operands are widened to int16 with their zero points subtracted (values in
// [-255, 255]) and multiplied by the int16 GEMM of quantized/igemm.h: the weights (the
// left operand) packed per call, the right operand packed by the GEMM's tasks straight
// from the int16 input (Conv: im2col on the fly, padding = 0 = x_zp - x_zp). Integer sums
// are exact: results do not depend on the ISA, the split or the thread count.
#include "core/runtime/kernels/integer_ops.h"

#include <cstring>

#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using quantized::kMR;
using quantized::kNR;
using quantized::PackedA;

void check_byte(const Tensor& t, const char* what, const char* name) {
  if (!t.defined()) fail(std::string(what) + ": input '" + name + "' is missing");
  if (t.dtype() != DType::UInt8 && t.dtype() != DType::Int8)
    fail(std::string(what) + ": '" + name + "' must be uint8 or int8, got " + t.type_string());
}

// A zero point's values (empty when absent = 0): of the quantised tensor's dtype, one value
// or `per` values (per == 0: one only).
std::vector<std::int32_t> zero_points(const Tensor& zp, const Tensor& of, std::int64_t per, const char* what,
                                      const char* name) {
  if (!zp.defined()) return {};
  if (zp.dtype() != of.dtype())
    fail(std::string(what) + ": '" + name + "' is " + zp.type_string() + " but its tensor is " +
         std::string(ir::dtype_name(of.dtype())));
  if (zp.numel() != 1 && (per == 0 || zp.numel() != per))
    fail(std::string(what) + ": '" + name + "' has " + std::to_string(zp.numel()) + " values; expected 1" +
         (per ? " or " + std::to_string(per) : std::string()));
  std::vector<std::int32_t> v(static_cast<std::size_t>(zp.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int32_t>(zp.get_int(static_cast<std::int64_t>(i)));
  return v;
}

inline std::int32_t zp_at(const std::vector<std::int32_t>& zp, std::int64_t i) {
  return zp.empty() ? 0 : zp.size() == 1 ? zp[0] : zp[static_cast<std::size_t>(i)];
}

// out[i] = t[i] - zp(i) as int16, zp(i) = zp_at(zp, index(i)).
template <typename Index>
void widen(const Tensor& t, const std::vector<std::int32_t>& zp, Index index, std::int16_t* out) {
  const std::int64_t n = t.numel();
  const bool u8 = t.dtype() == DType::UInt8;
  const auto* pu = t.data<std::uint8_t>();
  const auto* ps = t.data<std::int8_t>();
  constexpr std::int64_t kChunk = 1 << 16;
  parallel_for_if(n >= 2 * kChunk, (n + kChunk - 1) / kChunk, [&](std::int64_t c) {
    const std::int64_t end = std::min(n, (c + 1) * kChunk);
    if (zp.size() <= 1) {
      const std::int32_t z = zp_at(zp, 0);
      for (std::int64_t i = c * kChunk; i < end; ++i)
        out[i] = static_cast<std::int16_t>((u8 ? std::int32_t(pu[i]) : std::int32_t(ps[i])) - z);
    } else {
      for (std::int64_t i = c * kChunk; i < end; ++i)
        out[i] = static_cast<std::int16_t>((u8 ? std::int32_t(pu[i]) : std::int32_t(ps[i])) - zp_at(zp, index(i)));
    }
  });
}

// PackedA (igemm.h layout [ceil(M / kMR)][kp][kMR][2]) of A(i, k) = src[i * rs + k].
PackedA pack_a16(const std::int16_t* src, std::int64_t M, std::int64_t K, std::int64_t rs) {
  PackedA p;
  p.m = M;
  p.k = K;
  p.kp = (K + 1) / 2;
  const std::int64_t mb = (M + kMR - 1) / kMR;
  p.data.assign(static_cast<std::size_t>(mb * p.kp * kMR * 2), 0);
  for (std::int64_t i = 0; i < M; ++i) {
    std::int16_t* out = p.data.data() + (i / kMR) * p.kp * kMR * 2 + (i % kMR) * 2;
    for (std::int64_t k = 0; k < K; ++k) out[(k / 2) * kMR * 2 + (k & 1)] = src[i * rs + k];
  }
  return p;
}

// Packs columns [j0, j0 + nc) of B(k, j) = src[k * rs + j] (k < K) in igemm's B layout.
void pack_b16(const std::int16_t* src, std::int64_t K, std::int64_t kp, std::int64_t rs, std::int64_t j0,
              std::int64_t nc, std::int16_t* out) {
  for (std::int64_t pn = 0; pn * kNR < nc; ++pn) {
    const std::int64_t w = std::min<std::int64_t>(kNR, nc - pn * kNR);
    std::int16_t* o = out + pn * kp * kNR * 2;
    const std::int16_t* col0 = src + j0 + pn * kNR;
    for (std::int64_t p = 0; p < kp; ++p, o += kNR * 2) {
      const std::int16_t* r0 = col0 + 2 * p * rs;
      const bool has1 = 2 * p + 1 < K;
      const std::int16_t* r1 = r0 + rs;
      std::int64_t j = 0;
      for (; j < w; ++j) {
        o[2 * j] = r0[j];
        o[2 * j + 1] = has1 ? r1[j] : 0;
      }
      for (; j < kNR; ++j) o[2 * j] = o[2 * j + 1] = 0;
    }
  }
}

// Writes a GEMM tile into the row-major [rows, ld] int32 matrix y.
void store_tile(std::int32_t* y, std::int64_t ld, std::int64_t m0, int mr, std::int64_t j0, int nr,
                const std::int32_t* tile) {
  for (int r = 0; r < mr; ++r)
    std::memcpy(y + (m0 + r) * ld + j0, tile + r * kNR, static_cast<std::size_t>(nr) * sizeof(std::int32_t));
}

}  // namespace

Tensor conv_integer_sums(const ir::Operation& op, const Tensor& X, const Tensor& XZ, const Tensor& W,
                         const Tensor& WZ, const char* what) {
  check_byte(X, what, "x");
  check_byte(W, what, "w");
  const ConvGeometry g = conv_geometry(op, X.shape(), W.shape(), false);
  const std::size_t sp = g.in.size();
  if (sp > 3) fail(std::string(what) + ": " + std::to_string(sp) + " spatial dims (at most 3 are supported)");
  const std::vector<std::int32_t> xzp = zero_points(XZ, X, 0, what, "x_zero_point");
  const std::vector<std::int32_t> wzp = zero_points(WZ, W, g.m, what, "w_zero_point");

  // Spatial dims as [D, H, W] (unit dims in front for 1-D and 2-D).
  std::int64_t in3[3] = {1, 1, 1}, out3[3] = {1, 1, 1}, k3[3] = {1, 1, 1}, s3[3] = {1, 1, 1}, d3[3] = {1, 1, 1},
               p3[3] = {0, 0, 0};
  for (std::size_t i = 0; i < sp; ++i) {
    const std::size_t j = 3 - sp + i;
    in3[j] = g.in[i];
    out3[j] = g.out[i];
    k3[j] = g.kernel[i];
    s3[j] = g.strides[i];
    d3[j] = g.dilations[i];
    p3[j] = g.pad_begin[i];
  }
  const std::int64_t in_sp = in3[0] * in3[1] * in3[2], out_sp = out3[0] * out3[1] * out3[2],
                     k_sp = k3[0] * k3[1] * k3[2];
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group, K = cg * k_sp;

  Shape yshape{g.n, g.m};
  yshape.insert(yshape.end(), g.out.begin(), g.out.end());
  Tensor Y = Tensor::uninitialized(DType::Int32, yshape);  // every element written below
  if (Y.numel() == 0) return Y;
  std::int32_t* y = Y.mutable_data<std::int32_t>();
  if (K == 0) {
    std::fill(y, y + Y.numel(), 0);
    return Y;
  }

  std::vector<std::int16_t> xs(static_cast<std::size_t>(X.numel()));
  widen(X, xzp, [](std::int64_t) { return 0; }, xs.data());
  std::vector<std::int16_t> ws(static_cast<std::size_t>(W.numel()));
  const std::int64_t w_per_m = W.numel() / g.m;
  widen(W, wzp, [w_per_m](std::int64_t i) { return i / w_per_m; }, ws.data());

  // im2col row k = (channel, tap): its channel's offset and its tap's offsets per dim.
  std::vector<std::int64_t> rc(static_cast<std::size_t>(K)), rd(rc.size()), rh(rc.size()), rw(rc.size());
  for (std::int64_t k = 0; k < K; ++k) {
    const std::int64_t c = k / k_sp, t = k % k_sp;
    rc[static_cast<std::size_t>(k)] = c * in_sp;
    rd[static_cast<std::size_t>(k)] = t / (k3[1] * k3[2]) * d3[0];
    rh[static_cast<std::size_t>(k)] = t / k3[2] % k3[1] * d3[1];
    rw[static_cast<std::size_t>(k)] = t % k3[2] * d3[2];
  }
  const bool pointwise = k_sp == 1 && s3[0] == 1 && s3[1] == 1 && s3[2] == 1 && p3[0] == 0 && p3[1] == 0 &&
                         p3[2] == 0 && out_sp == in_sp;

  for (std::int64_t gi = 0; gi < g.group; ++gi) {
    const PackedA a = pack_a16(ws.data() + gi * mg * K, mg, K, K);
    for (std::int64_t n = 0; n < g.n; ++n) {
      const std::int16_t* xg = xs.data() + (n * g.c + gi * cg) * in_sp;
      std::int32_t* yg = y + (n * g.m + gi * mg) * out_sp;
      const quantized::PackB pack = [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) {
        if (pointwise) {  // B is x itself: [cg, in_sp]
          pack_b16(xg, K, a.kp, in_sp, j0, nc, out);
          return;
        }
        for (std::int64_t pn = 0; pn * kNR < nc; ++pn) {
          // Each column's first input position per dim; columns past the end read nothing.
          std::int64_t bd[kNR], bh[kNR], bw[kNR];
          const std::int64_t w = std::min<std::int64_t>(kNR, nc - pn * kNR);
          for (std::int64_t j = 0; j < kNR; ++j) {
            if (j >= w) {
              bd[j] = bh[j] = bw[j] = -(std::int64_t{1} << 40);
              continue;
            }
            const std::int64_t p = j0 + pn * kNR + j;
            bd[j] = p / (out3[1] * out3[2]) * s3[0] - p3[0];
            bh[j] = p / out3[2] % out3[1] * s3[1] - p3[1];
            bw[j] = p % out3[2] * s3[2] - p3[2];
          }
          std::int16_t* o = out + pn * a.kp * kNR * 2;
          for (std::int64_t k = 0; k < 2 * a.kp; ++k) {
            std::int16_t* ok = o + (k / 2) * kNR * 2 + (k & 1);
            if (k >= K) {
              for (std::int64_t j = 0; j < kNR; ++j) ok[2 * j] = 0;
              continue;
            }
            const std::size_t ku = static_cast<std::size_t>(k);
            const std::int16_t* xc = xg + rc[ku];
            for (std::int64_t j = 0; j < kNR; ++j) {
              const std::int64_t id = bd[j] + rd[ku], ih = bh[j] + rh[ku], iw = bw[j] + rw[ku];
              const bool inside = static_cast<std::uint64_t>(id) < static_cast<std::uint64_t>(in3[0]) &&
                                  static_cast<std::uint64_t>(ih) < static_cast<std::uint64_t>(in3[1]) &&
                                  static_cast<std::uint64_t>(iw) < static_cast<std::uint64_t>(in3[2]);
              ok[2 * j] = inside ? xc[(id * in3[1] + ih) * in3[2] + iw] : std::int16_t{0};
            }
          }
        }
      };
      quantized::igemm(a, out_sp, pack, [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* tile) {
        store_tile(yg, out_sp, m0, mr, j0, nr, tile);
      });
    }
  }
  return Y;
}

Tensor matmul_integer_sums(const Tensor& A, const Tensor& AZ, const Tensor& B, const Tensor& BZ, const char* what) {
  check_byte(A, what, "a");
  check_byte(B, what, "b");
  if (A.rank() == 0 || B.rank() == 0) fail(std::string(what) + ": operands must be at least 1-D");
  Shape as = A.shape(), bs = B.shape();
  const bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  const std::int64_t M = as[as.size() - 2], K = as.back(), N = bs.back();
  if (bs[bs.size() - 2] != K)
    fail(std::string(what) + ": inner dims differ: " + A.type_string() + " x " + B.type_string());
  const Shape abatch(as.begin(), as.end() - 2), bbatch(bs.begin(), bs.end() - 2);
  const Shape batch = broadcast_shapes(abatch, bbatch);
  const std::int64_t na = shape_numel(abatch), nb = shape_numel(bbatch), nbatch = shape_numel(batch);
  Shape yshape = batch;
  if (!a_vec) yshape.push_back(M);
  if (!b_vec) yshape.push_back(N);

  // a_zp: 1 value, one per row ([M]), or one per row of every matrix ([..., M, 1]);
  // b_zp likewise per column.
  std::vector<std::int32_t> azp, bzp;
  if (AZ.defined())
    azp = zero_points(AZ, A, AZ.numel() == M ? M : na * M, what, "a_zero_point");
  if (BZ.defined())
    bzp = zero_points(BZ, B, BZ.numel() == N ? N : nb * N, what, "b_zero_point");
  std::vector<std::int16_t> a16(static_cast<std::size_t>(A.numel())), b16(static_cast<std::size_t>(B.numel()));
  const bool a_rows = azp.size() == static_cast<std::size_t>(M);
  widen(A, azp, [&](std::int64_t i) { return a_rows ? i / K % M : i / K; }, a16.data());
  const bool b_cols = bzp.size() == static_cast<std::size_t>(N);
  widen(B, bzp, [&](std::int64_t i) { return b_cols ? i % N : i / (K * N) * N + i % N; }, b16.data());

  Tensor Y = Tensor::uninitialized(DType::Int32, yshape);
  if (Y.numel() == 0) return Y;
  std::int32_t* y = Y.mutable_data<std::int32_t>();
  if (K == 0) {
    std::fill(y, y + Y.numel(), 0);
    return Y;
  }
  // Strides over abatch/bbatch taken as shapes: indices of whole matrices.
  const Shape ast = broadcast_strides(abatch, batch), bst = broadcast_strides(bbatch, batch);
  for (std::int64_t t = 0; t < nbatch; ++t) {
    std::int64_t ia = 0, ib = 0, rem = t;
    for (std::size_t d = batch.size(); d-- > 0;) {
      const std::int64_t idx = rem % batch[d];
      rem /= batch[d];
      ia += idx * ast[d];
      ib += idx * bst[d];
    }
    const PackedA pa = pack_a16(a16.data() + ia * M * K, M, K, K);
    const std::int16_t* bm = b16.data() + ib * K * N;
    std::int32_t* ym = y + t * M * N;
    quantized::igemm(
        pa, N, [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) { pack_b16(bm, K, pa.kp, N, j0, nc, out); },
        [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* tile) {
          store_tile(ym, N, m0, mr, j0, nr, tile);
        });
  }
  return Y;
}

// y = ConvInteger(x, w, x_zero_point, w_zero_point): int32.
Outputs kernel_ConvInteger(const ir::Operation& op, Inputs x) {
  return {conv_integer_sums(op, in(x, 0), in(x, 2), in(x, 1), in(x, 3), "ConvInteger")};
}

// y = MatMulInteger(a, b, a_zero_point, b_zero_point): int32.
Outputs kernel_MatMulInteger(const ir::Operation&, Inputs x) {
  return {matmul_integer_sums(in(x, 0), in(x, 2), in(x, 1), in(x, 3), "MatMulInteger")};
}

}  // namespace ec::runtime::kernels
