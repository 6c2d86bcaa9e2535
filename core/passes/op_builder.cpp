#include "core/passes/op_builder.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ec::passes {

std::string OpBuilder::fresh(const std::string& suffix) {
  std::string n = base_ + "/" + suffix;
  while (g_.find_tensor(n)) n = base_ + "/" + suffix + "_" + std::to_string(++counter_);
  return n;
}

std::string OpBuilder::constant(const std::string& suffix, ir::DType dt, const std::vector<std::int64_t>& shape,
                                const void* bytes, std::size_t size, std::optional<ir::QuantParams> q) {
  ir::Tensor t;
  t.name = fresh(suffix);
  t.dtype = dt;
  t.shape = ir::Shape::of(shape);
  t.data = ir::ConstantData::copy_of(bytes, size);
  t.quant = std::move(q);
  return g_.add_tensor(std::move(t)).name;
}

std::string OpBuilder::f32(const std::string& suffix, const std::vector<std::int64_t>& shape, const std::vector<float>& v) {
  return constant(suffix, ir::DType::Float32, shape, v.data(), v.size() * sizeof(float));
}

std::string OpBuilder::i64(const std::string& suffix, const std::vector<std::int64_t>& v) {
  return constant(suffix, ir::DType::Int64, {static_cast<std::int64_t>(v.size())}, v.data(), v.size() * 8);
}

std::string OpBuilder::scalar(const std::string& suffix, double v, bool int8) {
  if (!int8) return f32_scalar(suffix, static_cast<float>(v));
  const auto q = static_cast<std::int8_t>(v >= 0 ? 127 : -127);
  const double scale = std::max(std::abs(v), 1e-6) / 127.0;
  return constant(suffix, ir::DType::Int8, {}, &q, 1, ir::QuantParams{ir::DType::Int8, {static_cast<float>(scale)}, {0}, -1});
}

std::string OpBuilder::activation(const std::string& suffix, ir::DType dt, std::optional<ir::QuantParams> q,
                                  std::optional<std::vector<std::int64_t>> shape) {
  ir::Tensor t;
  t.name = fresh(suffix);
  t.dtype = dt;
  if (shape) t.shape = ir::Shape::of(*shape);
  t.quant = std::move(q);
  return g_.add_tensor(std::move(t)).name;
}

std::string OpBuilder::op(ir::OpKind kind, std::vector<std::string> inputs, std::vector<std::string> outputs,
                          std::map<std::string, ir::Attribute> attrs, const std::string& name) {
  ir::Operation o;
  o.kind = kind;
  o.op_type = std::string(ir::op_info(kind).name);
  o.name = name.empty() ? base_ + "/" + o.op_type + "_" + std::to_string(ops_.size()) : name;
  o.inputs = std::move(inputs);
  o.outputs = std::move(outputs);
  o.attributes = std::move(attrs);
  ops_.push_back(std::move(o));
  return ops_.back().outputs.empty() ? std::string() : ops_.back().outputs[0];
}

std::string OpBuilder::op1(ir::OpKind kind, std::vector<std::string> inputs, std::map<std::string, ir::Attribute> attrs,
                           ir::DType dt, std::optional<ir::QuantParams> q) {
  const std::string y = activation(std::string(ir::op_info(kind).name), dt, std::move(q));
  return op(kind, std::move(inputs), {y}, std::move(attrs));
}

std::string OpBuilder::reshape(const std::string& x, const std::vector<std::int64_t>& shape, ir::DType dt,
                               std::optional<ir::QuantParams> q, const std::string& to) {
  const std::string y = to.empty() ? activation("reshaped", dt, std::move(q), shape) : to;
  return op(ir::OpKind::Reshape, {x, i64("shape", shape)}, {y});
}

ir::QuantParams int8_range(double lo, double hi) {
  lo = std::min(lo, 0.0);
  hi = std::max(hi, 0.0);
  if (hi - lo < 1e-9) hi = lo + 1e-6;
  const double scale = (hi - lo) / 255.0;
  const auto zp = static_cast<std::int64_t>(std::clamp<double>(std::round(-128.0 - lo / scale), -128, 127));
  return {ir::DType::Int8, {static_cast<float>(scale)}, {zp}, -1};
}

std::pair<double, double> real_range(const ir::QuantParams& q) {
  const double z = q.zero_points.empty() ? 0.0 : static_cast<double>(q.zero_points[0]);
  const double lo = q.dtype == ir::DType::UInt8 ? 0.0 : -128.0, hi = q.dtype == ir::DType::UInt8 ? 255.0 : 127.0;
  return {q.scales[0] * (lo - z), q.scales[0] * (hi - z)};
}

void splice_ops(ir::Graph& g, std::size_t index, std::vector<ir::Operation> ops) {
  g.ops.erase(g.ops.begin() + static_cast<std::ptrdiff_t>(index));
  g.ops.insert(g.ops.begin() + static_cast<std::ptrdiff_t>(index), std::make_move_iterator(ops.begin()),
               std::make_move_iterator(ops.end()));
}

std::optional<std::vector<float>> f32_values(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  if (!t || !t->is_constant() || t->dtype != ir::DType::Float32) return std::nullopt;
  std::vector<float> v(t->data->size() / sizeof(float));
  std::memcpy(v.data(), t->data->data(), v.size() * sizeof(float));
  return v;
}

}  // namespace ec::passes
