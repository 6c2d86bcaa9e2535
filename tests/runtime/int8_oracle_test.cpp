// The fast int8 kernels against the oracle, bit for bit: TFLite's reference
// integer kernels (core/runtime/quantized/int8_tflite_reference.cpp, reached by
// the same op in NHWC layout with OHWI weights) on the same integers, under
// every GEMM ISA this machine has (portable, AVX2, AVX-512 with the VNNI u8 x s8
// GEMM) and at 1 and 2 threads. Nothing here is allowed to differ by one LSB.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernel_registry.h"
#include "core/runtime/quantized/fixed_point.h"
#include "core/runtime/quantized/igemm_u8.h"
#include "core/runtime/quantized/int8_common.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/runtime/thread_pool.h"
#include "test_util.h"

namespace ec::runtime::quantized {
namespace {

// Calls check(op, isa, threads) with the graph's first op prepared under every ISA the
// machine has, at 1 and 2 threads; the widest ISA is forced again afterwards.
template <typename Check>
void on_every_isa_and_thread_count(const ir::Graph& g, Check&& check, const std::int8_t* output_table = nullptr) {
  for (auto isa : gemm::supported_isas()) {
    gemm::force_isa(isa);
    const auto op = prepare_quantized(g.ops[0], g);  // packed for this ISA
    if (output_table) {
      ASSERT_TRUE(op->take_output_table(output_table)) << gemm::isa_name(isa);
    }
    for (int threads : {1, 2}) {
      ThreadPool pool(threads);
      PoolScope scope(&pool);
      check(*op, isa, threads);
    }
  }
  gemm::force_isa(gemm::supported_isas().back());
}

// Scalar QuantizeLinear/DequantizeLinear params: scale s, zero point -7 (int8) or 131 (uint8).
std::pair<Tensor, Tensor> scale_and_zero_point(ir::DType dt, float s) {
  Tensor S(ir::DType::Float32, {}), Z(dt, {});
  S.mutable_data<float>()[0] = s;
  if (dt == ir::DType::Int8)
    Z.mutable_data<std::int8_t>()[0] = -7;
  else
    Z.mutable_data<std::uint8_t>()[0] = 131;
  return {S, Z};
}

using Shape = std::vector<std::int64_t>;

ir::QuantParams per_tensor(float s, std::int64_t z) { return {ir::DType::Int8, {s}, {z}, -1}; }

ir::Tensor ir_tensor_of(const std::string& name, ir::DType dt, const Shape& shape,
                        std::optional<ir::QuantParams> q, const Tensor* constant = nullptr) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.shape = ir::Shape::of(shape);
  t.quant = std::move(q);
  if (constant) t.data = ir::ConstantData::copy_of(constant->raw(), constant->nbytes());
  return t;
}

// NCHW [N, C, H, W] -> NHWC, and OIHW weights -> OHWI.
template <typename T>
Tensor to_channels_last(const Tensor& x) {
  const std::int64_t N = x.dim(0), C = x.dim(1), H = x.dim(2), W = x.dim(3);
  Tensor y(x.dtype(), {N, H, W, C});
  for (std::int64_t n = 0; n < N; ++n)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t h = 0; h < H; ++h)
        for (std::int64_t w = 0; w < W; ++w)
          y.mutable_data<T>()[((n * H + h) * W + w) * C + c] =
              x.data<T>()[((n * C + c) * H + h) * W + w];
  return y;
}

struct Geometry {
  Shape x;  // N, C, H, W
  std::int64_t m, group, kh, kw, stride, dilation, pad;
  std::string act = "NONE";
};

// Runs the NCHW fast kernel, the NHWC fast kernel (oneDNN's VNNI convolution where it
// is exact, else the NCHW kernel between Transposes) and the NHWC TFLite reference on
// the same integers. `wmax`: the weights' magnitude (127: some channels' sums may pass
// 2^24 on large kernels, which oneDNN cannot store exactly).
// `extreme`: 1, the even output channels' sums far beyond 2^24 (x and w near 127); 2, x
// within 5 of its zero point and those channels' w near 127 (sums small, x + 128 large).
void expect_conv_bit_exact(const Geometry& c, unsigned seed, int wmax = 127, int extreme = 0) {
  std::mt19937 rng(seed);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::int64_t cg = c.x[1] / c.group;
  Tensor X(ir::DType::Int8, c.x), W(ir::DType::Int8, {c.m, cg, c.kh, c.kw}),
      B(ir::DType::Int32, {c.m});
  const std::int64_t zx = extreme == 2 ? 100 : uni(-30, 30);
  for (std::int64_t i = 0; i < X.numel(); ++i)
    X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(extreme == 1   ? uni(100, 127)
                                                                : extreme == 2 ? uni(95, 105)
                                                                               : uni(-128, 127));
  for (std::int64_t i = 0; i < W.numel(); ++i)
    W.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(
        extreme && (i / (W.numel() / c.m)) % 2 == 0 ? uni(100, 127) : uni(-wmax, wmax));
  for (std::int64_t i = 0; i < c.m; ++i) B.mutable_data<std::int32_t>()[i] = uni(-30000, 30000);
  const ir::QuantParams qx = per_tensor(0.02f + 0.001f * float(uni(0, 20)), zx);
  ir::QuantParams qw{ir::DType::Int8, {}, {}, 0}, qb{ir::DType::Int32, {}, {}, 0};
  for (std::int64_t o = 0; o < c.m; ++o) {
    qw.scales.push_back(0.001f + 0.0005f * float(uni(0, 30)));
    qw.zero_points.push_back(0);
    qb.scales.push_back(qx.scales[0] * qw.scales.back());
    qb.zero_points.push_back(0);
  }
  // An output scale that keeps most results inside int8 and a few saturating
  // (|x w| is about 5400 * sw per tap, so sum ~ 5400 sqrt(K) sw, sw ~ 0.008).
  const ir::QuantParams qy =
      per_tensor(float(qx.scales[0]) * float(std::sqrt(double(cg * c.kh * c.kw))), uni(-10, 10));
  std::map<std::string, ir::Attribute> attrs{
      {"group", c.group},
      {"strides", std::vector<std::int64_t>{c.stride, c.stride}},
      {"dilations", std::vector<std::int64_t>{c.dilation, c.dilation}},
      {"pads", std::vector<std::int64_t>{c.pad, c.pad, c.pad, c.pad}},
      {"fused_activation", c.act}};
  auto build = [&](bool nhwc) {
    ir::Graph g;
    const Tensor Wl = nhwc ? to_channels_last<std::int8_t>(W) : W;
    Shape xs = c.x;
    if (nhwc) xs = {c.x[0], c.x[2], c.x[3], c.x[1]};
    g.add_tensor(ir_tensor_of("x", ir::DType::Int8, xs, qx));
    g.add_tensor(ir_tensor_of("w", ir::DType::Int8, Wl.shape(), qw, &Wl));
    g.add_tensor(ir_tensor_of("b", ir::DType::Int32, {c.m}, qb, &B));
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
    auto a = attrs;
    if (nhwc) a["layout"] = std::string("NHWC");
    g.ops.push_back(test::make_op("Conv", {"x", "w", "b"}, {"y"}, a));
    return g;
  };
  const ir::Graph fast_g = build(false), ref_g = build(true);
  const auto ref = prepare_tflite_reference(ref_g.ops[0], ref_g);
  ASSERT_TRUE(ref);
  const Tensor want_nhwc =
      ref->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X), Tensor(), Tensor()})[0];
  std::set<int> distinct;
  on_every_isa_and_thread_count(fast_g, [&](const PreparedOp& fast, [[maybe_unused]] gemm::Isa isa,
                                            [[maybe_unused]] int threads) {
    const Tensor got = fast.run(std::vector<Tensor>{X, Tensor(), Tensor()})[0];
    const Tensor got_nhwc = to_channels_last<std::int8_t>(got);
    ASSERT_EQ(got_nhwc.shape(), want_nhwc.shape());
    std::int64_t diff = 0;
    for (std::int64_t i = 0; i < got_nhwc.numel(); ++i) {
      diff += got_nhwc.data<std::int8_t>()[i] != want_nhwc.data<std::int8_t>()[i];
      distinct.insert(got_nhwc.data<std::int8_t>()[i]);
    }
    EXPECT_EQ(diff, 0) << "x " << shape_string(c.x) << " m " << c.m << " group " << c.group << " k "
                       << c.kh << "x" << c.kw << " stride " << c.stride << " ISA "
                       << gemm::isa_name(isa) << " threads " << threads;
  });
  if (want_nhwc.numel() >= 64) {
    EXPECT_GT(distinct.size(), 8u) << "a degenerate case checks nothing";
  }
  // The channels-last kernel, with the weights a session constant as in a session (the
  // oneDNN path caches its reordered weights there).
  const auto nhwc = prepare_quantized(ref_g.ops[0], ref_g);
  const ir::Tensor& w = *ref_g.find_tensor("w");
  std::int64_t worst = 0;  // the largest bound of a channel's |sum|, as the kernel computes it
  const std::int64_t range = std::max<std::int64_t>(127 - qx.zero_points[0], qx.zero_points[0] + 128);
  for (std::int64_t o = 0; o < c.m; ++o) {
    std::int64_t sum = 0;
    for (std::int64_t k = 0; k < cg * c.kh * c.kw; ++k)
      sum += std::abs(int(reinterpret_cast<const std::int8_t*>(w.data->data())[o * cg * c.kh * c.kw + k]));
    worst = std::max(worst, sum * range);
  }
  // oneDNN runs it in one piece when every sum fits 2^24, else in parts of the input
  // channels (group 1; grouped: the NCHW kernel); without VNNI never.
  const bool available = kernels::onednn_int8_conv_available(), whole = worst <= kernels::kOneDnnExactInt8Sum;
  // A depthwise Conv (dilation 1) runs on our VNNI kernel instead (dw_nhwc_vnni).
  const bool depthwise = c.group == c.x[1] && c.m == c.group && c.dilation == 1 && use_vnni() &&
                         dw_nhwc_fits(c.kh, c.kw);
  // A pointwise Conv with few input channels runs on our VNNI kernel (pw_nhwc_vnni).
  const bool pointwise = c.kh == 1 && c.kw == 1 && c.stride == 1 && c.pad == 0 && c.group == 1 &&
                         use_vnni() && c.x[1] <= kPwMaxInputChannels;
  const bool onednn = !depthwise && !pointwise && available && (whole || c.group == 1);
  // The depthwise kernel also with its quad rows built without VBMI2 (machines with VNNI
  // but not VBMI2 take that form).
  for (int pass = 0; pass < (depthwise ? 4 : 2); ++pass) {
    const int threads = 1 + pass % 2;
    const bool plain = pass >= 2;
    force_dw_plain_quads(plain);
    gemm::PackCache cache;
    cache.add_constant_range(w.data->data(), w.data->size());
    gemm::PackCacheScope cache_scope(&cache);
    ThreadPool pool(threads);
    PoolScope scope(&pool);
    const std::int64_t before = kernels::onednn_int8_convs_run(), dw_before = dw_nhwc_vnni_runs(),
                       pw_before = pw_nhwc_vnni_runs();
    const Tensor got = nhwc->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X), Tensor(), Tensor()})[0];
    force_dw_plain_quads(false);
    const std::int64_t runs = kernels::onednn_int8_convs_run() - before;
    EXPECT_EQ(dw_nhwc_vnni_runs() - dw_before, depthwise ? 1 : 0) << "our depthwise kernel";
    EXPECT_EQ(pw_nhwc_vnni_runs() - pw_before, pointwise ? 1 : 0) << "our pointwise kernel";
    if (!available || depthwise || pointwise || (!whole && c.group > 1))
      EXPECT_EQ(runs, 0);
    else if (whole) EXPECT_EQ(runs, 1) << "one oneDNN convolution";
    else if (extreme == 1)
      EXPECT_GE(runs, 3) << "whole, its sums beyond 2^24, then parts of the channels";
    else
      EXPECT_GE(runs, 1) << "whole (its sums checked), or parts of the channels";
    ASSERT_EQ(got.shape(), want_nhwc.shape());
    std::int64_t diff = 0;
    for (std::int64_t i = 0; i < got.numel(); ++i) diff += got.data<std::int8_t>()[i] != want_nhwc.data<std::int8_t>()[i];
    EXPECT_EQ(diff, 0) << "NHWC x " << shape_string(c.x) << " m " << c.m << " group " << c.group
                       << " k " << c.kh << "x" << c.kw << " stride " << c.stride
                       << (depthwise   ? (plain ? " (dw_nhwc_vnni, quads without VBMI2)"
                                                : " (dw_nhwc_vnni)")
                           : pointwise ? " (pw_nhwc_vnni)"
                           : onednn    ? (whole ? " (oneDNN)" : " (oneDNN, channel parts)")
                                       : " (NCHW kernel)")
                       << " threads " << threads;
  }
}

TEST(Int8Oracle, ConvEqualsTfliteReferenceOnEveryIsa) {
  const std::vector<Geometry> cases = {
      {{1, 16, 14, 14}, 24, 1, 1, 1, 1, 1, 0},         // pointwise: x read directly, 196 columns
      {{1, 32, 8, 8}, 40, 1, 1, 1, 1, 1, 0, "RELU6"},  // pointwise, 64 columns (whole panels)
      {{2, 13, 7, 9}, 19, 1, 1, 1, 1, 1, 0},           // K and M off the tile sizes
      {{1, 3, 17, 15}, 16, 1, 3, 3, 2, 1, 1, "RELU"},  // the stem: K = 27
      {{1, 3, 9, 70}, 8, 1, 3, 3, 2, 1, 1},     // stride 2, rows of 35 outputs (vector gather)
      {{1, 3, 20, 64}, 16, 1, 7, 7, 2, 1, 3},   // ResNet's 7x7 stride 2 stem, pad 3
      {{1, 24, 12, 12}, 32, 1, 3, 3, 1, 1, 1},  // 3x3 (im2col)
      {{1, 12, 11, 10}, 12, 3, 3, 3, 1, 2, 2},  // grouped, dilated
      {{1, 16, 15, 15}, 16, 16, 3, 3, 1, 1, 1, "RELU6"},  // depthwise
      {{1, 24, 16, 16}, 24, 24, 3, 3, 2, 1, 1},           // depthwise stride 2
      {{2, 8, 13, 11}, 8, 8, 5, 5, 2, 1, 2},              // depthwise 5x5 stride 2
      {{1, 72, 28, 28}, 20, 1, 1, 1, 1, 1, 0},            // 784 columns: several slabs per thread
      {{1, 300, 5, 5}, 24, 1, 1, 1, 1, 1, 0},  // pointwise beyond kPwMaxInputChannels: oneDNN
      {{1, 24, 9, 9}, 150, 1, 1, 1, 1, 1, 0, "RELU6"},  // pointwise, 150 outputs: nine panels and a
                                                        // tail
      {{1, 8, 6, 77}, 8, 8, 3, 3, 2, 1, 1},             // depthwise stride 2, wide rows, odd pad
      {{1, 8, 5, 70}, 8, 8, 3, 3, 2, 1, 2},             // depthwise stride 2, wide rows, even pad
      {{1, 8, 5, 70}, 8, 8, 3, 3, 1, 1, 1, "RELU"},     // depthwise stride 1, wide rows
      {{1, 16, 7, 7}, 16, 16, 3, 3, 1, 1, 1},           // small planes: several rows per vector
      {{2, 8, 14, 14}, 8, 8, 3, 3, 1, 1, 1, "RELU6"},   // row stride 16: two rows per vector
      {{1, 8, 7, 7}, 8, 8, 5, 5, 1, 1, 2},              // 5x5 on a 7x7 plane
      {{1, 4, 3, 5}, 4, 4, 3, 3, 1, 1, 0},              // one output row, unpadded
      {{2, 40, 1, 1}, 24, 1, 1, 1, 1, 1, 0, "RELU"},    // squeeze-excite: 1x1 on 1x1 planes (GEMV
                                                        // form)
      {{1, 96, 1, 1}, 120, 1, 1, 1, 1, 1, 0},           // the same, 120 channels (panels off 32)
      {{2, 40, 9, 10}, 40, 40, 3, 3, 1, 1, 1, "RELU6"},  // depthwise, 40 channels: a 16-lane tail
      {{1, 20, 11, 13}, 20, 20, 3, 3, 3, 1, 1},          // depthwise stride 3
      {{1, 48, 12, 12}, 48, 48, 7, 7, 1, 1, 3},          // depthwise 7x7 (ConvNeXt)
      {{1, 17, 9, 8}, 17, 17, 2, 4, 2, 1, 0},            // depthwise, even kernel widths, no pad
      {{1, 16, 12, 12}, 16, 16, 3, 3, 1, 2, 2},          // depthwise dilated: oneDNN
      {{1, 16, 3, 3}, 16, 16, 5, 5, 1, 1, 2},  // depthwise, a kernel larger than the plane
  };
  unsigned seed = 7;
  for (const auto& c : cases) expect_conv_bit_exact(c, seed++);
  // Sums that may pass 2^24 (3x3 over 256 and 520 channels, full-range weights): the NHWC
  // kernel cuts the channels into parts (grouped: the NCHW kernel); with small weights the
  // same shape runs whole.
  expect_conv_bit_exact({{1, 256, 6, 6}, 16, 1, 3, 3, 1, 1, 1}, seed++);
  expect_conv_bit_exact({{1, 520, 5, 7}, 24, 1, 3, 3, 1, 1, 1, "RELU"}, seed++);
  expect_conv_bit_exact({{1, 512, 6, 6}, 32, 2, 3, 3, 1, 1, 1}, seed++);  // grouped, large: NCHW kernel
  expect_conv_bit_exact({{1, 256, 6, 6}, 16, 1, 3, 3, 1, 1, 1, "RELU"}, seed++, 20);
  expect_conv_bit_exact({{2, 64, 9, 9}, 48, 1, 3, 3, 2, 1, 1}, seed++, 40);  // two images, stride 2
  // Sums that do pass 2^24: the whole convolution's are refused, the parts give the exact
  // ones; and sums within 2^24 of x - zx whose x + 128 alone would not be.
  expect_conv_bit_exact({{1, 256, 6, 6}, 16, 1, 3, 3, 1, 1, 1}, seed++, 127, 1);
  expect_conv_bit_exact({{1, 300, 5, 7}, 24, 1, 3, 3, 1, 1, 1, "RELU"}, seed++, 127, 2);
}

// int8 Add/Sub (the vector rows) against fixed_point.h add_quantized, the scalar
// mirror of TFLite's reference_integer_ops::AddElementwise, element by element.
TEST(Int8Oracle, AddSubEqualTfliteReferenceOnEveryIsa) {
  std::mt19937 rng(5);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int cases = 0;
  for (const std::string type : {"Add", "Sub"})
    for (std::int64_t n : {1, 15, 16, 17, 1000, 40001}) {
      const float sa = 0.001f * float(uni(1, 200)), sb = 0.001f * float(uni(1, 200)),
                  sy = 0.001f * float(uni(5, 400));
      const ir::QuantParams qa = per_tensor(sa, uni(-128, 127)),
                            qb = per_tensor(sb, uni(-128, 127)),
                            qy = per_tensor(sy, uni(-128, 127));
      const std::string act = uni(0, 1) ? "RELU" : "NONE";
      Tensor A(ir::DType::Int8, {1, n}), B(ir::DType::Int8, {1, n});
      for (std::int64_t i = 0; i < n; ++i) {
        A.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(uni(-128, 127));
        B.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(uni(-128, 127));
      }
      ir::Graph g;
      g.add_tensor(ir_tensor_of("a", ir::DType::Int8, {1, n}, qa));
      g.add_tensor(ir_tensor_of("b", ir::DType::Int8, {1, n}, qb));
      g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {1, n}, qy));
      g.ops.push_back(test::make_op(type, {"a", "b"}, {"y"}, {{"fused_activation", act}}));
      AddParams p =
          make_add_params(sa, std::int32_t(qa.zero_points[0]), sb, std::int32_t(qb.zero_points[0]),
                          sy, std::int32_t(qy.zero_points[0]));
      activation_range(*ir::activation_from_name(act), sy, std::int32_t(qy.zero_points[0]), -128, 127, p.act_min, p.act_max);
      on_every_isa_and_thread_count(g, [&](const PreparedOp& op, [[maybe_unused]] gemm::Isa isa,
                                           [[maybe_unused]] int threads) {
        const Tensor y = op.run(std::vector<Tensor>{A, B})[0];
        std::int64_t diff = 0;
        for (std::int64_t i = 0; i < n; ++i)
          diff +=
              y.data<std::int8_t>()[i] !=
              add_quantized(p, A.data<std::int8_t>()[i], B.data<std::int8_t>()[i], type == "Sub");
        EXPECT_EQ(diff, 0) << type << " n " << n << " ISA " << gemm::isa_name(isa) << " threads "
                           << threads;
        ++cases;
      });
    }
  EXPECT_GT(cases, 0);
}

// The AVX-512 Add's input step (32-bit arithmetic, no 64-bit product) against
// multiply_by_quantized_multiplier on every input value an Add can see (u = x + offset,
// |u| <= 255), for multipliers across [2^30, 2^31) and every right shift: the end-to-end
// test above cannot see it, a one-unit slip there rarely survives the output's rounding.
TEST(Int8Oracle, AddInputStepEqualsScalarMbqm) {
  if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "no AVX-512 on this CPU";
  std::mt19937 rng(61);
  std::vector<std::int32_t> u(511), got(511);
  for (int i = 0; i < 511; ++i) u[static_cast<std::size_t>(i)] = i - 255;
  std::int64_t diff = 0, cases = 0;
  for (int shift = -1; shift >= -30; --shift)
    for (int t = 0; t < 60; ++t) {
      const std::int32_t m = t == 0 ? (1 << 30) : t == 1 ? std::numeric_limits<std::int32_t>::max()
                                                         : std::uniform_int_distribution<std::int32_t>(1 << 30, std::numeric_limits<std::int32_t>::max())(rng);
      add_input_mbqm_avx512(u.data(), 511, m, shift, got.data());
      for (int i = 0; i < 511; ++i)
        diff += got[static_cast<std::size_t>(i)] != multiply_by_quantized_multiplier(u[static_cast<std::size_t>(i)] * (1 << 20), m, shift);
      ++cases;
    }
  EXPECT_EQ(diff, 0) << "over " << cases << " multipliers";
}

// The VNNI tiles' requantisation against requant_row_generic (fixed_point.h's
// MultiplyByQuantizedMultiplier), with left and right shifts and saturation.
TEST(Int8Oracle, RequantTileEqualsScalar) {
  std::vector<std::pair<const char*, RequantTileFn>> fns;
  if (__builtin_cpu_supports("avx2")) fns.emplace_back("avx2", requant_tile_avx2);
  if (__builtin_cpu_supports("avx512bw")) fns.emplace_back("avx512", requant_tile_avx512);
  if (fns.empty()) GTEST_SKIP() << "no AVX2 on this CPU";
  for (const auto& [isa, fn] : fns) {
    std::mt19937 rng(9);
    auto uni = [&](std::int64_t lo, std::int64_t hi) {
      return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
    };
    for (int trial = 0; trial < 200; ++trial) {
      const int mr = static_cast<int>(uni(1, kMR4)), nr = static_cast<int>(uni(1, kNR));
      std::vector<std::int32_t> tile(kMR4 * kNR);
      const std::int64_t span = trial % 2 ? 1 << 20 : std::numeric_limits<std::int32_t>::max() / 2;
      for (auto& v : tile) v = static_cast<std::int32_t>(uni(-span, span));
      std::vector<RequantChannel> ch;
      std::vector<QuantizedMultiplier> qm;
      for (int r = 0; r < kMR4; ++r) {
        qm.push_back(quantize_multiplier(
            std::ldexp(double(uni(1, 1000)) / 1000.0, static_cast<int>(uni(-30, 3)))));
        ch.push_back(requant_channel(static_cast<std::int32_t>(uni(-100000, 100000)),
                                     qm.back().multiplier, qm.back().shift));
      }
      const std::int32_t zp = static_cast<std::int32_t>(uni(-20, 20)), lo = trial % 3 ? -128 : 0,
                         hi = 127;
      std::vector<std::int8_t> got(kMR4 * 40, 0), want(kMR4 * 40, 0);
      fn(tile.data(), mr, nr, ch.data(), zp, lo, hi, got.data(), 40);
      for (int r = 0; r < mr; ++r)
        requant_row_generic(tile.data() + r * kNR, nr, ch[static_cast<std::size_t>(r)].bias,
                            qm[static_cast<std::size_t>(r)].multiplier,
                            qm[static_cast<std::size_t>(r)].shift, zp, lo, hi,
                            want.data() + r * 40);
      ASSERT_EQ(got, want) << isa << " trial " << trial;
    }
  }
}

// QuantizeLinear (the int8 graphs' input edge) on every ISA against the portable
// loop: ties to even, saturation, int8 and uint8 storage.
TEST(Int8Oracle, QuantizeLinearEqualsPortableOnEveryIsa) {
  std::mt19937 rng(13);
  const std::int64_t n = 1037;
  for (const ir::DType dt : {ir::DType::Int8, ir::DType::UInt8}) {
    const float s = 0.037f;
    Tensor X(ir::DType::Float32, {1, n});
    for (std::int64_t i = 0; i < n; ++i) {
      const int k = std::uniform_int_distribution<int>(-400, 400)(rng);
      // exact ties (k + 0.5) * s, values beyond the range and plain random values
      X.mutable_data<float>()[i] = i % 3 == 0   ? (float(k) + 0.5f) * s
                                   : i % 3 == 1 ? float(k) * 0.01f
                                                : float(k) * 1e3f;
    }
    const auto [S, Z] = scale_and_zero_point(dt, s);
    const ir::Operation op = test::make_op("QuantizeLinear", {"x", "s", "z"}, {"y"}, {});
    std::vector<std::vector<std::uint8_t>> outs;
    for (auto isa : gemm::supported_isas()) {
      gemm::force_isa(isa);
      const Tensor y = run_kernel(op, std::vector<Tensor>{X, S, Z})[0];
      const auto* b = reinterpret_cast<const std::uint8_t*>(y.raw());
      outs.emplace_back(b, b + y.nbytes());
    }
    gemm::force_isa(gemm::supported_isas().back());
    for (std::size_t k = 1; k < outs.size(); ++k)
      EXPECT_EQ(outs[k], outs[0]) << "ISA #" << k << " " << ir::dtype_name(dt);
    EXPECT_EQ(outs[0].size(), static_cast<std::size_t>(n));
  }
}

// FullyConnected / Gemm / MatMul with a constant weight (the swapped VNNI GEMM on VNNI
// machines, the int16 GEMM elsewhere) against a scalar mirror of TFLite's
// reference_integer_ops::FullyConnectedPerChannel, bit for bit, on every ISA and at 1
// and 2 threads: batch 1 (a classifier), rows and channels off the tile sizes, K off
// the quad, per-tensor weights, an effective scale above 1 (left shift), RELU6.
TEST(Int8Oracle, LinearEqualsTfliteReferenceOnEveryIsa) {
  struct Case {
    const char* type;
    std::int64_t R, K, N;
    bool per_channel;
    float sy_factor;  // 1: output scale ~ sx * sw * sqrt(K) * 40 (some saturating); 0: effective scale > 1
    std::string act;
  };
  const std::vector<Case> cases = {
      {"FullyConnected", 1, 1280, 1000, true, 1.f, "NONE"},  {"FullyConnected", 200, 96, 384, true, 1.f, "NONE"},
      {"FullyConnected", 37, 70, 40, true, 1.f, "RELU6"},    {"Gemm", 9, 3, 17, false, 1.f, "NONE"},
      {"Gemm", 21, 33, 50, true, 1.f, "NONE"},               {"MatMul", 26, 64, 48, true, 1.f, "NONE"},
      {"FullyConnected", 11, 19, 23, true, 0.f, "NONE"},   {"FullyConnected", 1, 5, 1, false, 1.f, "NONE"},
  };
  std::mt19937 rng(17);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (const Case& c : cases) {
    const bool kn = std::string(c.type) != "FullyConnected" && std::string(c.type) != "Gemm";  // MatMul: [K, N]
    const bool gemm_t = std::string(c.type) == "Gemm";
    Tensor X(ir::DType::Int8, {c.R, c.K}), W(ir::DType::Int8, kn ? Shape{c.K, c.N} : Shape{c.N, c.K}),
        B(ir::DType::Int32, {c.N});
    const ir::QuantParams qx = per_tensor(0.02f + 0.001f * float(uni(0, 20)), uni(-30, 30));
    const bool small = c.sy_factor < 1.f;  // effective scale ~2: small sums, no bias
    const int zx = static_cast<int>(qx.zero_points[0]);
    for (std::int64_t i = 0; i < X.numel(); ++i)
      X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(small ? uni(zx - 6, zx + 6) : uni(-128, 127));
    for (std::int64_t i = 0; i < W.numel(); ++i)
      W.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(small ? uni(-2, 2) : uni(-127, 127));
    for (std::int64_t i = 0; i < c.N; ++i) B.mutable_data<std::int32_t>()[i] = small ? 0 : uni(-30000, 30000);
    ir::QuantParams qw{ir::DType::Int8, {}, {}, c.per_channel ? (kn ? 1 : 0) : -1}, qb{ir::DType::Int32, {}, {}, 0};
    for (std::int64_t n = 0; n < (c.per_channel ? c.N : 1); ++n) {
      qw.scales.push_back(0.001f + 0.0005f * float(uni(0, 30)));
      qw.zero_points.push_back(0);
    }
    for (std::int64_t n = 0; n < c.N; ++n) {
      qb.scales.push_back(qx.scales[0] * qw.scales[c.per_channel ? static_cast<std::size_t>(n) : 0]);
      qb.zero_points.push_back(0);
    }
    const ir::QuantParams qy = per_tensor(
        small ? qx.scales[0] * 0.001f * 0.4f : qx.scales[0] * 0.008f * float(std::sqrt(double(c.K))) * 40.f,
        uni(-10, 10));
    // The mirror: acc = bias + sum (x - zx) w, y = clamp(MBQM(acc, sx sw / sy) + zy).
    std::int32_t lo = -128, hi = 127;
    activation_range(*ir::activation_from_name(c.act), qy.scales[0], static_cast<std::int32_t>(qy.zero_points[0]), -128, 127, lo, hi);
    std::vector<std::int8_t> want(static_cast<std::size_t>(c.R * c.N));
    for (std::int64_t n = 0; n < c.N; ++n) {
      const float sw = qw.scales[c.per_channel ? static_cast<std::size_t>(n) : 0];
      const QuantizedMultiplier m = quantize_multiplier(double(qx.scales[0]) * double(sw) / double(qy.scales[0]));
      for (std::int64_t r = 0; r < c.R; ++r) {
        std::int32_t acc = B.data<std::int32_t>()[n];
        for (std::int64_t k = 0; k < c.K; ++k)
          acc += (std::int32_t(X.data<std::int8_t>()[r * c.K + k]) - std::int32_t(qx.zero_points[0])) *
                 std::int32_t(W.data<std::int8_t>()[kn ? k * c.N + n : n * c.K + k]);
        want[static_cast<std::size_t>(r * c.N + n)] = static_cast<std::int8_t>(
            std::clamp(multiply_by_quantized_multiplier(acc, m) + std::int32_t(qy.zero_points[0]), lo, hi));
      }
    }
    ir::Graph g;
    g.add_tensor(ir_tensor_of("x", ir::DType::Int8, {c.R, c.K}, qx));
    g.add_tensor(ir_tensor_of("w", ir::DType::Int8, W.shape(), qw, &W));
    g.add_tensor(ir_tensor_of("b", ir::DType::Int32, {c.N}, qb, &B));
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
    std::map<std::string, ir::Attribute> attrs{{"fused_activation", c.act}};
    if (gemm_t) attrs["transB"] = std::int64_t(1);
    g.ops.push_back(test::make_op(c.type, kn ? std::vector<std::string>{"x", "w"} : std::vector<std::string>{"x", "w", "b"},
                                  {"y"}, attrs));
    if (kn) {  // MatMul has no bias input: the mirror's bias is zero
      for (std::int64_t r = 0; r < c.R; ++r)
        for (std::int64_t n = 0; n < c.N; ++n) {
          const float sw = qw.scales[c.per_channel ? static_cast<std::size_t>(n) : 0];
          const QuantizedMultiplier m = quantize_multiplier(double(qx.scales[0]) * double(sw) / double(qy.scales[0]));
          std::int32_t acc = 0;
          for (std::int64_t k = 0; k < c.K; ++k)
            acc += (std::int32_t(X.data<std::int8_t>()[r * c.K + k]) - std::int32_t(qx.zero_points[0])) *
                   std::int32_t(W.data<std::int8_t>()[k * c.N + n]);
          want[static_cast<std::size_t>(r * c.N + n)] = static_cast<std::int8_t>(
              std::clamp(multiply_by_quantized_multiplier(acc, m) + std::int32_t(qy.zero_points[0]), lo, hi));
        }
    }
    std::set<int> distinct(want.begin(), want.end());
    if (want.size() >= 64) {
      EXPECT_GT(distinct.size(), 8u) << c.type << " " << c.R << "x" << c.K << "x" << c.N;
    }
    on_every_isa_and_thread_count(g, [&](const PreparedOp& fast, [[maybe_unused]] gemm::Isa isa,
                                         [[maybe_unused]] int threads) {
      const Tensor got = fast.run(std::vector<Tensor>{X, Tensor(), Tensor()})[0];
      ASSERT_EQ(got.numel(), c.R * c.N);
      std::int64_t diff = 0;
      for (std::int64_t i = 0; i < got.numel(); ++i)
        diff += got.data<std::int8_t>()[i] != want[static_cast<std::size_t>(i)];
      EXPECT_EQ(diff, 0) << c.type << " " << c.R << "x" << c.K << "x" << c.N << " ISA "
                         << gemm::isa_name(isa) << " threads " << threads;
    });
  }
}

// The single-step requantisation (RequantChannel::single, requant_cols_avx512) against
// fixed_point.h's MultiplyByQuantizedMultiplier on accumulators placed at and beside the
// rounding boundaries (ties of both roundings), every right shift 0..30 and left shifts,
// with a clamp wide enough to see the whole int32 result: zp 0 and an identity range.
TEST(Int8Oracle, SingleStepRequantEqualsScalar) {
  if (!__builtin_cpu_supports("avx512bw")) GTEST_SKIP() << "no AVX-512 BW on this CPU";
  std::mt19937 rng(23);
  auto uni = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  std::int64_t checked = 0, folded_checked = 0;
  for (int shift = -30; shift <= 4; ++shift) {
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<std::int32_t> bias(kNR);
      std::vector<QuantizedMultiplier> qm(kNR);
      for (int j = 0; j < kNR; ++j) {
        bias[static_cast<std::size_t>(j)] = static_cast<std::int32_t>(uni(-1000, 1000));
        qm[static_cast<std::size_t>(j)] = {static_cast<std::int32_t>(uni(1LL << 30, (1LL << 31) - 1)), shift};
      }
      if (trial == 0) qm[0].multiplier = 1 << 30;  // the smallest multiplier: h = 0 at x = -1
      std::vector<RequantPanel> panels;
      ASSERT_TRUE(requant_panels(bias.data(), qm.data(), kNR, panels));
      std::vector<std::int32_t> tile(kMR4 * kNR);
      for (int r = 0; r < kMR4; ++r)
        for (int j = 0; j < kNR; ++j) {
          const auto& m = qm[static_cast<std::size_t>(j)];
          // x with x * M / 2^(31 - shift) near a half-integer result: ties of either rounding.
          const double target = double(uni(-127, 127)) + (r % 2 ? 0.5 : 0.0);
          const double x = target * std::ldexp(1.0, 31 - shift) / double(m.multiplier);
          const std::int64_t xi = std::llround(x) + uni(-2, 2) + (r == 7 ? uni(-4000, 4000) : 0);
          const std::int64_t left_cap = shift > 0 ? (1LL << (31 - shift)) - 1 : (1LL << 31) - 1;
          tile[static_cast<std::size_t>(r * kNR + j)] = static_cast<std::int32_t>(
              std::clamp<std::int64_t>(xi - bias[static_cast<std::size_t>(j)], -left_cap, left_cap));
        }
      // Single-step per lane (columns) and per row (RequantChannel, requant_tile_avx512).
      std::vector<std::int8_t> cols(kMR4 * kNR), rows(kMR4 * kNR);
      requant_cols_avx512(tile.data(), kMR4, kNR, panels[0], 0, -128, 127, cols.data(), kNR);
      std::vector<RequantChannel> ch;
      for (int r = 0; r < kMR4; ++r) ch.push_back(requant_channel(bias[0], qm[0].multiplier, qm[0].shift));
      requant_tile_avx512(tile.data(), kMR4, kNR, ch.data(), 0, -128, 127, rows.data(), kNR);
      // The bias folded into the rounding constant (RequantChannel::fold), where allowed.
      std::vector<std::int8_t> folded(kMR4 * kNR);
      std::vector<RequantChannel> chf = ch;
      std::int64_t max_abs = 0;
      for (auto v : tile) max_abs = std::max<std::int64_t>(max_abs, v < 0 ? -std::int64_t(v) : v);
      for (auto& c : chf) fold_bias(c, max_abs);
      if (shift <= 0 && max_abs + 1000 < (std::int64_t(1) << 31)) {
        EXPECT_TRUE(chf[0].fold) << "shift " << shift;
      }
      folded_checked += chf[0].fold ? kMR4 * kNR : 0;
      requant_tile_avx512(tile.data(), kMR4, kNR, chf.data(), 0, -128, 127, folded.data(), kNR);
      EXPECT_EQ(folded, rows) << "folded, shift " << shift;
      for (int r = 0; r < kMR4; ++r)
        for (int j = 0; j < kNR; ++j) {
          const auto t = static_cast<std::size_t>(r * kNR + j);
          const auto want_col = static_cast<std::int8_t>(std::clamp(
              multiply_by_quantized_multiplier(tile[t] + bias[static_cast<std::size_t>(j)], qm[static_cast<std::size_t>(j)]), -128, 127));
          const auto want_row = static_cast<std::int8_t>(
              std::clamp(multiply_by_quantized_multiplier(tile[t] + bias[0], qm[0]), -128, 127));
          ASSERT_EQ(cols[t], want_col) << "shift " << shift << " x " << tile[t] << " lane " << j;
          ASSERT_EQ(rows[t], want_row) << "shift " << shift << " x " << tile[t] << " row " << r;
          ++checked;
        }
    }
  }
  EXPECT_GT(checked, 10000);
  EXPECT_GT(folded_checked, 5000);
}

// The channels-last requantisation (requant_nhwc_avx512; the oneDNN Conv's) against the
// scalar MultiplyByQuantizedMultiplier, bit for bit: every right shift from 0 to 24, sums
// placed on and beside the ties of both roundings, far beyond saturation and anywhere in
// int32, channel counts off the 16-lane step, output zero points and clamps of every kind.
TEST(Int8Oracle, ChannelsLastRequantEqualsScalar) {
  if (!__builtin_cpu_supports("avx512bw")) GTEST_SKIP() << "no AVX-512 BW on this CPU";
  std::mt19937 rng(61);
  auto uni = [&](std::int64_t lo, std::int64_t hi) { return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng); };
  std::int64_t checked = 0;
  // folded: the panels are told the sums' bound, so they fold the biases into the rounding
  for (const bool folded : {false, true})
    for (int shift = -24; shift <= 0; ++shift)
      for (const std::int64_t C : {5, 16, 40}) {
        const std::int64_t P = 97;
        std::vector<std::int32_t> bias(static_cast<std::size_t>(C));
        std::vector<QuantizedMultiplier> qm(static_cast<std::size_t>(C));
        for (std::size_t c = 0; c < bias.size(); ++c) {
          bias[c] = static_cast<std::int32_t>(uni(-100000, 100000));
          qm[c] = {static_cast<std::int32_t>(uni(1LL << 30, (1LL << 31) - 1)), shift};
        }
        std::vector<std::int32_t> acc(static_cast<std::size_t>(P * C));
        for (std::int64_t p = 0; p < P; ++p)
          for (std::int64_t c = 0; c < C; ++c) {
            const auto& m = qm[static_cast<std::size_t>(c)];
            const int kind = static_cast<int>(p % 4);
            // x * M / 2^(31 - shift) on a tie (+- a few), far outside int8, or anything.
            const double target = kind == 2 ? double(uni(-5000, 5000))
                                            : double(uni(-300, 300)) + (kind == 0 ? 0.5 : 0.0);
            const double x = target * std::ldexp(1.0, 31 - shift) / double(m.multiplier);
            const std::int64_t span = folded ? 1LL << 30 : (1LL << 31) - 200000;
            std::int64_t xi = kind == 3 ? uni(-span, span) : std::llround(x) + uni(-3, 3);
            xi = std::clamp<std::int64_t>(xi, -span, span);
            acc[static_cast<std::size_t>(p * C + c)] =
                static_cast<std::int32_t>(xi - bias[static_cast<std::size_t>(c)]);
          }
        std::int64_t max_abs = 0;
        for (const std::int32_t a : acc)
          max_abs = std::max<std::int64_t>(max_abs, std::abs(std::int64_t(a)));
        std::vector<RequantPanel> panels;
        ASSERT_TRUE(requant_panels(bias.data(), qm.data(), C, panels, folded ? max_abs : -1));
        for (const auto& panel : panels) ASSERT_EQ(panel.fold, folded);
        const std::int32_t zp = static_cast<std::int32_t>(uni(-128, 127));
        const std::int32_t lo = uni(0, 1) ? -128 : static_cast<std::int32_t>(uni(-128, 0)),
                           hi = uni(0, 1) ? 127 : static_cast<std::int32_t>(uni(1, 127));
        std::vector<std::int8_t> got(acc.size());
        requant_nhwc_avx512(acc.data(), P, C, panels.data(), zp, lo, hi, got.data());
        for (std::size_t i = 0; i < acc.size(); ++i) {
          const auto c = i % static_cast<std::size_t>(C);
          const std::int32_t want =
              std::clamp(multiply_by_quantized_multiplier(acc[i] + bias[c], qm[c]) + zp, lo, hi);
          ASSERT_EQ(got[i], want) << "shift " << shift << " sum " << acc[i] << " bias " << bias[c]
                                  << " C " << C << (folded ? " (biases folded)" : "");
          ++checked;
        }
      }
  EXPECT_GT(checked, 100000);
}

// TFLite's PADV2 with an integer pad value (int8 and u8): the fill and the input's rows
// moved into place, against the definition element by element; a negative pad (a crop)
// takes the general loop and must agree too.
TEST(Int8Oracle, IntegerValuePadEqualsDefinition) {
  std::mt19937 rng(67);
  for (const ir::DType dt : {ir::DType::Int8, ir::DType::UInt8})
    for (const std::vector<std::int64_t>& pads : {std::vector<std::int64_t>{0, 1, 1, 0, 0, 1, 1, 0},
                                                  std::vector<std::int64_t>{0, 0, 2, 3, 0, 3, 0, 5},
                                                  std::vector<std::int64_t>{0, -1, 1, 0, 0, 1, 0, 0}}) {
      const Shape xs{2, 5, 6, 7};
      Tensor X(dt, xs);
      for (std::int64_t i = 0; i < X.numel(); ++i)
        reinterpret_cast<std::uint8_t*>(X.mutable_raw())[i] = static_cast<std::uint8_t>(rng());
      const Tensor P = Tensor::from_values<std::int64_t>(ir::DType::Int64, {8}, pads);
      Tensor V(dt, {});
      reinterpret_cast<std::uint8_t*>(V.mutable_raw())[0] = 0x85;  // -123 or 133
      const ir::QuantParams q{dt, {0.1f}, {dt == ir::DType::UInt8 ? 128 : -3}, -1};
      ir::Graph g;
      g.add_tensor(ir_tensor_of("x", dt, xs, q));
      g.add_tensor(ir_tensor_of("p", ir::DType::Int64, {8}, std::nullopt, &P));
      g.add_tensor(ir_tensor_of("v", dt, {}, q, &V));
      g.add_tensor(ir_tensor_of("y", dt, {}, q));
      g.ops.push_back(test::make_op("Pad", {"x", "p", "v"}, {"y"}, {}));
      const Tensor Y = prepare_quantized(g.ops[0], g)->run(std::vector<Tensor>{X, P, V})[0];
      Shape ys(4);
      for (std::size_t d = 0; d < 4; ++d) ys[d] = xs[d] + pads[d] + pads[d + 4];
      ASSERT_EQ(Y.shape(), ys);
      const auto* x = reinterpret_cast<const std::uint8_t*>(X.raw());
      const auto* y = reinterpret_cast<const std::uint8_t*>(Y.raw());
      std::int64_t diff = 0;
      for (std::int64_t i = 0; i < Y.numel(); ++i) {
        std::int64_t rem = i, xi = 0, stride = 1;
        bool inside = true;
        for (std::size_t d = 4; d-- > 0;) {
          const std::int64_t c = rem % ys[d] - pads[d];
          rem /= ys[d];
          inside &= c >= 0 && c < xs[d];
          xi += c * stride;
          stride *= xs[d];
        }
        diff += y[i] != (inside ? x[xi] : 0x85);
      }
      EXPECT_EQ(diff, 0) << ir::dtype_name(dt) << " pads " << pads[1] << "," << pads[2] << "," << pads[3];
    }
}

// int8 MaxPool (NCHW: the separable vertical/horizontal passes, AVX2 or portable) against
// TFLite's reference MaxPool (the same op in NHWC, int8_tflite_reference.cpp), bit for
// bit, on every ISA and at 1 and 2 threads: ResNet's 3x3 stride 2 pad 1, 2x2 stride 2,
// stride 1, a 5x5 stride 3 window with uneven pads, rows wider than a vector, and
// output params that differ from the input's (requantised).
TEST(Int8Oracle, MaxPoolEqualsTfliteReferenceOnEveryIsa) {
  struct Case {
    Shape x;
    std::int64_t k, s, pb, pe;
    bool requant;
  };
  const std::vector<Case> cases = {
      {{1, 4, 112, 112}, 3, 2, 1, 1, false}, {{2, 3, 9, 8}, 2, 2, 0, 0, false},  {{1, 5, 13, 70}, 3, 1, 1, 1, false},
      {{1, 2, 17, 41}, 5, 3, 2, 1, true},    {{1, 3, 7, 33}, 3, 2, 1, 1, true},
      {{1, 70, 15, 15}, 3, 2, 1, 1, false},  // channels past a 64-byte step (the AVX-512 windows)
  };
  std::mt19937 rng(29);
  for (const Case& c : cases) {
    Tensor X(ir::DType::Int8, c.x);
    for (std::int64_t i = 0; i < X.numel(); ++i)
      X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    const ir::QuantParams qx = per_tensor(0.05f, 3), qy = c.requant ? per_tensor(0.07f, -5) : qx;
    auto build = [&](bool nhwc) {
      ir::Graph g;
      Shape xs = c.x;
      if (nhwc) xs = {c.x[0], c.x[2], c.x[3], c.x[1]};
      g.add_tensor(ir_tensor_of("x", ir::DType::Int8, xs, qx));
      g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
      std::map<std::string, ir::Attribute> a{{"kernel_shape", std::vector<std::int64_t>{c.k, c.k}},
                                             {"strides", std::vector<std::int64_t>{c.s, c.s}},
                                             {"pads", std::vector<std::int64_t>{c.pb, c.pb, c.pe, c.pe}}};
      if (nhwc) a["layout"] = std::string("NHWC");
      g.ops.push_back(test::make_op("MaxPool", {"x"}, {"y"}, a));
      return g;
    };
    const ir::Graph fast_g = build(false), ref_g = build(true);
    const Tensor want = prepare_tflite_reference(ref_g.ops[0], ref_g)->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
    // The channels-last kernel (the same op in NHWC) too.
    on_every_isa_and_thread_count(ref_g, [&](const PreparedOp& nhwc, gemm::Isa isa, int threads) {
      const Tensor got = nhwc.run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
      ASSERT_EQ(got.shape(), want.shape());
      std::int64_t diff = 0;
      for (std::int64_t i = 0; i < got.numel(); ++i) diff += got.data<std::int8_t>()[i] != want.data<std::int8_t>()[i];
      EXPECT_EQ(diff, 0) << "NHWC x " << shape_string(c.x) << " k " << c.k << " ISA " << gemm::isa_name(isa)
                         << " threads " << threads;
    });
    on_every_isa_and_thread_count(
        fast_g,
        [&](const PreparedOp& fast, [[maybe_unused]] gemm::Isa isa, [[maybe_unused]] int threads) {
          const Tensor got = to_channels_last<std::int8_t>(fast.run(std::vector<Tensor>{X})[0]);
          ASSERT_EQ(got.shape(), want.shape());
          std::int64_t diff = 0;
          for (std::int64_t i = 0; i < got.numel(); ++i)
            diff += got.data<std::int8_t>()[i] != want.data<std::int8_t>()[i];
          EXPECT_EQ(diff, 0) << "x " << shape_string(c.x) << " k " << c.k << " s " << c.s << " ISA "
                             << gemm::isa_name(isa) << " threads " << threads;
        });
  }
}

// GlobalAveragePool (one vector sum per channel) against TFLite's reference AveragePool
// over the whole plane (NHWC) with equal params, against the portable loop with other
// output params; every ISA, 1 and 2 threads. Shapes: blocks of 32 / 64 channels with
// tails, planes past 257 pixels (the AVX-512 form's 16-bit sums are widened every 257).
TEST(Int8Oracle, GlobalAveragePoolEqualsTfliteReferenceOnEveryIsa) {
  std::mt19937 rng(31);
  for (const bool requant : {false, true})
    for (const Shape& xs : {Shape{1, 40, 7, 7}, Shape{2, 5, 56, 56}, Shape{1, 3, 1, 37}, Shape{1, 130, 15, 20},
                            Shape{2, 64, 3, 3}}) {
      Tensor X(ir::DType::Int8, xs);
      for (std::int64_t i = 0; i < X.numel(); ++i)
        X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      const ir::QuantParams qx = per_tensor(0.05f, -9), qy = requant ? per_tensor(0.011f, 4) : qx;
      auto build = [&](bool nhwc) {
        ir::Graph g;
        g.add_tensor(ir_tensor_of("x", ir::DType::Int8, nhwc ? Shape{xs[0], xs[2], xs[3], xs[1]} : xs, qx));
        g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
        std::map<std::string, ir::Attribute> a;
        if (nhwc) a["layout"] = std::string("NHWC");
        g.ops.push_back(test::make_op("GlobalAveragePool", {"x"}, {"y"}, a));
        return g;
      };
      const ir::Graph fast_g = build(false), ref_g = build(true);
      // With other output params TFLite's pool has no int8 form (it requires equal params);
      // the NCHW kernel then rounds once from the exact sum, so its oracle is its own
      // portable loop (the generic ISA).
      gemm::force_isa(gemm::Isa::Generic);
      const Tensor want =
          requant ? prepare_quantized(fast_g.ops[0], fast_g)->run(std::vector<Tensor>{X})[0]
                  : prepare_tflite_reference(ref_g.ops[0], ref_g)->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
      // The channels-last kernel: the same values ([N, 1, 1, C] is [N, C, 1, 1]'s order).
      on_every_isa_and_thread_count(ref_g, [&](const PreparedOp& nhwc, gemm::Isa isa, int threads) {
        const Tensor got = nhwc.run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
        ASSERT_EQ(got.numel(), want.numel());
        std::int64_t diff = 0;
        for (std::int64_t i = 0; i < got.numel(); ++i) diff += got.data<std::int8_t>()[i] != want.data<std::int8_t>()[i];
        EXPECT_EQ(diff, 0) << "NHWC " << shape_string(xs) << " requant " << requant << " ISA " << gemm::isa_name(isa)
                           << " threads " << threads;
      });
      on_every_isa_and_thread_count(
          fast_g, [&](const PreparedOp& fast, [[maybe_unused]] gemm::Isa isa,
                      [[maybe_unused]] int threads) {
            const Tensor got = fast.run(std::vector<Tensor>{X})[0];
            ASSERT_EQ(got.numel(), want.numel());
            std::int64_t diff = 0;  // [N, C, 1, 1] and [N, 1, 1, C]: the same order
            for (std::int64_t i = 0; i < got.numel(); ++i)
              diff += got.data<std::int8_t>()[i] != want.data<std::int8_t>()[i];
            EXPECT_EQ(diff, 0) << shape_string(xs) << " requant " << requant << " ISA "
                               << gemm::isa_name(isa);
          });
    }
}

// The table ops (HardSwish, Gelu, Erf, Sigmoid, per-channel BatchNormalization) through the
// vector lookup (AVX-512 VBMI) against the portable loop over the same table: equal on every
// ISA, at 1 and 2 threads, over lengths off the 64-byte step and every int8 input.
TEST(Int8Oracle, TableOpsEqualPortableOnEveryIsa) {
  const Shape xs{1, 3, 37, 41};
  Tensor X(ir::DType::Int8, xs);
  for (std::int64_t i = 0; i < X.numel(); ++i) X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(i * 7 + i / 256);
  const Tensor bn_s = Tensor::from_values<float>(ir::DType::Float32, {3}, {0.5f, 1.5f, -2.f});
  const Tensor bn_b = Tensor::from_values<float>(ir::DType::Float32, {3}, {0.1f, -0.2f, 0.3f});
  const Tensor bn_m = Tensor::from_values<float>(ir::DType::Float32, {3}, {0.f, 0.4f, -0.1f});
  const Tensor bn_v = Tensor::from_values<float>(ir::DType::Float32, {3}, {1.f, 0.5f, 2.f});
  for (const std::string type : {"HardSwish", "Gelu", "Erf", "Sigmoid", "BatchNormalization"}) {
    ir::Graph g;
    g.add_tensor(ir_tensor_of("x", ir::DType::Int8, xs, per_tensor(0.031f, 5)));
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, type == "Sigmoid" ? per_tensor(1.f / 256, -128) : per_tensor(0.02f, -3)));
    std::vector<std::string> inputs{"x"};
    if (type == "BatchNormalization") {
      const char* names[] = {"s", "b", "m", "v"};
      const Tensor* ts[] = {&bn_s, &bn_b, &bn_m, &bn_v};
      for (int k = 0; k < 4; ++k) {
        g.add_tensor(ir_tensor_of(names[k], ir::DType::Float32, {3}, std::nullopt, ts[k]));
        inputs.emplace_back(names[k]);
      }
    }
    g.ops.push_back(test::make_op(type, inputs, {"y"}, {}));
    std::vector<std::vector<std::int8_t>> outs;
    on_every_isa_and_thread_count(
        g, [&](const PreparedOp& op, [[maybe_unused]] gemm::Isa isa, [[maybe_unused]] int threads) {
          std::vector<Tensor> in{X};
          in.resize(inputs.size());
          const Tensor y = op.run(in)[0];
          outs.emplace_back(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel());
        });
    for (std::size_t k = 1; k < outs.size(); ++k) EXPECT_EQ(outs[k], outs[0]) << type << " run " << k;
    EXPECT_GT(std::set<int>(outs[0].begin(), outs[0].end()).size(), 20u) << type;
  }
}

// Concat (blocks written in place, tables for inputs with other params) against a scalar
// mirror of TFLite's ConcatenationWithScaling, along every axis of a 4-D shape, every ISA,
// 1 and 2 threads; and channels-last rows past 64 bytes (DenseNet's: whole 64-byte steps
// and a tail).
TEST(Int8Oracle, ConcatEqualsTfliteReferenceOnEveryIsa) {
  std::mt19937 rng(37);
  const ir::QuantParams qy = per_tensor(0.05f, 2);
  const std::vector<ir::QuantParams> qs = {qy, per_tensor(0.031f, -7), per_tensor(0.09f, 11)};
  const std::vector<std::pair<std::int64_t, Shape>> cases = {
      {-1, {2, 3, 5, 7}}, {0, {2, 3, 5, 7}}, {1, {2, 3, 5, 7}}, {2, {2, 3, 5, 7}}, {3, {2, 3, 5, 7}},
      {-1, {1, 9, 11, 127}}};
  for (const auto& [axis, base] : cases) {
    const std::int64_t ax = axis < 0 ? 3 : axis;
    std::vector<Tensor> xs;
    ir::Graph g;
    std::vector<std::string> names;
    for (std::size_t i = 0; i < qs.size(); ++i) {
      Shape sh = base;
      sh[static_cast<std::size_t>(ax)] += static_cast<std::int64_t>(i);
      Tensor X(ir::DType::Int8, sh);
      for (std::int64_t j = 0; j < X.numel(); ++j)
        X.mutable_data<std::int8_t>()[j] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      names.push_back("x" + std::to_string(i));
      g.add_tensor(ir_tensor_of(names.back(), ir::DType::Int8, sh, qs[i]));
      xs.push_back(X);
    }
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
    g.ops.push_back(test::make_op("Concat", names, {"y"}, {{"axis", axis}}));
    // The mirror: per input, y = zy + round(x * (sx / sy) - zx * (sx / sy)) (float), in order.
    std::int64_t outer = 1;
    for (std::int64_t d = 0; d < ax; ++d) outer *= xs[0].dim(static_cast<std::size_t>(d));
    std::vector<std::int8_t> want;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::size_t i = 0; i < xs.size(); ++i) {
        const std::int64_t block = xs[i].numel() / outer;
        const float scale = qs[i].scales[0] * (1.f / qy.scales[0]), bias = -float(qs[i].zero_points[0]) * scale;
        for (std::int64_t j = 0; j < block; ++j) {
          const std::int8_t q = xs[i].data<std::int8_t>()[o * block + j];
          want.push_back(i == 0 ? q
                                : static_cast<std::int8_t>(std::clamp(
                                      static_cast<std::int32_t>(std::round(float(q) * scale + bias)) +
                                          static_cast<std::int32_t>(qy.zero_points[0]),
                                      -128, 127)));
        }
      }
    on_every_isa_and_thread_count(g, [&](const PreparedOp& op, [[maybe_unused]] gemm::Isa isa,
                                         [[maybe_unused]] int threads) {
      const Tensor y = op.run(xs)[0];
      ASSERT_EQ(y.numel(), static_cast<std::int64_t>(want.size()));
      EXPECT_EQ(std::vector<std::int8_t>(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel()),
                want)
          << "axis " << axis << " ISA " << gemm::isa_name(isa) << " threads " << threads;
    });
  }
}

// int8 Pad against the float Pad on the dequantised input, quantised back (QuantizeLinear):
// constant (0 and another value), reflect and edge, spatial and channel pads, a crop
// (negative pad): the integers must be the same.
TEST(Int8Oracle, PadEqualsFloatPadQuantised) {
  struct Case {
    std::string mode;
    std::vector<std::int64_t> pads;
    float value;
  };
  const std::vector<Case> cases = {{"constant", {0, 0, 1, 1, 0, 0, 1, 1}, 0.f},
                                   {"constant", {0, 2, 0, 3, 0, 1, 2, 0}, 0.37f},
                                   {"constant", {0, 0, 0, 0, 0, 0, 0, 0}, 0.f},
                                   {"reflect", {0, 0, 2, 1, 0, 0, 1, 2}, 0.f},
                                   {"edge", {0, 0, 1, 0, 0, 0, 0, 3}, 0.f},
                                   {"constant", {0, 0, -1, 1, 0, 0, 1, -2}, 0.f}};
  const ir::QuantParams q = per_tensor(0.043f, -6);
  Tensor X(ir::DType::Int8, {1, 3, 6, 7});
  for (std::int64_t i = 0; i < X.numel(); ++i) X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(i * 29 - 100);
  Tensor Xf(ir::DType::Float32, X.shape());
  for (std::int64_t i = 0; i < X.numel(); ++i)
    Xf.mutable_data<float>()[i] = float(X.data<std::int8_t>()[i] - q.zero_points[0]) * q.scales[0];
  for (const Case& c : cases) {
    const Tensor P = Tensor::from_values<std::int64_t>(ir::DType::Int64, {8}, c.pads);
    const Tensor V = Tensor::scalar<float>(ir::DType::Float32, c.value);
    ir::Graph g;
    g.add_tensor(ir_tensor_of("x", ir::DType::Int8, X.shape(), q));
    g.add_tensor(ir_tensor_of("p", ir::DType::Int64, {8}, std::nullopt, &P));
    g.add_tensor(ir_tensor_of("v", ir::DType::Float32, {}, std::nullopt, &V));
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, q));
    g.ops.push_back(test::make_op("Pad", {"x", "p", "v"}, {"y"}, {{"mode", c.mode}}));
    const Tensor yf = run_kernel(g.ops[0], std::vector<Tensor>{Xf, P, V})[0];
    const Tensor got = prepare_quantized(g.ops[0], g)->run(std::vector<Tensor>{X, P, V})[0];
    ASSERT_EQ(got.shape(), yf.shape()) << c.mode;
    std::int64_t diff = 0;
    for (std::int64_t i = 0; i < got.numel(); ++i) {
      const float r = std::nearbyint(yf.data<float>()[i] / q.scales[0]) + float(q.zero_points[0]);
      diff += got.data<std::int8_t>()[i] != static_cast<std::int8_t>(std::clamp(r, -128.f, 127.f));
    }
    EXPECT_EQ(diff, 0) << c.mode << " pads " << shape_string(c.pads);
    if (c.mode != "constant" || c.value != 0.f || c.pads[2] < 0) continue;
    // TFLite's reference PAD (the same op with the zero point as an int8 constant: PADV2).
    ir::Graph tg = g;
    const Tensor Vq = Tensor::scalar<std::int8_t>(ir::DType::Int8, static_cast<std::int8_t>(q.zero_points[0]));
    tg.add_tensor(ir_tensor_of("vq", ir::DType::Int8, {}, q, &Vq));
    tg.ops[0].inputs[2] = "vq";
    const Tensor ref = prepare_quantized(tg.ops[0], tg)->run(std::vector<Tensor>{X, P, Vq})[0];
    EXPECT_EQ(std::vector<std::int8_t>(ref.data<std::int8_t>(), ref.data<std::int8_t>() + ref.numel()),
              std::vector<std::int8_t>(got.data<std::int8_t>(), got.data<std::int8_t>() + got.numel()))
        << "pads " << shape_string(c.pads);
  }
}

// AveragePool with every window inside the input (DenseNet's 2x2 stride 2; the separable
// sums) against TFLite's reference AveragePool (NHWC) with equal params, and against the
// kernel's documented rounding with other output params: zy + round(sum - n zx) * sx / (n sy).
TEST(Int8Oracle, AveragePoolEqualsTfliteReference) {
  std::mt19937 rng(41);
  struct Case {
    Shape x;
    std::int64_t k, s;
  };
  for (const bool requant : {false, true})
    for (const Case& c : {Case{{1, 6, 56, 56}, 2, 2}, Case{{2, 3, 13, 11}, 3, 2}, Case{{1, 2, 9, 40}, 3, 1},
                          Case{{1, 70, 10, 12}, 2, 2}}) {
      Tensor X(ir::DType::Int8, c.x);
      for (std::int64_t i = 0; i < X.numel(); ++i)
        X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      const ir::QuantParams qx = per_tensor(0.05f, -9), qy = requant ? per_tensor(0.021f, 6) : qx;
      auto build = [&](bool nhwc) {
        ir::Graph g;
        g.add_tensor(ir_tensor_of("x", ir::DType::Int8, nhwc ? Shape{c.x[0], c.x[2], c.x[3], c.x[1]} : c.x, qx));
        g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
        std::map<std::string, ir::Attribute> a{{"kernel_shape", std::vector<std::int64_t>{c.k, c.k}},
                                               {"strides", std::vector<std::int64_t>{c.s, c.s}}};
        if (nhwc) a["layout"] = std::string("NHWC");
        g.ops.push_back(test::make_op("AveragePool", {"x"}, {"y"}, a));
        return g;
      };
      const ir::Graph fast_g = build(false), ref_g = build(true);
      const Tensor got = to_channels_last<std::int8_t>(prepare_quantized(fast_g.ops[0], fast_g)->run(std::vector<Tensor>{X})[0]);
      // The channels-last kernel gives the NCHW kernel's values, requantised or not.
      const Tensor got_nhwc =
          prepare_quantized(ref_g.ops[0], ref_g)->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
      EXPECT_EQ(std::vector<std::int8_t>(got_nhwc.data<std::int8_t>(), got_nhwc.data<std::int8_t>() + got_nhwc.numel()),
                std::vector<std::int8_t>(got.data<std::int8_t>(), got.data<std::int8_t>() + got.numel()))
          << "NHWC " << shape_string(c.x) << " requant " << requant;
      if (!requant) {
        const Tensor want =
            prepare_tflite_reference(ref_g.ops[0], ref_g)->run(std::vector<Tensor>{to_channels_last<std::int8_t>(X)})[0];
        ASSERT_EQ(got.shape(), want.shape());
        EXPECT_EQ(std::vector<std::int8_t>(got.data<std::int8_t>(), got.data<std::int8_t>() + got.numel()),
                  std::vector<std::int8_t>(want.data<std::int8_t>(), want.data<std::int8_t>() + want.numel()))
            << shape_string(c.x);
        continue;
      }
      const std::int64_t N = c.x[0], C = c.x[1], H = c.x[2], W = c.x[3], OH = (H - c.k) / c.s + 1, OW = (W - c.k) / c.s + 1;
      const double ratio = double(qx.scales[0]) / double(qy.scales[0]);
      std::int64_t diff = 0;
      for (std::int64_t n = 0; n < N; ++n)
        for (std::int64_t ch = 0; ch < C; ++ch)
          for (std::int64_t oh = 0; oh < OH; ++oh)
            for (std::int64_t ow = 0; ow < OW; ++ow) {
              std::int32_t acc = 0;
              const std::int32_t count = static_cast<std::int32_t>(c.k * c.k);
              for (std::int64_t kh = 0; kh < c.k; ++kh)
                for (std::int64_t kw = 0; kw < c.k; ++kw)
                  acc += X.data<std::int8_t>()[((n * C + ch) * H + oh * c.s + kh) * W + ow * c.s + kw];
              const double v = double(acc - count * qx.zero_points[0]) * ratio / double(count);
              const auto r = static_cast<std::int32_t>(v >= 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5));
              const auto want = static_cast<std::int8_t>(std::clamp<std::int32_t>(r + std::int32_t(qy.zero_points[0]), -128, 127));
              diff += got.data<std::int8_t>()[((n * OH + oh) * OW + ow) * C + ch] != want;
            }
      EXPECT_EQ(diff, 0) << shape_string(c.x) << " requantised";
    }
}

// BatchNormalization channels-last: per-channel tables matched by fixed point (vector
// arithmetic) where the fixed point reproduces the table on all 256 inputs, the table
// itself elsewhere (channels with a huge gain); the NCHW kernel's values (its tables),
// bit for bit, on every ISA at 1 and 2 threads, every int8 input in every channel and
// channel counts off the 8-lane step.
TEST(Int8Oracle, ChannelsLastBatchNormEqualsTables) {
  std::mt19937 rng(53);
  for (const std::int64_t C : {3, 8, 37, 130}) {
    const Shape xs{2, C, 16, 17};  // 544 values per channel: every int8 input at least twice
    Tensor X(ir::DType::Int8, xs);
    for (std::int64_t i = 0; i < X.numel(); ++i) X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(i * 37 + i / 256);
    std::vector<float> sc(static_cast<std::size_t>(C)), bi(sc.size()), me(sc.size()), va(sc.size());
    for (std::size_t c = 0; c < sc.size(); ++c) {
      sc[c] = std::uniform_real_distribution<float>(-3.f, 3.f)(rng);
      bi[c] = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
      me[c] = std::uniform_real_distribution<float>(-0.5f, 0.5f)(rng);
      va[c] = std::uniform_real_distribution<float>(0.1f, 2.f)(rng);
    }
    sc[0] = 3e5f;  // a gain no 8-bit fixed point holds: the channel reads its table
    const Tensor S = Tensor::from_values<float>(ir::DType::Float32, {C}, sc), B = Tensor::from_values<float>(ir::DType::Float32, {C}, bi),
                 M = Tensor::from_values<float>(ir::DType::Float32, {C}, me), V = Tensor::from_values<float>(ir::DType::Float32, {C}, va);
    auto build = [&](bool nhwc) {
      ir::Graph g;
      g.add_tensor(ir_tensor_of("x", ir::DType::Int8, nhwc ? Shape{xs[0], xs[2], xs[3], xs[1]} : xs, per_tensor(0.031f, 5)));
      g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, per_tensor(0.05f, -3)));
      const char* names[] = {"s", "b", "m", "v"};
      const Tensor* ts[] = {&S, &B, &M, &V};
      std::vector<std::string> inputs{"x"};
      for (int k = 0; k < 4; ++k) {
        g.add_tensor(ir_tensor_of(names[k], ir::DType::Float32, {C}, std::nullopt, ts[k]));
        inputs.emplace_back(names[k]);
      }
      std::map<std::string, ir::Attribute> a;
      if (nhwc) a["layout"] = std::string("NHWC");
      g.ops.push_back(test::make_op("BatchNormalization", inputs, {"y"}, a));
      return g;
    };
    const ir::Graph nchw_g = build(false), nhwc_g = build(true);
    const Tensor want = to_channels_last<std::int8_t>(
        prepare_quantized(nchw_g.ops[0], nchw_g)->run(std::vector<Tensor>{X, Tensor(), Tensor(), Tensor(), Tensor()})[0]);
    on_every_isa_and_thread_count(nhwc_g, [&](const PreparedOp& op, gemm::Isa isa, int threads) {
      const Tensor got = op.run(std::vector<Tensor>{to_channels_last<std::int8_t>(X), Tensor(), Tensor(), Tensor(), Tensor()})[0];
      ASSERT_EQ(got.shape(), want.shape());
      std::int64_t diff = 0;
      for (std::int64_t i = 0; i < got.numel(); ++i) diff += got.data<std::int8_t>()[i] != want.data<std::int8_t>()[i];
      EXPECT_EQ(diff, 0) << "C " << C << " ISA " << gemm::isa_name(isa) << " threads " << threads;
    });
    EXPECT_GT(std::set<int>(want.data<std::int8_t>(), want.data<std::int8_t>() + want.numel()).size(), 50u);

    // The Relu after it (DenseNet's BN -> Relu) taken into the op (take_output_table): a
    // Relu with the same params clamps at the zero point, which narrows the arithmetic's
    // clamp; one that requantises is declined by the arithmetic (the NCHW tables take it).
    auto relu_of = [](const ir::QuantParams& q) {
      ir::Graph g;
      g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, per_tensor(0.05f, -3)));
      g.add_tensor(ir_tensor_of("r", ir::DType::Int8, {}, q));
      g.ops.push_back(test::make_op("Relu", {"y"}, {"r"}, {}));
      return prepare_quantized(g.ops[0], g);
    };
    const auto clamp_relu = relu_of(per_tensor(0.05f, -3)), requant_relu = relu_of(per_tensor(0.07f, 9));
    const Tensor want_r = clamp_relu->run(std::vector<Tensor>{want})[0];
    on_every_isa_and_thread_count(
        nhwc_g,
        [&](const PreparedOp& op, gemm::Isa isa, int threads) {
          const Tensor got = op.run(std::vector<Tensor>{to_channels_last<std::int8_t>(X), Tensor(), Tensor(), Tensor(), Tensor()})[0];
          std::int64_t diff = 0;
          for (std::int64_t i = 0; i < got.numel(); ++i) diff += got.data<std::int8_t>()[i] != want_r.data<std::int8_t>()[i];
          EXPECT_EQ(diff, 0) << "with Relu: C " << C << " ISA " << gemm::isa_name(isa) << " threads " << threads;
        },
        clamp_relu->as_table());
    EXPECT_FALSE(prepare_quantized(nhwc_g.ops[0], nhwc_g)->take_output_table(requant_relu->as_table()));
    const auto nchw = prepare_quantized(nchw_g.ops[0], nchw_g);
    ASSERT_TRUE(nchw->take_output_table(requant_relu->as_table()));
    EXPECT_EQ(to_channels_last<std::int8_t>(nchw->run(std::vector<Tensor>{X, Tensor(), Tensor(), Tensor(), Tensor()})[0])
                  .to_float_vector(),
              requant_relu->run(std::vector<Tensor>{want})[0].to_float_vector());
  }
}

// int8 LayerNormalization: the AVX2 rows against the portable rows (the kernel's defined
// arithmetic, see int8_normalization.cpp), bit for bit on every ISA at 1 and 2 threads,
// for row lengths off the 8-lane step and constant rows; and the result against the
// definition computed here in the same float steps.
TEST(Int8Oracle, LayerNormEqualsDefinitionOnEveryIsa) {
  std::mt19937 rng(43);
  for (const std::int64_t C : {3, 8, 29, 96, 768}) {
    const Shape xs{2, 7, C};
    Tensor X(ir::DType::Int8, xs);
    for (std::int64_t i = 0; i < X.numel(); ++i)
      X.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    for (std::int64_t c = 0; c < C; ++c) X.mutable_data<std::int8_t>()[c] = 17;  // a constant row
    std::vector<float> g(static_cast<std::size_t>(C)), b(g.size());
    for (std::size_t c = 0; c < g.size(); ++c) {
      g[c] = std::uniform_real_distribution<float>(-2.f, 2.f)(rng);
      b[c] = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
    }
    const Tensor G = Tensor::from_values<float>(ir::DType::Float32, {C}, g), B = Tensor::from_values<float>(ir::DType::Float32, {C}, b);
    const ir::QuantParams qx = per_tensor(0.047f, 9), qy = per_tensor(0.031f, -4);
    ir::Graph gr;
    gr.add_tensor(ir_tensor_of("x", ir::DType::Int8, xs, qx));
    gr.add_tensor(ir_tensor_of("g", ir::DType::Float32, {C}, std::nullopt, &G));
    gr.add_tensor(ir_tensor_of("b", ir::DType::Float32, {C}, std::nullopt, &B));
    gr.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
    gr.ops.push_back(test::make_op("LayerNormalization", {"x", "g", "b"}, {"y"}, {{"epsilon", 1e-5}}));
    // The definition, step by step (volatile keeps every float rounding where it is).
    std::vector<std::int8_t> want(static_cast<std::size_t>(X.numel()));
    for (std::int64_t r = 0; r < X.numel() / C; ++r) {
      const std::int8_t* q = X.data<std::int8_t>() + r * C;
      std::int64_t s1 = 0, s2 = 0;
      for (std::int64_t c = 0; c < C; ++c) s1 += q[c], s2 += std::int64_t(q[c]) * q[c];
      const double mean = double(s1) / double(C), var = std::max(double(s2) / double(C) - mean * mean, 0.0);
      const double sx = qx.scales[0], sy = qy.scales[0];
      const auto k = static_cast<float>(sx / sy / std::sqrt(sx * sx * var + 1e-5));
      for (std::int64_t c = 0; c < C; ++c) {
        volatile float t = float(q[c]) - static_cast<float>(mean);
        t = t * k;
        t = t * g[static_cast<std::size_t>(c)];
        t = t + static_cast<float>(double(b[static_cast<std::size_t>(c)]) / sy + double(qy.zero_points[0]));
        want[static_cast<std::size_t>(r * C + c)] = static_cast<std::int8_t>(std::clamp(std::nearbyint(float(t)), -128.f, 127.f));
      }
    }
    on_every_isa_and_thread_count(gr, [&](const PreparedOp& op, [[maybe_unused]] gemm::Isa isa,
                                          [[maybe_unused]] int threads) {
      const Tensor y = op.run(std::vector<Tensor>{X, G, B})[0];
      EXPECT_EQ(std::vector<std::int8_t>(y.data<std::int8_t>(), y.data<std::int8_t>() + y.numel()),
                want)
          << "C " << C << " ISA " << gemm::isa_name(isa) << " threads " << threads;
    });
    EXPECT_GT(std::set<int>(want.begin(), want.end()).size(), C > 20 ? 20u : 2u);
  }
}

// DequantizeLinear per tensor i8/u8 -> f32: the vector path (AVX2) against the portable
// double loop, bit for bit (every stored value, odd lengths for the tail).
TEST(Int8Oracle, DequantizeLinearEqualsPortableOnEveryIsa) {
  const std::int64_t n = 1037;
  for (const ir::DType dt : {ir::DType::Int8, ir::DType::UInt8}) {
    for (const float s : {0.037f, 1.7e-3f, 3.1e-39f /* subnormal products */}) {
      Tensor X(dt, {1, n});
      for (std::int64_t i = 0; i < n; ++i) reinterpret_cast<std::uint8_t*>(X.mutable_raw())[i] = static_cast<std::uint8_t>(i * 37);
      const auto [S, Z] = scale_and_zero_point(dt, s);
      const ir::Operation op = test::make_op("DequantizeLinear", {"x", "s", "z"}, {"y"}, {});
      std::vector<float> want(static_cast<std::size_t>(n));
      for (std::int64_t i = 0; i < n; ++i)
        want[static_cast<std::size_t>(i)] = static_cast<float>((X.get_double(i) - Z.get_double(0)) * double(s));
      for (auto isa : gemm::supported_isas()) {
        gemm::force_isa(isa);
        const Tensor y = run_kernel(op, std::vector<Tensor>{X, S, Z})[0];
        ASSERT_EQ(y.numel(), n);
        std::int64_t diff = 0;
        for (std::int64_t i = 0; i < n; ++i)
          diff += std::memcmp(&y.data<float>()[i], &want[static_cast<std::size_t>(i)], sizeof(float)) != 0;
        EXPECT_EQ(diff, 0) << ir::dtype_name(dt) << " scale " << s << " ISA " << gemm::isa_name(isa);
      }
      gemm::force_isa(gemm::supported_isas().back());
    }
  }
}

// int8 Mul (same shapes, and a side broadcast over trailing dims, the squeeze-excite gate,
// or over the middle ones, the gate channels-last) against fixed_point.h mul_quantized
// (reference_integer_ops::MulElementwise).
TEST(Int8Oracle, MulEqualsTfliteReferenceOnEveryIsa) {
  std::mt19937 rng(17);
  auto uni = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const std::vector<std::pair<Shape, Shape>> shapes = {
      {{2, 5, 3, 7}, {2, 5, 3, 7}},
      {{2, 5, 3, 7}, {2, 5, 1, 1}},
      {{2, 5, 1, 1}, {2, 5, 3, 7}},
      {{1, 6, 4, 9}, {6, 1, 1}},
      // channels-last gates [N, 1, 1, C] (rows of C products)
      {{2, 3, 7, 40}, {2, 1, 1, 40}},
      {{1, 1, 1, 24}, {1, 5, 6, 24}},
      // a gate over 1200 pixels: several blocks of rows
      {{2, 40, 30, 24}, {2, 1, 1, 24}}};
  for (const auto& [sa_shape, sb_shape] : shapes) {
    const float sa = 0.01f * float(uni(1, 20)), sb = 0.004f * float(uni(1, 20)),
                sy = 0.002f * float(uni(1, 50));
    const ir::QuantParams qa = per_tensor(sa, uni(-100, 100)), qb = per_tensor(sb, uni(-128, 127)),
                          qy = per_tensor(sy, uni(-50, 50));
    Tensor A(ir::DType::Int8, sa_shape), B(ir::DType::Int8, sb_shape);
    for (std::int64_t i = 0; i < A.numel(); ++i)
      A.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(uni(-128, 127));
    for (std::int64_t i = 0; i < B.numel(); ++i)
      B.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(uni(-128, 127));
    ir::Graph g;
    g.add_tensor(ir_tensor_of("a", ir::DType::Int8, sa_shape, qa));
    g.add_tensor(ir_tensor_of("b", ir::DType::Int8, sb_shape, qb));
    g.add_tensor(ir_tensor_of("y", ir::DType::Int8, {}, qy));
    g.ops.push_back(test::make_op("Mul", {"a", "b"}, {"y"}, {}));
    const QuantizedMultiplier m = quantize_multiplier(double(sa) * double(sb) / double(sy));
    std::vector<std::vector<std::int8_t>> outs;
    for (auto isa : gemm::supported_isas()) {
      gemm::force_isa(isa);
      const auto op = prepare_quantized(g.ops[0], g);
      const Tensor y = op->run(std::vector<Tensor>{A, B})[0];
      // The reference, element by element through the broadcast (same rank here after padding).
      const auto& out = y.shape();
      Shape pa(out.size() - A.rank(), 1), pb(out.size() - B.rank(), 1);
      pa.insert(pa.end(), A.shape().begin(), A.shape().end());
      pb.insert(pb.end(), B.shape().begin(), B.shape().end());
      std::int64_t diff = 0;
      for (std::int64_t i = 0; i < y.numel(); ++i) {
        std::int64_t rem = i, ia = 0, ib = 0, sa_ = 1, sb_ = 1;
        for (std::size_t d = out.size(); d-- > 0;) {
          const std::int64_t c = rem % out[d];
          rem /= out[d];
          ia += (pa[d] == 1 ? 0 : c) * sa_;
          ib += (pb[d] == 1 ? 0 : c) * sb_;
          sa_ *= pa[d];
          sb_ *= pb[d];
        }
        const std::int32_t want = mul_quantized(
            A.data<std::int8_t>()[ia], -std::int32_t(qa.zero_points[0]), B.data<std::int8_t>()[ib],
            -std::int32_t(qb.zero_points[0]), m, std::int32_t(qy.zero_points[0]), -128, 127);
        diff += y.data<std::int8_t>()[i] != want;
      }
      EXPECT_EQ(diff, 0) << shape_string(sa_shape) << " x " << shape_string(sb_shape) << " ISA "
                         << gemm::isa_name(isa);
    }
    gemm::force_isa(gemm::supported_isas().back());
  }
}

// The VNNI micro-kernel against the portable one on random packed tiles.
TEST(Int8Oracle, VnniMicroKernelEqualsPortable) {
  if (!__builtin_cpu_supports("avx512vnni")) GTEST_SKIP() << "no AVX-512 VNNI on this CPU";
  std::mt19937 rng(3);
  for (std::int64_t kq : {1, 2, 7, 64, 301}) {
    std::vector<std::int8_t> a(static_cast<std::size_t>(kq * kMR4 * 4));
    std::vector<std::uint8_t> b(static_cast<std::size_t>(kq * kNR * 4));
    for (auto& v : a)
      v = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    for (auto& v : b)
      v = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng));
    std::vector<std::int32_t> want(kMR4 * kNR), got(kMR4 * kNR);
    igemm4_micro_generic(kq, a.data(), b.data(), want.data());
    igemm4_micro_avx512vnni(kq, a.data(), b.data(), got.data());
    EXPECT_EQ(got, want) << "kq " << kq;
    // The two-panel forms: b as the first panel, its reverse as the second; the swapped
    // (rows) kernels with b's bytes as activations and a's as weights.
    std::vector<std::uint8_t> b2(b.rbegin(), b.rend());
    std::vector<std::int32_t> want2(kMR4 * kNR), got2(2 * kMR4 * kNR);
    igemm4_micro_generic(kq, a.data(), b2.data(), want2.data());
    igemm4_micro2_avx512vnni(kq, a.data(), b.data(), b2.data(), got2.data());
    EXPECT_EQ(std::vector<std::int32_t>(got2.begin(), got2.begin() + kMR4 * kNR), want) << "micro2 kq " << kq;
    EXPECT_EQ(std::vector<std::int32_t>(got2.begin() + kMR4 * kNR, got2.end()), want2) << "micro2 kq " << kq;
    std::vector<std::int8_t> w0(static_cast<std::size_t>(kq * kNR * 4)), w1(w0.size());
    for (std::size_t i = 0; i < w0.size(); ++i) {
      w0[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
      w1[i] = static_cast<std::int8_t>(std::uniform_int_distribution<int>(-128, 127)(rng));
    }
    std::vector<std::uint8_t> act(static_cast<std::size_t>(kq * kMR4 * 4));
    for (auto& v : act) v = static_cast<std::uint8_t>(std::uniform_int_distribution<int>(0, 255)(rng));
    std::vector<std::int32_t> r0(kMR4 * kNR), r1(kMR4 * kNR), one(kMR4 * kNR), two(2 * kMR4 * kNR);
    igemm_rows4_micro_generic(kq, act.data(), w0.data(), r0.data());
    igemm_rows4_micro_generic(kq, act.data(), w1.data(), r1.data());
    igemm_rows4_micro_avx512vnni(kq, act.data(), w0.data(), one.data());
    igemm_rows4_micro2_avx512vnni(kq, act.data(), w0.data(), w1.data(), two.data());
    EXPECT_EQ(one, r0) << "rows kq " << kq;
    EXPECT_EQ(std::vector<std::int32_t>(two.begin(), two.begin() + kMR4 * kNR), r0) << "rows2 kq " << kq;
    EXPECT_EQ(std::vector<std::int32_t>(two.begin() + kMR4 * kNR, two.end()), r1) << "rows2 kq " << kq;
    // One activation row (batch 1): row 0 of each tile.
    igemm_row1_micro_avx512vnni(kq, act.data(), w0.data(), one.data());
    igemm_row1_micro2_avx512vnni(kq, act.data(), w0.data(), w1.data(), two.data());
    EXPECT_TRUE(std::equal(r0.begin(), r0.begin() + kNR, one.begin())) << "row1 kq " << kq;
    EXPECT_TRUE(std::equal(r0.begin(), r0.begin() + kNR, two.begin())) << "row1 x2 kq " << kq;
    EXPECT_TRUE(std::equal(r1.begin(), r1.begin() + kNR, two.begin() + kMR4 * kNR)) << "row1 x2 kq " << kq;
  }
}

}  // namespace
}  // namespace ec::runtime::quantized
