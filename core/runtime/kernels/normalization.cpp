// Normalisation ops (inference semantics).
#include <immintrin.h>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/layer_norm.h"
#include "core/runtime/kernels/nhwc.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

// Channels-last rows [r0, r1) of C channels: y = min(max(x a[c] + b[c], lo), hi) (one FMA;
// max and min taken as std::max / std::min take them, NaN passing through).
using AffineRowsFn = void (*)(const float* x, float* y, std::int64_t r0, std::int64_t r1, std::int64_t C,
                              const float* a, const float* b, float lo, float hi);
void affine_rows_generic(const float* x, float* y, std::int64_t r0, std::int64_t r1, std::int64_t C,
                         const float* __restrict a, const float* __restrict b, float lo, float hi) {
  for (std::int64_t r = r0; r < r1; ++r) {
    const float* __restrict px = x + r * C;
    float* __restrict py = y + r * C;
    for (std::int64_t c = 0; c < C; ++c) py[c] = std::min(std::max(px[c] * a[c] + b[c], lo), hi);
  }
}
__attribute__((target("avx2,fma"))) void affine_rows_avx2(const float* x, float* y, std::int64_t r0,
                                                          std::int64_t r1, std::int64_t C, const float* a,
                                                          const float* b, float lo, float hi) {
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  const std::int64_t C8 = C / 8 * 8;
  for (std::int64_t r = r0; r < r1; ++r) {
    const float* px = x + r * C;
    float* py = y + r * C;
    for (std::int64_t c = 0; c < C8; c += 8) {
      const __m256 v = _mm256_fmadd_ps(_mm256_loadu_ps(px + c), _mm256_loadu_ps(a + c), _mm256_loadu_ps(b + c));
      _mm256_storeu_ps(py + c, _mm256_min_ps(vhi, _mm256_max_ps(vlo, v)));
    }
    for (std::int64_t c = C8; c < C; ++c) py[c] = std::min(std::max(std::fma(px[c], a[c], b[c]), lo), hi);
  }
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"  // GCC 12's unmasked AVX-512 forms
__attribute__((target("avx512f"))) void affine_rows_avx512(const float* x, float* y, std::int64_t r0,
                                                          std::int64_t r1, std::int64_t C, const float* a,
                                                          const float* b, float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (std::int64_t r = r0; r < r1; ++r) {
    const float* px = x + r * C;
    float* py = y + r * C;
    std::int64_t c = 0;
    for (; c + 16 <= C; c += 16) {  // unmasked: masked stores are slow on AMD
      const __m512 v = _mm512_fmadd_ps(_mm512_loadu_ps(px + c), _mm512_loadu_ps(a + c), _mm512_loadu_ps(b + c));
      _mm512_storeu_ps(py + c, _mm512_min_ps(vhi, _mm512_max_ps(vlo, v)));
    }
    if (c < C) {
      const __mmask16 m = __mmask16((1u << (C - c)) - 1);
      const __m512 v = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, px + c), _mm512_maskz_loadu_ps(m, a + c),
                                       _mm512_maskz_loadu_ps(m, b + c));
      _mm512_mask_storeu_ps(py + c, m, _mm512_min_ps(vhi, _mm512_max_ps(vlo, v)));
    }
  }
}
#pragma GCC diagnostic pop

void require_f32(const Tensor& t, const char* op) {
  if (t.dtype() != DType::Float32 && t.dtype() != DType::Float64)
    throw UnsupportedOpError(std::string(op) + " on " + std::string(ir::dtype_name(t.dtype())), "the CPU runtime", "");
}

// Input as doubles (normalisation ops accumulate in double).
std::vector<double> as_double(const Tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.numel()));
  dispatch_float(t.dtype(), [&]<typename T>() {
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = t.data<T>()[i];
  });
  return v;
}

Tensor from_double(DType dt, const Shape& s, const std::vector<double>& v) {
  Tensor r(dt, s);
  dispatch_float(dt, [&]<typename T>() {
    for (std::size_t i = 0; i < v.size(); ++i) r.mutable_data<T>()[i] = static_cast<T>(v[i]);
  });
  return r;
}

}  // namespace

// y = (x - mean[c]) / sqrt(var[c] + eps) * scale[c] + bias[c]
Outputs kernel_BatchNormalization(const ir::Operation& op, Inputs x) {
  if (attr_int(op, "training_mode", 0) != 0)
    throw UnsupportedOpError("BatchNormalization in training mode", "the CPU runtime", "export the model in eval mode");
  if (attr_str(op, "layout", "NCHW") == "NHWC") return batch_norm_nhwc(op, x);
  if (attr_str(op, "layout", "NCHW") != "NCHW")
    throw UnsupportedOpError("BatchNormalization with layout " + attr_str(op, "layout", ""), "the CPU runtime", "");
  const Tensor& X = x[0];
  require_f32(X, "BatchNormalization");
  if (X.rank() < 2) fail("input must be at least 2-D");
  const std::int64_t N = X.dim(0), C = X.dim(1), sp = X.numel() / std::max<std::int64_t>(1, N * C);
  const auto scale = x[1].to_float_vector(), bias = x[2].to_float_vector(), mean = x[3].to_float_vector(),
             var = x[4].to_float_vector();
  if (static_cast<std::int64_t>(scale.size()) != C || bias.size() != scale.size() || mean.size() != scale.size() ||
      var.size() != scale.size())
    fail("scale, bias, mean and var must have " + std::to_string(C) + " values");
  const double eps = attr_float(op, "epsilon", 1e-5);
  if (X.dtype() == DType::Float32) {
    // y = x * a + b per channel plane, vectorised (vmath Affine), planes split over the pool.
    Tensor Y = Tensor::uninitialized(DType::Float32, X.shape());
    const std::int64_t planes_per_task = std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(sp, 1));
    parallel_for((N * C + planes_per_task - 1) / planes_per_task, [&](std::int64_t t) {
      for (std::int64_t nc = t * planes_per_task; nc < std::min(N * C, (t + 1) * planes_per_task); ++nc) {
        const auto c = static_cast<std::size_t>(nc % C);
        const double a = scale[c] / std::sqrt(double(var[c]) + eps), b = bias[c] - mean[c] * a;
        vmath::apply(vmath::Fn::Affine, X.data<float>() + nc * sp, Y.mutable_data<float>() + nc * sp, sp,
                     static_cast<float>(a), static_cast<float>(b));
      }
    });
    apply_fused_activation(op, Y);  // a Relu/Clip the session folded into this op
    return {Y};
  }
  return {dispatch_float(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), X.shape());
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t c = 0; c < C; ++c) {
        // y = x * a + b with a = scale / sqrt(var + eps), b = bias - mean * a
        const double a = scale[c] / std::sqrt(double(var[c]) + eps), b = bias[c] - mean[c] * a;
        const T* px = X.data<T>() + (n * C + c) * sp;
        T* py = Y.mutable_data<T>() + (n * C + c) * sp;
        for (std::int64_t i = 0; i < sp; ++i) py[i] = static_cast<T>(px[i] * a + b);
      }
    return Y;
  })};
}

// NHWC: the same per-channel y = x * a[c] + b[c], c the last dim.
Outputs batch_norm_nhwc(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "BatchNormalization");
  if (X.rank() < 2) fail("input must be at least 2-D");
  const std::int64_t C = X.dim(X.rank() - 1), rows = X.numel() / std::max<std::int64_t>(1, C);
  const auto scale = x[1].to_float_vector(), bias = x[2].to_float_vector(), mean = x[3].to_float_vector(),
             var = x[4].to_float_vector();
  if (static_cast<std::int64_t>(scale.size()) != C || bias.size() != scale.size() || mean.size() != scale.size() ||
      var.size() != scale.size())
    fail("scale, bias, mean and var must have " + std::to_string(C) + " values");
  const double eps = attr_float(op, "epsilon", 1e-5);
  std::vector<double> a(static_cast<std::size_t>(C)), b(static_cast<std::size_t>(C));
  for (std::size_t c = 0; c < a.size(); ++c) {
    a[c] = scale[c] / std::sqrt(double(var[c]) + eps);
    b[c] = bias[c] - mean[c] * a[c];
  }
  if (X.dtype() == DType::Float32) {
    // y = min(max(x * a[c] + b[c], lo), hi) row by row (channels innermost: vectorises),
    // rows split over the pool; the clamp is a fused RELU/RELU6 (none: +-inf).
    const std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    float lo = 0, hi = 0;
    const bool clamp = fused_clamp(op, lo, hi);
    Tensor Y = Tensor::uninitialized(DType::Float32, X.shape());
    const std::int64_t rows_per_task = std::max<std::int64_t>(1, 16384 / std::max<std::int64_t>(C, 1));
    const gemm::Isa isa = gemm::active_isa();
    const AffineRowsFn affine = isa == gemm::Isa::Avx512 ? affine_rows_avx512
                                : isa == gemm::Isa::Avx2 ? affine_rows_avx2
                                                         : affine_rows_generic;
    parallel_for((rows + rows_per_task - 1) / rows_per_task, [&](std::int64_t t) {
      affine(X.data<float>(), Y.mutable_data<float>(), t * rows_per_task,
             std::min(rows, (t + 1) * rows_per_task), C, af.data(), bf.data(), lo, hi);
    });
    if (!clamp) apply_fused_activation(op, Y);
    return {Y};
  }
  return {dispatch_float(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), X.shape());
    for (std::int64_t r = 0; r < rows; ++r) {
      const T* px = X.data<T>() + r * C;
      T* py = Y.mutable_data<T>() + r * C;
      for (std::int64_t c = 0; c < C; ++c) py[c] = static_cast<T>(px[c] * a[static_cast<std::size_t>(c)] + b[static_cast<std::size_t>(c)]);
    }
    return Y;
  })};
}

// y = scale[c] * (x - mean_nc) / sqrt(var_nc + eps) + bias[c], statistics over the spatial dims
Outputs kernel_InstanceNormalization(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "InstanceNormalization");
  if (X.rank() < 3) fail("input must be at least 3-D");
  const std::int64_t N = X.dim(0), C = X.dim(1), sp = X.numel() / std::max<std::int64_t>(1, N * C);
  const auto scale = x[1].to_float_vector(), bias = x[2].to_float_vector();
  if (static_cast<std::int64_t>(scale.size()) != C || bias.size() != scale.size()) fail("scale and bias must have C values");
  const double eps = attr_float(op, "epsilon", 1e-5);
  auto v = as_double(X);
  for (std::int64_t nc = 0; nc < N * C; ++nc) {
    double* p = v.data() + nc * sp;
    double mean = 0, var = 0;
    for (std::int64_t i = 0; i < sp; ++i) mean += p[i];
    mean /= double(sp);
    for (std::int64_t i = 0; i < sp; ++i) var += (p[i] - mean) * (p[i] - mean);
    var /= double(sp);
    const double inv = 1.0 / std::sqrt(var + eps);
    for (std::int64_t i = 0; i < sp; ++i) p[i] = (p[i] - mean) * inv * scale[nc % C] + bias[nc % C];
  }
  return {from_double(X.dtype(), X.shape(), v)};
}

// f32 LayerNormalization, one pass over each row for the statistics:
//   mean = sum(x) / n,  var = sum((x - x0)^2)/n - (mean - x0)^2   (x0 = the row's first
//   element: a shift that keeps the one-pass formula accurate when |mean| >> stddev)
//   y = (x - mean) * (1 / sqrt(var + eps)) * scale + bias
// Sums in 8 float lanes of double-precision-free SIMD, reduced pairwise; rows split over
// the current thread pool (each row's result does not depend on the split).
void layer_norm_f32(const float* x, const float* scale, const float* bias, float* y, std::int64_t rows,
                    std::int64_t n, float eps, float* means, float* inv_stds) {
  parallel_for((rows + 7) / 8, [&](std::int64_t blk) {
    for (std::int64_t r = blk * 8; r < std::min(rows, blk * 8 + 8); ++r) {
      const float* xr = x + r * n;
      float* yr = y + r * n;
      const float x0 = xr[0];
      float s[8] = {}, q[8] = {};
      std::int64_t i = 0;
      for (; i + 8 <= n; i += 8)
        for (int l = 0; l < 8; ++l) {
          const float v = xr[i + l] - x0;
          s[l] += v;
          q[l] += v * v;
        }
      for (int l = 0; i < n; ++i, ++l) {
        const float v = xr[i] - x0;
        s[l] += v;
        q[l] += v * v;
      }
      double sum = 0, sq = 0;
      for (int l = 0; l < 8; ++l) sum += s[l], sq += q[l];
      const double m = sum / double(n);                  // mean - x0
      const double var = std::max(0.0, sq / double(n) - m * m);
      const float mean = static_cast<float>(m + x0), inv = static_cast<float>(1.0 / std::sqrt(var + eps));
      if (bias)
        for (std::int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - mean) * inv * scale[j] + bias[j];
      else
        for (std::int64_t j = 0; j < n; ++j) yr[j] = (xr[j] - mean) * inv * scale[j];
      if (means) means[r] = mean;
      if (inv_stds) inv_stds[r] = inv;
    }
  });
}

// Over the trailing dims from `axis`: y = (x - mean) / sqrt(var + eps) * scale + bias
// (scale and bias broadcast to the normalised dims). Outputs Mean and InvStdDev optionally.
// f32 takes layer_norm_f32 (scale/bias of the normalised shape, or broadcast to it first);
// layer_norm_reference is the double-precision definition it is tested against.
Outputs kernel_LayerNormalization(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &S = x[1], &B = in(x, 2);
  if (X.dtype() == DType::Float32 && S.dtype() == DType::Float32 && (!B.defined() || B.dtype() == DType::Float32) &&
      X.numel() > 0) {
    const auto rank = static_cast<std::int64_t>(X.rank());
    const std::int64_t axis = norm_axis(attr_int(op, "axis", -1), rank);
    std::int64_t rows = 1, n = 1;
    for (std::int64_t d = 0; d < rank; ++d) (d < axis ? rows : n) *= X.dim(static_cast<std::size_t>(d));
    const Shape norm_shape(X.shape().begin() + axis, X.shape().end());
    // scale/bias as n contiguous floats (a copy only when they broadcast)
    auto row_of = [&](const Tensor& t, std::vector<float>& keep) -> const float* {
      if (!t.defined()) return nullptr;
      if (t.numel() == n && broadcast_shapes(t.shape(), norm_shape) == norm_shape) return t.data<float>();
      if (broadcast_shapes(t.shape(), norm_shape) != norm_shape)
        fail("scale/bias " + t.type_string() + " do not broadcast to " + shape_string(norm_shape));
      keep.resize(static_cast<std::size_t>(n));
      for_each_broadcast2(norm_shape, norm_shape, t.shape(), [&](std::int64_t i, std::int64_t, std::int64_t it) {
        keep[static_cast<std::size_t>(i)] = t.data<float>()[it];
      });
      return keep.data();
    };
    std::vector<float> ks, kb;
    const float* scale = row_of(S, ks);
    const float* bias = row_of(B, kb);
    Shape stat_shape = X.shape();
    for (std::int64_t d = axis; d < rank; ++d) stat_shape[static_cast<std::size_t>(d)] = 1;
    Tensor Y = Tensor::uninitialized(DType::Float32, X.shape());
    Tensor M(DType::Float32, op.outputs.size() > 1 ? stat_shape : Shape{0});
    Tensor I(DType::Float32, op.outputs.size() > 2 ? stat_shape : Shape{0});
    layer_norm_f32(X.data<float>(), scale, bias, Y.mutable_data<float>(), rows, n,
                   static_cast<float>(attr_float(op, "epsilon", 1e-5)),
                   op.outputs.size() > 1 ? M.mutable_data<float>() : nullptr,
                   op.outputs.size() > 2 ? I.mutable_data<float>() : nullptr);
    Outputs out{Y};
    if (op.outputs.size() > 1) out.push_back(M);
    if (op.outputs.size() > 2) out.push_back(I);
    return out;
  }
  return layer_norm_reference(op, x);
}

Outputs layer_norm_reference(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &S = x[1], &B = in(x, 2);
  require_f32(X, "LayerNormalization");
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", -1), rank);
  const double eps = attr_float(op, "epsilon", 1e-5);
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : inner) *= X.dim(static_cast<std::size_t>(d));
  const Shape norm_shape(X.shape().begin() + axis, X.shape().end());
  // Broadcast scale and bias over the normalised shape.
  auto expand = [&](const Tensor& t) {
    std::vector<double> out(static_cast<std::size_t>(inner));
    if (!t.defined()) return out;
    const Shape bs = broadcast_shapes(t.shape(), norm_shape);
    if (bs != norm_shape) fail("scale/bias " + t.type_string() + " do not broadcast to " + shape_string(norm_shape));
    for_each_broadcast2(norm_shape, norm_shape, t.shape(), [&](std::int64_t i, std::int64_t, std::int64_t it) {
      out[static_cast<std::size_t>(i)] = t.get_double(it);
    });
    return out;
  };
  const auto scale = expand(S), bias = expand(B);
  auto v = as_double(X);
  Shape stat_shape = X.shape();
  for (std::int64_t d = axis; d < rank; ++d) stat_shape[static_cast<std::size_t>(d)] = 1;
  std::vector<double> means(static_cast<std::size_t>(outer)), invs(static_cast<std::size_t>(outer));
  for (std::int64_t o = 0; o < outer; ++o) {
    double* p = v.data() + o * inner;
    double mean = 0, var = 0;
    for (std::int64_t i = 0; i < inner; ++i) mean += p[i];
    mean /= double(inner);
    for (std::int64_t i = 0; i < inner; ++i) var += (p[i] - mean) * (p[i] - mean);
    var /= double(inner);
    const double inv = 1.0 / std::sqrt(var + eps);
    means[static_cast<std::size_t>(o)] = mean;
    invs[static_cast<std::size_t>(o)] = inv;
    for (std::int64_t i = 0; i < inner; ++i) p[i] = (p[i] - mean) * inv * scale[i] + bias[i];
  }
  Outputs out{from_double(X.dtype(), X.shape(), v)};
  if (op.outputs.size() > 1) out.push_back(from_double(DType::Float32, stat_shape, means));
  if (op.outputs.size() > 2) out.push_back(from_double(DType::Float32, stat_shape, invs));
  return out;
}

// Statistics per (n, group of C/G channels); scale and bias per channel.
Outputs kernel_GroupNormalization(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "GroupNormalization");
  const std::int64_t G = attr_int(op, "num_groups", 1);
  if (X.rank() < 2 || G <= 0 || X.dim(1) % G) fail("channels must divide into num_groups");
  const std::int64_t N = X.dim(0), C = X.dim(1), sp = X.numel() / std::max<std::int64_t>(1, N * C), cg = C / G;
  const auto scale = x[1].to_float_vector(), bias = x[2].to_float_vector();
  const double eps = attr_float(op, "epsilon", 1e-5);
  auto v = as_double(X);
  const std::int64_t len = cg * sp;
  for (std::int64_t ng = 0; ng < N * G; ++ng) {
    double* p = v.data() + ng * len;
    double mean = 0, var = 0;
    for (std::int64_t i = 0; i < len; ++i) mean += p[i];
    mean /= double(len);
    for (std::int64_t i = 0; i < len; ++i) var += (p[i] - mean) * (p[i] - mean);
    var /= double(len);
    const double inv = 1.0 / std::sqrt(var + eps);
    for (std::int64_t i = 0; i < len; ++i) {
      const std::size_t c = static_cast<std::size_t>((ng % G) * cg + i / sp);
      const std::size_t ci = scale.size() == static_cast<std::size_t>(C) ? c : static_cast<std::size_t>(ng % G);
      p[i] = (p[i] - mean) * inv * scale[ci] + bias[ci];
    }
  }
  return {from_double(X.dtype(), X.shape(), v)};
}

// y = x / ||x||_p along axis (p = 1 or 2)
Outputs kernel_LpNormalization(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "LpNormalization");
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", -1), rank), p = attr_int(op, "p", 2);
  std::int64_t outer = 1, n = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? n : inner) *= X.dim(static_cast<std::size_t>(d));
  auto v = as_double(X);
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t k = 0; k < inner; ++k) {
      double* q = v.data() + o * n * inner + k;
      double norm = 0;
      for (std::int64_t j = 0; j < n; ++j) norm += p == 1 ? std::abs(q[j * inner]) : q[j * inner] * q[j * inner];
      if (p != 1) norm = std::sqrt(norm);
      for (std::int64_t j = 0; j < n; ++j) q[j * inner] = norm == 0 ? 0 : q[j * inner] / norm;
    }
  return {from_double(X.dtype(), X.shape(), v)};
}

// y = x / (bias + alpha / size * sum_{c' in window(c)} x[c']^2) ^ beta
Outputs kernel_LRN(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "LRN");
  if (X.rank() < 3) fail("input must be at least 3-D");
  const double alpha = attr_float(op, "alpha", 1e-4), beta = attr_float(op, "beta", 0.75), bias = attr_float(op, "bias", 1.0);
  const std::int64_t size = attr_int(op, "size", 1);
  const std::int64_t N = X.dim(0), C = X.dim(1), sp = X.numel() / std::max<std::int64_t>(1, N * C);
  const auto v = as_double(X);
  std::vector<double> y(v.size());
  const std::int64_t lo = (size - 1) / 2, hi = size - 1 - lo;  // window [c - floor((size-1)/2), c + ceil((size-1)/2)]
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t i = 0; i < sp; ++i) {
        double sq = 0;
        for (std::int64_t cc = std::max<std::int64_t>(0, c - lo); cc <= std::min(C - 1, c + hi); ++cc) {
          const double t = v[static_cast<std::size_t>((n * C + cc) * sp + i)];
          sq += t * t;
        }
        const std::size_t idx = static_cast<std::size_t>((n * C + c) * sp + i);
        y[idx] = v[idx] / std::pow(bias + alpha / double(size) * sq, beta);
      }
  return {from_double(X.dtype(), X.shape(), y)};
}

// y = (x - mean) / sqrt(var), statistics over `axes` (default [0, 2, 3])
Outputs kernel_MeanVarianceNormalization(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  require_f32(X, "MeanVarianceNormalization");
  auto axes = attr_ints(op, "axes");
  if (axes.empty()) axes = {0, 2, 3};
  const auto rank = static_cast<std::int64_t>(X.rank());
  std::vector<bool> reduced(X.rank(), false);
  for (auto a : axes) reduced[static_cast<std::size_t>(norm_axis(a, rank))] = true;
  Shape stat = X.shape();
  for (std::size_t d = 0; d < X.rank(); ++d) if (reduced[d]) stat[d] = 1;
  const auto v = as_double(X);
  std::vector<double> sum(static_cast<std::size_t>(shape_numel(stat))), sq(sum.size());
  const Shape out = X.shape();
  std::int64_t count = 1;
  for (std::size_t d = 0; d < X.rank(); ++d) if (reduced[d]) count *= out[d];
  for_each_broadcast2(out, out, stat, [&](std::int64_t i, std::int64_t, std::int64_t is) {
    sum[static_cast<std::size_t>(is)] += v[static_cast<std::size_t>(i)];
    sq[static_cast<std::size_t>(is)] += v[static_cast<std::size_t>(i)] * v[static_cast<std::size_t>(i)];
  });
  std::vector<double> y(v.size());
  for_each_broadcast2(out, out, stat, [&](std::int64_t i, std::int64_t, std::int64_t is) {
    const double mean = sum[static_cast<std::size_t>(is)] / double(count);
    const double var = sq[static_cast<std::size_t>(is)] / double(count) - mean * mean;
    y[static_cast<std::size_t>(i)] = (v[static_cast<std::size_t>(i)] - mean) / std::sqrt(var + 1e-9);
  });
  return {from_double(X.dtype(), X.shape(), y)};
}

}  // namespace ec::runtime::kernels
