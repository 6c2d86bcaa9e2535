// Shape and data movement ops. Reshape-like ops share the input's storage
// (no copy); the others copy elements by byte size, so they work on any dtype.
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>

#include "core/runtime/gemm/gemm.h"
#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"
#include "core/util/half.h"

namespace ec::runtime::kernels {

ir::DType dtype_attr(const ir::Operation& op, const std::string& key, ir::DType fallback) {
  const std::string name = attr_str(op, key, "");
  if (name.empty()) return fallback;
  if (auto t = ir::dtype_from_name(name)) return *t;
  fail("unknown type name '" + name + "' in attribute '" + key + "'");
}

// transpose_avx2.cpp: y[j * R + r] = x[r * C + j] for 2-4 planes, columns from j0 in
// whole blocks of 16 (64 bytes): the first column left. Call only where the CPU has
// AVX-512 (and VBMI).
std::int64_t interleave_f32_avx512(const float* x, float* y, int R, std::int64_t C, std::int64_t j0, std::int64_t j1);
std::int64_t interleave_u8_avx512vbmi(const std::uint8_t* x, std::uint8_t* y, int R, std::int64_t C, std::int64_t j0,
                                      std::int64_t j1);
// transpose_avx2.cpp: y[j, i] = x[i, j] (x [R, C]) for rows [i0, i1), columns [j0, j1),
// 8 x 8 blocks in registers. Call only where the CPU has AVX2.
void transpose_f32_avx2(const float* x, float* y, std::int64_t R, std::int64_t C, std::int64_t i0,
                        std::int64_t i1, std::int64_t j0, std::int64_t j1);

namespace {

// Copies of less than this run on the calling thread: shufflenet_v2's Transposes, Slices
// and Concats of 0.2-0.4 MB took longer split over 2 threads than on one (Transposes
// 0.39 vs 0.34 ms in all, Concats 0.17 vs 0.12).
constexpr std::int64_t kMinSplitCopyBytes = std::int64_t(1) << 20;
// The planes of an input image into its channels-last copy split from this size (the
// output's lines were last written by whichever thread ran the previous inference's
// ops: regnet_x_400mf's 3 x 224 x 224 input at 2 threads took 0.084 ms on one).
constexpr std::int64_t kMinSplitInterleaveBytes = std::int64_t(1) << 18;

// y[j, i] = x[i, j] for j in [j0, j1) with R (few) rows fixed at compile time: interleaving
// the planes of an image (RGB -> HWC) without a loop per element over the rows.
template <int R, typename T>
void interleave_rows(const T* x, T* y, std::int64_t C, std::int64_t j0, std::int64_t j1) {
  for (std::int64_t j = j0; j < j1; ++j)
    for (int i = 0; i < R; ++i) y[j * R + i] = x[i * C + j];
}

// interleave_rows's columns [j0, j1) of 2-4 planes in AVX-512 registers (4-byte elements,
// or bytes with VBMI) while whole blocks remain; the first column it left (j0: none).
// The input edge of every channels-last CNN (a 3 x 224 x 224 image as bytes: 0.031 -> 0.020
// ms; as floats it is bound by memory either way).
template <typename T>
std::int64_t interleave_fast(const T* x, T* y, std::int64_t R, std::int64_t C, std::int64_t j0, std::int64_t j1) {
#if defined(__x86_64__)
  if (R < 2 || gemm::active_isa() != gemm::Isa::Avx512) return j0;
  if constexpr (sizeof(T) == 4) {
    return interleave_f32_avx512(reinterpret_cast<const float*>(x), reinterpret_cast<float*>(y), static_cast<int>(R),
                                 C, j0, j1);
  } else if constexpr (sizeof(T) == 1) {
    static const bool vbmi = __builtin_cpu_supports("avx512vbmi") && __builtin_cpu_supports("avx512bw");
    if (vbmi)
      return interleave_u8_avx512vbmi(reinterpret_cast<const std::uint8_t*>(x), reinterpret_cast<std::uint8_t*>(y),
                                      static_cast<int>(R), C, j0, j1);
  }
#endif
  return j0;
}

// Batched 2-D transpose y[b, j, i] = x[b, i, j] (x [B, R, C]) in 32 x 32 tiles (both
// sides touch whole cache lines), tiles split over the pool; 1-4 rows (an image's
// channel planes) as interleaved runs of columns. A copy: any thread count gives the
// same result.
template <typename T>
void transpose_batched(const T* x, T* y, std::int64_t B, std::int64_t R, std::int64_t C) {
  if (R <= 4) {
    constexpr std::int64_t kRun = 4096;
    const std::int64_t runs = (C + kRun - 1) / kRun;
    parallel_for_if(B * R * C * std::int64_t(sizeof(T)) >= kMinSplitInterleaveBytes, B * runs,
                    [&](std::int64_t task) {
                      const std::int64_t b = task / runs, j0 = task % runs * kRun,
                                         j1 = std::min(C, j0 + kRun);
                      const T* xb = x + b * R * C;
                      T* yb = y + b * R * C;
                      const std::int64_t j = interleave_fast(xb, yb, R, C, j0, j1);
                      switch (R) {
                        case 1:
                          interleave_rows<1>(xb, yb, C, j, j1);
                          break;
                        case 2:
                          interleave_rows<2>(xb, yb, C, j, j1);
                          break;
                        case 3:
                          interleave_rows<3>(xb, yb, C, j, j1);
                          break;
                        default:
                          interleave_rows<4>(xb, yb, C, j, j1);
                          break;
                      }
                    });
    return;
  }
  constexpr std::int64_t kT = 32;
  const std::int64_t rt = (R + kT - 1) / kT, ct = (C + kT - 1) / kT;
  // 4-byte elements in AVX2 registers, 8 x 8 at a time (a 116 x 784 plane: 3x faster).
  const bool avx2 = sizeof(T) == 4 && gemm::active_isa() != gemm::Isa::Generic;
  parallel_for_if(
      B * R * C * std::int64_t(sizeof(T)) >= kMinSplitCopyBytes, B * rt, [&](std::int64_t task) {
        const std::int64_t b = task / rt, i0 = task % rt * kT, i1 = std::min(R, i0 + kT);
        const T* xb = x + b * R * C;
        T* yb = y + b * R * C;
        for (std::int64_t tj = 0; tj < ct; ++tj) {
          const std::int64_t j0 = tj * kT, j1 = std::min(C, j0 + kT);
          if (avx2) {
            transpose_f32_avx2(reinterpret_cast<const float*>(xb), reinterpret_cast<float*>(yb), R,
                               C, i0, i1, j0, j1);
            continue;
          }
          for (std::int64_t j = j0; j < j1; ++j)
            for (std::int64_t i = i0; i < i1; ++i) yb[j * R + i] = xb[i * C + j];
        }
      });
}

// The permutation with adjacent input dims that stay adjacent (and size-1 dims) merged:
// [N, C, H, W] by [0, 2, 3, 1] is [N, C, H*W] by [0, 2, 1].
void coalesce(const Shape& dims, const std::vector<std::int64_t>& perm, Shape& cdims,
              std::vector<std::int64_t>& cperm) {
  std::vector<std::int64_t> kept;  // perm without size-1 dims
  for (auto p : perm)
    if (dims[static_cast<std::size_t>(p)] != 1) kept.push_back(p);
  std::vector<std::vector<std::int64_t>> groups;  // runs of consecutive input dims, in output order
  for (auto p : kept) {
    if (!groups.empty() && groups.back().back() + 1 == p) groups.back().push_back(p);
    else groups.push_back({p});
  }
  // Number the groups by their input position.
  std::vector<std::size_t> order(groups.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return groups[a][0] < groups[b][0]; });
  cdims.assign(groups.size(), 1);
  cperm.assign(groups.size(), 0);
  for (std::size_t k = 0; k < order.size(); ++k) {
    for (auto d : groups[order[k]]) cdims[k] *= dims[static_cast<std::size_t>(d)];
    cperm[order[k]] = static_cast<std::int64_t>(k);
  }
}

}  // namespace

Tensor permute(const Tensor& x, const std::vector<std::int64_t>& perm) {
  Shape cdims;
  std::vector<std::int64_t> cperm;
  coalesce(x.shape(), perm, cdims, cperm);
  const bool swap2 = cperm == std::vector<std::int64_t>{1, 0};
  if (x.numel() > 0 && (swap2 || cperm == std::vector<std::int64_t>{0, 2, 1})) {
    // A (batched) 2-D transpose: NCHW <-> NHWC among them.
    Shape out(x.rank());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = x.dim(static_cast<std::size_t>(perm[i]));
    return dispatch_by_size(x.dtype(), [&]<typename T>() {
      Tensor y = Tensor::uninitialized(x.dtype(), out);
      const std::int64_t B = swap2 ? 1 : cdims[0], R = cdims[swap2 ? 0 : 1], C = cdims[swap2 ? 1 : 2];
      transpose_batched(x.data<T>(), y.mutable_data<T>(), B, R, C);
      return y;
    });
  }
  // Any other permutation, on the coalesced dims: runs of the innermost output dim
  // (whole contiguous blocks when it is the input's innermost too).
  Shape out(x.rank());
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = x.dim(static_cast<std::size_t>(perm[i]));
  return dispatch_by_size(x.dtype(), [&]<typename T>() {
    Tensor y = Tensor::uninitialized(x.dtype(), out);
    const T* p = x.data<T>();
    T* o = y.mutable_data<T>();
    const std::int64_t n = y.numel();
    if (n == 0) return y;
    const std::size_t r = cdims.size();
    if (r == 0) {
      o[0] = p[0];
      return y;
    }
    const Shape st = strides_of(cdims);
    Shape cout(r), src_st(r);
    for (std::size_t i = 0; i < r; ++i) {
      cout[i] = cdims[static_cast<std::size_t>(cperm[i])];
      src_st[i] = st[static_cast<std::size_t>(cperm[i])];
    }
    const std::int64_t inner = cout[r - 1], is = src_st[r - 1], rows = n / inner;
    // Output rows split over the pool in chunks of about 16K elements (a copy: the
    // result does not depend on the split).
    const std::int64_t per = std::max<std::int64_t>(1, 16384 / inner);
    parallel_for_if(n * std::int64_t(sizeof(T)) >= kMinSplitCopyBytes, (rows + per - 1) / per,
                    [&](std::int64_t t) {
                      const std::int64_t r0 = t * per, r1 = std::min(rows, r0 + per);
                      std::vector<std::int64_t> idx(r, 0);
                      std::int64_t off = 0, rest = r0;  // the first row's index and source offset
                      for (std::size_t d = r - 1; d-- > 0;) {
                        idx[d] = rest % cout[d];
                        rest /= cout[d];
                        off += idx[d] * src_st[d];
                      }
                      for (std::int64_t row = r0; row < r1; ++row) {
                        T* dst = o + row * inner;
                        if (is == 1)
                          std::copy(p + off, p + off + inner, dst);
                        else
                          for (std::int64_t k = 0; k < inner; ++k) dst[k] = p[off + k * is];
                        for (std::size_t d = r - 1; d-- > 0;) {
                          off += src_st[d];
                          if (++idx[d] < cout[d]) break;
                          off -= src_st[d] * cout[d];
                          idx[d] = 0;
                        }
                      }
                    });
    return y;
  });
}

namespace {

std::vector<bool> axes_mask(const std::vector<std::int64_t>& axes, std::int64_t rank) {
  std::vector<bool> m(static_cast<std::size_t>(rank), false);
  for (auto a : axes) {
    const auto i = static_cast<std::size_t>(norm_axis(a, rank));
    if (m[i]) fail("axis " + std::to_string(a) + " is repeated");
    m[i] = true;
  }
  return m;
}

// Converts one element between dtypes: float -> int truncates; NaN/out-of-range -> 0 or saturates.
template <typename To, typename From>
To convert(From v) {
  if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(v)) return To(0);
    const double d = std::trunc(double(v));
    if (d <= double(std::numeric_limits<To>::lowest())) return std::numeric_limits<To>::lowest();
    if (d >= double(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
    return static_cast<To>(d);
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace

Outputs kernel_Identity(const ir::Operation&, Inputs x) { return {x[0]}; }

// Inference: identity; the optional mask is all true.
Outputs kernel_Dropout(const ir::Operation& op, Inputs x) {
  const Tensor& training = in(x, 2);
  if (training.defined() && training.numel() && training.get_int(0) != 0) {
    const Tensor& ratio = in(x, 1);
    if (!ratio.defined() || ratio.get_double(0) != 0.0)
      throw UnsupportedOpError("Dropout in training mode", "the CPU runtime", "export the model in eval mode");
  }
  Outputs out{x[0]};
  if (op.outputs.size() > 1) {
    Tensor mask(DType::Bool, x[0].shape());
    for (std::int64_t i = 0; i < mask.numel(); ++i) mask.mutable_data<bool>()[i] = true;
    out.push_back(mask);
  }
  return out;
}

// Target shape: 0 copies the input dim (unless allowzero), -1 is inferred.
Outputs kernel_Reshape(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  Shape s = x[1].to_int64_vector();
  const bool allowzero = attr_int(op, "allowzero", 0) != 0;
  std::int64_t known = 1, infer = -1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == 0 && !allowzero) {
      if (i >= X.rank()) fail("shape " + shape_string(s) + " copies dim " + std::to_string(i) + " of " + X.type_string());
      s[i] = X.dim(i);
    }
    if (s[i] == -1) {
      if (infer >= 0) fail("shape " + shape_string(s) + " has more than one -1");
      infer = static_cast<std::int64_t>(i);
    } else if (s[i] < 0) {
      fail("invalid shape " + shape_string(s));
    } else if (__builtin_mul_overflow(known, s[i], &known)) {  // a target shape from the model may be absurd
      fail("shape " + shape_string(s) + " has more elements than a 64-bit count holds");
    }
  }
  if (infer >= 0) {
    if (known == 0 || X.numel() % known) fail("cannot reshape " + X.type_string() + " to " + shape_string(x[1].to_int64_vector()));
    s[static_cast<std::size_t>(infer)] = X.numel() / known;
  }
  if (shape_numel(s) != X.numel()) fail("cannot reshape " + X.type_string() + " to " + shape_string(s));
  return {X.reshaped(s)};
}

// [d0 * ... * d(axis-1), d(axis) * ... * d(r-1)]
Outputs kernel_Flatten(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  std::int64_t axis = attr_int(op, "axis", 1);
  if (axis < 0) axis += rank;
  if (axis < 0 || axis > rank) fail("axis out of range");
  std::int64_t a = 1;
  for (std::int64_t d = 0; d < axis; ++d) a *= X.dim(static_cast<std::size_t>(d));
  return {X.reshaped({a, a == 0 ? 0 : X.numel() / a})};
}

Outputs kernel_Squeeze(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  const Tensor& A = in(x, 1);
  Shape out;
  if (!A.defined()) {
    for (auto d : X.shape()) if (d != 1) out.push_back(d);
  } else {
    const auto m = axes_mask(A.to_int64_vector(), static_cast<std::int64_t>(X.rank()));
    for (std::size_t d = 0; d < X.rank(); ++d) {
      if (m[d] && X.dim(d) != 1) fail("cannot squeeze dim " + std::to_string(d) + " of " + X.type_string());
      if (!m[d]) out.push_back(X.dim(d));
    }
  }
  return {X.reshaped(out)};
}

Outputs kernel_Unsqueeze(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  const auto axes = x[1].to_int64_vector();
  const auto rank = static_cast<std::int64_t>(X.rank() + axes.size());
  const auto m = axes_mask(axes, rank);
  Shape out;
  std::size_t j = 0;
  for (std::size_t d = 0; d < static_cast<std::size_t>(rank); ++d) out.push_back(m[d] ? 1 : X.dim(j++));
  return {X.reshaped(out)};
}

Outputs kernel_Transpose(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  auto perm = attr_ints(op, "perm");
  if (perm.empty()) {
    perm.resize(X.rank());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<std::int64_t>(perm.size() - 1 - i);
  }
  if (perm.size() != X.rank()) fail("perm has " + std::to_string(perm.size()) + " entries for " + X.type_string());
  for (auto& p : perm) p = norm_axis(p, static_cast<std::int64_t>(X.rank()));
  axes_mask(perm, static_cast<std::int64_t>(X.rank()));
  return {permute(X, perm)};
}

Outputs kernel_Concat(const ir::Operation& op, Inputs x) {
  std::vector<const Tensor*> parts;
  for (const auto& t : x) if (t.defined()) parts.push_back(&t);
  if (parts.empty()) fail("needs at least one input");
  const Tensor& first = *parts[0];
  const auto rank = static_cast<std::int64_t>(first.rank());
  if (rank == 0) fail("Concat takes tensors of rank 1 or more, not scalars");  // a crafted model crashed here
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), rank);
  Shape out = first.shape();
  out[static_cast<std::size_t>(axis)] = 0;
  for (const Tensor* t : parts) {
    if (t->dtype() != first.dtype() || t->rank() != first.rank()) fail("inputs differ in type or rank");
    for (std::size_t d = 0; d < t->rank(); ++d)
      if (static_cast<std::int64_t>(d) != axis && t->dim(d) != first.dim(d))
        fail("input " + t->type_string() + " does not match " + first.type_string() + " off the concat axis");
    out[static_cast<std::size_t>(axis)] += t->dim(static_cast<std::size_t>(axis));
  }
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d)
    if (d < axis) outer *= out[static_cast<std::size_t>(d)];
    else if (d > axis) inner *= out[static_cast<std::size_t>(d)];
  // Zeroed first although every element is copied in when a piece writes under 256 bytes a
  // row (a channels-last Concat: C_i values per pixel): lines the memset already owns make
  // that faster (densenet121's 32 channels: Concat 3.1 -> 2.6 ms). From 256 bytes (4 lines;
  // squeezenet's 64 channels, googlenet's) the memset costs more than it saves (squeezenet1_1
  // Concats 0.22 -> 0.19 ms, googlenet 0.31 -> 0.25 without it). Whole blocks (NCHW) need not.
  const auto es = static_cast<std::int64_t>(ir::dtype_size(first.dtype()));
  const bool partial_lines = std::any_of(parts.begin(), parts.end(), [&](const Tensor* t) {
    return t->dim(static_cast<std::size_t>(axis)) * inner * es < 256;
  });
  // Each task zeroes its own rows (a memset of the whole output ran on one thread), and only
  // with 2+ threads: the arena's buffers were last written by either core, and lines the
  // memset takes over are not fetched from the other one; on one thread they are in its own
  // cache and the zeroing cost more than it saved (Zen 5, densenet121's Concats: 1 thread
  // 2.6 ms with it, 2.1 without; 2 threads 2.1 with it, 2.6 without).
  Tensor Y = Tensor::uninitialized(first.dtype(), out);
  const std::int64_t row = out[static_cast<std::size_t>(axis)] * inner;
  const bool split = outer * row * es >= kMinSplitCopyBytes;
  const bool zero = partial_lines && current_threads() > 1;
  // Output rows split over the pool in chunks of about 64 KiB (channels-last Concat:
  // one row per pixel); each row gets every input's piece.
  const std::int64_t per = std::max<std::int64_t>(1, 65536 / std::max<std::int64_t>(1, row * es));
  parallel_for_if(split, (outer + per - 1) / per,
                  [&](std::int64_t task) {
                    const std::int64_t o0 = task * per, o1 = std::min(outer, o0 + per);
                    if (zero)
                      std::memset(Y.mutable_raw() + o0 * row * es, 0, static_cast<std::size_t>((o1 - o0) * row * es));
                    std::int64_t at = 0;
                    for (const Tensor* t : parts) {
                      const std::int64_t chunk = t->dim(static_cast<std::size_t>(axis)) * inner;
                      for (std::int64_t o = o0; o < o1; ++o)
                        copy_bytes(Y.mutable_raw() + (o * row + at) * es, t->raw() + o * chunk * es,
                                   static_cast<std::size_t>(chunk * es));
                      at += chunk;
                    }
                  });
  return {Y};
}

// Copies x[..., begin:begin+len, ...] along axis.
static Tensor slice_axis(const Tensor& X, std::int64_t axis, std::int64_t begin, std::int64_t len) {
  Shape out = X.shape();
  out[static_cast<std::size_t>(axis)] = len;
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(X.rank()); ++d)
    if (d < axis) outer *= X.dim(static_cast<std::size_t>(d));
    else if (d > axis) inner *= X.dim(static_cast<std::size_t>(d));
  Tensor Y(X.dtype(), out);
  const auto es = static_cast<std::int64_t>(ir::dtype_size(X.dtype()));
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  for (std::int64_t o = 0; o < outer; ++o)
    copy_bytes(Y.mutable_raw() + o * len * inner * es, X.raw() + (o * n + begin) * inner * es,
               static_cast<std::size_t>(len * inner * es));
  return Y;
}

// split sizes from the input, or num_outputs equal parts (the last one smaller).
Outputs kernel_Split(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), static_cast<std::int64_t>(X.rank()));
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  std::vector<std::int64_t> sizes;
  const auto outs = static_cast<std::int64_t>(op.outputs.size());
  if (in(x, 1).defined()) {
    sizes = x[1].to_int64_vector();
  } else {
    const std::int64_t parts = attr_int(op, "num_outputs", outs);
    const std::int64_t each = (n + parts - 1) / parts;
    for (std::int64_t i = 0; i < parts; ++i) sizes.push_back(std::max<std::int64_t>(0, std::min(each, n - i * each)));
  }
  if (std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0}) != n)
    fail("split sizes " + shape_string(sizes) + " do not add up to " + std::to_string(n));
  Outputs out;
  std::int64_t at = 0;
  for (auto s : sizes) {
    if (s < 0) fail("negative split size");
    out.push_back(slice_axis(X, axis, at, s));
    at += s;
  }
  return out;
}

// y = x[starts:ends:steps] on the given axes; bounds clamp as in numpy.
Outputs kernel_Slice(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const auto starts = x[1].to_int64_vector(), ends = x[2].to_int64_vector();
  std::vector<std::int64_t> axes, steps;
  if (in(x, 3).defined()) axes = x[3].to_int64_vector();
  else { axes.resize(starts.size()); std::iota(axes.begin(), axes.end(), 0); }
  if (in(x, 4).defined()) steps = x[4].to_int64_vector();
  else steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() || steps.size() != starts.size())
    fail("starts, ends, axes and steps differ in length");
  Shape begin(X.rank(), 0), step(X.rank(), 1), out = X.shape();
  axes_mask(axes, rank);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto a = static_cast<std::size_t>(norm_axis(axes[i], rank));
    const std::int64_t dim = X.dim(a), s = steps[i];
    if (s == 0) fail("slice step cannot be 0");
    std::int64_t b = starts[i], e = ends[i];
    if (b < 0) b = b < -dim ? (s > 0 ? 0 : -1) : b + dim;  // too-negative starts clamp below
    if (e < 0) e = e < -dim ? -1 : e + dim;
    if (s > 0) { b = std::clamp<std::int64_t>(b, 0, dim); e = std::clamp<std::int64_t>(e, 0, dim); }
    else { b = std::clamp<std::int64_t>(b, -1, dim - 1); e = std::clamp<std::int64_t>(e, -1, dim - 1); }
    const std::int64_t len = s > 0 ? (e > b ? (e - b + s - 1) / s : 0) : (b > e ? (b - e + (-s) - 1) / (-s) : 0);
    begin[a] = b;
    step[a] = s;
    out[a] = len;
  }
  const Shape st = strides_of(X.shape());
  // Dims [k, r) whole, and a unit-step run along dim k - 1: one contiguous block per
  // index of dims [0, k) (a channel split of NCHW: one block per image).
  const std::size_t r = out.size();
  std::size_t k = r;
  std::int64_t block = 1, base = 0;
  while (k > 0 && begin[k - 1] == 0 && step[k - 1] == 1 && out[k - 1] == X.dim(k - 1))
    block *= out[--k];
  if (k > 0 && step[k - 1] == 1) {
    --k;
    block *= out[k];
    base = begin[k] * st[k];
  }
  Tensor Y = Tensor::uninitialized(X.dtype(), out);  // every element written
  if (Y.numel() == 0) return {Y};
  const auto es = static_cast<std::int64_t>(ir::dtype_size(X.dtype()));
  const std::int64_t rows = Y.numel() / block;
  const Shape outer(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(k));
  // Blocks split over the pool in chunks of about 64 KiB (a copy: any split gives the same).
  const std::int64_t per = std::max<std::int64_t>(1, 65536 / (block * es));
  parallel_for_if(
      Y.numel() * es >= kMinSplitCopyBytes, (rows + per - 1) / per, [&](std::int64_t task) {
        const std::int64_t r0 = task * per, r1 = std::min(rows, r0 + per);
        std::vector<std::int64_t> idx(k, 0);
        for (std::int64_t rest = r0, d = static_cast<std::int64_t>(k) - 1; d >= 0; --d) {
          idx[static_cast<std::size_t>(d)] = rest % outer[static_cast<std::size_t>(d)];
          rest /= outer[static_cast<std::size_t>(d)];
        }
        for (std::int64_t row = r0; row < r1; ++row, next_index(idx, outer)) {
          std::int64_t off = base;
          for (std::size_t d = 0; d < k; ++d) off += (begin[d] + idx[d] * step[d]) * st[d];
          copy_bytes(Y.mutable_raw() + row * block * es, X.raw() + off * es,
                     static_cast<std::size_t>(block * es));
        }
      });
  return {Y};
}

// y[i0.., j.., k..] = x[i0.., idx[j..], k..]; negative indices count from the end.
Outputs kernel_Gather(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &I = x[1];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), rank);
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d)
    if (d < axis) outer *= X.dim(static_cast<std::size_t>(d));
    else if (d > axis) inner *= X.dim(static_cast<std::size_t>(d));
  Shape out(X.shape().begin(), X.shape().begin() + axis);
  out.insert(out.end(), I.shape().begin(), I.shape().end());
  out.insert(out.end(), X.shape().begin() + axis + 1, X.shape().end());
  const auto idx = I.to_int64_vector();
  Tensor Y(X.dtype(), out);
  const auto es = static_cast<std::int64_t>(ir::dtype_size(X.dtype()));
  const auto m = static_cast<std::int64_t>(idx.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < m; ++j) {
      std::int64_t k = idx[static_cast<std::size_t>(j)];
      if (k < 0) k += n;
      if (k < 0 || k >= n) fail("index " + std::to_string(idx[static_cast<std::size_t>(j)]) + " is out of range for a dim of " + std::to_string(n));
      copy_bytes(Y.mutable_raw() + (o * m + j) * inner * es, X.raw() + (o * n + k) * inner * es,
                 static_cast<std::size_t>(inner * es));
    }
  return {Y};
}

// y[i] = x[i with i[axis] replaced by idx[i]]
Outputs kernel_GatherElements(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &I = x[1];
  const auto rank = static_cast<std::int64_t>(X.rank());
  if (I.rank() != X.rank()) fail("indices rank differs from data rank");
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), rank);
  const Shape st = strides_of(X.shape());
  const auto idx = I.to_int64_vector();
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  return {dispatch_by_size(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), I.shape());
    std::vector<std::int64_t> pos(I.rank(), 0);
    for (std::int64_t i = 0; i < Y.numel(); ++i, next_index(pos, I.shape())) {
      std::int64_t k = idx[static_cast<std::size_t>(i)];
      if (k < 0) k += n;
      if (k < 0 || k >= n) fail("index out of range");
      std::int64_t off = 0;
      for (std::size_t d = 0; d < pos.size(); ++d)
        off += (static_cast<std::int64_t>(d) == axis ? k : pos[d]) * st[d];
      Y.mutable_data<T>()[i] = X.data<T>()[off];
    }
    return Y;
  })};
}

// Indices' last dim addresses a slice of x; the first batch_dims dims are shared.
Outputs kernel_GatherND(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &I = x[1];
  const std::int64_t b = attr_int(op, "batch_dims", 0);
  const std::int64_t q = static_cast<std::int64_t>(I.rank()), r = static_cast<std::int64_t>(X.rank());
  if (q < 1) fail("indices must be at least 1-D");
  const std::int64_t last = I.dim(static_cast<std::size_t>(q - 1));
  if (b < 0 || b + last > r) fail("indices address more dims than the data has");
  Shape out(I.shape().begin(), I.shape().end() - 1);
  out.insert(out.end(), X.shape().begin() + b + last, X.shape().end());
  std::int64_t batch = 1, slice = 1;
  for (std::int64_t d = 0; d < b; ++d) batch *= X.dim(static_cast<std::size_t>(d));
  for (std::int64_t d = b + last; d < r; ++d) slice *= X.dim(static_cast<std::size_t>(d));
  const Shape st = strides_of(X.shape());
  const auto idx = I.to_int64_vector();
  const std::int64_t per_batch = batch ? static_cast<std::int64_t>(idx.size()) / last / batch : 0;
  const std::int64_t batch_stride = b > 0 ? st[static_cast<std::size_t>(b - 1)] : 0;
  Tensor Y(X.dtype(), out);
  const auto es = static_cast<std::int64_t>(ir::dtype_size(X.dtype()));
  for (std::int64_t bi = 0; bi < batch; ++bi)
    for (std::int64_t j = 0; j < per_batch; ++j) {
      std::int64_t off = bi * batch_stride;
      for (std::int64_t k = 0; k < last; ++k) {
        std::int64_t v = idx[static_cast<std::size_t>((bi * per_batch + j) * last + k)];
        const std::int64_t dim = X.dim(static_cast<std::size_t>(b + k));
        if (v < 0) v += dim;
        if (v < 0 || v >= dim) fail("index out of range");
        off += v * st[static_cast<std::size_t>(b + k)];
      }
      copy_bytes(Y.mutable_raw() + (bi * per_batch + j) * slice * es, X.raw() + off * es, static_cast<std::size_t>(slice * es));
    }
  return {Y};
}

namespace {
template <typename T>
void scatter_apply(T& dst, T v, const std::string& red) {
  if (red == "add") dst = static_cast<T>(dst + v);
  else if (red == "mul") dst = static_cast<T>(dst * v);
  else if (red == "max") dst = std::max(dst, v);
  else if (red == "min") dst = std::min(dst, v);
  else dst = v;
}
}  // namespace

Outputs kernel_ScatterElements(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &I = x[1], &U = x[2];
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), static_cast<std::int64_t>(X.rank()));
  const std::string red = attr_str(op, "reduction", "none");
  const Shape st = strides_of(X.shape());
  const auto idx = I.to_int64_vector();
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  return {dispatch_all(X.dtype(), [&]<typename T>() {
    Tensor Y = X.clone();
    std::vector<std::int64_t> pos(I.rank(), 0);
    for (std::int64_t i = 0; i < I.numel(); ++i, next_index(pos, I.shape())) {
      std::int64_t k = idx[static_cast<std::size_t>(i)];
      if (k < 0) k += n;
      if (k < 0 || k >= n) fail("index out of range");
      std::int64_t off = 0;
      for (std::size_t d = 0; d < pos.size(); ++d) off += (static_cast<std::int64_t>(d) == axis ? k : pos[d]) * st[d];
      scatter_apply(Y.mutable_data<T>()[off], U.data<T>()[i], red);
    }
    return Y;
  })};
}

Outputs kernel_ScatterND(const ir::Operation& op, Inputs x) {
  const Tensor &X = x[0], &I = x[1], &U = x[2];
  const std::string red = attr_str(op, "reduction", "none");
  const std::int64_t last = I.dim(I.rank() - 1);
  const Shape st = strides_of(X.shape());
  std::int64_t slice = 1;
  for (std::size_t d = static_cast<std::size_t>(last); d < X.rank(); ++d) slice *= X.dim(d);
  const auto idx = I.to_int64_vector();
  const std::int64_t m = last ? static_cast<std::int64_t>(idx.size()) / last : 0;
  return {dispatch_all(X.dtype(), [&]<typename T>() {
    Tensor Y = X.clone();
    for (std::int64_t j = 0; j < m; ++j) {
      std::int64_t off = 0;
      for (std::int64_t k = 0; k < last; ++k) {
        std::int64_t v = idx[static_cast<std::size_t>(j * last + k)];
        if (v < 0) v += X.dim(static_cast<std::size_t>(k));
        if (v < 0 || v >= X.dim(static_cast<std::size_t>(k))) fail("index out of range");
        off += v * st[static_cast<std::size_t>(k)];
      }
      for (std::int64_t s = 0; s < slice; ++s) scatter_apply(Y.mutable_data<T>()[off + s], U.data<T>()[j * slice + s], red);
    }
    return Y;
  })};
}

// pads = [b_0 .. b_{r-1}, e_0 .. e_{r-1}] (negative crops); modes constant, reflect, edge, wrap.
namespace {
// Constant Pad as whole runs: the trailing dims that are not padded make one block, and each
// output line along the innermost padded dim is value, the input line's blocks (a negative
// pad crops them), value. Lines outside the input on an outer dim are all value.
Tensor pad_constant(const Tensor& X, const Shape& pb, const Shape& out, const Tensor& V) {
  return dispatch_all(X.dtype(), [&]<typename T>() {
    const T cval = V.defined() && V.numel() ? V.data<T>()[0] : T(0);
    Tensor Y = Tensor::uninitialized(X.dtype(), out);
    const std::int64_t n_out = Y.numel();
    if (n_out == 0) return Y;
    T* y = Y.mutable_data<T>();
    const T* xd = X.data<T>();
    auto k = static_cast<std::int64_t>(out.size());  // dims [k, rank) are not padded
    std::int64_t block = 1;
    while (k > 0 && pb[static_cast<std::size_t>(k - 1)] == 0 &&
           out[static_cast<std::size_t>(k - 1)] == X.dim(static_cast<std::size_t>(k - 1))) {
      --k;
      block *= out[static_cast<std::size_t>(k)];
    }
    if (k == 0) {  // nothing padded: a copy
      std::copy(xd, xd + n_out, y);
      return Y;
    }
    const auto line_dim = static_cast<std::size_t>(k - 1);
    const std::int64_t out_len = out[line_dim], in_len = X.dim(line_dim), before = pb[line_dim];
    const std::int64_t j0 = std::clamp<std::int64_t>(before, 0, out_len),
                       j1 = std::clamp<std::int64_t>(before + in_len, j0, out_len);
    const std::int64_t lines = n_out / (out_len * block);
    const Shape st = strides_of(X.shape());
    auto line = [&](std::int64_t i) {
      T* yl = y + i * out_len * block;
      std::int64_t off = 0, rem = i;
      bool inside = true;
      for (std::size_t d = line_dim; d-- > 0;) {
        const std::int64_t s = rem % out[d] - pb[d];
        rem /= out[d];
        if (s < 0 || s >= X.dim(d)) inside = false;
        off += s * st[d];
      }
      if (!inside) {
        std::fill(yl, yl + out_len * block, cval);
        return;
      }
      std::fill(yl, yl + j0 * block, cval);
      if (j1 > j0) {
        const T* xl = xd + off + (j0 - before) * block;
        std::copy(xl, xl + (j1 - j0) * block, yl + j0 * block);
      }
      std::fill(yl + j1 * block, yl + out_len * block, cval);
    };
    const std::int64_t per =
        std::max<std::int64_t>(1, 4096 / std::max<std::int64_t>(1, out_len * block));
    parallel_for_if(n_out * std::int64_t(sizeof(T)) >= kMinSplitCopyBytes, (lines + per - 1) / per,
                    [&](std::int64_t t) {
                      for (std::int64_t i = t * per; i < std::min(lines, (t + 1) * per); ++i)
                        line(i);
                    });
    return Y;
  });
}
}  // namespace

Outputs kernel_Pad(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const auto raw = x[1].to_int64_vector();
  std::vector<std::int64_t> axes;
  if (in(x, 3).defined()) axes = x[3].to_int64_vector();
  else { axes.resize(X.rank()); std::iota(axes.begin(), axes.end(), 0); }
  if (raw.size() != 2 * axes.size()) fail("pads has " + std::to_string(raw.size()) + " values for " + std::to_string(axes.size()) + " axes");
  Shape pb(X.rank(), 0), out = X.shape();
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto a = static_cast<std::size_t>(norm_axis(axes[i], rank));
    pb[a] = raw[i];
    out[a] = X.dim(a) + raw[i] + raw[i + axes.size()];
    if (out[a] < 0) fail("pads crop more than the input has");
  }
  const std::string mode = attr_str(op, "mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "wrap") fail("unknown pad mode '" + mode + "'");
  const Shape st = strides_of(X.shape());
  const Tensor& V = in(x, 2);
  if (mode == "constant") return {pad_constant(X, pb, out, V)};
  return {dispatch_all(X.dtype(), [&]<typename T>() {
    const T cval = V.defined() && V.numel() ? V.data<T>()[0] : T(0);
    Tensor Y(X.dtype(), out);
    std::vector<std::int64_t> idx(out.size(), 0);
    for (std::int64_t i = 0; i < Y.numel(); ++i, next_index(idx, out)) {
      std::int64_t off = 0;
      bool outside = false;
      for (std::size_t d = 0; d < out.size(); ++d) {
        std::int64_t s = idx[d] - pb[d];
        const std::int64_t n = X.dim(d);
        if (s < 0 || s >= n) {
          if (mode == "constant" || n == 0) { outside = true; break; }
          if (mode == "edge") s = std::clamp<std::int64_t>(s, 0, n - 1);
          else if (mode == "wrap") s = ((s % n) + n) % n;
          else if (n == 1) s = 0;
          else {  // reflect (mirror without repeating the edge)
            const std::int64_t period = 2 * (n - 1);
            s = ((s % period) + period) % period;
            if (s >= n) s = period - s;
          }
        }
        off += s * st[d];
      }
      Y.mutable_data<T>()[i] = outside ? cval : X.data<T>()[off];
    }
    return Y;
  })};
}

// y[i] = x[i mod shape]
Outputs kernel_Tile(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  const auto reps = x[1].to_int64_vector();
  if (reps.size() != X.rank()) fail("repeats has " + std::to_string(reps.size()) + " values for " + X.type_string());
  Shape out = X.shape();
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (reps[d] < 0) fail("negative repeat");
    if (__builtin_mul_overflow(out[d], reps[d], &out[d]))  // repeats come from the model: never wrap
      fail("repeats " + shape_string(reps) + " overflow the size of " + X.type_string());
  }
  const Shape st = strides_of(X.shape());
  return {dispatch_by_size(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    std::vector<std::int64_t> idx(out.size(), 0);
    for (std::int64_t i = 0; i < Y.numel(); ++i, next_index(idx, out)) {
      std::int64_t off = 0;
      for (std::size_t d = 0; d < out.size(); ++d) off += (idx[d] % X.dim(d)) * st[d];
      Y.mutable_data<T>()[i] = X.data<T>()[off];
    }
    return Y;
  })};
}

// y = x broadcast with `shape` (numpy rules both ways).
Outputs kernel_Expand(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  const Shape out = broadcast_shapes(X.shape(), x[1].to_int64_vector());
  return {dispatch_by_size(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), out);
    for_each_broadcast2(out, out, X.shape(), [&](std::int64_t i, std::int64_t, std::int64_t ix) {
      Y.mutable_data<T>()[i] = X.data<T>()[ix];
    });
    return Y;
  })};
}

// The input's shape (dims start..end) as i64.
Outputs kernel_Shape(const ir::Operation& op, Inputs x) {
  const auto rank = static_cast<std::int64_t>(x[0].rank());
  std::int64_t start = attr_int(op, "start", 0), end = attr_int(op, "end", rank);
  if (start < 0) start += rank;
  if (end < 0) end += rank;
  start = std::clamp<std::int64_t>(start, 0, rank);
  end = std::clamp<std::int64_t>(end, 0, rank);
  std::vector<std::int64_t> v;
  for (std::int64_t d = start; d < end; ++d) v.push_back(x[0].dim(static_cast<std::size_t>(d)));
  return {Tensor::from_values(DType::Int64, {static_cast<std::int64_t>(v.size())}, v)};
}

Outputs kernel_Size(const ir::Operation&, Inputs x) { return {Tensor::scalar<std::int64_t>(DType::Int64, x[0].numel())}; }

namespace {

using util::float_to_half;
using util::half_to_float;

float bf16_to_float(std::uint16_t h) {
  const std::uint32_t bits = static_cast<std::uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

std::uint16_t float_to_bf16(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

bool is_half(DType t) { return t == DType::Float16 || t == DType::BFloat16; }

Tensor cast_to(const Tensor& X, DType to) {
  if (X.dtype() == to) return X;
  // 16-bit floats go through f32.
  if (is_half(X.dtype())) {
    Tensor f(DType::Float32, X.shape());
    const auto* p = X.data<std::uint16_t>();
    for (std::int64_t i = 0; i < X.numel(); ++i)
      f.mutable_data<float>()[i] = X.dtype() == DType::Float16 ? half_to_float(p[i]) : bf16_to_float(p[i]);
    return cast_to(f, to);
  }
  if (is_half(to)) {
    const Tensor f = cast_to(X, DType::Float32);
    Tensor y(to, X.shape());
    for (std::int64_t i = 0; i < X.numel(); ++i)
      y.mutable_data<std::uint16_t>()[i] = to == DType::Float16 ? float_to_half(f.data<float>()[i]) : float_to_bf16(f.data<float>()[i]);
    return y;
  }
  return dispatch_all(to, [&]<typename To>() {
    Tensor Y(to, X.shape());
    dispatch_all(X.dtype(), [&]<typename From>() {
      const From* p = X.data<From>();
      To* o = Y.mutable_data<To>();
      for (std::int64_t i = 0; i < X.numel(); ++i) o[i] = convert<To, From>(p[i]);
    }, "Cast");
    return Y;
  }, "Cast");
}
}  // namespace

Outputs kernel_Cast(const ir::Operation& op, Inputs x) {
  return {cast_to(x[0], dtype_attr(op, "to", DType::Float32))};
}
Outputs kernel_CastLike(const ir::Operation&, Inputs x) { return {cast_to(x[0], x[1].dtype())}; }

// DCR: [N, C, H, W] -> [N, b, b, C/b^2, H, W] -> perm(0,3,4,1,5,2) -> [N, C/b^2, H*b, W*b]
// CRD: [N, C/b^2, b, b, H, W] -> perm(0,1,4,2,5,3)
Outputs kernel_DepthToSpace(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const std::int64_t b = attr_int(op, "blocksize", 1);
  if (X.rank() != 4 || b <= 0 || X.dim(1) % (b * b)) fail("needs a 4-D input with channels divisible by blocksize^2");
  const std::int64_t N = X.dim(0), C = X.dim(1), H = X.dim(2), W = X.dim(3);
  Tensor t;
  if (attr_str(op, "mode", "DCR") == "DCR")
    t = permute(X.reshaped({N, b, b, C / (b * b), H, W}), {0, 3, 4, 1, 5, 2});
  else
    t = permute(X.reshaped({N, C / (b * b), b, b, H, W}), {0, 1, 4, 2, 5, 3});
  return {t.reshaped({N, C / (b * b), H * b, W * b})};
}

// [N, C, H, W] -> [N, C, H/b, b, W/b, b] -> perm(0,3,5,1,2,4) -> [N, C*b*b, H/b, W/b]
Outputs kernel_SpaceToDepth(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const std::int64_t b = attr_int(op, "blocksize", 1);
  if (X.rank() != 4 || b <= 0 || X.dim(2) % b || X.dim(3) % b) fail("needs a 4-D input with H and W divisible by blocksize");
  const std::int64_t N = X.dim(0), C = X.dim(1), H = X.dim(2), W = X.dim(3);
  Tensor t = permute(X.reshaped({N, C, H / b, b, W / b, b}), {0, 3, 5, 1, 2, 4});
  return {t.reshaped({N, C * b * b, H / b, W / b})};
}

// Keeps the slices along axis whose condition is true (flattened input when axis is absent).
Outputs kernel_Compress(const ir::Operation& op, Inputs x) {
  Tensor X = x[0];
  const Tensor& c = x[1];
  std::int64_t axis = 0;
  if (op.attr("axis")) axis = norm_axis(attr_int(op, "axis", 0), static_cast<std::int64_t>(X.rank()));
  else X = X.reshaped({X.numel()});
  const std::int64_t n = X.dim(static_cast<std::size_t>(axis));
  std::vector<Tensor> parts;
  std::int64_t kept = 0;
  std::vector<std::int64_t> keep;
  for (std::int64_t i = 0; i < std::min(n, c.numel()); ++i)
    if (c.get_int(i)) keep.push_back(i);
  Shape out = X.shape();
  out[static_cast<std::size_t>(axis)] = static_cast<std::int64_t>(keep.size());
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(X.rank()); ++d)
    if (d < axis) outer *= X.dim(static_cast<std::size_t>(d));
    else if (d > axis) inner *= X.dim(static_cast<std::size_t>(d));
  Tensor Y(X.dtype(), out);
  const auto es = static_cast<std::int64_t>(ir::dtype_size(X.dtype()));
  const auto m = static_cast<std::int64_t>(keep.size());
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t j = 0; j < m; ++j)
      copy_bytes(Y.mutable_raw() + (o * m + j) * inner * es, X.raw() + (o * n + keep[static_cast<std::size_t>(j)]) * inner * es,
                 static_cast<std::size_t>(inner * es));
  (void)kept;
  return {Y};
}

// Keeps the upper (j - i >= k) or lower (j - i <= k) triangle of the last two dims.
Outputs kernel_Trilu(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  if (X.rank() < 2) fail("needs at least 2-D input");
  const std::int64_t k = in(x, 1).defined() ? x[1].get_int(0) : 0;
  const bool upper = attr_int(op, "upper", 1) != 0;
  const std::int64_t R = X.dim(X.rank() - 2), C = X.dim(X.rank() - 1);
  return {dispatch_by_size(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), X.shape());
    for (std::int64_t i = 0; i < X.numel(); ++i) {
      const std::int64_t r = (i / C) % std::max<std::int64_t>(R, 1), c = i % C;
      const bool keep = upper ? c - r >= k : c - r <= k;
      Y.mutable_data<T>()[i] = keep ? X.data<T>()[i] : T(0);
    }
    return Y;
  })};
}

// y[..., j, ...] = j == idx ? on : off, with the new axis of size depth at `axis`.
Outputs kernel_OneHot(const ir::Operation& op, Inputs x) {
  const Tensor &I = x[0], &V = x[2];
  const std::int64_t depth = static_cast<std::int64_t>(x[1].get_double(0));
  const auto rank = static_cast<std::int64_t>(I.rank()) + 1;
  const std::int64_t axis = norm_axis(attr_int(op, "axis", -1), rank);
  Shape out = I.shape();
  out.insert(out.begin() + axis, depth);
  std::int64_t outer = 1, inner = 1;
  for (std::int64_t d = 0; d < static_cast<std::int64_t>(I.rank()); ++d)
    (d < axis ? outer : inner) *= I.dim(static_cast<std::size_t>(d));
  const auto idx = I.to_float_vector();
  return {dispatch_all(V.dtype(), [&]<typename T>() {
    const T off = V.data<T>()[0], on = V.data<T>()[1];
    Tensor Y(V.dtype(), out);
    T* y = Y.mutable_data<T>();
    for (std::int64_t i = 0; i < Y.numel(); ++i) y[i] = off;
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t q = 0; q < inner; ++q) {
        auto v = static_cast<std::int64_t>(idx[static_cast<std::size_t>(o * inner + q)]);
        if (v < 0) v += depth;
        if (v >= 0 && v < depth) y[(o * depth + v) * inner + q] = on;
      }
    return Y;
  })};
}

// Indices of non-zero elements, [rank, count] in row-major order.
Outputs kernel_NonZero(const ir::Operation&, Inputs x) {
  const Tensor& X = x[0];
  std::vector<std::int64_t> hits;
  for (std::int64_t i = 0; i < X.numel(); ++i) if (X.get_double(i) != 0) hits.push_back(i);
  const auto r = static_cast<std::int64_t>(X.rank()), n = static_cast<std::int64_t>(hits.size());
  Tensor Y(DType::Int64, {r, n});
  const Shape st = strides_of(X.shape());
  for (std::int64_t j = 0; j < n; ++j)
    for (std::int64_t d = 0; d < r; ++d)
      Y.mutable_data<std::int64_t>()[d * n + j] = (hits[static_cast<std::size_t>(j)] / st[static_cast<std::size_t>(d)]) % X.dim(static_cast<std::size_t>(d));
  return {Y};
}

// Ones on the k-th diagonal of a 2-D tensor shaped like the input.
Outputs kernel_EyeLike(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  if (X.rank() != 2) fail("needs a 2-D input");
  const DType dt = dtype_attr(op, "dtype", X.dtype());
  const std::int64_t k = attr_int(op, "k", 0);
  return {dispatch_all(dt, [&]<typename T>() {
    Tensor Y(dt, X.shape());
    for (std::int64_t i = 0; i < X.dim(0); ++i)
      if (i + k >= 0 && i + k < X.dim(1)) Y.mutable_data<T>()[i * X.dim(1) + i + k] = T(1);
    return Y;
  })};
}

// Reverses the first seq_len[b] steps along time_axis for every batch entry b.
Outputs kernel_ReverseSequence(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const auto lens = x[1].to_int64_vector();
  const auto ba = static_cast<std::size_t>(attr_int(op, "batch_axis", 1)), ta = static_cast<std::size_t>(attr_int(op, "time_axis", 0));
  if (X.rank() < 2 || ba >= X.rank() || ta >= X.rank()) fail("bad batch_axis/time_axis");
  const Shape st = strides_of(X.shape());
  return {dispatch_by_size(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), X.shape());
    std::vector<std::int64_t> idx(X.rank(), 0);
    for (std::int64_t i = 0; i < X.numel(); ++i, next_index(idx, X.shape())) {
      const std::int64_t len = lens[static_cast<std::size_t>(idx[ba])];
      std::int64_t t = idx[ta];
      if (t < len) t = len - 1 - t;
      Y.mutable_data<T>()[i] = X.data<T>()[i + (t - idx[ta]) * st[ta]];
    }
    return Y;
  })};
}

}  // namespace ec::runtime::kernels
