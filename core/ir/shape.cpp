#include "core/ir/shape.h"

namespace ec::ir {

Shape Shape::of(std::initializer_list<std::int64_t> sizes) {
  return of(std::vector<std::int64_t>(sizes));
}

Shape Shape::of(const std::vector<std::int64_t>& sizes) {
  Shape s;
  s.dims.reserve(sizes.size());
  for (auto v : sizes) s.dims.push_back(v >= 0 ? Dim::fixed(v) : Dim::unknown());
  return s;
}

bool Shape::is_static() const {
  if (!rank_known) return false;
  for (const auto& d : dims)
    if (!d.is_static()) return false;
  return true;
}

std::optional<std::int64_t> Shape::num_elements() const {
  if (!is_static()) return std::nullopt;
  std::int64_t n = 1;
  for (const auto& d : dims)
    if (__builtin_mul_overflow(n, d.value, &n)) return std::nullopt;  // no tensor that large exists
  return n;
}

std::vector<std::int64_t> Shape::sizes() const {
  std::vector<std::int64_t> out;
  out.reserve(dims.size());
  for (const auto& d : dims) out.push_back(d.is_static() ? d.value : -1);
  return out;
}

std::string Shape::to_string() const {
  if (!rank_known) return "[*]";
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) s += ',';
    const Dim& d = dims[i];
    s += d.is_static() ? std::to_string(d.value) : (d.symbol.empty() ? "?" : d.symbol);
  }
  return s + "]";
}

}  // namespace ec::ir
