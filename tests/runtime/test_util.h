// Small helpers for building one-op graphs in runtime tests.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/kernel_registry.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::test {

inline ir::Operation make_op(const std::string& type, std::vector<std::string> inputs,
                             std::vector<std::string> outputs = {"y"},
                             std::map<std::string, ir::Attribute> attrs = {}) {
  ir::Operation op;
  op.name = type;
  op.op_type = type;
  op.kind = ir::op_kind_from_name(type).value_or(ir::OpKind::Unknown);
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  op.attributes = std::move(attrs);
  return op;
}

inline Tensor f32(std::vector<std::int64_t> shape, std::vector<float> v) {
  return Tensor::from_values(ir::DType::Float32, std::move(shape), v);
}
inline Tensor i64(std::vector<std::int64_t> shape, std::vector<std::int64_t> v) {
  return Tensor::from_values(ir::DType::Int64, std::move(shape), v);
}

/// Runs one op with the given inputs (one per op input).
inline std::vector<Tensor> run1(const ir::Operation& op, std::vector<Tensor> inputs) {
  return run_kernel(op, inputs);
}

inline void expect_near(const Tensor& t, std::vector<std::int64_t> shape, std::vector<float> want, float tol = 1e-5f) {
  ASSERT_EQ(t.shape(), shape);
  const auto got = t.to_float_vector();
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

}  // namespace ec::runtime::test
