// Reference kernels against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/runtime/thread_pool.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using V = std::vector<std::int64_t>;

TEST(Elementwise, AddBroadcastsRowAndColumn) {
  // [2,1] + [3] -> [2,3]: y[i][j] = a[i] + b[j]
  auto y = run1(make_op("Add", {"a", "b"}), {f32({2, 1}, {1, 2}), f32({3}, {10, 20, 30})});
  expect_near(y[0], {2, 3}, {11, 21, 31, 12, 22, 32});
}

TEST(Elementwise, IntegerDivTruncatesAndModFollowsDivisor) {
  auto d = run1(make_op("Div", {"a", "b"}), {i64({2}, {-7, 7}), i64({2}, {2, 2})});
  EXPECT_EQ(d[0].to_int64_vector(), (V{-3, 3}));
  auto m = run1(make_op("Mod", {"a", "b"}), {i64({2}, {-7, 7}), i64({2}, {3, -3})});
  EXPECT_EQ(m[0].to_int64_vector(), (V{2, -2}));  // Python %: sign of the divisor
}

// Integer overflow wraps (two's complement) as numpy and ONNX Runtime do; it is never
// undefined behaviour (fuzz-repro ubsan_mul_overflow_in_optimize, checked under UBSan).
TEST(Elementwise, IntegerOverflowWraps) {
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  auto mul = run1(make_op("Mul", {"a", "b"}), {i64({2}, {kMin, kMax}), i64({2}, {128, 2})});
  EXPECT_EQ(mul[0].to_int64_vector(), (V{0, -2}));
  auto add = run1(make_op("Add", {"a", "b"}), {i64({1}, {kMax}), i64({1}, {1})});
  EXPECT_EQ(add[0].to_int64_vector(), (V{kMin}));
  auto sub = run1(make_op("Sub", {"a", "b"}), {i64({1}, {kMin}), i64({1}, {1})});
  EXPECT_EQ(sub[0].to_int64_vector(), (V{kMax}));
  auto neg = run1(make_op("Neg", {"a"}), {i64({1}, {kMin})});
  EXPECT_EQ(neg[0].to_int64_vector(), (V{kMin}));
  auto div = run1(make_op("Div", {"a", "b"}), {i64({1}, {kMin}), i64({1}, {-1})});
  EXPECT_EQ(div[0].to_int64_vector(), (V{kMin}));
}

TEST(Elementwise, ComparisonGivesBool) {
  auto y = run1(make_op("Less", {"a", "b"}), {f32({3}, {1, 5, 3}), f32({1}, {3})});
  EXPECT_EQ(y[0].dtype(), ir::DType::Bool);
  EXPECT_EQ(y[0].to_int64_vector(), (V{1, 0, 0}));
}

TEST(Activations, SoftmaxRowsSumToOne) {
  auto y = run1(make_op("Softmax", {"x"}), {f32({1, 3}, {1, 2, 3})});
  const double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0), s = e1 + e2 + e3;
  expect_near(y[0], {1, 3}, {float(e1 / s), float(e2 / s), float(e3 / s)});
}

TEST(Activations, ClipWithOptionalBounds) {
  auto y = run1(make_op("Clip", {"x", "", "hi"}), {f32({3}, {-5, 0, 5}), Tensor(), f32({}, {1})});
  expect_near(y[0], {3}, {-5, 0, 1});
}

TEST(Conv, ThreeByThreeOnesWithPadding) {
  // 3x3 input 1..9, 3x3 kernel of ones, pad 1: each output = sum of its 3x3 neighbourhood.
  auto op = make_op("Conv", {"x", "w"}, {"y"}, {{"pads", V{1, 1, 1, 1}}});
  auto y = run1(op, {f32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}), f32({1, 1, 3, 3}, std::vector<float>(9, 1.f))});
  expect_near(y[0], {1, 1, 3, 3}, {12, 21, 16, 27, 45, 33, 24, 39, 28});
}

TEST(Conv, StrideTwoWithBiasAndGroups) {
  // Two groups of one channel each; kernel 1x1 weights 2 and 3, bias 1 and -1, stride 2.
  auto op = make_op("Conv", {"x", "w", "b"}, {"y"}, {{"group", std::int64_t{2}}, {"strides", V{2, 2}}});
  auto y = run1(op, {f32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}), f32({2, 1, 1, 1}, {2, 3}), f32({2}, {1, -1})});
  expect_near(y[0], {1, 2, 1, 1}, {3, 14});
}

TEST(Conv, FusedActivationClampsTheResult) {
  // y = x * w with w = 1, then RELU6: [-2, 3, 9] -> [0, 3, 6]
  auto op = make_op("Conv", {"x", "w"}, {"y"}, {{"fused_activation", std::string("RELU6")}});
  auto y = run1(op, {f32({1, 1, 3}, {-2, 3, 9}), f32({1, 1, 1}, {1})});
  expect_near(y[0], {1, 1, 3}, {0, 3, 6});
  auto g = make_op("Gemm", {"a", "b"}, {"y"}, {{"fused_activation", std::string("RELU")}});
  expect_near(run1(g, {f32({1, 2}, {1, -3}), f32({2, 1}, {1, 1})})[0], {1, 1}, {0});
}

TEST(ConvTranspose, StrideTwoUpsamples) {
  // x = [1, 2], w = [1, 1], stride 2 -> [1, 1, 2, 2]
  auto op = make_op("ConvTranspose", {"x", "w"}, {"y"}, {{"strides", V{2}}});
  auto y = run1(op, {f32({1, 1, 2}, {1, 2}), f32({1, 1, 2}, {1, 1})});
  expect_near(y[0], {1, 1, 4}, {1, 1, 2, 2});
}

TEST(Linear, GemmTransBAlphaBeta) {
  // y = 2 * A * B^T + 1 * C
  auto op = make_op("Gemm", {"a", "b", "c"}, {"y"}, {{"transB", std::int64_t{1}}, {"alpha", 2.0}});
  auto y = run1(op, {f32({1, 2}, {1, 2}), f32({2, 2}, {1, 0, 0, 1}), f32({2}, {10, 20})});
  expect_near(y[0], {1, 2}, {12, 24});
}

TEST(Linear, MatMulBroadcastsBatch) {
  auto y = run1(make_op("MatMul", {"a", "b"}), {f32({2, 1, 2}, {1, 2, 3, 4}), f32({2, 1}, {1, 1})});
  expect_near(y[0], {2, 1, 1}, {3, 7});
}

TEST(Pooling, MaxPoolCeilModeKeepsPartialWindow) {
  auto op = make_op("MaxPool", {"x"}, {"y"}, {{"kernel_shape", V{2}}, {"strides", V{2}}, {"ceil_mode", std::int64_t{1}}});
  auto y = run1(op, {f32({1, 1, 5}, {1, 5, 2, 4, 3})});
  expect_near(y[0], {1, 1, 3}, {5, 4, 3});
}

TEST(Pooling, AveragePoolCountIncludePad) {
  auto base = std::map<std::string, ir::Attribute>{{"kernel_shape", V{3}}, {"pads", V{1, 1}}};
  auto y0 = run1(make_op("AveragePool", {"x"}, {"y"}, base), {f32({1, 1, 2}, {3, 6})});
  expect_near(y0[0], {1, 1, 2}, {4.5f, 4.5f});  // only real elements counted
  base["count_include_pad"] = std::int64_t{1};
  auto y1 = run1(make_op("AveragePool", {"x"}, {"y"}, base), {f32({1, 1, 2}, {3, 6})});
  expect_near(y1[0], {1, 1, 2}, {3, 3});  // pads counted as zeros
}

TEST(Normalization, BatchNormInference) {
  // y = (x - 1) / sqrt(4 + 0) * 2 + 3
  auto op = make_op("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"}, {{"epsilon", 0.0}});
  auto y = run1(op, {f32({1, 1, 2}, {1, 5}), f32({1}, {2}), f32({1}, {3}), f32({1}, {1}), f32({1}, {4})});
  expect_near(y[0], {1, 1, 2}, {3, 7});
}

TEST(Reduction, ReduceSumKeepdimsAndArgMax) {
  auto op = make_op("ReduceSum", {"x"}, {"y"}, {{"axes", V{1}}, {"keepdims", std::int64_t{0}}});
  auto y = run1(op, {f32({2, 3}, {1, 2, 3, 4, 5, 6})});
  expect_near(y[0], {2}, {6, 15});
  auto a = run1(make_op("ArgMax", {"x"}, {"y"}, {{"axis", std::int64_t{1}}}), {f32({2, 3}, {1, 9, 3, 7, 5, 6})});
  EXPECT_EQ(a[0].shape(), (V{2, 1}));
  EXPECT_EQ(a[0].to_int64_vector(), (V{1, 0}));
}

// The f32 reductions over a run of consecutive axes (rows of r when nothing follows them,
// else columns), a run through a size-1 axis, and axes that are no run (the odometer),
// against a double reference, equal at 1 and 3 threads.
TEST(Reduction, FloatRunsMatchDoubleReferenceAtAnyThreadCount) {
  const V shape{3, 37, 5, 7};
  std::vector<float> xs(3 * 37 * 5 * 7);
  for (std::size_t i = 0; i < xs.size(); ++i)
    xs[i] = static_cast<float>((i * 7919) % 1000) / 250.f - 2.f;
  struct Case {
    const char* op;
    V axes;
  };
  const Case cases[] = {
      {"ReduceMean", {2, 3}}, {"ReduceMax", {1}}, {"ReduceSumSquare", {1, 2, 3}}, {"ReduceL1", {0}},
      {"ReduceMin", {0, 2}},  {"ReduceL2", {3}},  {"ReduceSum", {-1, -2}}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    const std::string op_type = c.op;
    // Reference: every element into its output cell (the reduced coordinates zeroed).
    std::vector<bool> red(4, false);
    for (auto a : c.axes) red[static_cast<std::size_t>(a < 0 ? a + 4 : a)] = true;
    V out_shape;
    for (std::size_t d = 0; d < 4; ++d) out_shape.push_back(red[d] ? 1 : shape[d]);
    const bool extreme = op_type == "ReduceMax" || op_type == "ReduceMin";
    std::vector<double> ref(
        static_cast<std::size_t>(out_shape[0] * out_shape[1] * out_shape[2] * out_shape[3]),
        op_type == "ReduceMax"   ? -1e30
        : op_type == "ReduceMin" ? 1e30
                                 : 0.0);
    std::int64_t count = 1;
    for (std::size_t d = 0; d < 4; ++d) count *= red[d] ? shape[d] : 1;
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(xs.size()); ++i) {
      std::int64_t rem = i, o = 0, stride = 1;
      std::int64_t coord[4];
      for (int d = 3; d >= 0; --d) {
        coord[d] = rem % shape[static_cast<std::size_t>(d)];
        rem /= shape[static_cast<std::size_t>(d)];
      }
      for (int d = 3; d >= 0; --d) {
        o += (red[static_cast<std::size_t>(d)] ? 0 : coord[d]) * stride;
        stride *= out_shape[static_cast<std::size_t>(d)];
      }
      const double v = xs[static_cast<std::size_t>(i)];
      double& r = ref[static_cast<std::size_t>(o)];
      if (op_type == "ReduceMax")
        r = std::max(r, v);
      else if (op_type == "ReduceMin")
        r = std::min(r, v);
      else if (op_type == "ReduceL1")
        r += std::fabs(v);
      else if (op_type == "ReduceSumSquare" || op_type == "ReduceL2")
        r += v * v;
      else
        r += v;
    }
    std::vector<float> want;
    for (double r : ref)
      want.push_back(static_cast<float>(op_type == "ReduceMean" ? r / double(count)
                                        : op_type == "ReduceL2" ? std::sqrt(r)
                                                                : r));
    std::vector<Tensor> got;
    for (int threads : {1, 3}) {
      ThreadPool pool(threads);
      PoolScope scope(&pool);
      got.push_back(run1(make_op(op_type, {"x"}, {"y"}, {{"axes", c.axes}}), {f32(shape, xs)})[0]);
      expect_near(got.back(), out_shape, want, extreme ? 0.f : 2e-5f);
    }
    EXPECT_EQ(got[0].to_float_vector(), got[1].to_float_vector());
  }
}

TEST(DataMovement, ReshapeInfersAndSharesStorage) {
  const Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  auto y = run1(make_op("Reshape", {"x", "s"}), {x, i64({2}, {3, -1})});
  EXPECT_EQ(y[0].shape(), (V{3, 2}));
  EXPECT_EQ(y[0].raw(), x.raw());
}

TEST(DataMovement, TransposeSliceGatherConcat) {
  const Tensor x = f32({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_near(run1(make_op("Transpose", {"x"}), {x})[0], {3, 2}, {1, 4, 2, 5, 3, 6});
  // x[:, ::-2]
  auto s = run1(make_op("Slice", {"x", "st", "en", "ax", "sp"}),
                {x, i64({1}, {-1}), i64({1}, {INT64_MIN}), i64({1}, {1}), i64({1}, {-2})});
  expect_near(s[0], {2, 2}, {3, 1, 6, 4});
  auto g = run1(make_op("Gather", {"x", "i"}, {"y"}, {{"axis", std::int64_t{1}}}), {x, i64({2}, {-1, 0})});
  expect_near(g[0], {2, 2}, {3, 1, 6, 4});
  auto c = run1(make_op("Concat", {"a", "b"}, {"y"}, {{"axis", std::int64_t{0}}}), {x, f32({1, 3}, {7, 8, 9})});
  expect_near(c[0], {3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
}

TEST(DataMovement, PadReflectAndCast) {
  auto p = run1(make_op("Pad", {"x", "p"}, {"y"}, {{"mode", std::string("reflect")}}), {f32({3}, {1, 2, 3}), i64({2}, {2, 1})});
  expect_near(p[0], {6}, {3, 2, 1, 2, 3, 2});
  auto c = run1(make_op("Cast", {"x"}, {"y"}, {{"to", std::string("i64")}}), {f32({3}, {-1.7f, 0.5f, 2.9f})});
  EXPECT_EQ(c[0].dtype(), ir::DType::Int64);
  EXPECT_EQ(c[0].to_int64_vector(), (V{-1, 0, 2}));
}

TEST(DataMovement, ResizeNearestAndLinear) {
  auto op = make_op("Resize", {"x", "", "s"}, {"y"}, {{"mode", std::string("nearest")}});
  auto y = run1(op, {f32({1, 1, 2}, {1, 2}), Tensor(), f32({3}, {1, 1, 2})});
  expect_near(y[0], {1, 1, 4}, {1, 1, 2, 2});
  op.attributes["mode"] = std::string("linear");
  auto l = run1(op, {f32({1, 1, 2}, {1, 2}), Tensor(), f32({3}, {1, 1, 2})});
  expect_near(l[0], {1, 1, 4}, {1, 1.25f, 1.75f, 2});  // half_pixel, edges clamped
}

TEST(Generators, RangeAndConstantOfShape) {
  auto r = run1(make_op("Range", {"a", "b", "c"}), {i64({}, {1}), i64({}, {8}), i64({}, {3})});
  EXPECT_EQ(r[0].to_int64_vector(), (V{1, 4, 7}));
  auto c = run1(make_op("ConstantOfShape", {"s"}), {i64({2}, {2, 2})});
  expect_near(c[0], {2, 2}, {0, 0, 0, 0});
}

TEST(Registry, UnknownOpIsUnsupported) {
  auto op = make_op("Loop", {"x"});
  try {
    run1(op, {f32({1}, {1})});
    FAIL() << "expected UnsupportedOpError";
  } catch (const UnsupportedOpError& e) {
    EXPECT_EQ(e.op_type(), "Loop");
    EXPECT_EQ(e.backend(), "the CPU runtime");
  }
}

}  // namespace
}  // namespace ec::runtime::test
