#include "core/layout/ir_input.h"

#include <algorithm>
#include <unordered_map>

namespace ec::layout {

CompoundInput make_compound_input(const ec::ir::Graph& g, IrItems* items, double char_width,
                                  double line_height) {
  CompoundInput in;
  const std::size_t n = g.ops.size();
  in.items.reserve(n + g.inputs.size() + g.outputs.size());
  auto text_box = [&](std::size_t chars, int lines) {
    return std::pair{std::clamp(double(chars) * char_width + 20, 64.0, 240.0),
                     double(lines) * line_height + 10};
  };
  std::unordered_map<std::string, int> producer;
  producer.reserve(n * 2 + g.inputs.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& op = g.ops[i];
    const auto [w, h] = text_box(op.op_type.size() + 4, op.attributes.empty() ? 2 : 3);
    in.items.push_back({op.name, w, h});
    for (const auto& t : op.outputs) {
      if (!t.empty()) producer.emplace(t, int(i));
    }
  }
  for (const auto& name : g.inputs) {
    const auto [w, h] = text_box(name.size(), 2);
    producer.emplace(name, int(in.items.size()));
    in.items.push_back({std::string(), w, h});
  }
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& t : g.ops[i].inputs) {
      if (t.empty()) continue;
      const auto it = producer.find(t);
      if (it != producer.end()) in.edges.emplace_back(it->second, int(i));
    }
  }
  for (const auto& name : g.outputs) {
    const auto [w, h] = text_box(name.size(), 2);
    const auto it = producer.find(name);
    if (it != producer.end()) in.edges.emplace_back(it->second, int(in.items.size()));
    in.items.push_back({std::string(), w, h});
  }
  // Ops that compute only from constants (the Identity and Constant ops exporters
  // put in front of shared weights) and have no scope of their own are grouped
  // with the op that uses them, not piled up at the top level.
  std::vector<char> data_free(n, 1);
  std::vector<int> first_consumer(n, -1);
  for (std::size_t i = 0; i < n; ++i) {
    for (const auto& t : g.ops[i].inputs) {
      if (t.empty()) continue;
      const auto it = producer.find(t);
      if (it == producer.end()) continue;  // a constant
      if (std::size_t(it->second) >= n || !data_free[std::size_t(it->second)]) data_free[i] = 0;
    }
  }
  for (const auto& [from, to] : in.edges) {
    if (std::size_t(from) < n && std::size_t(to) < n && first_consumer[std::size_t(from)] < 0) {
      first_consumer[std::size_t(from)] = to;
    }
  }
  for (std::size_t i = n; i-- > 0;) {
    auto& name = in.items[i].name;
    const int c = first_consumer[i];
    if (!data_free[i] || c < 0 || !ScopeTree::scopes_of(name).empty()) continue;
    const std::string& user = in.items[std::size_t(c)].name;
    const std::size_t slash = user.rfind('/');
    if (user.empty() || user.front() != '/' || slash == 0 || slash == std::string::npos) continue;
    name = user.substr(0, slash) + "/" + (name.empty() ? g.ops[i].op_type : name);
  }
  if (items) *items = {n, g.inputs.size(), g.outputs.size()};
  return in;
}

}  // namespace ec::layout
