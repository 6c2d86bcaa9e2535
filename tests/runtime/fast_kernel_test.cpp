// Fast kernels against the plain reference on random shapes: odd sizes,
// padding, strides, dilations, groups.
#include <gtest/gtest.h>

#include <array>
#include <random>

#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/thread_pool.h"
#include "core/runtime/kernels/layer_norm.h"
#include "core/runtime/kernels/nhwc.h"
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
// The f32 pooling fast paths (2-D; 1-D as 2-D with a unit H; 3-D as 2-D planes and a
// depth pass) against the generic N-d loop, which a float64 tensor takes.
TEST(FastPool, MatchesGenericPathInEveryRank) {
  std::mt19937 rng(3);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  ThreadPool pool(2);
  int compared = 0;
  for (int trial = 0; trial < 450; ++trial) {
    const std::string type = trial % 2 ? "MaxPool" : "AveragePool";
    const std::int64_t rank = 1 + (trial / 2) % 3;
    V x{pick(1, 2), pick(1, 5)}, kernel, strides, dilations, pads(static_cast<std::size_t>(2 * rank));
    for (std::int64_t d = 0; d < rank; ++d) {
      const std::int64_t k = pick(1, 3);
      kernel.push_back(k);
      strides.push_back(pick(1, 3));
      dilations.push_back(type == "MaxPool" ? pick(1, 2) : 1);
      pads[static_cast<std::size_t>(d)] = pick(0, k - 1);
      pads[static_cast<std::size_t>(d + rank)] = pick(0, k - 1);
      x.push_back(d + 1 == rank ? pick(k, 40) : pick(k, 9));  // wide rows: interior columns
    }
    std::map<std::string, ir::Attribute> a{{"kernel_shape", kernel}, {"strides", strides}, {"pads", pads},
                                           {"ceil_mode", pick(0, 1)}};
    if (type == "MaxPool") a["dilations"] = dilations;
    else a["count_include_pad"] = pick(0, 1);
    const auto xs = random_floats(rng, shape_numel(x));
    const auto op = make_op(type, {"x"}, {"y"}, a);
    std::vector<Tensor> ref;
    try {
      ref = run1(op, {Tensor::from_values(ir::DType::Float64, x, std::vector<double>(xs.begin(), xs.end()))});
    } catch (const std::exception&) {
      continue;  // dilated kernel larger than the padded input
    }
    const auto want = ref[0].to_float_vector();
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      const auto y = run1(op, {f32(x, xs)});
      ASSERT_EQ(y[0].shape(), ref[0].shape()) << type << " trial " << trial;
      const auto got = y[0].to_float_vector();
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5) << type << " trial " << trial << " x" << shape_string(x);
    }
    ++compared;
  }
  EXPECT_GT(compared, 350);
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

// Einsum: f32 operands of the GEMM form run as batched products (einsum_products), f64
// ones always by the direct summation in double (the reference): the same values through
// both, at 1 and 2 threads. The last equations are not of the GEMM form (a letter summed
// over one operand alone, a diagonal, a broadcast letter): the direct summation both times.
TEST(FastEinsum, ProductsMatchDirectSummation) {
  struct Case {
    std::string eq;
    std::vector<V> shapes;
  };
  const std::vector<Case> cases = {
      {"BGHID,BGHJD->BGHIJ", {{1, 3, 2, 7, 5}, {1, 3, 2, 7, 5}}},  // maxvit's attention scores
      {"BGHIJ,BGHJD->BGHID", {{1, 3, 2, 7, 7}, {1, 3, 2, 7, 5}}},  // and its weighted sum
      {"bhqd,bkhd->bhqk", {{2, 3, 4, 8}, {2, 5, 3, 8}}},           // B permuted first
      {"ij,jk->ki", {{6, 9}, {9, 5}}},                             // the result permuted
      {"ji,jk->ik", {{9, 6}, {9, 5}}},                             // A read transposed
      {"ij,kj->ik", {{6, 9}, {5, 9}}},                             // B read transposed
      {"bij,jk->bik", {{3, 4, 9}, {9, 5}}},                        // b an M letter
      {"...ij,...jk->...ik", {{2, 3, 4, 6}, {2, 3, 6, 5}}},
      {"kji,bkj->bi", {{4, 3, 6}, {2, 4, 3}}},                     // two K letters, orders differ
      {"i,i->", {{17}, {17}}},                                     // a dot product
      {"i,j->ij", {{4}, {7}}},                                     // an outer product
      {"ij,jk->i", {{3, 4}, {4, 5}}},                              // k summed over B alone
      {"ii,ij->ij", {{4, 4}, {4, 3}}},                             // a diagonal
      {"bij,bjk->bik", {{1, 3, 4}, {2, 4, 5}}},                    // b broadcast
  };
  std::mt19937 rng(11);
  ThreadPool pool(2);
  for (const auto& c : cases) {
    std::vector<Tensor> f, d;
    for (const auto& shape : c.shapes) {
      const auto v = random_floats(rng, shape_numel(shape));
      f.push_back(f32(shape, v));
      d.push_back(Tensor::from_values(DType::Float64, shape, std::vector<double>(v.begin(), v.end())));
    }
    const auto op = make_op("Einsum", {"a", "b"}, {"y"}, {{"equation", c.eq}});
    const Tensor want = run1(op, d)[0];
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      const Tensor got = run1(op, f)[0];
      ASSERT_EQ(got.shape(), want.shape()) << c.eq;
      const auto g = got.to_float_vector(), w = want.to_float_vector();
      for (std::size_t i = 0; i < w.size(); ++i) ASSERT_NEAR(g[i], w[i], 1e-5) << c.eq << " element " << i;
    }
  }
}

// ---- NHWC kernels against the NCHW reference (inputs and outputs transposed) ----

// w [M, C/g, kH, kW] -> OHWI [M, kH, kW, C/g]
std::vector<float> to_ohwi(const std::vector<float>& w, const V& s) {
  std::vector<float> o(w.size());
  for (std::int64_t m = 0; m < s[0]; ++m)
    for (std::int64_t c = 0; c < s[1]; ++c)
      for (std::int64_t h = 0; h < s[2]; ++h)
        for (std::int64_t x = 0; x < s[3]; ++x)
          o[static_cast<std::size_t>(((m * s[2] + h) * s[3] + x) * s[1] + c)] =
              w[static_cast<std::size_t>(((m * s[1] + c) * s[2] + h) * s[3] + x)];
  return o;
}

void expect_same_nchw(const Tensor& nhwc, const Tensor& nchw_ref, float tol, const std::string& what) {
  const Tensor got = kernels::nhwc_to_nchw(nhwc);
  ASSERT_EQ(got.shape(), nchw_ref.shape()) << what;
  const auto a = got.to_float_vector(), b = nchw_ref.to_float_vector();
  for (std::size_t i = 0; i < a.size(); ++i) ASSERT_NEAR(a[i], b[i], tol) << what << " element " << i;
}

TEST(FastConvNhwc, MatchesNchwReferenceOnRandomShapes) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const char* acts[] = {"NONE", "RELU", "RELU6", "SIGMOID"};
  int compared = 0, depthwise_n = 0, pointwise_n = 0;
  for (int trial = 0; trial < 300; ++trial) {
    // Kinds: depthwise (channel counts off multiples of 8 included), pointwise 1x1, general/grouped.
    const int kind = trial % 3;
    const std::int64_t n = pick(1, 2);
    std::int64_t group, cg, mg;
    if (kind == 0) group = pick(1, 37), cg = 1, mg = 1;
    else group = pick(1, 3), cg = pick(1, 9), mg = pick(1, 9);
    std::int64_t kh = pick(1, 5), kw = pick(1, 5), sh = pick(1, 3), sw = pick(1, 3), dh = pick(1, 2), dw = pick(1, 2);
    std::int64_t pt = pick(0, 2), pl = pick(0, 2), pb = pick(0, 2), pr = pick(0, 2);
    if (kind == 1 && trial % 2) kh = kw = sh = sw = 1, pt = pl = pb = pr = 0;  // the in-place GEMM path
    const std::int64_t H = std::max<std::int64_t>((kh - 1) * dh + 1 - pt - pb, 1) + pick(0, 12);
    const std::int64_t W = std::max<std::int64_t>((kw - 1) * dw + 1 - pl - pr, 1) + pick(0, 17);
    const V x{n, group * cg, H, W}, w{group * mg, cg, kh, kw};
    const std::string act = acts[trial % 4];
    const bool bias = trial % 5 != 0;
    std::map<std::string, ir::Attribute> attrs{{"group", group}, {"strides", V{sh, sw}}, {"dilations", V{dh, dw}},
                                               {"pads", V{pt, pl, pb, pr}}, {"fused_activation", act}};
    std::vector<std::string> ins{"x", "w"};
    if (bias) ins.push_back("b");
    const auto xs = random_floats(rng, shape_numel(x)), ws = random_floats(rng, shape_numel(w)),
               bs = random_floats(rng, group * mg);
    std::vector<Tensor> nchw_in{f32(x, xs), f32(w, ws)}, nhwc_in{kernels::nchw_to_nhwc(f32(x, xs)),
                                                                  f32({w[0], kh, kw, cg}, to_ohwi(ws, w))};
    if (bias) nchw_in.push_back(f32({group * mg}, bs)), nhwc_in.push_back(f32({group * mg}, bs));
    // The reference: plain loops (conv_reference), then the activation.
    kernels::ConvGeometry g;
    try {
      g = kernels::conv_geometry(make_op("Conv", ins, {"y"}, attrs), x, w, false);
    } catch (const std::exception&) {
      continue;
    }
    Tensor ref(ir::DType::Float32, {g.n, g.m, g.out[0], g.out[1]});
    kernels::conv_reference(g, xs.data(), ws.data(), bias ? bs.data() : nullptr, ref.mutable_data<float>());
    kernels::apply_fused_activation(make_op("Conv", ins, {"y"}, attrs), ref);
    attrs["layout"] = std::string("NHWC");
    const auto y = run1(make_op("Conv", ins, {"y"}, attrs), nhwc_in);
    expect_same_nchw(y[0], ref, 1e-4f, "trial " + std::to_string(trial) + " x" + shape_string(x) + " w" + shape_string(w));
    ++compared;
    depthwise_n += kind == 0;
    pointwise_n += kind == 1 && kh == 1 && kw == 1 && sh == 1 && sw == 1 && pt + pl + pb + pr == 0;
  }
  EXPECT_GT(compared, 250);
  EXPECT_GT(depthwise_n, 80);
  EXPECT_GT(pointwise_n, 30);
}

// Wide depthwise rows (the 4-column interior blocks) with MobileNet-like channel counts.
TEST(FastConvNhwc, DepthwiseMobileNetShapes) {
  std::mt19937 rng(5);
  for (auto [C, H, s] : std::vector<std::array<std::int64_t, 3>>{{32, 112, 1}, {96, 56, 2}, {144, 28, 1}, {24, 15, 2}}) {
    const V x{1, C, H, H}, w{C, 1, 3, 3};
    std::map<std::string, ir::Attribute> attrs{{"group", C}, {"strides", V{s, s}}, {"pads", V{1, 1, 1, 1}},
                                               {"fused_activation", std::string("RELU6")}};
    const auto xs = random_floats(rng, shape_numel(x)), ws = random_floats(rng, shape_numel(w)), bs = random_floats(rng, C);
    const auto ref = run1(make_op("Conv", {"x", "w", "b"}, {"y"}, attrs), {f32(x, xs), f32(w, ws), f32({C}, bs)});
    attrs["layout"] = std::string("NHWC");
    const auto y = run1(make_op("Conv", {"x", "w", "b"}, {"y"}, attrs),
                        {kernels::nchw_to_nhwc(f32(x, xs)), f32({C, 3, 3, 1}, to_ohwi(ws, w)), f32({C}, bs)});
    expect_same_nchw(y[0], ref[0], 1e-5f, "C=" + std::to_string(C));
  }
}

TEST(FastPoolNhwc, MatchesNchwKernels) {
  std::mt19937 rng(9);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::string type = trial % 2 ? "MaxPool" : "AveragePool";
    const std::int64_t kh = pick(1, 3), kw = pick(1, 3), sh = pick(1, 3), sw = pick(1, 3);
    const std::int64_t pt = pick(0, kh - 1), pl = pick(0, kw - 1), pb = pick(0, kh - 1), pr = pick(0, kw - 1);
    const std::int64_t H = pick(kh, 11), W = pick(kw, 11), C = pick(1, 19), N = pick(1, 2);
    std::map<std::string, ir::Attribute> a{{"kernel_shape", V{kh, kw}}, {"strides", V{sh, sw}},
                                           {"pads", V{pt, pl, pb, pr}}, {"ceil_mode", pick(0, 1)}};
    if (type == "MaxPool") a["dilations"] = V{pick(1, 2), pick(1, 2)};
    else a["count_include_pad"] = pick(0, 1);
    const auto xs = random_floats(rng, N * C * H * W);
    std::vector<Tensor> ref;
    try {
      ref = run1(make_op(type, {"x"}, {"y"}, a), {f32({N, C, H, W}, xs)});
    } catch (const std::exception&) {
      continue;
    }
    a["layout"] = std::string("NHWC");
    const auto y = run1(make_op(type, {"x"}, {"y"}, a), {kernels::nchw_to_nhwc(f32({N, C, H, W}, xs))});
    expect_same_nchw(y[0], ref[0], 1e-5f, type + " trial " + std::to_string(trial));
    ++compared;
  }
  EXPECT_GT(compared, 200);
  for (const std::string type : {"GlobalAveragePool", "GlobalMaxPool"})
    for (V s : {V{1, 7, 5, 3}, V{2, 33, 7, 7}, V{1, 1, 1, 1}, V{1, 100, 3, 5}, V{2, 77, 4, 4}}) {
      const auto xs = random_floats(rng, shape_numel(s));
      const auto ref = run1(make_op(type, {"x"}), {f32(s, xs)});
      const auto y = run1(make_op(type, {"x"}, {"y"}, {{"layout", std::string("NHWC")}}),
                          {kernels::nchw_to_nhwc(f32(s, xs))});
      expect_same_nchw(y[0], ref[0], 1e-5f, type + shape_string(s));
    }
}

TEST(FastBatchNormNhwc, MatchesNchwKernel) {
  std::mt19937 rng(4);
  for (V s : {V{1, 3, 5, 7}, V{2, 17, 4, 3}}) {
    const std::int64_t C = s[1];
    const auto xs = random_floats(rng, shape_numel(s));
    auto var = random_floats(rng, C);
    for (auto& v : var) v = std::abs(v) + 0.1f;
    std::vector<Tensor> params{f32({C}, random_floats(rng, C)), f32({C}, random_floats(rng, C)),
                               f32({C}, random_floats(rng, C)), f32({C}, var)};
    std::vector<Tensor> a{f32(s, xs)}, b{kernels::nchw_to_nhwc(f32(s, xs))};
    a.insert(a.end(), params.begin(), params.end());
    b.insert(b.end(), params.begin(), params.end());
    const std::vector<std::string> ins{"x", "s", "b", "m", "v"};
    const auto ref = run1(make_op("BatchNormalization", ins), a);
    const auto y = run1(make_op("BatchNormalization", ins, {"y"}, {{"layout", std::string("NHWC")}}), b);
    expect_same_nchw(y[0], ref[0], 1e-5f, "BatchNormalization" + shape_string(s));
  }
}

// The one-pass f32 LayerNormalization against the double-precision reference: odd row
// lengths, a large offset (|mean| >> stddev), broadcast scale/bias, no bias, Mean/InvStdDev.
TEST(FastLayerNorm, MatchesReference) {
  std::mt19937 rng(21);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  for (int trial = 0; trial < 120; ++trial) {
    const std::int64_t rank = pick(1, 4);
    V shape;
    for (std::int64_t d = 0; d < rank; ++d) shape.push_back(pick(1, d == rank - 1 ? 67 : 5));
    const std::int64_t axis = pick(0, static_cast<int>(rank) - 1);
    const V norm(shape.begin() + axis, shape.end());
    auto xs = random_floats(rng, shape_numel(shape));
    if (trial % 4 == 1)
      for (auto& v : xs) v = 1000.f + v;  // offset: catastrophic cancellation without the shift
    // scale: the normalised shape, or a broadcast [1, ..., last]
    V sshape = norm;
    if (trial % 3 == 2) std::fill(sshape.begin(), sshape.end() - 1, 1);
    const bool bias = trial % 5 != 0;
    std::vector<std::string> ins{"x", "s"};
    std::vector<Tensor> in{f32(shape, xs), f32(sshape, random_floats(rng, shape_numel(sshape)))};
    if (bias) ins.push_back("b"), in.push_back(f32(sshape, random_floats(rng, shape_numel(sshape))));
    const auto op = make_op("LayerNormalization", ins, {"y", "mean", "inv"},
                            {{"axis", axis - (trial % 2 ? rank : 0)}, {"epsilon", 1e-5}});
    const auto fast = run1(op, in);
    const auto ref = kernels::layer_norm_reference(op, in);
    ASSERT_EQ(fast.size(), 3u);
    for (std::size_t o = 0; o < 3; ++o) {
      ASSERT_EQ(fast[o].shape(), ref[o].shape()) << "output " << o;
      const auto a = fast[o].to_float_vector(), b = ref[o].to_float_vector();
      for (std::size_t i = 0; i < a.size(); ++i)
        ASSERT_NEAR(a[i], b[i], 2e-4 * std::max(1.0f, std::abs(b[i])))
            << "trial " << trial << " output " << o << " x" << shape_string(shape) << " axis " << axis;
    }
  }
}

// Float Resize runs separably, one axis at a time (resize.cpp); a double tensor takes the
// reference (the sum over every tap combination, in double). Random ranks, modes,
// coordinate transforms, up- and down-scaling on one or two axes anywhere (NCHW's H, W or
// an NHWC twin's), odd sizes, 1 and 2 threads.
TEST(FastResize, SeparableMatchesReference) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const char* modes[] = {"nearest", "linear", "cubic"};
  const char* ctms[] = {"half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric", "half_pixel_symmetric"};
  const char* nearest[] = {"round_prefer_floor", "round_prefer_ceil", "floor", "ceil"};
  ThreadPool pool(2);
  int compared = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const std::int64_t rank = pick(3, 5);
    V x, sizes;
    for (std::int64_t d = 0; d < rank; ++d) x.push_back(d == 0 ? pick(1, 2) : pick(1, 13));
    sizes = x;
    // one or two resized axes among the last three (NCHW: H, W; NHWC: H, W before C)
    const std::int64_t a0 = rank - 1 - pick(0, 2), a1 = rank - 1 - pick(0, 2);
    for (std::int64_t a : {a0, a1}) sizes[static_cast<std::size_t>(a)] = pick(1, 29);
    std::map<std::string, ir::Attribute> attrs{{"mode", std::string(modes[trial % 3])},
                                               {"coordinate_transformation_mode", std::string(ctms[pick(0, 4)])},
                                               {"nearest_mode", std::string(nearest[pick(0, 3)])},
                                               {"exclude_outside", pick(0, 1)}};
    const auto xs = random_floats(rng, shape_numel(x));
    const auto op = make_op("Resize", {"x", "", "", "sizes"}, {"y"}, attrs);
    const Tensor sz = i64({rank}, sizes);
    const std::vector<double> xd(xs.begin(), xs.end());
    const auto ref = run1(op, {Tensor::from_values(ir::DType::Float64, x, xd), Tensor(), Tensor(), sz});
    ASSERT_EQ(ref[0].dtype(), ir::DType::Float64);
    const auto want = ref[0].to_float_vector();
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      const auto y = run1(op, {f32(x, xs), Tensor(), Tensor(), sz});
      ASSERT_EQ(y[0].shape(), ref[0].shape());
      const auto got = y[0].to_float_vector();
      for (std::size_t i = 0; i < got.size(); ++i)
        ASSERT_NEAR(got[i], want[i], 1e-5f * (1 + std::abs(want[i])))
            << "trial " << trial << " x" << shape_string(x) << " -> " << shape_string(sizes) << " "
            << std::get<std::string>(attrs["mode"]) << " " << std::get<std::string>(attrs["coordinate_transformation_mode"])
            << (threaded ? " 2 threads" : " 1 thread") << " element " << i;
    }
    ++compared;
  }
  EXPECT_EQ(compared, 240);
}

// ConvTranspose: GEMM + col2im against the direct scatter, random ranks (1-3), strides,
// dilations, pads, output padding, groups, odd sizes, 1 and 2 threads; bands of input
// rows (a large input is split) included.
TEST(FastConvTranspose, MatchesReferenceOnRandomShapes) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  ThreadPool pool(2);
  int compared = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const bool big = trial % 25 == 0;  // several bands of input rows
    const std::int64_t rank = pick(1, 3), group = pick(1, 3), cg = big ? 40 : pick(1, 4), mg = pick(1, 4), n = pick(1, 2);  // several bands of input rows
    V x{n, group * cg}, w{group * cg, mg}, strides, dil, pads(static_cast<std::size_t>(2 * rank)), opad;
    for (std::int64_t d = 0; d < rank; ++d) {
      const std::int64_t k = pick(1, 4), s = pick(1, 3), dl = pick(1, 2);
      x.push_back(big && d == 0 ? pick(300, 700) : pick(1, rank == 3 ? 5 : 9));
      w.push_back(k);
      strides.push_back(s);
      dil.push_back(dl);
      pads[static_cast<std::size_t>(d)] = pick(0, k - 1);
      pads[static_cast<std::size_t>(d + rank)] = pick(0, k - 1);
      opad.push_back(pick(0, std::max(s, dl) - 1));
    }
    auto op = make_op("ConvTranspose", {"x", "w", "b"}, {"y"},
                      {{"group", group}, {"strides", strides}, {"dilations", dil}, {"pads", pads}, {"output_padding", opad}});
    kernels::ConvGeometry g;
    try {
      g = kernels::conv_geometry(op, x, w, true);
    } catch (const std::exception&) {
      continue;
    }
    const auto xs = random_floats(rng, shape_numel(x)), ws = random_floats(rng, shape_numel(w)),
               bs = random_floats(rng, group * mg);
    const std::int64_t out_n = g.n * g.m * shape_numel(g.out);
    std::vector<float> ref(static_cast<std::size_t>(out_n));
    kernels::conv_transpose_reference(g, xs.data(), ws.data(), trial % 2 ? bs.data() : nullptr, ref.data());
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      std::vector<float> fast(static_cast<std::size_t>(out_n), -7.f);
      kernels::conv_transpose_fast(g, xs.data(), ws.data(), trial % 2 ? bs.data() : nullptr, fast.data());
      // within 1e-5 of the output's scale (the sums are taken in another order)
      float scale = 1;
      for (float v : ref) scale = std::max(scale, std::abs(v));
      for (std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_NEAR(fast[i], ref[i], 1e-5f * scale)
            << "trial " << trial << " x" << shape_string(x) << " w" << shape_string(w) << (threaded ? " 2 threads" : "");
    }
    ++compared;
  }
  EXPECT_GT(compared, 150);
}

}  // namespace
}  // namespace ec::runtime::test
