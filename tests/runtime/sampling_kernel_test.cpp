// GridSample, RoiAlign, Unique, MaxUnpool, DFT/STFT, Reduce* with axes as an input, f16
// Max/Min/Mod (kernels/sampling.cpp, unique.cpp, unpool.cpp, spectral.cpp, reduction.cpp,
// elementwise.cpp) where the ONNX
// conformance data is thin: values computed with PyTorch 1.13 / torchvision 0.14
// (torch.nn.functional.grid_sample, torchvision.ops.roi_align), identities, and hand
// examples; at 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/errors.h"
#include "core/runtime/thread_pool.h"
#include "core/util/half.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using V = std::vector<std::int64_t>;

// X [1, 1, 3, 4] and six grid points (two outside the image) of the PyTorch run below.
const std::vector<float> kGsX = {-1.0f, -0.5f, 0.0f, 0.5f, 1.0f, 1.5f, 4.0f, 2.5f, 3.0f, 3.5f, 4.0f, 4.5f};
const std::vector<float> kGsGrid = {-0.9f, -0.7f, 0.35f, 0.1f, 1.2f, -1.3f, -1.4f, 0.6f, 0.0f, 0.95f, 0.61f, -0.33f};

struct GsCase {
  const char* mode;
  const char* padding;
  int align_corners;
  std::vector<float> want;  // F.grid_sample(X, grid, mode, padding_mode, align_corners)
};

TEST(SamplingKernels, GridSampleMatchesPyTorch) {
  const std::vector<GsCase> cases = {
      {"bilinear", "zeros", 0, {-0.665000f, 3.760000f, 0.002500f, 0.000000f, 2.156249f, 1.652800f}},
      {"bilinear", "zeros", 1, {-0.325000f, 3.967500f, 0.245000f, 0.880000f, 3.700000f, 2.331400f}},
      {"bilinear", "border", 0, {-1.000000f, 3.760000f, 0.500000f, 2.800000f, 3.750000f, 1.652800f}},
      {"bilinear", "border", 1, {-0.325000f, 3.967500f, 0.500000f, 2.200000f, 3.700000f, 2.331400f}},
      {"bilinear", "reflection", 0, {-1.000000f, 3.760000f, 0.500000f, 2.950000f, 3.750000f, 1.652800f}},
      {"bilinear", "reflection", 1, {-0.325000f, 3.967500f, 1.130000f, 2.500000f, 3.700000f, 2.331400f}},
      {"nearest", "zeros", 0, {-1.000000f, 4.000000f, 0.000000f, 0.000000f, 4.000000f, 2.500000f}},
      {"nearest", "zeros", 1, {-1.000000f, 4.000000f, 0.500000f, 0.000000f, 4.000000f, 4.000000f}},
      {"nearest", "border", 0, {-1.000000f, 4.000000f, 0.500000f, 3.000000f, 4.000000f, 2.500000f}},
      {"nearest", "border", 1, {-1.000000f, 4.000000f, 0.500000f, 3.000000f, 4.000000f, 4.000000f}},
      {"nearest", "reflection", 0, {-1.000000f, 4.000000f, 0.500000f, 3.000000f, 4.000000f, 2.500000f}},
      {"nearest", "reflection", 1, {-1.000000f, 4.000000f, 0.500000f, 3.500000f, 4.000000f, 4.000000f}},
      {"bicubic", "zeros", 0, {-0.794416f, 4.439456f, 0.001476f, -0.334250f, 2.276241f, 1.759882f}},
      {"bicubic", "zeros", 1, {-0.645758f, 4.287215f, 0.164996f, 1.004608f, 3.850650f, 2.674914f}},
      {"bicubic", "border", 0, {-1.122812f, 4.308552f, 0.499835f, 2.849501f, 3.835627f, 1.574522f}},
      {"bicubic", "border", 1, {-0.489187f, 4.258806f, 0.358936f, 2.332000f, 3.723737f, 2.533773f}},
      {"bicubic", "reflection", 0, {-1.150000f, 4.308552f, 0.467308f, 2.956990f, 3.898916f, 1.574522f}},
      {"bicubic", "reflection", 1, {-0.747165f, 4.258166f, 0.775562f, 2.723967f, 3.751235f, 2.272683f}},
  };
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    PoolScope scope(&pool);
    for (const auto& c : cases) {
      const auto op = make_op("GridSample", {"x", "grid"}, {"y"},
                              {{"mode", std::string(c.mode)}, {"padding_mode", std::string(c.padding)},
                               {"align_corners", std::int64_t{c.align_corners}}});
      const auto y = run1(op, {f32({1, 1, 3, 4}, kGsX), f32({1, 2, 3, 2}, kGsGrid)})[0].to_float_vector();
      ASSERT_EQ(y.size(), 6u);
      for (std::size_t i = 0; i < 6; ++i) {
        // Bicubic outside the image: ONNX (and ONNX Runtime) move the point by the padding
        // mode first, PyTorch pads each tap; they agree on points inside (0, 1, 4, 5).
        if (std::string(c.mode) == "bicubic" && std::string(c.padding) != "zeros" && (i == 2 || i == 3)) continue;
        EXPECT_NEAR(y[i], c.want[i], 2e-5f) << c.mode << " " << c.padding << " " << c.align_corners << " point " << i;
      }
    }
  }
}

// Sampling every pixel's centre returns the image, in every mode and padding (batch 2,
// 3 channels, 5 x 7, f32 and f64).
TEST(SamplingKernels, GridSampleOfPixelCentresIsTheIdentity) {
  const std::int64_t N = 2, C = 3, H = 5, W = 7;
  std::vector<float> x(static_cast<std::size_t>(N * C * H * W));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(float(i) * 0.7f) * 3;
  for (int align : {0, 1}) {
    std::vector<float> grid;
    for (std::int64_t n = 0; n < N; ++n)
      for (std::int64_t r = 0; r < H; ++r)
        for (std::int64_t c = 0; c < W; ++c) {
          grid.push_back(align ? 2.f * float(c) / float(W - 1) - 1 : (2.f * float(c) + 1) / float(W) - 1);
          grid.push_back(align ? 2.f * float(r) / float(H - 1) - 1 : (2.f * float(r) + 1) / float(H) - 1);
        }
    for (const char* mode : {"nearest", "bilinear", "bicubic"})
      for (const char* pad : {"zeros", "border", "reflection"})
        for (int threads : {1, 2}) {
          ThreadPool pool(threads);
          PoolScope scope(&pool);
          const auto op = make_op("GridSample", {"x", "grid"}, {"y"},
                                  {{"mode", std::string(mode)}, {"padding_mode", std::string(pad)}, {"align_corners", std::int64_t{align}}});
          const Tensor X = f32({N, C, H, W}, x);
          const Tensor y = run1(op, {X, f32({N, H, W, 2}, grid)})[0];
          expect_near(y, {N, C, H, W}, x, 2e-5f);
          const Tensor X64 = Tensor::from_values(DType::Float64, {N, C, H, W}, std::vector<double>(x.begin(), x.end()));
          const Tensor y64 = run1(op, {X64, f32({N, H, W, 2}, grid)})[0];
          EXPECT_EQ(y64.dtype(), DType::Float64);
          expect_near(y64, {N, C, H, W}, x, 2e-5f);
        }
  }
}

TEST(SamplingKernels, GridSampleRefusesBadInputsWithOneLine) {
  const auto op = make_op("GridSample", {"x", "grid"});
  for (const auto& in : std::vector<std::vector<Tensor>>{
           {f32({1, 1, 3}, {1, 2, 3}), f32({1, 1, 1, 2}, {0, 0})},          // 3-D X
           {f32({1, 1, 2, 2}, {1, 2, 3, 4}), f32({1, 1, 1, 3}, {0, 0, 0})},  // grid's last dim 3
           {f32({1, 1, 2, 2}, {1, 2, 3, 4}), f32({2, 1, 1, 2}, {0, 0, 0, 0})}}) {  // batch differs
    try {
      run1(op, in);
      ADD_FAILURE() << "accepted";
    } catch (const EdgeCompilerError& e) {
      EXPECT_NE(std::string(e.what()).find("GridSample"), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
  }
}

// NaN, infinite and huge positions give defined values (0 where nothing is sampled), never
// a crash, in every mode and padding.
TEST(SamplingKernels, GridSampleOfNonFinitePositionsDoesNotCrash) {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> grid = {nan, 0, 0, inf, -inf, 1e30f, 3e9f, -7e12f, 0.5f, 0.5f, -1e38f, 1e38f};
  for (const char* mode : {"nearest", "bilinear", "bicubic"})
    for (const char* pad : {"zeros", "border", "reflection"}) {
      const auto op = make_op("GridSample", {"x", "grid"}, {"y"}, {{"mode", std::string(mode)}, {"padding_mode", std::string(pad)}});
      const auto y = run1(op, {f32({1, 1, 3, 4}, kGsX), f32({1, 2, 3, 2}, grid)})[0].to_float_vector();
      ASSERT_EQ(y.size(), 6u);
      for (float v : y) EXPECT_TRUE(std::isfinite(v)) << mode << " " << pad;
    }
}

struct RoiCase {
  int sampling_ratio, aligned;
  std::vector<float> want;  // torchvision.ops.roi_align(X, boxes, (3, 2), 0.5, ratio, aligned)
};

TEST(SamplingKernels, RoiAlignAvgMatchesTorchvision) {
  std::vector<float> x(2 * 3 * 6 * 7);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i % 11) * 0.25f - 1;
  const std::vector<float> rois = {0.4f, 1.2f, 9.5f, 8.3f, 3.0f, 0.0f, 6.0f, 4.0f, -2.0f, -1.0f, 3.0f, 14.0f};
  const std::vector<RoiCase> cases = {
      {0, 0, {0.04161f, -0.00596f, 0.90447f, -0.10707f, -0.22396f, 0.34479f, -0.16534f, 0.04891f, 0.45937f, 0.81567f, 0.12692f, -0.15521f, 0.93762f, -0.27410f, -0.04063f, 0.52812f, 0.31146f, 0.05492f, 0.05208f, 0.23958f, 1.21875f, 1.40625f, 0.55208f, 0.73958f, -0.21875f, -0.26042f, 0.71875f, 0.90625f, 0.05208f, 0.23958f, 0.88542f, 1.07292f, 0.21875f, 0.40625f, -0.44792f, -0.26042f, 0.00694f, 0.22569f, -0.17361f, 0.04514f, 0.45139f, 0.59722f, 0.57639f, -0.04036f, 0.39583f, 0.51432f, 0.19444f, 0.33312f, 0.07639f, 0.29514f, -0.10417f, 0.11458f, -0.13889f, 0.00694f}},
      {0, 1, {-0.23229f, 0.33646f, 0.75573f, -0.19510f, 0.15104f, 0.46353f, -0.04543f, -0.16354f, 0.46468f, 0.82448f, 0.04130f, 0.21979f, 0.66979f, -0.25407f, 0.33437f, 0.44905f, -0.36198f, 0.04715f, -0.65625f, -0.46875f, 0.21875f, 0.40625f, 0.92708f, 1.11458f, 0.56250f, -0.96875f, 0.57812f, -0.09375f, 0.42708f, 0.61458f, 1.09375f, 1.28125f, 0.59375f, 0.78125f, -0.07292f, 0.11458f, -0.05903f, -0.02431f, 0.08681f, 0.26736f, 0.07986f, 0.22222f, 0.22569f, 0.14410f, 0.14236f, 0.34983f, 0.18056f, 0.42361f, -0.02431f, 0.04514f, -0.10764f, -0.12153f, 0.01389f, 0.09028f}},
      {2, 0, {0.06302f, -0.03854f, 0.95937f, -0.19062f, -0.22396f, 0.34479f, -0.21308f, 0.07102f, 0.45937f, 0.87236f, 0.11572f, -0.15521f, 0.99948f, -0.36823f, -0.04063f, 0.52812f, 0.31146f, 0.07891f, 0.05208f, 0.23958f, 0.98958f, 1.17708f, 0.55208f, 0.73958f, -0.16146f, -0.26042f, 0.52539f, 0.67708f, 0.05208f, 0.23958f, 0.88542f, 1.07292f, 0.21875f, 0.40625f, -0.44792f, -0.26042f, 0.01562f, 0.23438f, -0.25000f, -0.03125f, 0.37500f, 0.48438f, 0.54688f, -0.04004f, 0.45312f, 0.55908f, 0.12500f, 0.23438f, 0.04688f, 0.26562f, -0.04688f, 0.17188f, -0.12500f, -0.01562f}},
      {2, 1, {-0.23229f, 0.33646f, 0.75573f, -0.17022f, 0.15104f, 0.46773f, -0.03684f, -0.16354f, 0.46730f, 0.82448f, 0.03910f, 0.21979f, 0.66979f, -0.22963f, 0.33437f, 0.45648f, -0.36198f, 0.04089f, -0.65625f, -0.46875f, 0.21875f, 0.40625f, 0.92708f, 1.11458f, 0.56250f, -0.88281f, 0.57812f, -0.05078f, 0.42708f, 0.61458f, 1.09375f, 1.28125f, 0.59375f, 0.78125f, -0.07292f, 0.11458f, -0.09375f, -0.09375f, 0.12500f, 0.34375f, 0.21094f, 0.51562f, 0.25781f, 0.15820f, 0.13281f, 0.35938f, 0.21875f, 0.53125f, 0.00781f, 0.10938f, -0.11719f, -0.14062f, -0.03125f, 0.03125f}},
  };
  for (int threads : {1, 2}) {
    ThreadPool pool(threads);
    PoolScope scope(&pool);
    for (const auto& c : cases) {
      // torchvision's aligned=True is ONNX's half_pixel; aligned=False the legacy output_half_pixel.
      const auto op = make_op("RoiAlign", {"x", "rois", "batch_indices"}, {"y"},
                              {{"output_height", std::int64_t{3}}, {"output_width", std::int64_t{2}},
                               {"sampling_ratio", std::int64_t{c.sampling_ratio}}, {"spatial_scale", 0.5},
                               {"coordinate_transformation_mode", std::string(c.aligned ? "half_pixel" : "output_half_pixel")}});
      const Tensor y = run1(op, {f32({2, 3, 6, 7}, x), f32({3, 4}, rois), i64({3}, {1, 0, 1})})[0];
      expect_near(y, {3, 3, 3, 2}, c.want, 1e-4f);
    }
  }
}

// Samples on pixel centres (weights 1, 0, 0, 0): max mode is the largest sampled pixel.
TEST(SamplingKernels, RoiAlignMaxTakesTheLargestSample) {
  std::vector<float> x(8 * 8);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i) + 1;  // x[r][c] = 8 r + c + 1
  const auto op = make_op("RoiAlign", {"x", "rois", "batch_indices"}, {"y"},
                          {{"mode", std::string("max")}, {"output_height", std::int64_t{2}}, {"output_width", std::int64_t{2}},
                           {"sampling_ratio", std::int64_t{2}}, {"coordinate_transformation_mode", std::string("output_half_pixel")}});
  // Region (0, 0)-(8, 8): bins of 4 x 4, samples at 1 and 3 (bin 0) and 5 and 7 (bin 1).
  const Tensor y = run1(op, {f32({1, 1, 8, 8}, x), f32({1, 4}, {0, 0, 8, 8}), i64({1}, {0})})[0];
  expect_near(y, {1, 1, 2, 2}, {8 * 3 + 3 + 1, 8 * 3 + 7 + 1, 8 * 7 + 3 + 1, 8 * 7 + 7 + 1});
  // A NaN region samples nothing; an enormous one is refused with a message.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  expect_near(run1(op, {f32({1, 1, 8, 8}, x), f32({1, 4}, {nan, 0, 8, 8}), i64({1}, {0})})[0], {1, 1, 2, 2}, {0, 0, 0, 0});
  const auto op0 = make_op("RoiAlign", {"x", "rois", "batch_indices"}, {"y"}, {{"sampling_ratio", std::int64_t{0}}});
  EXPECT_THROW(run1(op0, {f32({1, 1, 8, 8}, x), f32({1, 4}, {0, 0, 1e30f, 1e30f}), i64({1}, {0})}), EdgeCompilerError);
  try {
    run1(op, {f32({1, 1, 8, 8}, x), f32({1, 4}, {0, 0, 8, 8}), i64({1}, {3})});
    ADD_FAILURE() << "batch index 3 of 1 accepted";
  } catch (const EdgeCompilerError& e) {
    EXPECT_NE(std::string(e.what()).find("RoiAlign"), std::string::npos) << e.what();
  }
}

TEST(SamplingKernels, UniqueSortedUnsortedAndAlongAnAxis) {
  // numpy.unique([2, 1, 1, 3, 4, 3], return_index, return_inverse, return_counts)
  const Tensor x = f32({6}, {2, 1, 1, 3, 4, 3});
  auto outs = run1(make_op("Unique", {"x"}, {"y", "i", "inv", "c"}), {x});
  expect_near(outs[0], {4}, {1, 2, 3, 4});
  EXPECT_EQ(outs[1].to_int64_vector(), (V{1, 0, 3, 4}));
  EXPECT_EQ(outs[2].to_int64_vector(), (V{1, 0, 0, 2, 3, 2}));
  EXPECT_EQ(outs[3].to_int64_vector(), (V{2, 1, 2, 1}));
  outs = run1(make_op("Unique", {"x"}, {"y", "i", "inv", "c"}, {{"sorted", std::int64_t{0}}}), {x});
  expect_near(outs[0], {4}, {2, 1, 3, 4});
  EXPECT_EQ(outs[1].to_int64_vector(), (V{0, 1, 3, 4}));
  EXPECT_EQ(outs[2].to_int64_vector(), (V{0, 1, 1, 2, 3, 2}));
  EXPECT_EQ(outs[3].to_int64_vector(), (V{1, 2, 2, 1}));
  // Columns of a [2, 2, 4] int64 tensor (axis 2), compared over both rows of both planes:
  // columns 0 and 2 are equal, column 3 sorts first.
  const Tensor z = i64({2, 2, 4}, {5, 6, 5, 1,  7, 7, 7, 9,  0, 1, 0, 2,  3, 3, 3, 3});
  outs = run1(make_op("Unique", {"x"}, {"y", "i", "inv", "c"}, {{"axis", std::int64_t{-1}}}), {z});
  EXPECT_EQ(outs[0].shape(), (V{2, 2, 3}));
  EXPECT_EQ(outs[0].to_int64_vector(), (V{1, 5, 6,  9, 7, 7,  2, 0, 1,  3, 3, 3}));
  EXPECT_EQ(outs[1].to_int64_vector(), (V{3, 0, 1}));
  EXPECT_EQ(outs[2].to_int64_vector(), (V{1, 2, 1, 0}));
  EXPECT_EQ(outs[3].to_int64_vector(), (V{1, 2, 1}));
  // Only Y asked for: one output.
  EXPECT_EQ(run1(make_op("Unique", {"x"}, {"y"}), {x}).size(), 1u);
}

// ReduceSum's axes as an input (opset 13), also negative, empty with and without
// noop_with_empty_axes; the same results as the attribute form.
TEST(SamplingKernels, ReduceTakesAxesAsAnInput) {
  const Tensor x = f32({2, 3, 2}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  auto y = run1(make_op("ReduceSum", {"x", "axes"}, {"y"}, {{"keepdims", std::int64_t{0}}}), {x, i64({1}, {-2})})[0];
  expect_near(y, {2, 2}, {9, 12, 27, 30});
  y = run1(make_op("ReduceSum", {"x", "axes"}, {"y"}, {{"keepdims", std::int64_t{1}}}), {x, i64({2}, {0, 2})})[0];
  expect_near(y, {1, 3, 1}, {1 + 2 + 7 + 8, 3 + 4 + 9 + 10, 5 + 6 + 11 + 12});
  y = run1(make_op("ReduceSum", {"x", "axes"}, {"y"}, {{"noop_with_empty_axes", std::int64_t{1}}}), {x, i64({0}, {})})[0];
  expect_near(y, {2, 3, 2}, x.to_float_vector());
  y = run1(make_op("ReduceMax", {"x", "axes"}, {"y"}, {{"keepdims", std::int64_t{0}}}), {x, i64({0}, {})})[0];
  expect_near(y, {}, {12});
}

TEST(SamplingKernels, F16MaxMinModRunInF32) {
  auto h = [](std::vector<float> v) {
    std::vector<std::uint16_t> b;
    for (float f : v) b.push_back(util::float_to_half(f));
    return Tensor::from_values(DType::Float16, {static_cast<std::int64_t>(v.size())}, b);
  };
  const Tensor a = h({1.5f, -2.f, 65504.f, 0.1f}), b = h({1.f, -3.f, 1.f, 0.2f});
  auto f = [](const Tensor& t) {
    std::vector<float> v;
    for (auto u : t.values<std::uint16_t>()) v.push_back(util::half_to_float(u));
    return v;
  };
  const Tensor mx = run1(make_op("Max", {"a", "b"}), {a, b})[0], mn = run1(make_op("Min", {"a", "b"}), {a, b})[0];
  ASSERT_EQ(mx.dtype(), DType::Float16);
  EXPECT_EQ(f(mx), (std::vector<float>{1.5f, -2.f, 65504.f, f(b)[3]}));
  EXPECT_EQ(f(mn), (std::vector<float>{1.f, -3.f, 1.f, f(a)[3]}));
  const Tensor md = run1(make_op("Mod", {"a", "b"}, {"y"}, {{"fmod", std::int64_t{1}}}), {a, b})[0];
  ASSERT_EQ(md.dtype(), DType::Float16);
  EXPECT_EQ(f(md)[0], 0.5f);
  EXPECT_EQ(f(md)[1], -2.f);
}

// DFT against the direct sum in double (FFT sizes and others), real and complex input,
// onesided, dft_length padding and cutting, and inverse(DFT(x)) = x.
TEST(SpectralKernels, DftMatchesTheDirectSum) {
  for (std::int64_t n : {1, 2, 7, 8, 12, 16, 64}) {
    for (bool complex_in : {false, true}) {
      const std::int64_t len = n + 3, c = complex_in ? 2 : 1;
      std::vector<float> x(static_cast<std::size_t>(2 * len * 3 * c));  // [2, len, 3, c], axis 1
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(float(i) * 1.3f) + 0.1f * float(i % 5);
      for (bool onesided : {false, true}) {
        if (onesided && complex_in) continue;
        const auto op = make_op("DFT", {"x", "n"}, {"y"}, {{"axis", std::int64_t{1}}, {"onesided", std::int64_t{onesided}}});
        ThreadPool pool(2);
        PoolScope scope(&pool);
        const Tensor y = run1(op, {f32({2, len, 3, c}, x), i64({}, {n})})[0];
        const std::int64_t bins = onesided ? n / 2 + 1 : n;
        ASSERT_EQ(y.shape(), (V{2, bins, 3, 2}));
        const auto got = y.to_float_vector();
        for (std::int64_t b = 0; b < 2; ++b)
          for (std::int64_t i = 0; i < 3; ++i)
            for (std::int64_t k = 0; k < bins; ++k) {
              double re = 0, im = 0;
              for (std::int64_t j = 0; j < n; ++j) {  // the first n values (cut from len)
                const std::size_t at = static_cast<std::size_t>(((b * len + j) * 3 + i) * c);
                const double xr = x[at], xi = complex_in ? x[at + 1] : 0.0, a = -2 * M_PI * double(j * k) / double(n);
                re += xr * std::cos(a) - xi * std::sin(a);
                im += xr * std::sin(a) + xi * std::cos(a);
              }
              const std::size_t o = static_cast<std::size_t>(((b * bins + k) * 3 + i) * 2);
              EXPECT_NEAR(got[o], re, 1e-4 * (1 + std::abs(re))) << "n " << n << " k " << k;
              EXPECT_NEAR(got[o + 1], im, 1e-4 * (1 + std::abs(im))) << "n " << n << " k " << k;
            }
      }
    }
  }
  // inverse(DFT(x)) = x, zero padding past the signal (dft_length 10 > 6)
  const std::vector<float> x = {1, -2, 3, 0.5f, 4, -1};
  const Tensor f = run1(make_op("DFT", {"x", "n"}, {"y"}), {f32({1, 6, 1}, x), i64({}, {10})})[0];
  const Tensor back = run1(make_op("DFT", {"x"}, {"y"}, {{"inverse", std::int64_t{1}}}), {f})[0];
  std::vector<float> want;
  for (int j = 0; j < 10; ++j) {
    want.push_back(j < 6 ? x[static_cast<std::size_t>(j)] : 0.f);
    want.push_back(0.f);
  }
  expect_near(back, {1, 10, 2}, want, 1e-5f);
}

// STFT frame f = DFT(signal[f * step ...] * window), onesided.
TEST(SpectralKernels, StftIsTheDftOfEachWindowedFrame) {
  const std::int64_t len = 50, flen = 12, step = 5;
  std::vector<float> s(2 * len), w(flen);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = std::sin(float(i) * 0.37f) + 0.2f;
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = 0.5f - 0.5f * std::cos(2 * float(M_PI) * float(i) / float(flen));
  const Tensor y = run1(make_op("STFT", {"s", "step", "w"}), {f32({2, len, 1}, s), i64({}, {step}), f32({flen}, w)})[0];
  const std::int64_t frames = 1 + (len - flen) / step, bins = flen / 2 + 1;
  ASSERT_EQ(y.shape(), (V{2, frames, bins, 2}));
  const auto got = y.to_float_vector();
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t f = 0; f < frames; ++f) {
      std::vector<float> frame;
      for (std::int64_t j = 0; j < flen; ++j)
        frame.push_back(s[static_cast<std::size_t>(b * len + f * step + j)] * w[static_cast<std::size_t>(j)]);
      const auto d = run1(make_op("DFT", {"x"}, {"y"}, {{"onesided", std::int64_t{1}}}), {f32({1, flen, 1}, frame)})[0].to_float_vector();
      for (std::int64_t k = 0; k < bins * 2; ++k)
        EXPECT_NEAR(got[static_cast<std::size_t>((b * frames + f) * bins * 2 + k)], d[static_cast<std::size_t>(k)], 1e-5f);
    }
}

// MaxPool's indices taken back by MaxUnpool: each maximum returns to its place (1-D and
// 2-D, batch 2, 3 channels), everything else is 0.
TEST(SpectralKernels, MaxUnpoolPutsMaximaBack) {
  for (const V& shape : {V{2, 3, 9}, V{2, 3, 6, 8}}) {
    const std::size_t sp = shape.size() - 2;
    std::vector<float> x(static_cast<std::size_t>(shape_numel(shape)));
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(float(i) * 2.1f);
    const V k(sp, 2), st(sp, 2);
    const auto pool_op = make_op("MaxPool", {"x"}, {"y", "i"}, {{"kernel_shape", k}, {"strides", st}});
    const auto pooled = run1(pool_op, {f32(shape, x)});
    const auto unpool = make_op("MaxUnpool", {"y", "i", "shape"}, {"x"}, {{"kernel_shape", k}, {"strides", st}});
    const Tensor u = run1(unpool, {pooled[0], pooled[1], i64({static_cast<std::int64_t>(shape.size())}, shape)})[0];
    ASSERT_EQ(u.shape(), shape);
    const auto got = u.to_float_vector();
    const auto idx = pooled[1].to_int64_vector();
    std::vector<float> want(x.size(), 0.f);
    for (auto j : idx) want[static_cast<std::size_t>(j)] = x[static_cast<std::size_t>(j)];
    EXPECT_EQ(got, want);
  }
  try {
    run1(make_op("MaxUnpool", {"y", "i"}, {"x"}, {{"kernel_shape", V{2}}}), {f32({1, 1, 2}, {1, 2}), i64({1, 1, 2}, {0, 9})});
    ADD_FAILURE() << "index 9 of 3 accepted";
  } catch (const EdgeCompilerError& e) {
    EXPECT_NE(std::string(e.what()).find("MaxUnpool"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ec::runtime::test
