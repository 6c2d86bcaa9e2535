// The fast f32 RNN/GRU/LSTM path (sequence GEMM + vectorised steps) against the
// double-precision reference loops, on random configurations: directions,
// layouts, batch, sequence lengths, initial states, peepholes, clip,
// input_forget, linear_before_reset, odd sizes, under every ISA.
#include <gtest/gtest.h>

#include <random>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/recurrent.h"
#include "core/runtime/thread_pool.h"
#include "tests/runtime/test_util.h"

namespace ec::runtime::test {
namespace {

using kernels::RecurrentCell;

Tensor random_tensor(std::mt19937& rng, std::vector<std::int64_t> shape, float scale = 1.f) {
  Tensor t(ir::DType::Float32, shape);
  std::uniform_real_distribution<float> d(-scale, scale);
  float* p = t.mutable_data<float>();
  for (std::int64_t i = 0; i < t.numel(); ++i) p[i] = d(rng);
  return t;
}

TEST(FastRecurrent, MatchesReferenceOnRandomConfigurations) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::int64_t(std::uniform_int_distribution<int>(lo, hi)(rng)); };
  const gemm::Isa saved = gemm::active_isa();
  int compared = 0;
  for (int trial = 0; trial < 240; ++trial) {
    const auto cell = static_cast<RecurrentCell>(trial % 3);
    const char* type = cell == RecurrentCell::Lstm ? "LSTM" : cell == RecurrentCell::Gru ? "GRU" : "RNN";
    const int G = cell == RecurrentCell::Lstm ? 4 : cell == RecurrentCell::Gru ? 3 : 1;
    const char* directions[] = {"forward", "reverse", "bidirectional"};
    const std::string direction = directions[pick(0, 2)];
    const std::int64_t dirs = direction == "bidirectional" ? 2 : 1;
    const bool layout1 = pick(0, 1) == 1;
    const std::int64_t S = pick(1, 9), Bt = pick(1, 3), I = pick(1, 40), H = pick(1, 70);
    std::map<std::string, ir::Attribute> attrs{{"hidden_size", H}, {"direction", direction},
                                               {"layout", std::int64_t(layout1)}};
    if (pick(0, 3) == 0) attrs["clip"] = 0.5 + 2.0 * double(pick(0, 4)) / 4;
    if (cell == RecurrentCell::Gru && pick(0, 1)) attrs["linear_before_reset"] = std::int64_t(1);
    if (cell == RecurrentCell::Lstm && pick(0, 4) == 0) attrs["input_forget"] = std::int64_t(1);
    std::vector<Tensor> in(8);
    in[0] = random_tensor(rng, layout1 ? std::vector<std::int64_t>{Bt, S, I} : std::vector<std::int64_t>{S, Bt, I}, 2.f);
    in[1] = random_tensor(rng, {dirs, G * H, I}, 0.5f);
    in[2] = random_tensor(rng, {dirs, G * H, H}, 0.5f);
    if (pick(0, 3)) in[3] = random_tensor(rng, {dirs, 2 * G * H});
    if (pick(0, 2) == 0) {
      std::vector<std::int32_t> lens;
      for (std::int64_t b = 0; b < Bt; ++b) lens.push_back(static_cast<std::int32_t>(pick(0, static_cast<int>(S))));
      in[4] = Tensor::from_values(ir::DType::Int32, {Bt}, lens);
    }
    const std::vector<std::int64_t> state = layout1 ? std::vector<std::int64_t>{Bt, dirs, H} : std::vector<std::int64_t>{dirs, Bt, H};
    if (pick(0, 1)) in[5] = random_tensor(rng, state);
    if (cell == RecurrentCell::Lstm) {
      if (pick(0, 1)) in[6] = random_tensor(rng, state);
      if (pick(0, 1)) in[7] = random_tensor(rng, {dirs, 3 * H});
    }
    std::size_t used = cell == RecurrentCell::Lstm ? 8 : 6;
    while (used > 3 && !in[used - 1].defined()) --used;
    in.resize(used);
    std::vector<std::string> names{"X", "W", "R", "B", "L", "H0", "C0", "P"};
    names.resize(used);
    auto op = make_op(type, names, {"Y", "YH", "YC"}, attrs);
    const auto ref = kernels::recurrent_reference(op, in, cell);
    for (gemm::Isa isa : gemm::supported_isas()) {
      ASSERT_TRUE(gemm::force_isa(isa));
      const auto fast = kernels::recurrent(op, in, cell);
      ASSERT_EQ(fast.size(), ref.size());
      for (std::size_t o = 0; o < ref.size(); ++o) {
        ASSERT_EQ(fast[o].shape(), ref[o].shape());
        const auto a = fast[o].to_float_vector(), b = ref[o].to_float_vector();
        for (std::size_t i = 0; i < a.size(); ++i)
          ASSERT_NEAR(a[i], b[i], 2e-5f) << type << " " << direction << " layout " << layout1 << " S " << S << " B " << Bt
                                         << " I " << I << " H " << H << " output " << o << " element " << i << " isa "
                                         << gemm::isa_name(isa);
      }
      ++compared;
    }
  }
  gemm::force_isa(saved);
  EXPECT_GE(compared, 240);
}

// Wide cells (several chunks of units per step) on a pool of three threads, which share
// each step's chunks: every cell, both GRU forms, peepholes, clip, every ISA; the same
// results as on one thread, bit for bit, and the reference's within tolerance.
TEST(FastRecurrent, ThreadsShareTheStepsOfWideCells) {
  std::mt19937 rng(5);
  ThreadPool pool(3);
  const gemm::Isa saved = gemm::active_isa();
  int compared = 0;
  const std::int64_t hidden[] = {65, 130, 200, 64, 17};
  for (int trial = 0; trial < 15; ++trial) {
    const auto cell = static_cast<RecurrentCell>(trial % 3);
    const char* type = cell == RecurrentCell::Lstm  ? "LSTM"
                       : cell == RecurrentCell::Gru ? "GRU"
                                                    : "RNN";
    const int G = cell == RecurrentCell::Lstm ? 4 : cell == RecurrentCell::Gru ? 3 : 1;
    const std::int64_t H = hidden[trial / 3], S = 12, I = 24, dirs = trial % 2 ? 2 : 1;
    std::map<std::string, ir::Attribute> attrs{
        {"hidden_size", H}, {"direction", std::string(dirs == 2 ? "bidirectional" : "forward")}};
    if (trial % 4 == 1) attrs["clip"] = 1.5;
    if (cell == RecurrentCell::Gru && trial % 2 == 0)
      attrs["linear_before_reset"] = std::int64_t(1);
    std::vector<Tensor> in{
        random_tensor(rng, {S, 2, I}, 2.f), random_tensor(rng, {dirs, G * H, I}, 0.3f),
        random_tensor(rng, {dirs, G * H, H}, 0.3f), random_tensor(rng, {dirs, 2 * G * H})};
    std::vector<std::string> names{"X", "W", "R", "B"};
    if (cell == RecurrentCell::Lstm) {
      in.push_back(Tensor::from_values(ir::DType::Int32, {2}, std::vector<std::int32_t>{12, 7}));
      in.push_back(random_tensor(rng, {dirs, 2, H}));
      in.push_back(random_tensor(rng, {dirs, 2, H}));
      in.push_back(random_tensor(rng, {dirs, 3 * H}));
      names.insert(names.end(), {"L", "H0", "C0", "P"});
    }
    auto op = make_op(type, names, {"Y", "YH", "YC"}, attrs);
    const auto ref = kernels::recurrent_reference(op, in, cell);
    for (gemm::Isa isa : gemm::supported_isas()) {
      ASSERT_TRUE(gemm::force_isa(isa));
      const auto one = kernels::recurrent(op, in, cell);
      std::vector<Tensor> three;
      {
        PoolScope scope(&pool);
        three = kernels::recurrent(op, in, cell);
      }
      ASSERT_EQ(three.size(), ref.size());
      for (std::size_t o = 0; o < ref.size(); ++o) {
        const auto a = three[o].to_float_vector(), b = ref[o].to_float_vector();
        EXPECT_EQ(a, one[o].to_float_vector()) << type << " H " << H << " output " << o;
        for (std::size_t i = 0; i < a.size(); ++i)
          ASSERT_NEAR(a[i], b[i], 2e-5f) << type << " H " << H << " output " << o << " element "
                                         << i << " isa " << gemm::isa_name(isa);
      }
      ++compared;
    }
  }
  gemm::force_isa(saved);
  EXPECT_GE(compared, 15);
}

// Non-default activations keep the reference loops: the kernel must still give them.
TEST(FastRecurrent, OtherActivationsStillRun) {
  std::mt19937 rng(2);
  auto op = make_op("GRU", {"X", "W", "R"}, {"Y", "YH"},
                    {{"hidden_size", std::int64_t(5)},
                     {"activations", std::vector<std::string>{"HardSigmoid", "Relu"}}});
  std::vector<Tensor> in{random_tensor(rng, {4, 1, 3}), random_tensor(rng, {1, 15, 3}), random_tensor(rng, {1, 15, 5})};
  const auto a = kernels::recurrent(op, in, RecurrentCell::Gru), b = kernels::recurrent_reference(op, in, RecurrentCell::Gru);
  EXPECT_EQ(a[0].to_float_vector(), b[0].to_float_vector());
}

}  // namespace
}  // namespace ec::runtime::test
