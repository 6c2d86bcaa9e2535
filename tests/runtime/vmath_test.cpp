// Vectorised activations (core/runtime/kernels/vmath.h) against the std::
// functions in double, under every ISA this machine runs, over wide ranges,
// the algorithm's branch points, extremes, subnormals, inf and NaN.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/vmath.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::test {
namespace {

using vmath::Fn;

struct Case {
  Fn fn;
  const char* name;
  double (*ref)(double);
  double rtol, atol, atol_per_x;  // |y - ref| <= rtol |ref| + atol + atol_per_x |x|
  bool x_times_f;                 // x g(x): -inf * 0 is NaN in the reference, skip infinities
};

constexpr float kAlphaHs = 0.2f, kBetaHs = 0.5f, kAlphaLeaky = 0.01f, kAlphaElu = 1.f, kLo = -1.5f, kHi = 2.5f;

const Case kCases[] = {
    {Fn::Exp, "Exp", [](double x) { return std::exp(x); }, 1e-6, 1e-44, 0, false},
    {Fn::Sigmoid, "Sigmoid", [](double x) { return 1 / (1 + std::exp(-x)); }, 1e-6, 1e-44, 0, false},
    {Fn::Tanh, "Tanh", [](double x) { return std::tanh(x); }, 1e-6, 1e-44, 0, false},
    {Fn::Erf, "Erf", [](double x) { return std::erf(x); }, 1e-6, 2e-7, 0, false},
    {Fn::Gelu, "Gelu", [](double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }, 1e-6, 1e-7, 1e-7, true},
    {Fn::GeluTanh, "GeluTanh",
     [](double x) { return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x))); }, 2e-6, 1e-30,
     1e-7, true},
    {Fn::Silu, "Silu", [](double x) { return x / (1 + std::exp(-x)); }, 1e-6, 1e-38, 0, true},
    {Fn::HardSigmoid, "HardSigmoid", [](double x) { return std::clamp(0.2 * x + 0.5, 0.0, 1.0); }, 1e-6, 1e-7, 0, false},
    {Fn::HardSwish, "HardSwish", [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); }, 1e-6, 1e-7, 0, true},
    {Fn::Elu, "Elu", [](double x) { return x > 0 ? x : std::expm1(x); }, 1e-6, 1e-7, 0, false},
    {Fn::Relu, "Relu", [](double x) { return x > 0 ? x : 0.0; }, 0, 0, 0, false},
    {Fn::LeakyRelu, "LeakyRelu", [](double x) { return x >= 0 ? x : double(0.01f) * x; }, 1e-7, 0, 0, false},
    {Fn::Clip, "Clip", [](double x) { return std::isnan(x) ? x : std::clamp(x, -1.5, 2.5); }, 0, 0, 0, false},
    {Fn::Affine, "Affine", [](double x) { return -1.5 * x + 2.5; }, 1e-7, 0, 0, false},
};

float alpha_of(Fn f) {
  return f == Fn::HardSigmoid ? kAlphaHs : f == Fn::LeakyRelu ? kAlphaLeaky : f == Fn::Elu ? kAlphaElu : kLo;
}
float beta_of(Fn f) { return f == Fn::HardSigmoid ? kBetaHs : kHi; }

std::vector<float> test_inputs() {
  std::vector<float> v;
  for (double x = -120; x <= 120; x += 0.0137) v.push_back(static_cast<float>(x));  // dense sweep
  for (double x = -8; x <= 8; x += 0.000731) v.push_back(static_cast<float>(x));    // the interesting range
  // Branch points of the algorithms, and their neighbours.
  for (float b : {0.625f, 1.f, 1.41421356f, 88.72283935546875f, 88.3762626647949f, 87.33654475f, 103.972077f, 9.f,
                  44.f, 10.f, 14.1421356f})
    for (float s : {1.f, -1.f}) {
      float x = s * b;
      for (int k = 0; k < 4; ++k) {
        v.push_back(x);
        x = std::nextafter(x, std::numeric_limits<float>::infinity());
      }
      x = s * b;
      for (int k = 0; k < 4; ++k) v.push_back(x = std::nextafter(x, -std::numeric_limits<float>::infinity()));
    }
  for (float x : {0.f, -0.f, 1e-30f, -1e-30f, 1e-8f, -1e-8f, FLT_MIN, -FLT_MIN, 1e-40f, -1e-40f, FLT_MAX, -FLT_MAX,
                  1e10f, -1e10f, 3e5f, -3e5f})
    v.push_back(x);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-30, 30);
  for (int i = 0; i < 20000; ++i) v.push_back(d(rng));
  return v;
}

TEST(VMath, EveryFunctionMatchesStdUnderEveryIsa) {
  const auto xs = test_inputs();
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (gemm::Isa isa : gemm::supported_isas())
    for (const Case& c : kCases) {
      SCOPED_TRACE(std::string(gemm::isa_name(isa)) + " " + c.name);
      std::vector<float> x = xs;
      if (!c.x_times_f) {
        x.push_back(inf);
        x.push_back(-inf);
      }
      x.push_back(nan);
      // Odd lengths exercise the vector tails.
      for (std::size_t len : {x.size(), std::size_t{1}, std::size_t{7}, std::size_t{13}, std::size_t{31}}) {
        std::vector<float> y(len, -12345.f);
        vmath::apply_with(isa, c.fn, x.data() + (x.size() - len), y.data(), static_cast<std::int64_t>(len),
                          alpha_of(c.fn), beta_of(c.fn));
        int bad = 0;
        double worst = 0;
        for (std::size_t i = 0; i < len; ++i) {
          const double xi = x[x.size() - len + i];
          const double ref = c.ref(xi);
          const double got = y[i];
          if (std::isnan(ref)) {
            if (!std::isnan(got) && ++bad < 5) ADD_FAILURE() << "f(" << xi << ") = " << got << ", want NaN";
            continue;
          }
          if (std::isinf(ref) || std::isinf(got) || !std::isfinite(xi)) {
            const double r32 = static_cast<float>(ref);  // the reference rounded to float may overflow too
            if (got != r32 && ++bad < 5) ADD_FAILURE() << "f(" << xi << ") = " << got << ", want " << ref;
            continue;
          }
          // Results below the smallest normal float may flush to 0 (times |x| for x g(x)).
          const double flush = c.fn == Fn::Relu || c.fn == Fn::Clip || c.fn == Fn::Affine ? 0.0 : FLT_MIN * std::max(1.0, std::fabs(xi));
          const double tol = c.rtol * std::fabs(ref) + c.atol + c.atol_per_x * std::fabs(xi) + flush +
                             std::fabs(double(static_cast<float>(ref)) - ref);  // float rounding of ref
          const double err = std::fabs(got - ref);
          worst = std::max(worst, err / (std::fabs(ref) + 1e-30));
          if (!(err <= tol) && ++bad < 5)
            ADD_FAILURE() << "f(" << xi << ") = " << got << ", want " << ref << " (error " << err << ", tol " << tol << ")";
        }
        EXPECT_EQ(bad, 0) << "worst relative error " << worst;
      }
    }
}

TEST(VMath, YMayAliasX) {
  for (gemm::Isa isa : gemm::supported_isas()) {
    std::vector<float> x(37), y(37);
    for (int i = 0; i < 37; ++i) x[static_cast<std::size_t>(i)] = 0.3f * static_cast<float>(i - 18);
    vmath::apply_with(isa, Fn::Tanh, x.data(), y.data(), 37);
    vmath::apply_with(isa, Fn::Tanh, x.data(), x.data(), 37);
    EXPECT_EQ(x, y) << gemm::isa_name(isa);
  }
}

TEST(VMath, SoftmaxRowMatchesDoubleReference) {
  std::mt19937 rng(3);
  for (gemm::Isa isa : gemm::supported_isas())
    for (std::int64_t n : {1, 2, 7, 16, 17, 100, 1000, 4099})
      for (float scale : {1.f, 30.f}) {
        std::normal_distribution<float> d(0, scale);
        std::vector<float> x(static_cast<std::size_t>(n)), y(x.size()), ly(x.size());
        for (auto& v : x) v = d(rng);
        vmath::softmax_row_with(isa, x.data(), y.data(), n, false);
        vmath::softmax_row_with(isa, x.data(), ly.data(), n, true);
        double mx = -1e300, sum = 0;
        for (float v : x) mx = std::max(mx, double(v));
        for (float v : x) sum += std::exp(double(v) - mx);
        for (std::int64_t j = 0; j < n; ++j) {
          const double e = std::exp(double(x[static_cast<std::size_t>(j)]) - mx) / sum;
          const double le = double(x[static_cast<std::size_t>(j)]) - mx - std::log(sum);
          // x - max is rounded to float first: relative error up to |x - max| ulp(1) in e^(x - max).
          const double d = std::fabs(double(x[static_cast<std::size_t>(j)]) - mx);
          ASSERT_NEAR(y[static_cast<std::size_t>(j)], e, 2e-6 * (1 + d) * e + 1e-40) << gemm::isa_name(isa) << " n " << n;
          ASSERT_NEAR(ly[static_cast<std::size_t>(j)], le, 2e-6 * std::fabs(le) + 2e-6) << gemm::isa_name(isa);
        }
      }
}

TEST(VMath, ParallelApplyEqualsSerialBitwise) {
  std::vector<float> x(100003), serial(x.size()), parallel(x.size());
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-10, 10);
  for (auto& v : x) v = d(rng);
  vmath::apply(Fn::Gelu, x.data(), serial.data(), static_cast<std::int64_t>(x.size()));
  ThreadPool pool(3);
  PoolScope scope(&pool);
  vmath::apply_parallel(Fn::Gelu, x.data(), parallel.data(), static_cast<std::int64_t>(x.size()));
  EXPECT_EQ(serial, parallel);
}

}  // namespace
}  // namespace ec::runtime::test
