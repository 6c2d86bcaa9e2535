// Graph::tensors: the tensors of a graph by name, stored flat in creation order
// (the order the model, the text form or a pass declared them; deterministic), with
// a hash index beside them, so that find/count/at/erase by name cost one probe.
//
// Why not a std::map: every node is its own allocation, erasing one returns it to
// malloc, and iterating in name order visits memory in an order unrelated to where
// the nodes lie. Once a graph outgrows the caches (100k ops) each of those steps is
// a cache and TLB miss, and a pass pipeline that is linear on paper costs twice as
// much per op as on a 10k-op graph. Here the tensors lie in chunks of consecutive
// slots in creation order, which follows the op order, so a sweep over ops or over
// tensors walks memory forwards; erasing empties a slot in place.
//
// Stability: a slot never moves while the map lives (chunks are never reallocated),
// so references and iterators stay valid across inserts and other erases, as with
// std::map. compact() (called between passes) drops the emptied slots and is the
// one operation that moves tensors. Re-inserting an erased name appends it.
// Where the name order matters (the text form, GraphDiff), by_name() gives it.
// The interface is the subset of std::map's that the code base uses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/tensor.h"

namespace ec::ir {

class TensorMap {
 public:
  using key_type = std::string;
  using mapped_type = Tensor;
  using value_type = std::pair<const std::string, Tensor>;
  using size_type = std::size_t;

 private:
  static constexpr std::size_t kChunkBits = 8;
  static constexpr std::size_t kChunk = std::size_t{1} << kChunkBits;
  using Slot = std::optional<value_type>;
  struct Chunk {
    Slot items[kChunk];
  };

  template <bool Const>
  class Iter {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = TensorMap::value_type;
    using difference_type = std::ptrdiff_t;
    using pointer = std::conditional_t<Const, const value_type*, value_type*>;
    using reference = std::conditional_t<Const, const value_type&, value_type&>;
    using Owner = std::conditional_t<Const, const TensorMap, TensorMap>;

    Iter() = default;
    Iter(Owner* m, std::size_t at) : m_(m), at_(at) {}
    template <bool C = Const, typename = std::enable_if_t<C>>
    Iter(const Iter<false>& o) : m_(o.m_), at_(o.at_) {}  // NOLINT: iterator -> const_iterator

    reference operator*() const { return *m_->slot(at_); }
    pointer operator->() const { return &*m_->slot(at_); }
    Iter& operator++() {
      at_ = m_->next_live(at_ + 1);
      return *this;
    }
    Iter operator++(int) {
      Iter old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const Iter& a, const Iter& b) { return a.at_ == b.at_; }
    friend bool operator!=(const Iter& a, const Iter& b) { return a.at_ != b.at_; }

   private:
    friend class TensorMap;
    friend class Iter<!Const>;
    Owner* m_ = nullptr;
    std::size_t at_ = 0;  // slot number; m_->end_ = end()
  };

 public:
  using iterator = Iter<false>;
  using const_iterator = Iter<true>;

  TensorMap() = default;
  TensorMap(const TensorMap& o) { assign(o); }
  TensorMap(TensorMap&& o) noexcept { swap(o); }
  TensorMap& operator=(const TensorMap& o) {
    if (this != &o) assign(o);
    return *this;
  }
  TensorMap& operator=(TensorMap&& o) noexcept {
    if (this != &o) {
      clear();
      swap(o);
    }
    return *this;
  }
  ~TensorMap() = default;

  iterator begin() { return {this, next_live(0)}; }
  iterator end() { return {this, end_}; }
  const_iterator begin() const { return {this, next_live(0)}; }
  const_iterator end() const { return {this, end_}; }
  const_iterator cbegin() const { return begin(); }
  const_iterator cend() const { return end(); }
  bool empty() const { return live_ == 0; }
  size_type size() const { return live_; }
  void clear();

  iterator find(std::string_view name) {
    const std::uint32_t at = lookup(name);
    return {this, at == kNone ? end_ : at};
  }
  const_iterator find(std::string_view name) const {
    const std::uint32_t at = lookup(name);
    return {this, at == kNone ? end_ : at};
  }
  size_type count(std::string_view name) const { return lookup(name) == kNone ? 0 : 1; }
  bool contains(std::string_view name) const { return lookup(name) != kNone; }
  Tensor& at(std::string_view name);
  const Tensor& at(std::string_view name) const;
  Tensor& operator[](const std::string& name) { return try_emplace(name).first->second; }

  template <typename... Args>
  std::pair<iterator, bool> try_emplace(const std::string& name, Args&&... args) {
    if (const std::uint32_t at = lookup(name); at != kNone) return {{this, at}, false};
    Slot& s = append_slot();
    s.emplace(std::piecewise_construct, std::forward_as_tuple(name),
              std::forward_as_tuple(std::forward<Args>(args)...));
    return {{this, index_last()}, true};
  }
  std::pair<iterator, bool> emplace(const std::string& name, Tensor t) { return try_emplace(name, std::move(t)); }
  std::pair<iterator, bool> insert(value_type v) { return try_emplace(v.first, std::move(v.second)); }
  std::pair<iterator, bool> insert_or_assign(const std::string& name, Tensor t) {
    if (const std::uint32_t at = lookup(name); at != kNone) {
      slot(at)->second = std::move(t);
      return {{this, at}, false};
    }
    return try_emplace(name, std::move(t));
  }

  size_type erase(std::string_view name);
  /// Erases and returns the next tensor in creation order; other iterators stay valid.
  iterator erase(const_iterator it);
  iterator erase(iterator it) { return erase(const_iterator(it)); }

  /// The tensors sorted by name (for output meant to be read or compared); with `keep`,
  /// only those it accepts.
  std::vector<const value_type*> by_name(bool (*keep)(const Tensor&) = nullptr) const;
  /// Moves the live tensors over the slots erase() emptied, keeping their order.
  /// Invalidates references and iterators; a no-op when few slots are empty.
  void compact();

 private:
  static constexpr std::uint32_t kNone = ~0u;
  struct IndexSlot {
    std::uint32_t hash = 0;
    std::uint32_t at = kNone;  // slot number; kNone = free
  };
  static std::uint32_t hash_of(std::string_view name) {
    return static_cast<std::uint32_t>(std::hash<std::string_view>{}(name));
  }
  Slot& slot(std::size_t at) const { return chunks_[at >> kChunkBits]->items[at & (kChunk - 1)]; }
  std::size_t next_live(std::size_t at) const {
    while (at < end_ && !slot(at)) ++at;
    return at;
  }
  std::uint32_t lookup(std::string_view name) const;  // slot number or kNone
  Slot& append_slot();
  std::size_t index_last();  // indexes the slot append_slot() just filled; returns its number
  void place(std::uint32_t hash, std::size_t at);  // adds slot `at` to the index (room assumed)
  void unindex(std::size_t at, std::uint32_t hash);
  void reindex();
  void assign(const TensorMap& o);
  void swap(TensorMap& o) noexcept;

  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::size_t end_ = 0;   // slots handed out (live or emptied)
  std::size_t live_ = 0;  // live tensors
  std::vector<IndexSlot> index_;  // open addressing, linear probing, load <= 1/2; empty when no slots
};

}  // namespace ec::ir
