#include "core/util/npy.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/errors.h"
#include "core/util/atomic_file.h"
#include "core/util/safe_file.h"

namespace ec::util {
namespace {

[[noreturn]] void io_fail(const std::string& path, const std::string& why) {
  throw EdgeCompilerError(ErrorKind::Io, path + ": " + why);
}

struct Descr {
  const char* code;  // without the byte-order character
  ir::DType dtype;
};
// Every .npy element type that has an IR dtype (numpy has no bfloat16 or int4; its
// strings are fixed-width, the IR's are not).
constexpr Descr kDescrs[] = {
    {"f2", ir::DType::Float16},   {"f4", ir::DType::Float32},    {"f8", ir::DType::Float64},
    {"i1", ir::DType::Int8},      {"i2", ir::DType::Int16},      {"i4", ir::DType::Int32},
    {"i8", ir::DType::Int64},     {"u1", ir::DType::UInt8},      {"u2", ir::DType::UInt16},
    {"u4", ir::DType::UInt32},    {"u8", ir::DType::UInt64},     {"b1", ir::DType::Bool},
    {"c8", ir::DType::Complex64}, {"c16", ir::DType::Complex128},
};
constexpr const char* kSupported = "f2, f4, f8, i1, i2, i4, i8, u1, u2, u4, u8, b1, c8, c16";

// Value of `key` in the header dict: the text after "'key':" up to the next ',' at depth 0 or '}'.
std::string header_value(const std::string& header, const std::string& key, const std::string& path) {
  const std::string k = "'" + key + "'";
  auto at = header.find(k);
  if (at == std::string::npos) io_fail(path, "not a valid .npy file (header has no " + k + ")");
  at = header.find(':', at + k.size());
  if (at == std::string::npos) io_fail(path, "not a valid .npy file (bad header)");
  ++at;
  int depth = 0;
  std::size_t end = at;
  for (; end < header.size(); ++end) {
    const char c = header[end];
    if (c == '(') ++depth;
    else if (c == ')') --depth;
    else if ((c == ',' && depth == 0) || (c == '}' && depth <= 0)) break;
  }
  std::string v = header.substr(at, end - at);
  const auto b = v.find_first_not_of(" \t");
  const auto e = v.find_last_not_of(" \t");
  return b == std::string::npos ? std::string() : v.substr(b, e - b + 1);
}

}  // namespace

NpyArray read_npy(const std::string& path) {
  // Only regular files, opened without blocking (a FIFO, /dev/zero or /dev/urandom
  // would block or never end), read in one go up to the size fstat gave.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) io_fail(path, "is a directory, not a .npy file");
  const std::string bytes = read_regular_file(path, kMaxReadBytes, path);
  if (bytes.size() < 10 || std::memcmp(bytes.data(), "\x93NUMPY", 6) != 0)
    io_fail(path, "not a .npy file (no \\x93NUMPY magic)");
  const int major = static_cast<unsigned char>(bytes[6]);
  std::size_t header_len = 0, header_at = 0;
  if (major == 1) {
    header_len = static_cast<unsigned char>(bytes[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(bytes[9])) << 8);
    header_at = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) io_fail(path, "truncated .npy header");
    for (int i = 0; i < 4; ++i) header_len |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + static_cast<std::size_t>(i)])) << (8 * i);
    header_at = 12;
  } else {
    io_fail(path, "unsupported .npy format version " + std::to_string(major));
  }
  if (bytes.size() < header_at + header_len) io_fail(path, "truncated .npy header");
  const std::string header = bytes.substr(header_at, header_len);

  std::string descr = header_value(header, "descr", path);
  if (descr.size() < 2 || (descr.front() != '\'' && descr.front() != '"')) io_fail(path, "unsupported dtype " + descr);
  descr = descr.substr(1, descr.size() - 2);
  if (descr.empty()) io_fail(path, "empty dtype");
  const char order = descr[0];
  std::string code = (order == '<' || order == '>' || order == '|' || order == '=') ? descr.substr(1) : descr;
  NpyArray a;
  for (const auto& d : kDescrs)
    if (code == d.code) a.dtype = d.dtype;
  if (a.dtype == ir::DType::Undefined)
    io_fail(path, "unsupported dtype '" + descr + "' (supported: " + kSupported + ")");
  if (order == '>' && ir::dtype_size(a.dtype) > 1)
    io_fail(path, "big-endian arrays are not supported; save with dtype '<" + code + "'");
  if (header_value(header, "fortran_order", path) != "False")
    io_fail(path, "Fortran-order arrays are not supported; save with np.ascontiguousarray(a)");
  const std::string shape = header_value(header, "shape", path);
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') io_fail(path, "bad shape " + shape);
  std::int64_t count = 1;
  std::size_t i = 1;
  while (i < shape.size() - 1) {
    while (i < shape.size() - 1 && (shape[i] == ' ' || shape[i] == ',')) ++i;
    if (i >= shape.size() - 1) break;
    std::size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(shape.substr(i), &used);
    } catch (const std::exception&) {
      io_fail(path, "bad shape " + shape);
    }
    if (v < 0 || used == 0) io_fail(path, "bad shape " + shape);
    a.shape.push_back(v);
    // The header is not trusted: a product that wrapped would pass the size check
    // below and let kernels read far beyond the data.
    if (__builtin_mul_overflow(count, static_cast<std::int64_t>(v), &count))
      io_fail(path, "bad shape " + shape + " (more elements than a 64-bit count holds)");
    i += used;
  }
  std::size_t payload = 0;
  if (__builtin_mul_overflow(static_cast<std::size_t>(count), ir::dtype_size(a.dtype), &payload))
    io_fail(path, "bad shape " + shape + " (more bytes than a 64-bit size holds)");
  const std::size_t data_at = header_at + header_len;
  if (bytes.size() - data_at < payload)
    io_fail(path, "truncated: the header promises " + std::to_string(payload) + " bytes of data, the file has " +
                      std::to_string(bytes.size() - data_at));
  if (data_at % 64 == 0) {  // numpy's own padding: the values stay where they were read, no copy
    a.data = ir::ConstantData::from_string(std::move(bytes)).slice(data_at, payload);
    return a;
  }
  std::vector<std::byte> data(payload);
  if (payload) std::memcpy(data.data(), bytes.data() + data_at, payload);
  a.data = ir::ConstantData::from_vector(std::move(data));
  return a;
}

void write_npy(const std::string& path, ir::DType dtype, const std::vector<std::int64_t>& shape, const void* data) {
  const char* code = nullptr;
  for (const auto& d : kDescrs)
    if (d.dtype == dtype) code = d.code;
  if (!code) io_fail(path, "cannot write " + std::string(ir::dtype_name(dtype)) + " tensors as .npy");
  std::string dict = std::string("{'descr': '") + (ir::dtype_size(dtype) == 1 ? "|" : "<") + code +
                     "', 'fortran_order': False, 'shape': (";
  std::int64_t count = 1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]) + (shape.size() == 1 || i + 1 < shape.size() ? "," : "");
    if (i + 1 < shape.size()) dict += ' ';
    count *= shape[i];
  }
  dict += "), }";
  // Pad so the data starts on a 64-byte boundary; the header ends with '\n'.
  const std::size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string head = "\x93NUMPY";
  head += '\x01';
  head += '\x00';
  head += static_cast<char>(dict.size() & 0xff);
  head += static_cast<char>((dict.size() >> 8) & 0xff);
  head += dict;

  const std::string_view parts[] = {
      head, {static_cast<const char*>(data), static_cast<std::size_t>(count) * ir::dtype_size(dtype)}};
  write_file_atomically(path, parts);
}

}  // namespace ec::util
