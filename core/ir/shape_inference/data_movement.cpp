// Shape functions of shape and data-movement ops. Those that build shapes
// (Shape, Gather, Unsqueeze, Squeeze, Concat, Slice, Cast, Identity) also
// carry their integer contents so a computed Reshape/Expand target is known.
#include "core/ir/shape_inference/shape_fn.h"

#include <algorithm>
#include <climits>
#include <map>
#include <set>

namespace ec::ir::shape_inference {
namespace {

Shape shape_from_value(const Value& v) {
  Shape s;
  for (const auto& e : v) s.dims.push_back(e.to_dim());
  return s;
}

// The target of Reshape: 0 copies the input dim (unless allowzero), -1 takes
// what is left, with symbolic dims cancelling by name ([batch,2,58,28,28] ->
// [batch,-1,28,28] gives 116).
Shape reshape_target(InferContext& ctx, const Shape& x, const Value& target, bool allowzero) {
  Shape y;
  int infer_at = -1;
  for (std::size_t k = 0; k < target.size(); ++k) {
    const Scalar& s = target[k];
    if (s.v && *s.v == 0 && !allowzero) {
      y.dims.push_back(x.rank_known && k < x.rank() ? x.dims[k] : Dim::unknown());
    } else if (s.v && *s.v == -1) {
      if (infer_at >= 0) {
        ctx.conflict("Reshape target has more than one -1");
        return Shape::unknown_rank();
      }
      infer_at = static_cast<int>(k);
      y.dims.push_back(Dim::unknown());
    } else if (s.v && *s.v < -1) {
      ctx.conflict("Reshape target has a negative size " + std::to_string(*s.v));
      return Shape::unknown_rank();
    } else {
      y.dims.push_back(s.to_dim());
    }
  }
  if (!x.rank_known) return y;
  // -1 is the input's element count over the other target dims, as monomials
  // so symbolic dims cancel by name.
  std::vector<Dim> known;
  for (std::size_t k = 0; k < y.rank(); ++k)
    if (static_cast<int>(k) != infer_at) known.push_back(y.dims[k]);
  auto total = monomial(dim_product(x.dims, 0, x.rank()));
  auto rest = monomial(dim_product(known, 0, known.size()));
  if (!total || !rest) return y;
  if (infer_at < 0) {
    if (total->names.empty() && rest->names.empty() && total->coef != rest->coef)
      ctx.conflict("cannot reshape " + x.to_string() + " (" + std::to_string(total->coef) + " elements) to " +
                   y.to_string());
    return y;
  }
  if (auto q = mono_div(*total, *rest)) {
    y.dims[static_cast<std::size_t>(infer_at)] = to_dim(*q);
  } else if (total->names.empty() && rest->names.empty()) {
    ctx.conflict("cannot reshape " + x.to_string() + " to " + y.to_string() + " with -1");
  }
  return y;
}

std::optional<std::set<std::int64_t>> axes_set(const std::vector<std::int64_t>& axes, std::int64_t rank) {
  std::set<std::int64_t> s;
  for (auto a : axes) {
    auto n = norm_axis(a, rank);
    if (!n) return std::nullopt;
    s.insert(*n);
  }
  return s;
}

// The number of elements Slice takes from a dim of size n (ONNX clamping).
std::int64_t slice_len(std::int64_t n, std::int64_t start, std::int64_t end, std::int64_t step) {
  auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) { return std::min(std::max(v, lo), hi); };
  if (start < 0) start = start < -n ? (step > 0 ? 0 : -1) : start + n;
  if (end < 0) end = end < -n ? -1 : end + n;
  if (step > 0) {
    start = clamp(start, 0, n);
    end = clamp(end, 0, n);
    return end > start ? (end - start + step - 1) / step : 0;
  }
  start = clamp(start, -1, n - 1);
  end = clamp(end, -1, n - 1);
  return start > end ? (start - end + (-step) - 1) / (-step) : 0;
}

}  // namespace

void infer_reshape(InferContext& ctx) {
  const Value* target = ctx.value(1);
  const Shape& x = ctx.shape(0);
  if (!target) {
    const Shape& ts = ctx.shape(1);  // the target's length gives the rank
    if (ts.rank_known && ts.rank() == 1 && ts.dims[0].is_static())
      ctx.set(0, unknown_dims(static_cast<std::size_t>(ts.dims[0].value)), ctx.dtype(0));
    return;
  }
  ctx.set(0, reshape_target(ctx, x, *target, ctx.op().attr_int("allowzero", 0) != 0), ctx.dtype(0));
  if (const Value* v = ctx.value(0)) ctx.set_value(0, *v);
}

void infer_flatten(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) {
    ctx.set(0, unknown_dims(2), ctx.dtype(0));
    return;
  }
  const auto r = static_cast<std::int64_t>(x.rank());
  std::int64_t axis = ctx.op().attr_int("axis", 1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis > r) return;
  const auto a = static_cast<std::size_t>(axis);
  ctx.set(0, Shape{{dim_product(x.dims, 0, a), dim_product(x.dims, a, x.rank())}, true}, ctx.dtype(0));
  if (const Value* v = ctx.value(0)) ctx.set_value(0, *v);
}

void infer_squeeze(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  Shape y;
  if (ctx.has(1)) {
    auto axes = ctx.ints(1);
    if (!axes) return;
    auto s = axes_set(*axes, static_cast<std::int64_t>(x.rank()));
    if (!s) return;
    for (std::size_t k = 0; k < x.rank(); ++k) {
      if (!s->count(static_cast<std::int64_t>(k))) {
        y.dims.push_back(x.dims[k]);
      } else if (x.dims[k].is_static() && x.dims[k].value != 1) {
        ctx.conflict("Squeeze of axis " + std::to_string(k) + " of size " + std::to_string(x.dims[k].value));
        return;
      }
    }
  } else {
    for (const Dim& d : x.dims) {
      if (!d.is_static()) return;  // whether it is 1 is not known
      if (d.value != 1) y.dims.push_back(d);
    }
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
  if (const Value* v = ctx.value(0)) ctx.set_value(0, *v);
}

void infer_unsqueeze(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  auto axes = ctx.ints(1);
  if (!x.rank_known || !axes) return;
  const auto r = static_cast<std::int64_t>(x.rank() + axes->size());
  auto s = axes_set(*axes, r);
  if (!s || s->size() != axes->size()) {
    ctx.conflict("Unsqueeze axes out of range or repeated for " + x.to_string());
    return;
  }
  Shape y;
  std::size_t next = 0;
  for (std::int64_t k = 0; k < r; ++k)
    y.dims.push_back(s->count(k) ? Dim::fixed(1) : x.dims[next++]);
  ctx.set(0, std::move(y), ctx.dtype(0));
  if (const Value* v = ctx.value(0)) ctx.set_value(0, *v);
}

void infer_transpose(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  auto perm = ctx.op().attr_ints("perm");
  if (perm.empty())
    for (std::size_t k = x.rank(); k-- > 0;) perm.push_back(static_cast<std::int64_t>(k));
  if (perm.size() != x.rank()) {
    ctx.conflict("perm has " + std::to_string(perm.size()) + " entries for " + x.to_string());
    return;
  }
  Shape y;
  for (auto p : perm) {
    if (p < 0 || p >= static_cast<std::int64_t>(x.rank())) return;
    y.dims.push_back(x.dims[static_cast<std::size_t>(p)]);
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_concat(InferContext& ctx) {
  std::optional<std::size_t> rank;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
    if (ctx.shape(i).rank_known) rank = ctx.shape(i).rank();
  if (!rank) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(*rank));
  if (!axis) return;
  const auto a = static_cast<std::size_t>(*axis);
  Shape y = unknown_dims(*rank);
  Scalar total = Scalar::of(0);
  bool first = true;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Shape& s = ctx.shape(i);
    if (!s.rank_known) {
      total = Scalar{};
      continue;
    }
    if (s.rank() != *rank) {
      ctx.conflict("Concat of ranks " + std::to_string(*rank) + " and " + std::to_string(s.rank()));
      return;
    }
    total = scalar_add(total, Scalar::from_dim(s.dims[a]));
    for (std::size_t k = 0; k < *rank; ++k) {
      if (k == a) continue;
      if (first || !y.dims[k].is_static()) {
        if (s.dims[k].is_static() || y.dims[k].symbol.empty()) y.dims[k] = s.dims[k];
      } else if (s.dims[k].is_static() && s.dims[k].value != y.dims[k].value) {
        ctx.conflict("Concat inputs differ in dim " + std::to_string(k) + ": " + std::to_string(y.dims[k].value) +
                     " and " + std::to_string(s.dims[k].value));
        return;
      }
    }
    first = false;
  }
  y.dims[a] = total.to_dim();
  ctx.set(0, std::move(y), ctx.dtype(0));
  // contents: 1-D shape vectors concatenated
  if (*rank == 1) {
    Value v;
    for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
      const Value* p = ctx.value(i);
      if (!p) return;
      v.insert(v.end(), p->begin(), p->end());
    }
    ctx.set_value(0, std::move(v));
  }
}

void infer_split(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(x.rank()));
  if (!axis) return;
  const auto a = static_cast<std::size_t>(*axis);
  const std::size_t n = ctx.num_outputs();
  std::vector<Dim> parts(n, Dim::unknown());
  if (ctx.has(1)) {
    if (auto split = ctx.ints(1); split && split->size() == n)
      for (std::size_t k = 0; k < n; ++k) parts[k] = Dim::fixed((*split)[k]);
  } else if (x.dims[a].is_static() && n > 0) {
    // equal parts; the last smaller when the size does not divide (opset 18 num_outputs)
    const std::int64_t size = x.dims[a].value, each = (size + static_cast<std::int64_t>(n) - 1) / static_cast<std::int64_t>(n);
    for (std::size_t k = 0; k < n; ++k)
      parts[k] = Dim::fixed(std::max<std::int64_t>(0, std::min(each, size - each * static_cast<std::int64_t>(k))));
  }
  for (std::size_t k = 0; k < n; ++k) {
    Shape y = x;
    y.dims[a] = parts[k];
    ctx.set(k, std::move(y), ctx.dtype(0));
  }
}

void infer_slice(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  auto starts = ctx.ints(1), ends = ctx.ints(2);
  std::optional<std::vector<std::int64_t>> axes, steps;
  if (ctx.has(3)) axes = ctx.ints(3);
  if (ctx.has(4)) steps = ctx.ints(4);
  const auto r = static_cast<std::int64_t>(x.rank());
  Shape y = x;
  if (!starts || !ends || (ctx.has(3) && !axes) || (ctx.has(4) && !steps) || starts->size() != ends->size()) {
    // which axes are sliced is known: the others keep their size
    if (axes) {
      for (auto a : *axes)
        if (auto n = norm_axis(a, r)) y.dims[static_cast<std::size_t>(*n)] = Dim::unknown();
      ctx.set(0, std::move(y), ctx.dtype(0));
    } else if (ctx.shape(1).rank_known && ctx.shape(1).rank() == 1 && ctx.shape(1).dims[0].is_static()) {
      const auto n = static_cast<std::size_t>(ctx.shape(1).dims[0].value);
      for (std::size_t k = 0; k < n && k < y.rank(); ++k) y.dims[k] = Dim::unknown();
      ctx.set(0, std::move(y), ctx.dtype(0));
    }
    return;
  }
  const std::size_t n = starts->size();
  for (std::size_t k = 0; k < n; ++k) {
    auto a = norm_axis(axes ? (*axes)[k] : static_cast<std::int64_t>(k), r);
    const std::int64_t step = steps && k < steps->size() ? (*steps)[k] : 1;
    if (!a || step == 0) {
      ctx.conflict("Slice axis out of range or step 0");
      return;
    }
    Dim& d = y.dims[static_cast<std::size_t>(*a)];
    if (d.is_static()) {
      d = Dim::fixed(slice_len(d.value, (*starts)[k], (*ends)[k], step));
    } else if (!((*starts)[k] == 0 && step == 1 && (*ends)[k] >= INT32_MAX)) {
      d = Dim::unknown();  // a dynamic dim sliced other than whole
    }
  }
  ctx.set(0, y, ctx.dtype(0));
  // contents of a sliced 1-D shape vector
  if (const Value* v = ctx.value(0); v && x.rank() == 1 && n == 1) {
    const auto len = static_cast<std::int64_t>(v->size());
    std::int64_t s = (*starts)[0], e = (*ends)[0];
    const std::int64_t step = steps ? (*steps)[0] : 1;
    if (step != 1) return;
    if (s < 0) s += len;
    if (e < 0) e += len;
    s = std::clamp<std::int64_t>(s, 0, len);
    e = std::clamp<std::int64_t>(e, 0, len);
    ctx.set_value(0, Value(v->begin() + s, v->begin() + std::max(s, e)));
  }
}

void infer_gather(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &idx = ctx.shape(1);
  if (!x.rank_known || !idx.rank_known) return;
  auto axis = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(x.rank()));
  if (!axis) {
    ctx.conflict("axis out of range for " + x.to_string());
    return;
  }
  const auto a = static_cast<std::size_t>(*axis);
  Shape y;
  y.dims.insert(y.dims.end(), x.dims.begin(), x.dims.begin() + static_cast<std::ptrdiff_t>(a));
  y.dims.insert(y.dims.end(), idx.dims.begin(), idx.dims.end());
  y.dims.insert(y.dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(a) + 1, x.dims.end());
  ctx.set(0, std::move(y), ctx.dtype(0));
  // contents: picking dims out of a shape vector
  const Value* v = ctx.value(0);
  auto indices = ctx.ints(1);
  if (v && indices && x.rank() == 1) {
    Value r;
    const auto n = static_cast<std::int64_t>(v->size());
    for (auto i : *indices) {
      if (i < -n || i >= n) return;
      r.push_back((*v)[static_cast<std::size_t>(i < 0 ? i + n : i)]);
    }
    ctx.set_value(0, std::move(r));
  }
}

// GatherElements: the indices' shape; GatherND: indices[:-1] + data[batch_dims + m:].
void infer_gather_nd(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &idx = ctx.shape(1);
  if (ctx.op().kind == OpKind::GatherElements) {
    ctx.set(0, idx, ctx.dtype(0));
    return;
  }
  if (!x.rank_known || !idx.rank_known || idx.rank() == 0 || !idx.dims.back().is_static()) return;
  const auto b = static_cast<std::size_t>(ctx.op().attr_int("batch_dims", 0));
  const auto m = static_cast<std::size_t>(idx.dims.back().value);
  if (b + m > x.rank()) return;
  Shape y{std::vector<Dim>(idx.dims.begin(), idx.dims.end() - 1), true};
  y.dims.insert(y.dims.end(), x.dims.begin() + static_cast<std::ptrdiff_t>(b + m), x.dims.end());
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_pad(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  const Value* pads = ctx.value(1);
  const std::size_t r = x.rank();
  if (!pads) {
    ctx.set(0, unknown_dims(r), ctx.dtype(0));
    return;
  }
  std::vector<std::int64_t> axes;
  if (ctx.has(3)) {
    auto a = ctx.ints(3);
    if (!a) return;
    axes = *a;
  } else {
    for (std::size_t k = 0; k < r; ++k) axes.push_back(static_cast<std::int64_t>(k));
  }
  if (pads->size() != 2 * axes.size()) {
    ctx.conflict("Pad has " + std::to_string(pads->size()) + " pads for " + std::to_string(axes.size()) + " axes");
    return;
  }
  Shape y = x;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    auto a = norm_axis(axes[k], static_cast<std::int64_t>(r));
    if (!a) return;
    Dim& d = y.dims[static_cast<std::size_t>(*a)];
    d = scalar_add(scalar_add(Scalar::from_dim(d), (*pads)[k]), (*pads)[axes.size() + k]).to_dim();
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_tile(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  const Value* reps = ctx.value(1);
  if (!x.rank_known) return;
  if (!reps || reps->size() != x.rank()) {
    ctx.set(0, unknown_dims(x.rank()), ctx.dtype(0));
    return;
  }
  Shape y = x;
  for (std::size_t k = 0; k < x.rank(); ++k)
    y.dims[k] = scalar_mul(Scalar::from_dim(x.dims[k]), (*reps)[k]).to_dim();
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_expand(InferContext& ctx) {
  const Value* target = ctx.value(1);
  if (!target) return;
  const Shape t = shape_from_value(*target);
  ctx.set(0, broadcast(ctx, {&ctx.shape(0), &t}), ctx.dtype(0));
}

void infer_shape(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) {
    ctx.set(0, unknown_dims(1), DType::Int64);
    return;
  }
  const auto r = static_cast<std::int64_t>(x.rank());
  auto clampi = [&](std::int64_t v) { return std::clamp<std::int64_t>(v < 0 ? v + r : v, 0, r); };
  const std::int64_t s = clampi(ctx.op().attr_int("start", 0)), e = clampi(ctx.op().attr_int("end", r));
  Value v;
  for (std::int64_t k = s; k < e; ++k) v.push_back(Scalar::from_dim(x.dims[static_cast<std::size_t>(k)]));
  ctx.set(0, Shape::of({static_cast<std::int64_t>(v.size())}), DType::Int64);
  ctx.set_value(0, std::move(v));
}

void infer_size(InferContext& ctx) {
  ctx.set(0, Shape::of(std::vector<std::int64_t>{}), DType::Int64);
  if (auto n = ctx.shape(0).num_elements()) ctx.set_value(0, {Scalar::of(*n)});
}

void infer_identity(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), ctx.dtype(0));
  if (const Value* v = ctx.value(0)) ctx.set_value(0, *v);
}

void infer_cast(InferContext& ctx) {
  const DType to = dtype_attr(ctx.op(), "to", DType::Undefined);
  ctx.set(0, ctx.shape(0), to);
  if (const Value* v = ctx.value(0); v && (to == DType::Int64 || to == DType::Int32)) ctx.set_value(0, *v);
}

void infer_cast_like(InferContext& ctx) { ctx.set(0, ctx.shape(0), ctx.dtype(1)); }

void infer_depth_to_space(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() != 4) return;
  const std::int64_t b = ctx.op().attr_int("blocksize", 1);
  const Scalar bs = Scalar::of(b), bb = Scalar::of(b * b);
  Shape y = x;
  y.dims[1] = scalar_div(Scalar::from_dim(x.dims[1]), bb).to_dim();
  y.dims[2] = scalar_mul(Scalar::from_dim(x.dims[2]), bs).to_dim();
  y.dims[3] = scalar_mul(Scalar::from_dim(x.dims[3]), bs).to_dim();
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_space_to_depth(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known || x.rank() != 4) return;
  const std::int64_t b = ctx.op().attr_int("blocksize", 1);
  const Scalar bs = Scalar::of(b), bb = Scalar::of(b * b);
  Shape y = x;
  y.dims[1] = scalar_mul(Scalar::from_dim(x.dims[1]), bb).to_dim();
  y.dims[2] = scalar_div(Scalar::from_dim(x.dims[2]), bs).to_dim();
  y.dims[3] = scalar_div(Scalar::from_dim(x.dims[3]), bs).to_dim();
  ctx.set(0, std::move(y), ctx.dtype(0));
}

// Inputs X, roi, scales, sizes: sizes win; else floor(dim * scale).
void infer_resize(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!x.rank_known) return;
  if (ctx.has(3)) {
    if (const Value* sizes = ctx.value(3); sizes && sizes->size() == x.rank()) {
      ctx.set(0, shape_from_value(*sizes), ctx.dtype(0));
      return;
    }
  }
  if (ctx.has(2)) {
    if (auto scales = ctx.reals(2); scales && scales->size() == x.rank()) {
      Shape y = x;
      for (std::size_t k = 0; k < x.rank(); ++k) {
        if ((*scales)[k] == 1.0) continue;
        y.dims[k] = x.dims[k].is_static()
                        ? Dim::fixed(static_cast<std::int64_t>(static_cast<double>(x.dims[k].value) * (*scales)[k]))
                        : Dim::unknown();
      }
      ctx.set(0, std::move(y), ctx.dtype(0));
      return;
    }
  }
  ctx.set(0, unknown_dims(x.rank()), ctx.dtype(0));
}

void infer_compress(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (!ctx.op().attr("axis")) {
    ctx.set(0, unknown_dims(1), ctx.dtype(0));
    return;
  }
  if (!x.rank_known) return;
  auto a = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(x.rank()));
  if (!a) return;
  Shape y = x;
  y.dims[static_cast<std::size_t>(*a)] = Dim::unknown();
  ctx.set(0, std::move(y), ctx.dtype(0));
}

void infer_one_hot(InferContext& ctx) {
  const Shape& idx = ctx.shape(0);
  if (!idx.rank_known) return;
  auto a = norm_axis(ctx.op().attr_int("axis", -1), static_cast<std::int64_t>(idx.rank()) + 1);
  if (!a) return;
  Dim depth = Dim::unknown();
  if (auto d = ctx.reals(1); d && d->size() == 1) depth = Dim::fixed(static_cast<std::int64_t>((*d)[0]));
  Shape y = idx;
  y.dims.insert(y.dims.begin() + *a, depth);
  ctx.set(0, std::move(y), ctx.dtype(2));
}

void infer_non_zero(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  Shape y = unknown_dims(2);
  if (x.rank_known) y.dims[0] = Dim::fixed(static_cast<std::int64_t>(x.rank()));
  ctx.set(0, std::move(y), DType::Int64);
}

// Y: unique values (1-D without axis); indices, inverse_indices, counts: 1-D i64.
void infer_unique(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  if (ctx.op().attr("axis") && x.rank_known) {
    auto a = norm_axis(ctx.op().attr_int("axis", 0), static_cast<std::int64_t>(x.rank()));
    if (!a) return;
    Shape y = x;
    y.dims[static_cast<std::size_t>(*a)] = Dim::unknown();
    ctx.set(0, std::move(y), ctx.dtype(0));
  } else {
    ctx.set(0, unknown_dims(1), ctx.dtype(0));
  }
  for (std::size_t k = 1; k < ctx.num_outputs(); ++k) ctx.set(k, unknown_dims(1), DType::Int64);
}

void infer_eye_like(InferContext& ctx) {
  ctx.set(0, ctx.shape(0), dtype_attr(ctx.op(), "dtype", ctx.dtype(0)));
}

// [N, C, grid H_out, grid W_out].
void infer_grid_sample(InferContext& ctx) {
  const Shape &x = ctx.shape(0), &grid = ctx.shape(1);
  if (!x.rank_known || !grid.rank_known || x.rank() != 4 || grid.rank() != 4) return;
  ctx.set(0, Shape{{x.dims[0], x.dims[1], grid.dims[1], grid.dims[2]}, true}, ctx.dtype(0));
}

void infer_center_crop_pad(InferContext& ctx) {
  const Shape& x = ctx.shape(0);
  const Value* shape = ctx.value(1);
  if (!x.rank_known || !shape) return;
  std::vector<std::int64_t> axes = ctx.op().attr_ints("axes");
  if (axes.empty())
    for (std::size_t k = 0; k < x.rank(); ++k) axes.push_back(static_cast<std::int64_t>(k));
  if (axes.size() != shape->size()) return;
  Shape y = x;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    auto a = norm_axis(axes[k], static_cast<std::int64_t>(x.rank()));
    if (!a) return;
    y.dims[static_cast<std::size_t>(*a)] = (*shape)[k].to_dim();
  }
  ctx.set(0, std::move(y), ctx.dtype(0));
}

}  // namespace ec::ir::shape_inference
