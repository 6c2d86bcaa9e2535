// Tensor shapes with static, named-dynamic ("batch") and unknown ("?") dimensions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ec::ir {

/// One dimension: a fixed size (value >= 0), or dynamic with an optional symbol.
struct Dim {
  std::int64_t value = -1;  // >= 0 when static
  std::string symbol;       // name of a dynamic dim ("batch", "seq"); empty = unknown

  static Dim fixed(std::int64_t v) { return Dim{v, {}}; }
  static Dim named(std::string s) { return Dim{-1, std::move(s)}; }
  static Dim unknown() { return Dim{}; }
  bool is_static() const { return value >= 0; }
  bool operator==(const Dim&) const = default;
};

/// A shape; `rank_known == false` means nothing is known about it (not even rank).
struct Shape {
  std::vector<Dim> dims;
  bool rank_known = true;

  static Shape unknown_rank() { return Shape{{}, false}; }
  static Shape of(std::initializer_list<std::int64_t> sizes);
  static Shape of(const std::vector<std::int64_t>& sizes);
  std::size_t rank() const { return dims.size(); }
  bool is_static() const;
  /// Element count if every dim is static and the count fits in int64.
  std::optional<std::int64_t> num_elements() const;
  /// Static sizes; dynamic dims are -1.
  std::vector<std::int64_t> sizes() const;
  /// "[1,3,224,224]", "[batch,3,?,?]", or "[*]" for unknown rank.
  std::string to_string() const;
  bool operator==(const Shape&) const = default;
};

}  // namespace ec::ir
