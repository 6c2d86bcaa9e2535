// OpBuilder: makes the ops and tensors that replace one op of a graph (a
// decomposition or an override). Names are "<base>/<suffix>", unique in the
// graph; new activations get the dtype and quantisation asked for and an unknown
// shape unless one is given (the PassManager infers shapes after every pass).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/graph.h"

namespace ec::passes {

class OpBuilder {
 public:
  OpBuilder(ir::Graph& g, std::string base) : g_(g), base_(std::move(base)) {}

  /// A fresh tensor name under the base.
  std::string fresh(const std::string& suffix);
  /// A float32 constant.
  std::string f32(const std::string& suffix, const std::vector<std::int64_t>& shape, const std::vector<float>& v);
  std::string f32_scalar(const std::string& suffix, float v) { return f32(suffix, {}, {v}); }
  /// A scalar: float32, or (int8 = true) int8 holding +-127 with scale |v| / 127.
  std::string scalar(const std::string& suffix, double v, bool int8);
  /// An int64 1-D constant (shapes, axes, split sizes).
  std::string i64(const std::string& suffix, const std::vector<std::int64_t>& v);
  /// A constant of any dtype from raw bytes.
  std::string constant(const std::string& suffix, ir::DType dt, const std::vector<std::int64_t>& shape,
                       const void* bytes, std::size_t size, std::optional<ir::QuantParams> q = std::nullopt);
  /// An activation tensor (not a constant).
  std::string activation(const std::string& suffix, ir::DType dt, std::optional<ir::QuantParams> q = std::nullopt,
                         std::optional<std::vector<std::int64_t>> shape = std::nullopt);

  /// Appends an op writing `outputs` (existing or fresh names); returns outputs[0].
  std::string op(ir::OpKind kind, std::vector<std::string> inputs, std::vector<std::string> outputs,
                 std::map<std::string, ir::Attribute> attrs = {}, const std::string& name = {});
  /// An op with one fresh float32 output (or the dtype/quant given).
  std::string op1(ir::OpKind kind, std::vector<std::string> inputs, std::map<std::string, ir::Attribute> attrs = {},
                  ir::DType dt = ir::DType::Float32, std::optional<ir::QuantParams> q = std::nullopt);
  /// Reshape to a static shape.
  std::string reshape(const std::string& x, const std::vector<std::int64_t>& shape, ir::DType dt = ir::DType::Float32,
                      std::optional<ir::QuantParams> q = std::nullopt, const std::string& to = {});

  std::vector<ir::Operation>& ops() { return ops_; }
  ir::Graph& graph() { return g_; }

 private:
  ir::Graph& g_;
  std::string base_;
  std::vector<ir::Operation> ops_;
  int counter_ = 0;
};

/// Per-tensor int8 params covering [lo, hi] (and 0), as TFLite's converter picks them.
ir::QuantParams int8_range(double lo, double hi);
/// The real range [lo, hi] a per-tensor int8 tensor covers.
std::pair<double, double> real_range(const ir::QuantParams& q);

/// Replaces g.ops[index] by `ops` (in place, order kept).
void splice_ops(ir::Graph& g, std::size_t index, std::vector<ir::Operation> ops);

/// The data of a float32 constant, or nullopt.
std::optional<std::vector<float>> f32_values(const ir::Graph& g, const std::string& name);

}  // namespace ec::passes
