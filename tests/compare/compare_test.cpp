// core/compare and the runtime's observer (issue 42) on the bundled sample model:
// keep_intermediates computes every tensor the model names with the same outputs as the
// fast path; tensors pair by origin through a renamed NHWC copy; a pass that changes
// numerics (planted here) is named by compare_passes, the registry's passes are not.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "core/compare/compare.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"
#include "core/ir/text_format.h"
#include "core/runtime/fp16_simulation.h"
#include "core/session/session.h"

namespace {

ec::ir::FrozenGraph sample() { return ec::ir::freeze(ec::frontends::open_model(EC_SAMPLE_MODEL)); }

TEST(Observer, KeepIntermediatesSeesEveryTensorWithTheSameOutputs) {
  const auto g = sample();
  ec::runtime::InferenceSession fast;
  fast.load(g);
  ec::runtime::SessionOptions o;
  o.keep_intermediates = true;
  ec::runtime::InferenceSession slow(o);
  slow.load(g);
  const auto inputs = fast.random_inputs(1);
  std::vector<std::string> seen;
  const auto a = fast.run(inputs);
  const auto b = slow.run(inputs, [&](const ec::ir::Operation&, std::size_t, const std::string& n,
                                      const ec::runtime::Tensor& v) {
    EXPECT_TRUE(v.defined()) << n;
    seen.push_back(n);
  });
  std::set<std::string> want;
  for (const auto& op : g->ops)
    for (const auto& n : op.outputs)
      if (!n.empty()) want.insert(n);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()), want);
  EXPECT_EQ(seen.size(), want.size()) << "each tensor once";
  for (const auto& [name, t] : a) {
    const auto x = t.to_float_vector(), y = b.at(name).to_float_vector();
    ASSERT_EQ(x.size(), y.size());
    float ref = 0, diff = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      ref = std::max(ref, std::fabs(x[i]));
      diff = std::max(diff, std::fabs(x[i] - y[i]));
    }
    EXPECT_LE(diff, 1e-5f * ref) << name;
  }
  // The fast path is untouched: no observer, the fused graph.
  EXPECT_GT(fast.fused_activations() + fast.fused_pattern_ops() + fast.channels_last_ops(), 0);
  EXPECT_EQ(slow.fused_activations() + slow.fused_pattern_ops() + slow.channels_last_ops(), 0);
}

TEST(Match, ByOriginThroughRenamedTensors) {
  const auto g = sample();
  ec::ir::Graph renamed = *g;
  // Rename every op output X to X.nhwc (inputs and outputs of the graph stay).
  std::map<std::string, std::string> to;
  const std::set<std::string> outs(renamed.outputs.begin(), renamed.outputs.end());
  for (auto& op : renamed.ops)
    for (auto& n : op.outputs)
      if (!n.empty() && !outs.count(n)) to[n] = n + ".nhwc";
  for (auto& op : renamed.ops) {
    for (auto& n : op.inputs)
      if (to.count(n)) n = to[n];
    for (auto& n : op.outputs)
      if (to.count(n)) n = to[n];
  }
  for (const auto& [from, name] : to) {
    ec::ir::Tensor t = *renamed.find_tensor(from);
    t.name = name;
    renamed.add_tensor(std::move(t));
  }
  const auto matches = ec::compare::match_tensors(*g, renamed);
  std::size_t origin = 0;
  for (const auto& m : matches) {
    if (m.by == ec::compare::MatchedBy::Origin) {
      ++origin;
      EXPECT_EQ(m.b, m.a + ".nhwc");
    }
  }
  EXPECT_EQ(origin, to.size());
  const auto r = ec::compare::compare_models(g, ec::ir::freeze(std::move(renamed)), ec::compare::random_samples(*g, 1));
  for (const auto& t : r.tensors) EXPECT_TRUE(t.compared && t.exact) << t.a;
}

// A pass that scales the first Conv's first weight by 1.01: a change beyond float noise.
class PlantedPass : public ec::passes::Pass {
 public:
  std::string_view name() const override { return "Planted"; }
  std::string_view summary() const override { return "changes one weight"; }
  std::string_view description() const override { return "test"; }
  std::span<const ec::passes::StatisticSpec> statistics() const override { return {}; }
  ec::passes::PassResult run(ec::ir::Graph& g) override {
    for (auto& op : g.ops) {
      if (op.kind != ec::ir::OpKind::Conv) continue;
      ec::ir::Tensor* w = g.find_tensor(op.inputs[1]);
      std::vector<float> v(w->data->as<float>().begin(), w->data->as<float>().end());
      v[0] = v[0] * 1.01f + 0.05f;
      ec::ir::Tensor copy = *w;
      copy.name = w->name + ".planted";
      copy.data = ec::ir::ConstantData::copy_of(v.data(), v.size() * sizeof(float));
      op.inputs[1] = copy.name;
      g.add_tensor(std::move(copy));
      break;
    }
    return {};
  }
};

TEST(Passes, APlantedNumericsChangeIsNamedTheRegistrysPassesAreNot) {
  const auto g = sample();
  const auto samples = ec::compare::random_samples(*g, 2);
  std::vector<std::unique_ptr<ec::passes::Pass>> pipeline;
  for (const auto& n : ec::passes::default_pipeline()) pipeline.push_back(ec::passes::make_pass(n));
  pipeline.insert(pipeline.begin() + 3, std::make_unique<PlantedPass>());
  const auto r = ec::compare::compare_passes(*g, std::move(pipeline), samples);
  ASSERT_TRUE(r.first_beyond_noise.has_value());
  EXPECT_EQ(r.stages[*r.first_beyond_noise].pass, "Planted");
  std::size_t beyond = 0;
  for (const auto& s : r.stages) beyond += s.beyond_noise;
  EXPECT_EQ(beyond, 1u) << "only the planted pass";
  EXPECT_EQ(r.graphs.size(), r.stages.size() + 1);
  const auto plain = ec::compare::compare_passes(*g, ec::passes::default_pipeline(), samples);
  EXPECT_FALSE(plain.first_beyond_noise.has_value());
}

}  // namespace

namespace {

// An op whose attributes differ on the two sides (here the Softmax's axis) is reported as
// changed, by key; restating an attribute's schema default (a Conv's layout) is no change.
TEST(Match, ChangedAttributesAreNamedByKey) {
  const auto g = sample();
  ec::ir::Graph edited = *g;
  std::string conv, softmax;
  for (auto& op : edited.ops) {
    if (op.kind == ec::ir::OpKind::Conv && conv.empty()) {
      op.attributes["layout"] = std::string("NCHW");
      conv = op.name;
    }
    if (op.kind == ec::ir::OpKind::Softmax) {
      op.attributes["axis"] = std::int64_t{0};
      softmax = op.name;
    }
  }
  ASSERT_FALSE(conv.empty());
  ASSERT_FALSE(softmax.empty());
  const auto r = ec::compare::compare_models(g, ec::ir::freeze(std::move(edited)), ec::compare::random_samples(*g, 1));
  bool seen = false;
  for (const auto& t : r.tensors) {
    if (t.a_op == softmax) {
      seen = true;
      EXPECT_EQ(t.changed_attributes, std::vector<std::string>{"axis"});
    } else {
      EXPECT_TRUE(t.changed_attributes.empty()) << t.a_op << ": " << t.changed_attributes.front();
    }
  }
  EXPECT_TRUE(seen);
  EXPECT_NE(ec::compare::to_text(r).find("ops with changed attributes: 1"), std::string::npos) << ec::compare::to_text(r);
}

}  // namespace

// ---- fp16 simulation and fusion-aware pairing (issue 42, second round) ----------------

namespace {

float bits_to_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
std::uint32_t float_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

// round_to_half: ties to even, subnormal halves, overflow to inf, NaN kept; the F16C path
// (when this CPU has it) equal to the scalar one bit for bit.
TEST(Fp16, RoundingToHalf) {
  using ec::runtime::round_to_half;
  EXPECT_EQ(round_to_half(1.0f), 1.0f);
  // ties to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10 (mantissa 0, even) -> 1;
  // 1 + 3 * 2^-11 halfway between 1 + 2^-10 (odd) and 1 + 2^-9 (even) -> 1 + 2^-9
  EXPECT_EQ(round_to_half(1.0f + std::ldexp(1.0f, -11)), 1.0f);
  EXPECT_EQ(round_to_half(1.0f + 3 * std::ldexp(1.0f, -11)), 1.0f + std::ldexp(1.0f, -9));
  EXPECT_EQ(round_to_half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 1.0f + std::ldexp(1.0f, -10));
  EXPECT_EQ(round_to_half(2049.0f), 2048.0f);  // halfway (ulp 2 there), to even
  EXPECT_EQ(round_to_half(2051.0f), 2052.0f);
  // subnormal halves: multiples of 2^-24
  const float tiny = std::ldexp(1.0f, -24);
  EXPECT_EQ(round_to_half(tiny), tiny);
  EXPECT_EQ(round_to_half(3 * tiny), 3 * tiny);
  EXPECT_EQ(round_to_half(0.5f * tiny), 0.0f);         // halfway to 0 (even)
  EXPECT_EQ(round_to_half(0.75f * tiny), tiny);
  EXPECT_EQ(round_to_half(2.5f * tiny), 2 * tiny);     // tie to even among subnormals
  EXPECT_EQ(round_to_half(1023.5f * tiny), 1024 * tiny);  // up into the smallest normal
  EXPECT_TRUE(std::signbit(round_to_half(-0.25f * tiny)));  // -0 keeps its sign
  // range: 65504 the largest half; 65520 (halfway to 65536) and beyond overflow to inf
  EXPECT_EQ(round_to_half(65504.0f), 65504.0f);
  EXPECT_EQ(round_to_half(65519.0f), 65504.0f);
  EXPECT_EQ(round_to_half(65520.0f), INFINITY);
  EXPECT_EQ(round_to_half(-1e6f), -INFINITY);
  EXPECT_EQ(round_to_half(INFINITY), INFINITY);
  EXPECT_TRUE(std::isnan(round_to_half(NAN)));
  EXPECT_TRUE(std::isnan(round_to_half(-NAN)));
  // the vector path: every 2^13-th bit pattern (all exponents, NaNs and infinities
  // included) plus the neighbours of each, against the scalar form
  std::vector<float> in;
  for (std::uint64_t b = 0; b <= 0xffffffffull; b += 8191) {
    in.push_back(bits_to_float(static_cast<std::uint32_t>(b)));
    in.push_back(bits_to_float(static_cast<std::uint32_t>(b) | 0xfffu));  // just below a tie
    in.push_back(bits_to_float((static_cast<std::uint32_t>(b) & ~0x1fffu) | 0x1000u));  // a tie
  }
  std::vector<float> out(in.size());
  ec::runtime::round_to_half(in.data(), out.data(), in.size());
  std::size_t differ = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float want = round_to_half(in[i]);
    if (std::isnan(want) ? !std::isnan(out[i]) : float_bits(want) != float_bits(out[i])) ++differ;
  }
  EXPECT_EQ(differ, 0u) << "F16C: " << ec::runtime::round_to_half_uses_f16c();
  // in place
  std::vector<float> same = in;
  ec::runtime::round_to_half(same.data(), same.data(), same.size());
  for (std::size_t i = 0; i < in.size(); i += 97)
    if (!std::isnan(out[i])) {
      ASSERT_EQ(float_bits(same[i]), float_bits(out[i]));
    }
}

// A session with simulate_fp16: every float tensor it computes is a half value, int
// tensors are untouched, the caller's input is not changed, and the outputs differ from
// the f32 run by fp16 rounding (about 1e-3 relative).
TEST(Fp16, SimulatedSessionRoundsEveryFloatTensor) {
  const auto g = sample();
  ec::runtime::SessionOptions o;
  o.keep_intermediates = true;
  ec::runtime::InferenceSession f32(o);
  o.simulate_fp16 = true;
  ec::runtime::InferenceSession f16(o);
  f32.load(g);
  f16.load(g);
  const auto inputs = f32.random_inputs(3);
  const auto before = inputs.begin()->second.to_float_vector();
  std::size_t tensors = 0, not_half = 0;
  const auto y16 = f16.run(inputs, [&](const ec::ir::Operation&, std::size_t, const std::string&, const ec::runtime::Tensor& v) {
    if (v.dtype() != ec::ir::DType::Float32) return;
    ++tensors;
    for (float x : v.values<float>())
      if (!std::isnan(x) && ec::runtime::round_to_half(x) != x) ++not_half;
  });
  EXPECT_GT(tensors, 10u);
  EXPECT_EQ(not_half, 0u);
  EXPECT_EQ(inputs.begin()->second.to_float_vector(), before) << "the caller's input is not rounded in place";
  const auto y32 = f32.run(inputs);
  for (const auto& [name, t] : y32) {
    const auto x = t.to_float_vector(), y = y16.at(name).to_float_vector();
    float ref = 0, diff = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      ref = std::max(ref, std::fabs(x[i]));
      diff = std::max(diff, std::fabs(x[i] - y[i]));
    }
    EXPECT_GT(diff, 1e-5f * ref) << name << ": fp16 changes the result";
    EXPECT_LT(diff, 2e-2f * ref) << name << ": by fp16 rounding only";
  }
  // int tensors pass unchanged: Cast f32 -> i32 -> f32 of values that are not halves
  const ec::ir::Graph ints = ec::ir::parse(
      "graph \"ints\" {\n"
      "  input %x : f32[4]\n"
      "  %i = Cast(%x) {to = 6} : i32[4] @\"to_int\"\n"
      "  %s = Add(%i, %i) : i32[4] @\"add\"\n"
      "  output %s\n}\n");
  ec::runtime::InferenceSession si(o);
  si.load(ec::ir::freeze(ec::ir::Graph(ints)));
  std::map<std::string, ec::runtime::Tensor> xin{
      {"x", ec::runtime::Tensor::from_values<float>(ec::ir::DType::Float32, {4}, {2049.f, 4097.f, -3.f, 7.f})}};
  const auto s = si.run(xin).at("s");
  // the f32 input is rounded at the boundary (2049 -> 2048, 4097 -> 4096), the int
  // arithmetic after the Cast exact
  EXPECT_EQ(s.get_int(0), 4096);
  EXPECT_EQ(s.get_int(1), 8192);
  EXPECT_EQ(s.get_int(2), -6);
  EXPECT_EQ(s.get_int(3), 14);
}

// The sample with its Conv + BatchNormalization folded (OpFusion) and every tensor renamed
// so that names say nothing: graph position alone must pair each folded Conv's output with
// the BatchNormalization's (the chain's last tensor), report the unfolded Convs as fused,
// and find no divergence.
TEST(Match, FoldedChainsPairWithTheirLastTensor) {
  const auto g = sample();
  ec::ir::Graph folded = *g;
  ec::passes::make_cleanup_pass()->run(folded);
  ec::passes::make_op_fusion_pass()->run(folded);
  ASSERT_LT(folded.ops.size(), g->ops.size());
  std::map<std::string, std::string> to;
  const std::set<std::string> keep(folded.outputs.begin(), folded.outputs.end());
  int k = 0;
  for (auto& op : folded.ops) {
    op.name = "op" + std::to_string(k);
    for (auto& n : op.outputs)
      if (!n.empty() && !keep.count(n)) to[n] = "t" + std::to_string(k++);
  }
  for (auto& op : folded.ops) {
    for (auto& n : op.inputs)
      if (to.count(n)) n = to[n];
    for (auto& n : op.outputs)
      if (to.count(n)) n = to[n];
  }
  for (const auto& [from, name] : to) {
    ec::ir::Tensor t = *folded.find_tensor(from);
    t.name = name;
    folded.add_tensor(std::move(t));
  }
  const auto fb = ec::ir::freeze(std::move(folded));
  const auto r = ec::compare::compare_models(g, fb, ec::compare::random_samples(*g, 1));
  std::set<std::string> conv_outputs, bn_outputs;
  for (const auto& op : g->ops) {
    if (op.op_type == "Conv") conv_outputs.insert(op.outputs[0]);
    if (op.op_type == "BatchNormalization") bn_outputs.insert(op.outputs[0]);
  }
  std::size_t bn_paired = 0;
  for (const auto& t : r.tensors) {
    EXPECT_FALSE(conv_outputs.count(t.a)) << t.a << " (before its BatchNormalization) paired with " << t.b;
    bn_paired += bn_outputs.count(t.a) && t.b_op_type == "Conv";
    EXPECT_TRUE(t.compared) << t.a << ": " << t.skipped;
    EXPECT_LT(t.max_rel_error, 1e-4) << t.a;
  }
  EXPECT_EQ(bn_paired, bn_outputs.size());
  std::size_t fused = 0;
  for (const auto& u : r.unmatched) fused += u.side == 'a' && u.status == "fused" && u.op_type == "Conv";
  EXPECT_EQ(fused, conv_outputs.size());
  EXPECT_FALSE(r.first_divergence.has_value()) << r.tensors[*r.first_divergence].a;
}

// Shapes that cannot correspond are never paired, whatever the names say.
TEST(Match, ShapesThatDifferAreNeverPaired) {
  const ec::ir::Graph a = ec::ir::parse(
      "graph \"a\" {\n  input %x : f32[1,4]\n  %y = Relu(%x) : f32[1,4] @\"r\"\n"
      "  %z = Concat(%y, %y) {axis = 1} : f32[1,8] @\"c\"\n  output %z\n}\n");
  const ec::ir::Graph b = ec::ir::parse(
      "graph \"b\" {\n  input %x : f32[1,4]\n  %y = Concat(%x, %x) {axis = 1} : f32[1,8] @\"c\"\n"
      "  %z = Relu(%y) : f32[1,8] @\"r\"\n  output %z\n}\n");
  for (const auto& m : ec::compare::match_tensors(a, b)) EXPECT_NE(m.a, "y") << "y is [1,4] in A, [1,8] in B";
}

}  // namespace
