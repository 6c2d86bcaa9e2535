// Activations, Clip and the Softmax family.
#include <cmath>
#include <limits>
#include <string_view>

#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

// y = f(x) element-wise on float tensors (reference).
template <typename F>
Outputs act(Inputs x, F f) {
  const Tensor& a = x[0];
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), a.shape());
    const T* p = a.data<T>();
    T* o = r.mutable_data<T>();
    for (std::int64_t i = 0, n = a.numel(); i < n; ++i) o[i] = static_cast<T>(f(p[i]));
    return r;
  }, "activations")};
}


// y = f(x) element-wise on float tensors: f32 through vmath (vectorised,
// threaded), f64 through the reference lambda.
template <typename F>
Outputs act(Inputs x, F f, vmath::Fn fast, float alpha = 0.f, float beta = 0.f) {
  if (Tensor y = vmath_unary(x[0], fast, alpha, beta); y.defined()) return {y};
  return act(x, f);
}

}  // namespace

// y = max(x, 0)
Outputs kernel_Relu(const ir::Operation&, Inputs x) {
  if (x[0].dtype() != DType::Float32 && x[0].dtype() != DType::Float64) {
    return {dispatch_numeric(x[0].dtype(), [&]<typename T>() {
      Tensor r(x[0].dtype(), x[0].shape());
      const T* p = x[0].data<T>();
      T* o = r.mutable_data<T>();
      for (std::int64_t i = 0, n = r.numel(); i < n; ++i) o[i] = std::max<T>(p[i], T(0));
      return r;
    })};
  }
  return act(x, [](auto v) { return v > 0 ? v : decltype(v)(0); }, vmath::Fn::Relu);
}
// y = x >= 0 ? x : alpha * x
Outputs kernel_LeakyRelu(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 0.01);
  return act(x, [alpha](auto v) { return v >= 0 ? v : static_cast<decltype(v)>(alpha * v); }, vmath::Fn::LeakyRelu,
             static_cast<float>(alpha));
}
// y = x >= 0 ? x : slope * x, slope broadcast to x
Outputs kernel_PRelu(const ir::Operation&, Inputs x) {
  const Tensor& a = x[0];
  Tensor s = x[1];
  // Models from before opset 7 give a per-channel slope [C] for x [N, C, ...]: align it to dim 1.
  if (s.rank() == 1 && a.rank() > 2 && s.dim(0) == a.dim(1) && s.dim(0) != a.dim(a.rank() - 1)) {
    Shape cs(a.rank() - 1, 1);
    cs[0] = s.dim(0);
    s = s.reshaped(cs);
  }
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    const Shape out = broadcast_shapes(a.shape(), s.shape());
    Tensor r(a.dtype(), out);
    const T *pa = a.data<T>(), *ps = s.data<T>();
    T* o = r.mutable_data<T>();
    for_each_broadcast2(out, a.shape(), s.shape(), [&](std::int64_t i, std::int64_t ia, std::int64_t is) {
      o[i] = pa[ia] >= 0 ? pa[ia] : ps[is] * pa[ia];
    });
    return r;
  })};
}
// y = x > 0 ? x : alpha * (exp(x) - 1)
Outputs kernel_Elu(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 1.0);
  return act(x, [alpha](auto v) { return v > 0 ? double(v) : alpha * (std::exp(double(v)) - 1); }, vmath::Fn::Elu,
             static_cast<float>(alpha));
}
// y = gamma * (x > 0 ? x : alpha * (exp(x) - 1))
Outputs kernel_Selu(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 1.67326319217681884765625);
  const double gamma = attr_float(op, "gamma", 1.05070102214813232421875);
  return act(x, [=](auto v) { return gamma * (v > 0 ? double(v) : alpha * (std::exp(double(v)) - 1)); });
}
// y = max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
Outputs kernel_Celu(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 1.0);
  return act(x, [=](auto v) {
    return std::max(0.0, double(v)) + std::min(0.0, alpha * (std::exp(double(v) / alpha) - 1));
  });
}
// y = x > alpha ? x : 0
Outputs kernel_ThresholdedRelu(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 1.0);
  return act(x, [=](auto v) { return double(v) > alpha ? double(v) : 0.0; });
}
// y = 1 / (1 + exp(-x))
Outputs kernel_Sigmoid(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) {
    using T = decltype(v);
    return v >= 0 ? T(1) / (T(1) + std::exp(-v)) : std::exp(v) / (T(1) + std::exp(v));
  }, vmath::Fn::Sigmoid);
}
// y = clamp(alpha * x + beta, 0, 1)
Outputs kernel_HardSigmoid(const ir::Operation& op, Inputs x) {
  const double alpha = attr_float(op, "alpha", 0.2), beta = attr_float(op, "beta", 0.5);
  return act(x, [=](auto v) { return std::clamp(alpha * double(v) + beta, 0.0, 1.0); }, vmath::Fn::HardSigmoid,
             static_cast<float>(alpha), static_cast<float>(beta));
}
// y = x * clamp(x / 6 + 1 / 2, 0, 1)
Outputs kernel_HardSwish(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) { return double(v) * std::clamp(double(v) / 6.0 + 0.5, 0.0, 1.0); }, vmath::Fn::HardSwish);
}
Outputs kernel_Tanh(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) { return std::tanh(v); }, vmath::Fn::Tanh);
}
// y = log(1 + exp(x)), computed without overflow
Outputs kernel_Softplus(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) { return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v)); });
}
// y = x / (1 + |x|)
Outputs kernel_Softsign(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) { return v / (1 + std::abs(v)); });
}
// exact: y = x/2 * (1 + erf(x / sqrt(2)));  tanh: y = x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
Outputs kernel_Gelu(const ir::Operation& op, Inputs x) {
  if (attr_str(op, "approximate", "none") == "tanh")
    return act(x, [](auto v) {
      const double d = v;
      return 0.5 * d * (1 + std::tanh(std::sqrt(2 / M_PI) * (d + 0.044715 * d * d * d)));
    }, vmath::Fn::GeluTanh);
  return act(x, [](auto v) { return 0.5 * double(v) * (1 + std::erf(double(v) / std::sqrt(2.0))); }, vmath::Fn::Gelu);
}
// y = x * tanh(softplus(x))
Outputs kernel_Mish(const ir::Operation&, Inputs x) {
  return act(x, [](auto v) {
    const double d = v;
    return d * std::tanh(d > 0 ? d + std::log1p(std::exp(-d)) : std::log1p(std::exp(d)));
  });
}
// y = min(max(x, lo), hi); lo and hi are optional scalar inputs
Outputs kernel_Clip(const ir::Operation&, Inputs x) {
  const Tensor& a = x[0];
  const Tensor &lo = in(x, 1), &hi = in(x, 2);
  if (a.dtype() == DType::Float32) {
    const float l = lo.defined() && lo.numel() ? lo.data<float>()[0] : std::numeric_limits<float>::lowest();
    const float h = hi.defined() && hi.numel() ? hi.data<float>()[0] : std::numeric_limits<float>::max();
    return {vmath_unary(a, vmath::Fn::Clip, l, h)};
  }
  return {dispatch_numeric(a.dtype(), [&]<typename T>() {
    const T l = lo.defined() && lo.numel() ? lo.data<T>()[0] : std::numeric_limits<T>::lowest();
    const T h = hi.defined() && hi.numel() ? hi.data<T>()[0] : std::numeric_limits<T>::max();
    Tensor r(a.dtype(), a.shape());
    const T* p = a.data<T>();
    T* o = r.mutable_data<T>();
    for (std::int64_t i = 0, n = a.numel(); i < n; ++i) o[i] = p[i] < l ? l : (p[i] > h ? h : p[i]);
    return r;
  })};
}

bool fused_clamp(const ir::Operation& op, float& lo, float& hi) {
  const ir::ActivationInfo& a = ir::activation_info(ir::fused_activation(op));
  lo = a.lo;
  hi = a.hi;
  return a.clamp;
}

namespace {
// The fused activations with no clamp form: vmath's function, and the same as a GEMM strip
// function (gemm::Epilogue::strip_fn).
template <vmath::Fn F>
void strip(float* p, std::int64_t n) {
  vmath::apply(F, p, p, n);
}
struct FusedFn {
  ir::Activation act;
  vmath::Fn fn;
  StripFn strip;
};
constexpr FusedFn kFusedFns[] = {
    {ir::Activation::Sigmoid, vmath::Fn::Sigmoid, strip<vmath::Fn::Sigmoid>},
    {ir::Activation::Tanh, vmath::Fn::Tanh, strip<vmath::Fn::Tanh>},
    {ir::Activation::HardSwish, vmath::Fn::HardSwish, strip<vmath::Fn::HardSwish>},
    {ir::Activation::SiLU, vmath::Fn::Silu, strip<vmath::Fn::Silu>},
    {ir::Activation::Gelu, vmath::Fn::Gelu, strip<vmath::Fn::Gelu>},          // x/2 (1 + erf(x / sqrt 2))
    {ir::Activation::GeluTanh, vmath::Fn::GeluTanh, strip<vmath::Fn::GeluTanh>},  // Gelu approximate="tanh"
};
const FusedFn* fused_fn(ir::Activation act) {
  for (const FusedFn& f : kFusedFns)
    if (f.act == act) return &f;
  return nullptr;
}
}  // namespace

StripFn strip_fn_for(ir::Activation act) {
  const FusedFn* f = fused_fn(act);
  return f ? f->strip : nullptr;
}

namespace {
void relu_strip(float* p, std::int64_t n) { vmath::apply(vmath::Fn::Relu, p, p, n); }
void relu6_strip(float* p, std::int64_t n) { vmath::apply(vmath::Fn::Clip, p, p, n, 0.f, 6.f); }
void relu_n1_to_1_strip(float* p, std::int64_t n) {
  vmath::apply(vmath::Fn::Clip, p, p, n, -1.f, 1.f);
}
}  // namespace

StripFn activation_fn_for(ir::Activation act) {
  switch (act) {
    case ir::Activation::None: return nullptr;
    case ir::Activation::Relu: return relu_strip;
    case ir::Activation::Relu6: return relu6_strip;
    case ir::Activation::ReluN1To1: return relu_n1_to_1_strip;
    default: return strip_fn_for(act);
  }
}

StripFn fused_strip_fn(const ir::Operation& op) { return strip_fn_for(ir::fused_activation(op)); }

void apply_fused_activation(const ir::Operation& op, Tensor& y) {
  const ir::Activation act = ir::fused_activation(op);
  if (act == ir::Activation::None) return;
  if (y.dtype() != DType::Float32)
    fail("fused_activation " + std::string(ir::activation_name(act)) + " on a non-f32 result");
  float* p = y.mutable_data<float>();
  const std::int64_t n = y.numel();
  switch (act) {
    case ir::Activation::Relu:
      for (std::int64_t i = 0; i < n; ++i) p[i] = std::max(p[i], 0.f);
      break;
    case ir::Activation::Relu6:
      for (std::int64_t i = 0; i < n; ++i) p[i] = std::min(std::max(p[i], 0.f), 6.f);
      break;
    case ir::Activation::ReluN1To1:
      for (std::int64_t i = 0; i < n; ++i) p[i] = std::min(std::max(p[i], -1.f), 1.f);
      break;
    default:
      if (const FusedFn* f = fused_fn(act)) vmath::apply_parallel(f->fn, p, p, n);
      else throw UnsupportedOpError(op.op_type + " with fused_activation " + std::string(ir::activation_name(act)), "the CPU runtime", "");
  }
}

namespace {

// Applies f(row pointer in, row pointer out, length, stride) along `axis` for every other index.
enum class SoftKind { Softmax, LogSoftmax, Hardmax };

Outputs softmax_like(const ir::Operation& op, Inputs x, SoftKind kind) {
  const Tensor& a = x[0];
  const auto rank = static_cast<std::int64_t>(a.rank());
  const std::int64_t axis = rank == 0 ? 0 : norm_axis(attr_int(op, "axis", -1), rank);
  std::int64_t outer = 1, n = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? n : inner) *= a.dim(static_cast<std::size_t>(d));
  if (a.dtype() == DType::Float32 && inner == 1 && kind != SoftKind::Hardmax) {
    // Contiguous rows (the usual last axis): vectorised, rows split over the thread pool.
    Tensor r = Tensor::uninitialized(DType::Float32, a.shape());
    const float* p = a.data<float>();
    float* o = r.mutable_data<float>();
    const std::int64_t rows_per_task = std::max<std::int64_t>(1, 8192 / std::max<std::int64_t>(n, 1));
    parallel_for((outer + rows_per_task - 1) / rows_per_task, [&](std::int64_t t) {
      for (std::int64_t i = t * rows_per_task; i < std::min(outer, (t + 1) * rows_per_task); ++i)
        vmath::softmax_row(p + i * n, o + i * n, n, kind == SoftKind::LogSoftmax);
    });
    return {r};
  }
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), a.shape());
    const T* p = a.data<T>();
    T* o = r.mutable_data<T>();
    for (std::int64_t i = 0; i < outer; ++i)
      for (std::int64_t k = 0; k < inner; ++k) {
        const T* src = p + i * n * inner + k;
        T* dst = o + i * n * inner + k;
        // softmax_j = exp(x_j - max) / sum_k exp(x_k - max); logsoftmax_j = x_j - max - log(sum)
        T mx = -std::numeric_limits<T>::infinity();
        std::int64_t arg = 0;
        for (std::int64_t j = 0; j < n; ++j)
          if (src[j * inner] > mx) { mx = src[j * inner]; arg = j; }
        if (kind == SoftKind::Hardmax) {
          for (std::int64_t j = 0; j < n; ++j) dst[j * inner] = j == arg ? T(1) : T(0);
          continue;
        }
        double sum = 0;
        for (std::int64_t j = 0; j < n; ++j) sum += std::exp(double(src[j * inner] - mx));
        for (std::int64_t j = 0; j < n; ++j)
          dst[j * inner] = kind == SoftKind::Softmax
                               ? static_cast<T>(std::exp(double(src[j * inner] - mx)) / sum)
                               : static_cast<T>(double(src[j * inner] - mx) - std::log(sum));
      }
    return r;
  })};
}

}  // namespace

Outputs kernel_Softmax(const ir::Operation& op, Inputs x) { return softmax_like(op, x, SoftKind::Softmax); }
Outputs kernel_LogSoftmax(const ir::Operation& op, Inputs x) { return softmax_like(op, x, SoftKind::LogSoftmax); }
Outputs kernel_Hardmax(const ir::Operation& op, Inputs x) { return softmax_like(op, x, SoftKind::Hardmax); }

}  // namespace ec::runtime::kernels
