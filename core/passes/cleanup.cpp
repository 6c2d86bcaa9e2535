// Cleanup: the cheap rewrites exported models need before anything else.
//   y = Identity(x)                 -> readers of y read x
//   y = Dropout(x) (inference)      -> readers of y read x (the mask must be unused)
//   y = Cast(x) {to = dtype(x)}     -> readers of y read x
//   y = Reshape(x, s), shape(y) == shape(x) (both static) -> readers of y read x
//   y = Pad(x, pads) with constant pads all 0 -> readers of y read x (exporters emit
//                                      these before AveragePool, densenet's for one)
//   Reshape(Reshape|Flatten|Squeeze|Unsqueeze(x), s) with no 0 in constant s
//                                   -> Reshape(x, s) (a 0 would copy a dim of the inner result)
#include <algorithm>
#include <array>
#include <optional>

#include "core/ir/algorithms.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 5> kStats{{
    {"identity_removed", "Identity removed"},
    {"dropout_removed", "Dropout removed"},
    {"cast_removed", "same-type Cast removed"},
    {"reshape_removed", "redundant Reshape removed"},
    {"pad_removed", "Pad of zeros removed"},
}};

bool is_reshape_like(ir::OpKind k) {
  return k == ir::OpKind::Reshape || k == ir::OpKind::Flatten || k == ir::OpKind::Squeeze ||
         k == ir::OpKind::Unsqueeze;
}

class Cleanup final : public Pass {
 public:
  std::string_view name() const override { return "Cleanup"; }
  std::string_view summary() const override { return find_pass("Cleanup")->summary; }
  std::string_view description() const override {
    return "Removes ops that only pass their input through: Identity, Dropout in inference "
           "(its mask unused), Cast to the type the input already has, and Reshape to the shape "
           "the input already has (both static), and Pad whose constant pads are all 0. A Reshape of a Reshape, Flatten, Squeeze or "
           "Unsqueeze reads the inner op's input directly when its constant target shape holds "
           "no 0; the inner op goes when nothing else reads it. Graph output names never change.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    // a join can make another possible (a Reshape of a Reshape of a Reshape): a few rounds
    PassResult r;
    for (int round = 0; round < 4; ++round) {
      const PassResult once = run_once(g);
      for (const auto& [key, n] : once.statistics) r.add(key, n);
      if (once.statistics.empty()) break;
    }
    return r;
  }

 private:
  PassResult run_once(ir::Graph& g) {
    PassResult r;
    using K = ir::OpKind;
    if (!has_op_kind(g, {K::Identity, K::Dropout, K::Cast, K::Reshape, K::Pad})) return r;
    // Producers and consumers are read for Dropout and Reshape only.
    std::optional<UseIndex> uses;
    if (has_op_kind(g, {K::Dropout, K::Reshape})) uses.emplace(g);
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      ir::Operation& op = g.ops[i];
      if (op.inputs.empty() || op.outputs.empty() || op.inputs[0].empty() || op.outputs[0].empty())
        continue;
      const std::string in = rw.resolve(op.inputs[0]);
      const std::string& out = op.outputs[0];
      switch (op.kind) {
        case ir::OpKind::Identity:
          if (rw.forward(out, in)) rw.erase(i), r.add("identity_removed");
          break;
        case ir::OpKind::Dropout: {
          const bool mask_used = op.outputs.size() > 1 && !op.outputs[1].empty() &&
                                 (!uses->consumers(op.outputs[1]).empty() || outputs.count(op.outputs[1]));
          if (mask_used || training(g, op)) break;
          if (rw.forward(out, in)) rw.erase(i), r.add("dropout_removed");
          break;
        }
        case ir::OpKind::Cast: {
          const ir::Tensor* x = g.find_tensor(in);
          const auto to = ir::dtype_from_name(op.attr_string("to", ""));
          if (x && to && x->dtype != ir::DType::Undefined && x->dtype == *to && rw.forward(out, in))
            rw.erase(i), r.add("cast_removed");
          break;
        }
        case ir::OpKind::Reshape: {
          const ir::Tensor *x = g.find_tensor(in), *y = g.find_tensor(out);
          if (x && y && x->shape.rank_known && x->shape.is_static() && x->shape == y->shape &&
              rw.forward(out, in)) {
            rw.erase(i), r.add("reshape_removed");
            break;
          }
          // Reshape of a reshape-like op: read the inner op's input.
          const auto p = uses->producer(in);
          if (p < 0 || rw.erased(static_cast<std::size_t>(p)) || op.inputs.size() < 2) break;
          const ir::Operation& inner = g.ops[static_cast<std::size_t>(p)];
          const ir::Tensor* s = find_constant(g, rw.resolve(op.inputs[1]));
          if (!is_reshape_like(inner.kind) || !s || inner.inputs.empty() || inner.inputs[0].empty())
            break;
          if (op.attr_int("allowzero", 0) != 0) break;
          bool has_zero = false;
          for (auto v : constant_value(*s).to_int64_vector()) has_zero |= v == 0;
          if (has_zero) break;
          op.inputs[0] = rw.resolve(inner.inputs[0]);
          if (uses->consumers(in).size() == 1 && !outputs.count(in)) {
            rw.erase(static_cast<std::size_t>(p));
            r.add("reshape_removed");
          }
          // joined, it may now keep the shape it reads: gone too
          if (const ir::Tensor* x0 = g.find_tensor(op.inputs[0]);
              x0 && y && x0->shape.rank_known && x0->shape.is_static() && x0->shape == y->shape && rw.forward(out, op.inputs[0]))
            rw.erase(i), r.add("reshape_removed");
          break;
        }
        case ir::OpKind::Pad: {
          // pads from the input (opset >= 11) or the attribute (older opsets)
          std::vector<std::int64_t> pads;
          if (op.inputs.size() > 1 && !op.inputs[1].empty()) {
            const ir::Tensor* p = find_constant(g, rw.resolve(op.inputs[1]));
            if (!p) break;
            pads = constant_value(*p).to_int64_vector();
          } else {
            pads = op.attr_ints("pads");
          }
          const bool zero = std::all_of(pads.begin(), pads.end(), [](std::int64_t v) { return v == 0; });
          if (zero && rw.forward(out, in)) rw.erase(i), r.add("pad_removed");
          break;
        }
        default:
          break;
      }
    }
    rw.commit();
    return r;
  }

  static bool training(const ir::Graph& g, const ir::Operation& op) {
    if (op.inputs.size() < 3 || op.inputs[2].empty()) return false;
    const ir::Tensor* t = find_constant(g, op.inputs[2]);
    if (!t) return true;  // decided at run time: leave it
    const auto v = constant_value(*t);
    return v.numel() != 1 || v.get_int(0) != 0;
  }
};

}  // namespace

std::unique_ptr<Pass> make_cleanup_pass() { return std::make_unique<Cleanup>(); }

}  // namespace ec::passes
