// UnrollRecurrent: LSTM and GRU unrolled over their static sequence
// (decompose/recurrent.cpp), for targets that have no sequence op: the Edge TPU maps
// the unrolled FULLY_CONNECTED, LOGISTIC, TANH, MUL and ADD once quantised, where a
// whole UNIDIRECTIONAL_SEQUENCE_LSTM would run on the host CPU in float. The float
// TFLite writer keeps an LSTM whole instead (LegaliseTflite).
#include <array>

#include "core/passes/decompose/decompose.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"layers_unrolled", "recurrent layers unrolled"},
    {"ops_made", "ops made"},
}};

class UnrollRecurrent final : public Pass {
 public:
  std::string_view name() const override { return "UnrollRecurrent"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Unrolls LSTM and GRU layers over their static sequence: one FullyConnected for every step's input, "
           "then per step FullyConnected on the state, Split, Sigmoid, Tanh, Mul and Add (Sub for GRU). For targets "
           "without sequence ops (the Edge TPU maps the unrolled ops once quantised). A layer it cannot unroll "
           "(non-default activations, clip, peepholes, partial sequences) is left, with a note.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    for (std::size_t i = g.ops.size(); i-- > 0;) {
      std::string why;
      const std::string name = g.ops[i].name;
      const std::size_t n = decompose::recurrent(g, i, &why);
      if (n > 0) {
        r.add("layers_unrolled");
        r.add("ops_made", static_cast<std::int64_t>(n));
      } else if (!why.empty()) {
        r.note(name, why);
      }
    }
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_unroll_recurrent_pass() { return std::make_unique<UnrollRecurrent>(); }

}  // namespace ec::passes
