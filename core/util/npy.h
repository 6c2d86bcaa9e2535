// NumPy .npy files (format versions 1, 2 and 3), little-endian, C order.
// Element types: f4, f8, i8, i4, i2, i1, u1, u2, b1 (<-> f32, f64, i64, i32,
// i16, i8, u8, u16, bool).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/constant_data.h"
#include "core/ir/dtype.h"

namespace ec::util {

struct NpyArray {
  ir::DType dtype = ir::DType::Undefined;
  std::vector<std::int64_t> shape;
  ir::ConstantData data;  // C-order element bytes
};

/// Reads a .npy file. Throws EdgeCompilerError (kind Io) naming the file on a
/// missing/unreadable/truncated file, Fortran order, big-endian or unsupported dtype.
NpyArray read_npy(const std::string& path);

/// Writes a .npy (version 1) file atomically: to a temporary file next to
/// `path`, then renamed over it, so no half-written file is ever left behind.
/// `data` holds prod(shape) elements of `dtype`. Throws EdgeCompilerError (Io).
void write_npy(const std::string& path, ir::DType dtype, const std::vector<std::int64_t>& shape,
               const void* data);

}  // namespace ec::util
