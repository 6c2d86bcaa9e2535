// Dispatch and the portable (std::) forms of vmath.h.
#include "core/runtime/kernels/vmath.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/runtime/thread_pool.h"

namespace ec::runtime::vmath {
namespace {

float scalar(Fn f, float v, float alpha, float beta) {
  switch (f) {
    case Fn::Exp: return std::exp(v);
    case Fn::Sigmoid: return 1.f / (1.f + std::exp(-v));
    case Fn::Tanh: return std::tanh(v);
    case Fn::Erf: return std::erf(v);
    case Fn::Gelu: return 0.5f * v * (1.f + std::erf(v * 0.70710678118654752f));
    case Fn::GeluTanh: return 0.5f * v * (1.f + std::tanh(0.7978845608028654f * (v + 0.044715f * v * v * v)));
    case Fn::Silu: return v / (1.f + std::exp(-v));
    case Fn::HardSigmoid: return std::isnan(v) ? v : std::clamp(alpha * v + beta, 0.f, 1.f);
    case Fn::HardSwish: return std::isnan(v) ? v : v * std::clamp(v / 6.f + 0.5f, 0.f, 1.f);
    case Fn::Elu: return v > 0 ? v : alpha * std::expm1(v);
    case Fn::Relu: return v > 0 ? v : 0.f;
    case Fn::LeakyRelu: return v >= 0 ? v : alpha * v;
    case Fn::Clip: return v < alpha ? alpha : (v > beta ? beta : v);
    case Fn::Affine: return std::fma(alpha, v, beta);
  }
  return v;
}

}  // namespace

void apply_with(gemm::Isa isa, Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
  switch (isa) {
    case gemm::Isa::Avx512: return apply_avx512(f, x, y, n, alpha, beta);
    case gemm::Isa::Avx2: return apply_avx2(f, x, y, n, alpha, beta);
    case gemm::Isa::Generic: break;
  }
  for (std::int64_t i = 0; i < n; ++i) y[i] = scalar(f, x[i], alpha, beta);
}

void apply(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
  apply_with(gemm::active_isa(), f, x, y, n, alpha, beta);
}

void apply_parallel(Fn f, const float* x, float* y, std::int64_t n, float alpha, float beta) {
  constexpr std::int64_t kChunk = 16384;  // elements per task: a few microseconds of work
  const std::int64_t tasks = (n + kChunk - 1) / kChunk;
  // Waking a sleeping worker costs tens of microseconds on a virtual machine (measured: a
  // Relu over 31K floats, 2 us on one thread, took 29 us split in two), so functions of a
  // cycle or less per element split only from 256K elements (about 50 us of work).
  const bool cheap = f == Fn::Relu || f == Fn::LeakyRelu || f == Fn::Clip || f == Fn::Affine ||
                     f == Fn::HardSigmoid || f == Fn::HardSwish;
  if (tasks <= 1 || current_threads() <= 1 || (cheap && n < 262144))
    return apply(f, x, y, n, alpha, beta);
  const gemm::Isa isa = gemm::active_isa();
  parallel_for(tasks, [&](std::int64_t t) {
    const std::int64_t i0 = t * kChunk;
    apply_with(isa, f, x + i0, y + i0, std::min(kChunk, n - i0), alpha, beta);
  });
}

void softmax_row_with(gemm::Isa isa, const float* x, float* y, std::int64_t n, bool log) {
  if (n <= 0) return;
  // mx = -inf (all -inf) or +inf gives NaN rows, as the plain formula does.
  float mx = -std::numeric_limits<float>::infinity(), sum = 0.f;
  if (isa == gemm::Isa::Avx512) {
    mx = row_max_avx512(x, n);
    sum = exp_sum_avx512(x, y, n, mx);
  } else if (isa == gemm::Isa::Avx2) {
    mx = row_max_avx2(x, n);
    sum = exp_sum_avx2(x, y, n, mx);
  } else {
    for (std::int64_t j = 0; j < n; ++j) mx = std::max(mx, x[j]);
    for (std::int64_t j = 0; j < n; ++j) sum += (y[j] = std::exp(x[j] - mx));
  }
  if (log) {
    // x - max - log(sum), from x (y holds the exponentials)
    const float ls = std::log(sum);
    for (std::int64_t j = 0; j < n; ++j) y[j] = x[j] - mx - ls;
  } else {
    const float inv = 1.f / sum;
    if (isa == gemm::Isa::Avx512)
      scale_avx512(y, n, inv);
    else if (isa == gemm::Isa::Avx2)
      scale_avx2(y, n, inv);
    else
      for (std::int64_t j = 0; j < n; ++j) y[j] *= inv;
  }
}

void binary_with(gemm::Isa isa, BinOp op, const float* a, std::int64_t sa, const float* b,
                 std::int64_t sb, float* y, std::int64_t n, std::int64_t rows, std::int64_t ra,
                 std::int64_t rb) {
  switch (isa) {
    case gemm::Isa::Avx512:
      return binary_avx512(op, a, sa, b, sb, y, n, rows, ra, rb);
    case gemm::Isa::Avx2:
      return binary_avx2(op, a, sa, b, sb, y, n, rows, ra, rb);
    case gemm::Isa::Generic: break;
  }
  for (std::int64_t r = 0; r < rows; ++r, a += ra, b += rb, y += n)
    for (std::int64_t i = 0; i < n; ++i) {
      const float u = a[i * sa], v = b[i * sb];
      y[i] = op == BinOp::Add ? u + v : op == BinOp::Sub ? u - v : op == BinOp::Mul ? u * v : u / v;
    }
}

void binary(BinOp op, const float* a, std::int64_t sa, const float* b, std::int64_t sb, float* y,
            std::int64_t n, std::int64_t rows, std::int64_t ra, std::int64_t rb) {
  binary_with(gemm::active_isa(), op, a, sa, b, sb, y, n, rows, ra, rb);
}

void softmax_row(const float* x, float* y, std::int64_t n, bool log) {
  softmax_row_with(gemm::active_isa(), x, y, n, log);
}

}  // namespace ec::runtime::vmath
