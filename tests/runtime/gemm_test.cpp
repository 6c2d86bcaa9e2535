// The packed SGEMM (every micro-kernel this machine can run) against a plain
// double-precision product on random odd shapes, transposes, alpha,
// accumulation, bias and clamp; and results independent of the thread count
// for GEMM, convolution and depthwise convolution on resnet/mobilenet-like shapes.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <random>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/thread_pool.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using gemm::Epilogue;
using gemm::Isa;
using V = std::vector<std::int64_t>;

std::vector<float> random_floats(std::mt19937& rng, std::int64_t n) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// Restores the ISA chosen at start-up when a test forced another.
struct IsaGuard {
  Isa saved = gemm::active_isa();
  ~IsaGuard() { gemm::force_isa(saved); }
};

TEST(Gemm, ReportsTheIsasOfThisMachine) {
  const auto isas = gemm::supported_isas();
  ASSERT_FALSE(isas.empty());
  EXPECT_EQ(isas.front(), Isa::Generic);
  std::string names;
  for (Isa isa : isas) names += std::string(gemm::isa_name(isa)) + " ";
  std::cout << "GEMM kernels on this machine: " << names << "(active: " << gemm::isa_name(gemm::active_isa()) << ")\n";
  EXPECT_TRUE(gemm::isa_supported(gemm::active_isa()));
  // EC_GEMM_ISA (read once) picks the kernel when this machine supports it: the
  // ctest runtime_tests_generic_isa runs the fast-kernel tests with "generic".
  if (const char* env = std::getenv("EC_GEMM_ISA"))
    for (Isa isa : isas) {
      if (std::string(env) == gemm::isa_name(isa)) {
        EXPECT_EQ(gemm::active_isa(), isa);
      }
    }
}

TEST(Gemm, EveryIsaMatchesThePlainProduct) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  for (Isa isa : gemm::supported_isas()) {
    int compared = 0;
    for (int trial = 0; trial < 120; ++trial) {
      // Mostly small odd shapes; every tenth crosses the cache blocks (MC, KC, NC).
      const bool big = trial % 10 == 9;
      const std::int64_t M = big ? pick(100, 300) : pick(1, 40), N = big ? pick(200, 3300) : pick(1, 70),
                         K = big ? pick(250, 420) : pick(0, 50);
      const bool ta = pick(0, 1), tb = pick(0, 1), accumulate = pick(0, 3) == 0;
      const float alpha = pick(0, 2) == 0 ? 0.5f : 1.f;
      const std::int64_t lda = (ta ? M : K) + pick(0, 2), ldb = (tb ? K : N) + pick(0, 2), ldc = N + pick(0, 2);
      const auto A = random_floats(rng, (ta ? K : M) * lda), B = random_floats(rng, (tb ? N : K) * ldb);
      const auto bias = random_floats(rng, std::max(M, N));
      auto C = random_floats(rng, M * ldc);
      Epilogue ep;
      const int bk = static_cast<int>(pick(0, 2));
      ep.bias_kind = static_cast<Epilogue::Bias>(bk);
      ep.bias = bk ? bias.data() : nullptr;
      if (pick(0, 2) == 0) ep.lo = 0.f;
      if (pick(0, 3) == 0) ep.hi = 0.25f;
      std::vector<double> want(static_cast<std::size_t>(M * N));
      std::vector<double> scale(static_cast<std::size_t>(M * N));
      for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
          double acc = 0, mag = 0;
          for (std::int64_t k = 0; k < K; ++k) {
            const double p = double(ta ? A[k * lda + i] : A[i * lda + k]) * double(tb ? B[j * ldb + k] : B[k * ldb + j]);
            acc += p;
            mag += std::fabs(p);
          }
          acc *= alpha;
          if (accumulate) acc += C[i * ldc + j];
          if (ep.bias_kind == Epilogue::Bias::PerRow) acc += bias[i];
          if (ep.bias_kind == Epilogue::Bias::PerColumn) acc += bias[j];
          acc = std::min(std::max(acc, double(ep.lo)), double(ep.hi));
          want[i * N + j] = acc;
          scale[i * N + j] = mag + 1;
        }
      const auto C0 = C;
      gemm::sgemm_with(isa, 1, M, N, K, alpha, A.data(), lda, ta, B.data(), ldb, tb, accumulate, C.data(), ldc, ep);
      for (std::int64_t i = 0; i < M; ++i) {
        for (std::int64_t j = 0; j < N; ++j)
          ASSERT_NEAR(C[i * ldc + j], want[i * N + j], 1e-5 * scale[i * N + j])
              << gemm::isa_name(isa) << " trial " << trial << " M" << M << " N" << N << " K" << K << " ta" << ta
              << " tb" << tb << " at " << i << "," << j;
        for (std::int64_t j = N; j < ldc; ++j) ASSERT_EQ(C[i * ldc + j], C0[i * ldc + j]) << "wrote past N";
      }
      ++compared;
    }
    EXPECT_EQ(compared, 120);
  }
}

// Every element is computed by the same operations however the product is split.
TEST(Gemm, ThreadCountDoesNotChangeResults) {
  std::mt19937 rng(11);
  ThreadPool pool(3);
  PoolScope scope(&pool);
  // (M, N, K) of resnet18/mobilenet_v2 layers as GEMMs, plus odd ones.
  const std::vector<std::array<std::int64_t, 3>> shapes = {
      {64, 3136, 576}, {128, 784, 1152}, {512, 49, 4608}, {1000, 1, 512}, {1, 1000, 1280}, {37, 211, 93}};
  for (Isa isa : gemm::supported_isas())
    for (const auto& [M, N, K] : shapes) {
      const auto A = random_floats(rng, M * K), B = random_floats(rng, K * N), bias = random_floats(rng, M);
      Epilogue ep;
      ep.bias_kind = Epilogue::Bias::PerRow;
      ep.bias = bias.data();
      ep.lo = 0.f;
      std::vector<float> c1(static_cast<std::size_t>(M * N)), c2 = c1, c3 = c1;
      gemm::sgemm_with(isa, 1, M, N, K, 1.f, A.data(), K, false, B.data(), N, false, false, c1.data(), N, ep);
      gemm::sgemm_with(isa, 2, M, N, K, 1.f, A.data(), K, false, B.data(), N, false, false, c2.data(), N, ep);
      gemm::sgemm_with(isa, 3, M, N, K, 1.f, A.data(), K, false, B.data(), N, false, false, c3.data(), N, ep);
      // Required: within 1e-5 relative. Designed (and checked): bitwise equal.
      for (std::size_t i = 0; i < c1.size(); ++i) {
        const float tol = 1e-5f * std::max(1.f, std::fabs(c1[i]));
        ASSERT_NEAR(c2[i], c1[i], tol) << gemm::isa_name(isa) << " " << M << "x" << N << "x" << K;
        ASSERT_NEAR(c3[i], c1[i], tol) << gemm::isa_name(isa) << " " << M << "x" << N << "x" << K;
      }
      EXPECT_EQ(c1, c2) << gemm::isa_name(isa) << " " << M << "x" << N << "x" << K;
      EXPECT_EQ(c1, c3) << gemm::isa_name(isa) << " " << M << "x" << N << "x" << K;
    }
}

// The fast convolution (GEMM and depthwise paths) under each ISA, against the reference.
TEST(Gemm, ConvolutionMatchesReferenceUnderEveryIsa) {
  IsaGuard guard;
  for (Isa isa : gemm::supported_isas()) {
    ASSERT_TRUE(gemm::force_isa(isa));
    std::mt19937 rng(5);
    auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
    int compared = 0;
    for (int trial = 0; trial < 80; ++trial) {
      const bool depthwise = trial % 3 == 0;
      const std::int64_t group = depthwise ? pick(1, 9) : pick(1, 2), cg = depthwise ? 1 : pick(1, 9),
                         mg = depthwise ? 1 : pick(1, 17);
      const std::int64_t k = pick(1, 3), s = pick(1, 2), dl = pick(1, 2), p = pick(0, 1);
      const std::int64_t H = std::max<std::int64_t>((k - 1) * dl + 1, 1) + pick(0, 20), W = (k - 1) * dl + 1 + pick(0, 20);
      const V x{pick(1, 2), group * cg, H, W}, w{group * mg, cg, k, k};
      auto op = make_op("Conv", {"x", "w", "b"}, {"y"},
                        {{"group", group}, {"strides", V{s, s}}, {"dilations", V{dl, dl}}, {"pads", V{p, p, p, p}}});
      const kernels::ConvGeometry g = kernels::conv_geometry(op, x, w, false);
      const auto xs = random_floats(rng, shape_numel(x)), ws = random_floats(rng, shape_numel(w)),
                 bs = random_floats(rng, group * mg);
      const std::int64_t out_n = g.n * g.m * shape_numel(g.out);
      std::vector<float> ref(static_cast<std::size_t>(out_n)), fast(ref.size());
      kernels::conv_reference(g, xs.data(), ws.data(), bs.data(), ref.data());
      const bool relu6 = trial % 2 == 0;
      kernels::conv_fast(g, xs.data(), ws.data(), bs.data(), fast.data(), relu6 ? 0.f : -INFINITY,
                         relu6 ? 6.f : INFINITY);
      for (std::size_t i = 0; i < ref.size(); ++i) {
        const float want = relu6 ? std::min(std::max(ref[i], 0.f), 6.f) : ref[i];
        ASSERT_NEAR(fast[i], want, 1e-4) << gemm::isa_name(isa) << " trial " << trial;
      }
      ++compared;
    }
    EXPECT_EQ(compared, 80);
  }
}

// A NaN weight makes NaN outputs, never +-Inf, under every ISA, with or without a clamp
// (the SIMD epilogues' max/min return their second operand on NaN: the value goes second),
// in the GEMM and in the convolutions built on it (compare locates a planted NaN by it).
TEST(Gemm, NanStaysNanThroughTheEpilogueUnderEveryIsa) {
  IsaGuard guard;
  for (Isa isa : gemm::supported_isas()) {
    ASSERT_TRUE(gemm::force_isa(isa));
    std::mt19937 rng(3);
    const std::int64_t M = 13, N = 37, K = 9;
    auto A = random_floats(rng, M * K);
    const auto B = random_floats(rng, K * N), bias = random_floats(rng, M);
    A[static_cast<std::size_t>(2 * K + 4)] = NAN;  // row 2
    for (const bool clamp : {false, true}) {
      Epilogue ep;
      ep.bias_kind = Epilogue::Bias::PerRow;
      ep.bias = bias.data();
      if (clamp) ep.lo = 0, ep.hi = 6;
      std::vector<float> C(static_cast<std::size_t>(M * N));
      gemm::sgemm_with(isa, 1, M, N, K, 1.f, A.data(), K, false, B.data(), N, false, false, C.data(), N, ep);
      for (std::int64_t i = 0; i < M; ++i)
        for (std::int64_t j = 0; j < N; ++j) {
          const float c = C[static_cast<std::size_t>(i * N + j)];
          if (i == 2) ASSERT_TRUE(std::isnan(c)) << gemm::isa_name(isa) << " clamp " << clamp << " col " << j << ": " << c;
          else ASSERT_TRUE(std::isfinite(c));
        }
    }
    // 3x3 and 1x1 (pointwise) convolutions: every output of the channel with the NaN weight is NaN
    for (const std::int64_t k : {3, 1}) {
      const V x{1, 4, 9, 9}, w{6, 4, k, k};
      auto op = make_op("Conv", {"x", "w"}, {"y"}, {{"pads", V{k / 2, k / 2, k / 2, k / 2}}});
      const kernels::ConvGeometry g = kernels::conv_geometry(op, x, w, false);
      const auto xs = random_floats(rng, shape_numel(x));
      auto ws = random_floats(rng, shape_numel(w));
      ws[static_cast<std::size_t>(3 * 4 * k * k + 1)] = NAN;  // output channel 3
      std::vector<float> y(static_cast<std::size_t>(6 * 81));
      kernels::conv_fast(g, xs.data(), ws.data(), nullptr, y.data(), -INFINITY, INFINITY);
      std::int64_t nan = 0, inf = 0;
      for (float v : y) nan += std::isnan(v), inf += std::isinf(v);
      EXPECT_EQ(inf, 0) << gemm::isa_name(isa) << " " << k << "x" << k;
      EXPECT_GT(nan, 0) << gemm::isa_name(isa) << " " << k << "x" << k;
    }
  }
}

// Whole convolutions with 1, 2 and 3 threads: resnet-like and depthwise shapes.
TEST(Gemm, ConvolutionThreadCountDoesNotChangeResults) {
  std::mt19937 rng(9);
  struct Case {
    V x, w, strides, pads;
    std::int64_t group;
  };
  const std::vector<Case> cases = {
      {{1, 3, 224, 224}, {64, 3, 7, 7}, {2, 2}, {3, 3, 3, 3}, 1},      // resnet stem
      {{1, 64, 56, 56}, {64, 64, 3, 3}, {1, 1}, {1, 1, 1, 1}, 1},      // resnet basic block
      {{1, 64, 56, 56}, {128, 64, 1, 1}, {2, 2}, {0, 0, 0, 0}, 1},     // downsample 1x1 stride 2
      {{1, 256, 14, 14}, {512, 256, 3, 3}, {2, 2}, {1, 1, 1, 1}, 1},   // late layer, small N
      {{1, 96, 56, 56}, {96, 1, 3, 3}, {2, 2}, {1, 1, 1, 1}, 96},     // depthwise stride 2
      {{2, 32, 37, 41}, {32, 1, 3, 3}, {1, 1}, {1, 1, 1, 1}, 32},     // depthwise, odd sizes
      {{1, 32, 28, 28}, {160, 32, 1, 1}, {1, 1}, {0, 0, 0, 0}, 1},     // pointwise
  };
  ThreadPool p2(2), p3(3);
  for (const auto& c : cases) {
    auto op = make_op("Conv", {"x", "w", "b"}, {"y"},
                      {{"group", c.group}, {"strides", c.strides}, {"pads", c.pads}});
    const kernels::ConvGeometry g = kernels::conv_geometry(op, c.x, c.w, false);
    const auto xs = random_floats(rng, shape_numel(c.x)), ws = random_floats(rng, shape_numel(c.w)),
               bs = random_floats(rng, g.m);
    const std::size_t out_n = static_cast<std::size_t>(g.n * g.m * shape_numel(g.out));
    std::vector<float> y1(out_n), y2(out_n), y3(out_n);
    kernels::conv_fast(g, xs.data(), ws.data(), bs.data(), y1.data());
    {
      PoolScope s(&p2);
      kernels::conv_fast(g, xs.data(), ws.data(), bs.data(), y2.data());
    }
    {
      PoolScope s(&p3);
      kernels::conv_fast(g, xs.data(), ws.data(), bs.data(), y3.data());
    }
    for (std::size_t i = 0; i < out_n; ++i) {
      const float tol = 1e-5f * std::max(1.f, std::fabs(y1[i]));
      ASSERT_NEAR(y2[i], y1[i], tol) << "x" << shape_string(c.x) << " w" << shape_string(c.w);
      ASSERT_NEAR(y3[i], y1[i], tol) << "x" << shape_string(c.x) << " w" << shape_string(c.w);
    }
    EXPECT_EQ(y1, y2) << "bitwise, x" << shape_string(c.x) << " w" << shape_string(c.w);
    EXPECT_EQ(y1, y3) << "bitwise, x" << shape_string(c.x) << " w" << shape_string(c.w);
  }
}

TEST(ThreadPoolTest, RunsEveryTaskOnceAndRethrows) {
  ThreadPool pool(3);
  EXPECT_EQ(pool.size(), 3);
  std::vector<std::atomic<int>> hits(1000);
  pool.run(1000, [&](std::int64_t i) { hits[static_cast<std::size_t>(i)]++; });
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  // Fewer tasks than participants, and counts that do not divide into their blocks.
  for (std::int64_t n : {2, 3, 7, 998}) {
    std::vector<std::atomic<int>> once(static_cast<std::size_t>(n));
    pool.run(n, [&](std::int64_t i) { once[static_cast<std::size_t>(i)]++; });
    for (auto& h : once) EXPECT_EQ(h.load(), 1) << n << " tasks";
  }
  EXPECT_THROW(pool.run(50, [](std::int64_t i) { if (i == 17) throw std::runtime_error("task 17"); }),
               std::runtime_error);
  // Still usable after an exception; nested regions run serially.
  std::atomic<int> n{0};
  pool.run(4, [&](std::int64_t) { parallel_for(3, [&](std::int64_t) { ++n; }); });
  EXPECT_EQ(n.load(), 0 + 12);
}

}  // namespace
}  // namespace ec::runtime::test
