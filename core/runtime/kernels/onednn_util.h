// What the oneDNN kernels (conv_onednn.cpp, matmul_onednn.cpp) share: the engine, the
// one-OpenMP-thread rule, our scratchpads and the fused activations as post-ops.
// Internal to the runtime's kernels (includes oneDNN's header).
#pragma once

#include <array>
#include <atomic>
#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/ir/activation.h"

namespace ec::runtime::kernels::onednn {

/// The CPU engine (made once).
dnnl::engine& cpu_engine();
/// oneDNN runs on the calling thread alone (an OpenMP ICV per thread; set once per thread):
/// it never starts an OpenMP team, whose spinning threads would fight our pool for the cores.
void one_omp_thread();
/// This thread's stream (made once per thread, not per call).
dnnl::stream& thread_stream();

/// The arguments of one primitive call in a fixed array, executed through the C API:
/// the C++ API's std::unordered_map<int, memory> cost allocations on every call of every
/// piece of every small convolution (mnasnet0_5: 4 % of its profile in malloc/free).
class CallArgs {
 public:
  /// `m` as argument `arg` (replacing an earlier one).
  CallArgs& set(int arg, const dnnl::memory& m);
  /// The memory set as `arg` (an empty one when none is).
  dnnl::memory get(int arg) const;
  void execute(const dnnl::primitive& p, dnnl::stream& s) const;

 private:
  static constexpr std::size_t kMax = 8;
  std::array<std::pair<int, dnnl::memory>, kMax> a_{};
  std::size_t n_ = 0;
};

/// A process-unique id for a prepared primitive whose buffers get thread memories (never
/// reused: a freed primitive's memories never match a new one's).
std::uint64_t next_owner_id();
/// Slots 0-14 of an owner are its caller's; 15 is the scratchpad's.
constexpr int kScratchpadSlot = 15;
/// This thread's memory object for slot `slot` of `owner`, made with `md` on first use (a
/// slot keeps one md) and pointed at `data`: a dnnl::memory made per call cost its
/// allocations and its destruction. Bounded: cleared when it holds 4096 objects.
dnnl::memory thread_memory(std::uint64_t owner, int slot, const dnnl::memory::desc& md, const void* data);
/// Sets this thread's own scratchpad of `scratch`'s size in `args`, none when it is empty
/// (primitives made with scratchpad_mode::user; pieces of one product run at once on the
/// pool's threads).
void set_thread_scratchpad(CallArgs& args, std::uint64_t owner, const dnnl::memory::desc& scratch);
/// The op's fused activation as a post-op (NONE: none); false for one oneDNN has no post-op for.
bool activation_post_op(ir::Activation act, dnnl::primitive_attr& attr);

/// A pack-cache key built in one string (values appended through to_chars): the primitives
/// are looked up per call, and building the key from std::to_string pieces and their
/// concatenations cost a dozen allocations each time.
class CacheKey {
 public:
  explicit CacheKey(std::string_view kind) {
    s_.reserve(256);
    s_ = kind;
  }
  CacheKey& operator<<(std::string_view v) {
    s_ += v;
    return *this;
  }
  CacheKey& operator<<(char c) {
    s_ += c;
    return *this;
  }
  CacheKey& operator<<(std::int64_t v) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    s_.append(buf, r.ptr);
    return *this;
  }
  CacheKey& operator<<(const void* p) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, reinterpret_cast<std::uintptr_t>(p), 16);
    s_.append(buf, r.ptr);
    return *this;
  }
  std::string take() { return std::move(s_); }

 private:
  std::string s_;
};

/// A switch: set by a test (1 on, 0 off), else read once from the environment: on unless
/// `var` equals `off_value`; `unset` when the variable is not set.
struct EnvSwitch {
  const char* var;
  const char* off_value;
  std::atomic<int> v{-1};
  bool on(bool unset = true);
  void set(bool on) { v.store(on ? 1 : 0, std::memory_order_relaxed); }
};

}  // namespace ec::runtime::kernels::onednn
