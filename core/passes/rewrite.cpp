#include "core/passes/rewrite.h"

#include <algorithm>
#include <cassert>

namespace ec::passes {

GraphRewriter::GraphRewriter(ir::Graph& g)
    : g_(g), erased_(g.ops.size(), false),
      graph_inputs_(g.inputs.begin(), g.inputs.end()),
      graph_outputs_(g.outputs.begin(), g.outputs.end()) {
  for (const auto& op : g.ops)
    for (const auto& o : op.outputs)
      if (!o.empty()) produced_.insert(o);
}

const std::string& GraphRewriter::resolve(const std::string& t) const {
  auto it = alias_.find(t);
  return it == alias_.end() ? t : it->second;  // aliases are stored resolved
}

bool GraphRewriter::can_forward(const std::string& from, const std::string& to) const {
  const std::string& target = resolve(to);
  if (from == target) return false;
  if (!graph_outputs_.count(from)) return true;
  // `from` is a graph output: its name must survive, so rename the producer of `target`.
  return produced_.count(target) && !graph_outputs_.count(target) &&
         !graph_inputs_.count(target) && !rename_.count(target);
}

bool GraphRewriter::forward(const std::string& from, const std::string& to) {
  if (!can_forward(from, to)) return false;
  const std::string target = resolve(to);
  touched_.push_back(from);
  if (!graph_outputs_.count(from)) {
    alias_[from] = target;
    // Earlier aliases pointing at `from` must now point at `target` (keep them resolved).
    // Forwards happen in op order, so nothing aliases to `from` yet except through
    // renames, which commit() applies after aliases.
    return true;
  }
  rename_[target] = from;
  touched_.push_back(target);
  return true;
}

void GraphRewriter::erase(std::size_t index) {
  assert(index < erased_.size());
  if (erased_[index]) return;
  erased_[index] = true;
  for (const auto& in : g_.ops[index].inputs)
    if (!in.empty()) touched_.push_back(in);
  for (const auto& out : g_.ops[index].outputs)
    if (!out.empty()) touched_.push_back(out);
}

std::size_t GraphRewriter::commit() {
  auto map_name = [&](std::string& n) {
    if (n.empty()) return;
    for (std::size_t hops = 0; hops <= alias_.size(); ++hops) {  // aliases may chain
      auto a = alias_.find(n);
      if (a == alias_.end()) break;
      n = a->second;
    }
    auto r = rename_.find(n);
    if (r != rename_.end()) n = r->second;
  };
  std::size_t removed = 0;
  std::vector<ir::Operation> kept;
  kept.reserve(g_.ops.size());
  for (std::size_t i = 0; i < g_.ops.size(); ++i) {
    if (erased_[i]) {
      ++removed;
      continue;
    }
    ir::Operation& op = g_.ops[i];
    for (auto& in : op.inputs) map_name(in);
    for (auto& out : op.outputs) map_name(out);
    kept.push_back(std::move(op));
  }
  g_.ops = std::move(kept);
  if (!touched_.empty()) {
    std::unordered_set<std::string> referenced(g_.inputs.begin(), g_.inputs.end());
    referenced.insert(g_.outputs.begin(), g_.outputs.end());
    for (const auto& op : g_.ops) {
      referenced.insert(op.inputs.begin(), op.inputs.end());
      referenced.insert(op.outputs.begin(), op.outputs.end());
    }
    for (const auto& t : touched_)
      if (!referenced.count(t)) g_.tensors.erase(t);
  }
  erased_.assign(g_.ops.size(), false);
  alias_.clear();
  rename_.clear();
  touched_.clear();
  return removed;
}

const ir::Tensor* find_constant(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return nullptr;
  const ir::Tensor* t = g.find_tensor(name);
  return t && t->is_constant() ? t : nullptr;
}

runtime::Tensor constant_value(const ir::Tensor& t) {
  return runtime::Tensor::from_constant(t.dtype, t.shape.sizes(), *t.data);
}

void assign_constant(ir::Tensor& t, const runtime::Tensor& value) {
  t.dtype = value.dtype();
  t.shape = ir::Shape::of(value.shape());
  t.data = ir::ConstantData::copy_of(value.raw(), value.nbytes());
}

std::string fresh_tensor_name(const ir::Graph& g, const std::string& base) {
  if (!g.tensors.count(base)) return base;
  for (std::size_t i = 1;; ++i) {
    std::string n = base + "_" + std::to_string(i);
    if (!g.tensors.count(n)) return n;
  }
}

std::string add_constant(ir::Graph& g, const std::string& base, const runtime::Tensor& value) {
  ir::Tensor t;
  t.name = fresh_tensor_name(g, base);
  assign_constant(t, value);
  const std::string name = t.name;
  g.add_tensor(std::move(t));
  return name;
}

std::unordered_set<std::string> graph_output_set(const ir::Graph& g) {
  return {g.outputs.begin(), g.outputs.end()};
}

}  // namespace ec::passes
