// PinBatch: the batch of one that fixed-shape targets run.
//   input x: [batch, ...] (a symbolic leading dim)  -> [1, ...]; every tensor whose dim is
//   that symbol or a product with it ("4*batch") gets the number.
// Run first in a fixed-shape target's pipeline, so the rewrites that need static shapes
// (1-D ops as 2-D ones, 3-D convolutions over frames, grouped convolutions) see them
// before quantisation, as they do in `convert` (which pins every dynamic input dim).
#include <array>
#include <set>

#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"

namespace ec::passes {

std::size_t pin_batch(ir::Graph& graph) {
  std::set<std::string> batch_dims;
  for (const auto& in : graph.inputs)
    if (const auto* t = graph.find_tensor(in); t && t->shape.rank_known && t->shape.rank() > 0 &&
                                                !t->shape.dims[0].is_static() && !t->shape.dims[0].symbol.empty())
      batch_dims.insert(t->shape.dims[0].symbol);
  if (batch_dims.empty()) return 0;
  std::vector<std::string> names;
  for (const auto& op : graph.ops) {
    names.insert(names.end(), op.inputs.begin(), op.inputs.end());
    names.insert(names.end(), op.outputs.begin(), op.outputs.end());
  }
  names.insert(names.end(), graph.inputs.begin(), graph.inputs.end());
  std::size_t pinned = 0;
  for (const auto& n : names)
    if (auto* t = n.empty() ? nullptr : graph.find_tensor(n))
      for (auto& d : t->shape.dims)
        if (!d.is_static() && !d.symbol.empty()) {
          // "batch" -> 1; a monomial of the shape inference such as "4*batch" -> 4
          std::int64_t v = 1;
          bool ok = true;
          std::size_t start = 0;
          while (ok && start <= d.symbol.size()) {
            const auto end = std::min(d.symbol.find('*', start), d.symbol.size());
            const std::string f = d.symbol.substr(start, end - start);
            if (!batch_dims.count(f)) {
              try {
                std::size_t used = 0;
                v *= std::stoll(f, &used);
                ok = used == f.size();
              } catch (...) {
                ok = false;
              }
            }
            start = end + 1;
          }
          if (ok) {
            d = ir::Dim::fixed(v);
            ++pinned;
          }
        }
  return pinned;
}

namespace {

constexpr std::array<StatisticSpec, 1> kStats{{{"dims_pinned", "batch dims fixed"}}};

class PinBatch final : public Pass {
 public:
  std::string_view name() const override { return "PinBatch"; }
  std::string_view summary() const override { return find_pass("PinBatch")->summary; }
  std::string_view description() const override {
    return "Fixes the symbolic batch dimension of the graph's inputs (their leading dim) to 1, and every "
           "dim the shape inference derived from it (\"4*batch\" -> 4), as a target that runs fixed "
           "shapes (the Edge TPU) runs the model. Runs first in such a target's pipeline, so the "
           "rewrites that need static shapes see them before quantisation. Other dynamic dims stay.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    if (const std::size_t n = pin_batch(g)) r.add("dims_pinned", static_cast<std::int64_t>(n));
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_pin_batch_pass() { return std::make_unique<PinBatch>(); }

}  // namespace ec::passes
