// load_checkpoint: a TensorFlow checkpoint (tensor bundle) -> tensors by key.
//
// PREFIX.index is an SSTable in LevelDB's table format (TensorFlow's
// tensorflow/core/lib/io/table_*): a 48-byte footer (metaindex and index block
// handles as varints, padding, the magic 0xdb4775248b80fb57), an index block whose
// values are handles of data blocks, and data blocks of prefix-compressed keys with
// restart points; each block is followed by a compression byte and a masked CRC-32C.
// The empty key holds a BundleHeaderProto, every other key a BundleEntryProto that
// says where the tensor's bytes are in PREFIX.data-NNNNN-of-MMMMM.
//
// Written for hostile files: every handle, varint, length and offset is checked
// against the real file size before it is used, parsing is iterative, and the
// number and size of entries are bounded. Errors are FrontendError naming the file.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/constant_data.h"
#include "core/ir/dtype.h"

namespace ec::frontends::savedmodel {

/// The key/value pairs of an SSTable held in `bytes` (the whole file). `what` names
/// the file in errors. Refuses compressed blocks (TensorFlow writes bundles
/// uncompressed), bad checksums, and anything out of bounds.
std::map<std::string, std::string> read_sstable(std::string_view bytes, const std::string& what);

/// One tensor of a bundle.
struct BundleTensor {
  ir::DType dtype = ir::DType::Undefined;
  std::vector<std::int64_t> shape;
  ir::ConstantData data;  // numeric tensors: little-endian elements
};

class CheckpointReader {
 public:
  /// Reads `prefix`.index ("<folder>/variables/variables"). Data files are opened
  /// on demand. Throws FrontendError.
  explicit CheckpointReader(std::string prefix);
  /// For tests and fuzzing: an index read from memory; data files under `prefix`.
  CheckpointReader(std::string prefix, std::string_view index_bytes);

  bool has(const std::string& key) const { return entries_.count(key) != 0; }
  std::size_t size() const { return entries_.size(); }
  /// The numeric tensor stored under `key`; its bytes are checked against the
  /// data file's size and the entry's CRC-32C.
  BundleTensor tensor(const std::string& key) const;
  /// A scalar DT_STRING tensor (e.g. "_CHECKPOINTABLE_OBJECT_GRAPH").
  std::string string_scalar(const std::string& key) const;
  /// Keys (without the header's empty key), sorted.
  std::vector<std::string> keys() const;

 private:
  void parse(std::string_view index_bytes);
  std::string data_path(std::int32_t shard) const;
  [[noreturn]] void fail(const std::string& file, const std::string& why) const;

  std::string prefix_;
  std::int32_t num_shards_ = 1;
  std::map<std::string, std::string> entries_;  // key -> serialized BundleEntryProto
};

/// The IR type of a TensorFlow DataType number (reference types, value + 100,
/// count as their value type); Undefined for types the IR has no equal of.
ir::DType ir_dtype_of(int tf_dtype);
/// "DT_STRING", or "type N" for a number TensorFlow does not define.
std::string tf_type_name(int tf_dtype);

/// CRC-32C (Castagnoli) of `n` bytes, continuing from `crc`.
std::uint32_t crc32c_extend(std::uint32_t crc, const void* data, std::size_t n);
/// LevelDB's / TensorFlow's masked CRC (stored CRCs are masked).
inline std::uint32_t crc32c_mask(std::uint32_t crc) { return ((crc >> 15) | (crc << 17)) + 0xa282ead8u; }

}  // namespace ec::frontends::savedmodel
