// Element types of IR tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace ec::ir {

// Order is part of no file format: names (dtype_name) are what the text form stores.
enum class DType : std::uint8_t {
  Undefined,
  Float32,
  Float16,
  BFloat16,
  Float64,
  Int4,  // packed two per byte (reserved for 4-bit accelerators)
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Bool,
  String,
  Complex64,
  Complex128,
};

/// Short name used in the text form and reports: "f32", "i8", "u8", "bool", ...
std::string_view dtype_name(DType t);
/// Inverse of dtype_name; nullopt for an unknown name.
std::optional<DType> dtype_from_name(std::string_view name);
/// Bytes per element; 0 for Undefined and String (variable size), 1 for Int4 (rounded up per pair).
std::size_t dtype_size(DType t);
bool dtype_is_float(DType t);
bool dtype_is_integer(DType t);

}  // namespace ec::ir
