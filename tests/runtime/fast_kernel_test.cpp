// Fast kernels against the plain reference on random shapes: odd sizes,
// padding, strides, dilations, groups.
#include <gtest/gtest.h>

#include <random>

#include "core/runtime/kernels/conv_reference.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using V = std::vector<std::int64_t>;

std::vector<float> random_floats(std::mt19937& rng, std::int64_t n) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

TEST(FastConv, MatchesReferenceOnRandomShapes) {
  std::mt19937 rng(42);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  int compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Every fourth trial is a 2-D depthwise convolution (its own direct kernel).
    const bool depthwise = trial % 4 == 0;
    const std::int64_t rank = depthwise ? 2 : pick(1, 3);  // spatial dims
    const std::int64_t group = depthwise ? pick(1, 5) : pick(1, 3), cg = depthwise ? 1 : pick(1, 3),
                       mg = depthwise ? 1 : pick(1, 3), n = pick(1, 2);
    V x{n, group * cg}, w{group * mg, cg}, strides, dil, pads(static_cast<std::size_t>(2 * rank));
    for (std::int64_t d = 0; d < rank; ++d) {
      const std::int64_t k = pick(1, 3), s = pick(1, 3), dl = pick(1, 2);
      const std::int64_t pb = pick(0, 2), pe = pick(0, 2);
      const std::int64_t in = std::max<std::int64_t>((k - 1) * dl + 1 - pb - pe, 0) + pick(0, rank == 3 ? 4 : 9);
      x.push_back(in);
      w.push_back(k);
      strides.push_back(s);
      dil.push_back(dl);
      pads[static_cast<std::size_t>(d)] = pb;
      pads[static_cast<std::size_t>(d + rank)] = pe;
    }
    auto op = make_op("Conv", {"x", "w", "b"}, {"y"},
                      {{"group", group}, {"strides", strides}, {"dilations", dil}, {"pads", pads}});
    kernels::ConvGeometry g;
    try {
      g = kernels::conv_geometry(op, x, w, false);
    } catch (const std::exception&) {
      continue;  // kernel larger than the padded input: refused by both paths
    }
    const auto xs = random_floats(rng, shape_numel(x)), ws = random_floats(rng, shape_numel(w)),
               bs = random_floats(rng, group * mg);
    const std::int64_t out_n = g.n * g.m * shape_numel(g.out);
    std::vector<float> ref(static_cast<std::size_t>(out_n)), fast(static_cast<std::size_t>(out_n));
    kernels::conv_reference(g, xs.data(), ws.data(), bs.data(), ref.data());
    kernels::conv_fast(g, xs.data(), ws.data(), bs.data(), fast.data());
    for (std::size_t i = 0; i < ref.size(); ++i)
      ASSERT_NEAR(fast[i], ref[i], 1e-4) << "trial " << trial << " x" << shape_string(x) << " w" << shape_string(w);
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

// The 2-D pooling fast path against the generic N-d loop (the same pooling as 3-D with a unit depth).
TEST(FastPool, TwoDMatchesGenericPath) {
  std::mt19937 rng(3);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::string type = trial % 2 ? "MaxPool" : "AveragePool";
    const std::int64_t kh = pick(1, 3), kw = pick(1, 3), sh = pick(1, 3), sw = pick(1, 3);
    const std::int64_t pt = pick(0, kh - 1), pl = pick(0, kw - 1), pb = pick(0, kh - 1), pr = pick(0, kw - 1);
    const std::int64_t H = pick(kh, 9), W = pick(kw, 9);
    const std::int64_t dil = type == "MaxPool" ? pick(1, 2) : 1;
    const std::int64_t ceil = pick(0, 1), incl = pick(0, 1);
    std::map<std::string, ir::Attribute> a2{{"kernel_shape", V{kh, kw}}, {"strides", V{sh, sw}},
                                            {"pads", V{pt, pl, pb, pr}}, {"ceil_mode", ceil}};
    std::map<std::string, ir::Attribute> a3{{"kernel_shape", V{1, kh, kw}}, {"strides", V{1, sh, sw}},
                                            {"pads", V{0, pt, pl, 0, pb, pr}}, {"ceil_mode", ceil}};
    if (type == "MaxPool") { a2["dilations"] = V{dil, dil}; a3["dilations"] = V{1, dil, dil}; }
    else { a2["count_include_pad"] = incl; a3["count_include_pad"] = incl; }
    const auto xs = random_floats(rng, 2 * 3 * H * W);
    std::vector<Tensor> y2, y3;
    try {
      y2 = run1(make_op(type, {"x"}, {"y"}, a2), {f32({2, 3, H, W}, xs)});
      y3 = run1(make_op(type, {"x"}, {"y"}, a3), {f32({2, 3, 1, H, W}, xs)});
    } catch (const std::exception&) {
      continue;  // dilated kernel larger than the padded input
    }
    ASSERT_EQ(y2[0].numel(), y3[0].numel());
    for (std::int64_t i = 0; i < y2[0].numel(); ++i)
      ASSERT_NEAR(y2[0].data<float>()[i], y3[0].data<float>()[i], 1e-5) << type << " trial " << trial;
    ++compared;
  }
  EXPECT_GT(compared, 200);
}

TEST(FastMatMul, MatchesLoopsOnOddSizes) {
  std::mt19937 rng(7);
  for (std::int64_t m : {1, 3, 17}) for (std::int64_t k : {1, 5, 33}) for (std::int64_t n : {1, 2, 31}) {
    const auto a = random_floats(rng, 2 * m * k), b = random_floats(rng, k * n);
    auto y = run1(make_op("MatMul", {"a", "b"}), {f32({2, m, k}, a), f32({k, n}, b)});
    ASSERT_EQ(y[0].shape(), (V{2, m, n}));
    for (std::int64_t bt = 0; bt < 2; ++bt)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double acc = 0;
          for (std::int64_t q = 0; q < k; ++q) acc += double(a[static_cast<std::size_t>((bt * m + i) * k + q)]) * b[static_cast<std::size_t>(q * n + j)];
          ASSERT_NEAR(y[0].data<float>()[(bt * m + i) * n + j], acc, 1e-4);
        }
  }
}

}  // namespace
}  // namespace ec::runtime::test
