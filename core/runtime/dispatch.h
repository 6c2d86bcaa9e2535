// Type dispatch: calls a templated lambda `f.template operator()<T>()` with the
// C++ type of a runtime dtype. Dtypes without a case throw UnsupportedOpError.
#pragma once

#include <cstdint>
#include <string>

#include "core/errors.h"
#include "core/ir/dtype.h"

namespace ec::runtime {

/// Throws UnsupportedOpError("<what> on <dtype> tensors"); the session re-labels it with the op's type.
[[noreturn]] inline void unsupported_dtype(ir::DType t, const char* what) {
  throw UnsupportedOpError(std::string(what) + " on " + std::string(ir::dtype_name(t)) + " tensors",
                           "the CPU runtime", "cast to f32 first");
}

/// Floating-point types.
template <typename F>
decltype(auto) dispatch_float(ir::DType t, F&& f, const char* what = "kernel") {
  switch (t) {
    case ir::DType::Float32: return f.template operator()<float>();
    case ir::DType::Float64: return f.template operator()<double>();
    default: unsupported_dtype(t, what);
  }
}

/// Numeric types (no bool).
template <typename F>
decltype(auto) dispatch_numeric(ir::DType t, F&& f, const char* what = "kernel") {
  switch (t) {
    case ir::DType::Float32: return f.template operator()<float>();
    case ir::DType::Float64: return f.template operator()<double>();
    case ir::DType::Int8: return f.template operator()<std::int8_t>();
    case ir::DType::Int16: return f.template operator()<std::int16_t>();
    case ir::DType::Int32: return f.template operator()<std::int32_t>();
    case ir::DType::Int64: return f.template operator()<std::int64_t>();
    case ir::DType::UInt8: return f.template operator()<std::uint8_t>();
    case ir::DType::UInt16: return f.template operator()<std::uint16_t>();
    case ir::DType::UInt32: return f.template operator()<std::uint32_t>();
    case ir::DType::UInt64: return f.template operator()<std::uint64_t>();
    default: unsupported_dtype(t, what);
  }
}

/// Integer types (no bool).
template <typename F>
decltype(auto) dispatch_integer(ir::DType t, F&& f, const char* what = "kernel") {
  switch (t) {
    case ir::DType::Int8: return f.template operator()<std::int8_t>();
    case ir::DType::Int16: return f.template operator()<std::int16_t>();
    case ir::DType::Int32: return f.template operator()<std::int32_t>();
    case ir::DType::Int64: return f.template operator()<std::int64_t>();
    case ir::DType::UInt8: return f.template operator()<std::uint8_t>();
    case ir::DType::UInt16: return f.template operator()<std::uint16_t>();
    case ir::DType::UInt32: return f.template operator()<std::uint32_t>();
    case ir::DType::UInt64: return f.template operator()<std::uint64_t>();
    default: unsupported_dtype(t, what);
  }
}

/// Numeric types and bool (stored as one byte, 0 or 1).
template <typename F>
decltype(auto) dispatch_all(ir::DType t, F&& f, const char* what = "kernel") {
  if (t == ir::DType::Bool) return f.template operator()<bool>();
  return dispatch_numeric(t, std::forward<F>(f), what);
}

/// Copies elements of any fixed-size dtype by byte size (data movement ops).
template <typename F>
decltype(auto) dispatch_by_size(ir::DType t, F&& f, const char* what = "kernel") {
  switch (ir::dtype_size(t)) {
    case 1: return f.template operator()<std::uint8_t>();
    case 2: return f.template operator()<std::uint16_t>();
    case 4: return f.template operator()<std::uint32_t>();
    case 8: return f.template operator()<std::uint64_t>();
    default: unsupported_dtype(t, what);
  }
}

template <typename T> struct dtype_of;
template <> struct dtype_of<float> { static constexpr ir::DType value = ir::DType::Float32; };
template <> struct dtype_of<double> { static constexpr ir::DType value = ir::DType::Float64; };
template <> struct dtype_of<std::int8_t> { static constexpr ir::DType value = ir::DType::Int8; };
template <> struct dtype_of<std::int16_t> { static constexpr ir::DType value = ir::DType::Int16; };
template <> struct dtype_of<std::int32_t> { static constexpr ir::DType value = ir::DType::Int32; };
template <> struct dtype_of<std::int64_t> { static constexpr ir::DType value = ir::DType::Int64; };
template <> struct dtype_of<std::uint8_t> { static constexpr ir::DType value = ir::DType::UInt8; };
template <> struct dtype_of<std::uint16_t> { static constexpr ir::DType value = ir::DType::UInt16; };
template <> struct dtype_of<std::uint32_t> { static constexpr ir::DType value = ir::DType::UInt32; };
template <> struct dtype_of<std::uint64_t> { static constexpr ir::DType value = ir::DType::UInt64; };
template <> struct dtype_of<bool> { static constexpr ir::DType value = ir::DType::Bool; };

}  // namespace ec::runtime
