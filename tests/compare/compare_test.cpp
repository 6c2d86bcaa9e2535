// core/compare and the runtime's observer (issue 42) on the bundled sample model:
// keep_intermediates computes every tensor the model names with the same outputs as the
// fast path; tensors pair by origin through a renamed NHWC copy; a pass that changes
// numerics (planted here) is named by compare_passes, the registry's passes are not.
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "core/compare/compare.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"
#include "core/runtime/session.h"

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
