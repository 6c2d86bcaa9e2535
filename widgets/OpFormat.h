// How ops, attributes and tensors read in the graph view and the properties
// panel: one set of formatting functions so both show the same text.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <QColor>
#include <QString>

#include "core/ir/graph.h"

namespace ec::widgets {

/// "3", "1e-05", "[3,3]", "NOTSET", "tensor f32[2]".
QString attributeText(const ec::ir::Attribute& a);
/// A compact line of the attributes worth seeing on a box, named as in the ONNX
/// operator documentation ("k 3×3 · s 2 · pad 0/0/1/1 · g 32": kernel, stride, pads
/// top/left/bottom/right, group, dilation), empty when there are none.
QString keyAttributesText(const ec::ir::Operation& op);
/// keyAttributesText() spelled out, one translated line per attribute (the graph's tooltip).
QString keyAttributesToolTip(const ec::ir::Operation& op);
/// "f32[1,3,224,224]", or "?" for an unknown tensor.
QString tensorTypeText(const ec::ir::Tensor* t);
/// Category of an op (Unknown for ops the IR does not know).
ec::ir::OpCategory categoryOf(const ec::ir::Operation& op);
/// Fill colour of an op box by category (light, so black text reads on it).
QColor categoryColor(ec::ir::OpCategory c);
/// Viridis (dark blue = low, yellow = high), the one heat scale of the graph
/// overlay and the quantisation views; `t` in [0, 1]; NaN gives light grey.
QColor viridis(double t);

/// Statistics of a constant tensor's values, for numeric dtypes.
struct TensorStats {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, stddev = 0;
  std::vector<int> histogram;  ///< equal-width bins from min to max
};
/// Statistics of `t`'s constant data, or nullopt when it has none or an unsupported dtype.
std::optional<TensorStats> constantStats(const ec::ir::Tensor& t, int bins = 32);

}  // namespace ec::widgets
