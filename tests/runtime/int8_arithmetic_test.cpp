// TFLite reference integer arithmetic (core/runtime/quantized/fixed_point.h)
// against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/igemm.h"

namespace ec::runtime::quantized {
namespace {

constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
constexpr std::int32_t kMin = std::numeric_limits<std::int32_t>::min();

TEST(Int8Arithmetic, QuantizeMultiplierPowersOfTwo) {
  // m = q * 2^shift, q in [0.5, 1) as Q31.
  EXPECT_EQ(quantize_multiplier(0.5).multiplier, 1 << 30);
  EXPECT_EQ(quantize_multiplier(0.5).shift, 0);
  EXPECT_EQ(quantize_multiplier(1.0).multiplier, 1 << 30);
  EXPECT_EQ(quantize_multiplier(1.0).shift, 1);
  EXPECT_EQ(quantize_multiplier(0.25).shift, -1);
  EXPECT_EQ(quantize_multiplier(0.75).multiplier, 1610612736);  // 0.75 * 2^31
  EXPECT_EQ(quantize_multiplier(3.0).multiplier, 1610612736);
  EXPECT_EQ(quantize_multiplier(3.0).shift, 2);
  EXPECT_EQ(quantize_multiplier(0.0).multiplier, 0);
}

TEST(Int8Arithmetic, QuantizeMultiplierRoundsUpToTwoToThe31) {
  // Just below 1: the mantissa rounds to exactly 2^31, halved with the exponent bumped.
  const auto m = quantize_multiplier(1.0 - std::ldexp(1.0, -40));
  EXPECT_EQ(m.multiplier, 1 << 30);
  EXPECT_EQ(m.shift, 1);
  // Just below 0.5 likewise lands on 0.5.
  const auto h = quantize_multiplier(0.5 - std::ldexp(1.0, -40));
  EXPECT_EQ(h.multiplier, 1 << 30);
  EXPECT_EQ(h.shift, 0);
  // Just above 0.5: exactly 2^30 + 1.
  EXPECT_EQ(quantize_multiplier(0.5 + std::ldexp(1.0, -31)).multiplier, (1 << 30) + 1);
}

TEST(Int8Arithmetic, QuantizeMultiplierTinyValuesFlushToZero) {
  const auto a = quantize_multiplier(std::ldexp(1.0, -32));  // 0.5 * 2^-31: shift -31 is kept
  EXPECT_EQ(a.multiplier, 1 << 30);
  EXPECT_EQ(a.shift, -31);
  const auto b = quantize_multiplier(std::ldexp(1.0, -33));  // shift -32 < -31: flushed
  EXPECT_EQ(b.multiplier, 0);
  EXPECT_EQ(b.shift, 0);
}

TEST(Int8Arithmetic, SaturatingRoundingDoublingHighMul) {
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMin, kMin), kMax);  // the one overflow saturates
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1 << 30, 1 << 30), 1 << 29);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-(1 << 30), 1 << 30), -(1 << 29));
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMax, kMax), kMax - 1);
  EXPECT_EQ(saturating_rounding_doubling_high_mul(kMin, kMax), kMin + 1);
  // Exactly .5 (x * 0.5 with x odd): ties go toward +infinity (nudge 2^30 or 1 - 2^30).
  EXPECT_EQ(saturating_rounding_doubling_high_mul(1, 1 << 30), 1);     // 0.5 -> 1
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-1, 1 << 30), 0);    // -0.5 -> 0
  EXPECT_EQ(saturating_rounding_doubling_high_mul(3, 1 << 30), 2);     // 1.5 -> 2
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-3, 1 << 30), -1);   // -1.5 -> -1
  EXPECT_EQ(saturating_rounding_doubling_high_mul(-101, 1 << 30), -50);
}

TEST(Int8Arithmetic, RoundingDivideByPOTRoundsHalfAwayFromZero) {
  EXPECT_EQ(rounding_divide_by_pot(5, 1), 3);    // 2.5
  EXPECT_EQ(rounding_divide_by_pot(-5, 1), -3);  // -2.5
  EXPECT_EQ(rounding_divide_by_pot(3, 1), 2);
  EXPECT_EQ(rounding_divide_by_pot(-3, 1), -2);
  EXPECT_EQ(rounding_divide_by_pot(1, 1), 1);    // 0.5
  EXPECT_EQ(rounding_divide_by_pot(-1, 1), -1);  // -0.5
  EXPECT_EQ(rounding_divide_by_pot(4, 1), 2);
  EXPECT_EQ(rounding_divide_by_pot(-4, 1), -2);
  EXPECT_EQ(rounding_divide_by_pot(6, 2), 2);    // 1.5
  EXPECT_EQ(rounding_divide_by_pot(-6, 2), -2);  // -1.5
  EXPECT_EQ(rounding_divide_by_pot(5, 2), 1);    // 1.25
  EXPECT_EQ(rounding_divide_by_pot(-5, 2), -1);
  EXPECT_EQ(rounding_divide_by_pot(-7, 2), -2);  // -1.75
  // Shift edges.
  EXPECT_EQ(rounding_divide_by_pot(12345, 0), 12345);
  EXPECT_EQ(rounding_divide_by_pot(-12345, 0), -12345);
  EXPECT_EQ(rounding_divide_by_pot(kMax, 31), 1);   // 0.99999...
  EXPECT_EQ(rounding_divide_by_pot(kMin, 31), -1);  // exactly -1
  EXPECT_EQ(rounding_divide_by_pot(kMin, 1), kMin / 2);
  EXPECT_EQ(rounding_divide_by_pot(1 << 30, 31), 1);   // 0.5 -> 1
  EXPECT_EQ(rounding_divide_by_pot(-(1 << 30), 31), -1);
}

TEST(Int8Arithmetic, MultiplyByQuantizedMultiplier) {
  const auto half = quantize_multiplier(0.5), quarter = quantize_multiplier(0.25), three = quantize_multiplier(3.0);
  EXPECT_EQ(multiply_by_quantized_multiplier(100, half), 50);
  EXPECT_EQ(multiply_by_quantized_multiplier(101, half), 51);    // 50.5: SRDHM ties up
  EXPECT_EQ(multiply_by_quantized_multiplier(-101, half), -50);  // -50.5: SRDHM ties toward +inf
  EXPECT_EQ(multiply_by_quantized_multiplier(6, quarter), 2);    // SRDHM 3, then 1.5 -> 2
  EXPECT_EQ(multiply_by_quantized_multiplier(-6, quarter), -2);
  EXPECT_EQ(multiply_by_quantized_multiplier(10, three), 30);    // left shift 2, * 0.75
  EXPECT_EQ(multiply_by_quantized_multiplier(-10, three), -30);
  EXPECT_EQ(multiply_by_quantized_multiplier(7, quantize_multiplier(1.0)), 7);  // exactly one is exact
  EXPECT_EQ(multiply_by_quantized_multiplier(kMax, quantize_multiplier(0.5)), 1 << 30);
  EXPECT_EQ(multiply_by_quantized_multiplier(kMin, quantize_multiplier(0.5)), kMin / 2);
  // Random values against the real product, rounded: never more than 1 off.
  std::mt19937 rng(7);
  for (int i = 0; i < 2000; ++i) {
    const double m = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng),
                                std::uniform_int_distribution<int>(-20, 4)(rng));
    const auto x = std::uniform_int_distribution<std::int32_t>(-100000, 100000)(rng);
    const double want = std::round(double(x) * m);
    EXPECT_NEAR(double(multiply_by_quantized_multiplier(x, quantize_multiplier(m))), want, 1.0) << x << " * " << m;
  }
}

TEST(Int8Arithmetic, AddScheme) {
  // s = 0.5 everywhere: 10 + 20 -> 30 (hand-traced: input multipliers 2^30 shift 0,
  // output 2^-19 = (2^30, -18); 15 * 2^20 -> 7.5 * 2^20 -> 30).
  AddParams p = make_add_params(0.5f, 0, 0.5f, 0, 0.5f, 0);
  EXPECT_EQ(p.input1.multiplier, 1 << 30);
  EXPECT_EQ(p.input1.shift, 0);
  EXPECT_EQ(p.output.multiplier, 1 << 30);
  EXPECT_EQ(p.output.shift, -18);
  EXPECT_EQ(add_quantized(p, 10, 20), 30);
  EXPECT_EQ(add_quantized(p, 100, 100), 127);      // saturates at the storage range
  EXPECT_EQ(add_quantized(p, -100, -100), -128);
  EXPECT_EQ(add_quantized(p, 10, 20, true), -10);  // SUB
  // Random params: within 1 of the rounded real sum.
  std::mt19937 rng(3);
  for (int i = 0; i < 2000; ++i) {
    const float s1 = std::uniform_real_distribution<float>(0.001f, 0.1f)(rng);
    const float s2 = std::uniform_real_distribution<float>(0.001f, 0.1f)(rng);
    const float so = std::uniform_real_distribution<float>(0.005f, 0.2f)(rng);
    const int z1 = std::uniform_int_distribution<int>(-128, 127)(rng), z2 = std::uniform_int_distribution<int>(-128, 127)(rng);
    const int zo = std::uniform_int_distribution<int>(-50, 50)(rng);
    const int x1 = std::uniform_int_distribution<int>(-128, 127)(rng), x2 = std::uniform_int_distribution<int>(-128, 127)(rng);
    AddParams q = make_add_params(s1, z1, s2, z2, so, zo);
    const double real = double(s1) * (x1 - z1) + double(s2) * (x2 - z2);
    const double want = std::clamp(std::round(real / so) + zo, -128.0, 127.0);
    EXPECT_NEAR(add_quantized(q, x1, x2), want, 1.0);
  }
}

TEST(Int8Arithmetic, ActivationRangeInTheQuantisedDomain) {
  std::int32_t lo = 0, hi = 0;
  ASSERT_TRUE(activation_range(ir::Activation::Relu, 0.1f, -10, -128, 127, lo, hi));
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(activation_range(ir::Activation::Relu6, 0.1f, -10, -128, 127, lo, hi));
  EXPECT_EQ(lo, -10);
  EXPECT_EQ(hi, 50);
  ASSERT_TRUE(activation_range(ir::Activation::ReluN1To1, 0.1f, -10, -128, 127, lo, hi));
  EXPECT_EQ(lo, -20);
  EXPECT_EQ(hi, 0);
  ASSERT_TRUE(activation_range(ir::Activation::Relu6, 0.01f, 0, -128, 127, lo, hi));  // 6 / 0.01 = 600: clipped
  EXPECT_EQ(hi, 127);
  ASSERT_TRUE(activation_range(ir::Activation::None, 0.1f, 3, -128, 127, lo, hi));
  EXPECT_EQ(lo, -128);
  EXPECT_EQ(hi, 127);
  EXPECT_FALSE(activation_range(ir::Activation::Sigmoid, 0.1f, 0, -128, 127, lo, hi));
}

TEST(Int8Arithmetic, AsymmetricQuantizeFloats) {
  const float x[] = {-1.f, 0.f, 1.f};
  std::int8_t q[3];
  float s = 0;
  std::int32_t z = 0;
  asymmetric_quantize_floats(x, 3, q, s, z);
  EXPECT_FLOAT_EQ(s, 2.f / 255.f);
  EXPECT_EQ(z, -1);  // zero point -0.5 (from the max end) rounds away from zero
  EXPECT_EQ(q[0], -128);
  EXPECT_EQ(q[1], -1);
  EXPECT_NEAR(q[2], 127, 1);  // 1 * (1 / scale) = 127.5 give or take a float ulp
  const float zeros[] = {0.f, 0.f};
  asymmetric_quantize_floats(zeros, 2, q, s, z);
  EXPECT_EQ(s, 1.f);
  EXPECT_EQ(z, 0);
  const float pos[] = {0.5f, 2.f};  // range widened to include 0: zero point at the bottom
  asymmetric_quantize_floats(pos, 2, q, s, z);
  EXPECT_EQ(z, -128);
  EXPECT_EQ(q[1], 127);
}

// The vectorised requantisation (AVX2) gives exactly the scalar TFLite result,
// including INT32 extremes, ties and every shift.
// `fn` against the scalar TFLite form on random multipliers, shifts and extreme values.
void expect_requant_row_matches_scalar(RequantRowFn fn) {
  std::mt19937 rng(17);
  std::vector<std::int32_t> acc(37);
  for (int t = 0; t < 3000; ++t) {
    const double m = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng),
                                std::uniform_int_distribution<int>(-33, 6)(rng));
    const QuantizedMultiplier q = quantize_multiplier(m);
    for (auto& a : acc) {
      switch (std::uniform_int_distribution<int>(0, 5)(rng)) {
        case 0: a = kMax; break;
        case 1: a = kMin; break;
        case 2: a = std::uniform_int_distribution<std::int32_t>(-1000, 1000)(rng); break;
        default: a = std::uniform_int_distribution<std::int32_t>(kMin, kMax)(rng);
      }
    }
    const std::int32_t bias = std::uniform_int_distribution<std::int32_t>(-5000, 5000)(rng);
    const std::int32_t zp = std::uniform_int_distribution<std::int32_t>(-128, 127)(rng);
    std::int8_t want[37], got[37];
    const auto n = static_cast<std::int64_t>(std::uniform_int_distribution<int>(1, 37)(rng));
    requant_row_generic(acc.data(), n, bias, q.multiplier, q.shift, zp, -128, 127, want);
    fn(acc.data(), n, bias, q.multiplier, q.shift, zp, -128, 127, got);
    for (std::int64_t j = 0; j < n; ++j) ASSERT_EQ(int(got[j]), int(want[j])) << "m " << m << " acc " << acc[static_cast<std::size_t>(j)];
  }
}

TEST(Int8Arithmetic, RequantRowAvx2MatchesScalar) {
  if (!gemm::isa_supported(gemm::Isa::Avx2)) GTEST_SKIP() << "no AVX2";
  expect_requant_row_matches_scalar(requant_row_avx2);
}

TEST(Int8Arithmetic, RequantRowAvx512MatchesScalar) {
  if (!gemm::isa_supported(gemm::Isa::Avx512)) GTEST_SKIP() << "no AVX-512";
  expect_requant_row_matches_scalar(requant_row_avx512);
}

// The AVX2 hybrid input quantisation equals the scalar TFLite form, ties included.
TEST(Int8Arithmetic, AsymmetricQuantizeAvx2MatchesScalar) {
  if (!gemm::isa_supported(gemm::Isa::Avx2)) GTEST_SKIP() << "no AVX2";
  std::mt19937 rng(23);
  for (int t = 0; t < 300; ++t) {
    const auto n = static_cast<std::int64_t>(std::uniform_int_distribution<int>(1, 300)(rng));
    std::vector<float> x(static_cast<std::size_t>(n));
    const float a = std::uniform_real_distribution<float>(0.01f, 10.f)(rng);
    for (auto& v : x) v = std::uniform_real_distribution<float>(-a, a * 0.7f)(rng);
    if (t % 3 == 0)  // exact halves of the scale
      for (auto& v : x) v = std::round(v * 4.f) / 4.f;
    float lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    for (float v : x) lo1 = std::min(lo1, v), hi1 = std::max(hi1, v);
    minmax_avx2(x.data(), n, lo2, hi2);
    ASSERT_EQ(lo1, lo2);
    ASSERT_EQ(hi1, hi2);
    float s = 0;
    std::int32_t z = 0;
    asymmetric_params(lo1, hi1, s, z);
    if (t % 3 == 0) s = 0.5f;  // ties: x * 2 lands on .5 steps
    std::vector<std::int8_t> q1(x.size()), q2(x.size());
    asymmetric_quantize_with(x.data(), n, s, z, q1.data());
    asymmetric_quantize_avx2(x.data(), n, s, z, q2.data());
    ASSERT_EQ(q1, q2);
  }
}

}  // namespace
}  // namespace ec::runtime::quantized
