// Core ML's weight file (Data/com.apple.CoreML/weights/weight.bin, "blob
// storage v2"; coremltools mlmodel/src/MILBlob/Blob/StorageFormat.hpp).
// Little-endian; every record 64-byte aligned:
//   header   64 B: u32 count, u32 version = 2, 7 x u64 reserved (0)
//   per blob 64 B metadata: u32 sentinel 0xDEADBEEF, u32 mil_dtype, u64 size in
//            bytes, u64 data offset (absolute, = metadata offset + 64),
//            u64 padding_size_in_bits, 4 x u64 reserved (0); then the data.
// Written by the Metal backend, read by the Core ML frontend and the tests.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/ir/dtype.h"

namespace ec::coreml {

constexpr std::uint32_t kBlobSentinel = 0xDEADBEEF;
constexpr std::uint32_t kStorageVersion = 2;
constexpr std::size_t kBlobAlignment = 64;

/// Blob dtype codes (MILBlob/Blob/BlobDataType.hpp): Float16 = 1, Float32 = 2,
/// UInt8 = 3, Int8 = 4, BFloat16 = 5, Int16 = 6, UInt16 = 7, Int32 = 14, UInt32 = 15.
std::optional<std::uint32_t> blob_dtype_code(ir::DType t);
std::optional<ir::DType> blob_dtype_from_code(std::uint32_t code);

/// Builds weight.bin in memory.
class WeightFileWriter {
 public:
  WeightFileWriter();
  /// Appends one blob; returns the offset of its metadata record (what a
  /// BlobFileValue's `offset` holds).
  std::uint64_t append(ir::DType dtype, std::span<const std::uint8_t> data);
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }
  std::uint32_t count() const { return count_; }

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint32_t count_ = 0;
};

struct BlobRecord {
  std::uint64_t metadata_offset = 0;
  std::uint32_t dtype_code = 0;
  std::uint64_t size = 0;
  std::uint64_t data_offset = 0;
};

/// The blob whose metadata is at `offset`: checks the sentinel, the dtype code,
/// that the data lies inside the file, and the reserved fields. Throws
/// std::runtime_error with what is wrong.
BlobRecord read_blob(std::span<const std::uint8_t> file, std::uint64_t offset);
/// Every blob in file order (walks the records from offset 64, as many as the
/// header's count says). Throws std::runtime_error on a malformed file.
std::vector<BlobRecord> read_all_blobs(std::span<const std::uint8_t> file);

}  // namespace ec::coreml
