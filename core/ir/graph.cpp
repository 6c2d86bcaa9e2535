#include "core/ir/graph.h"

namespace ec::ir {

const Attribute* Operation::attr(const std::string& key) const {
  auto it = attributes.find(key);
  return it == attributes.end() ? nullptr : &it->second;
}

std::int64_t Operation::attr_int(const std::string& key, std::int64_t fallback) const {
  const Attribute* a = attr(key);
  if (const auto* v = a ? std::get_if<std::int64_t>(a) : nullptr) return *v;
  return fallback;
}

std::vector<std::int64_t> Operation::attr_ints(const std::string& key) const {
  const Attribute* a = attr(key);
  if (const auto* v = a ? std::get_if<std::vector<std::int64_t>>(a) : nullptr) return *v;
  return {};
}

std::string Operation::attr_string(const std::string& key, const std::string& fallback) const {
  const Attribute* a = attr(key);
  if (const auto* v = a ? std::get_if<std::string>(a) : nullptr) return *v;
  return fallback;
}

Tensor* Graph::find_tensor(const std::string& n) {
  auto it = tensors.find(n);
  return it == tensors.end() ? nullptr : &it->second;
}

const Tensor* Graph::find_tensor(const std::string& n) const {
  auto it = tensors.find(n);
  return it == tensors.end() ? nullptr : &it->second;
}

Tensor& Graph::add_tensor(Tensor t) {
  std::string key = t.name;
  return tensors.insert_or_assign(std::move(key), std::move(t)).first->second;
}

}  // namespace ec::ir
