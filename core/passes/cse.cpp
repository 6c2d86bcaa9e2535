// CommonSubexpressionElimination: one forward sweep with a hash of
// (op kind, type, resolved inputs, attributes, outputs present). A repeat reads
// the first op's outputs instead. Small equal constants (same dtype, shape and
// bytes) are merged first, so ops over duplicate constants match too.
#include <array>
#include <string>
#include <unordered_map>

#include "core/passes/graph_diff.h"
#include "core/passes/pass.h"
#include "core/passes/pass_registry.h"
#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

constexpr std::array<StatisticSpec, 2> kStats{{
    {"ops_merged", "duplicate ops merged"},
    {"constants_merged", "duplicate constants merged"},
}};

constexpr std::size_t kMaxMergedConstantBytes = 4096;

bool has_state(ir::OpKind k) {
  switch (k) {
    case ir::OpKind::Unknown:
    case ir::OpKind::RandomNormal:
    case ir::OpKind::RandomUniform:
    case ir::OpKind::RandomNormalLike:
    case ir::OpKind::RandomUniformLike:
    case ir::OpKind::Multinomial:
    case ir::OpKind::Bernoulli:
      return true;
    default:
      return false;
  }
}

class CommonSubexpressionElimination final : public Pass {
 public:
  std::string_view name() const override { return "CommonSubexpressionElimination"; }
  std::string_view summary() const override { return find_pass(name())->summary; }
  std::string_view description() const override {
    return "Merges constants of at most 4 KiB with equal dtype, shape and bytes, then ops of the "
           "same kind with the same inputs and attributes: later copies are removed and their "
           "readers read the first. Random generators, unknown ops and ops with quantisation "
           "parameters are never merged.";
  }
  std::span<const StatisticSpec> statistics() const override { return kStats; }

  PassResult run(ir::Graph& g) override {
    PassResult r;
    const auto outputs = graph_output_set(g);
    GraphRewriter rw(g);
    {
      // Keys in one flat NameIndex (no allocation per key); first_constant[id] = the first name.
      NameIndex constant_keys(256);
      std::vector<const std::string*> first_constant;
      std::string key;
      for (const auto& [name, t] : g.tensors) {
        if (!t.is_constant() || t.quant || t.data->size() > kMaxMergedConstantBytes || outputs.count(name))
          continue;
        key.assign(ir::dtype_name(t.dtype));
        for (auto v : t.shape.sizes()) (key += ',') += std::to_string(v);
        key += '|';
        key.append(reinterpret_cast<const char*>(t.data->data()), t.data->size());
        const std::uint32_t id = constant_keys.intern(key);
        if (id == first_constant.size()) {
          first_constant.push_back(&name);
          continue;
        }
        if (rw.forward(name, *first_constant[id])) r.add("constants_merged");
      }
    }
    NameIndex op_keys(g.ops.size());
    std::vector<std::size_t> first_op;  // by key id
    std::string key;
    for (std::size_t i = 0; i < g.ops.size(); ++i) {
      const ir::Operation& op = g.ops[i];
      if (op.outputs.empty() || has_state(op.kind) || op.quant) continue;
      key = op.op_type;
      key += '(';
      for (const auto& in : op.inputs) (key += rw.resolve(in)) += '\x1f';
      key += ')';
      for (const auto& [k, v] : op.attributes) {
        (key += k) += '=';
        if (const auto* tv = std::get_if<ir::TensorValue>(&v))
          key.append(reinterpret_cast<const char*>(tv->data.data()), tv->data.size());
        key += format_attribute(v);
        key += '\x1f';
      }
      key += '>';
      for (const auto& o : op.outputs) key += o.empty() ? '0' : '1';
      const std::uint32_t id = op_keys.intern(key);
      if (id == first_op.size()) {
        first_op.push_back(i);
        continue;
      }
      const ir::Operation& first = g.ops[first_op[id]];
      bool ok = true;
      for (std::size_t k = 0; k < op.outputs.size() && ok; ++k)
        ok = op.outputs[k].empty() || rw.can_forward(op.outputs[k], first.outputs[k]);
      // Two graph outputs can only be merged one way (rename); keep it simple: at most one.
      std::size_t graph_outs = 0;
      for (const auto& o : op.outputs) graph_outs += outputs.count(o);
      if (!ok || graph_outs > 1) continue;
      for (std::size_t k = 0; k < op.outputs.size(); ++k)
        if (!op.outputs[k].empty()) rw.forward(op.outputs[k], first.outputs[k]);
      rw.erase(i);
      r.add("ops_merged");
    }
    rw.commit();
    return r;
  }
};

}  // namespace

std::unique_ptr<Pass> make_cse_pass() { return std::make_unique<CommonSubexpressionElimination>(); }

}  // namespace ec::passes
