// Runtime tensors of the CPU runtime: a dtype, a static shape and storage.
//
// Storage is shared and type-erased: a tensor made from an ir::ConstantData
// aliases the constant's bytes (weights are never copied), a tensor made by a
// kernel owns a zeroed buffer (fresh, or recycled from the current Arena). Aliased constants are read-only; kernels
// always write into tensors they allocated themselves.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/ir/constant_data.h"
#include "core/ir/dtype.h"

namespace ec::runtime {

using ir::DType;

class Tensor {
 public:
  /// An undefined tensor (an optional input left out).
  Tensor() = default;
  /// A zero-filled tensor of `shape`.
  Tensor(DType dtype, std::vector<std::int64_t> shape);
  /// A tensor of `shape` whose contents are unspecified: for kernels that
  /// write every element (saves zeroing a buffer that may come from the arena).
  static Tensor uninitialized(DType dtype, std::vector<std::int64_t> shape);
  /// A read-only view of a constant's bytes (no copy). The byte size must match.
  static Tensor from_constant(DType dtype, std::vector<std::int64_t> shape,
                              const ir::ConstantData& data);
  /// A tensor holding a copy of `values`.
  template <typename T>
  static Tensor from_values(DType dtype, std::vector<std::int64_t> shape,
                            const std::vector<T>& values) {
    Tensor t(dtype, std::move(shape));
    assert(values.size() * sizeof(T) == t.nbytes());
    if (!values.empty()) std::memcpy(t.mutable_raw(), values.data(), t.nbytes());
    return t;
  }
  /// A scalar (rank 0).
  template <typename T>
  static Tensor scalar(DType dtype, T value) {
    return from_values<T>(dtype, {}, std::vector<T>{value});
  }

  bool defined() const { return dtype_ != DType::Undefined; }
  DType dtype() const { return dtype_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  std::size_t rank() const { return shape_.size(); }
  std::int64_t dim(std::size_t i) const { return shape_[i]; }
  std::int64_t numel() const { return numel_; }
  std::size_t nbytes() const { return bytes_; }
  bool writable() const { return writable_; }

  const std::byte* raw() const { return data_; }
  std::byte* mutable_raw() {
    assert(writable_ && "constant tensors are read-only");
    return const_cast<std::byte*>(data_);
  }
  template <typename T>
  const T* data() const { return reinterpret_cast<const T*>(data_); }
  template <typename T>
  T* mutable_data() { return reinterpret_cast<T*>(mutable_raw()); }
  template <typename T>
  std::span<const T> values() const {
    return {data<T>(), static_cast<std::size_t>(numel())};
  }

  /// Same storage under another shape with the same element count (no copy).
  Tensor reshaped(std::vector<std::int64_t> shape) const;
  /// A writable deep copy.
  Tensor clone() const;
  /// Element i converted to double / int64 (any numeric dtype); for indices and shapes.
  double get_double(std::int64_t i) const;
  std::int64_t get_int(std::int64_t i) const;
  /// Every element as int64 (shape-like inputs: Reshape's shape, Slice's starts, ...).
  std::vector<std::int64_t> to_int64_vector() const;
  /// Every element as float (small tensors: tests, scalars).
  std::vector<float> to_float_vector() const;

  /// "f32[1,3,224,224]".
  std::string type_string() const;

 private:
  DType dtype_ = DType::Undefined;
  std::vector<std::int64_t> shape_;
  std::int64_t numel_ = 0;  // cached product of shape_ (kernels call numel() in loops)
  std::shared_ptr<const void> owner_;
  const std::byte* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool writable_ = false;
};

/// Buffers for the tensors kernels allocate, recycled: a buffer whose tensor is
/// released (after its last reader) goes back to the arena and is handed to the
/// next tensor of a size that fits, so tensors whose lifetimes do not overlap
/// share storage and, from the second run of a session on, inference makes no
/// fresh allocations (no page faults). An InferenceSession owns one and makes
/// it current during run() (ArenaScope); without one, tensors use the heap.
/// Buffers may outlive the arena's owner (outputs handed to the caller).
class Arena {
 public:
  Arena();
  /// Bytes of all buffers the arena has created (in use or free): its size.
  std::size_t size_bytes() const;
  /// Bytes in use by live tensors right now.
  std::size_t live_bytes() const;
  /// A buffer of at least `bytes` bytes, 64-byte aligned (internal; Tensor uses it).
  std::shared_ptr<std::byte[]> acquire(std::size_t bytes);

  struct State;

 private:
  std::shared_ptr<State> state_;
};

/// Makes `arena` the one tensors allocate from on this thread for the scope's lifetime.
class ArenaScope {
 public:
  explicit ArenaScope(Arena* arena);
  ~ArenaScope();
  ArenaScope(const ArenaScope&) = delete;
  ArenaScope& operator=(const ArenaScope&) = delete;

 private:
  Arena* previous_;
};

/// Product of dims (1 for rank 0); throws EdgeCompilerError when it overflows int64.
std::int64_t shape_numel(const std::vector<std::int64_t>& shape);
/// Bytes of a tensor of `shape` and `dtype`; throws EdgeCompilerError when the size
/// overflows or is beyond what memory can address (never wraps).
std::size_t shape_bytes(const std::vector<std::int64_t>& shape, DType dtype);
/// "[1,3,224,224]".
std::string shape_string(const std::vector<std::int64_t>& shape);

}  // namespace ec::runtime
