// Small builders and a structural comparison shared by the IR tests.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace ec::ir::test_util {

inline Tensor make_tensor(const std::string& name, DType dtype, Shape shape) {
  Tensor t;
  t.name = name;
  t.dtype = dtype;
  t.shape = std::move(shape);
  return t;
}

/// A constant of `count` float32 values 0, 1, 2, ... with the given shape.
inline Tensor make_f32_constant(const std::string& name, Shape shape, std::size_t count) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) values[i] = static_cast<float>(i);
  Tensor t = make_tensor(name, DType::Float32, std::move(shape));
  t.data = ConstantData::copy_of(values.data(), values.size() * sizeof(float));
  return t;
}

/// An op of a known kind (op_type from the op table).
inline Operation make_op(OpKind kind, const std::string& name, std::vector<std::string> inputs,
                         std::vector<std::string> outputs) {
  Operation op;
  op.name = name;
  op.kind = kind;
  op.op_type = std::string(op_info(kind).name);
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  return op;
}

/// x:f32[1,3,8,8] -> Conv(w, b) -> y -> Relu -> z; valid in every respect.
inline Graph make_conv_relu() {
  Graph g;
  g.name = "tiny";
  g.add_tensor(make_tensor("x", DType::Float32, Shape::of({1, 3, 8, 8})));
  g.add_tensor(make_f32_constant("w", Shape::of({4, 3, 3, 3}), 4 * 3 * 3 * 3));
  g.add_tensor(make_f32_constant("b", Shape::of({4}), 4));
  g.add_tensor(make_tensor("y", DType::Float32, Shape::of({1, 4, 8, 8})));
  g.add_tensor(make_tensor("z", DType::Float32, Shape::of({1, 4, 8, 8})));
  g.inputs = {"x"};
  Operation conv = make_op(OpKind::Conv, "/conv1/Conv", {"x", "w", "b"}, {"y"});
  conv.attributes["group"] = std::int64_t{1};
  conv.attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
  g.ops.push_back(std::move(conv));
  g.ops.push_back(make_op(OpKind::Relu, "/relu1/Relu", {"y"}, {"z"}));
  g.outputs = {"z"};
  return g;
}

/// A chain x -> op0 -> t0 -> op1 -> t1 ... of `n` Relu ops.
inline Graph make_chain(std::size_t n) {
  Graph g;
  g.name = "chain";
  g.add_tensor(make_tensor("x", DType::Float32, Shape::of({1, 16})));
  g.inputs = {"x"};
  std::string prev = "x";
  for (std::size_t i = 0; i < n; ++i) {
    std::string out = "t" + std::to_string(i);
    g.add_tensor(make_tensor(out, DType::Float32, Shape::of({1, 16})));
    g.ops.push_back(make_op(OpKind::Relu, "op" + std::to_string(i), {prev}, {out}));
    prev = out;
  }
  g.outputs = {prev};
  return g;
}

inline void expect_tensors_equal(const Tensor& a, const Tensor& b) {
  SCOPED_TRACE("tensor '" + a.name + "'");
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.shape, b.shape) << a.shape.to_string() << " vs " << b.shape.to_string();
  ASSERT_EQ(a.data.has_value(), b.data.has_value());
  if (a.data) {
    EXPECT_TRUE(*a.data == *b.data);
  }
  ASSERT_EQ(a.quant.has_value(), b.quant.has_value());
  if (a.quant) {
    EXPECT_EQ(a.quant->dtype, b.quant->dtype);
    EXPECT_EQ(a.quant->zero_points, b.quant->zero_points);
    EXPECT_EQ(a.quant->axis, b.quant->axis);
    ASSERT_EQ(a.quant->scales.size(), b.quant->scales.size());
    // Bitwise: the text form must not lose a single ulp.
    for (std::size_t i = 0; i < a.quant->scales.size(); ++i)
      EXPECT_EQ(0, std::memcmp(&a.quant->scales[i], &b.quant->scales[i], sizeof(float))) << i;
  }
}

inline void expect_ops_equal(const Operation& a, const Operation& b) {
  SCOPED_TRACE("op '" + a.name + "'");
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.op_type, b.op_type);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.quant, b.quant);
  ASSERT_EQ(a.attributes.size(), b.attributes.size());
  for (const auto& [key, value] : a.attributes) {
    auto it = b.attributes.find(key);
    ASSERT_NE(it, b.attributes.end()) << key;
    EXPECT_EQ(value.index(), it->second.index()) << key;
    // Doubles compare bitwise so -0.0 and every last bit are checked.
    if (const auto* d = std::get_if<double>(&value)) {
      const auto* e = std::get_if<double>(&it->second);
      ASSERT_NE(e, nullptr);
      EXPECT_EQ(0, std::memcmp(d, e, sizeof(double))) << key;
    } else if (const auto* v = std::get_if<std::vector<double>>(&value)) {
      const auto* w = std::get_if<std::vector<double>>(&it->second);
      ASSERT_NE(w, nullptr);
      ASSERT_EQ(v->size(), w->size());
      if (!v->empty()) {
        EXPECT_EQ(0, std::memcmp(v->data(), w->data(), v->size() * sizeof(double)));
      }
    } else {
      EXPECT_TRUE(value == it->second) << key;
    }
  }
}

/// Every field of two graphs, tensor by tensor and op by op.
inline void expect_graphs_equal(const Graph& a, const Graph& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.version, b.version);
  EXPECT_EQ(a.inputs, b.inputs);
  EXPECT_EQ(a.outputs, b.outputs);
  EXPECT_EQ(a.metadata, b.metadata);
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (const auto& [name, t] : a.tensors) {
    auto it = b.tensors.find(name);
    ASSERT_NE(it, b.tensors.end()) << "missing tensor '" << name << "'";
    expect_tensors_equal(t, it->second);
  }
  ASSERT_EQ(a.ops.size(), b.ops.size());
  for (std::size_t i = 0; i < a.ops.size(); ++i) expect_ops_equal(a.ops[i], b.ops[i]);
}

}  // namespace ec::ir::test_util
