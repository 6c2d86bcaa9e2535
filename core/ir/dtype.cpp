#include "core/ir/dtype.h"

#include <array>

namespace ec::ir {
namespace {

struct DTypeRow {
  DType type;
  std::string_view name;
  std::size_t size;
};

// One row per DType, in enum order (checked below).
constexpr std::array<DTypeRow, 18> kDTypes{{
    {DType::Undefined, "undefined", 0}, {DType::Float32, "f32", 4},  {DType::Float16, "f16", 2},
    {DType::BFloat16, "bf16", 2},       {DType::Float64, "f64", 8},  {DType::Int4, "i4", 1},
    {DType::Int8, "i8", 1},             {DType::Int16, "i16", 2},    {DType::Int32, "i32", 4},
    {DType::Int64, "i64", 8},           {DType::UInt8, "u8", 1},     {DType::UInt16, "u16", 2},
    {DType::UInt32, "u32", 4},          {DType::UInt64, "u64", 8},   {DType::Bool, "bool", 1},
    {DType::String, "string", 0},       {DType::Complex64, "c64", 8}, {DType::Complex128, "c128", 16},
}};

constexpr bool rows_in_enum_order() {
  for (std::size_t i = 0; i < kDTypes.size(); ++i)
    if (static_cast<std::size_t>(kDTypes[i].type) != i) return false;
  return true;
}
static_assert(rows_in_enum_order(), "kDTypes must list every DType in enum order");
static_assert(static_cast<std::size_t>(DType::Complex128) + 1 == kDTypes.size());

}  // namespace

std::string_view dtype_name(DType t) { return kDTypes[static_cast<std::size_t>(t)].name; }

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& row : kDTypes)
    if (row.name == name) return row.type;
  return std::nullopt;
}

std::size_t dtype_size(DType t) { return kDTypes[static_cast<std::size_t>(t)].size; }

bool dtype_is_float(DType t) {
  return t == DType::Float32 || t == DType::Float16 || t == DType::BFloat16 || t == DType::Float64;
}

bool dtype_is_integer(DType t) {
  switch (t) {
    case DType::Int4: case DType::Int8: case DType::Int16: case DType::Int32: case DType::Int64:
    case DType::UInt8: case DType::UInt16: case DType::UInt32: case DType::UInt64:
      return true;
    default:
      return false;
  }
}

}  // namespace ec::ir
