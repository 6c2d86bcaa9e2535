#include <cstring>
#include "core/passes/rewrite.h"

#include <algorithm>
#include <cassert>

namespace ec::passes {

std::size_t expected_names(const ir::Graph& g) { return g.ops.size() + g.ops.size() / 2; }

bool has_op_kind(const ir::Graph& g, std::initializer_list<ir::OpKind> kinds) {
  for (const auto& op : g.ops)
    for (ir::OpKind k : kinds)
      if (op.kind == k) return true;
  return false;
}

NameIndex::NameIndex(std::size_t expected) {
  std::size_t n = 16;
  while (n < expected * 2) n *= 2;  // load <= 1/2
  tags_.assign(n, 0);
  ids_.resize(n);
  keys_.reserve(expected);
  arena_.reserve(expected * 12);
}

void NameIndex::rehash(std::size_t n) {
  tags_.assign(n, 0);
  ids_.resize(n);
  const std::size_t mask = n - 1;
  for (std::uint32_t id = 0; id < keys_.size(); ++id) {
    const std::uint32_t h = keys_[id].hash;
    std::size_t at = h & mask;
    while (tags_[at]) at = (at + 1) & mask;
    tags_[at] = tag_of(h);
    ids_[at] = id;
  }
}

std::uint32_t NameIndex::find(std::string_view name) const {
  const auto h = static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  const std::uint8_t tag = tag_of(h);
  const std::size_t mask = tags_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const std::uint8_t t = tags_[at];
    if (!t) return kNone;
    if (t == tag && same_key(ids_[at], name)) return ids_[at];
  }
}

std::uint32_t NameIndex::intern(std::string_view name) {
  const auto h = static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  const std::uint8_t tag = tag_of(h);
  std::size_t mask = tags_.size() - 1;
  std::size_t at = h & mask;
  for (;; at = (at + 1) & mask) {
    const std::uint8_t t = tags_[at];
    if (!t) break;
    if (t == tag && same_key(ids_[at], name)) return ids_[at];
  }
  const auto id = static_cast<std::uint32_t>(keys_.size());
  keys_.push_back(Key{static_cast<std::uint32_t>(arena_.size()), static_cast<std::uint32_t>(name.size()), h});
  arena_.append(name);
  if ((keys_.size() + 1) * 2 > tags_.size()) {  // keep the load at most 1/2
    rehash(tags_.size() * 2);  // places every key, this one included
    return id;
  }
  tags_[at] = tag;
  ids_[at] = id;
  return id;
}

UseIndex::UseIndex(const ir::Graph& g) : names_(expected_names(g)) { build(g, nullptr); }

UseIndex::UseIndex(const ir::Graph& g, bool (*indexed)(ir::OpKind)) {
  std::size_t results = 0;
  for (const auto& op : g.ops)
    if (indexed(op.kind)) results += op.outputs.size();
  names_ = NameIndex(results);
  build(g, indexed);
}

void UseIndex::build(const ir::Graph& g, bool (*indexed)(ir::OpKind)) {
  // Edges (name id, op) in op order, each op once per name; then a counting sort into CSR.
  // Restricted to the results of `indexed` ops, inputs are only looked up: ops are in
  // topological order, so a result is in the table before any reader of it comes.
  std::vector<std::pair<std::uint32_t, std::size_t>> edges;
  edges.reserve(g.ops.size() * 2);
  std::vector<std::size_t> last_reader;  // by id: last op recorded + 1 (0 = none)
  producer_.reserve(indexed ? g.ops.size() / 4 : expected_names(g));
  last_reader.reserve(producer_.capacity());
  auto grow = [&](std::uint32_t id) {
    if (id >= producer_.size()) {
      producer_.resize(id + 1, -1);
      last_reader.resize(id + 1, 0);
    }
  };
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const ir::Operation& op = g.ops[i];
    if (!indexed || indexed(op.kind)) {
      for (const std::string& out : op.outputs) {
        if (out.empty()) continue;
        const std::uint32_t id = names_.intern(out);
        grow(id);
        if (producer_[id] < 0) producer_[id] = static_cast<std::ptrdiff_t>(i);
      }
    }
    for (const std::string& in : op.inputs) {
      if (in.empty()) continue;
      const std::uint32_t id = indexed ? names_.find(in) : names_.intern(in);
      if (id == NameIndex::kNone) continue;
      grow(id);
      if (last_reader[id] == i + 1) continue;
      last_reader[id] = i + 1;
      edges.emplace_back(id, i);
    }
  }
  const std::size_t n = names_.size();
  producer_.resize(n, -1);
  begin_.assign(n + 1, 0);
  for (const auto& e : edges) ++begin_[e.first + 1];
  for (std::size_t k = 0; k < n; ++k) begin_[k + 1] += begin_[k];
  readers_.resize(edges.size());
  std::vector<std::uint32_t> fill(begin_.begin(), begin_.end() - 1);
  for (const auto& e : edges) readers_[fill[e.first]++] = e.second;
}

std::ptrdiff_t UseIndex::producer(std::string_view tensor) const {
  const std::uint32_t id = names_.find(tensor);
  return id == NameIndex::kNone ? -1 : producer_[id];
}

std::span<const std::size_t> UseIndex::consumers(std::string_view tensor) const {
  const std::uint32_t id = names_.find(tensor);
  if (id == NameIndex::kNone) return {};
  return {readers_.data() + begin_[id], readers_.data() + begin_[id + 1]};
}

GraphRewriter::GraphRewriter(ir::Graph& g)
    : g_(g), erased_(g.ops.size(), false),
      graph_inputs_(g.inputs.begin(), g.inputs.end()),
      graph_outputs_(g.outputs.begin(), g.outputs.end()) {}

const NameIndex& GraphRewriter::produced() const {
  if (!produced_) {
    produced_.emplace(g_.ops.size() + g_.ops.size() / 4);
    for (const auto& op : g_.ops)
      for (const auto& o : op.outputs)
        if (!o.empty()) produced_->intern(o);
  }
  return *produced_;
}

const std::string& GraphRewriter::resolve(const std::string& t) const {
  const std::uint32_t id = alias_to_.empty() ? NameIndex::kNone : aliased_.find(t);
  return id == NameIndex::kNone ? t : alias_to_[id];  // aliases are stored resolved
}

bool GraphRewriter::can_forward(const std::string& from, const std::string& to) const {
  const std::string& target = resolve(to);
  if (from == target) return false;
  if (!graph_outputs_.count(from)) return true;
  // `from` is a graph output: its name must survive, so rename the producer of `target`.
  return produced().contains(target) && !graph_outputs_.count(target) &&
         !graph_inputs_.count(target) && !rename_.count(target);
}

bool GraphRewriter::forward(const std::string& from, const std::string& to) {
  if (!can_forward(from, to)) return false;
  const std::string target = resolve(to);
  touched_.push_back(from);
  if (!graph_outputs_.count(from)) {
    const std::uint32_t id = aliased_.intern(from);
    if (id == alias_to_.size()) {
      alias_from_.push_back(from);
      alias_to_.push_back(target);
    } else {
      alias_to_[id] = target;
    }
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
  // One table of the names commit() acts on (forwarded and touched), so each name of
  // the graph costs one probe: mapped through aliases and renames, and marked as still
  // referenced, in the same sweep that compacts the op list in place.
  struct Entry {
    const std::string* alias = nullptr;   // forwarded to (resolved)
    const std::string* rename = nullptr;  // renamed at its producer to a graph output
    bool referenced = false;              // still mentioned after the change
  };
  NameIndex names(alias_to_.size() + rename_.size() + touched_.size());
  std::vector<Entry> entries;
  entries.reserve(alias_to_.size() + rename_.size() + touched_.size());
  auto entry = [&](const std::string& n) -> Entry& {
    const std::uint32_t id = names.intern(n);
    if (id == entries.size()) entries.emplace_back();
    return entries[id];
  };
  for (std::size_t k = 0; k < alias_to_.size(); ++k) entry(alias_from_[k]).alias = &alias_to_[k];
  for (const auto& [from, to] : rename_) entry(from).rename = &to;
  for (const auto& t : touched_) entry(t);
  const bool renames = !alias_to_.empty() || !rename_.empty();
  auto mark = [&](const std::string& n) {
    const std::uint32_t id = n.empty() ? NameIndex::kNone : names.find(n);
    if (id != NameIndex::kNone) entries[id].referenced = true;
  };
  auto map_and_mark = [&](std::string& n) {
    std::uint32_t id = n.empty() ? NameIndex::kNone : names.find(n);
    if (id == NameIndex::kNone) return;
    for (std::size_t hops = 0; entries[id].alias && hops <= alias_to_.size(); ++hops) {  // aliases may chain
      n = *entries[id].alias;
      if ((id = names.find(n)) == NameIndex::kNone) return;
    }
    if (entries[id].rename) {
      n = *entries[id].rename;
      if ((id = names.find(n)) == NameIndex::kNone) return;
    }
    entries[id].referenced = true;
  };
  std::size_t removed = 0;
  std::size_t w = 0;
  const bool any = names.size() > 0;
  for (std::size_t i = 0; i < g_.ops.size(); ++i) {
    if (erased_[i]) {
      ++removed;
      continue;
    }
    ir::Operation& op = g_.ops[i];
    if (renames) {
      for (auto& in : op.inputs) map_and_mark(in);
      for (auto& out : op.outputs) map_and_mark(out);
    } else if (any) {
      for (const auto& in : op.inputs) mark(in);
      for (const auto& out : op.outputs) mark(out);
    }
    if (w != i) g_.ops[w] = std::move(op);
    ++w;
  }
  g_.ops.erase(g_.ops.begin() + static_cast<std::ptrdiff_t>(w), g_.ops.end());
  if (!touched_.empty()) {
    for (const auto& n : g_.inputs) mark(n);
    for (const auto& n : g_.outputs) mark(n);
    for (const auto& t : touched_) {
      Entry& e = entries[names.find(t)];
      if (!e.referenced) {
        g_.tensors.erase(t);
        e.referenced = true;  // erased once
      }
    }
  }
  erased_.assign(g_.ops.size(), false);
  produced_.reset();
  aliased_ = NameIndex();
  alias_from_.clear();
  alias_to_.clear();
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

ChainMatcher::ChainMatcher(const ir::Graph& g, const UseIndex& uses, const GraphRewriter& rw)
    : g_(g), uses_(uses), rw_(rw), outputs_(graph_output_set(g)) {}

std::ptrdiff_t ChainMatcher::sole_reader(const std::string& t, ir::OpKind kind) const {
  if (outputs_.count(t)) return -1;
  const auto& c = uses_.consumers(t);
  if (c.size() != 1 || rw_.erased(c[0]) || g_.ops[c[0]].kind != kind || g_.ops[c[0]].quant) return -1;
  return std::count(g_.ops[c[0]].inputs.begin(), g_.ops[c[0]].inputs.end(), t) == 1
             ? static_cast<std::ptrdiff_t>(c[0])
             : -1;
}

std::string other_input(const ir::Operation& op, const std::string& t) {
  if (op.inputs.size() != 2) return {};
  return op.inputs[0] == t ? op.inputs[1] : op.inputs[1] == t ? op.inputs[0] : std::string();
}

std::optional<float> scalar_f32(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = find_constant(g, name);
  if (!t || t->dtype != ir::DType::Float32 || t->quant || t->num_elements().value_or(0) != 1 ||
      t->data->size() != sizeof(float))
    return std::nullopt;
  float v;
  std::memcpy(&v, t->data->data(), sizeof v);
  return v;
}

std::string fused_op_name(const std::string& anchor, const std::string& op_type,
                          std::unordered_set<std::string>& names) {
  const auto slash = anchor.rfind('/');
  const std::string base = (slash == std::string::npos ? std::string() : anchor.substr(0, slash + 1)) + op_type;
  std::string n = base;
  for (int s = 1; names.count(n); ++s) n = base + "_" + std::to_string(s);
  names.insert(n);
  return n;
}

std::unordered_set<std::string> graph_output_set(const ir::Graph& g) {
  return {g.outputs.begin(), g.outputs.end()};
}

}  // namespace ec::passes
