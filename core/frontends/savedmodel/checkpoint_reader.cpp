// The checkpoint reader (see checkpoint_reader.h). Layout references: LevelDB's
// doc/table_format.md and TensorFlow's tensorflow/core/lib/io/{format,block}.cc
// (same format), tensorflow/core/util/tensor_bundle/tensor_bundle.cc (entries,
// data files, string tensors).
#include "core/frontends/protobuf_log.h"
#include "core/frontends/savedmodel/checkpoint_reader.h"

#include <array>
#include <cstdio>
#include <cstring>
#include <functional>

#include <unistd.h>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/util/safe_file.h"
#include "ec_tf/tensor_bundle.pb.h"

namespace ec::frontends::savedmodel {
namespace {

constexpr std::uint64_t kTableMagic = 0xdb4775248b80fb57ull;
constexpr std::size_t kFooterSize = 48;      // 2 handles (<= 20 bytes each) padded to 40, magic 8
constexpr std::size_t kBlockTrailer = 5;     // compression type + masked CRC-32C
constexpr std::size_t kMaxEntries = 1u << 20;  // keys per bundle
constexpr std::uint64_t kMaxIndexBytes = std::uint64_t{256} << 20;

const std::array<std::uint32_t, 256>& crc_table() {
  static const std::array<std::uint32_t, 256> table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82f63b78u : c >> 1;  // reflected Castagnoli
      t[i] = c;
    }
    return t;
  }();
  return table;
}

std::uint32_t load_u32(const char* p) {
  std::uint32_t v;
  std::memcpy(&v, p, 4);  // the formats are little-endian; so is every target of this project
  return v;
}

// A cursor over bytes; every read is bounds-checked and reports failure instead of reading past the end.
struct Cursor {
  const char* p;
  const char* end;
  bool varint(std::uint64_t& v, int max_bytes = 10) {
    v = 0;
    for (int shift = 0, i = 0; i < max_bytes; ++i, shift += 7) {
      if (p >= end) return false;
      const auto b = static_cast<unsigned char>(*p++);
      v |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return true;
    }
    return false;  // too long
  }
  bool varint32(std::uint32_t& v) {
    std::uint64_t x;
    if (!varint(x, 5) || x > 0xffffffffu) return false;
    v = static_cast<std::uint32_t>(x);
    return true;
  }
};

struct Handle {
  std::uint64_t offset = 0, size = 0;
};

class Table {
 public:
  Table(std::string_view bytes, const std::string& what) : b_(bytes), what_(what) {}

  std::map<std::string, std::string> read() {
    if (b_.size() < kFooterSize)
      fail("is " + std::to_string(b_.size()) + " bytes, too short for a checkpoint index (an SSTable needs a " +
           std::to_string(kFooterSize) + "-byte footer)");
    const char* footer = b_.data() + b_.size() - kFooterSize;
    std::uint64_t magic;
    std::memcpy(&magic, footer + kFooterSize - 8, 8);
    if (magic != kTableMagic) fail("has no SSTable magic number at its end: not a TensorFlow checkpoint index, or truncated");
    Cursor c{footer, footer + kFooterSize - 8};
    Handle meta, index;
    if (!handle(c, meta) || !handle(c, index)) fail("has a damaged footer (block handles do not decode)");
    std::map<std::string, std::string> out;
    std::vector<std::pair<std::string, std::string>> index_entries;
    block_entries(index, "index block", index_entries);
    for (const auto& [sep, h] : index_entries) {
      Cursor hc{h.data(), h.data() + h.size()};
      Handle data;
      if (!handle(hc, data)) fail("index entry '" + excerpt(sep) + "' holds no valid block handle");
      std::vector<std::pair<std::string, std::string>> kv;
      block_entries(data, "data block at offset " + std::to_string(data.offset), kv);
      for (auto& [k, v] : kv) {
        if (out.size() >= kMaxEntries) fail("has more than " + std::to_string(kMaxEntries) + " entries");
        out[k] = std::move(v);
      }
    }
    return out;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw FrontendError(what_, why, "savedmodel"); }

  static bool handle(Cursor& c, Handle& h) { return c.varint(h.offset) && c.varint(h.size); }

  // The contents of the block at `h`, after checking its trailer.
  std::string_view block(const Handle& h, const std::string& which) const {
    const std::uint64_t n = b_.size();
    if (h.offset > n || h.size > n - h.offset || kBlockTrailer > n - h.offset - h.size)
      fail("the " + which + " (offset " + std::to_string(h.offset) + ", " + std::to_string(h.size) +
           " bytes) lies past the end of the file (" + std::to_string(n) + " bytes): truncated or damaged");
    const char* p = b_.data() + h.offset;
    const auto type = static_cast<unsigned char>(p[h.size]);
    const std::uint32_t stored = load_u32(p + h.size + 1);
    const std::uint32_t actual = crc32c_mask(crc32c_extend(0, p, static_cast<std::size_t>(h.size) + 1));
    if (stored != actual) fail("the " + which + " fails its CRC-32C check: the file is damaged");
    if (type == 1)
      fail("the " + which + " is Snappy-compressed; TensorFlow writes checkpoint indexes uncompressed and this "
           "reader takes only those (re-save the model with TensorFlow)");
    if (type != 0) fail("the " + which + " has compression type " + std::to_string(type) + ", not 0 (none)");
    return {p, static_cast<std::size_t>(h.size)};
  }

  // Every key/value of a block, keys rebuilt from their shared prefixes.
  void block_entries(const Handle& h, const std::string& which, std::vector<std::pair<std::string, std::string>>& out) const {
    const std::string_view blk = block(h, which);
    if (blk.size() < 4) fail("the " + which + " is too short for its restart count");
    const std::uint32_t restarts = load_u32(blk.data() + blk.size() - 4);
    if (restarts > (blk.size() - 4) / 4) fail("the " + which + " claims " + std::to_string(restarts) + " restart points, more than fit in it");
    const std::size_t limit = blk.size() - 4 - 4 * static_cast<std::size_t>(restarts);
    for (std::uint32_t i = 0; i < restarts; ++i)
      if (load_u32(blk.data() + limit + 4 * i) > limit) fail("the " + which + " has a restart point past its entries");
    Cursor c{blk.data(), blk.data() + limit};
    std::string key;
    while (c.p < c.end) {
      std::uint32_t shared, non_shared, value_len;
      if (!c.varint32(shared) || !c.varint32(non_shared) || !c.varint32(value_len))
        fail("the " + which + " has an entry whose lengths do not decode");
      if (shared > key.size()) fail("the " + which + " has an entry sharing " + std::to_string(shared) + " bytes of a " + std::to_string(key.size()) + "-byte key");
      const auto left = static_cast<std::size_t>(c.end - c.p);
      if (non_shared > left || value_len > left - non_shared)
        fail("the " + which + " has an entry running past the block's end");
      key.resize(shared);
      key.append(c.p, non_shared);
      c.p += non_shared;
      if (out.size() >= kMaxEntries) fail("the " + which + " has more than " + std::to_string(kMaxEntries) + " entries");
      out.emplace_back(key, std::string(c.p, value_len));
      c.p += value_len;
    }
  }

  std::string_view b_;
  std::string what_;
};

}  // namespace

std::uint32_t crc32c_extend(std::uint32_t crc, const void* data, std::size_t n) {
  const auto& t = crc_table();
  const auto* p = static_cast<const unsigned char*>(data);
  crc = ~crc;
  for (std::size_t i = 0; i < n; ++i) crc = t[(crc ^ p[i]) & 0xffu] ^ (crc >> 8);
  return ~crc;
}

ir::DType ir_dtype_of(int tf) {
  if (tf > 100) tf -= 100;  // DT_*_REF
  switch (tf) {
    case ec_tf::DT_FLOAT: return ir::DType::Float32;
    case ec_tf::DT_DOUBLE: return ir::DType::Float64;
    case ec_tf::DT_INT32: return ir::DType::Int32;
    case ec_tf::DT_UINT8: return ir::DType::UInt8;
    case ec_tf::DT_INT16: return ir::DType::Int16;
    case ec_tf::DT_INT8: return ir::DType::Int8;
    case ec_tf::DT_STRING: return ir::DType::String;
    case ec_tf::DT_COMPLEX64: return ir::DType::Complex64;
    case ec_tf::DT_INT64: return ir::DType::Int64;
    case ec_tf::DT_BOOL: return ir::DType::Bool;
    case ec_tf::DT_BFLOAT16: return ir::DType::BFloat16;
    case ec_tf::DT_UINT16: return ir::DType::UInt16;
    case ec_tf::DT_COMPLEX128: return ir::DType::Complex128;
    case ec_tf::DT_HALF: return ir::DType::Float16;
    case ec_tf::DT_UINT32: return ir::DType::UInt32;
    case ec_tf::DT_UINT64: return ir::DType::UInt64;
    default: return ir::DType::Undefined;
  }
}

std::string tf_type_name(int tf) {
  if (ec_tf::DataType_IsValid(tf)) return ec_tf::DataType_Name(static_cast<ec_tf::DataType>(tf));
  return "type " + std::to_string(tf);
}

std::map<std::string, std::string> read_sstable(std::string_view bytes, const std::string& what) {
  return Table(bytes, what).read();
}

CheckpointReader::CheckpointReader(std::string prefix) : prefix_(std::move(prefix)) {
  const std::string index = prefix_ + ".index";
  parse(util::read_regular_file(index, kMaxIndexBytes, index));
}

CheckpointReader::CheckpointReader(std::string prefix, std::string_view index_bytes) : prefix_(std::move(prefix)) {
  parse(index_bytes);
}

void CheckpointReader::fail(const std::string& file, const std::string& why) const {
  throw FrontendError(file, why, "savedmodel");
}

void CheckpointReader::parse(std::string_view index_bytes) {
  const std::string index = prefix_ + ".index";
  entries_ = read_sstable(index_bytes, index);
  const auto h = entries_.find("");
  if (h == entries_.end()) fail(index, "has no bundle header (the empty key): not a TensorFlow V2 checkpoint");
  ec_tf::BundleHeaderProto header;
  route_protobuf_log_to_debug();
  if (!header.ParseFromString(h->second)) fail(index, "has a bundle header that does not parse");
  if (header.endianness() != ec_tf::BundleHeaderProto::LITTLE) fail(index, "is a big-endian bundle (not supported)");
  if (header.num_shards() < 1 || header.num_shards() > 99999)
    fail(index, "declares " + std::to_string(header.num_shards()) + " data shards (expected 1 to 99999)");
  num_shards_ = header.num_shards();
  entries_.erase(h);
}

std::string CheckpointReader::data_path(std::int32_t shard) const {
  char suffix[40];
  std::snprintf(suffix, sizeof suffix, ".data-%05d-of-%05d", static_cast<int>(shard), static_cast<int>(num_shards_));
  return prefix_ + suffix;
}

std::vector<std::string> CheckpointReader::keys() const {
  std::vector<std::string> k;
  for (const auto& e : entries_) k.push_back(e.first);
  return k;
}

namespace {
struct EntryBytes {
  std::string path;
  ir::ConstantData bytes;
};

// Maps the entry's bytes after checking shard, offset and size against the data file.
EntryBytes entry_bytes(const ec_tf::BundleEntryProto& e, const std::string& key, const std::string& index,
                       std::int32_t num_shards, const std::function<std::string(std::int32_t)>& path_of) {
  const auto bad = [&](const std::string& why) { return FrontendError(index, "entry '" + excerpt(key) + "': " + why, "savedmodel"); };
  if (e.slices_size() > 0) throw bad("is a partitioned (sliced) variable, which this reader does not take");
  if (e.shard_id() < 0 || e.shard_id() >= num_shards)
    throw bad("names data shard " + std::to_string(e.shard_id()) + " of " + std::to_string(num_shards));
  const std::string path = path_of(e.shard_id());
  std::uint64_t file_size = 0;
  const int fd = util::open_regular_file(path, std::uint64_t{1} << 40, path, file_size);
  ::close(fd);
  if (e.offset() < 0 || e.size() < 0 || static_cast<std::uint64_t>(e.offset()) > file_size ||
      static_cast<std::uint64_t>(e.size()) > file_size - static_cast<std::uint64_t>(e.offset()))
    throw FrontendError(index, "entry '" + excerpt(key) + "' points past the end of " + path + " (offset " +
                                   std::to_string(e.offset()) + ", " + std::to_string(e.size()) + " bytes, file " +
                                   std::to_string(file_size) + " bytes): the checkpoint is truncated or does not belong to this index",
                        "savedmodel");
  EntryBytes out{path, {}};
  if (e.size() == 0) return out;
  try {
    out.bytes = ir::ConstantData::map_file(path, static_cast<std::size_t>(e.offset()), static_cast<std::size_t>(e.size()));
  } catch (const std::exception& x) {
    throw FrontendError(path, std::string("cannot be mapped: ") + x.what(), "savedmodel");
  }
  return out;
}
}  // namespace

BundleTensor CheckpointReader::tensor(const std::string& key) const {
  const std::string index = prefix_ + ".index";
  const auto it = entries_.find(key);
  if (it == entries_.end()) fail(index, "has no entry '" + excerpt(key) + "'");
  ec_tf::BundleEntryProto e;
  if (!e.ParseFromString(it->second)) fail(index, "entry '" + excerpt(key) + "' does not parse as a BundleEntryProto");
  BundleTensor t;
  t.dtype = ir_dtype_of(e.dtype());
  const std::size_t es = ir::dtype_size(t.dtype);
  if (es == 0) fail(index, "entry '" + excerpt(key) + "' has " + tf_type_name(e.dtype()) + ", not a numeric type this reader takes");
  std::uint64_t numel = 1;
  for (const auto& d : e.shape().dim()) {
    if (d.size() < 0) fail(index, "entry '" + excerpt(key) + "' has an unknown dimension");
    if (d.size() > 0 && numel > (std::uint64_t{1} << 40) / static_cast<std::uint64_t>(d.size()))
      fail(index, "entry '" + excerpt(key) + "' has more than 2^40 elements");
    numel *= static_cast<std::uint64_t>(d.size());
    t.shape.push_back(d.size());
  }
  if (e.size() < 0 || static_cast<std::uint64_t>(e.size()) != numel * es)
    fail(index, "entry '" + excerpt(key) + "' holds " + std::to_string(e.size()) + " bytes, its shape and type need " +
                    std::to_string(numel * es));
  auto [path, bytes] = entry_bytes(e, key, index, num_shards_, [this](std::int32_t s) { return data_path(s); });
  if (crc32c_mask(crc32c_extend(0, bytes.data(), bytes.size())) != e.crc32c())
    fail(path, "the bytes of '" + excerpt(key) + "' fail their CRC-32C check: the data file is damaged or does not belong to this index");
  // Kernels read typed pointers: an entry at an offset that is no multiple of its element size is copied.
  if (reinterpret_cast<std::uintptr_t>(bytes.data()) % es != 0) t.data = ir::ConstantData::copy_of(bytes.data(), bytes.size());
  else t.data = std::move(bytes);
  return t;
}

std::string CheckpointReader::string_scalar(const std::string& key) const {
  const std::string index = prefix_ + ".index";
  const auto it = entries_.find(key);
  if (it == entries_.end()) fail(index, "has no entry '" + excerpt(key) + "'");
  ec_tf::BundleEntryProto e;
  if (!e.ParseFromString(it->second)) fail(index, "entry '" + excerpt(key) + "' does not parse as a BundleEntryProto");
  if (e.dtype() != ec_tf::DT_STRING || e.shape().dim_size() != 0)
    fail(index, "entry '" + excerpt(key) + "' is not a scalar string");
  auto [path, bytes] = entry_bytes(e, key, index, num_shards_, [this](std::int32_t s) { return data_path(s); });
  // [varint64 length][4-byte masked CRC-32C of the length as uint32][bytes] (tensor_bundle.cc, WriteStringTensor)
  const auto* p = reinterpret_cast<const char*>(bytes.data());
  Cursor c{p, p + bytes.size()};
  std::uint64_t len;
  if (!c.varint(len)) fail(path, "string '" + excerpt(key) + "' has a length that does not decode");
  if (static_cast<std::size_t>(c.end - c.p) < 4 || len != static_cast<std::uint64_t>(c.end - c.p) - 4)
    fail(path, "string '" + excerpt(key) + "' has length " + std::to_string(len) + ", its entry holds " + std::to_string(bytes.size()) + " bytes");
  const auto len32 = static_cast<std::uint32_t>(len);
  std::uint32_t crc = crc32c_extend(0, &len32, 4);
  crc = crc32c_extend(crc, c.p, 4 + static_cast<std::size_t>(len));
  if (crc32c_mask(crc) != e.crc32c()) fail(path, "string '" + excerpt(key) + "' fails its CRC-32C check: the data file is damaged");
  return std::string(c.p + 4, static_cast<std::size_t>(len));
}

}  // namespace ec::frontends::savedmodel
