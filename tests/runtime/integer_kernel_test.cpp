// ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul (kernels/integer_ops.cpp,
// kernels/qlinear.cpp) against direct loops written here: exact int32 sums, ONNX
// Runtime's float requantisation bit for bit, and within 1 LSB of dequantise -> float
// convolution -> quantise; odd channel counts, groups, padding, strides, dilations,
// uint8 and int8, per-tensor and per-channel parameters, at 1 and 2 threads.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "core/errors.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/runtime/thread_pool.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using V = std::vector<std::int64_t>;

struct Q8 {
  DType dtype;
  std::int32_t lo, hi;
};
const Q8 kU8{DType::UInt8, 0, 255}, kI8{DType::Int8, -128, 127};

Tensor bytes(const Q8& q, V shape, const std::vector<std::int32_t>& v) {
  Tensor t(q.dtype, std::move(shape));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (q.dtype == DType::UInt8) t.mutable_data<std::uint8_t>()[i] = static_cast<std::uint8_t>(v[i]);
    else t.mutable_data<std::int8_t>()[i] = static_cast<std::int8_t>(v[i]);
  }
  return t;
}

std::vector<std::int32_t> random_q(std::mt19937& rng, const Q8& q, std::int64_t n) {
  std::uniform_int_distribution<int> d(q.lo, q.hi);
  std::vector<std::int32_t> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = d(rng);
  return v;
}

// Direct convolution of integer values (x - xz)(w - wz[m]), int64 sums.
std::vector<std::int64_t> conv_sums(const kernels::ConvGeometry& g, const std::vector<std::int32_t>& x, std::int32_t xz,
                                    const std::vector<std::int32_t>& w, const std::vector<std::int32_t>& wz) {
  const std::size_t k = g.in.size();
  const std::int64_t in_sp = shape_numel(g.in), out_sp = shape_numel(g.out), k_sp = shape_numel(g.kernel);
  const std::int64_t cg = g.c / g.group, mg = g.m / g.group;
  std::vector<std::int64_t> y(static_cast<std::size_t>(g.n * g.m * out_sp));
  std::vector<std::int64_t> o(k), t(k);
  for (std::int64_t n = 0; n < g.n; ++n)
    for (std::int64_t m = 0; m < g.m; ++m)
      for (std::int64_t op = 0; op < out_sp; ++op) {
        for (std::size_t d = k, r = static_cast<std::size_t>(op); d-- > 0;) {
          o[d] = static_cast<std::int64_t>(r) % g.out[d];
          r /= static_cast<std::size_t>(g.out[d]);
        }
        std::int64_t acc = 0;
        for (std::int64_t c = 0; c < cg; ++c)
          for (std::int64_t kt = 0; kt < k_sp; ++kt) {
            std::int64_t idx = 0, rem = kt;
            bool inside = true;
            for (std::size_t d = k; d-- > 0;) {
              t[d] = rem % g.kernel[d];
              rem /= g.kernel[d];
            }
            for (std::size_t d = 0; d < k; ++d) {
              const std::int64_t i = o[d] * g.strides[d] - g.pad_begin[d] + t[d] * g.dilations[d];
              if (i < 0 || i >= g.in[d]) inside = false;
              idx = idx * g.in[d] + i;
            }
            const std::int64_t ci = (m / mg) * cg + c;
            const std::int32_t xv = inside ? x[static_cast<std::size_t>((n * g.c + ci) * in_sp + idx)] : xz;
            const std::int32_t wv = w[static_cast<std::size_t>((m * cg + c) * k_sp + kt)];
            acc += std::int64_t(xv - xz) * (wv - wz[wz.size() == 1 ? 0 : static_cast<std::size_t>(m)]);
          }
        y[static_cast<std::size_t>((n * g.m + m) * out_sp + op)] = acc;
      }
  return y;
}

std::int32_t requant_ort(std::int64_t acc, float m, std::int32_t zp, const Q8& q) {
  const float v = std::nearbyint(float(acc) * m);
  return std::clamp<std::int32_t>(static_cast<std::int32_t>(std::clamp(v, -1e9f, 1e9f)) + zp, q.lo, q.hi);
}

TEST(IntegerKernels, ConvIntegerAndQLinearConvMatchDirectLoops) {
  std::mt19937 rng(7);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  int compared = 0;
  for (int trial = 0; trial < 120; ++trial) {
    const Q8 qx = trial % 2 ? kU8 : kI8, qw = trial % 3 ? kI8 : kU8, qy = trial % 5 < 2 ? kU8 : kI8;
    const std::int64_t rank = 1 + trial % 3;
    const bool depthwise = trial % 7 == 0;
    const std::int64_t group = depthwise ? pick(3, 7) : pick(1, 3), cg = depthwise ? 1 : pick(1, 5),
                       mg = depthwise ? 1 : pick(1, 7), n = pick(1, 2);
    V x{n, group * cg}, w{group * mg, cg}, strides, dil, pads(static_cast<std::size_t>(2 * rank));
    for (std::int64_t d = 0; d < rank; ++d) {
      const std::int64_t k = pick(1, 3), pb = pick(0, 2), pe = pick(0, 2), dl = pick(1, 2);
      x.push_back(std::max<std::int64_t>((k - 1) * dl + 1 - pb - pe, 1) + pick(0, rank == 3 ? 3 : 11));
      w.push_back(k);
      strides.push_back(pick(1, 2));
      dil.push_back(dl);
      pads[static_cast<std::size_t>(d)] = pb;
      pads[static_cast<std::size_t>(d + rank)] = pe;
    }
    std::map<std::string, ir::Attribute> attrs{{"group", group}, {"strides", strides}, {"dilations", dil}, {"pads", pads}};
    const auto conv_int = make_op("ConvInteger", {"x", "w", "x_zp", "w_zp"}, {"y"}, attrs);
    const auto qconv = make_op("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz", "b"}, {"y"}, attrs);
    const kernels::ConvGeometry g = kernels::conv_geometry(conv_int, x, w, false);
    const std::int64_t M = g.m;
    const auto xv = random_q(rng, qx, shape_numel(x)), wv = random_q(rng, qw, shape_numel(w));
    const std::int32_t xz = random_q(rng, qx, 1)[0];
    const bool per_channel = trial % 4 != 0;
    const auto wz = per_channel ? random_q(rng, qw, M) : random_q(rng, qw, 1);
    const auto want = conv_sums(g, xv, xz, wv, wz);
    const Tensor X = bytes(qx, x, xv), W = bytes(qw, w, wv), XZ = bytes(qx, {}, {xz}),
                 WZ = bytes(qw, per_channel ? V{M} : V{}, wz);

    // Scales, bias and output zero point of a plausible quantised model.
    std::uniform_real_distribution<float> sd(0.002f, 0.05f);
    const float xs = sd(rng), ys = sd(rng) * 20;
    std::vector<float> ws(per_channel ? static_cast<std::size_t>(M) : 1);
    for (auto& s : ws) s = sd(rng) / 4;
    std::vector<std::int32_t> bias(static_cast<std::size_t>(M));
    for (auto& b : bias) b = static_cast<std::int32_t>(pick(-3000, 3000));
    const std::int32_t yz = random_q(rng, qy, 1)[0];

    for (int threads : {1, 2}) {
      ThreadPool pool(threads);
      PoolScope scope(&pool);
      const Tensor y = run1(conv_int, {X, W, XZ, WZ})[0];
      ASSERT_EQ(y.dtype(), DType::Int32);
      ASSERT_EQ(static_cast<std::size_t>(y.numel()), want.size());
      for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(y.data<std::int32_t>()[i], want[i]) << "trial " << trial << " element " << i;

      const Tensor q = run1(qconv, {X, f32({}, {xs}), XZ, W, f32(per_channel ? V{M} : V{}, ws), WZ, f32({}, {ys}),
                                    bytes(qy, {}, {yz}), Tensor::from_values(DType::Int32, {M}, bias)})[0];
      ASSERT_EQ(q.dtype(), qy.dtype);
      const std::int64_t out_sp = static_cast<std::int64_t>(want.size()) / (g.n * M);
      for (std::size_t i = 0; i < want.size(); ++i) {
        const std::size_t m = static_cast<std::size_t>(static_cast<std::int64_t>(i) / out_sp % M);
        const float sw = ws[per_channel ? m : 0];
        const std::int32_t got = static_cast<std::int32_t>(q.get_int(static_cast<std::int64_t>(i)));
        // ONNX Runtime's form: float multiplier x_scale * w_scale / y_scale, exactly.
        ASSERT_EQ(got, requant_ort(want[i] + bias[m], xs * sw / ys, yz, qy)) << "trial " << trial << " element " << i;
        // The float model it approximates: dequantised inputs convolved in double, quantised.
        const double real = (double(want[i]) * xs * sw + double(bias[m]) * xs * sw) / ys;
        const double ref = std::clamp<double>(std::nearbyint(real) + yz, qy.lo, qy.hi);
        ASSERT_LE(std::abs(got - ref), 1.0) << "trial " << trial << " element " << i;
      }
    }
    ++compared;
  }
  EXPECT_EQ(compared, 120);
}

TEST(IntegerKernels, MatMulIntegerAndQLinearMatMulMatchDirectLoops) {
  struct Case {
    V a, b;
    bool a_rows, b_cols;  // zero points / scales per row of a, per column of b
  };
  const std::vector<Case> cases = {
      {{3, 5}, {5, 7}, false, false},    {{1, 17}, {17, 19}, true, true},  {{2, 3, 9}, {9, 5}, true, false},
      {{4, 3, 2}, {1, 2, 33}, false, true}, {{5}, {5, 3}, false, true},    {{2, 1, 3, 6}, {3, 6, 5}, true, true},
      {{7, 31}, {31}, true, false},
  };
  std::mt19937 rng(5);
  for (std::size_t ci = 0; ci < cases.size(); ++ci) {
    const Case& c = cases[ci];
    const Q8 qa = ci % 2 ? kU8 : kI8, qb = ci % 3 ? kI8 : kU8, qy = ci % 2 ? kI8 : kU8;
    const std::int64_t M = c.a.size() >= 2 ? c.a[c.a.size() - 2] : 1, K = c.a.back(),
                       N = c.b.size() >= 2 ? c.b.back() : 1;
    const auto av = random_q(rng, qa, shape_numel(c.a)), bv = random_q(rng, qb, shape_numel(c.b));
    const auto az = random_q(rng, qa, c.a_rows ? M : 1), bz = random_q(rng, qb, c.b_cols ? N : 1);
    // Expected: numpy matmul of the shifted values, computed here in double.
    V as = c.a, bs = c.b;
    if (as.size() == 1) as.insert(as.begin(), 1);
    if (bs.size() == 1) bs.push_back(1);
    const std::size_t r = std::max(as.size(), bs.size());
    as.insert(as.begin(), static_cast<std::ptrdiff_t>(r - as.size()), 1);
    bs.insert(bs.begin(), static_cast<std::ptrdiff_t>(r - bs.size()), 1);
    V batch;
    for (std::size_t d = 0; d + 2 < r; ++d) batch.push_back(std::max(as[d], bs[d]));
    const std::int64_t nb = shape_numel(batch);
    std::vector<std::int64_t> want;
    for (std::int64_t t = 0; t < nb; ++t) {
      std::int64_t ia = 0, ib = 0, rem = t;
      std::vector<std::int64_t> idx(batch.size());
      for (std::size_t d = batch.size(); d-- > 0;) {
        idx[d] = rem % batch[d];
        rem /= batch[d];
      }
      for (std::size_t d = 0; d < batch.size(); ++d) {
        ia = ia * as[d] + (as[d] == 1 ? 0 : idx[d]);
        ib = ib * bs[d] + (bs[d] == 1 ? 0 : idx[d]);
      }
      for (std::int64_t m = 0; m < M; ++m)
        for (std::int64_t n = 0; n < N; ++n) {
          std::int64_t acc = 0;
          for (std::int64_t k = 0; k < K; ++k)
            acc += std::int64_t(av[static_cast<std::size_t>((ia * M + m) * K + k)] - az[c.a_rows ? m : 0]) *
                   (bv[static_cast<std::size_t>((ib * K + k) * N + n)] - bz[c.b_cols ? n : 0]);
          want.push_back(acc);
        }
    }
    std::uniform_real_distribution<float> sd(0.002f, 0.05f);
    std::vector<float> sa(static_cast<std::size_t>(c.a_rows ? M : 1)), sb(static_cast<std::size_t>(c.b_cols ? N : 1));
    for (auto& s : sa) s = sd(rng);
    for (auto& s : sb) s = sd(rng);
    const float ys = sd(rng) * 10;
    const std::int32_t yz = random_q(rng, qy, 1)[0];
    const Tensor A = bytes(qa, c.a, av), B = bytes(qb, c.b, bv), AZ = bytes(qa, c.a_rows ? V{M} : V{}, az),
                 BZ = bytes(qb, c.b_cols ? V{N} : V{}, bz);
    for (int threads : {1, 2}) {
      ThreadPool pool(threads);
      PoolScope scope(&pool);
      const Tensor y = run1(make_op("MatMulInteger", {"a", "b", "az", "bz"}), {A, B, AZ, BZ})[0];
      ASSERT_EQ(static_cast<std::size_t>(y.numel()), want.size()) << "case " << ci;
      for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(y.data<std::int32_t>()[i], want[i]) << "case " << ci;
      const Tensor q = run1(make_op("QLinearMatMul", {"a", "as", "az", "b", "bs", "bz", "ys", "yz"}),
                            {A, f32(c.a_rows ? V{M} : V{}, sa), AZ, B, f32(c.b_cols ? V{N} : V{}, sb), BZ,
                             f32({}, {ys}), bytes(qy, {}, {yz})})[0];
      ASSERT_EQ(q.shape(), y.shape());
      for (std::size_t i = 0; i < want.size(); ++i) {
        const std::size_t m = static_cast<std::size_t>(static_cast<std::int64_t>(i) / N % M),
                          n = static_cast<std::size_t>(static_cast<std::int64_t>(i) % N);
        const float s = sa[c.a_rows ? m : 0] * sb[c.b_cols ? n : 0] / ys;
        ASSERT_EQ(q.get_int(static_cast<std::int64_t>(i)), requant_ort(want[i], s, yz, qy)) << "case " << ci;
      }
    }
  }
}

// Ties round to even, results saturate: hand-picked sums through a 1x1 QLinearConv, and
// 40 more (the vector loop and its tail) against nearbyint in double.
TEST(IntegerKernels, QLinearRequantisationRoundsHalfToEvenAndSaturates) {
  // x = [0, 1, 2, 3, 5, 250] (u8, zp 0), w = 1 (i8), multiplier 0.5 * 1 / 1 = 0.5, y zp 10, i8.
  const auto op = make_op("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"});
  auto run = [&](const std::vector<std::int32_t>& x) {
    return run1(op, {bytes(kU8, {1, 1, static_cast<std::int64_t>(x.size())}, x), f32({}, {0.5f}), bytes(kU8, {}, {0}),
                     bytes(kI8, {1, 1, 1}, {1}), f32({}, {1.f}), bytes(kI8, {}, {0}), f32({}, {1.f}), bytes(kI8, {}, {10})})[0];
  };
  const Tensor y = run({0, 1, 2, 3, 5, 250});
  ASSERT_EQ(y.dtype(), DType::Int8);
  // 0 -> 10, 0.5 -> 0 -> 10, 1 -> 11, 1.5 -> 2 -> 12, 2.5 -> 2 -> 12, 125 + 10 -> 127
  EXPECT_EQ(y.to_int64_vector(), (std::vector<std::int64_t>{10, 10, 11, 12, 12, 127}));
  std::vector<std::int32_t> x;
  for (int i = 0; i < 40; ++i) x.push_back(i < 30 ? i : 200 + i);
  const auto got = run(x).to_int64_vector();
  for (std::size_t i = 0; i < x.size(); ++i)
    EXPECT_EQ(got[i], std::min<std::int64_t>(127, static_cast<std::int64_t>(std::nearbyint(x[i] * 0.5)) + 10)) << i;
}

TEST(IntegerKernels, BadInputsGiveOneLineErrorsNamingTheOp) {
  const auto qconv = make_op("QLinearConv", {"x", "xs", "xz", "w", "ws", "wz", "ys", "yz"});
  const Tensor x = bytes(kU8, {1, 3, 4, 4}, std::vector<std::int32_t>(48, 1)),
               w = bytes(kI8, {2, 3, 1, 1}, std::vector<std::int32_t>(6, 1));
  auto error_of = [](const ir::Operation& op, std::vector<Tensor> in) -> std::string {
    try {
      run1(op, std::move(in));
    } catch (const EdgeCompilerError& e) {
      return e.what();
    }
    return "";
  };
  const std::vector<std::vector<Tensor>> bad = {
      // y_scale 0
      {x, f32({}, {1.f}), bytes(kU8, {}, {0}), w, f32({}, {1.f}), bytes(kI8, {}, {0}), f32({}, {0.f}), bytes(kU8, {}, {0})},
      // three w scales for two output channels
      {x, f32({}, {1.f}), bytes(kU8, {}, {0}), w, f32({3}, {1.f, 1.f, 1.f}), bytes(kI8, {}, {0}), f32({}, {1.f}), bytes(kU8, {}, {0})},
      // f32 activations
      {f32({1, 3, 1, 1}, {1, 2, 3}), f32({}, {1.f}), bytes(kU8, {}, {0}), w, f32({}, {1.f}), bytes(kI8, {}, {0}), f32({}, {1.f}), bytes(kU8, {}, {0})},
      // x zero point of another dtype than x
      {x, f32({}, {1.f}), bytes(kI8, {}, {0}), w, f32({}, {1.f}), bytes(kI8, {}, {0}), f32({}, {1.f}), bytes(kU8, {}, {0})},
  };
  for (const auto& in : bad) {
    const std::string e = error_of(qconv, in);
    EXPECT_NE(e.find("QLinearConv"), std::string::npos) << e;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
  const std::string e = error_of(make_op("MatMulInteger", {"a", "b"}),
                                 {bytes(kU8, {2, 3}, std::vector<std::int32_t>(6, 1)), bytes(kU8, {4, 2}, std::vector<std::int32_t>(8, 1))});
  EXPECT_NE(e.find("MatMulInteger"), std::string::npos) << e;
}

}  // namespace
}  // namespace ec::runtime::test
