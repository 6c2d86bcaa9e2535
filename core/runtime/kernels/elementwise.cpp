// Element-wise arithmetic, math, comparison and logic with numpy broadcasting.
#include <cmath>
#include <limits>
#include <type_traits>

#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"
#include "core/util/half.h"

namespace ec::runtime::kernels {
namespace {

// f16 operands (the runtime has no f16 arithmetic): widened to f32, `kernel` run there and
// its result rounded back to f16. Exact for Max, Min and fmod, whose f32 results of f16
// values are f16 values.
template <typename F>
Outputs via_f32_if_f16(Inputs x, F&& kernel) {
  const bool f16 = std::any_of(x.begin(), x.end(), [](const Tensor& t) { return t.dtype() == DType::Float16; });
  if (!f16) return kernel(x);
  std::vector<Tensor> wide;
  for (const Tensor& t : x) {
    if (t.dtype() != DType::Float16) {
      wide.push_back(t);
      continue;
    }
    Tensor w = Tensor::uninitialized(DType::Float32, t.shape());
    const auto* h = t.data<std::uint16_t>();
    for (std::int64_t i = 0; i < t.numel(); ++i) w.mutable_data<float>()[i] = util::half_to_float(h[i]);
    wide.push_back(std::move(w));
  }
  Outputs y = kernel(Inputs(wide));
  if (y.empty() || y[0].dtype() != DType::Float32) return y;
  Tensor h = Tensor::uninitialized(DType::Float16, y[0].shape());
  for (std::int64_t i = 0; i < h.numel(); ++i)
    h.mutable_data<std::uint16_t>()[i] = util::float_to_half(y[0].data<float>()[i]);
  y[0] = std::move(h);
  return y;
}

}  // namespace

Shape broadcast_shapes(const Shape& a, const Shape& b) {
  const std::size_t r = std::max(a.size(), b.size());
  Shape out(r);
  for (std::size_t i = 0; i < r; ++i) {
    const std::int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    const std::int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da != db && da != 1 && db != 1)
      fail("shapes " + shape_string(a) + " and " + shape_string(b) + " do not broadcast");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

Shape broadcast_strides(const Shape& in, const Shape& out) {
  Shape st(out.size(), 0);
  const Shape s = strides_of(in);
  const std::size_t off = out.size() - in.size();
  for (std::size_t i = 0; i < in.size(); ++i) st[off + i] = in[i] == 1 ? 0 : s[i];
  return st;
}

namespace {

void same_dtype(const Tensor& a, const Tensor& b) {
  if (a.dtype() != b.dtype())
    fail("operand types differ: " + a.type_string() + " and " + b.type_string());
}

// out[i] = f(a[i'], b[i'']) over the broadcast shape; Out is the output element type.
template <typename T, typename Out, typename F>
Tensor binary(const Tensor& a, const Tensor& b, DType out_dt, F f) {
  const Shape out = broadcast_shapes(a.shape(), b.shape());
  Tensor r(out_dt, out);
  const T* pa = a.data<T>();
  const T* pb = b.data<T>();
  Out* po = r.mutable_data<Out>();
  for_each_broadcast2(out, a.shape(), b.shape(),
                      [&](std::int64_t i, std::int64_t ia, std::int64_t ib) { po[i] = f(pa[ia], pb[ib]); });
  return r;
}

// Same-type arithmetic on any numeric dtype.
template <typename F>
Outputs arith(Inputs x, F f) {
  const Tensor &a = x[0], &b = x[1];
  same_dtype(a, b);
  return {dispatch_numeric(a.dtype(), [&]<typename T>() {
    return binary<T, T>(a, b, a.dtype(), [&](T u, T v) { return static_cast<T>(f(u, v)); });
  })};
}

// Comparison: numeric (or bool) inputs, bool output.
template <typename F>
Outputs compare(Inputs x, F f) {
  const Tensor &a = x[0], &b = x[1];
  same_dtype(a, b);
  return {dispatch_all(a.dtype(), [&]<typename T>() {
    return binary<T, bool>(a, b, DType::Bool, [&](T u, T v) { return static_cast<bool>(f(u, v)); });
  })};
}

template <typename F>
Outputs logic(Inputs x, F f) {
  if (x[0].dtype() != DType::Bool || x[1].dtype() != DType::Bool) fail("logic ops take bool tensors");
  return {binary<bool, bool>(x[0], x[1], DType::Bool, f)};
}

// Variadic Max/Min/Sum/Mean: folds left to right with broadcasting.
template <typename F>
Outputs fold(Inputs x, F f) {
  std::vector<Tensor> present;
  for (const auto& t : x)
    if (t.defined()) present.push_back(t);
  if (present.empty()) fail("needs at least one input");
  Tensor acc = present[0];
  for (std::size_t i = 1; i < present.size(); ++i) {
    same_dtype(acc, present[i]);
    acc = dispatch_numeric(acc.dtype(), [&]<typename T>() {
      return binary<T, T>(acc, present[i], acc.dtype(), [&](T u, T v) { return static_cast<T>(f(u, v)); });
    });
  }
  if (present.size() == 1) acc = acc.clone();
  return {acc};
}

// Unary maths on float types: y = f(x).
template <typename F>
Outputs unary_float(Inputs x, F f) {
  const Tensor& a = x[0];
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), a.shape());
    const T* p = a.data<T>();
    T* o = r.mutable_data<T>();
    for (std::int64_t i = 0, n = a.numel(); i < n; ++i) o[i] = static_cast<T>(f(p[i]));
    return r;
  })};
}

// Unary on any numeric type.
template <typename F>
Outputs unary_numeric(Inputs x, F f) {
  const Tensor& a = x[0];
  return {dispatch_numeric(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), a.shape());
    const T* p = a.data<T>();
    T* o = r.mutable_data<T>();
    for (std::int64_t i = 0, n = a.numel(); i < n; ++i) o[i] = static_cast<T>(f(p[i]));
    return r;
  })};
}

// Integer add/sub/mul/neg wrap around (two's complement), as numpy and ONNX Runtime
// do: signed overflow is undefined behaviour in C++, and small unsigned types
// promote to int, so the arithmetic is done in uint64 and truncated back.
template <typename T, typename F>
T wrapping(T a, T b, F f) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>)
    return static_cast<T>(f(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)));
  else
    return static_cast<T>(f(a, b));
}
inline constexpr auto kAdd = [](auto a, auto b) { return wrapping(a, b, [](auto u, auto v) { return u + v; }); };
inline constexpr auto kSub = [](auto a, auto b) { return wrapping(a, b, [](auto u, auto v) { return u - v; }); };
inline constexpr auto kMul = [](auto a, auto b) { return wrapping(a, b, [](auto u, auto v) { return u * v; }); };

template <typename T>
T safe_div(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if (b == 0) return 0;  // undefined in ONNX; never trap
    if constexpr (std::is_signed_v<T>)
      if (b == -1) return kSub(T(0), a);  // -INT_MIN wraps to INT_MIN
    return static_cast<T>(a / b);  // truncates toward zero
  } else {
    return a / b;
  }
}

}  // namespace

namespace {

// f32 a op b with broadcasting, vectorised and split over the thread pool. The
// output is seen as rows x inner, where inner is the longest run of trailing
// dims over which each operand is either contiguous or one broadcast value, so
// every row is one vmath::binary call; `post` (a fused activation, may be null) follows each
// call over what it wrote, still in cache. Empty when the dtype is not f32.
Tensor binary_f32(const Tensor& a, const Tensor& b, vmath::BinOp op, StripFn post) {
  if (a.dtype() != DType::Float32 || b.dtype() != DType::Float32) return Tensor();
  const Shape out = broadcast_shapes(a.shape(), b.shape());
  Tensor r = Tensor::uninitialized(DType::Float32, out);
  const std::int64_t n = shape_numel(out);
  if (n == 0) return r;
  const Shape sa = broadcast_strides(a.shape(), out), sb = broadcast_strides(b.shape(), out);
  // 1 = contiguous over the trailing dims so far, 0 = broadcast over them, -1 = neither.
  auto kind = [](const Shape& st, const Shape& shape, std::size_t p) {
    bool any_zero = false, any_full = false;
    for (std::size_t d = p; d < shape.size(); ++d)
      if (shape[d] != 1) (st[d] == 0 ? any_zero : any_full) = true;
    return any_zero && any_full ? -1 : any_full ? 1 : 0;
  };
  std::size_t p = out.size();
  std::int64_t inner = 1, ka = 1, kb = 1;
  while (p > 0) {
    const std::int64_t next = inner * out[p - 1];
    const int na = kind(sa, out, p - 1), nb = kind(sb, out, p - 1);
    if (na < 0 || nb < 0) break;
    --p;
    inner = next;
    ka = na;
    kb = nb;
  }
  const std::int64_t rows = n / inner;
  const float *pa = a.data<float>(), *pb = b.data<float>();
  float* py = r.mutable_data<float>();
  // Tasks of whole rows (or row pieces) of about 16K elements; from 16K to 128K elements one
  // contiguous piece per thread: the inputs were mostly written split over the pool by the
  // ops before (a residual block's Convs), and a thread reads its piece from its own cache
  // (regnet_x_400mf's 20K-element Adds took 5 us on one thread, 13 us on one of two).
  const std::int64_t threads = current_threads();
  const bool small_split = threads > 1 && n >= 16384 && n < 8 * 16384;
  const std::int64_t task_size = small_split ? (n + threads - 1) / threads : 16384;
  const std::int64_t pieces = std::max<std::int64_t>(1, inner / task_size);
  const std::int64_t piece = (inner + pieces - 1) / pieces;
  const std::int64_t rows_per_task = std::max<std::int64_t>(1, task_size / inner);
  const std::int64_t tasks = pieces > 1 ? rows * pieces : (rows + rows_per_task - 1) / rows_per_task;
  const gemm::Isa isa = gemm::active_isa();
  // Rows [i, i + count) with the same index over the dims before p - 1 (consecutive rows
  // step by one along dim p - 1), elements [j0, j1) of each: one vmath call.
  const std::int64_t mid = p > 0 ? out[p - 1] : 1, ra = p > 0 ? sa[p - 1] : 0,
                     rb = p > 0 ? sb[p - 1] : 0;
  auto run = [&](std::int64_t i, std::int64_t count, std::int64_t j0, std::int64_t j1) {
    std::int64_t oa = 0, ob = 0, rem = i;
    for (std::size_t d = p; d-- > 0;) {
      const std::int64_t idx = rem % out[d];
      rem /= out[d];
      oa += idx * sa[d];
      ob += idx * sb[d];
    }
    float* y = py + i * inner + j0;
    vmath::binary_with(isa, op, pa + oa + j0 * ka, ka, pb + ob + j0 * kb, kb, y, j1 - j0, count, ra,
                       rb);
    if (post)
      post(y, (count - 1) * inner + (j1 - j0));  // contiguous: whole rows, or one row's piece
  };
  auto task = [&](std::int64_t t) {
    if (pieces > 1) {
      const std::int64_t i = t / pieces, j0 = t % pieces * piece;
      run(i, 1, j0, std::min(inner, j0 + piece));
    } else {
      for (std::int64_t i = t * rows_per_task, end = std::min(rows, (t + 1) * rows_per_task);
           i < end;) {
        const std::int64_t count = std::min(end - i, mid - i % mid);
        run(i, count, 0, inner);
        i += count;
      }
    }
  };
  // Split from 128K elements, or per thread from 16K (above); below, waking the pool costs
  // more than the work (vmath.cpp).
  if (tasks > 1 && (small_split || n >= 8 * task_size))
    parallel_for(tasks, task);
  else for (std::int64_t t = 0; t < tasks; ++t) task(t);
  return r;
}

// An activation the session fused into the op (Add + Relu of a residual block) is applied
// while each piece of the result is in cache.
template <typename F>
Outputs arith_f32(const ir::Operation& op, Inputs x, vmath::BinOp bop, F f) {
  const StripFn post = activation_fn_for(ir::fused_activation(op));
  if (Tensor y = binary_f32(x[0], x[1], bop, post); y.defined()) return {y};
  Outputs y = arith(x, f);
  apply_fused_activation(op, y[0]);
  return y;
}

}  // namespace

Outputs kernel_Add(const ir::Operation& op, Inputs x) {
  return arith_f32(op, x, vmath::BinOp::Add, kAdd);
}
Outputs kernel_Sub(const ir::Operation& op, Inputs x) {
  return arith_f32(op, x, vmath::BinOp::Sub, kSub);
}
Outputs kernel_Mul(const ir::Operation& op, Inputs x) {
  return arith_f32(op, x, vmath::BinOp::Mul, kMul);
}
Outputs kernel_Div(const ir::Operation& op, Inputs x) {
  return arith_f32(op, x, vmath::BinOp::Div, [](auto a, auto b) { return safe_div(a, b); });
}

// y = a ^ b; the exponent may have another numeric type than the base.
Outputs kernel_Pow(const ir::Operation&, Inputs x) {
  const Tensor &a = x[0], &b = x[1];
  const Tensor bb = b;
  if (a.dtype() == DType::Float32 && b.numel() == 1 && b.rank() <= a.rank() && b.get_double(0) == 2.0) {
    // x^2 (LayerNorm's variance): x*x is the correctly rounded square, as float(pow(double(x), 2)) is.
    Tensor r(DType::Float32, a.shape());
    const float* pa = a.data<float>();
    float* po = r.mutable_data<float>();
    for (std::int64_t i = 0; i < a.numel(); ++i) po[i] = pa[i] * pa[i];
    return {r};
  }
  return {dispatch_numeric(a.dtype(), [&]<typename T>() {
    return dispatch_numeric(bb.dtype(), [&]<typename U>() {
      const Shape out = broadcast_shapes(a.shape(), bb.shape());
      Tensor r(a.dtype(), out);
      const T* pa = a.data<T>();
      const U* pb = bb.data<U>();
      T* po = r.mutable_data<T>();
      for_each_broadcast2(out, a.shape(), bb.shape(), [&](std::int64_t i, std::int64_t ia, std::int64_t ib) {
        po[i] = static_cast<T>(std::pow(static_cast<double>(pa[ia]), static_cast<double>(pb[ib])));
      });
      return r;
    });
  })};
}

// fmod=1: sign of the dividend (C fmod); fmod=0: sign of the divisor (Python %).
Outputs kernel_Mod(const ir::Operation& op, Inputs in) {
  const bool use_fmod = attr_int(op, "fmod", 0) != 0;
  return via_f32_if_f16(in, [&](Inputs x) { return arith(x, [use_fmod](auto a, auto b) {
    using T = decltype(a);
    if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (!use_fmod && r != 0 && ((r < 0) != (b < 0))) r += b;
      return r;
    } else {
      if (b == 0) return T(0);
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return T(0);
        T r = static_cast<T>(a % b);
        if (!use_fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
        return r;
      } else {
        return static_cast<T>(a % b);
      }
    }
  }); });
}

Outputs kernel_Max(const ir::Operation&, Inputs in) {
  return via_f32_if_f16(in, [](Inputs x) { return fold(x, [](auto a, auto b) {
    if constexpr (std::is_floating_point_v<decltype(a)>) if (std::isnan(a) || std::isnan(b)) return a + b;
    return a > b ? a : b;
  }); });
}
Outputs kernel_Min(const ir::Operation&, Inputs in) {
  return via_f32_if_f16(in, [](Inputs x) { return fold(x, [](auto a, auto b) {
    if constexpr (std::is_floating_point_v<decltype(a)>) if (std::isnan(a) || std::isnan(b)) return a + b;
    return a < b ? a : b;
  }); });
}
Outputs kernel_Sum(const ir::Operation&, Inputs x) { return fold(x, kAdd); }
// mean = (x0 + x1 + ... + xn-1) / n
Outputs kernel_Mean(const ir::Operation& op, Inputs x) {
  Tensor s = kernel_Sum(op, x)[0];
  std::size_t n = 0;
  for (const auto& t : x) n += t.defined() ? 1 : 0;
  return {dispatch_float(s.dtype(), [&]<typename T>() {
    T* p = s.mutable_data<T>();
    for (std::int64_t i = 0; i < s.numel(); ++i) p[i] /= static_cast<T>(n);
    return s;
  })};
}

Outputs kernel_Abs(const ir::Operation&, Inputs x) {
  return unary_numeric(x, [](auto v) {
    if constexpr (std::is_unsigned_v<decltype(v)>) return v; else return v < 0 ? kSub(decltype(v)(0), v) : v;
  });
}
Outputs kernel_Neg(const ir::Operation&, Inputs x) { return unary_numeric(x, [](auto v) { return kSub(decltype(v)(0), v); }); }
Outputs kernel_Sign(const ir::Operation&, Inputs x) {
  return unary_numeric(x, [](auto v) { return v > 0 ? 1 : (v < 0 ? -1 : 0); });
}
Outputs kernel_Reciprocal(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return 1 / v; }); }
Outputs kernel_Sqrt(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::sqrt(v); }); }
Outputs kernel_Exp(const ir::Operation&, Inputs x) {
  if (Tensor y = vmath_unary(x[0], vmath::Fn::Exp); y.defined()) return {y};
  return unary_float(x, [](auto v) { return std::exp(v); });
}
Outputs kernel_Log(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::log(v); }); }
Outputs kernel_Floor(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::floor(v); }); }
Outputs kernel_Ceil(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::ceil(v); }); }
// Halves round to even (the default floating-point rounding mode).
Outputs kernel_Round(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::nearbyint(v); }); }
Outputs kernel_Erf(const ir::Operation&, Inputs x) {
  if (Tensor y = vmath_unary(x[0], vmath::Fn::Erf); y.defined()) return {y};
  return unary_float(x, [](auto v) { return std::erf(v); });
}
Outputs kernel_Sin(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::sin(v); }); }
Outputs kernel_Cos(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::cos(v); }); }
Outputs kernel_Tan(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::tan(v); }); }
Outputs kernel_Asin(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::asin(v); }); }
Outputs kernel_Acos(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::acos(v); }); }
Outputs kernel_Atan(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::atan(v); }); }
Outputs kernel_Sinh(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::sinh(v); }); }
Outputs kernel_Cosh(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::cosh(v); }); }
Outputs kernel_Asinh(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::asinh(v); }); }
Outputs kernel_Acosh(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::acosh(v); }); }
Outputs kernel_Atanh(const ir::Operation&, Inputs x) { return unary_float(x, [](auto v) { return std::atanh(v); }); }

Outputs kernel_IsNaN(const ir::Operation&, Inputs x) {
  const Tensor& a = x[0];
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    Tensor r(DType::Bool, a.shape());
    for (std::int64_t i = 0; i < a.numel(); ++i) r.mutable_data<bool>()[i] = std::isnan(a.data<T>()[i]);
    return r;
  })};
}

Outputs kernel_IsInf(const ir::Operation& op, Inputs x) {
  const bool neg = attr_int(op, "detect_negative", 1) != 0, pos = attr_int(op, "detect_positive", 1) != 0;
  const Tensor& a = x[0];
  return {dispatch_float(a.dtype(), [&]<typename T>() {
    Tensor r(DType::Bool, a.shape());
    for (std::int64_t i = 0; i < a.numel(); ++i) {
      const T v = a.data<T>()[i];
      r.mutable_data<bool>()[i] = std::isinf(v) && ((v > 0 && pos) || (v < 0 && neg));
    }
    return r;
  })};
}

Outputs kernel_BitShift(const ir::Operation& op, Inputs x) {
  const bool left = attr_str(op, "direction", "LEFT") == "LEFT";
  same_dtype(x[0], x[1]);
  return {dispatch_integer(x[0].dtype(), [&]<typename T>() {
    return binary<T, T>(x[0], x[1], x[0].dtype(), [left](T a, T b) {
      if (b >= static_cast<T>(sizeof(T) * 8)) return T(0);
      return static_cast<T>(left ? a << b : a >> b);
    });
  })};
}

template <typename F>
Outputs bitwise(Inputs x, F f) {
  same_dtype(x[0], x[1]);
  if (x[0].dtype() == DType::Bool) return {binary<bool, bool>(x[0], x[1], DType::Bool, f)};
  return {dispatch_integer(x[0].dtype(), [&]<typename T>() {
    return binary<T, T>(x[0], x[1], x[0].dtype(), [&](T a, T b) { return static_cast<T>(f(a, b)); });
  })};
}
Outputs kernel_BitwiseAnd(const ir::Operation&, Inputs x) { return bitwise(x, [](auto a, auto b) { return a & b; }); }
Outputs kernel_BitwiseOr(const ir::Operation&, Inputs x) { return bitwise(x, [](auto a, auto b) { return a | b; }); }
Outputs kernel_BitwiseXor(const ir::Operation&, Inputs x) { return bitwise(x, [](auto a, auto b) { return a ^ b; }); }
Outputs kernel_BitwiseNot(const ir::Operation&, Inputs x) {
  const Tensor& a = x[0];
  return {dispatch_integer(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), a.shape());
    for (std::int64_t i = 0; i < a.numel(); ++i) r.mutable_data<T>()[i] = static_cast<T>(~a.data<T>()[i]);
    return r;
  })};
}

Outputs kernel_Equal(const ir::Operation&, Inputs x) { return compare(x, [](auto a, auto b) { return a == b; }); }
Outputs kernel_Greater(const ir::Operation&, Inputs x) { return compare(x, [](auto a, auto b) { return a > b; }); }
Outputs kernel_GreaterOrEqual(const ir::Operation&, Inputs x) { return compare(x, [](auto a, auto b) { return a >= b; }); }
Outputs kernel_Less(const ir::Operation&, Inputs x) { return compare(x, [](auto a, auto b) { return a < b; }); }
Outputs kernel_LessOrEqual(const ir::Operation&, Inputs x) { return compare(x, [](auto a, auto b) { return a <= b; }); }
Outputs kernel_And(const ir::Operation&, Inputs x) { return logic(x, [](bool a, bool b) { return a && b; }); }
Outputs kernel_Or(const ir::Operation&, Inputs x) { return logic(x, [](bool a, bool b) { return a || b; }); }
Outputs kernel_Xor(const ir::Operation&, Inputs x) { return logic(x, [](bool a, bool b) { return a != b; }); }
Outputs kernel_Not(const ir::Operation&, Inputs x) {
  if (x[0].dtype() != DType::Bool) fail("Not takes a bool tensor");
  Tensor r(DType::Bool, x[0].shape());
  for (std::int64_t i = 0; i < r.numel(); ++i) r.mutable_data<bool>()[i] = !x[0].data<bool>()[i];
  return {r};
}

// y = cond ? a : b, all three broadcast together.
Outputs kernel_Where(const ir::Operation&, Inputs x) {
  const Tensor &c = x[0], &a = x[1], &b = x[2];
  same_dtype(a, b);
  const Shape ab = broadcast_shapes(a.shape(), b.shape());
  const Shape out = broadcast_shapes(c.shape(), ab);
  const Shape sc = broadcast_strides(c.shape(), out), sa = broadcast_strides(a.shape(), out),
              sb = broadcast_strides(b.shape(), out);
  return {dispatch_by_size(a.dtype(), [&]<typename T>() {
    Tensor r(a.dtype(), out);
    T* o = r.mutable_data<T>();
    const bool* pc = c.data<bool>();
    const T *pa = a.data<T>(), *pb = b.data<T>();
    std::vector<std::int64_t> idx(out.size(), 0);
    const std::int64_t n = shape_numel(out);
    for (std::int64_t i = 0; i < n; ++i, next_index(idx, out))
      o[i] = pc[offset_of(idx, sc)] ? pa[offset_of(idx, sa)] : pb[offset_of(idx, sb)];
    return r;
  })};
}

}  // namespace ec::runtime::kernels
