// Immutable bytes of a constant tensor, shared without copying.
//
// The bytes live in whatever owns them: a std::string moved out of a parsed
// protobuf, a memory-mapped external-data file, a vector made by a pass. The
// owner is kept alive by a type-erased shared_ptr, so slicing a mapped file or
// handing a constant to another graph never copies the payload.
#pragma once

#include <cstddef>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ec::ir {

class ConstantData {
 public:
  ConstantData() = default;
  /// View `size` bytes at `data`, kept alive by `owner`.
  ConstantData(std::shared_ptr<const void> owner, const std::byte* data, std::size_t size)
      : owner_(std::move(owner)), data_(data), size_(size) {}

  /// Takes ownership of a string's bytes (no copy).
  static ConstantData from_string(std::string bytes);
  /// Takes ownership of a byte vector (no copy).
  static ConstantData from_vector(std::vector<std::byte> bytes);
  /// Copies `size` bytes (for small values made on the fly).
  static ConstantData copy_of(const void* data, std::size_t size);
  /// Maps `length` bytes of a file at `offset` read-only; throws std::runtime_error on failure.
  static ConstantData map_file(const std::string& path, std::size_t offset, std::size_t length);

  const std::byte* data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  template <typename T>
  std::span<const T> as() const {
    return {reinterpret_cast<const T*>(data_), size_ / sizeof(T)};
  }
  /// A sub-range sharing the same owner.
  ConstantData slice(std::size_t offset, std::size_t length) const {
    return ConstantData(owner_, data_ + offset, length);
  }
  bool operator==(const ConstantData& o) const {
    return size_ == o.size_ && (size_ == 0 || std::memcmp(data_, o.data_, size_) == 0);
  }

 private:
  std::shared_ptr<const void> owner_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace ec::ir
