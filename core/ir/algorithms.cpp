#include "core/ir/algorithms.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <set>

#include "core/errors.h"

namespace ec::ir {
namespace {

const std::vector<std::size_t>& empty_indices() {
  static const std::vector<std::size_t> kEmpty;
  return kEmpty;
}

std::string op_label(const Operation& op, std::size_t index) {
  return op.name.empty() ? "#" + std::to_string(index) : op.name;
}

// True when `op.outputs[k]` already appeared earlier in the same op's outputs.
bool repeated_output(const Operation& op, std::size_t k) {
  for (std::size_t j = 0; j < k; ++j)
    if (op.outputs[j] == op.outputs[k]) return true;
  return false;
}

}  // namespace

UseLists::UseLists(const Graph& g) {
  producer_.reserve(g.ops.size() * 2);
  consumers_.reserve(g.ops.size() * 2);
  std::vector<std::string> dups;
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const Operation& op = g.ops[i];
    for (const std::string& out : op.outputs) {
      if (out.empty()) continue;
      // The first producer wins; every later one is an SSA violation.
      auto [it, inserted] = producer_.try_emplace(out, static_cast<std::ptrdiff_t>(i));
      if (!inserted) dups.push_back(out);
    }
    for (const std::string& in : op.inputs) {
      if (in.empty()) continue;
      auto& list = consumers_[in];
      // Ops are visited in order, so "each op once" only needs a look at the back.
      if (list.empty() || list.back() != i) list.push_back(i);
    }
  }
  std::sort(dups.begin(), dups.end());
  dups.erase(std::unique(dups.begin(), dups.end()), dups.end());
  multiply_defined_ = std::move(dups);
}

std::ptrdiff_t UseLists::producer(const std::string& tensor) const {
  auto it = producer_.find(tensor);
  return it == producer_.end() ? -1 : it->second;
}

const std::vector<std::size_t>& UseLists::consumers(const std::string& tensor) const {
  auto it = consumers_.find(tensor);
  return it == consumers_.end() ? empty_indices() : it->second;
}

// Kahn's algorithm with a min-heap of ready op indices: among the ops that are
// ready, the one that came first runs first, so an already valid order is kept
// unchanged and an invalid one moves as few ops as the constraints force.
void topological_sort(Graph& g) {
  const std::size_t n = g.ops.size();
  UseLists uses(g);
  std::vector<std::size_t> indegree(n, 0);
  std::vector<std::vector<std::size_t>> successors(n);
  for (std::size_t p = 0; p < n; ++p) {
    const Operation& op = g.ops[p];
    for (std::size_t k = 0; k < op.outputs.size(); ++k) {
      const std::string& out = op.outputs[k];
      if (out.empty() || uses.producer(out) != static_cast<std::ptrdiff_t>(p)) continue;
      if (repeated_output(op, k)) continue;
      for (std::size_t c : uses.consumers(out)) {
        successors[p].push_back(c);
        ++indegree[c];
      }
    }
  }

  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push(i);
  std::vector<std::size_t> order;
  order.reserve(n);
  while (!ready.empty()) {
    std::size_t p = ready.top();
    ready.pop();
    order.push_back(p);
    for (std::size_t c : successors[p])
      if (--indegree[c] == 0) ready.push(c);
  }

  if (order.size() != n) {
    // Every op left has an input produced by another op left. Walking back
    // along such inputs must revisit an op; that op is on a cycle.
    std::size_t start = 0;
    while (indegree[start] == 0) ++start;
    std::vector<char> seen(n, 0);
    std::size_t cur = start;
    while (!seen[cur]) {
      seen[cur] = 1;
      for (const std::string& in : g.ops[cur].inputs) {
        if (in.empty()) continue;
        std::ptrdiff_t p = uses.producer(in);
        if (p >= 0 && indegree[static_cast<std::size_t>(p)] != 0) {
          cur = static_cast<std::size_t>(p);
          break;
        }
      }
    }
    // `cur` is on the cycle; name the tensor through which it feeds itself back.
    std::string tensor;
    for (const std::string& in : g.ops[cur].inputs) {
      if (in.empty()) continue;
      std::ptrdiff_t p = uses.producer(in);
      if (p >= 0 && indegree[static_cast<std::size_t>(p)] != 0) {
        tensor = in;
        break;
      }
    }
    throw GraphError("graph has a cycle through op '" + op_label(g.ops[cur], cur) + "' (tensor '" +
                         tensor + "')",
                     std::to_string(n - order.size()) + " ops are on or behind a cycle");
  }

  bool unchanged = true;
  for (std::size_t i = 0; i < n && unchanged; ++i) unchanged = order[i] == i;
  if (unchanged) return;
  std::vector<Operation> sorted;
  sorted.reserve(n);
  for (std::size_t i : order) sorted.push_back(std::move(g.ops[i]));
  g.ops = std::move(sorted);
}

bool is_topologically_sorted(const Graph& g) {
  UseLists uses(g);
  for (std::size_t i = 0; i < g.ops.size(); ++i)
    for (const std::string& in : g.ops[i].inputs) {
      if (in.empty()) continue;
      if (uses.producer(in) >= static_cast<std::ptrdiff_t>(i)) return false;
    }
  return true;
}

std::optional<std::vector<std::int64_t>> constant_ints(const Tensor& t) {
  if (!t.is_constant()) return std::nullopt;
  std::vector<std::int64_t> v;
  if (t.dtype == DType::Int32)
    for (auto x : t.data->as<std::int32_t>()) v.push_back(x);
  else if (t.dtype == DType::Int64)
    for (auto x : t.data->as<std::int64_t>()) v.push_back(x);
  else
    return std::nullopt;
  return v;
}

std::string claim_unique_name(std::set<std::string>& used, const std::string& base) {
  const std::string n = base.empty() ? "t" : base;
  if (used.insert(n).second) return n;
  for (int k = 1;; ++k) {
    std::string c = n + "_" + std::to_string(k);
    if (used.insert(c).second) return c;
  }
}

std::size_t drop_unused_tensors(Graph& g) {
  std::set<std::string> live(g.inputs.begin(), g.inputs.end());
  live.insert(g.outputs.begin(), g.outputs.end());
  for (const auto& op : g.ops) {
    live.insert(op.inputs.begin(), op.inputs.end());
    live.insert(op.outputs.begin(), op.outputs.end());
  }
  std::vector<std::string> dead;
  for (const auto& tn : g.tensors.by_name())
    if (!live.count(tn->first)) dead.push_back(tn->first);
  for (const auto& n : dead) g.tensors.erase(n);
  return dead.size();
}

std::string name_scope(const std::string& op_name) {
  const auto slash = op_name.rfind('/');
  return slash == std::string::npos ? std::string() : op_name.substr(0, slash);
}

}  // namespace ec::ir
