// Internal to core/quantize: the decisions the pipeline takes (which ops run in
// int8, each activation tensor's params, each layer's quantised weights), and
// the two graphs built from them — the int8 graph (docs/QUANTISATION.md) and a
// float "fake-quant" simulation of it (Quantize->Dequantize after each int8
// tensor, dequantised weights), which the report runs when the CPU runtime has
// no int8 kernels for the graph.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/quantize/quant_math.h"

namespace ec::quantize::detail {

/// One op whose weights are quantised (Conv, Gemm, MatMul, FullyConnected).
struct LayerPlan {
  std::size_t op = 0;        // index into Plan::graph.ops
  int weight_axis = 0;       // channel axis of the weight tensor
  QuantizedWeights weights;
  std::optional<QuantizedBias> bias;  // int8 ops with a bias (not hybrid ops)
};

struct Plan {
  std::string strategy;
  ir::Graph graph;                       // the optimised float graph
  std::set<std::size_t> int8_ops;        // run in int8
  std::set<std::size_t> hybrid_ops;      // dynamic: f32 activations, i8 weights
  std::map<std::string, ir::QuantParams> params;  // activation tensor -> i8 params
  std::map<std::size_t, LayerPlan> layers;        // by op index
  std::map<std::string, std::string> float_reasons;  // op name -> why it stays float
};

/// A float32 tensor of `g` computed at run time (an activation) / held as a constant.
bool is_float_activation(const ir::Graph& g, const std::string& name);
bool is_float_constant(const ir::Graph& g, const std::string& name);

/// Input index of an op's weight (constant second operand) and its channel axis,
/// or nullopt when the op has no quantisable weight.
struct WeightSlot {
  int axis = 0;
};
std::optional<WeightSlot> weight_slot(const ir::Graph& g, const ir::Operation& op);

/// The int8 graph of docs/QUANTISATION.md (Q/DQ at the float edges unless int8_io).
/// `exclude` ops are treated as float (sensitivity).
ir::Graph build_int8_graph(const Plan& plan, bool int8_io);

/// The float simulation of the int8 graph. Activation tensors keep their float
/// names (an int8 op's output is Quantize->Dequantize'd under its own name); a
/// quantised graph input or float-op output read by int8 ops gets `name + "/fq"`.
/// `as_float` ops are simulated as kept in float.
ir::Graph build_simulation_graph(const Plan& plan, const std::set<std::size_t>& as_float = {});

/// Name of tensor `t`'s simulated value in build_simulation_graph's graph.
std::string simulated_name(const Plan& plan, const std::string& t);
/// Name of tensor `t`'s i8 value in build_int8_graph(plan, false)'s graph.
std::string int8_name(const Plan& plan, const std::string& t);

/// Strips QuantizeLinear->DequantizeLinear pairs (activations and weights) from
/// `g`, returning the params they carried by tensor name (qat). u8 params are
/// moved to i8 (zero point - 128, same scale).
std::map<std::string, ir::QuantParams> strip_qdq_pairs(ir::Graph& g);

}  // namespace ec::quantize::detail
