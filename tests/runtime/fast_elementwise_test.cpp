// The f32 fast paths of the elementwise kernels (vectorised broadcast Add/Sub/
// Mul/Div, BatchNormalization as a per-plane affine) against the same kernels
// on f64 inputs, which take the plain reference loops, on random shapes and
// broadcasts, serially and on a 3-thread pool.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/runtime/thread_pool.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using V = std::vector<std::int64_t>;

std::vector<double> random_values(std::mt19937& rng, std::int64_t n, double lo = -2, double hi = 2) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = static_cast<float>(d(rng));  // exactly representable in f32
  return v;
}

Tensor as(ir::DType dt, const V& shape, const std::vector<double>& v) {
  if (dt == ir::DType::Float64) return Tensor::from_values(dt, shape, v);
  return Tensor::from_values(dt, shape, std::vector<float>(v.begin(), v.end()));
}

// Transpose: every permutation of ranks 2-5 (shapes with 1s among them, so dims
// coalesce; sizes above a thread chunk) against index arithmetic, serially and on a
// 3-thread pool: the tiled 2-D path (NCHW <-> NHWC among it), the interleave of 2-4
// planes (an image's input edge; f32 and bytes, whole register blocks and tails) and the
// general one.
TEST(FastElementwise, TransposeEveryPermutationMatchesIndexing) {
  ThreadPool pool(3);
  // (the last above 1 MiB: copies that large are split over the pool)
  const std::vector<V> shapes = {{130, 257},        {2, 40, 1, 450}, {3, 7, 31, 37},   {2, 3, 37, 45},
                                 {1, 4, 33, 70},    {1, 2, 5, 77},   {2, 3, 1, 4, 700}, {1, 64, 23, 29},
                                 {3, 260, 450}};
  for (const ir::DType dt : {ir::DType::Float32, ir::DType::UInt8})
  for (const V& shape : shapes) {
    const std::size_t r = shape.size();
    std::int64_t n = 1;
    for (auto d : shape) n *= d;
    std::vector<float> xv(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < xv.size(); ++i) xv[i] = static_cast<float>(dt == ir::DType::UInt8 ? i % 251 : i);
    const Tensor x = dt == ir::DType::UInt8
                         ? Tensor::from_values(dt, shape, std::vector<std::uint8_t>(xv.begin(), xv.end()))
                         : Tensor::from_values(dt, shape, xv);
    V perm(r);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      V out(r);
      for (std::size_t i = 0; i < r; ++i) out[i] = shape[static_cast<std::size_t>(perm[i])];
      // want[o] = x[the input index whose permuted form is o]
      std::vector<float> want(xv.size());
      V idx(r, 0);
      for (std::int64_t o = 0; o < n; ++o) {
        std::int64_t src = 0, stride = 1;
        V in_idx(r);
        for (std::size_t i = 0; i < r; ++i) in_idx[static_cast<std::size_t>(perm[i])] = idx[i];
        for (std::size_t d = r; d-- > 0;) {
          src += in_idx[d] * stride;
          stride *= shape[d];
        }
        want[static_cast<std::size_t>(o)] = xv[static_cast<std::size_t>(src)];
        for (std::size_t d = r; d-- > 0;)
          if (++idx[d] < out[d]) break;
          else idx[d] = 0;
      }
      for (bool threaded : {false, true}) {
        PoolScope scope(threaded ? &pool : nullptr);
        const Tensor y = run1(make_op("Transpose", {"x"}, {"y"}, {{"perm", perm}}), {x})[0];
        ASSERT_EQ(y.shape(), out);
        ASSERT_EQ(y.to_float_vector(), want) << "shape rank " << r << (threaded ? ", 3 threads" : ", serial")
                                             << (dt == ir::DType::UInt8 ? ", bytes" : "");
      }
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

TEST(FastElementwise, BroadcastArithmeticMatchesReference) {
  std::mt19937 rng(9);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  ThreadPool pool(3);
  int compared = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t rank = static_cast<std::size_t>(pick(0, 4));
    V out(rank), a(rank), b(rank);
    for (std::size_t d = 0; d < rank; ++d) {
      // every tenth trial has one long axis (several vector tasks), the rest small ones
      out[d] = trial % 10 == 0 && d == rank / 2 ? pick(1000, 40000) : pick(1, 9);
      a[d] = pick(0, 2) ? out[d] : 1;
      b[d] = pick(0, 2) ? out[d] : 1;
    }
    // b sometimes of lower rank (numpy right alignment)
    if (rank > 0 && pick(0, 1)) b.erase(b.begin(), b.begin() + pick(0, static_cast<int>(rank)));
    const auto va = random_values(rng, shape_numel(a)), vb = random_values(rng, shape_numel(b), 0.5, 3);
    for (const char* type : {"Add", "Sub", "Mul", "Div"}) {
      auto op = make_op(type, {"a", "b"});
      const auto ref = run1(op, {as(ir::DType::Float64, a, va), as(ir::DType::Float64, b, vb)})[0];
      for (bool threaded : {false, true}) {
        PoolScope scope(threaded ? &pool : nullptr);
        const auto fast = run1(op, {as(ir::DType::Float32, a, va), as(ir::DType::Float32, b, vb)})[0];
        ASSERT_EQ(fast.shape(), ref.shape());
        const auto f = fast.to_float_vector(), r = ref.to_float_vector();
        for (std::size_t i = 0; i < f.size(); ++i)
          ASSERT_NEAR(f[i], r[i], 1e-6 * std::fabs(r[i]) + 1e-7) << type << " " << shape_string(a) << " , "
                                                                 << shape_string(b) << " element " << i;
        ++compared;
      }
    }
  }
  EXPECT_EQ(compared, 300 * 4 * 2);
}

TEST(FastElementwise, BatchNormalizationMatchesReference) {
  std::mt19937 rng(4);
  ThreadPool pool(2);
  for (const V& x : {V{1, 3, 5, 7}, V{2, 17, 33}, V{1, 64, 56, 56}, V{3, 5}}) {
    const std::int64_t C = x[1];
    const auto vx = random_values(rng, shape_numel(x)), scale = random_values(rng, C), bias = random_values(rng, C),
               mean = random_values(rng, C), var = random_values(rng, C, 0.1, 2);
    auto op = make_op("BatchNormalization", {"x", "s", "b", "m", "v"}, {"y"}, {{"epsilon", 1e-3}});
    auto inputs = [&](ir::DType dt) {
      return std::vector<Tensor>{as(dt, x, vx), as(dt, {C}, scale), as(dt, {C}, bias), as(dt, {C}, mean),
                                 as(dt, {C}, var)};
    };
    const auto ref = run1(op, inputs(ir::DType::Float64))[0].to_float_vector();
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      const auto fast = run1(op, inputs(ir::DType::Float32))[0].to_float_vector();
      ASSERT_EQ(fast.size(), ref.size());
      for (std::size_t i = 0; i < ref.size(); ++i)
        ASSERT_NEAR(fast[i], ref[i], 2e-6 * std::fabs(ref[i]) + 2e-6) << shape_string(x) << " element " << i;
    }
  }
}

// Constant Pad (whole runs of the unpadded trailing dims) against indexing each output
// element back into the input: random ranks, pads from -2 (crop) to 3 on either side, some
// dims left alone, a given value or the default 0, int64 too, and a 2 MB tensor split over
// the pool.
TEST(FastElementwise, ConstantPadMatchesIndexing) {
  std::mt19937 rng(11);
  ThreadPool pool(3);
  std::uniform_int_distribution<int> rank_d(1, 4), dim_d(1, 6), pad_d(-2, 3), coin(0, 2);
  int trials = 0;
  for (int trial = 0; trial < 300; ++trial) {
    V shape(static_cast<std::size_t>(rank_d(rng)));
    for (auto& d : shape) d = dim_d(rng);
    if (trial == 0) shape = {1, 60, 60, 96};  // swin's pad of [N, H, W, C] on H and W: 1.4 MB
    const std::size_t r = shape.size();
    V pads(2 * r, 0), out = shape;
    for (std::size_t d = 0; d < r; ++d) {
      if (coin(rng) == 0 && trial != 0) continue;  // this dim unpadded
      pads[d] = trial == 0 ? 0 : pad_d(rng);
      pads[d + r] = trial == 0 ? (d == 1 || d == 2 ? 4 : 0) : pad_d(rng);
      out[d] = shape[d] + pads[d] + pads[d + r];
    }
    if (std::any_of(out.begin(), out.end(), [](std::int64_t v) { return v < 0; })) continue;
    const auto vx = random_values(rng, shape_numel(shape));
    const bool with_value = coin(rng) != 0, as_int = trial % 5 == 4;
    const double value = with_value ? 2.5 : 0.0;
    // reference
    std::vector<double> want(static_cast<std::size_t>(shape_numel(out)));
    V idx(r, 0);
    for (std::size_t i = 0; i < want.size(); ++i) {
      std::int64_t off = 0;
      bool inside = true;
      for (std::size_t d = 0; d < r; ++d) {
        const std::int64_t s = idx[d] - pads[d];
        if (s < 0 || s >= shape[d]) inside = false;
        off = off * shape[d] + s;
      }
      want[i] = inside ? (as_int ? std::trunc(vx[static_cast<std::size_t>(off)] * 100)
                                 : vx[static_cast<std::size_t>(off)])
                       : value;
      for (std::size_t d = r; d-- > 0;)
        if (++idx[d] < out[d])
          break;
        else
          idx[d] = 0;
    }
    std::vector<Tensor> in;
    if (as_int) {
      std::vector<std::int64_t> xi(vx.size());
      for (std::size_t i = 0; i < vx.size(); ++i)
        xi[i] = static_cast<std::int64_t>(std::trunc(vx[i] * 100));
      in = {i64(shape, xi), i64({static_cast<std::int64_t>(2 * r)}, pads)};
      if (with_value) in.push_back(i64({}, {static_cast<std::int64_t>(value)}));
    } else {
      in = {as(ir::DType::Float32, shape, vx), i64({static_cast<std::int64_t>(2 * r)}, pads)};
      if (with_value) in.push_back(f32({}, {static_cast<float>(value)}));
    }
    if (as_int && with_value)
      for (auto& w : want)
        if (w == 2.5) w = 2;  // the int64 value
    for (bool threaded : {false, true}) {
      PoolScope scope(threaded ? &pool : nullptr);
      const auto y = run1(make_op("Pad", with_value ? std::vector<std::string>{"x", "p", "v"}
                                                    : std::vector<std::string>{"x", "p"}),
                          in)[0];
      ASSERT_EQ(y.shape(), out) << "trial " << trial;
      const auto got = as_int ? [&] { auto v = y.to_int64_vector(); return std::vector<double>(v.begin(), v.end()); }()
                              : [&] { auto v = y.to_float_vector(); return std::vector<double>(v.begin(), v.end()); }();
      for (std::size_t i = 0; i < want.size(); ++i)
        ASSERT_NEAR(got[i], as_int ? want[i] : static_cast<float>(want[i]), 0.0)
            << "trial " << trial << " " << shape_string(shape) << " pads " << shape_string(pads)
            << " element " << i;
    }
    ++trials;
  }
  EXPECT_GT(trials, 150);
}

}  // namespace
}  // namespace ec::runtime::test
