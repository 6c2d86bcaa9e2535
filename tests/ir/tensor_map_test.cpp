// TensorMap: Graph::tensors, tensors in creation order with a hash index beside them.
#include "core/ir/tensor_map.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace ec::ir {
namespace {

Tensor named(const std::string& n, std::int64_t dim = 1) {
  Tensor t;
  t.name = n;
  t.shape = Shape::of({dim});
  return t;
}

// The reference: (name, value) in creation order; erasing removes, re-inserting appends.
struct Ref {
  std::vector<std::pair<std::string, std::int64_t>> items;
  std::vector<std::pair<std::string, std::int64_t>>::iterator find(const std::string& n) {
    return std::find_if(items.begin(), items.end(), [&](const auto& p) { return p.first == n; });
  }
  std::size_t count(const std::string& n) { return find(n) == items.end() ? 0 : 1; }
  std::size_t erase(const std::string& n) {
    auto it = find(n);
    if (it == items.end()) return 0;
    items.erase(it);
    return 1;
  }
  void emplace(const std::string& n, std::int64_t v) {
    if (!count(n)) items.emplace_back(n, v);
  }
  void assign(const std::string& n, std::int64_t v) {
    auto it = find(n);
    if (it == items.end())
      items.emplace_back(n, v);
    else
      it->second = v;
  }
};

// Same keys, in the same (creation) order, each found by name.
void expect_same(const TensorMap& m, const Ref& ref) {
  ASSERT_EQ(m.size(), ref.items.size());
  auto r = ref.items.begin();
  for (const auto& [name, t] : m) {
    ASSERT_EQ(name, r->first);
    ASSERT_EQ(t.shape.dims[0].value, r->second);
    ASSERT_NE(m.find(name), m.end());
    ++r;
  }
}

TEST(TensorMap, RandomInsertsAndErasesAgreeWithStdMap) {
  std::mt19937 rng(7);
  TensorMap m;
  Ref ref;
  for (int step = 0; step < 20000; ++step) {
    const std::string n = "t" + std::to_string(rng() % 3000);
    switch (rng() % 4) {
      case 0:
        m.insert_or_assign(n, named(n, step));
        ref.assign(n, step);
        break;
      case 1:
        m.emplace(n, named(n, step));
        ref.emplace(n, step);
        break;
      case 2:
        ASSERT_EQ(m.erase(n), ref.erase(n));
        break;
      default: {
        auto it = m.find(n);
        ASSERT_EQ(it != m.end(), ref.count(n) == 1);
        ASSERT_EQ(m.count(n), ref.count(n));
        if (it != m.end()) {
          ASSERT_EQ(it->first, n);
          if (rng() % 2) {
            m.erase(it);
            ref.erase(n);
          }
        }
      }
    }
  }
  expect_same(m, ref);
  m.compact();  // moves the survivors over the emptied slots, keeping their order
  expect_same(m, ref);
  for (int k = 0; k < 3000; ++k) {
    const std::string n = "t" + std::to_string(k);
    EXPECT_EQ(m.count(n), ref.count(n)) << n;
  }
}

TEST(TensorMap, CopiesAndMovesKeepTheirOwnIndex) {
  TensorMap a;
  for (int k = 0; k < 100; ++k) a["t" + std::to_string(k)] = named("t" + std::to_string(k), k);
  TensorMap b = a;
  b.erase("t5");
  b["t5x"] = named("t5x");
  EXPECT_EQ(a.count("t5"), 1u);
  EXPECT_EQ(a.count("t5x"), 0u);
  EXPECT_EQ(b.count("t5"), 0u);
  EXPECT_EQ(&b.at("t7"), &b.find("t7")->second);
  EXPECT_NE(&a.at("t7"), &b.at("t7"));
  TensorMap c = std::move(b);
  EXPECT_EQ(c.size(), 100u);
  EXPECT_EQ(c.at("t9").shape.dims[0].value, 9);
  EXPECT_EQ(c.count("t5x"), 1u);
  a = c;
  EXPECT_EQ(a.count("t5"), 0u);
  EXPECT_THROW(a.at("t5"), std::out_of_range);
  a.clear();
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(a.find("t1"), a.end());
  a["t1"] = named("t1");
  EXPECT_EQ(a.count("t1"), 1u);
}

TEST(TensorMap, IteratesInCreationOrderAndErasesWhileIterating) {
  TensorMap m;
  for (const char* n : {"c", "a", "d", "b", "e"}) m.emplace(n, named(n));
  std::string order;
  for (const auto& [name, t] : m) order += name;
  EXPECT_EQ(order, "cadbe");
  order.clear();
  for (const auto* e : m.by_name()) order += e->first;
  EXPECT_EQ(order, "abcde");
  const Tensor* e = &m.at("e");
  for (auto it = m.begin(); it != m.end();) it = it->first == "b" || it->first == "d" ? m.erase(it) : std::next(it);
  EXPECT_EQ(&m.at("e"), e);  // erasing never moves the others
  order.clear();
  for (const auto& [name, t] : m) order += name;
  EXPECT_EQ(order, "cae");
  EXPECT_EQ(m.count("b"), 0u);
  EXPECT_EQ(m.count("c"), 1u);
  m.emplace("b", named("b"));  // a re-inserted name is appended
  order.clear();
  for (const auto& [name, t] : m) order += name;
  EXPECT_EQ(order, "caeb");
}

TEST(TensorMap, ReferencesSurviveGrowthUntilCompact) {
  TensorMap m;
  m.emplace("first", named("first", 42));
  const Tensor* first = &m.at("first");
  for (int k = 0; k < 5000; ++k) m.emplace("t" + std::to_string(k), named("t", k));  // many chunks, index regrown
  EXPECT_EQ(&m.at("first"), first);
  for (int k = 0; k < 5000; k += 2) m.erase("t" + std::to_string(k));
  EXPECT_EQ(&m.at("first"), first);
  m.compact();
  EXPECT_EQ(m.size(), 2501u);
  EXPECT_EQ(m.at("first").shape.dims[0].value, 42);
  EXPECT_EQ(m.at("t4999").shape.dims[0].value, 4999);
  EXPECT_EQ(m.count("t4998"), 0u);
  EXPECT_EQ(std::next(m.begin())->first, "t1");
}

}  // namespace
}  // namespace ec::ir
