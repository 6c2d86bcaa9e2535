// int8 LayerNormalization over the last axis (ConvNeXt's LayerNorm2d after its permute,
// transformers' pre-norm), y = (x - mean) / sqrt(var + eps) * gamma + beta.
//
// TFLite has no integer LayerNorm kernel (its converter leaves it in float or decomposes
// it), so this kernel's arithmetic is defined here, exactly and the same on every ISA:
//   per row of C stored values q: S1 = sum q, S2 = sum q^2 (int64, exact);
//     mean = S1 / C, var = max(S2 / C - mean^2, 0)            (double)
//     k = float(sx * sy^-1 / sqrt(sx^2 var + eps))              (double, rounded once)
//   per element: t = ((float(q) - float(mean)) * k) * gamma[c] + b[c],
//     b[c] = float(beta[c] / sy + zy), y = clamp(nearbyint(t), -128, 127)
//   in float, in that order, without contraction (the AVX2 form uses the same four
//   operations lane by lane, so both give the same integers; tested). Against the float
//   kernel (dequantise -> LayerNormalization -> quantise) it is within 1 LSB (tested).
#include <cmath>

#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/quantized/igemm.h"
#include "core/runtime/thread_pool.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ec::runtime::quantized {
namespace {

struct RowConsts {
  float mean, k;
};

// The per-element step of one row, portable: exactly the operations above.
__attribute__((optimize("fp-contract=off"))) void normalize_row(const std::int8_t* x, std::int64_t C, RowConsts r,
                                                                  const float* g, const float* b, std::int8_t* y) {
  for (std::int64_t c = 0; c < C; ++c) {
    float t = float(x[c]) - r.mean;
    t = t * r.k;
    t = t * g[c];
    t = t + b[c];
    const float v = std::nearbyint(t);
    y[c] = static_cast<std::int8_t>(v < -128.f ? -128.f : (v > 127.f ? 127.f : v));
  }
}

#if defined(__x86_64__)
// The same, 8 lanes per step (no FMA in the target: nothing contracts).
__attribute__((target("avx2"))) void normalize_row_avx2(const std::int8_t* x, std::int64_t C, RowConsts r,
                                                        const float* g, const float* b, std::int8_t* y) {
  const __m256 m = _mm256_set1_ps(r.mean), k = _mm256_set1_ps(r.k), lo = _mm256_set1_ps(-128.f),
               hi = _mm256_set1_ps(127.f);
  std::int64_t c = 0;
  for (; c + 8 <= C; c += 8) {
    const __m128i q = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + c));
    __m256 t = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepi8_epi32(q)), m);
    t = _mm256_mul_ps(t, k);
    t = _mm256_mul_ps(t, _mm256_loadu_ps(g + c));
    t = _mm256_add_ps(t, _mm256_loadu_ps(b + c));
    t = _mm256_round_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m256i v = _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(t, lo), hi));
    const __m128i p16 = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + c), _mm_packs_epi16(p16, p16));
  }
  normalize_row(x + c, C - c, r, g + c, b + c, y + c);
}
#endif

#if defined(__x86_64__)
// sum q and sum q^2 of a row, 16 values per step (vpmaddwd pairs: |2 * 128^2| fits int32;
// 2^15 steps of at most 2^15 per int32 lane stay below 2^31; longer rows finish in int64).
__attribute__((target("avx2"))) void row_sums_avx2(const std::int8_t* x, std::int64_t C, std::int64_t& s1,
                                                   std::int64_t& s2) {
  const __m256i one = _mm256_set1_epi16(1);
  __m256i a1 = _mm256_setzero_si256(), a2 = _mm256_setzero_si256();
  std::int64_t c = 0;
  for (; c + 16 <= C && c < (std::int64_t(1) << 19); c += 16) {
    const __m256i v = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x + c)));
    a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(v, one));
    a2 = _mm256_add_epi32(a2, _mm256_madd_epi16(v, v));
  }
  alignas(32) std::int32_t l1[8], l2[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(l1), a1);
  _mm256_store_si256(reinterpret_cast<__m256i*>(l2), a2);
  s1 = s2 = 0;
  for (int i = 0; i < 8; ++i) s1 += l1[i], s2 += l2[i];
  for (; c < C; ++c) s1 += x[c], s2 += std::int64_t(x[c]) * x[c];
}
#endif

// The row's sums and constants (exact integer sums, then double).
RowConsts row_consts(const std::int8_t* x, std::int64_t C, double sx, double sy, double eps, bool avx2) {
  std::int64_t s1 = 0, s2 = 0;
#if defined(__x86_64__)
  if (avx2) row_sums_avx2(x, C, s1, s2);
  else
#endif
    for (std::int64_t c = 0; c < C; ++c) {
      s1 += x[c];
      s2 += std::int64_t(x[c]) * x[c];
    }
  (void)avx2;
  const double mean = double(s1) / double(C);
  const double var = std::max(double(s2) / double(C) - mean * mean, 0.0);
  const auto k = static_cast<float>(sx / sy / std::sqrt(sx * sx * var + eps));
  return {static_cast<float>(mean), std::isfinite(k) ? k : 0.f};  // a constant row without eps: beta
}

class LayerNormInt8 final : public PreparedOp {
 public:
  LayerNormInt8(const ir::Operation& op, const ir::Graph& graph) : op_(op) {
    const ir::Tensor& x = ir_tensor(graph, op.inputs[0]);
    const ir::Tensor& y = ir_tensor(graph, op.outputs[0]);
    const QParams qx = activation_quant_of(x), qy = activation_quant_of(y);
    if (op.outputs.size() > 1)
      for (std::size_t i = 1; i < op.outputs.size(); ++i)
        if (!op.outputs[i].empty())
          throw UnsupportedOpError("LayerNormalization with Mean/InvStdDev outputs", "the CPU runtime's int8 kernels",
                                   "keep it in float: --keep-float " + (op.name.empty() ? op.op_type : op.name));
    const std::int64_t rank = x.shape.rank();
    std::int64_t axis = op.attr_int("axis", -1);
    if (axis < 0) axis += rank;
    if (rank < 1 || axis != rank - 1)
      throw UnsupportedOpError("LayerNormalization over axes other than the last", "the CPU runtime's int8 kernels",
                               "keep it in float: --keep-float " + (op.name.empty() ? op.op_type : op.name));
    const Tensor G = constant_of(graph, op, op.inputs[1], ir::DType::Float32, "scale");
    gamma_.assign(G.data<float>(), G.data<float>() + G.numel());
    beta_.assign(gamma_.size(), 0.f);
    std::vector<float> beta(gamma_.size(), 0.f);
    if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const Tensor B = constant_of(graph, op, op.inputs[2], ir::DType::Float32, "bias");
      if (B.numel() != G.numel()) fail("LayerNormalization scale and bias differ in length");
      beta.assign(B.data<float>(), B.data<float>() + B.numel());
    }
    for (std::size_t c = 0; c < beta.size(); ++c)
      beta_[c] = static_cast<float>(double(beta[c]) / double(qy.scale()) + double(qy.zero_point()));
    // (x's zero point cancels in x - mean: only sx enters.)
    sx_ = qx.scale();
    sy_ = qy.scale();
    const auto* e = op.attr("epsilon");
    eps_ = e && std::get_if<double>(e) ? *std::get_if<double>(e) : 1e-5;
  }

  std::vector<Tensor> run(std::span<const Tensor> in) const override {
    const Tensor& X = in[0];
    if (X.dtype() != ir::DType::Int8) fail("int8 LayerNormalization input is " + X.type_string());
    const auto C = static_cast<std::int64_t>(gamma_.size());
    if (X.rank() < 1 || X.dim(X.rank() - 1) != C)
      fail("int8 LayerNormalization input " + X.type_string() + " does not end in " + std::to_string(C));
    Tensor Y = Tensor::uninitialized(ir::DType::Int8, X.shape());
    const std::int64_t rows = C ? X.numel() / C : 0;
    const std::int8_t* x = X.data<std::int8_t>();
    std::int8_t* y = Y.mutable_data<std::int8_t>();
    const bool avx2 = use_avx2();
    parallel_for(rows, [&](std::int64_t r) {
      const std::int8_t* xr = x + r * C;
      const RowConsts rc = row_consts(xr, C, sx_, sy_, eps_, avx2);
#if defined(__x86_64__)
      if (avx2) {
        normalize_row_avx2(xr, C, rc, gamma_.data(), beta_.data(), y + r * C);
        return;
      }
#endif
      normalize_row(xr, C, rc, gamma_.data(), beta_.data(), y + r * C);
    });
    return {Y};
  }

 private:
  ir::Operation op_;
  std::vector<float> gamma_, beta_;  // beta_: beta / sy + zy
  double sx_ = 1, sy_ = 1, eps_ = 1e-5;
};

}  // namespace

std::unique_ptr<PreparedOp> prepare_LayerNormalization(const ir::Operation& op, const ir::Graph& graph) {
  return std::make_unique<LayerNormInt8>(op, graph);
}

}  // namespace ec::runtime::quantized
