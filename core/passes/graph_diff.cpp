#include "core/passes/graph_diff.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <map>
#include <unordered_map>

#include <nlohmann/json.hpp>

#include "core/passes/rewrite.h"

namespace ec::passes {
namespace {

OpRef ref_of(const ir::Graph& g, std::size_t i) {
  const ir::Operation& op = g.ops[i];
  return {i, op.name, op.op_type, op.inputs, op.outputs};
}

const std::string* first_output(const ir::Operation& op) {
  for (const auto& o : op.outputs)
    if (!o.empty()) return &o;
  return nullptr;
}

std::string format_double(double v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

bool same_bytes(const ir::ConstantData& a, const ir::ConstantData& b) {
  if (a.size() != b.size()) return false;
  return a.data() == b.data() || a.size() == 0 || std::memcmp(a.data(), b.data(), a.size()) == 0;
}

bool same_attribute(const ir::Attribute& a, const ir::Attribute& b) {
  if (a.index() != b.index()) return false;
  if (const auto* ta = std::get_if<ir::TensorValue>(&a)) {
    const auto& tb = std::get<ir::TensorValue>(b);
    return ta->dtype == tb.dtype && ta->shape == tb.shape && same_bytes(ta->data, tb.data);
  }
  return a == b;
}

}  // namespace

std::string format_attribute(const ir::Attribute& a) {
  struct V {
    std::string operator()(std::int64_t v) const { return std::to_string(v); }
    std::string operator()(double v) const { return format_double(v); }
    std::string operator()(const std::string& v) const { return "\"" + v + "\""; }
    std::string operator()(const std::vector<std::int64_t>& v) const {
      std::string s = "[";
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
      return s + "]";
    }
    std::string operator()(const std::vector<double>& v) const {
      std::string s = "[";
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + format_double(v[i]);
      return s + "]";
    }
    std::string operator()(const std::vector<std::string>& v) const {
      std::string s = "[";
      for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ",\"" : "\"") + v[i] + "\"";
      return s + "]";
    }
    std::string operator()(const ir::TensorValue& t) const {
      std::string s = "tensor(" + std::string(ir::dtype_name(t.dtype)) + ", [";
      for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? "," : "") + std::to_string(t.shape[i]);
      return s + "], " + std::to_string(t.data.size()) + " bytes)";
    }
  };
  return std::visit(V{}, a);
}

GraphDiff diff_graphs(const ir::Graph& before, const ir::Graph& after) {
  GraphDiff d;
  d.ops_before = before.ops.size();
  d.ops_after = after.ops.size();
  const std::size_t nb = before.ops.size(), na = after.ops.size();
  std::vector<std::ptrdiff_t> match_of_after(na, -1);
  std::vector<bool> before_matched(nb, false);

  // 1. By output tensor name (SSA: each names one op) and op type.
  {
    NameIndex outputs(nb);
    std::vector<std::size_t> producer;  // by output id: the first op writing it
    producer.reserve(nb);
    for (std::size_t i = 0; i < nb; ++i)
      if (const std::string* o = first_output(before.ops[i]))
        if (outputs.intern(*o) == producer.size()) producer.push_back(i);
    for (std::size_t j = 0; j < na; ++j) {
      const std::string* o = first_output(after.ops[j]);
      const std::uint32_t id = o ? outputs.find(*o) : NameIndex::kNone;
      if (id == NameIndex::kNone) continue;
      const std::size_t i = producer[id];
      if (before_matched[i] || before.ops[i].op_type != after.ops[j].op_type) continue;
      match_of_after[j] = static_cast<std::ptrdiff_t>(i);
      before_matched[i] = true;
    }
  }
  // 2. By op name (unique when non-empty) and op type.
  {
    std::unordered_map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < nb; ++i)
      if (!before_matched[i] && !before.ops[i].name.empty()) by_name.emplace(before.ops[i].name, i);
    for (std::size_t j = 0; j < na; ++j) {
      if (match_of_after[j] >= 0 || after.ops[j].name.empty()) continue;
      auto it = by_name.find(after.ops[j].name);
      if (it == by_name.end() || before_matched[it->second]) continue;
      if (before.ops[it->second].op_type != after.ops[j].op_type) continue;
      match_of_after[j] = static_cast<std::ptrdiff_t>(it->second);
      before_matched[it->second] = true;
    }
  }
  // 3. By structure: op type and inputs, first unmatched first. The unmatched before ops
  // of each key form a queue threaded through `next` (no container per key).
  {
    std::string k;
    auto key = [&k](const ir::Operation& op) -> const std::string& {
      k = op.op_type;
      for (const auto& in : op.inputs) (k += '\x1f') += in;
      return k;
    };
    constexpr std::size_t kEnd = ~std::size_t{0};
    NameIndex keys;
    std::vector<std::size_t> head, tail;  // by key id
    std::vector<std::size_t> next(nb, kEnd);
    for (std::size_t i = 0; i < nb; ++i) {
      if (before_matched[i]) continue;
      const std::uint32_t id = keys.intern(key(before.ops[i]));
      if (id == head.size()) {
        head.push_back(i);
        tail.push_back(i);
      } else {
        next[tail[id]] = i;
        tail[id] = i;
      }
    }
    for (std::size_t j = 0; j < na && keys.size() > 0; ++j) {
      if (match_of_after[j] >= 0) continue;
      const std::uint32_t id = keys.find(key(after.ops[j]));
      if (id == NameIndex::kNone || head[id] == kEnd) continue;
      const std::size_t i = head[id];
      head[id] = next[i];
      match_of_after[j] = static_cast<std::ptrdiff_t>(i);
      before_matched[i] = true;
    }
  }

  for (std::size_t i = 0; i < nb; ++i)
    if (!before_matched[i]) d.removed.push_back(ref_of(before, i));
  for (std::size_t j = 0; j < na; ++j) {
    if (match_of_after[j] < 0) {
      d.added.push_back(ref_of(after, j));
      continue;
    }
    const std::size_t i = static_cast<std::size_t>(match_of_after[j]);
    const ir::Operation &b = before.ops[i], &a = after.ops[j];
    OpChange c;
    c.inputs_changed = b.inputs != a.inputs;
    c.outputs_changed = b.outputs != a.outputs;
    auto ib = b.attributes.begin(), ia = a.attributes.begin();
    while (ib != b.attributes.end() || ia != a.attributes.end()) {
      if (ia == a.attributes.end() || (ib != b.attributes.end() && ib->first < ia->first)) {
        c.attributes.push_back({ib->first, ib->second, std::nullopt});
        ++ib;
      } else if (ib == b.attributes.end() || ia->first < ib->first) {
        c.attributes.push_back({ia->first, std::nullopt, ia->second});
        ++ia;
      } else {
        if (!same_attribute(ib->second, ia->second))
          c.attributes.push_back({ib->first, ib->second, ia->second});
        ++ib, ++ia;
      }
    }
    if (c.inputs_changed || c.outputs_changed || !c.attributes.empty() || b.kind != a.kind ||
        b.name != a.name) {
      c.before = ref_of(before, i);
      c.after = ref_of(after, j);
      d.changed.push_back(std::move(c));
    } else {
      ++d.unchanged;
    }
  }

  // Constants: both sides' sorted by name, then merged.
  auto is_constant = [](const ir::Tensor& t) { return t.is_constant(); };
  const auto cb = before.tensors.by_name(is_constant), ca = after.tensors.by_name(is_constant);
  for (std::size_t i = 0, j = 0; i < cb.size() || j < ca.size();) {
    if (j == ca.size() || (i < cb.size() && cb[i]->first < ca[j]->first)) {
      d.constants_removed.push_back(cb[i++]->first);
    } else if (i == cb.size() || ca[j]->first < cb[i]->first) {
      d.constants_added.push_back(ca[j++]->first);
    } else {
      const ir::Tensor &x = cb[i]->second, &y = ca[j]->second;
      if (x.dtype != y.dtype || !(x.shape == y.shape) || !same_bytes(*x.data, *y.data))
        d.constants_changed.push_back(cb[i]->first);
      ++i, ++j;
    }
  }
  return d;
}

ir::Graph diff_snapshot(const ir::Graph& g) {
  ir::Graph s;
  s.name = g.name;
  s.ops = g.ops;
  s.inputs = g.inputs;
  s.outputs = g.outputs;
  for (const auto& [name, t] : g.tensors)
    if (t.is_constant()) s.tensors.emplace(name, t);
  return s;
}

nlohmann::json to_json(const ir::Attribute& a) {
  struct V {
    nlohmann::json operator()(std::int64_t v) const { return v; }
    nlohmann::json operator()(double v) const { return v; }
    nlohmann::json operator()(const std::string& v) const { return v; }
    nlohmann::json operator()(const std::vector<std::int64_t>& v) const { return v; }
    nlohmann::json operator()(const std::vector<double>& v) const { return v; }
    nlohmann::json operator()(const std::vector<std::string>& v) const { return v; }
    nlohmann::json operator()(const ir::TensorValue& t) const {
      return {{"dtype", std::string(ir::dtype_name(t.dtype))}, {"shape", t.shape}, {"bytes", t.data.size()}};
    }
  };
  return std::visit(V{}, a);
}

namespace {
nlohmann::json op_json(const OpRef& r) {
  return {{"index", r.index}, {"name", r.name}, {"op_type", r.op_type}, {"inputs", r.inputs},
          {"outputs", r.outputs}};
}
}  // namespace

nlohmann::json to_json(const GraphDiff& d) {
  nlohmann::json j;
  j["ops_before"] = d.ops_before;
  j["ops_after"] = d.ops_after;
  j["ops_unchanged"] = d.unchanged;
  j["ops_added"] = nlohmann::json::array();
  for (const auto& r : d.added) j["ops_added"].push_back(op_json(r));
  j["ops_removed"] = nlohmann::json::array();
  for (const auto& r : d.removed) j["ops_removed"].push_back(op_json(r));
  j["ops_changed"] = nlohmann::json::array();
  for (const auto& c : d.changed) {
    nlohmann::json cj{{"before", op_json(c.before)}, {"after", op_json(c.after)},
                      {"inputs_changed", c.inputs_changed}, {"outputs_changed", c.outputs_changed}};
    cj["attributes"] = nlohmann::json::array();
    for (const auto& a : c.attributes)
      cj["attributes"].push_back({{"name", a.key},
                                  {"before", a.before ? to_json(*a.before) : nlohmann::json()},
                                  {"after", a.after ? to_json(*a.after) : nlohmann::json()}});
    j["ops_changed"].push_back(std::move(cj));
  }
  j["constants_added"] = d.constants_added;
  j["constants_removed"] = d.constants_removed;
  j["constants_changed"] = d.constants_changed;
  return j;
}

}  // namespace ec::passes
