// An inverted-residual pair on oneDNN, band by band: the 1x1 Conv that expands x
// [N, H, W, C] into t [N, H, W, M] and the depthwise Conv that alone reads t. Run one
// after the other, t (4.8 MB in mobilenet_v2's second block) goes out to memory and comes
// back, and the depthwise Conv, a few products per byte, waits on it. Here each thread
// takes a range of the depthwise Conv's output rows and walks it in bands: the rows of t
// a band needs are computed into the thread's buffer (a few hundred KiB, in its cache)
// and the depthwise Conv runs on them at once; rows shared with the next band stay.
// Every output element is computed by the same oneDNN kernels as apart (a 1x1 product
// over the same C channels, the same taps), only on other row ranges.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/conv_onednn.h"
#include "core/runtime/kernels/onednn_util.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using dnnl::memory;
using Dims = memory::dims;
using onednn::cpu_engine;

// Measured on Zen 4 (1 MiB L2): buffers of 8-17 rows of 112 x 96 floats (0.35-0.7 MiB)
// and of 10-18 rows of 56 x 144 were as fast; 17+ rows of 112 x 96 slower.
constexpr std::int64_t kBufferBytes = 448 * 1024;
// Below this t stays in the caches between the two Convs anyway (L2 1 MiB per core): the
// bands' extra calls cost more than they save (mnasnet1_0's 24 -> 72 on 56 x 56, 0.9 MiB:
// 0.27 ms apart, 0.29 in bands; mobilenet_v2's 24 -> 144 on 56 x 56, 1.8 MiB: level).
constexpr std::int64_t kMinChainBytes = 2 * 1024 * 1024;

struct Prim {
  std::uint64_t id = onednn::next_owner_id();  // its thread memories' owner
  dnnl::convolution_forward conv;
  memory::desc scratch;
  int weights = -1;  // index into Chain::weights
};

// One band of a range: rows [keep, t1) of t stay in the buffer (moved to its top), rows
// [t1, n1) are computed after them, then y rows [r0, r1) from t rows [n0, n1).
struct Band {
  std::int64_t n0, n1, t1, r0, r1;
  const Prim* pw;  // null: every row it needs is already there
  const Prim* dw;
};

struct Range {
  std::int64_t image;
  std::vector<Band> bands;
};

struct Chain {
  std::map<std::int64_t, Prim> pw;  // by rows of t
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t>, Prim>
      dw;  // t rows, y rows, pads
  std::vector<memory> weights;
  memory b1, b2;
  std::vector<Range> ranges;
  std::int64_t buffer_rows = 0;
  StripFn strip1 = nullptr, strip2 = nullptr;
  std::size_t bytes = 0;
  bool ok = false;
};

// oneDNN's post-op for the activation, or none and a vmath strip over the rows after
// the call (the exp-based ones: their post-ops cost more than the convolution).
bool split_activation(ir::Activation act, dnnl::primitive_attr& attr, StripFn& strip) {
  strip = act == ir::Activation::HardSwish ? nullptr : strip_fn_for(act);
  return onednn::activation_post_op(strip ? ir::Activation::None : act, attr);
}

int weights_for(Chain& c, const memory::desc& want, const memory& user, dnnl::stream& stream) {
  for (std::size_t i = 0; i < c.weights.size(); ++i)
    if (c.weights[i].get_desc() == want) return static_cast<int>(i);
  memory reordered(want, cpu_engine());
  dnnl::reorder(user, reordered).execute(stream, const_cast<memory&>(user), reordered);
  c.bytes += want.get_size();
  c.weights.push_back(reordered);
  return static_cast<int>(c.weights.size() - 1);
}

std::shared_ptr<Chain> prepare_chain(const ConvGeometry& pw, const float* w1, const float* b1,
                                     ir::Activation act1, const ConvGeometry& dw, const float* w2,
                                     const float* b2, ir::Activation act2, int parts) {
  auto c = std::make_shared<Chain>();
  auto& engine = cpu_engine();
  dnnl::stream stream(engine);
  const std::int64_t C = pw.c, M = pw.m, H = dw.in[0], W = dw.in[1], OH = dw.out[0], OW = dw.out[1];
  const std::int64_t KH = dw.kernel[0], KW = dw.kernel[1], S = dw.strides[0];
  const std::int64_t reach = (KH - 1) * dw.dilations[0] + 1, pt = dw.pad_begin[0];
  dnnl::primitive_attr attr1, attr2;
  attr1.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  attr2.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (!split_activation(act1, attr1, c->strip1) || !split_activation(act2, attr2, c->strip2))
    return c;
  const memory user_w1({{M, C, 1, 1}, memory::data_type::f32, memory::format_tag::ohwi}, engine,
                       const_cast<float*>(w1));
  // Depthwise OHWI [M, KH, KW, 1] is goihw with one output and one input per group.
  const memory user_w2({{M, 1, 1, KH, KW}, memory::data_type::f32, memory::format_tag::goihw},
                       engine, const_cast<float*>(w2));
  const memory::desc bias_md({M}, memory::data_type::f32, memory::format_tag::a);
  for (auto [dst, src] : {std::pair{&c->b1, b1}, std::pair{&c->b2, b2}})
    if (src) {
      *dst = memory(bias_md, engine);
      std::memcpy(dst->get_data_handle(), src, static_cast<std::size_t>(M) * sizeof(float));
      c->bytes += bias_md.get_size();
    }
  const auto kind = dnnl::prop_kind::forward_inference;
  const auto algo = dnnl::algorithm::convolution_direct;
  auto pw_prim = [&](std::int64_t rows) -> const Prim* {
    auto [it, added] = c->pw.try_emplace(rows);
    if (added) {
      const memory::desc src({1, C, rows, W}, memory::data_type::f32, memory::format_tag::nhwc),
          dst({1, M, rows, W}, memory::data_type::f32, memory::format_tag::nhwc),
          any_w({M, C, 1, 1}, memory::data_type::f32, memory::format_tag::any);
      const auto d =
          b1 ? dnnl::convolution_forward::desc(kind, algo, src, any_w, bias_md, dst, {1, 1}, {0, 0},
                                               {0, 0})
             : dnnl::convolution_forward::desc(kind, algo, src, any_w, dst, {1, 1}, {0, 0}, {0, 0});
      const dnnl::convolution_forward::primitive_desc pd(d, attr1, engine);
      it->second.conv = dnnl::convolution_forward(pd);
      it->second.scratch = pd.scratchpad_desc();
      it->second.weights = weights_for(*c, pd.weights_desc(), user_w1, stream);
    }
    return &it->second;
  };
  auto dw_prim = [&](std::int64_t t_rows, std::int64_t y_rows, std::int64_t top,
                     std::int64_t bottom) -> const Prim* {
    auto [it, added] = c->dw.try_emplace({t_rows, y_rows, top, bottom});
    if (added) {
      const memory::desc src({1, M, t_rows, W}, memory::data_type::f32, memory::format_tag::nhwc),
          dst({1, M, y_rows, OW}, memory::data_type::f32, memory::format_tag::nhwc),
          any_w({M, 1, 1, KH, KW}, memory::data_type::f32, memory::format_tag::any);
      const Dims strides{S, dw.strides[1]}, dil{dw.dilations[0] - 1, dw.dilations[1] - 1},
          pl{top, dw.pad_begin[1]}, pr{bottom, dw.pad_end[1]};
      const auto d =
          b2 ? dnnl::convolution_forward::desc(kind, algo, src, any_w, bias_md, dst, strides, dil,
                                               pl, pr)
             : dnnl::convolution_forward::desc(kind, algo, src, any_w, dst, strides, dil, pl, pr);
      const dnnl::convolution_forward::primitive_desc pd(d, attr2, engine);
      it->second.conv = dnnl::convolution_forward(pd);
      it->second.scratch = pd.scratchpad_desc();
      it->second.weights = weights_for(*c, pd.weights_desc(), user_w2, stream);
    }
    return &it->second;
  };
  // Output rows per band: as many as keep the rows of t they read within the buffer.
  const std::int64_t row_bytes = W * M * static_cast<std::int64_t>(sizeof(float));
  const std::int64_t fit = std::max<std::int64_t>(reach, kBufferBytes / row_bytes);
  const std::int64_t band = std::max<std::int64_t>(1, (fit - reach) / S + 1);
  c->buffer_rows = (band - 1) * S + reach;
  for (std::int64_t n = 0; n < dw.n; ++n)
    for (int part = 0; part < parts; ++part) {
      const std::int64_t a = OH * part / parts, b = OH * (part + 1) / parts;
      if (a == b) continue;
      Range range{n, {}};
      std::int64_t t0 = 0, t1 = 0;  // rows of t in the buffer
      for (std::int64_t r0 = a; r0 < b; r0 += band) {
        const std::int64_t r1 = std::min(b, r0 + band);
        const std::int64_t first = r0 * S - pt, last = (r1 - 1) * S - pt + reach;  // exclusive
        const std::int64_t n0 = std::max<std::int64_t>(0, first), n1 = std::min(H, last);
        if (!(t0 <= n0 && n0 < t1)) t1 = n0;  // nothing to keep
        t0 = n0;
        const std::int64_t keep_to = std::min(t1, n1);
        range.bands.push_back({n0, n1, keep_to, r0, r1,
                               n1 > keep_to ? pw_prim(n1 - keep_to) : nullptr,
                               dw_prim(n1 - n0, r1 - r0, n0 - first, last - n1)});
        t1 = std::max(keep_to, n1);
      }
      c->ranges.push_back(std::move(range));
    }
  stream.wait();
  c->ok = true;
  return c;
}

// A band's source and destination: thread memories of its primitive (one md per primitive).
enum Slot : int { kSrc, kDst };

void run_band_prim(const Prim& p, const Chain& c, const memory& bias, const memory::desc& src_md,
                   const float* src, const memory::desc& dst_md, float* dst) {
  onednn::CallArgs args;
  args.set(DNNL_ARG_WEIGHTS, c.weights[static_cast<std::size_t>(p.weights)])
      .set(DNNL_ARG_SRC, onednn::thread_memory(p.id, kSrc, src_md, src))
      .set(DNNL_ARG_DST, onednn::thread_memory(p.id, kDst, dst_md, dst));
  if (bias) args.set(DNNL_ARG_BIAS, bias);
  onednn::set_thread_scratchpad(args, p.id, p.scratch);
  dnnl::stream& stream = onednn::thread_stream();
  args.execute(p.conv, stream);
  stream.wait();
}

std::atomic<std::int64_t> chains_run{0};

onednn::EnvSwitch& chain_switch() {
  static onednn::EnvSwitch s{"EC_CONV_CHAIN", "0"};
  return s;
}

}  // namespace

void force_conv_chain(bool on) { chain_switch().set(on); }

std::int64_t onednn_conv_chains_run() { return chains_run.load(std::memory_order_relaxed); }

bool conv_pw_dw_onednn(const ConvGeometry& pw, const float* x, const float* w1, const float* b1,
                       ir::Activation act1, const ConvGeometry& dw, const float* w2,
                       const float* b2, ir::Activation act2, float* y) {
  if (!chain_switch().on() || !onednn_conv_enabled()) return false;
  // pw: 1x1, stride 1, unpadded, one group, 2-D; dw: one channel per group, M of them.
  if (pw.in.size() != 2 || dw.in.size() != 2 || pw.group != 1 || pw.n != dw.n || pw.in != dw.in ||
      pw.out != pw.in || dw.c != pw.m || dw.group != dw.c || dw.m != dw.c)
    return false;
  for (std::size_t d = 0; d < 2; ++d)
    if (pw.kernel[d] != 1 || pw.strides[d] != 1 || pw.pad_begin[d] != 0 || pw.pad_end[d] != 0)
      return false;
  const std::int64_t t_bytes =
      pw.n * pw.m * pw.in[0] * pw.in[1] * static_cast<std::int64_t>(sizeof(float));
  if (t_bytes < kMinChainBytes) return false;
  gemm::PackCache* cache = gemm::current_pack_cache();
  if (!cache) return false;
  const auto constant = [&](const float* p, std::int64_t n) {
    return !p || cache->is_constant(p, static_cast<std::size_t>(n) * sizeof(float));
  };
  if (!w1 || !w2 || !constant(w1, pw.m * pw.c) || !constant(b1, pw.m) ||
      !constant(w2, dw.m * dw.kernel[0] * dw.kernel[1]) || !constant(b2, dw.m))
    return false;
  ThreadPool* pool = current_pool();
  const int parts = pool ? pool->size() : 1;
  onednn::CacheKey k("onednn.chain|");
  k << static_cast<const void*>(w1) << '|' << static_cast<const void*>(b1) << '|'
    << static_cast<const void*>(w2) << '|' << static_cast<const void*>(b2) << '|' << ir::activation_name(act1) << '|' << ir::activation_name(act2)
    << "|p" << std::int64_t{parts} << '|' << pw.n << ',' << pw.c << ',' << pw.m;
  for (const auto* v :
       {&dw.in, &dw.out, &dw.kernel, &dw.strides, &dw.dilations, &dw.pad_begin, &dw.pad_end}) {
    k << '|';
    for (auto d : *v) k << std::int64_t{d} << ',';
  }
  const std::string key = k.take();
  auto chain = std::static_pointer_cast<const Chain>(cache->find_prepared(key));
  if (!chain) {
    onednn::one_omp_thread();
    std::shared_ptr<Chain> made;
    try {
      made = prepare_chain(pw, w1, b1, act1, dw, w2, b2, act2, parts);
    } catch (const dnnl::error&) {
      made = std::make_shared<Chain>();  // no implementation for some band: run them apart
    }
    const std::size_t bytes = made->bytes;
    chain = std::static_pointer_cast<const Chain>(cache->put_prepared(key, std::move(made), bytes));
  }
  if (!chain->ok) return false;
  const Chain& c = *chain;
  const std::int64_t C = pw.c, M = pw.m, H = dw.in[0], W = dw.in[1], OH = dw.out[0], OW = dw.out[1];
  parallel_for(static_cast<std::int64_t>(c.ranges.size()), [&](std::int64_t i) {
    onednn::one_omp_thread();
    const Range& range = c.ranges[static_cast<std::size_t>(i)];
    thread_local std::vector<float> buffer;
    scratch(buffer, static_cast<std::size_t>(c.buffer_rows * W * M));
    const float* xi = x + range.image * H * W * C;
    float* yi = y + range.image * OH * OW * M;
    std::int64_t t0 = 0;  // the t row at the buffer's top
    for (const Band& b : range.bands) {
      const std::int64_t row = W * M;
      if (b.t1 > b.n0)  // rows [n0, t1) are there from the previous band: to the top
        std::memmove(buffer.data(), buffer.data() + (b.n0 - t0) * row,
                     static_cast<std::size_t>((b.t1 - b.n0) * row) * sizeof(float));
      t0 = b.n0;
      if (b.pw) {
        const std::int64_t rows = b.n1 - b.t1;
        float* out = buffer.data() + (b.t1 - b.n0) * row;
        run_band_prim(*b.pw, c, c.b1,
                      {{1, C, rows, W}, memory::data_type::f32, memory::format_tag::nhwc},
                      xi + b.t1 * W * C,
                      {{1, M, rows, W}, memory::data_type::f32, memory::format_tag::nhwc}, out);
        if (c.strip1) c.strip1(out, rows * row);
      }
      float* out = yi + b.r0 * OW * M;
      run_band_prim(
          *b.dw, c, c.b2,
          {{1, M, b.n1 - b.n0, W}, memory::data_type::f32, memory::format_tag::nhwc}, buffer.data(),
          {{1, M, b.r1 - b.r0, OW}, memory::data_type::f32, memory::format_tag::nhwc}, out);
      if (c.strip2) c.strip2(out, (b.r1 - b.r0) * OW * M);
    }
  });
  chains_run.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace ec::runtime::kernels
