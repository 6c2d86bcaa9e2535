// DeadCodeElimination: one backward sweep from the graph outputs. An op is live
// when a live tensor is among its outputs, or when it has no outputs at all
// (its effect is not a value). Constants and declared tensors nothing reads go too.
#include <array>
#include <unordered_set>

#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"ops_removed", "dead ops removed"},
    {"tensors_removed", "unused tensors removed"},
}};

class DeadCodeElimination final : public Pass {
 public:
  std::string_view name() const override { return "DeadCodeElimination"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Removes every op whose outputs no graph output depends on (ops without outputs are "
           "kept), then every tensor no op, graph input or graph output mentions: constants "
           "orphaned by folding and fusion, and stale declarations. Graph inputs always stay.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    NameIndex live(expected_names(g));
    for (const auto& o : g.outputs) live.intern(o);
    std::vector<bool> keep(g.ops.size(), false);
    for (std::size_t k = g.ops.size(); k-- > 0;) {
      const ir::Operation& op = g.ops[k];
      bool is_live = op.outputs.empty();
      for (const auto& o : op.outputs) is_live |= !o.empty() && live.contains(o);
      if (!is_live) continue;
      keep[k] = true;
      for (const auto& in : op.inputs)
        if (!in.empty()) live.intern(in);
    }
    std::size_t w = 0;  // compacted in place: ops only move towards the front
    for (std::size_t k = 0; k < g.ops.size(); ++k)
      if (keep[k]) {
        if (w != k) g.ops[w] = std::move(g.ops[k]);
        ++w;
      }
    r.add("ops_removed", static_cast<std::int64_t>(g.ops.size() - w));
    g.ops.erase(g.ops.begin() + static_cast<std::ptrdiff_t>(w), g.ops.end());

    NameIndex referenced(expected_names(g));
    for (const auto& n : g.inputs) referenced.intern(n);
    for (const auto& n : g.outputs) referenced.intern(n);
    for (const auto& op : g.ops) {
      for (const auto& n : op.inputs) referenced.intern(n);
      for (const auto& n : op.outputs) referenced.intern(n);
    }
    std::int64_t dropped = 0;
    for (auto it = g.tensors.begin(); it != g.tensors.end();) {
      if (referenced.contains(it->first)) {
        ++it;
      } else {
        it = g.tensors.erase(it);
        ++dropped;
      }
    }
    r.add("tensors_removed", dropped);
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_dce_pass() { return std::make_unique<DeadCodeElimination>(); }

}  // namespace ec::passes
