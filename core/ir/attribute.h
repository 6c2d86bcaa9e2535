// Op attributes: a small closed set of value kinds.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "core/ir/constant_data.h"
#include "core/ir/dtype.h"

namespace ec::ir {

/// A constant tensor value held by an attribute (e.g. ConstantOfShape's value).
struct TensorValue {
  DType dtype = DType::Float32;
  std::vector<std::int64_t> shape;
  ConstantData data;
  bool operator==(const TensorValue&) const = default;
};

enum class AttrKind : std::uint8_t { Int, Float, String, Ints, Floats, Strings, Tensor };

using Attribute = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>,
                               std::vector<double>, std::vector<std::string>, TensorValue>;

inline AttrKind attr_kind(const Attribute& a) { return static_cast<AttrKind>(a.index()); }
/// "int", "float", "string", "ints", "floats", "strings", "tensor".
const char* attr_kind_name(AttrKind k);

}  // namespace ec::ir
