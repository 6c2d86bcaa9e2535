// The SGEMM driver (cache blocking, packing, epilogue, thread split), the
// portable micro-kernel and the ISA choice. See gemm.h.
//
// op(A) is packed once, whole (weights are small next to activations), then:
//   for jc (NC columns of C)                 -> pack B[kc x nc] (stays in L2)
//     for pc (KC of the inner dim)
//       for ir (MR-row panel of A, in L1)
//         for jr (NR-column panel of B)      -> micro-kernel, epilogue on the last pc
// Packed A: per MR-row panel, k-major (a[k*MR + i]); packed B: per NR-column
// panel, k-major (b[k*NR + j]); both zero-padded to whole panels.
#include "core/runtime/gemm/gemm.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "core/runtime/thread_pool.h"

namespace ec::runtime::gemm {
namespace {

// ---- portable 4x8 micro-kernel: plain loops the compiler vectorises for the baseline ISA ----
constexpr int kGenMR = 4, kGenNR = 8;

void generic_micro(std::int64_t kc, const float* a, const float* b, float* c, std::int64_t ldc, bool accumulate,
                   const TileEpilogue* ep) {
  float acc[kGenMR][kGenNR] = {};
  for (std::int64_t k = 0; k < kc; ++k) {
    const float* ak = a + k * kGenMR;
    const float* bk = b + k * kGenNR;
    for (int i = 0; i < kGenMR; ++i)
      for (int j = 0; j < kGenNR; ++j) acc[i][j] += ak[i] * bk[j];
  }
  if (accumulate)
    for (int i = 0; i < kGenMR; ++i)
      for (int j = 0; j < kGenNR; ++j) acc[i][j] = c[i * ldc + j] + acc[i][j];
  if (ep)
    for (int i = 0; i < kGenMR; ++i)
      for (int j = 0; j < kGenNR; ++j) {
        float v = acc[i][j];
        if (ep->row_bias) v += ep->row_bias[i];
        if (ep->col_bias) v += ep->col_bias[j];
        acc[i][j] = std::min(std::max(v, ep->lo), ep->hi);
      }
  for (int i = 0; i < kGenMR; ++i)
    for (int j = 0; j < kGenNR; ++j) c[i * ldc + j] = acc[i][j];
}

// 64-byte aligned scratch, grown on demand, one per thread.
struct Scratch {
  float* data = nullptr;
  std::size_t size = 0;
  ~Scratch() { std::free(data); }
  float* get(std::size_t n) {
    if (n > size) {
      std::free(data);
      size = (n + 15) / 16 * 16;
      data = static_cast<float*>(std::aligned_alloc(64, size * sizeof(float)));
      if (!data) throw std::bad_alloc();
    }
    return data;
  }
};

// Packs rows [i0, i0+mc) x cols [p0, p0+kc) of alpha * op(A).
void pack_a(const MicroKernel& k, const float* A, std::int64_t lda, bool trans, float alpha, std::int64_t i0,
            std::int64_t mc, std::int64_t p0, std::int64_t kc, float* out) {
  const int MR = k.mr;
  for (std::int64_t ip = 0; ip < mc; ip += MR) {
    const std::int64_t rows = std::min<std::int64_t>(MR, mc - ip);
    float* dst = out + ip * kc;
    if (!trans) {
      for (std::int64_t i = 0; i < rows; ++i) {
        const float* src = A + (i0 + ip + i) * lda + p0;
        for (std::int64_t p = 0; p < kc; ++p) dst[p * MR + i] = alpha * src[p];
      }
    } else {
      for (std::int64_t p = 0; p < kc; ++p) {
        const float* src = A + (p0 + p) * lda + i0 + ip;
        for (std::int64_t i = 0; i < rows; ++i) dst[p * MR + i] = alpha * src[i];
      }
    }
    if (rows < MR)
      for (std::int64_t p = 0; p < kc; ++p)
        for (std::int64_t i = rows; i < MR; ++i) dst[p * MR + i] = 0.f;
  }
}

// Packs rows [p0, p0+kc) x cols [j0, j0+nc) of op(B).
[[gnu::always_inline]] inline void pack_b_body(int NR, const float* B, std::int64_t ldb, bool trans,
                                               std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc,
                                               float* out) {
  for (std::int64_t jp = 0; jp < nc; jp += NR) {
    const std::int64_t cols = std::min<std::int64_t>(NR, nc - jp);
    float* dst = out + jp * kc;
    if (!trans) {
      for (std::int64_t p = 0; p < kc; ++p) {
        const float* src = B + (p0 + p) * ldb + j0 + jp;
        float* d = dst + p * NR;
        if (cols == NR) {
          for (int j = 0; j < NR; ++j) d[j] = src[j];  // short: a loop beats a memcpy call
        } else {
          for (std::int64_t j = 0; j < cols; ++j) d[j] = src[j];
          for (std::int64_t j = cols; j < NR; ++j) d[j] = 0.f;
        }
      }
    } else {
      for (std::int64_t j = 0; j < cols; ++j) {
        const float* src = B + (j0 + jp + j) * ldb + p0;
        for (std::int64_t p = 0; p < kc; ++p) dst[p * NR + j] = src[p];
      }
      if (cols < NR)
        for (std::int64_t p = 0; p < kc; ++p)
          for (std::int64_t j = cols; j < NR; ++j) dst[p * NR + j] = 0.f;
    }
  }
}

#if defined(__x86_64__)
// The same copies with the vector width of the micro-kernel that reads them.
__attribute__((target("avx2"))) void pack_b_avx2(int NR, const float* B, std::int64_t ldb, bool trans,
                                                 std::int64_t p0, std::int64_t kc, std::int64_t j0, std::int64_t nc,
                                                 float* out) {
  pack_b_body(NR, B, ldb, trans, p0, kc, j0, nc, out);
}
__attribute__((target("avx512f,prefer-vector-width=512"))) void pack_b_avx512(int NR, const float* B, std::int64_t ldb,
                                                                             bool trans, std::int64_t p0,
                                                                             std::int64_t kc, std::int64_t j0,
                                                                             std::int64_t nc, float* out) {
  pack_b_body(NR, B, ldb, trans, p0, kc, j0, nc, out);
}
#endif

void pack_b(const MicroKernel& k, const float* B, std::int64_t ldb, bool trans, std::int64_t p0, std::int64_t kc,
            std::int64_t j0, std::int64_t nc, float* out) {
#if defined(__x86_64__)
  if (k.isa == Isa::Avx512) return pack_b_avx512(k.nr, B, ldb, trans, p0, kc, j0, nc, out);
  if (k.isa == Isa::Avx2) return pack_b_avx2(k.nr, B, ldb, trans, p0, kc, j0, nc, out);
#endif
  pack_b_body(k.nr, B, ldb, trans, p0, kc, j0, nc, out);
}

// B as a stored matrix or as a packer.
struct BSource {
  const float* B;
  std::int64_t ldb;
  bool trans;
  const BPacker* packer;
  // (optional) all of op(B) packed ahead (a constant B from the PackCache): the
  // KC block pc holds npad x kc floats at packed + npad * pc, NR-column panel j0 at + j0 * kc.
  const float* packed = nullptr;
  std::int64_t npad = 0;
};

// Bias and clamp on a rows x cols tile of C at (i0, j0).
void apply_epilogue(const Epilogue& e, float* c, std::int64_t ldc, std::int64_t i0, std::int64_t j0,
                    std::int64_t rows, std::int64_t cols) {
  const bool clamp = e.lo != -std::numeric_limits<float>::infinity() || e.hi != std::numeric_limits<float>::infinity();
  for (std::int64_t i = 0; i < rows; ++i) {
    float* r = c + i * ldc;
    if (e.bias_kind == Epilogue::Bias::PerRow) {
      const float b = e.bias[i0 + i];
      for (std::int64_t j = 0; j < cols; ++j) r[j] += b;
    } else if (e.bias_kind == Epilogue::Bias::PerColumn) {
      const float* b = e.bias + j0;
      for (std::int64_t j = 0; j < cols; ++j) r[j] += b[j];
    }
    if (clamp)
      for (std::int64_t j = 0; j < cols; ++j) {
        const float v = r[j] < e.lo ? e.lo : r[j];  // std::max(r[j], lo), as a select
        r[j] = e.hi < v ? e.hi : v;
      }
  }
}

// Geometry of a fully packed op(A): for each KC block pc (kc_p deep), the
// Mpad x kc_p panels of that block start at Mpad * pc; panel ir (a multiple of
// MR) at Mpad * pc + ir * kc_p.
struct PackedA {
  const float* data;
  std::int64_t mpad;
};

// Packs all of alpha * op(A) (M x K), panels [p0, p1) of MR rows, every KC block.
}  // namespace

void pack_a_all(const MicroKernel& kern, const float* A, std::int64_t lda, bool ta, float alpha, std::int64_t M,
                std::int64_t K, std::int64_t mpad, std::int64_t panel0, std::int64_t panel1, float* out) {
  for (std::int64_t pc = 0; pc < K; pc += kern.kc) {
    const std::int64_t kc = std::min<std::int64_t>(kern.kc, K - pc);
    const std::int64_t i0 = panel0 * kern.mr, i1 = std::min(M, panel1 * kern.mr);
    if (i1 > i0) pack_a(kern, A, lda, ta, alpha, i0, i1 - i0, pc, kc, out + mpad * pc + i0 * kc);
  }
}

namespace {

// One share of C: rows [i0, i1) (i0 a multiple of MR) x columns [j0, j1), serially,
// with A already packed. For each NC x KC block of B (packed to stay in L2), every
// MR-row panel of A (in L1) sweeps the block's NR-column panels.
void sgemm_block(const MicroKernel& kern, const PackedA& pa, std::int64_t i0, std::int64_t i1, std::int64_t j0,
                 std::int64_t j1, std::int64_t K, const BSource& bs, bool accumulate, float* C, std::int64_t ldc,
                 const Epilogue& ep) {
  thread_local Scratch b_buf;
  const int MR = kern.mr, NR = kern.nr;
  const std::int64_t KC = kern.kc, NC = kern.nc;
  float* bp = bs.packed ? nullptr : b_buf.get(static_cast<std::size_t>(std::min(NC, (j1 - j0 + NR - 1) / NR * NR) * KC));
  alignas(64) float tile[16 * 64];  // edge tiles (MR * NR <= 16 * 64)
  for (std::int64_t jc = j0; jc < j1; jc += NC) {
    const std::int64_t nc = std::min(NC, j1 - jc);
    for (std::int64_t pc = 0; pc < K; pc += KC) {
      const std::int64_t kc = std::min(KC, K - pc);
      const bool last = pc + kc >= K;
      const bool acc = pc > 0 || accumulate;
      const float* bblock = bp;
      if (bs.packed)
        bblock = bs.packed + bs.npad * pc + jc * kc;
      else if (bs.packer)
        bs.packer->pack(pc, kc, jc, nc, NR, bp);
      else
        pack_b(kern, bs.B, bs.ldb, bs.trans, pc, kc, jc, nc, bp);
      for (std::int64_t ir = i0; ir < i1; ir += MR) {
        const std::int64_t rows = std::min<std::int64_t>(MR, i1 - ir);
        const float* a = pa.data + pa.mpad * pc + ir * kc;
        for (std::int64_t jr = 0; jr < nc; jr += NR) {
          const std::int64_t cols = std::min<std::int64_t>(NR, nc - jr);
          float* c = C + ir * ldc + jc + jr;
          const float* b = bblock + jr * kc;
          if (rows == MR && cols == NR) {
            // Full tile: the epilogue is applied in registers, before the store.
            TileEpilogue te{ep.bias_kind == Epilogue::Bias::PerRow ? ep.bias + ir : nullptr,
                            ep.bias_kind == Epilogue::Bias::PerColumn ? ep.bias + jc + jr : nullptr, ep.lo, ep.hi};
            kern.fn(kc, a, b, c, ldc, acc, last ? &te : nullptr);
          } else {
            (kern.half && cols <= NR / 2 ? kern.half : kern.fn)(kc, a, b, tile, NR, false, nullptr);
            for (std::int64_t i = 0; i < rows; ++i)
              for (std::int64_t j = 0; j < cols; ++j)
                c[i * ldc + j] = acc ? c[i * ldc + j] + tile[i * NR + j] : tile[i * NR + j];
            if (last) apply_epilogue(ep, c, ldc, ir, jc + jr, rows, cols);
          }
        }
        if (last && ep.strip_fn)  // the panel's rows over this column block, still in cache
          for (std::int64_t i = 0; i < rows; ++i) ep.strip_fn(C + (ir + i) * ldc + jc, nc);
      }
    }
  }
}

// y[i, j] = alpha * sum_k A[i, k] * B[j, k] for a few rows of A and B stored
// transposed (fully connected layers at batch 1): dot products over contiguous
// rows; packing B would cost more than the product.
void gemv_rows(const MicroKernel& kern, int threads, std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A,
               std::int64_t lda, const float* B, std::int64_t ldb, bool accumulate, float* C, std::int64_t ldc,
               const Epilogue& ep) {
  // Blocks of 64 outputs; small products (a recurrent step) stay serial: a
  // parallel region costs more than their few microseconds.
  const std::int64_t blocks = (N + 63) / 64;
  auto block = [&](std::int64_t blk) {
    const std::int64_t j0 = blk * 64, j1 = std::min(N, j0 + 64);
    float dots[64];
    for (std::int64_t i = 0; i < M; ++i) {
      const float* a = A + i * lda;
      if (kern.dot) {
        kern.dot(a, B + j0 * ldb, ldb, K, j1 - j0, dots);
      } else {
        for (std::int64_t j = j0; j < j1; ++j) {
          const float* b = B + j * ldb;
          float part[8] = {};
          std::int64_t k = 0;
          for (; k + 8 <= K; k += 8)
            for (int u = 0; u < 8; ++u) part[u] += a[k + u] * b[k + u];
          float acc = ((part[0] + part[1]) + (part[2] + part[3])) + ((part[4] + part[5]) + (part[6] + part[7]));
          for (; k < K; ++k) acc += a[k] * b[k];
          dots[j - j0] = acc;
        }
      }
      for (std::int64_t j = j0; j < j1; ++j) {
        const float acc = dots[j - j0] * alpha;
        C[i * ldc + j] = accumulate ? C[i * ldc + j] + acc : acc;
      }
      apply_epilogue(ep, C + i * ldc + j0, ldc, i, j0, 1, j1 - j0);
      if (ep.strip_fn) ep.strip_fn(C + i * ldc + j0, j1 - j0);
    }
  };
  if (M * N * K < 256 * 1024 || threads <= 1) {
    for (std::int64_t blk = 0; blk < blocks; ++blk) block(blk);
  } else {
    parallel_for(blocks, block);
  }
}

thread_local PackCache* t_pack_cache = nullptr;

Isa widest_supported() {
  if (isa_supported(Isa::Avx512)) return Isa::Avx512;
  if (isa_supported(Isa::Avx2)) return Isa::Avx2;
  return Isa::Generic;
}

Isa initial_isa() {
  Isa isa = widest_supported();
  // EC_ISA caps every kernel family (the GEMMs, vmath, int8, pooling, recurrent, oneDNN:
  // kernels/onednn_util.cpp); EC_GEMM_ISA is its older name.
  const char* env = std::getenv("EC_ISA");
  if (!env) env = std::getenv("EC_GEMM_ISA");
  if (env) {
    for (Isa want : {Isa::Generic, Isa::Avx2, Isa::Avx512})
      if (std::string(env) == isa_name(want) && isa_supported(want)) isa = want;
  }
  return isa;
}

std::atomic<int>& active() {
  static std::atomic<int> isa{static_cast<int>(initial_isa())};
  return isa;
}

MicroKernel kernel_for(Isa isa) {
  switch (isa) {
    case Isa::Avx512: return avx512_kernel();
    case Isa::Avx2: return avx2_kernel();
    case Isa::Generic: break;
  }
  return generic_kernel();
}

}  // namespace

struct PackCache::Impl {
  using Key = std::tuple<const float*, std::int64_t, std::int64_t, std::int64_t, bool, float, int>;
  mutable std::mutex m;
  std::map<const std::byte*, const std::byte*> ranges;  // begin -> end
  std::map<Key, std::unique_ptr<float, decltype(&std::free)>> packed;
  std::map<Key, std::unique_ptr<float, decltype(&std::free)>> packed_b;  // op(B) operands (alpha unused)
  std::map<std::string, std::shared_ptr<void>, std::less<>> prepared;
  std::size_t bytes = 0;
  bool holds(const void* p, std::size_t n) const {
    const auto* b = static_cast<const std::byte*>(p);
    auto it = ranges.upper_bound(b);
    if (it == ranges.begin()) return false;
    --it;
    return b >= it->first && b + n <= it->second;
  }
};

PackCache::PackCache() : impl_(new Impl) {}
PackCache::~PackCache() { delete impl_; }

void PackCache::add_constant_range(const void* data, std::size_t bytes) {
  if (!data || bytes == 0) return;
  std::lock_guard lock(impl_->m);
  const auto* b = static_cast<const std::byte*>(data);
  impl_->ranges[b] = std::max(impl_->ranges[b], b + bytes);
}

std::size_t PackCache::packed_bytes() const {
  std::lock_guard lock(impl_->m);
  return impl_->bytes;
}

bool PackCache::is_constant(const void* data, std::size_t bytes) const {
  std::lock_guard lock(impl_->m);
  return impl_->holds(data, bytes);
}

std::shared_ptr<void> PackCache::find_prepared(const std::string& key) const {
  std::lock_guard lock(impl_->m);
  auto it = impl_->prepared.find(key);
  return it == impl_->prepared.end() ? nullptr : it->second;
}

std::shared_ptr<void> PackCache::put_prepared(const std::string& key, std::shared_ptr<void> state, std::size_t bytes) {
  std::lock_guard lock(impl_->m);
  auto [it, added] = impl_->prepared.emplace(key, std::move(state));
  if (added) impl_->bytes += bytes;
  return it->second;
}

PackCache* current_pack_cache() { return t_pack_cache; }

PackCacheScope::PackCacheScope(PackCache* cache) : previous_(t_pack_cache) { t_pack_cache = cache; }
PackCacheScope::~PackCacheScope() { t_pack_cache = previous_; }

// The packed op(A) from the cache, packing it on first use; null when A is not constant.
const float* cached_pack(PackCache& cache, const MicroKernel& kern, const float* A, std::int64_t lda, bool ta,
                         float alpha, std::int64_t M, std::int64_t K, std::int64_t mpad) {
  PackCache::Impl& c = *cache.impl_;
  const std::size_t extent = static_cast<std::size_t>(((ta ? K : M) - 1) * lda + (ta ? M : K)) * sizeof(float);
  std::lock_guard lock(c.m);
  if (!c.holds(A, extent)) return nullptr;
  const PackCache::Impl::Key key{A, M, K, lda, ta, alpha, static_cast<int>(kern.isa)};
  auto it = c.packed.find(key);
  if (it != c.packed.end()) return it->second.get();
  const std::size_t n = static_cast<std::size_t>(mpad * K);
  auto* buf = static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64));
  if (!buf) throw std::bad_alloc();
  pack_a_all(kern, A, lda, ta, alpha, M, K, mpad, 0, mpad / kern.mr, buf);
  c.bytes += n * sizeof(float);
  return c.packed.emplace(key, std::unique_ptr<float, decltype(&std::free)>(buf, &std::free)).first->second.get();
}

// The whole packed op(B) (K x N) from the cache, packing it on first use; null when B is not
// constant. Layout: see BSource::packed.
const float* cached_pack_b(PackCache& cache, const MicroKernel& kern, const float* B, std::int64_t ldb, bool tb,
                           std::int64_t K, std::int64_t N, std::int64_t npad) {
  PackCache::Impl& c = *cache.impl_;
  const std::size_t extent = static_cast<std::size_t>(((tb ? N : K) - 1) * ldb + (tb ? K : N)) * sizeof(float);
  std::lock_guard lock(c.m);
  if (!c.holds(B, extent)) return nullptr;
  const PackCache::Impl::Key key{B, K, N, ldb, tb, 0.f, static_cast<int>(kern.isa)};
  auto it = c.packed_b.find(key);
  if (it != c.packed_b.end()) return it->second.get();
  const std::size_t n = static_cast<std::size_t>(npad * K);
  auto* buf = static_cast<float*>(std::aligned_alloc(64, (n * sizeof(float) + 63) / 64 * 64));
  if (!buf) throw std::bad_alloc();
  for (std::int64_t pc = 0; pc < K; pc += kern.kc)
    pack_b(kern, B, ldb, tb, pc, std::min<std::int64_t>(kern.kc, K - pc), 0, N, buf + npad * pc);
  c.bytes += n * sizeof(float);
  return c.packed_b.emplace(key, std::unique_ptr<float, decltype(&std::free)>(buf, &std::free)).first->second.get();
}

MicroKernel generic_kernel() { return {Isa::Generic, kGenMR, kGenNR, 128, 256, 128, &generic_micro}; }

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::Avx512: return "avx512";
    case Isa::Avx2: return "avx2";
    case Isa::Generic: break;
  }
  return "generic";
}

bool isa_supported(Isa isa) {
#if defined(__x86_64__) || defined(__i386__)
  switch (isa) {
    case Isa::Avx512: return __builtin_cpu_supports("avx512f");
    case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Generic: return true;
  }
  return false;
#else
  return isa == Isa::Generic;
#endif
}

std::vector<Isa> supported_isas() {
  std::vector<Isa> v;
  for (Isa isa : {Isa::Generic, Isa::Avx2, Isa::Avx512})
    if (isa_supported(isa)) v.push_back(isa);
  return v;
}

Isa active_isa() { return static_cast<Isa>(active().load(std::memory_order_relaxed)); }

bool force_isa(Isa isa) {
  if (!isa_supported(isa)) return false;
  active().store(static_cast<int>(isa), std::memory_order_relaxed);
  return true;
}

namespace {

void sgemm_impl(Isa isa, int threads, std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A,
                std::int64_t lda, bool trans_a, const BSource& bs, bool accumulate, float* C, std::int64_t ldc,
                const Epilogue& epilogue) {
  if (M <= 0 || N <= 0) return;
  if (K == 0) {  // no product: C = (accumulate ? C : 0), then the epilogue
    for (std::int64_t i = 0; i < M; ++i) {
      float* c = C + i * ldc;
      if (!accumulate) std::fill(c, c + N, 0.f);
      apply_epilogue(epilogue, c, ldc, i, 0, 1, N);
      if (epilogue.strip_fn) epilogue.strip_fn(c, N);
    }
    return;
  }
  MicroKernel kern = kernel_for(isa);
  if (M <= 2 && !bs.packer && bs.trans && !trans_a) {
    gemv_rows(kern, threads, M, N, K, alpha, A, lda, bs.B, bs.ldb, accumulate, C, ldc, epilogue);
    return;
  }
  // K in equal KC blocks (576 = 2 x 288, not 256 + 256 + 64): a short last block
  // would load and store every C tile once more for little work.
  const std::int64_t kblocks = (K + kern.kc - 1) / kern.kc;
  kern.kc = static_cast<int>(std::max<std::int64_t>(1, (K + kblocks - 1) / kblocks));
  const std::int64_t panels = (M + kern.mr - 1) / kern.mr, mpad = panels * kern.mr;
  // Constant A (weights) comes packed from the session's cache.
  const float* cached = nullptr;
  if (t_pack_cache) cached = cached_pack(*t_pack_cache, kern, A, lda, trans_a, alpha, M, K, mpad);
  thread_local Scratch a_buf;  // the caller's; workers only read it
  float* ap = cached ? nullptr : a_buf.get(static_cast<std::size_t>(mpad * K));
  // Split into slabs of whole micro-tiles along the dimension with more tiles;
  // tiny products stay serial (a region costs a few microseconds).
  const std::int64_t tiles_n = (N + kern.nr - 1) / kern.nr;
  const bool split_n = tiles_n >= panels;
  const std::int64_t tiles = split_n ? tiles_n : panels;
  // Column slabs: a few per thread, taken dynamically, so a participant the OS
  // deschedules (a shared machine) does not hold the others up; each slab packs
  // its own columns of B, so finer slabs cost no extra packing. Row slabs would
  // each pack all of B: one per thread.
  std::int64_t parts = std::min<std::int64_t>(split_n && threads > 1 ? 4 * threads : threads, tiles);
  if (M * N * K < 64 * 1024) parts = 1;
  const PackedA pa{cached ? cached : ap, mpad};
  // Constant B (weights of an NHWC convolution, of a MatMul/Gemm) is packed once per session.
  BSource bsrc = bs;
  if (t_pack_cache && !bs.packer) {
    bsrc.npad = (N + kern.nr - 1) / kern.nr * kern.nr;
    bsrc.packed = cached_pack_b(*t_pack_cache, kern, bs.B, bs.ldb, bs.trans, K, N, bsrc.npad);
  }
  if (parts <= 1) {
    if (!cached) pack_a_all(kern, A, lda, trans_a, alpha, M, K, mpad, 0, panels, ap);
    sgemm_block(kern, pa, 0, M, 0, N, K, bsrc, accumulate, C, ldc, epilogue);
    return;
  }
  if (!cached)
    parallel_for(parts, [&](std::int64_t t) {
      pack_a_all(kern, A, lda, trans_a, alpha, M, K, mpad, panels * t / parts, panels * (t + 1) / parts, ap);
    });
  parallel_for(parts, [&](std::int64_t t) {
    const std::int64_t t0 = tiles * t / parts, t1 = tiles * (t + 1) / parts;
    if (split_n)
      sgemm_block(kern, pa, 0, M, t0 * kern.nr, std::min(N, t1 * kern.nr), K, bsrc, accumulate, C, ldc,
                  epilogue);
    else
      sgemm_block(kern, pa, t0 * kern.mr, std::min(M, t1 * kern.mr), 0, N, K, bsrc, accumulate, C, ldc,
                  epilogue);
  });
}

}  // namespace

void sgemm_with(Isa isa, int threads, std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A,
                std::int64_t lda, bool trans_a, const float* B, std::int64_t ldb, bool trans_b, bool accumulate,
                float* C, std::int64_t ldc, const Epilogue& epilogue) {
  sgemm_impl(isa, threads, M, N, K, alpha, A, lda, trans_a, BSource{B, ldb, trans_b, nullptr}, accumulate, C, ldc,
             epilogue);
}

void sgemm(std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A, std::int64_t lda,
           bool trans_a, const BPacker& b, bool accumulate, float* C, std::int64_t ldc, const Epilogue& epilogue) {
  sgemm_impl(active_isa(), current_threads(), M, N, K, alpha, A, lda, trans_a, BSource{nullptr, 0, false, &b},
             accumulate, C, ldc, epilogue);
}

void sgemm(std::int64_t M, std::int64_t N, std::int64_t K, float alpha, const float* A, std::int64_t lda,
           bool trans_a, const float* B, std::int64_t ldb, bool trans_b, bool accumulate, float* C,
           std::int64_t ldc, const Epilogue& epilogue) {
  sgemm_with(active_isa(), current_threads(), M, N, K, alpha, A, lda, trans_a, B, ldb, trans_b, accumulate, C, ldc,
             epilogue);
}

}  // namespace ec::runtime::gemm
