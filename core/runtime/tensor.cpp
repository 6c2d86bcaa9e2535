#include "core/runtime/tensor.h"

#include <unistd.h>

#include <climits>
#include <map>
#include <mutex>
#include <cstdint>
#include <stdexcept>

#include "core/errors.h"
#include "core/runtime/dispatch.h"

namespace ec::runtime {
namespace {
thread_local Arena* t_arena = nullptr;  // see ArenaScope
}  // namespace

std::int64_t shape_numel(const std::vector<std::int64_t>& shape) {
  // Dims come from model files and .npy headers: a product that wraps would make a
  // small buffer that kernels then index as a huge one, so overflow is refused.
  std::int64_t n = 1;
  for (auto d : shape)
    if (__builtin_mul_overflow(n, d, &n))
      throw EdgeCompilerError(ErrorKind::Graph, "shape " + shape_string(shape) +
                                                    " has more elements than a 64-bit count holds");
  return n;
}

std::size_t shape_bytes(const std::vector<std::int64_t>& shape, DType dtype) {
  const std::int64_t n = shape_numel(shape);
  std::size_t bytes = 0;
  if (n < 0 || __builtin_mul_overflow(static_cast<std::size_t>(n), ir::dtype_size(dtype), &bytes) ||
      bytes > static_cast<std::size_t>(PTRDIFF_MAX) - 64)
    throw EdgeCompilerError(ErrorKind::Graph, "a tensor " + std::string(ir::dtype_name(dtype)) +
                                                  shape_string(shape) + " is larger than memory can address");
  // A model asking for more than the machine has is refused here, before the
  // allocation (which would otherwise succeed lazily and page for minutes, or be
  // killed), with one line instead of an out-of-memory error.
  static const std::size_t physical = [] {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : SIZE_MAX;
  }();
  if (bytes > physical)
    throw EdgeCompilerError(ErrorKind::Graph, "a tensor " + std::string(ir::dtype_name(dtype)) + shape_string(shape) +
                                                  " needs " + std::to_string(bytes >> 30) + " GiB, more than this machine's " +
                                                  std::to_string(physical >> 30) + " GiB of memory");
  return bytes;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ',';
    s += std::to_string(shape[i]);
  }
  return s + "]";
}

Tensor::Tensor(DType dtype, std::vector<std::int64_t> shape)
    : dtype_(dtype), shape_(std::move(shape)), writable_(true) {
  for (auto d : shape_)
    if (d < 0) throw EdgeCompilerError(ErrorKind::Graph, "negative dimension in shape " + shape_string(shape_));
  const std::size_t elem = ir::dtype_size(dtype_);
  if (elem == 0)
    throw UnsupportedOpError("tensors of type " + std::string(ir::dtype_name(dtype_)),
                             "the CPU runtime", "");
  bytes_ = shape_bytes(shape_, dtype_);
  numel_ = shape_numel(shape_);
  // Zeroed, over-aligned storage; at least one byte so data() is never null.
  if (t_arena) {
    auto buffer = t_arena->acquire(bytes_ + 1);
    std::memset(buffer.get(), 0, bytes_ + 1);
    data_ = buffer.get();
    owner_ = std::move(buffer);
    return;
  }
  auto buffer = std::shared_ptr<std::byte[]>(new (std::align_val_t{64}) std::byte[bytes_ + 1](),
                                             [](std::byte* p) { ::operator delete[](p, std::align_val_t{64}); });
  data_ = buffer.get();
  owner_ = std::move(buffer);
}

Tensor Tensor::uninitialized(DType dtype, std::vector<std::int64_t> shape) {
  if (!t_arena || ir::dtype_size(dtype) == 0) return Tensor(dtype, std::move(shape));  // (the latter throws)
  for (auto d : shape)
    if (d < 0) throw EdgeCompilerError(ErrorKind::Graph, "negative dimension in shape " + shape_string(shape));
  Tensor t;
  t.dtype_ = dtype;
  t.writable_ = true;
  t.shape_ = std::move(shape);
  t.bytes_ = shape_bytes(t.shape_, dtype);
  t.numel_ = shape_numel(t.shape_);
  auto buffer = t_arena->acquire(t.bytes_ + 1);
  t.data_ = buffer.get();
  t.owner_ = std::move(buffer);
  return t;
}

// ---- Arena ----

struct Arena::State {
  std::mutex m;
  std::multimap<std::size_t, std::byte*> free;  // capacity -> buffer
  std::size_t size = 0, live = 0;
  ~State() {
    for (auto& [cap, p] : free) ::operator delete[](p, std::align_val_t{64});
  }
};

Arena::Arena() : state_(std::make_shared<State>()) {}

std::size_t Arena::size_bytes() const {
  std::lock_guard lock(state_->m);
  return state_->size;
}

std::size_t Arena::live_bytes() const {
  std::lock_guard lock(state_->m);
  return state_->live;
}

std::shared_ptr<std::byte[]> Arena::acquire(std::size_t bytes) {
  bytes = (bytes + 63) / 64 * 64;
  std::byte* p = nullptr;
  std::size_t cap = bytes;
  {
    std::lock_guard lock(state_->m);
    // Best fit, but never a buffer more than twice the request (it would pin memory).
    auto it = state_->free.lower_bound(bytes);
    if (it != state_->free.end() && it->first <= 2 * bytes) {
      cap = it->first;
      p = it->second;
      state_->free.erase(it);
    }
    state_->live += cap;
    if (!p) state_->size += cap;
  }
  if (!p) p = new (std::align_val_t{64}) std::byte[cap];
  // The deleter returns the buffer; it keeps the state alive, so buffers may outlive the Arena.
  return std::shared_ptr<std::byte[]>(p, [state = state_, cap](std::byte* q) {
    std::lock_guard lock(state->m);
    state->live -= cap;
    state->free.emplace(cap, q);
  });
}

ArenaScope::ArenaScope(Arena* arena) : previous_(t_arena) { t_arena = arena; }
ArenaScope::~ArenaScope() { t_arena = previous_; }

Tensor Tensor::from_constant(DType dtype, std::vector<std::int64_t> shape,
                             const ir::ConstantData& data) {
  Tensor t;
  t.dtype_ = dtype;
  t.shape_ = std::move(shape);
  for (auto d : t.shape_)
    if (d < 0) throw EdgeCompilerError(ErrorKind::Graph, "negative dimension in shape " + shape_string(t.shape_));
  t.bytes_ = shape_bytes(t.shape_, dtype);
  t.numel_ = shape_numel(t.shape_);
  if (data.size() != t.bytes_)
    throw EdgeCompilerError(ErrorKind::Graph, "constant of type " + t.type_string() + " holds " +
                                                  std::to_string(data.size()) + " bytes, expected " +
                                                  std::to_string(t.bytes_));
  // Keep the constant's owner alive through a copy of the ConstantData.
  auto holder = std::make_shared<ir::ConstantData>(data);
  t.data_ = holder->data();
  t.owner_ = std::move(holder);
  t.writable_ = false;
  return t;
}


Tensor Tensor::reshaped(std::vector<std::int64_t> shape) const {
  if (shape_numel(shape) != numel())
    throw EdgeCompilerError(ErrorKind::Graph, "cannot reshape " + type_string() + " to " + shape_string(shape));
  Tensor t = *this;
  t.shape_ = std::move(shape);
  t.numel_ = shape_numel(t.shape_);
  return t;
}

Tensor Tensor::clone() const {
  Tensor t(dtype_, shape_);
  if (bytes_) std::memcpy(t.mutable_raw(), data_, bytes_);
  return t;
}

double Tensor::get_double(std::int64_t i) const {
  return dispatch_all(dtype_, [&]<typename T>() { return static_cast<double>(data<T>()[i]); });
}

std::int64_t Tensor::get_int(std::int64_t i) const {
  return dispatch_all(dtype_, [&]<typename T>() { return static_cast<std::int64_t>(data<T>()[i]); });
}

std::vector<std::int64_t> Tensor::to_int64_vector() const {
  std::vector<std::int64_t> v(static_cast<std::size_t>(numel()));
  for (std::int64_t i = 0; i < numel(); ++i) v[static_cast<std::size_t>(i)] = get_int(i);
  return v;
}

std::vector<float> Tensor::to_float_vector() const {
  std::vector<float> v(static_cast<std::size_t>(numel()));
  for (std::int64_t i = 0; i < numel(); ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(get_double(i));
  return v;
}

std::string Tensor::type_string() const {
  return std::string(ir::dtype_name(dtype_)) + shape_string(shape_);
}

}  // namespace ec::runtime
