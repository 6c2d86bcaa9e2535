// The canonical IR op set, generated from ops.def (the one table).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "core/ir/attribute.h"

namespace ec::ir {

enum class OpCategory : std::uint8_t {
  Convolution, Linear, Pooling, Normalization, Activation, Elementwise, Logic,
  Reduction, DataMovement, Generator, Quantization, Recurrent, Misc, Unknown,
};

enum class OpKind : std::uint16_t {
#define EC_OP(name, cat, min_in, max_in, min_out, max_out, schema) name,
#include "core/ir/ops.def"
#undef EC_OP
  Unknown,  // an op the IR does not know; Operation::op_type keeps its source name
};

/// One attribute of an op's schema.
struct AttrSpec {
  std::string name;
  AttrKind kind;
  bool required = false;
  std::optional<Attribute> default_value;
};

/// One row of the op table.
struct OpInfo {
  OpKind kind;
  std::string_view name;
  OpCategory category;
  int min_inputs, max_inputs;    // max -1 = variadic
  int min_outputs, max_outputs;  // max -1 = variadic
  std::span<const AttrSpec> attributes;
};

/// Every known op, in table order (OpKind::Unknown excluded).
std::span<const OpInfo> all_ops();
/// Table row of a known op; asserts kind != Unknown.
const OpInfo& op_info(OpKind kind);
/// Lookup by canonical name; nullopt if the IR does not know it.
std::optional<OpKind> op_kind_from_name(std::string_view name);
std::string_view op_category_name(OpCategory c);
/// Schema entry of an attribute of `kind`, or nullptr.
const AttrSpec* find_attr_spec(OpKind kind, std::string_view attr);

}  // namespace ec::ir
