// Reductions (axes as an attribute or a run-time input), ArgMax/ArgMin, CumSum, TopK.
#include <limits>
#include <numeric>
#include <type_traits>

#include "core/runtime/kernels/common.h"
#include "core/runtime/thread_pool.h"

namespace ec::runtime::kernels {
namespace {

enum class Red { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

// Shape with reduced dims set to 1, and which dims are reduced.
Shape reduced_shape(const Shape& s, const std::vector<bool>& reduced) {
  Shape r = s;
  for (std::size_t d = 0; d < s.size(); ++d) if (reduced[d]) r[d] = 1;
  return r;
}

// An f32 reduction over one run of consecutive axes: x as [outer, r, inner] -> acc
// [outer, inner] in double as the odometer below, without its per-element index arithmetic
// and switch: rows of r in 8 lanes when inner == 1 (max/min exact; sums in another order,
// equal to float precision), else r rows of inner combined in order (the same results);
// split over the pool by outputs.
template <Red K>
void reduce_run_f32(const float* x, std::int64_t outer, std::int64_t r, std::int64_t inner,
                    double* acc) {
  constexpr double init = K == Red::Max   ? -std::numeric_limits<double>::infinity()
                          : K == Red::Min ? std::numeric_limits<double>::infinity()
                                          : 0.0;
  const auto value = [](float v) -> double {
    if constexpr (K == Red::L2 || K == Red::SumSquare) return double(v) * double(v);
    if constexpr (K == Red::L1) return v < 0 ? -double(v) : double(v);
    return v;
  };
  const auto combine = [](double a, double v) {
    if constexpr (K == Red::Max) return std::max(a, v);
    if constexpr (K == Red::Min) return std::min(a, v);
    return a + v;
  };
  if (inner == 1) {
    constexpr std::int64_t kLanes = 8;
    parallel_for((outer + 15) / 16, [&](std::int64_t b) {
      for (std::int64_t o = b * 16; o < std::min(outer, (b + 1) * 16); ++o) {
        const float* row = x + o * r;
        double lane[kLanes];
        std::fill(lane, lane + kLanes, init);
        std::int64_t i = 0;
        for (; i + kLanes <= r; i += kLanes)
          for (std::int64_t k = 0; k < kLanes; ++k) lane[k] = combine(lane[k], value(row[i + k]));
        double a = init;
        for (std::int64_t k = 0; k < kLanes; ++k) a = combine(a, lane[k]);
        for (; i < r; ++i) a = combine(a, value(row[i]));
        acc[o] = a;
      }
    });
    return;
  }
  // Tasks of up to 512 outputs (a channels-last spatial mean, [1, H*W, C]: one image
  // still splits over the threads).
  constexpr std::int64_t kBlock = 512;
  const std::int64_t blocks = (inner + kBlock - 1) / kBlock;
  parallel_for(outer * blocks, [&](std::int64_t t) {
    const std::int64_t o = t / blocks, i0 = t % blocks * kBlock, n = std::min(kBlock, inner - i0);
    double* a = acc + o * inner + i0;
    std::fill(a, a + n, init);
    for (std::int64_t j = 0; j < r; ++j) {
      const float* row = x + (o * r + j) * inner + i0;
      for (std::int64_t i = 0; i < n; ++i) a[i] = combine(a[i], value(row[i]));
    }
  });
}

// reduce_run_f32<kind>; false for the kinds it does not take (the odometer runs).
bool reduce_run_f32(const float* x, std::int64_t outer, std::int64_t r, std::int64_t inner,
                    Red kind, double* acc) {
  switch (kind) {
    case Red::Sum:
    case Red::Mean:
    case Red::LogSum:
      reduce_run_f32<Red::Sum>(x, outer, r, inner, acc);
      return true;
    case Red::Max:
      reduce_run_f32<Red::Max>(x, outer, r, inner, acc);
      return true;
    case Red::Min:
      reduce_run_f32<Red::Min>(x, outer, r, inner, acc);
      return true;
    case Red::L1:
      reduce_run_f32<Red::L1>(x, outer, r, inner, acc);
      return true;
    case Red::L2:
    case Red::SumSquare:
      reduce_run_f32<Red::SumSquare>(x, outer, r, inner, acc);
      return true;
    default:
      return false;
  }
}

Outputs reduce(const ir::Operation& op, Inputs x, Red kind) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  // Axes: the attribute, or the second input when the model computes them (ONNX opset 13/18).
  auto axes = in(x, 1).defined() ? in(x, 1).to_int64_vector() : attr_ints(op, "axes");
  const bool keep = attr_int(op, "keepdims", 1) != 0;
  if (axes.empty() && attr_int(op, "noop_with_empty_axes", 0) != 0) return {X};
  std::vector<bool> reduced(X.rank(), axes.empty());
  for (auto a : axes) reduced[static_cast<std::size_t>(norm_axis(a, rank))] = true;
  const Shape stat = reduced_shape(X.shape(), reduced);
  Shape out;
  for (std::size_t d = 0; d < X.rank(); ++d)
    if (!reduced[d] || keep) out.push_back(stat[d]);
  std::int64_t count = 1;
  for (std::size_t d = 0; d < X.rank(); ++d) if (reduced[d]) count *= X.dim(d);
  return {dispatch_numeric(X.dtype(), [&]<typename T>() {
    using Acc = std::conditional_t<std::is_floating_point_v<T>, double, std::int64_t>;
    const std::size_t n = static_cast<std::size_t>(shape_numel(stat));
    std::vector<Acc> acc(n);
    Acc init = 0;
    if constexpr (std::is_floating_point_v<T>) {
      if (kind == Red::Max) init = -std::numeric_limits<double>::infinity();
      if (kind == Red::Min) init = std::numeric_limits<double>::infinity();
    } else {
      if (kind == Red::Max) init = static_cast<Acc>(std::numeric_limits<T>::lowest());
      if (kind == Red::Min) init = static_cast<Acc>(std::numeric_limits<T>::max());
    }
    if (kind == Red::Prod) init = 1;
    std::fill(acc.begin(), acc.end(), init);
    // LogSumExp subtracts the max first: log(sum exp(x - m)) + m
    std::vector<double> mx;
    if (kind == Red::LogSumExp) {
      mx.assign(n, -std::numeric_limits<double>::infinity());
      for_each_broadcast2(X.shape(), X.shape(), stat, [&](std::int64_t i, std::int64_t, std::int64_t o) {
        mx[static_cast<std::size_t>(o)] = std::max(mx[static_cast<std::size_t>(o)], double(X.data<T>()[i]));
      });
    }
    const T* p = X.data<T>();
    // One run of consecutive reduced axes: [outer, r, inner].
    std::int64_t first = -1, last = -1;
    for (std::int64_t d = 0; d < rank; ++d)
      if (reduced[static_cast<std::size_t>(d)] && X.dim(static_cast<std::size_t>(d)) != 1) {
        if (first < 0) first = d;
        last = d;
      }
    bool run = first >= 0;
    std::int64_t outer = 1, r = 1, inner = 1;
    for (std::int64_t d = 0; d < rank && run; ++d) {
      const std::int64_t e = X.dim(static_cast<std::size_t>(d));
      if (d < first)
        outer *= e;
      else if (d > last)
        inner *= e;
      else if (reduced[static_cast<std::size_t>(d)] || e == 1)
        r *= e;
      else
        run = false;  // a kept axis between reduced ones
    }
    bool done = false;
    if constexpr (std::is_same_v<T, float>)
      done = run && reduce_run_f32(p, outer, r, inner, kind, acc.data());
    if (!done)
      for_each_broadcast2(
          X.shape(), X.shape(), stat, [&](std::int64_t i, std::int64_t, std::int64_t o) {
            const Acc v = static_cast<Acc>(p[i]);
            Acc& a = acc[static_cast<std::size_t>(o)];
            switch (kind) {
              case Red::Sum:
              case Red::Mean:
              case Red::LogSum:
                a += v;
                break;
              case Red::Max:
                a = std::max(a, v);
                break;
              case Red::Min:
                a = std::min(a, v);
                break;
              case Red::Prod:
                a *= v;
                break;
              case Red::L1:
                a += v < 0 ? -v : v;
                break;
              case Red::L2:
              case Red::SumSquare:
                a += v * v;
                break;
              case Red::LogSumExp:
                a += static_cast<Acc>(std::exp(double(v) - mx[static_cast<std::size_t>(o)]));
                break;
            }
          });
    Tensor Y(X.dtype(), out);
    T* y = Y.mutable_data<T>();
    for (std::size_t i = 0; i < n; ++i) {
      double r = static_cast<double>(acc[i]);
      switch (kind) {
        case Red::Mean: r = count ? r / double(count) : std::numeric_limits<double>::quiet_NaN(); break;
        case Red::L2: r = std::sqrt(r); break;
        case Red::LogSum: r = std::log(r); break;
        case Red::LogSumExp: r = std::log(r) + mx[i]; break;
        default: break;
      }
      if constexpr (std::is_floating_point_v<T>) y[i] = static_cast<T>(r);
      else y[i] = (kind == Red::Mean || kind == Red::L2 || kind == Red::LogSum || kind == Red::LogSumExp)
                      ? static_cast<T>(r) : static_cast<T>(acc[i]);
    }
    return Y;
  })};
}

Outputs arg_reduce(const ir::Operation& op, Inputs x, bool is_max) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", 0), rank);
  const bool keep = attr_int(op, "keepdims", 1) != 0, last = attr_int(op, "select_last_index", 0) != 0;
  std::int64_t outer = 1, n = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? n : inner) *= X.dim(static_cast<std::size_t>(d));
  Shape out = X.shape();
  if (keep) out[static_cast<std::size_t>(axis)] = 1; else out.erase(out.begin() + axis);
  Tensor Y(DType::Int64, out);
  dispatch_numeric(X.dtype(), [&]<typename T>() {
    const T* p = X.data<T>();
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t k = 0; k < inner; ++k) {
        std::int64_t best = 0;
        for (std::int64_t j = 1; j < n; ++j) {
          const T v = p[(o * n + j) * inner + k], b = p[(o * n + best) * inner + k];
          const bool better = is_max ? (last ? v >= b : v > b) : (last ? v <= b : v < b);
          if (better) best = j;
        }
        Y.mutable_data<std::int64_t>()[o * inner + k] = best;
      }
  });
  return {Y};
}

}  // namespace

Outputs kernel_ReduceSum(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::Sum); }
Outputs kernel_ReduceMean(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::Mean); }
Outputs kernel_ReduceMax(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::Max); }
Outputs kernel_ReduceMin(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::Min); }
Outputs kernel_ReduceProd(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::Prod); }
Outputs kernel_ReduceL1(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::L1); }
Outputs kernel_ReduceL2(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::L2); }
Outputs kernel_ReduceLogSum(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::LogSum); }
Outputs kernel_ReduceLogSumExp(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::LogSumExp); }
Outputs kernel_ReduceSumSquare(const ir::Operation& op, Inputs x) { return reduce(op, x, Red::SumSquare); }
Outputs kernel_ArgMax(const ir::Operation& op, Inputs x) { return arg_reduce(op, x, true); }
Outputs kernel_ArgMin(const ir::Operation& op, Inputs x) { return arg_reduce(op, x, false); }

// y[j] = sum_{i <= j} x[i] along axis (exclusive: i < j; reverse: from the end)
Outputs kernel_CumSum(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(x[1].get_int(0), rank);
  const bool excl = attr_int(op, "exclusive", 0) != 0, rev = attr_int(op, "reverse", 0) != 0;
  std::int64_t outer = 1, n = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? n : inner) *= X.dim(static_cast<std::size_t>(d));
  return {dispatch_numeric(X.dtype(), [&]<typename T>() {
    Tensor Y(X.dtype(), X.shape());
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t k = 0; k < inner; ++k) {
        T acc = 0;
        for (std::int64_t jj = 0; jj < n; ++jj) {
          const std::int64_t j = rev ? n - 1 - jj : jj;
          const std::int64_t idx = (o * n + j) * inner + k;
          if (excl) { Y.mutable_data<T>()[idx] = acc; acc = static_cast<T>(acc + X.data<T>()[idx]); }
          else { acc = static_cast<T>(acc + X.data<T>()[idx]); Y.mutable_data<T>()[idx] = acc; }
        }
      }
    return Y;
  })};
}

// The k largest (or smallest) values along axis and their indices; ties keep the lower index.
Outputs kernel_TopK(const ir::Operation& op, Inputs x) {
  const Tensor& X = x[0];
  const auto rank = static_cast<std::int64_t>(X.rank());
  const std::int64_t axis = norm_axis(attr_int(op, "axis", -1), rank);
  const std::int64_t k = x[1].get_int(0);
  const bool largest = attr_int(op, "largest", 1) != 0;
  std::int64_t outer = 1, n = 1, inner = 1;
  for (std::int64_t d = 0; d < rank; ++d) (d < axis ? outer : d == axis ? n : inner) *= X.dim(static_cast<std::size_t>(d));
  if (k < 0 || k > n) fail("k = " + std::to_string(k) + " is out of range for an axis of " + std::to_string(n));
  Shape out = X.shape();
  out[static_cast<std::size_t>(axis)] = k;
  Tensor I(DType::Int64, out);
  Tensor V = dispatch_numeric(X.dtype(), [&]<typename T>() {
    Tensor Vt(X.dtype(), out);
    std::vector<std::int64_t> order(static_cast<std::size_t>(n));
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t q = 0; q < inner; ++q) {
        const T* p = X.data<T>() + o * n * inner + q;
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
          return largest ? p[a * inner] > p[b * inner] : p[a * inner] < p[b * inner];
        });
        for (std::int64_t j = 0; j < k; ++j) {
          const std::int64_t dst = (o * k + j) * inner + q;
          Vt.mutable_data<T>()[dst] = p[order[static_cast<std::size_t>(j)] * inner];
          I.mutable_data<std::int64_t>()[dst] = order[static_cast<std::size_t>(j)];
        }
      }
    return Vt;
  });
  return {V, I};
}

}  // namespace ec::runtime::kernels
