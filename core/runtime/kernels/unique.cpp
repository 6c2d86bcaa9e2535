// Unique: the distinct elements of x (flattened), or its distinct slices along `axis`,
// with the index of each one's first occurrence, every element's (slice's) index into
// the result, and how often each occurs. sorted = 1: ascending (slices compared
// lexicographically, as numpy.unique); sorted = 0: in order of first occurrence.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <type_traits>

#include "core/runtime/kernels/common.h"

namespace ec::runtime::kernels {

Outputs kernel_Unique(const ir::Operation& op, Inputs x) {
  const Tensor& X = in(x, 0);
  const bool sorted = attr_int(op, "sorted", 1) != 0;
  const bool has_axis = op.attr("axis") != nullptr;
  const auto rank = static_cast<std::int64_t>(X.rank());
  if (has_axis && rank == 0) fail("Unique: 'axis' given for a scalar input");
  const std::int64_t axis = has_axis ? norm_axis(attr_int(op, "axis", 0), rank) : 0;
  // x as [outer, count, inner]: `count` items (elements or slices) of outer * inner values.
  std::int64_t outer = 1, count = X.numel(), inner = 1;
  if (has_axis) {
    count = X.dim(static_cast<std::size_t>(axis));
    for (std::int64_t d = 0; d < axis; ++d) outer *= X.dim(static_cast<std::size_t>(d));
    for (std::int64_t d = axis + 1; d < rank; ++d) inner *= X.dim(static_cast<std::size_t>(d));
  }

  // Items ordered by value (stable: ties keep their original order), then grouped.
  std::vector<std::int64_t> order(static_cast<std::size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> group_start;  // positions in `order` where a new value begins
  dispatch_all(X.dtype(), [&]<typename T>() {
    const T* p = X.data<T>();
    // Item k's values in (outer, inner) order compared lexicographically.
    // NaN sorts after every number and equals NaN (a strict weak order for the sort).
    const auto less = [](T a, T b) {
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(a)) return false;
        if (std::isnan(b)) return true;
      }
      return a < b;
    };
    const auto cmp = [&](std::int64_t a, std::int64_t b) -> int {
      for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t i = 0; i < inner; ++i) {
          const T va = p[(o * count + a) * inner + i], vb = p[(o * count + b) * inner + i];
          if (less(va, vb)) return -1;
          if (less(vb, va)) return 1;
        }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return cmp(a, b) < 0; });
    for (std::size_t k = 0; k < order.size(); ++k)
      if (k == 0 || cmp(order[k - 1], order[k]) != 0) group_start.push_back(static_cast<std::int64_t>(k));
  }, "Unique");
  const std::size_t u = group_start.size();
  group_start.push_back(count);

  // Groups in output order: ascending as sorted, else by first occurrence (each group's
  // first entry, the stable sort kept them in original order).
  std::vector<std::size_t> groups(u);
  std::iota(groups.begin(), groups.end(), 0);
  if (!sorted)
    std::sort(groups.begin(), groups.end(), [&](std::size_t a, std::size_t b) {
      return order[static_cast<std::size_t>(group_start[a])] < order[static_cast<std::size_t>(group_start[b])];
    });
  const auto n = static_cast<std::int64_t>(u);
  Tensor indices(DType::Int64, {n}), inverse(DType::Int64, {count}), counts(DType::Int64, {n});
  auto* pi = indices.mutable_data<std::int64_t>();
  auto* pv = inverse.mutable_data<std::int64_t>();
  auto* pc = counts.mutable_data<std::int64_t>();
  for (std::size_t j = 0; j < u; ++j) {
    const std::size_t g = groups[j];
    const auto b = static_cast<std::size_t>(group_start[g]), e = static_cast<std::size_t>(group_start[g + 1]);
    pi[j] = order[b];
    pc[j] = static_cast<std::int64_t>(e - b);
    for (std::size_t k = b; k < e; ++k) pv[order[k]] = static_cast<std::int64_t>(j);
  }

  Shape yshape{n};
  if (has_axis) {
    yshape = X.shape();
    yshape[static_cast<std::size_t>(axis)] = n;
  }
  Tensor Y(X.dtype(), yshape);
  dispatch_by_size(X.dtype(), [&]<typename T>() {
    const T* p = X.data<T>();
    T* y = Y.mutable_data<T>();
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t j = 0; j < n; ++j)
        std::copy_n(p + (o * count + pi[j]) * inner, inner, y + (o * n + j) * inner);
  }, "Unique");
  Outputs out{Y, indices, inverse, counts};
  out.resize(std::max<std::size_t>(1, std::min(out.size(), op.outputs.size())));
  return out;
}

}  // namespace ec::runtime::kernels
