// IR tensors: a name, an element type, a shape, optional constant bytes and
// optional quantisation. Graph inputs, op outputs and constants are all Tensors.
#pragma once

#include <optional>
#include <string>

#include "core/ir/constant_data.h"
#include "core/ir/dtype.h"
#include "core/ir/quantization.h"
#include "core/ir/shape.h"

namespace ec::ir {

struct Tensor {
  std::string name;
  DType dtype = DType::Undefined;
  Shape shape = Shape::unknown_rank();
  std::optional<ConstantData> data;  // set for constants (weights, folded values)
  std::optional<QuantParams> quant;

  bool is_constant() const { return data.has_value(); }
  /// Element count when the shape is static.
  std::optional<std::int64_t> num_elements() const { return shape.num_elements(); }
};

}  // namespace ec::ir
