// NumPy .npy files (format versions 1, 2 and 3), little-endian, C order.
// Element types: every one numpy's .npy holds that the IR has: f2, f4, f8, i1,
// i2, i4, i8, u1, u2, u4, u8, b1, c8, c16 (<-> f16, f32, f64, i8, i16, i32, i64,
// u8, u16, u32, u64, bool, c64, c128).
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
/// missing/unreadable/truncated file, a path that is not a regular file (directory,
/// FIFO, device), a header whose shape overflows, Fortran order, big-endian or
/// unsupported dtype.
NpyArray read_npy(const std::string& path);

/// Writes a .npy (version 1) file atomically: to a temporary file next to
/// `path`, then renamed over it, so no half-written file is ever left behind.
/// `data` holds prod(shape) elements of `dtype`. Throws EdgeCompilerError (Io).
void write_npy(const std::string& path, ir::DType dtype, const std::vector<std::int64_t>& shape,
               const void* data);

}  // namespace ec::util
