// Graph::tensors: the tensors of a graph by name, iterated in name order (the text
// form, GraphDiff and everything else that lists tensors stay deterministic), with a
// flat hash index beside the ordered map so that find/count/at/erase by name cost one
// probe and the node's key instead of a walk down a tree of ~17 levels (100k tensors),
// every level a cache miss once the graph outgrows the caches.
//
// The map's nodes never move, so the index keeps iterators; it is rebuilt on copy.
// The interface is the subset of std::map's that the code base uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/tensor.h"

namespace ec::ir {

class TensorMap {
 public:
  using Map = std::map<std::string, Tensor>;
  using key_type = std::string;
  using mapped_type = Tensor;
  using value_type = Map::value_type;
  using size_type = std::size_t;
  using iterator = Map::iterator;
  using const_iterator = Map::const_iterator;

  TensorMap() = default;
  TensorMap(const TensorMap& o) : map_(o.map_) { reindex(); }
  TensorMap(TensorMap&& o) noexcept : map_(std::move(o.map_)), slots_(std::move(o.slots_)) { o.clear(); }
  TensorMap& operator=(const TensorMap& o) {
    if (this != &o) {
      map_ = o.map_;
      reindex();
    }
    return *this;
  }
  TensorMap& operator=(TensorMap&& o) noexcept {
    if (this != &o) {
      map_ = std::move(o.map_);
      slots_ = std::move(o.slots_);
      o.clear();
    }
    return *this;
  }

  iterator begin() { return map_.begin(); }
  iterator end() { return map_.end(); }
  const_iterator begin() const { return map_.begin(); }
  const_iterator end() const { return map_.end(); }
  const_iterator cbegin() const { return map_.cbegin(); }
  const_iterator cend() const { return map_.cend(); }
  bool empty() const { return map_.empty(); }
  size_type size() const { return map_.size(); }
  void clear() {
    map_.clear();
    slots_.clear();
  }

  iterator find(std::string_view name) {
    const Slot* s = lookup(name);
    return s ? s->it : map_.end();
  }
  const_iterator find(std::string_view name) const {
    const Slot* s = lookup(name);
    return s ? const_iterator(s->it) : map_.end();
  }
  size_type count(std::string_view name) const { return lookup(name) ? 1 : 0; }
  bool contains(std::string_view name) const { return lookup(name) != nullptr; }
  Tensor& at(std::string_view name);
  const Tensor& at(std::string_view name) const;
  Tensor& operator[](const std::string& name) { return try_emplace(name).first->second; }

  template <typename... Args>
  std::pair<iterator, bool> try_emplace(const std::string& name, Args&&... args) {
    if (const Slot* s = lookup(name)) return {s->it, false};
    return {index(map_.try_emplace(name, std::forward<Args>(args)...).first), true};
  }
  std::pair<iterator, bool> emplace(const std::string& name, Tensor t) { return try_emplace(name, std::move(t)); }
  std::pair<iterator, bool> insert(value_type v) { return try_emplace(v.first, std::move(v.second)); }
  std::pair<iterator, bool> insert_or_assign(const std::string& name, Tensor t) {
    if (const Slot* s = lookup(name)) {
      s->it->second = std::move(t);
      return {s->it, false};
    }
    return {index(map_.emplace(name, std::move(t)).first), true};
  }
  /// Inserts before `hint` when that is where `name` sorts (as std::map::emplace_hint).
  iterator emplace_hint(const_iterator hint, const std::string& name, Tensor t) {
    if (const Slot* s = lookup(name)) return s->it;
    return index(map_.emplace_hint(hint, name, std::move(t)));
  }

  size_type erase(std::string_view name);
  iterator erase(iterator it);
  iterator erase(const_iterator it) { return erase(map_.erase(it, it)); }

 private:
  struct Slot {
    std::uint32_t hash = 0;
    bool used = false;
    iterator it{};
  };
  static std::uint32_t hash_of(std::string_view name) {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  }
  const Slot* lookup(std::string_view name) const;
  iterator index(iterator it);  // adds a new node to the index
  void unindex(iterator it);    // removes a node about to be erased
  void reindex();
  void grow(std::size_t slots);

  Map map_;
  std::vector<Slot> slots_;  // open addressing, linear probing, load <= 1/2; empty when map_ is
};

}  // namespace ec::ir
