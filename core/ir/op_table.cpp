#include "core/ir/op_table.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace ec::ir {
namespace {

struct OpRow {
  OpKind kind;
  std::string_view name;
  OpCategory category;
  int min_in, max_in, min_out, max_out;
  std::string_view schema;
};

constexpr OpRow kOps[] = {
#define EC_OP(name, cat, min_in, max_in, min_out, max_out, schema) \
  {OpKind::name, #name, OpCategory::cat, min_in, max_in, min_out, max_out, schema},
#include "core/ir/ops.def"
#undef EC_OP
};
constexpr std::size_t kNumOps = sizeof(kOps) / sizeof(kOps[0]);
static_assert(kNumOps == static_cast<std::size_t>(OpKind::Unknown),
              "OpKind and the op table must stay in step");

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kNumOps; ++i)
    if (static_cast<std::size_t>(kOps[i].kind) != i) return false;
  return true;
}
static_assert(rows_in_enum_order());

std::optional<AttrKind> kind_from_name(std::string_view s) {
  static constexpr std::pair<std::string_view, AttrKind> kKinds[] = {
      {"int", AttrKind::Int},       {"float", AttrKind::Float},     {"string", AttrKind::String},
      {"ints", AttrKind::Ints},     {"floats", AttrKind::Floats},   {"strings", AttrKind::Strings},
      {"tensor", AttrKind::Tensor}};
  for (const auto& [n, k] : kKinds)
    if (n == s) return k;
  return std::nullopt;
}

Attribute parse_default(AttrKind kind, const std::string& text) {
  switch (kind) {
    case AttrKind::Int: return static_cast<std::int64_t>(std::stoll(text));
    case AttrKind::Float: return std::strtod(text.c_str(), nullptr);
    case AttrKind::String: return text;
    default: assert(false && "op table: defaults exist only for int, float and string"); return {};
  }
}

// "name:kind[=default];name!:kind" -> specs. The table is ours: malformed rows are bugs.
std::vector<AttrSpec> parse_schema(std::string_view schema) {
  std::vector<AttrSpec> specs;
  while (!schema.empty()) {
    auto semi = schema.find(';');
    std::string_view item = schema.substr(0, semi);
    schema = semi == std::string_view::npos ? std::string_view() : schema.substr(semi + 1);
    auto colon = item.find(':');
    assert(colon != std::string_view::npos);
    AttrSpec spec;
    spec.name = std::string(item.substr(0, colon));
    if (!spec.name.empty() && spec.name.back() == '!') {
      spec.required = true;
      spec.name.pop_back();
    }
    std::string_view rest = item.substr(colon + 1);
    auto eq = rest.find('=');
    auto kind = kind_from_name(rest.substr(0, eq));
    assert(kind.has_value());
    spec.kind = *kind;
    if (eq != std::string_view::npos)
      spec.default_value = parse_default(spec.kind, std::string(rest.substr(eq + 1)));
    specs.push_back(std::move(spec));
  }
  return specs;
}

struct Table {
  std::vector<std::vector<AttrSpec>> attrs;
  std::vector<OpInfo> infos;
  std::unordered_map<std::string_view, OpKind> by_name;

  Table() {
    attrs.reserve(kNumOps);
    infos.reserve(kNumOps);
    for (const auto& row : kOps) {
      attrs.push_back(parse_schema(row.schema));
      infos.push_back(OpInfo{row.kind, row.name, row.category, row.min_in, row.max_in,
                             row.min_out, row.max_out, attrs.back()});
      by_name.emplace(row.name, row.kind);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

}  // namespace

std::span<const OpInfo> all_ops() { return table().infos; }

const OpInfo& op_info(OpKind kind) {
  assert(kind != OpKind::Unknown);
  return table().infos[static_cast<std::size_t>(kind)];
}

std::optional<OpKind> op_kind_from_name(std::string_view name) {
  const auto& m = table().by_name;
  auto it = m.find(name);
  if (it == m.end()) return std::nullopt;
  return it->second;
}

std::string_view op_category_name(OpCategory c) {
  switch (c) {
    case OpCategory::Convolution: return "convolution";
    case OpCategory::Linear: return "linear";
    case OpCategory::Pooling: return "pooling";
    case OpCategory::Normalization: return "normalization";
    case OpCategory::Activation: return "activation";
    case OpCategory::Elementwise: return "elementwise";
    case OpCategory::Logic: return "logic";
    case OpCategory::Reduction: return "reduction";
    case OpCategory::DataMovement: return "data-movement";
    case OpCategory::Generator: return "generator";
    case OpCategory::Quantization: return "quantization";
    case OpCategory::Recurrent: return "recurrent";
    case OpCategory::Misc: return "misc";
    case OpCategory::Unknown: return "unknown";
  }
  return "unknown";
}

const AttrSpec* find_attr_spec(OpKind kind, std::string_view attr) {
  if (kind == OpKind::Unknown) return nullptr;
  for (const auto& spec : op_info(kind).attributes)
    if (spec.name == attr) return &spec;
  return nullptr;
}

}  // namespace ec::ir
