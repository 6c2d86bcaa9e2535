// Packed single-precision GEMM with runtime CPU dispatch.
//
//   C[M, N] = act(alpha * op(A)[M, K] * op(B)[K, N] (+ C if accumulate) + bias)
//
// Row-major operands; op(X) = X or X^T. The driver blocks for the caches
// (MC x KC panels of A, KC x NC panels of B, packed into contiguous buffers)
// and calls a register-blocked micro-kernel chosen ONCE at first use from what
// the CPU supports (__builtin_cpu_supports): AVX-512F 8x32, AVX2+FMA 6x16, or a
// portable 4x8 kernel. One or two rows times a transposed B (fully connected
// at batch 1) take a dot-product path instead. The ISA kernels live in their own translation units
// (gemm_avx2.cpp, gemm_avx512.cpp) compiled for plain x86-64, with the
// instruction set enabled only on the kernel functions (target attributes),
// and include no Eigen or other template library, so no inline function
// compiled for a wider ISA can be shared with code that runs on a plain CPU.
//
// With a current thread pool (core/runtime/thread_pool.h), the product is
// split into column (or row) slabs aligned to the micro-tile; every element is
// computed by the same sequence of operations whatever the split, so results
// are bitwise independent of the thread count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace ec::runtime::gemm {

/// Micro-kernel families, widest last.
enum class Isa { Generic, Avx2, Avx512 };

/// "generic", "avx2", "avx512".
const char* isa_name(Isa isa);
/// Whether this CPU (and this build) can run `isa`'s kernel.
bool isa_supported(Isa isa);
/// Every ISA this machine can run, Generic first.
std::vector<Isa> supported_isas();
/// The ISA sgemm uses: the widest supported one, unless the environment
/// variable EC_GEMM_ISA=generic|avx2|avx512 (read once) or force_isa() says
/// otherwise. An unsupported or unknown request falls back to the widest.
Isa active_isa();
/// Test hook: use `isa` from now on (must be supported; returns false otherwise).
bool force_isa(Isa isa);

/// What is done to each element of C after the product (fused, while C is in cache).
struct Epilogue {
  enum class Bias { None, PerRow, PerColumn };
  Bias bias_kind = Bias::None;
  const float* bias = nullptr;  // M values (PerRow) or N values (PerColumn)
  // Clamp: RELU is [0, inf), RELU6 [0, 6]; the default is no clamp.
  float lo = -std::numeric_limits<float>::infinity();
  float hi = std::numeric_limits<float>::infinity();
  // Then, when set, an element-wise function on each finished strip of C (a micro-panel's
  // rows over one column block) while it is still in cache: a fused activation with no
  // clamp form (GELU, SiLU...), f(p, n) in place on p[0, n).
  void (*strip_fn)(float* p, std::int64_t n) = nullptr;
};

/// C = act(alpha * op(A) * op(B) (+ C) + bias), see the file comment.
/// A is M x K (K x M when trans_a) with row stride lda; B is K x N (N x K when
/// trans_b) with row stride ldb; C is M x N with row stride ldc.
void sgemm(std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A, std::int64_t lda,
           bool trans_a, const float* B, std::int64_t ldb, bool trans_b, bool accumulate, float* C,
           std::int64_t ldc, const Epilogue& epilogue = {});

/// A B operand that is not stored as a matrix (e.g. the implicit im2col matrix
/// of a convolution): it writes rows [p0, p0+kc) x columns [j0, j0+nc) of B in
/// packed form, i.e. per NR-column panel, k-major (out[jp*kc + p*nr + j]),
/// zero-padded to whole panels. Called concurrently from several threads.
class BPacker {
 public:
  virtual ~BPacker() = default;
  virtual void pack(std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc, int nr, float* out) const = 0;
};

/// C = act(alpha * op(A) * B (+ C) + bias) with B produced by `b`.
void sgemm(std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A, std::int64_t lda,
           bool trans_a, const BPacker& b, bool accumulate, float* C, std::int64_t ldc, const Epilogue& epilogue = {});

/// Same, with an explicit ISA (tests) and an explicit thread split (1 = serial).
void sgemm_with(Isa isa, int threads, std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A,
                std::int64_t lda, bool trans_a, const float* B, std::int64_t ldb, bool trans_b, bool accumulate,
                float* C, std::int64_t ldc, const Epilogue& epilogue = {});

/// Packed copies of constant A and B operands (weights), so each is packed once per
/// session instead of once per call. Only operands lying inside a registered
/// constant range are cached (their contents cannot change while the cache
/// lives); the cache is used by sgemm() on threads where a PackCacheScope
/// makes it current. Thread-safe.
struct MicroKernel;

class PackCache {
 public:
  PackCache();
  ~PackCache();
  PackCache(const PackCache&) = delete;
  PackCache& operator=(const PackCache&) = delete;
  /// Declares [data, data + bytes) immutable for the cache's lifetime.
  void add_constant_range(const void* data, std::size_t bytes);
  /// Bytes held by packed copies (prepared kernel state included).
  std::size_t packed_bytes() const;
  /// True when [data, data + bytes) lies inside a declared constant range.
  bool is_constant(const void* data, std::size_t bytes) const;
  /// Session-lifetime state a kernel prepared for one op (e.g. a oneDNN primitive with
  /// its reordered weights), under a key the kernel builds; null when absent.
  std::shared_ptr<void> find_prepared(const std::string& key) const;
  /// Stores `state` under `key` (the first stored wins; returns what is stored).
  std::shared_ptr<void> put_prepared(const std::string& key, std::shared_ptr<void> state, std::size_t bytes);

  struct Impl;

 private:
  Impl* impl_;
  friend const float* cached_pack(PackCache&, const MicroKernel&, const float*, std::int64_t, bool, float,
                                  std::int64_t, std::int64_t, std::int64_t);
  friend const float* cached_pack_b(PackCache&, const MicroKernel&, const float*, std::int64_t, bool, std::int64_t,
                                    std::int64_t, std::int64_t);
};

/// The cache made current on this thread by a PackCacheScope (null outside a session run).
PackCache* current_pack_cache();

/// Makes `cache` current on this thread for the scope's lifetime.
class PackCacheScope {
 public:
  explicit PackCacheScope(PackCache* cache);
  ~PackCacheScope();
  PackCacheScope(const PackCacheScope&) = delete;
  PackCacheScope& operator=(const PackCacheScope&) = delete;

 private:
  PackCache* previous_;
};

// ---- micro-kernels (internal; one per ISA translation unit) ----

/// What a micro-kernel applies before its store on the last KC block: row_bias
/// (MR values) or col_bias (NR values) may be null; then min(max(., lo), hi).
struct TileEpilogue {
  const float* row_bias;
  const float* col_bias;
  float lo, hi;
};

/// c[MR x NR] (row stride ldc) = (accumulate ? c : 0) + sum_k a[k*MR + i] * b[k*NR + j],
/// then, when ep is not null, + bias and the clamp.
using MicroKernelFn = void (*)(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc,
                               bool accumulate, const TileEpilogue* ep);

/// out[j] = sum_k a[k] * B[j * ldb + k] for j in [0, n): the dot products of
/// a row times a transposed B (fully connected at batch 1, recurrent steps).
using DotRowsFn = void (*)(const float* a, const float* B, std::int64_t ldb, std::int64_t K, std::int64_t n,
                           float* out);

struct MicroKernel {
  Isa isa;
  int mr, nr;         // register tile
  int mc, kc, nc;     // cache blocks (mc % mr == 0, nc % nr == 0); mc is unused (A is packed whole)
  MicroKernelFn fn;
  /// (optional) the same MR x NR/2 tile from the left half of each B row (B
  /// still NR apart), for the last columns of C when at most NR/2 remain.
  MicroKernelFn half = nullptr;
  /// (optional) vectorised dot products for the gemv path.
  DotRowsFn dot = nullptr;
};

MicroKernel generic_kernel();
/// Packs panels [panel0, panel1) of alpha * op(A) (all KC blocks) into a buffer of mpad * K floats.
void pack_a_all(const MicroKernel& kern, const float* A, std::int64_t lda, bool ta, float alpha, std::int64_t M,
                std::int64_t K, std::int64_t mpad, std::int64_t panel0, std::int64_t panel1, float* out);
MicroKernel avx2_kernel();
MicroKernel avx512_kernel();

}  // namespace ec::runtime::gemm
