#include "core/frontends/coreml/weight_file.h"

#include <cstring>
#include <stdexcept>

namespace ec::coreml {
namespace {

template <typename T>
void put(std::vector<std::uint8_t>& b, std::size_t at, T v) {
  for (std::size_t i = 0; i < sizeof(T); ++i) b[at + i] = static_cast<std::uint8_t>((static_cast<std::uint64_t>(v) >> (8 * i)) & 0xff);
}

template <typename T>
T get(std::span<const std::uint8_t> b, std::size_t at) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= static_cast<std::uint64_t>(b[at + i]) << (8 * i);
  return static_cast<T>(v);
}

std::size_t align_up(std::size_t n) { return (n + kBlobAlignment - 1) / kBlobAlignment * kBlobAlignment; }

struct CodeRow {
  ir::DType dtype;
  std::uint32_t code;
};
constexpr CodeRow kCodes[] = {
    {ir::DType::Float16, 1}, {ir::DType::Float32, 2}, {ir::DType::UInt8, 3},  {ir::DType::Int8, 4},
    {ir::DType::BFloat16, 5}, {ir::DType::Int16, 6},  {ir::DType::UInt16, 7}, {ir::DType::Int32, 14},
    {ir::DType::UInt32, 15},
};

}  // namespace

std::optional<std::uint32_t> blob_dtype_code(ir::DType t) {
  for (const auto& r : kCodes)
    if (r.dtype == t) return r.code;
  return std::nullopt;
}

std::optional<ir::DType> blob_dtype_from_code(std::uint32_t code) {
  for (const auto& r : kCodes)
    if (r.code == code) return r.dtype;
  return std::nullopt;
}

WeightFileWriter::WeightFileWriter() : bytes_(kBlobAlignment, 0) {
  put<std::uint32_t>(bytes_, 0, 0);
  put<std::uint32_t>(bytes_, 4, kStorageVersion);
}

std::uint64_t WeightFileWriter::append(ir::DType dtype, std::span<const std::uint8_t> data) {
  const auto code = blob_dtype_code(dtype);
  if (!code) throw std::runtime_error("weight.bin: no blob dtype code for " + std::string(ir::dtype_name(dtype)));
  const std::size_t meta = align_up(bytes_.size());
  const std::size_t start = meta + kBlobAlignment;
  bytes_.resize(start + data.size(), 0);  // gaps are zeros
  put<std::uint32_t>(bytes_, meta, kBlobSentinel);
  put<std::uint32_t>(bytes_, meta + 4, *code);
  put<std::uint64_t>(bytes_, meta + 8, data.size());
  put<std::uint64_t>(bytes_, meta + 16, start);
  if (!data.empty()) std::memcpy(bytes_.data() + start, data.data(), data.size());
  put<std::uint32_t>(bytes_, 0, ++count_);
  return meta;
}

BlobRecord read_blob(std::span<const std::uint8_t> file, std::uint64_t offset) {
  const std::string at = "weight.bin blob at offset " + std::to_string(offset);
  if (offset % kBlobAlignment) throw std::runtime_error(at + ": not 64-byte aligned");
  if (offset > file.size() || file.size() - offset < kBlobAlignment) throw std::runtime_error(at + ": past the end of the file (" + std::to_string(file.size()) + " bytes)");
  if (get<std::uint32_t>(file, offset) != kBlobSentinel) throw std::runtime_error(at + ": sentinel is not 0xDEADBEEF");
  BlobRecord r;
  r.metadata_offset = offset;
  r.dtype_code = get<std::uint32_t>(file, offset + 4);
  r.size = get<std::uint64_t>(file, offset + 8);
  r.data_offset = get<std::uint64_t>(file, offset + 16);
  if (!blob_dtype_from_code(r.dtype_code)) throw std::runtime_error(at + ": unknown dtype code " + std::to_string(r.dtype_code));
  if (r.data_offset % kBlobAlignment) throw std::runtime_error(at + ": data offset not 64-byte aligned");
  // offset + 64 <= file.size() here, so the sums below cannot wrap
  if (r.data_offset < offset + kBlobAlignment || r.data_offset > file.size() || r.size > file.size() - r.data_offset)
    throw std::runtime_error(at + ": data [" + std::to_string(r.data_offset) + ", +" + std::to_string(r.size) + ") outside the file");
  for (std::size_t k = 32; k < 64; k += 8)
    if (get<std::uint64_t>(file, offset + k) != 0) throw std::runtime_error(at + ": reserved field not 0");
  return r;
}

std::vector<BlobRecord> read_all_blobs(std::span<const std::uint8_t> file) {
  if (file.size() < kBlobAlignment) throw std::runtime_error("weight.bin: shorter than its 64-byte header");
  const auto count = get<std::uint32_t>(file, 0);
  if (get<std::uint32_t>(file, 4) != kStorageVersion)
    throw std::runtime_error("weight.bin: storage version " + std::to_string(get<std::uint32_t>(file, 4)) + ", expected 2");
  std::vector<BlobRecord> out;
  std::uint64_t at = kBlobAlignment;
  for (std::uint32_t i = 0; i < count; ++i) {
    out.push_back(read_blob(file, at));
    at = align_up(out.back().data_offset + out.back().size);
  }
  return out;
}

}  // namespace ec::coreml
