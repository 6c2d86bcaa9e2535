#include "core/ir/tensor_map.h"

#include <algorithm>
#include <stdexcept>

namespace ec::ir {

std::uint32_t TensorMap::lookup(std::string_view name) const {
  if (index_.empty()) return kNone;
  const std::uint32_t h = hash_of(name);
  const std::size_t mask = index_.size() - 1;
  for (std::size_t i = h & mask;; i = (i + 1) & mask) {
    const IndexSlot& s = index_[i];
    if (s.at == kNone) return kNone;
    if (s.hash == h && slot(s.at)->first == name) return s.at;
  }
}

Tensor& TensorMap::at(std::string_view name) {
  if (const std::uint32_t i = lookup(name); i != kNone) return slot(i)->second;
  throw std::out_of_range("no tensor '" + std::string(name) + "'");
}

const Tensor& TensorMap::at(std::string_view name) const {
  if (const std::uint32_t i = lookup(name); i != kNone) return slot(i)->second;
  throw std::out_of_range("no tensor '" + std::string(name) + "'");
}

TensorMap::Slot& TensorMap::append_slot() {
  if ((end_ >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<Chunk>());
  return slot(end_);
}

std::size_t TensorMap::index_last() {
  const std::size_t at = end_++;
  ++live_;
  if (live_ * 2 > index_.size()) {
    reindex();  // grows the table; indexes every live slot, this one included
    return at;
  }
  place(hash_of(slot(at)->first), at);
  return at;
}

void TensorMap::place(std::uint32_t h, std::size_t at) {
  const std::size_t mask = index_.size() - 1;
  std::size_t i = h & mask;
  while (index_[i].at != kNone) i = (i + 1) & mask;
  index_[i] = IndexSlot{h, static_cast<std::uint32_t>(at)};
}

void TensorMap::unindex(std::size_t at, std::uint32_t h) {
  const std::size_t mask = index_.size() - 1;
  std::size_t i = h & mask;
  while (index_[i].at != at) i = (i + 1) & mask;  // `at` is indexed: found before a free slot
  // Backward-shift deletion: move later entries of the probe run into the hole when
  // their home is not between the hole and themselves (no tombstones).
  for (std::size_t next = (i + 1) & mask; index_[next].at != kNone; next = (next + 1) & mask) {
    const std::size_t home = index_[next].hash & mask;
    const bool stays = i <= next ? (i < home && home <= next) : (i < home || home <= next);
    if (stays) continue;
    index_[i] = index_[next];
    i = next;
  }
  index_[i] = IndexSlot{};
}

void TensorMap::reindex() {
  std::size_t n = 16;
  while (n < live_ * 2) n *= 2;
  index_.assign(n, IndexSlot{});
  for (std::size_t at = 0; at < end_; ++at)
    if (const Slot& s = slot(at)) place(hash_of(s->first), at);
}

void TensorMap::clear() {
  chunks_.clear();
  index_.clear();
  end_ = live_ = 0;
}

void TensorMap::assign(const TensorMap& o) {
  clear();
  for (const value_type& v : o) {
    append_slot().emplace(v);
    ++end_;
    ++live_;
  }
  reindex();
}

void TensorMap::swap(TensorMap& o) noexcept {
  chunks_.swap(o.chunks_);
  index_.swap(o.index_);
  std::swap(end_, o.end_);
  std::swap(live_, o.live_);
}

TensorMap::size_type TensorMap::erase(std::string_view name) {
  const std::uint32_t at = lookup(name);
  if (at == kNone) return 0;
  erase(const_iterator(this, at));
  return 1;
}

TensorMap::iterator TensorMap::erase(const_iterator it) {
  Slot& s = slot(it.at_);
  unindex(it.at_, hash_of(s->first));
  s.reset();
  --live_;
  return {this, next_live(it.at_ + 1)};
}

std::vector<const TensorMap::value_type*> TensorMap::by_name(bool (*keep)(const Tensor&)) const {
  std::vector<const value_type*> v;
  v.reserve(keep ? 0 : live_);
  for (const value_type& e : *this)
    if (!keep || keep(e.second)) v.push_back(&e);
  std::sort(v.begin(), v.end(), [](const value_type* a, const value_type* b) { return a->first < b->first; });
  return v;
}

void TensorMap::compact() {
  if ((end_ - live_) * 4 <= end_) return;  // at most a quarter empty: not worth moving
  std::size_t w = 0;
  for (std::size_t at = 0; at < end_; ++at) {
    Slot& s = slot(at);
    if (!s) continue;
    if (w != at) {
      slot(w).emplace(std::move(*s));  // the key is copied (const), the Tensor moved
      s.reset();
    }
    ++w;
  }
  end_ = w;
  chunks_.resize((end_ + kChunk - 1) >> kChunkBits);
  reindex();
}

}  // namespace ec::ir
