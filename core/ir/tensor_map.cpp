#include "core/ir/tensor_map.h"

#include <stdexcept>

namespace ec::ir {

const TensorMap::Slot* TensorMap::lookup(std::string_view name) const {
  if (slots_.empty()) return nullptr;
  const std::uint32_t h = hash_of(name);
  const std::size_t mask = slots_.size() - 1;
  for (std::size_t at = h & mask;; at = (at + 1) & mask) {
    const Slot& s = slots_[at];
    if (!s.used) return nullptr;
    if (s.hash == h && s.it->first == name) return &s;
  }
}

Tensor& TensorMap::at(std::string_view name) {
  if (const Slot* s = lookup(name)) return s->it->second;
  throw std::out_of_range("no tensor '" + std::string(name) + "'");
}

const Tensor& TensorMap::at(std::string_view name) const {
  if (const Slot* s = lookup(name)) return s->it->second;
  throw std::out_of_range("no tensor '" + std::string(name) + "'");
}

void TensorMap::grow(std::size_t n) {
  std::vector<Slot> slots(n);
  const std::size_t mask = n - 1;
  for (const Slot& s : slots_) {
    if (!s.used) continue;
    std::size_t at = s.hash & mask;
    while (slots[at].used) at = (at + 1) & mask;
    slots[at] = s;
  }
  slots_ = std::move(slots);
}

TensorMap::iterator TensorMap::index(iterator it) {
  if (map_.size() * 2 > slots_.size()) grow(slots_.empty() ? 16 : slots_.size() * 2);
  const std::uint32_t h = hash_of(it->first);
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = h & mask;
  while (slots_[at].used) at = (at + 1) & mask;
  slots_[at] = Slot{h, true, it};
  return it;
}

void TensorMap::unindex(iterator it) {
  const std::uint32_t h = hash_of(it->first);
  const std::size_t mask = slots_.size() - 1;
  std::size_t at = h & mask;
  while (!slots_[at].used || slots_[at].it != it) at = (at + 1) & mask;  // it is indexed: found before an empty slot
  // Backward-shift deletion: move later entries of the probe run into the hole when
  // their home slot is not between the hole and themselves (no tombstones).
  for (std::size_t next = (at + 1) & mask; slots_[next].used; next = (next + 1) & mask) {
    const std::size_t home = slots_[next].hash & mask;
    const bool stays = at <= next ? (at < home && home <= next) : (at < home || home <= next);
    if (stays) continue;
    slots_[at] = slots_[next];
    at = next;
  }
  slots_[at] = Slot{};
}

void TensorMap::reindex() {
  slots_.clear();
  if (map_.empty()) return;
  std::size_t n = 16;
  while (n < map_.size() * 2) n *= 2;
  slots_.resize(n);
  const std::size_t mask = n - 1;
  for (auto it = map_.begin(); it != map_.end(); ++it) {
    const std::uint32_t h = hash_of(it->first);
    std::size_t at = h & mask;
    while (slots_[at].used) at = (at + 1) & mask;
    slots_[at] = Slot{h, true, it};
  }
}

TensorMap::size_type TensorMap::erase(std::string_view name) {
  const Slot* s = lookup(name);
  if (!s) return 0;
  erase(s->it);
  return 1;
}

TensorMap::iterator TensorMap::erase(iterator it) {
  unindex(it);
  return map_.erase(it);
}

}  // namespace ec::ir
