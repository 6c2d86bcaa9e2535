#include "core/runtime/kernels/matmul_onednn.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/onednn_util.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using dnnl::memory;
using Dims = memory::dims;

std::atomic<std::int64_t> runs{0};
onednn::EnvSwitch& matmul_switch() {
  static onednn::EnvSwitch s{"EC_MATMUL", "own"};
  return s;
}

// Output rows [m0, m0 + rows) x columns [n0, n0 + cols), one oneDNN matmul.
struct Piece {
  std::uint64_t id = onednn::next_owner_id();  // its thread memories' owner
  dnnl::matmul mm;
  memory::desc src, dst, scratch;
  memory weights, bias;
  std::int64_t m0 = 0, n0 = 0, rows = 0, cols = 0;
};

// pieces empty: oneDNN cannot run this product here (remembered, not retried per call).
struct Prepared {
  std::vector<Piece> pieces;
};

struct Shape3 {
  std::int64_t M, N, K, ldy;
  bool trans_w;
};

std::shared_ptr<Prepared> prepare(const Shape3& s, const float* w, const float* bias,
                                  ir::Activation act, int parts) {
  auto& engine = onednn::cpu_engine();
  dnnl::stream stream(engine);
  auto p = std::make_shared<Prepared>();
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (!onednn::activation_post_op(act, attr)) return p;
  // By columns, each piece reading its share of the weights and all of x, or by rows,
  // each reading all the weights: whichever reads less per piece.
  const bool by_cols =
      s.N >= 32 * parts && s.M * s.K + s.K * s.N / parts <= s.M * s.K / parts + s.K * s.N;
  const std::int64_t along = by_cols ? s.N : s.M;
  const std::int64_t step = by_cols ? (s.N / parts + 15) / 16 * 16 : (s.M + parts - 1) / parts;
  for (std::int64_t a0 = 0; a0 < along; a0 += step) {
    Piece piece;
    const std::int64_t len = std::min(step, along - a0);
    piece.m0 = by_cols ? 0 : a0;
    piece.n0 = by_cols ? a0 : 0;
    const std::int64_t rows = by_cols ? s.M : len, cols = by_cols ? len : s.N;
    piece.rows = rows;
    piece.cols = cols;
    piece.src = memory::desc({rows, s.K}, memory::data_type::f32, Dims{s.K, 1});
    piece.dst = memory::desc({rows, cols}, memory::data_type::f32, Dims{s.ldy, 1});
    const memory::desc any_w({s.K, cols}, memory::data_type::f32, memory::format_tag::any);
    const memory::desc bias_md =
        bias ? memory::desc({1, cols}, memory::data_type::f32, Dims{cols, 1}) : memory::desc();
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(piece.src, any_w, bias_md, piece.dst),
                                          attr, engine);
    piece.mm = dnnl::matmul(pd);
    piece.scratch = pd.scratchpad_desc();
    if (!p->pieces.empty() && p->pieces.back().n0 == piece.n0 &&
        p->pieces.back().weights.get_desc() == pd.weights_desc()) {
      piece.weights = p->pieces.back().weights;  // row pieces share one reordered copy
    } else {
      const memory::desc user_w({s.K, cols}, memory::data_type::f32,
                                s.trans_w ? Dims{1, s.K} : Dims{s.N, 1});
      memory user(user_w, engine, const_cast<float*>(w + (s.trans_w ? piece.n0 * s.K : piece.n0)));
      piece.weights = memory(pd.weights_desc(), engine);
      dnnl::reorder(user, piece.weights).execute(stream, user, piece.weights);
    }
    if (bias) piece.bias = memory(bias_md, engine, const_cast<float*>(bias + piece.n0));
    p->pieces.push_back(std::move(piece));
  }
  stream.wait();
  return p;
}

}  // namespace

bool onednn_matmul_enabled() {
  // The default follows the ISA: oneDNN's matmul where it was measured faster (AVX-512:
  // 3-40% on ViT's and ConvNeXt's layers), our packed GEMM below it (AVX2: ViT-B's
  // 768 -> 3072 layers took 2x as long on oneDNN's, vit_b_16 0.53-0.74x the CPU time on
  // ours). EC_MATMUL=own / =onednn or force_own_matmul() choose either on any machine.
  return matmul_switch().on(gemm::active_isa() == gemm::Isa::Avx512);
}

void force_own_matmul(bool own) { matmul_switch().set(!own); }

std::int64_t onednn_matmuls_run() { return runs.load(std::memory_order_relaxed); }

bool matmul_onednn(std::int64_t M, std::int64_t N, std::int64_t K, const float* x, const float* w,
                   bool trans_w, const float* bias, float* y, std::int64_t ldy,
                   ir::Activation act) {
  // One row is a matrix-vector product, bound by reading the weights: our GEMV is as fast.
  // Below about half a million products a call's fixed cost (arguments, stream) outweighs
  // what oneDNN's kernels save: the transformer's 16 x 64 x 64 layers ran 13% slower on it.
  constexpr std::int64_t kMinProducts = std::int64_t{1} << 19;
  if (!onednn_matmul_enabled() || M < 2 || N <= 0 || K <= 0 || M * N * K < kMinProducts)
    return false;
  gemm::PackCache* cache = gemm::current_pack_cache();
  if (!cache || !cache->is_constant(w, static_cast<std::size_t>(N * K) * sizeof(float)) ||
      (bias && !cache->is_constant(bias, static_cast<std::size_t>(N) * sizeof(float))))
    return false;
  // oneDNN's exp-based post-ops (GELU, SiLU, sigmoid, tanh) cost more than the product on
  // AVX2 (ViT-B's 197 x 768 -> 3072 with GELU: 47 ms against 26 for the same product
  // without): those run as our vmath over each piece's output right after it, as the
  // convolutions do (conv_onednn.cpp).
  const StripFn strip = strip_fn_for(act);
  const ThreadPool* pool = current_pool();
  const int parts = pool ? pool->size() : 1;
  const Shape3 s{M, N, K, ldy, trans_w};
  onednn::CacheKey k("onednn.matmul|");
  k << static_cast<const void*>(w) << '|' << static_cast<const void*>(bias) << '|' << std::int64_t{M} << ','
    << std::int64_t{N} << ',' << std::int64_t{K} << ',' << std::int64_t{ldy} << ',' << std::int64_t{trans_w}
    << '|' << (strip ? std::string_view("NONE+vmath") : ir::activation_name(act)) << "|p" << std::int64_t{parts};
  const std::string key = k.take();
  auto p = std::static_pointer_cast<const Prepared>(cache->find_prepared(key));
  if (!p) {
    onednn::one_omp_thread();
    std::shared_ptr<Prepared> made;
    try {
      made = prepare(s, w, bias, strip ? ir::Activation::None : act, parts);
    } catch (const dnnl::error&) {
      made = std::make_shared<Prepared>();  // a product oneDNN has no implementation for
    }
    std::size_t bytes = 0;
    for (std::size_t i = 0; i < made->pieces.size(); ++i)  // row pieces may share one copy
      if (i == 0 || made->pieces[i].weights.get_data_handle() != made->pieces[i - 1].weights.get_data_handle())
        bytes += made->pieces[i].weights.get_desc().get_size();
    p = std::static_pointer_cast<const Prepared>(cache->put_prepared(key, std::move(made), bytes));
  }
  if (p->pieces.empty()) return false;
  parallel_for(static_cast<std::int64_t>(p->pieces.size()), [&](std::int64_t i) {
    const Piece& piece = p->pieces[static_cast<std::size_t>(i)];
    enum Slot : int { kSrc, kDst };
    onednn::CallArgs args;
    args.set(DNNL_ARG_SRC, onednn::thread_memory(piece.id, kSrc, piece.src, x + piece.m0 * K))
        .set(DNNL_ARG_WEIGHTS, piece.weights)
        .set(DNNL_ARG_DST, onednn::thread_memory(piece.id, kDst, piece.dst, y + piece.m0 * ldy + piece.n0));
    if (bias) args.set(DNNL_ARG_BIAS, piece.bias);
    onednn::one_omp_thread();
    onednn::set_thread_scratchpad(args, piece.id, piece.scratch);
    dnnl::stream& stream = onednn::thread_stream();
    args.execute(piece.mm, stream);
    stream.wait();
    if (strip) {
      for (std::int64_t r = 0; r < piece.rows; ++r) strip(y + (piece.m0 + r) * ldy + piece.n0, piece.cols);
    }
  });
  runs.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace ec::runtime::kernels
