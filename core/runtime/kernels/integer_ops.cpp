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

#include "core/runtime/gemm/gemm.h"
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

// t as [rows, inner] widened to int16 with a zero point subtracted: zp empty (0), one value,
// or per row (zp[row_zp(r)]) or per column (zp[col_zp(r) + i]); row r of the result starts
// at out + r * out_stride (+ out_offset(r) when given: the padded conv input).
enum class ZpBy { Row, Column };
template <typename RowZp, typename Dest>
void widen(const Tensor& t, std::int64_t rows, std::int64_t inner, const std::vector<std::int32_t>& zp, ZpBy by,
           RowZp row_zp, Dest dest) {
  const bool u8 = t.dtype() == DType::UInt8;
  const auto* pu = t.data<std::uint8_t>();
  const auto* ps = t.data<std::int8_t>();
  const std::int64_t per_task = std::max<std::int64_t>(1, (1 << 15) / std::max<std::int64_t>(inner, 1));
  parallel_for_if(rows * inner >= (1 << 17), (rows + per_task - 1) / per_task, [&](std::int64_t task) {
    for (std::int64_t r = task * per_task; r < std::min(rows, (task + 1) * per_task); ++r) {
      std::int16_t* o = dest(r);
      const std::uint8_t* su = pu + r * inner;
      const std::int8_t* ss = ps + r * inner;
      if (zp.size() > 1 && by == ZpBy::Column) {
        const std::int32_t* z = zp.data() + row_zp(r);
        if (u8) for (std::int64_t i = 0; i < inner; ++i) o[i] = static_cast<std::int16_t>(su[i] - z[i]);
        else for (std::int64_t i = 0; i < inner; ++i) o[i] = static_cast<std::int16_t>(ss[i] - z[i]);
        continue;
      }
      const std::int32_t z = zp.empty() ? 0 : zp.size() == 1 ? zp[0] : zp[static_cast<std::size_t>(row_zp(r))];
      if (u8) for (std::int64_t i = 0; i < inner; ++i) o[i] = static_cast<std::int16_t>(su[i] - z);
      else for (std::int64_t i = 0; i < inner; ++i) o[i] = static_cast<std::int16_t>(ss[i] - z);
    }
  });
}

// Writes a GEMM tile into the row-major [rows, ld] int32 matrix y.
void store_tile(std::int32_t* y, std::int64_t ld, std::int64_t m0, int mr, std::int64_t j0, int nr,
                const std::int32_t* tile) {
  for (int r = 0; r < mr; ++r)
    std::memcpy(y + (m0 + r) * ld + j0, tile + r * kNR, static_cast<std::size_t>(nr) * sizeof(std::int32_t));
}

// The int16 micro-kernel igemm() would pick (the same switch: EC_GEMM_ISA, gemm::force_isa).
using Micro16 = void (*)(std::int64_t, const std::int16_t*, const std::int16_t*, std::int32_t*);
Micro16 micro16() {
  const gemm::Isa isa = gemm::active_isa();
#if defined(__x86_64__)
  if (isa == gemm::Isa::Avx512 && __builtin_cpu_supports("avx512vnni")) return quantized::igemm_micro_avx512vnni;
#endif
  if (isa != gemm::Isa::Generic && gemm::isa_supported(gemm::Isa::Avx2)) return quantized::igemm_micro_avx2;
  return quantized::igemm_micro_generic;
}

// Depthwise (one input and one output channel per group): per channel,
//   acc[p] = sum_t (w[t] - w_zp) * xpad[first(p) + tap(t)]
// one tap at a time over each output row (contiguous for stride 1: vectorises); channels
// split over the pool.
void depthwise_sums(const std::int16_t* xs, const std::int16_t* ws, std::int64_t N, std::int64_t C,
                    std::int64_t pad_sp, std::int64_t Hp, std::int64_t Wp, const std::int64_t* out3,
                    const std::int64_t* s3, const std::vector<std::int64_t>& koff, std::int32_t* y) {
  const std::int64_t out_sp = out3[0] * out3[1] * out3[2], taps = static_cast<std::int64_t>(koff.size());
  parallel_for_if(N * C * out_sp * taps >= (1 << 16), N * C, [&](std::int64_t nc) {
    const std::int16_t* x = xs + nc * pad_sp;
    const std::int16_t* w = ws + nc % C * taps;
    std::int32_t* out = y + nc * out_sp;
    std::fill(out, out + out_sp, 0);
    for (std::int64_t od = 0; od < out3[0]; ++od)
      for (std::int64_t oh = 0; oh < out3[1]; ++oh) {
        std::int32_t* o = out + (od * out3[1] + oh) * out3[2];
        const std::int16_t* row = x + (od * s3[0] * Hp + oh * s3[1]) * Wp;
        for (std::int64_t t = 0; t < taps; ++t) {
          const std::int32_t wt = w[t];
          const std::int16_t* r = row + koff[static_cast<std::size_t>(t)];
          if (s3[2] == 1) {
            for (std::int64_t ow = 0; ow < out3[2]; ++ow) o[ow] += wt * r[ow];
          } else {
            for (std::int64_t ow = 0; ow < out3[2]; ++ow) o[ow] += wt * r[ow * s3[2]];
          }
        }
      }
  });
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

  for (int d = 0; d < 3; ++d)
    if (p3[d] < 0) fail(std::string(what) + ": negative pads are not supported");
  // x - x_zp as int16, zero-padded on every side: the im2col below reads without bounds
  // checks (every position a tap reads lies inside the padded extent by the output size).
  std::int64_t pe3[3] = {0, 0, 0};
  for (std::size_t i = 0; i < sp; ++i) pe3[3 - sp + i] = std::max<std::int64_t>(0, g.pad_end[i]);
  const std::int64_t Dp = in3[0] + p3[0] + pe3[0], Hp = in3[1] + p3[1] + pe3[1], Wp = in3[2] + p3[2] + pe3[2];
  const std::int64_t pad_sp = Dp * Hp * Wp;
  const bool padded = pad_sp != in_sp;
  std::vector<std::int16_t> xs(static_cast<std::size_t>(g.n * g.c * pad_sp), 0);
  // Rows of W values of x: row r = ((n * C + c) * D + d) * H + h.
  widen(X, g.n * g.c * in3[0] * in3[1], in3[2], xzp, ZpBy::Row, [](std::int64_t) { return 0; }, [&](std::int64_t r) {
    const std::int64_t h = r % in3[1], d = r / in3[1] % in3[0], nc = r / (in3[1] * in3[0]);
    return xs.data() + nc * pad_sp + ((d + p3[0]) * Hp + h + p3[1]) * Wp + p3[2];
  });
  std::vector<std::int16_t> ws(static_cast<std::size_t>(W.numel()));
  const std::int64_t w_per_m = W.numel() / g.m;
  widen(W, g.m, w_per_m, wzp, ZpBy::Row, [](std::int64_t r) { return r; },
        [&](std::int64_t r) { return ws.data() + r * w_per_m; });

  // im2col row k = (channel, tap): its offset in the padded image; column j = output
  // position: the offset of its first tap.
  std::vector<std::int64_t> koff(static_cast<std::size_t>(K)), coff(static_cast<std::size_t>(out_sp));
  for (std::int64_t k = 0; k < K; ++k) {
    const std::int64_t c = k / k_sp, t = k % k_sp;
    koff[static_cast<std::size_t>(k)] = c * pad_sp + (t / (k3[1] * k3[2]) * d3[0] * Hp + t / k3[2] % k3[1] * d3[1]) * Wp +
                                        t % k3[2] * d3[2];
  }
  for (std::int64_t p = 0; p < out_sp; ++p)
    coff[static_cast<std::size_t>(p)] = (p / (out3[1] * out3[2]) * s3[0] * Hp + p / out3[2] % out3[1] * s3[1]) * Wp +
                                        p % out3[2] * s3[2];
  const bool pointwise = k_sp == 1 && s3[0] == 1 && s3[1] == 1 && s3[2] == 1 && !padded && out_sp == in_sp;
  if (cg == 1 && mg == 1) {  // depthwise: a direct loop (a GEMM of one row per group wastes its tiles)
    depthwise_sums(xs.data(), ws.data(), g.n, g.c, pad_sp, Hp, Wp, out3, s3, koff, y);
    return Y;
  }

  for (std::int64_t gi = 0; gi < g.group; ++gi) {
    const PackedA a = quantized::pack_a(ws.data() + gi * mg * K, mg, K, K, 1);
    for (std::int64_t n = 0; n < g.n; ++n) {
      const std::int16_t* xg = xs.data() + (n * g.c + gi * cg) * pad_sp;
      std::int32_t* yg = y + (n * g.m + gi * mg) * out_sp;
      const quantized::PackB pack = [&](std::int64_t j0, std::int64_t nc, std::int16_t* out) {
        if (pointwise) {  // B is x itself: [cg, in_sp]
          quantized::pack_b_strided(xg, K, a.kp, in_sp, 1, j0, nc, out);
          return;
        }
        for (std::int64_t pn = 0; pn * kNR < nc; ++pn) {
          const std::int64_t jb = j0 + pn * kNR, w = std::min<std::int64_t>(kNR, nc - pn * kNR);
          const std::int64_t* cb = coff.data() + jb;
          // A full panel of consecutive input positions (stride 1 along one output row).
          const bool run = w == kNR && cb[kNR - 1] - cb[0] == kNR - 1;
          std::int16_t* o = out + pn * a.kp * kNR * 2;
          for (std::int64_t p = 0; p < a.kp; ++p, o += kNR * 2) {
            const std::int64_t k0 = 2 * p, k1 = 2 * p + 1;
            const std::int16_t* r0 = xg + koff[static_cast<std::size_t>(k0)];
            const std::int16_t* r1 = k1 < K ? xg + koff[static_cast<std::size_t>(k1)] : nullptr;
            if (run && r1) {
              r0 += cb[0];
              r1 += cb[0];
              for (int j = 0; j < kNR; ++j) {  // vectorises (interleave of two rows)
                o[2 * j] = r0[j];
                o[2 * j + 1] = r1[j];
              }
              continue;
            }
            std::int64_t j = 0;
            for (; j < w; ++j) {
              o[2 * j] = r0[cb[j]];
              o[2 * j + 1] = r1 ? r1[cb[j]] : std::int16_t{0};
            }
            for (; j < kNR; ++j) o[2 * j] = o[2 * j + 1] = 0;
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
  std::vector<std::int16_t> a16(static_cast<std::size_t>(A.numel()));
  // a's rows (of K values): zero point per row of each matrix ([M]) or per row overall.
  const bool a_rows = azp.size() == static_cast<std::size_t>(M);
  widen(A, na * M, K, azp, ZpBy::Row, [&](std::int64_t r) { return a_rows ? r % M : r; },
        [&](std::int64_t r) { return a16.data() + r * K; });

  Tensor Y = Tensor::uninitialized(DType::Int32, yshape);
  if (Y.numel() == 0) return Y;
  std::int32_t* y = Y.mutable_data<std::int32_t>();
  if (K == 0) {
    std::fill(y, y + Y.numel(), 0);
    return Y;
  }
  // B packed whole per matrix (igemm's panels of kNR columns); a session constant B with a
  // constant (or absent) zero point is widened and packed once and kept in the session's
  // PackCache (QLinearMatMul's weights).
  const std::int64_t kp = (K + 1) / 2;
  const std::size_t packed_one = quantized::packed_b_size(kp, N);
  gemm::PackCache* cache = gemm::current_pack_cache();
  const bool cacheable = cache && cache->is_constant(B.raw(), B.nbytes()) &&
                         (!BZ.defined() || cache->is_constant(BZ.raw(), BZ.nbytes()));
  std::string key;
  std::shared_ptr<const std::vector<std::int16_t>> bpacked;
  if (cacheable) {
    key = std::string(what) + "/B:" + std::to_string(reinterpret_cast<std::uintptr_t>(B.raw())) + ":" +
          std::to_string(reinterpret_cast<std::uintptr_t>(BZ.defined() ? BZ.raw() : nullptr)) + ":" +
          std::to_string(K) + "x" + std::to_string(N);
    bpacked = std::static_pointer_cast<const std::vector<std::int16_t>>(cache->find_prepared(key));
  }
  if (!bpacked) {
    std::vector<std::int16_t> b16(static_cast<std::size_t>(B.numel()));
    // b's rows (of N values): zero points per column, shared by every matrix ([N]) or not.
    const bool b_cols = bzp.size() == static_cast<std::size_t>(N);
    widen(B, nb * K, N, bzp, ZpBy::Column, [&](std::int64_t r) { return b_cols ? 0 : r / K * N; },
          [&](std::int64_t r) { return b16.data() + r * N; });
    auto made = std::make_shared<std::vector<std::int16_t>>(static_cast<std::size_t>(nb) * packed_one);
    parallel_for_if(nb > 1, nb, [&](std::int64_t t) {
      quantized::pack_b_strided(b16.data() + t * K * N, K, kp, N, 1, 0, N, made->data() + t * static_cast<std::int64_t>(packed_one));
    });
    bpacked = cacheable ? std::static_pointer_cast<const std::vector<std::int16_t>>(
                              cache->put_prepared(key, made, made->size() * sizeof(std::int16_t)))
                        : made;
  }
  const Micro16 micro = micro16();
  const std::function<void(std::int64_t, std::int64_t, std::int16_t*)> no_pack;  // B is packed already
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
    const PackedA pa = quantized::pack_a(a16.data() + ia * M * K, M, K, K, 1);
    std::int32_t* ym = y + t * M * N;
    quantized::igemm_driver<kMR, 2, std::int16_t, std::int16_t>(
        pa.m, pa.kp, pa.data.data(), N, no_pack,
        [&](std::int64_t m0, int mr, std::int64_t j0, int nr, const std::int32_t* tile) {
          store_tile(ym, N, m0, mr, j0, nr, tile);
        },
        micro, nullptr, bpacked->data() + ib * static_cast<std::int64_t>(packed_one));
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
