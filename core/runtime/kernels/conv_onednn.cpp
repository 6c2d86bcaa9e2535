// Channels-last convolution on oneDNN (f32, and int8 with int32 sums: conv_onednn_s8).
// Per op and shape, prepared once per session
// (kept in the session's PackCache beside the GEMM's packed weights): the output is cut
// into pieces (whole images, or bands of output rows), one per thread of our pool; each
// piece is a oneDNN convolution of its own (its input rows, its padding), the layouts of
// x and y fixed to ours (NHWC, so no reorder per call) and the weights' left to oneDNN,
// reordered once. Pieces run in parallel_for on one oneDNN (OpenMP) thread each: oneDNN
// never starts an OpenMP team, whose spinning threads would fight our pool for the cores.
#include "core/runtime/kernels/conv_onednn.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <oneapi/dnnl/dnnl.hpp>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/kernels/onednn_util.h"
#include "core/runtime/kernels/vmath.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

using dnnl::memory;
using onednn::activation_post_op;
using onednn::cpu_engine;
using onednn::EnvSwitch;
using onednn::one_omp_thread;
using Dims = memory::dims;

std::atomic<std::int64_t> winograd_runs{0};
std::atomic<std::int64_t> reference_declined{0};

// Strides of a dense tensor whose dims are stored in the order `order` (outermost first).
Dims dense_strides(const Dims& dims, const std::vector<std::size_t>& order) {
  Dims st(dims.size());
  memory::dim s = 1;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    st[*it] = s;
    s *= dims[*it];
  }
  return st;
}

// Our tensors' storage orders (dims in oneDNN's order): activations [N, C, S...]
// stored N S... C; weights [(G,) O, I, K...] stored (G) O K... I (OHWI).
memory::desc activation_md(const Dims& dims, memory::data_type t = memory::data_type::f32) {
  std::vector<std::size_t> order{0};
  for (std::size_t d = 2; d < dims.size(); ++d) order.push_back(d);
  order.push_back(1);
  return memory::desc(dims, t, dense_strides(dims, order));
}
// The same for channels [m0, m0 + dims[1]) of a tensor of `channels` channels (the
// caller offsets the pointer by m0).
memory::desc activation_md(Dims dims, std::int64_t channels, memory::data_type t) {
  std::vector<std::size_t> order{0};
  for (std::size_t d = 2; d < dims.size(); ++d) order.push_back(d);
  order.push_back(1);
  const memory::dim c = dims[1];
  dims[1] = channels;
  const Dims st = dense_strides(dims, order);
  dims[1] = c;
  return memory::desc(dims, t, st);
}

memory::desc weights_md(const Dims& dims, bool grouped, memory::data_type t) {
  const std::size_t o = grouped ? 1 : 0, i = o + 1;
  std::vector<std::size_t> order;
  if (grouped) order.push_back(0);
  order.push_back(o);
  for (std::size_t d = i + 1; d < dims.size(); ++d) order.push_back(d);
  order.push_back(i);
  return memory::desc(dims, t, dense_strides(dims, order));
}

// One piece of the convolution: output rows [row0, row0 + rows) of images [n0, n0 + n).
struct Piece {
  std::uint64_t id = onednn::next_owner_id();  // its thread memories' owner
  dnnl::convolution_forward conv;
  memory::desc src, dst, scratch;  // scratch: the piece's scratchpad, ours (see run)
  std::int64_t n0 = 0, row0 = 0, in_row0 = 0;  // first image, output row, input row
  std::int64_t pixels = 0;                     // output pixels of the piece
  int weights = -1;                            // index into Prepared::weights
  std::int64_t m0 = 0;                         // first output channel (pieces by channels)
  std::int64_t channels = 0;                   // its output channels
  bool buffered = false;                       // y written through a buffer of the piece's own
  memory bias;                                 // its biases when it has a channel range
  // Winograd: the convolution runs on oneDNN's blocked layouts (src_int, dst_int); x is
  // reordered into it and y out of it around each call.
  bool wino = false;
  memory::desc src_int, dst_int;
  dnnl::reorder to_int, from_int;
};

// pieces empty: oneDNN cannot run this convolution here (remembered, not retried per call).
struct Prepared {
  std::vector<Piece> pieces;
  std::vector<memory> weights;  // reordered once per distinct layout the pieces want
  memory bias;
  std::size_t bytes = 0;
};

// The element types of a convolution: f32 throughout, or s8 x s8 -> exact s32 sums.
struct Types {
  memory::data_type src, weights, dst;
  bool int8() const { return src == memory::data_type::s8; }
};
constexpr Types kF32{memory::data_type::f32, memory::data_type::f32, memory::data_type::f32};
constexpr Types kS8{memory::data_type::s8, memory::data_type::s8, memory::data_type::s32};

// `post`: what follows the convolution in the cache key (the activation's name, or how the
// kernel applies it itself).
std::string key_of(const ConvGeometry& g, const void* w, const float* b, std::string_view post, int parts) {
  onednn::CacheKey k("onednn.conv|");
  k << w << '|' << static_cast<const void*>(b) << '|' << g.n << ',' << g.c << ',' << g.m << ',' << g.group
    << '|' << post << "|p" << std::int64_t{parts};
  for (const auto* v : {&g.in, &g.out, &g.kernel, &g.strides, &g.dilations, &g.pad_begin, &g.pad_end}) {
    k << '|';
    for (auto d : *v) k << std::int64_t{d} << ',';
  }
  return k.take();
}

// Whether an int8 implementation gives exact int32 sums: one with VNNI or AMX products.
// Without VNNI, oneDNN multiplies with vpmaddubsw, whose int16 pair sums saturate.
bool exact_int8_impl(const char* impl) {
  const std::string_view s(impl ? impl : "");
  return s.find("vnni") != std::string_view::npos || s.find("amx") != std::string_view::npos;
}

// Cuts the output into at least `parts` pieces: whole images when there are enough of
// them, else bands of output rows (the first spatial dim) of each image. An empty
// Prepared when oneDNN has no exact implementation (int8 without VNNI).
std::shared_ptr<Prepared> prepare(const ConvGeometry& g, const void* w, const float* b, const dnnl::primitive_attr& attr,
                                  Types types, int parts) {
  const std::size_t k = g.in.size();
  Dims wts = g.group > 1 ? Dims{g.group, g.m / g.group, g.c / g.group} : Dims{g.m, g.c};
  Dims strides, dil;
  for (std::size_t d = 0; d < k; ++d) {
    wts.push_back(g.kernel[d]);
    strides.push_back(g.strides[d]);
    dil.push_back(g.dilations[d] - 1);
  }
  const memory::desc user_w = weights_md(wts, g.group > 1, types.weights);
  const memory::desc any_w(wts, types.weights, memory::format_tag::any);
  const memory::desc bias_md({g.m}, memory::data_type::f32, memory::format_tag::a);
  auto& engine = cpu_engine();
  dnnl::stream stream(engine);
  auto p = std::make_shared<Prepared>();
  if (b) {
    p->bias = memory(bias_md, engine);
    std::memcpy(p->bias.get_data_handle(), b, static_cast<std::size_t>(g.m) * sizeof(float));
    p->bytes += bias_md.get_size();
  }
  memory user_weights(user_w, engine, const_cast<void*>(w));

  struct Span {
    std::int64_t n0, n, row0, rows, m0 = 0, m = 0;  // m = 0: every output channel
  };
  std::vector<Span> spans;
  const std::int64_t oh = g.out[0];
  std::int64_t row_pixels = 1;
  for (std::size_t d = 1; d < k; ++d) row_pixels *= g.out[d];
  // Winograd (f32, 2-D 3x3, stride 1, no dilation, group 1, enough channels): oneDNN's
  // F(2x2, 3x3) / F(4x4, 3x3) kernels. They want blocked layouts, so x and y are
  // reordered around each call; measured on this Zen 4 at 1 thread, 3x3 Convs with 32 to
  // 512 channels took 0.33-0.8x the direct channels-last time, reorders included, with
  // differences to it of about 1e-6 of the outputs' range; below 32 channels it loses.
  const bool wino = !types.int8() && winograd_enabled() && k == 2 && g.group == 1 &&
                    g.kernel[0] == 3 && g.kernel[1] == 3 && g.strides[0] == 1 &&
                    g.strides[1] == 1 && g.dilations[0] == 1 && g.dilations[1] == 1 && g.c >= 32 &&
                    g.m >= 32;
  // Each Winograd piece reads all of its transformed weights (16 or 36 C x M matrices):
  // bands of a small plane would each read all of them for few outputs (ResNet's 14x14
  // and 7x7 layers at 2 threads: no faster than direct, or 2.3x slower). Such a plane is
  // cut by output channels instead (blocks of 16), each piece reading its share. So is
  // any f32 plane with fewer than 4 output rows a band: bands of 3 and 4 rows are
  // unequal, and each reads all the weights (ResNet-50's 7x7 layers at 2 threads: 1.3-1.45x
  // the speed of 1). A direct piece of a channel range computes into a buffer of its own
  // (`buffered`), copied into y after: oneDNN has only its reference kernel for a
  // destination that skips channels.
  constexpr std::int64_t kWinogradBandPixels = 512, kWinogradMinPixels = 48;
  const std::int64_t band_pixels = oh * row_pixels * g.n / parts;
  const bool small_wino = wino && band_pixels < kWinogradBandPixels && oh * row_pixels >= kWinogradMinPixels;
  const bool few_rows = !types.int8() && g.group == 1 && oh * g.n < 4 * parts;
  if (g.n < parts && (small_wino || few_rows) && g.m >= 16 * parts) {
    const std::int64_t blocks = g.m / 16;
    for (std::int64_t n0 = 0; n0 < g.n; ++n0)
      for (int i = 0; i < parts; ++i) {
        const std::int64_t m0 = 16 * (blocks * i / parts);
        const std::int64_t m1 = i + 1 == parts ? g.m : 16 * (blocks * (i + 1) / parts);
        spans.push_back({n0, 1, 0, oh, m0, m1 - m0});
      }
  } else if (g.n >= parts || oh < 2) {
    // 3-D: one image per piece. A 2-image piece of oneDNN 2.6's 3-D convolution (jit:avx2)
    // gave wrong outputs (a third of them) with a (3,1,3) kernel, strides (2,1,2) and
    // asymmetric pads (Session.Conv3dOnOneDnnMatchesOwnKernels); pieces of one image are right.
    const std::int64_t per = k == 3 ? 1 : (g.n + parts - 1) / parts;
    for (std::int64_t n0 = 0; n0 < g.n; n0 += per) spans.push_back({n0, std::min(per, g.n - n0), 0, oh});
  } else {
    const std::int64_t bands = std::min<std::int64_t>((parts + g.n - 1) / g.n, oh);
    for (std::int64_t n0 = 0; n0 < g.n; ++n0)
      for (std::int64_t i = 0; i < bands; ++i) {
        const std::int64_t r0 = oh * i / bands, r1 = oh * (i + 1) / bands;
        spans.push_back({n0, 1, r0, r1 - r0});
      }
  }
  memory plain_weights;  // OHWI -> OIHW first: oneDNN reorders Winograd weights from plain ones
  for (const Span& sp : spans) {
    // The input rows this band reads, and the padding left above and below them.
    const std::int64_t reach = (g.kernel[0] - 1) * g.dilations[0] + 1;
    const std::int64_t first = sp.row0 * g.strides[0] - g.pad_begin[0];
    const std::int64_t last = (sp.row0 + sp.rows - 1) * g.strides[0] - g.pad_begin[0] + reach;  // exclusive
    const std::int64_t in0 = std::max<std::int64_t>(0, first), in1 = std::min(g.in[0], last);
    const std::int64_t mc = sp.m ? sp.m : g.m;  // the piece's output channels [sp.m0, sp.m0 + mc)
    Dims src{sp.n, g.c, in1 - in0}, dst{sp.n, mc, sp.rows}, pl{in0 - first}, pr{last - in1};
    for (std::size_t d = 1; d < k; ++d) {
      src.push_back(g.in[d]);
      dst.push_back(g.out[d]);
      pl.push_back(g.pad_begin[d]);
      pr.push_back(g.pad_end[d]);
    }
    Piece piece;
    piece.src = activation_md(src, types.src);
    piece.dst = activation_md(dst, types.dst);
    piece.buffered = sp.m != 0;
    // A channel range (group 1): its rows of the OHWI weights and its biases.
    Dims pwts = wts;
    if (sp.m) pwts[0] = mc;
    const memory::desc any_pw =
        sp.m ? memory::desc(pwts, types.weights, memory::format_tag::any) : any_w;
    const memory::desc pbias_md =
        sp.m ? memory::desc({mc}, memory::data_type::f32, memory::format_tag::a) : bias_md;
    const auto kind = dnnl::prop_kind::forward_inference;
    const auto algo = dnnl::algorithm::convolution_direct;
    const auto desc = b ? dnnl::convolution_forward::desc(kind, algo, piece.src, any_pw, pbias_md,
                                                          piece.dst, strides, dil, pl, pr)
                        : dnnl::convolution_forward::desc(kind, algo, piece.src, any_pw, piece.dst,
                                                          strides, dil, pl, pr);
    dnnl::convolution_forward::primitive_desc pd(desc, attr, engine);
    if (types.int8() && !exact_int8_impl(pd.impl_info_str())) return std::make_shared<Prepared>();
    // Each piece reads all of the transformed weights (16 or 36 C x M matrices): on a
    // piece of few output pixels that traffic outweighs the saved products (ResNet's
    // 512-channel 7x7 layers at 2 threads, bands of 3-4 rows: 2.3x slower than direct;
    // 7x7 whole at 1 thread: 1.3x faster).
    if (wino && sp.n * sp.rows * row_pixels >= kWinogradMinPixels) {
      try {
        const memory::desc src_any(src, memory::data_type::f32, memory::format_tag::any),
            dst_any(dst, memory::data_type::f32, memory::format_tag::any);
        const auto walgo = dnnl::algorithm::convolution_winograd;
        const auto wdesc =
            b ? dnnl::convolution_forward::desc(kind, walgo, src_any, any_pw, pbias_md, dst_any,
                                                strides, dil, pl, pr)
              : dnnl::convolution_forward::desc(kind, walgo, src_any, any_pw, dst_any, strides, dil,
                                                pl, pr);
        const dnnl::convolution_forward::primitive_desc wpd(wdesc, attr, engine);
        dnnl::primitive_attr rattr;
        rattr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        // A channel piece's reorder writes its channels of y in place.
        const memory::desc y_md = sp.m ? activation_md(dst, g.m, types.dst) : piece.dst;
        const dnnl::reorder::primitive_desc to(engine, piece.src, engine, wpd.src_desc(), rattr),
            from(engine, wpd.dst_desc(), engine, y_md, rattr);
        if (to.scratchpad_desc().get_size() == 0 && from.scratchpad_desc().get_size() == 0) {
          pd = wpd;
          piece.wino = true;
          piece.buffered = false;
          piece.dst = y_md;
          piece.src_int = wpd.src_desc();
          piece.dst_int = wpd.dst_desc();
          piece.to_int = dnnl::reorder(to);
          piece.from_int = dnnl::reorder(from);
        }
      } catch (const dnnl::error&) {
        // no Winograd kernel for this piece here (ISA, post-op): the direct one
      }
    }
    // oneDNN's reference kernel ("ref:any") is slower than our own NHWC kernel by far: an
    // empty plan hands the convolution to it.
    if (std::string_view(pd.impl_info_str()).rfind("ref", 0) == 0) {
      reference_declined.fetch_add(1, std::memory_order_relaxed);
      return std::make_shared<Prepared>();
    }
    piece.conv = dnnl::convolution_forward(pd);
    piece.scratch = pd.scratchpad_desc();
    piece.n0 = sp.n0;
    piece.row0 = sp.row0;
    piece.in_row0 = in0;
    piece.pixels = sp.n * sp.rows * row_pixels;
    piece.m0 = sp.m0;
    piece.channels = mc;
    if (sp.m && b) {
      piece.bias = memory(pbias_md, engine);
      std::memcpy(piece.bias.get_data_handle(), b + sp.m0,
                  static_cast<std::size_t>(mc) * sizeof(float));
      p->bytes += pbias_md.get_size();
    }
    for (std::size_t i = 0; i < p->weights.size() && !sp.m; ++i)
      if (p->weights[i].get_desc() == pd.weights_desc()) piece.weights = static_cast<int>(i);
    if (piece.weights < 0) {
      memory reordered(pd.weights_desc(), engine);
      memory piece_weights = user_weights;
      if (sp.m) {  // its rows of the OHWI weights (f32: channel pieces are group 1)
        std::int64_t per_channel = g.c;
        for (auto kd : g.kernel) per_channel *= kd;
        piece_weights =
            memory(weights_md(pwts, false, types.weights), engine,
                   const_cast<float*>(static_cast<const float*>(w)) + sp.m0 * per_channel);
      }
      if (piece.wino) {
        memory plain = sp.m ? memory() : plain_weights;
        if (!plain) {
          plain = memory(memory::desc(pwts, types.weights, memory::format_tag::oihw), engine);
          dnnl::reorder(piece_weights, plain).execute(stream, piece_weights, plain);
          if (!sp.m) plain_weights = plain;
        }
        dnnl::reorder(plain, reordered).execute(stream, plain, reordered);
      } else {
        dnnl::reorder(piece_weights, reordered).execute(stream, piece_weights, reordered);
      }
      p->bytes += pd.weights_desc().get_size();
      piece.weights = static_cast<int>(p->weights.size());
      p->weights.push_back(reordered);
    }
    p->pieces.push_back(std::move(piece));
  }
  stream.wait();
  return p;
}

// The prepared convolution of (g, w, b, post: key_of) from the session's cache, made on first use;
// null when oneDNN cannot run it here (outside a session run, weights not a session
// constant, no implementation): the caller's own kernel runs it.
template <typename MakeAttr>
std::shared_ptr<const Prepared> prepared_for(const ConvGeometry& g, const void* w, std::size_t w_elem, const float* b,
                                             std::string_view post, Types types, std::int64_t min_parts,
                                             MakeAttr&& make_attr) {
  if (!onednn_conv_enabled() || g.in.empty() || g.in.size() > 3) return nullptr;
  gemm::PackCache* cache = gemm::current_pack_cache();
  if (!cache) return nullptr;
  std::int64_t w_count = g.m * (g.c / g.group);
  for (auto kd : g.kernel) w_count *= kd;
  if (!cache->is_constant(w, static_cast<std::size_t>(w_count) * w_elem) ||
      (b && !cache->is_constant(b, static_cast<std::size_t>(g.m) * sizeof(float))))
    return nullptr;
  ThreadPool* pool = current_pool();
  // At least one piece per thread, and a whole number per thread (3 pieces on 2 threads
  // took 1.33x the time of 4).
  const std::int64_t threads = pool ? pool->size() : 1;
  const int parts =
      static_cast<int>((std::max(min_parts, threads) + threads - 1) / threads * threads);
  std::string key = key_of(g, w, b, post, parts);
  if (types.int8()) key += "|s8";
  auto p = std::static_pointer_cast<const Prepared>(cache->find_prepared(key));
  if (!p) {
    one_omp_thread();
    std::shared_ptr<Prepared> made;
    try {
      dnnl::primitive_attr attr;
      // The scratchpad is ours, one per thread: pieces of one convolution run at once.
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      made = make_attr(attr) ? prepare(g, w, b, attr, types, parts) : std::make_shared<Prepared>();
    } catch (const dnnl::error&) {
      made = std::make_shared<Prepared>();  // a convolution oneDNN has no implementation for
    }
    const std::size_t bytes = made->bytes;
    p = std::static_pointer_cast<const Prepared>(cache->put_prepared(key, std::move(made), bytes));
  }
  return p->pieces.empty() ? nullptr : p;
}

// A piece's thread memories (onednn::thread_memory): its source and destination, the
// int8 zero point, Winograd's blocked copies of x and y.
enum Slot : int { kSrc, kDst, kZeroPoint, kWinoSrc, kWinoDst };

// Runs every piece on the pool: bind(piece, args, x offset, first output pixel) sets the
// source and destination, done(piece, first output pixel) follows the piece.
template <typename Bind, typename Done>
void run_pieces(const ConvGeometry& g, const Prepared& p, Bind&& bind, Done&& done) {
  // Elements of a row (first spatial dim) of x, of an image of x, pixels of an image of y.
  std::int64_t in_row = g.c, out_row = 1;
  for (std::size_t d = 1; d < g.in.size(); ++d) {
    in_row *= g.in[d];
    out_row *= g.out[d];
  }
  const std::int64_t in_image = in_row * g.in[0], out_image = out_row * g.out[0];
  parallel_for(static_cast<std::int64_t>(p.pieces.size()), [&](std::int64_t i) {
    one_omp_thread();
    const Piece& piece = p.pieces[static_cast<std::size_t>(i)];
    dnnl::stream& stream = onednn::thread_stream();
    onednn::CallArgs args;
    args.set(DNNL_ARG_WEIGHTS, p.weights[static_cast<std::size_t>(piece.weights)]);
    if (piece.bias)
      args.set(DNNL_ARG_BIAS, piece.bias);
    else if (p.bias)
      args.set(DNNL_ARG_BIAS, p.bias);
    onednn::set_thread_scratchpad(args, piece.id, piece.scratch);
    const std::int64_t y_pixel = piece.n0 * out_image + piece.row0 * out_row;
    bind(piece, args, piece.n0 * in_image + piece.in_row0 * in_row, y_pixel);
    if (piece.wino) {  // x into the blocked layout, the convolution, y back
      winograd_runs.fetch_add(1, std::memory_order_relaxed);
      thread_local std::vector<float> in_buf, out_buf;
      scratch(in_buf, piece.src_int.get_size() / sizeof(float) + 1);
      scratch(out_buf, piece.dst_int.get_size() / sizeof(float) + 1);
      const memory x_int = onednn::thread_memory(piece.id, kWinoSrc, piece.src_int, in_buf.data()),
                   y_int = onednn::thread_memory(piece.id, kWinoDst, piece.dst_int, out_buf.data());
      const memory x_user = args.get(DNNL_ARG_SRC), y_user = args.get(DNNL_ARG_DST);
      onednn::CallArgs().set(DNNL_ARG_FROM, x_user).set(DNNL_ARG_TO, x_int).execute(piece.to_int, stream);
      args.set(DNNL_ARG_SRC, x_int).set(DNNL_ARG_DST, y_int).execute(piece.conv, stream);
      onednn::CallArgs().set(DNNL_ARG_FROM, y_int).set(DNNL_ARG_TO, y_user).execute(piece.from_int, stream);
    } else {
      args.execute(piece.conv, stream);
    }
    stream.wait();
    done(piece, y_pixel);
  });
}

}  // namespace

namespace {
EnvSwitch& onednn_switch() {
  static EnvSwitch s{"EC_CONV", "own"};
  return s;
}
EnvSwitch& winograd_switch() {
  static EnvSwitch s{"EC_WINOGRAD", "0"};
  return s;
}
}  // namespace

bool onednn_conv_enabled() { return onednn_switch().on(); }

void force_own_conv(bool own) { onednn_switch().set(!own); }

bool winograd_enabled() { return winograd_switch().on(); }

void force_winograd(bool on) { winograd_switch().set(on); }

std::int64_t onednn_winograd_pieces_run() { return winograd_runs.load(std::memory_order_relaxed); }

std::int64_t onednn_reference_convs_declined() { return reference_declined.load(std::memory_order_relaxed); }

bool onednn_winograd_available() {
  if (!onednn_conv_enabled() || !winograd_enabled()) return false;
  static const bool available = [] {
    try {  // a small 3x3 convolution: whether this machine's oneDNN has a Winograd kernel
      const memory::desc x({1, 64, 8, 8}, memory::data_type::f32, memory::format_tag::any);
      const memory::desc w({64, 64, 3, 3}, memory::data_type::f32, memory::format_tag::any);
      const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                              dnnl::algorithm::convolution_winograd, x, w, x,
                                              {1, 1}, {1, 1}, {1, 1});
      return dnnl::convolution_forward::primitive_desc(d, cpu_engine()).impl_info_str() != nullptr;
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return available;
}

bool onednn_int8_conv_available() {
  if (!onednn_conv_enabled()) return false;
  static const bool available = [] {
    try {
      // A small 3x3 convolution: the implementation oneDNN picks on this machine.
      const memory::desc src({1, 64, 8, 8}, memory::data_type::s8, memory::format_tag::nhwc);
      const memory::desc dst({1, 64, 8, 8}, memory::data_type::s32, memory::format_tag::nhwc);
      const memory::desc w({64, 64, 3, 3}, memory::data_type::s8, memory::format_tag::any);
      dnnl::primitive_attr attr;
      attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
      const dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                              dnnl::algorithm::convolution_direct, src, w, dst, {1, 1}, {1, 1},
                                              {1, 1});
      return exact_int8_impl(dnnl::convolution_forward::primitive_desc(d, attr, cpu_engine()).impl_info_str());
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  return available;
}

bool conv_onednn(const ConvGeometry& g, const float* x, const float* w, const float* b, float* y,
                 ir::Activation act, const float* addend) {
  // oneDNN's exp-based post-ops (swish, logistic, tanh, gelu) cost more than the
  // convolution itself inside its kernels (efficientnet_b0's 16 -> 96 1x1 on 112x112 with
  // SiLU: 1.55 ms, 0.6 without): those run as vmath over each finished piece, the pieces
  // small enough (about 256 KiB of output) to still be in the core's cache. So does every
  // activation after an addend (it comes after the sum).
  const StripFn strip = addend ? activation_fn_for(act) : act == ir::Activation::HardSwish ? nullptr : strip_fn_for(act);
  std::int64_t parts = 1;
  if (strip || addend) {
    std::int64_t out_bytes = g.n * g.m * static_cast<std::int64_t>(sizeof(float));
    for (auto o : g.out) out_bytes *= o;
    constexpr std::int64_t kPieceBytes = 256 * 1024;
    parts = (out_bytes + kPieceBytes - 1) / kPieceBytes;
  }
  const bool own_act = strip || addend;  // the activation is ours, after the piece
  const std::string_view post = addend ? std::string_view("NONE+sum") : strip ? std::string_view("NONE+vmath") : ir::activation_name(act);
  const auto p = prepared_for(
      g, w, sizeof(float), b, post, kF32, parts,
      [&](dnnl::primitive_attr& attr) { return activation_post_op(own_act ? ir::Activation::None : act, attr); });
  if (!p) return false;
  thread_local std::vector<float> buffer;  // a buffered piece's output, this thread's
  run_pieces(
      g, *p,
      [&](const Piece& piece, onednn::CallArgs& args, std::int64_t x_at, std::int64_t y_pixel) {
        float* out = y + y_pixel * g.m + piece.m0;
        if (piece.buffered) out = scratch(buffer, static_cast<std::size_t>(piece.pixels * piece.channels));
        args.set(DNNL_ARG_SRC, onednn::thread_memory(piece.id, kSrc, piece.src, x + x_at))
            .set(DNNL_ARG_DST, onednn::thread_memory(piece.id, kDst, piece.dst, out));
      },
      [&](const Piece& piece, std::int64_t y_pixel) {
        float* out = y + y_pixel * g.m + piece.m0;
        const float* add = addend ? addend + y_pixel * g.m + piece.m0 : nullptr;
        if (piece.buffered) {  // [pixels, channels] in the buffer: the addend's rows, the activation, into y
          if (add)
            vmath::binary(vmath::BinOp::Add, buffer.data(), 1, add, 1, buffer.data(), piece.channels, piece.pixels,
                          piece.channels, g.m);
          if (strip) strip(buffer.data(), piece.pixels * piece.channels);
          const auto row = static_cast<std::size_t>(piece.channels) * sizeof(float);
          for (std::int64_t px = 0; px < piece.pixels; ++px)
            std::memcpy(out + px * g.m, buffer.data() + px * piece.channels, row);
        } else if (piece.channels == g.m) {  // whole pixels: one run
          if (add) vmath::binary(vmath::BinOp::Add, out, 1, add, 1, out, piece.pixels * g.m);
          if (strip) strip(out, piece.pixels * g.m);
        } else {  // a Winograd piece's channels of each pixel
          for (std::int64_t px = 0; px < piece.pixels; ++px) {
            if (add) vmath::binary(vmath::BinOp::Add, out + px * g.m, 1, add + px * g.m, 1, out + px * g.m, piece.channels);
            if (strip) strip(out + px * g.m, piece.channels);
          }
        }
      });
  return true;
}

namespace {
std::atomic<std::int64_t> int8_runs{0};
}  // namespace

std::int64_t onednn_int8_convs_run() { return int8_runs.load(std::memory_order_relaxed); }

bool conv_onednn_s8(const ConvGeometry& g, const std::int8_t* x, std::int32_t zx, const std::int8_t* w,
                    const Int8Epilogue& epilogue) {
  // Pieces small enough that their int32 sums stay in the core's cache until requantised.
  std::int64_t out_bytes = g.n * g.m * static_cast<std::int64_t>(sizeof(std::int32_t));
  for (auto o : g.out) out_bytes *= o;
  constexpr std::int64_t kPieceBytes = 256 * 1024;  // measured: 64 KiB pieces cost more, 1 MiB the same
  const auto p = prepared_for(g, w, 1, nullptr, ir::activation_name(ir::Activation::None), kS8, (out_bytes + kPieceBytes - 1) / kPieceBytes,
                              [](dnnl::primitive_attr& attr) {
                                attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
                                return true;
                              });
  if (!p) return false;
  std::int32_t zero_point = zx;
  const memory::desc zp_md({1}, memory::data_type::s32, memory::format_tag::x);
  thread_local std::vector<std::int32_t> acc;
  run_pieces(g, *p, [&](const Piece& piece, onednn::CallArgs& args, std::int64_t x_at, std::int64_t) {
    scratch(acc, static_cast<std::size_t>(piece.pixels * g.m));
    args.set(DNNL_ARG_SRC, onednn::thread_memory(piece.id, kSrc, piece.src, x + x_at))
        .set(DNNL_ARG_DST, onednn::thread_memory(piece.id, kDst, piece.dst, acc.data()))
        .set(DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, onednn::thread_memory(piece.id, kZeroPoint, zp_md, &zero_point));
  }, [&](const Piece& piece, std::int64_t y_pixel) { epilogue(acc.data(), y_pixel, piece.pixels); });
  int8_runs.fetch_add(1, std::memory_order_relaxed);
  return true;
}

}  // namespace ec::runtime::kernels
