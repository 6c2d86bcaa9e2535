// Helpers shared by the shape functions of every op family.
#include "core/ir/shape_inference/shape_fn.h"

#include <algorithm>
#include <climits>
#include <cstring>

namespace ec::ir::shape_inference {

const Shape& InferContext::shape(std::size_t i) const {
  static const Shape kUnknown = Shape::unknown_rank();
  return has(i) ? *in_[i].shape : kUnknown;
}

std::optional<std::vector<std::int64_t>> InferContext::ints(std::size_t i) const {
  const Value* v = value(i);
  if (!v) return std::nullopt;
  std::vector<std::int64_t> r;
  r.reserve(v->size());
  for (const Scalar& s : *v) {
    if (!s.v) return std::nullopt;
    r.push_back(*s.v);
  }
  return r;
}

std::optional<std::vector<double>> InferContext::reals(std::size_t i) const {
  if (!has(i) || !in_[i].tensor || !in_[i].tensor->is_constant()) return std::nullopt;
  const Tensor& t = *in_[i].tensor;
  std::vector<double> r;
  auto copy = [&](auto tag) {
    using T = decltype(tag);
    const auto& d = *t.data;
    const std::size_t n = d.size() / sizeof(T);
    for (std::size_t k = 0; k < n; ++k) {
      T x;
      std::memcpy(&x, d.data() + k * sizeof(T), sizeof(T));
      r.push_back(static_cast<double>(x));
    }
  };
  switch (t.dtype) {
    case DType::Float32: copy(float{}); break;
    case DType::Float64: copy(double{}); break;
    case DType::Int64: copy(std::int64_t{}); break;
    case DType::Int32: copy(std::int32_t{}); break;
    default: return std::nullopt;
  }
  return r;
}

std::optional<std::int64_t> norm_axis(std::int64_t axis, std::int64_t rank) {
  if (axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

std::optional<Dim> broadcast_dim(const Dim& a, const Dim& b) {
  if (a.is_static() && a.value == 1) return b;
  if (b.is_static() && b.value == 1) return a;
  if (a.is_static() && b.is_static()) {
    if (a.value != b.value) return std::nullopt;
    return a;
  }
  // A dynamic dim broadcast with a static one other than 1 must equal it.
  if (a.is_static()) return a;
  if (b.is_static()) return b;
  if (a == b) return a;
  return Dim::unknown();
}

Shape broadcast(InferContext& ctx, const std::vector<const Shape*>& shapes) {
  std::size_t rank = 0;
  for (const Shape* s : shapes) {
    if (!s->rank_known) return Shape::unknown_rank();
    rank = std::max(rank, s->rank());
  }
  Shape out = unknown_dims(rank);
  for (std::size_t k = 0; k < rank; ++k) out.dims[k] = Dim::fixed(1);
  for (const Shape* s : shapes) {
    const std::size_t off = rank - s->rank();
    for (std::size_t k = 0; k < s->rank(); ++k) {
      auto d = broadcast_dim(out.dims[off + k], s->dims[k]);
      if (!d) {
        ctx.conflict("shapes " + s->to_string() + " and " + out.to_string() + " do not broadcast");
        return Shape::unknown_rank();
      }
      out.dims[off + k] = *d;
    }
  }
  return out;
}

Dim dim_product(const std::vector<Dim>& dims, std::size_t from, std::size_t to) {
  Monomial p{1, {}};
  for (std::size_t k = from; k < to && k < dims.size(); ++k) {
    auto m = monomial(dims[k]);
    if (!m) return Dim::unknown();
    auto r = mono_mul(p, *m);
    if (!r) return Dim::unknown();
    p = std::move(*r);
  }
  return to_dim(p);
}

Shape unknown_dims(std::size_t rank) { return Shape{std::vector<Dim>(rank, Dim::unknown()), true}; }

bool is_anonymous(const Dim& d) {
  return !d.is_static() && (d.symbol.empty() || d.symbol.rfind("unk__", 0) == 0);
}

namespace {
std::optional<Monomial> parse_monomial(const std::string& text) {
  Monomial m;
  std::size_t p = 0;
  while (p <= text.size()) {
    const auto star = text.find('*', p);
    const std::string tok = text.substr(p, star == std::string::npos ? std::string::npos : star - p);
    if (tok.empty()) return std::nullopt;
    if (tok[0] >= '0' && tok[0] <= '9') {
      std::int64_t v = 0;
      for (char ch : tok) {
        if (ch < '0' || ch > '9' || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, ch - '0', &v))
          return std::nullopt;
      }
      if (__builtin_mul_overflow(m.coef, v, &m.coef)) return std::nullopt;
    } else {
      m.names.push_back(tok);
    }
    if (star == std::string::npos) break;
    p = star + 1;
  }
  std::sort(m.names.begin(), m.names.end());
  return m;
}
}  // namespace

std::optional<Monomial> monomial(const Dim& d) {
  if (d.is_static()) return Monomial{d.value, {}};
  if (is_anonymous(d)) return std::nullopt;
  return parse_monomial(d.symbol);
}

std::optional<Monomial> monomial(const Scalar& s) {
  if (s.v) return Monomial{*s.v, {}};
  if (s.symbol.empty() || s.symbol.rfind("unk__", 0) == 0) return std::nullopt;
  return parse_monomial(s.symbol);
}

namespace {
std::string mono_text(const Monomial& m) {
  std::string s = m.coef == 1 ? "" : std::to_string(m.coef);
  for (const auto& n : m.names) s += (s.empty() ? "" : "*") + n;
  return s;
}
}  // namespace

Dim to_dim(const Monomial& m) {
  if (m.names.empty()) return m.coef >= 0 ? Dim::fixed(m.coef) : Dim::unknown();
  if (m.coef <= 0) return m.coef == 0 ? Dim::fixed(0) : Dim::unknown();
  return Dim::named(mono_text(m));
}

Scalar to_scalar(const Monomial& m) {
  if (m.names.empty()) return Scalar::of(m.coef);
  if (m.coef <= 0) return m.coef == 0 ? Scalar::of(0) : Scalar{};
  return Scalar{std::nullopt, mono_text(m)};
}

std::optional<Monomial> mono_mul(const Monomial& a, const Monomial& b) {
  Monomial r;
  if (__builtin_mul_overflow(a.coef, b.coef, &r.coef)) return std::nullopt;
  r.names = a.names;
  r.names.insert(r.names.end(), b.names.begin(), b.names.end());
  std::sort(r.names.begin(), r.names.end());
  return r;
}

std::optional<Monomial> mono_div(const Monomial& a, const Monomial& b) {
  if (b.coef == 0 || a.coef % b.coef != 0) return std::nullopt;
  Monomial r{a.coef / b.coef, a.names};
  for (const auto& n : b.names) {
    auto it = std::find(r.names.begin(), r.names.end(), n);
    if (it == r.names.end()) return std::nullopt;
    r.names.erase(it);
  }
  return r;
}

Scalar scalar_add(const Scalar& a, const Scalar& b) {
  std::int64_t r;
  if (a.v && b.v) return __builtin_add_overflow(*a.v, *b.v, &r) ? Scalar{} : Scalar::of(r);
  if (b.v == 0) return a;
  if (a.v == 0) return b;
  auto ma = monomial(a), mb = monomial(b);
  if (ma && mb && ma->names == mb->names && !__builtin_add_overflow(ma->coef, mb->coef, &r))
    return to_scalar(Monomial{r, ma->names});
  return {};
}
Scalar scalar_sub(const Scalar& a, const Scalar& b) {
  std::int64_t r;
  if (a.v && b.v) return __builtin_sub_overflow(*a.v, *b.v, &r) ? Scalar{} : Scalar::of(r);
  if (b.v == 0) return a;
  auto ma = monomial(a), mb = monomial(b);
  if (ma && mb && ma->names == mb->names && !__builtin_sub_overflow(ma->coef, mb->coef, &r))
    return to_scalar(Monomial{r, ma->names});
  return {};
}
Scalar scalar_mul(const Scalar& a, const Scalar& b) {
  std::int64_t r;
  if (a.v && b.v) return __builtin_mul_overflow(*a.v, *b.v, &r) ? Scalar{} : Scalar::of(r);
  auto ma = monomial(a), mb = monomial(b);
  if (!ma || !mb) return {};
  auto m = mono_mul(*ma, *mb);
  return m ? to_scalar(*m) : Scalar{};
}
Scalar scalar_div(const Scalar& a, const Scalar& b) {
  if (a.v && b.v) {
    if (*b.v == 0 || (*b.v == -1 && *a.v == INT64_MIN)) return {};
    std::int64_t q = *a.v / *b.v;
    if ((*a.v % *b.v != 0) && ((*a.v < 0) != (*b.v < 0))) --q;  // floor, as numpy's integer division
    return Scalar::of(q);
  }
  auto ma = monomial(a), mb = monomial(b);
  if (!ma || !mb) return {};
  auto m = mono_div(*ma, *mb);
  return m ? to_scalar(*m) : Scalar{};
}

DType dtype_attr(const Operation& op, const std::string& key, DType fallback) {
  const Attribute* a = op.attr(key);
  if (!a) return fallback;
  if (const auto* s = std::get_if<std::string>(a))
    if (auto t = dtype_from_name(*s)) return *t;
  return fallback;
}

}  // namespace ec::ir::shape_inference
