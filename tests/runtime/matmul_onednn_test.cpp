// Constant-weight f32 products on oneDNN's matmul (kernels/matmul_onednn.h) against a
// double-precision reference: both weight layouts, biases, every fused activation with a
// post-op, a row stride wider than N, pieces by columns and by rows at 1-3 threads; and
// where it must decline (weights not a session constant, one row, a small product).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/matmul_onednn.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::test {
namespace {

double activate(const std::string& act, double v) {
  if (act == "RELU") return std::max(v, 0.0);
  if (act == "RELU6") return std::min(std::max(v, 0.0), 6.0);
  if (act == "SIGMOID") return 1 / (1 + std::exp(-v));
  if (act == "TANH") return std::tanh(v);
  if (act == "HARD_SWISH") return v * std::min(std::max(v + 3, 0.0), 6.0) / 6;
  if (act == "SILU") return v / (1 + std::exp(-v));
  if (act == "GELU") return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
  return v;
}

struct Case {
  std::int64_t M, N, K, ldy;
  bool trans_w, bias;
  std::string act;
};

TEST(OneDnnMatMul, MatchesDoubleReference) {
  kernels::force_own_matmul(false);  // on every ISA (the default is ours below AVX-512)
  const std::vector<Case> cases = {
      {197, 384, 96, 384, true, true, "GELU"},   // ViT/ConvNeXt MLP: pieces by columns
      {3136, 96, 384, 96, true, true, "NONE"},   // many rows, few columns: pieces by rows
      {61, 130, 70, 130, false, false, "NONE"},  // MatMul on weights [K, N], odd sizes
      {33, 200, 100, 250, true, true, "RELU6"},  // a row stride wider than N
      {8, 512, 256, 512, true, true, "SILU"},    {64, 64, 300, 64, false, true, "HARD_SWISH"},
      {17, 96, 512, 96, true, false, "SIGMOID"}, {40, 160, 128, 160, true, true, "TANH"},
      {2, 1024, 512, 1024, true, true, "RELU"},  // two rows
  };
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  ThreadPool pool2(2), pool3(3);
  const std::int64_t runs_before = kernels::onednn_matmuls_run();
  int ran = 0;
  for (const Case& c : cases) {
    std::vector<float> x(static_cast<std::size_t>(c.M * c.K)),
        w(static_cast<std::size_t>(c.N * c.K)), b(static_cast<std::size_t>(c.N));
    for (auto* v : {&x, &w, &b})
      for (float& f : *v) f = d(rng);
    // y = act(x op(w) + b) in double
    std::vector<double> want(static_cast<std::size_t>(c.M * c.N));
    double scale = 1;
    for (std::int64_t i = 0; i < c.M; ++i)
      for (std::int64_t j = 0; j < c.N; ++j) {
        double acc = c.bias ? b[static_cast<std::size_t>(j)] : 0.0;
        for (std::int64_t k = 0; k < c.K; ++k)
          acc += double(x[static_cast<std::size_t>(i * c.K + k)]) *
                 w[static_cast<std::size_t>(c.trans_w ? j * c.K + k : k * c.N + j)];
        want[static_cast<std::size_t>(i * c.N + j)] = activate(c.act, acc);
        scale = std::max(scale, std::abs(acc));
      }
    for (ThreadPool* pool : {static_cast<ThreadPool*>(nullptr), &pool2, &pool3}) {
      gemm::PackCache cache;
      cache.add_constant_range(w.data(), w.size() * sizeof(float));
      cache.add_constant_range(b.data(), b.size() * sizeof(float));
      gemm::PackCacheScope cache_scope(&cache);
      PoolScope pool_scope(pool);
      std::vector<float> y(static_cast<std::size_t>(c.M * c.ldy), -7.f);
      ASSERT_TRUE(kernels::matmul_onednn(c.M, c.N, c.K, x.data(), w.data(), c.trans_w,
                                         c.bias ? b.data() : nullptr, y.data(), c.ldy, *ir::activation_from_name(c.act)))
          << c.M << "x" << c.N << "x" << c.K;
      ++ran;
      for (std::int64_t i = 0; i < c.M; ++i) {
        for (std::int64_t j = 0; j < c.N; ++j)
          ASSERT_NEAR(y[static_cast<std::size_t>(i * c.ldy + j)],
                      want[static_cast<std::size_t>(i * c.N + j)],
                      2e-6 * scale * std::sqrt(double(c.K)))
              << c.act << " " << c.M << "x" << c.N << "x" << c.K << " at " << i << "," << j
              << " threads " << (pool ? pool->size() : 1);
        for (std::int64_t j = c.N; j < c.ldy; ++j)  // the stride's gap is not written
          ASSERT_EQ(y[static_cast<std::size_t>(i * c.ldy + j)], -7.f);
      }
    }
  }
  EXPECT_EQ(kernels::onednn_matmuls_run() - runs_before, ran);
}

TEST(OneDnnMatMul, DeclinesWhatItCannotTake) {
  std::vector<float> x(64 * 256, 0.5f), w(256 * 256, 0.25f), y(64 * 256, 1.f);
  // Outside a session (no cache): declined.
  EXPECT_FALSE(kernels::matmul_onednn(64, 256, 256, x.data(), w.data(), true, nullptr, y.data(),
                                      256, ir::Activation::None));
  gemm::PackCache cache;
  gemm::PackCacheScope scope(&cache);
  // Weights that are not a session constant could change between runs: declined.
  EXPECT_FALSE(kernels::matmul_onednn(64, 256, 256, x.data(), w.data(), true, nullptr, y.data(),
                                      256, ir::Activation::None));
  cache.add_constant_range(w.data(), w.size() * sizeof(float));
  // One row (a GEMV), a small product: declined. (Every ir::Activation has a post-op or a
  // vmath strip: an activation without one is no longer expressible.)
  EXPECT_FALSE(kernels::matmul_onednn(1, 256, 256, x.data(), w.data(), true, nullptr, y.data(), 256,
                                      ir::Activation::None));
  EXPECT_FALSE(
      kernels::matmul_onednn(4, 16, 16, x.data(), w.data(), true, nullptr, y.data(), 16, ir::Activation::None));
  for (float v : y) ASSERT_EQ(v, 1.f);  // untouched
  // The switch: our own GEMM when off.
  kernels::force_own_matmul(true);
  EXPECT_FALSE(kernels::matmul_onednn(64, 256, 256, x.data(), w.data(), true, nullptr, y.data(),
                                      256, ir::Activation::None));
  kernels::force_own_matmul(false);
  EXPECT_TRUE(kernels::matmul_onednn(64, 256, 256, x.data(), w.data(), true, nullptr, y.data(), 256,
                                     ir::Activation::None));
  EXPECT_FLOAT_EQ(y[0], 256 * 0.5f * 0.25f);
}

}  // namespace
}  // namespace ec::runtime::test
