// Integer (int8) execution for the CPU runtime: ONE table of int8 kernels
// (int8_kernels.cpp), one file per op family (int8_conv.cpp, int8_linear.cpp,
// int8_elementwise.cpp, int8_pooling.cpp, int8_data_movement.cpp,
// int8_activations.cpp). Each entry prepares an op once, at session load, from
// the IR graph's quantisation params (ir::Tensor::quant; docs/QUANTISATION.md)
// -- per-channel multipliers/shifts, int32 bias with zero-point corrections,
// repacked weights, lookup tables, as TFLite's Prepare does -- and then runs it.
// The arithmetic is TFLite's reference integer arithmetic (fixed_point.h).
//
// Two kinds of quantised ops are prepared here:
//  * int8 ops: the first input is an i8 tensor with `quant` set; the outputs
//    are i8 with their own `quant` (the bias, when present, i32);
//  * hybrid ops (dynamic range, TFLite's "hybrid" kernels): Conv, FullyConnected,
//    Gemm, MatMul with an f32 first input and a constant i8 weight with `quant`;
//    the input is quantised per run, products accumulate in int32, the output is f32.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::quantized {

/// An op prepared for integer execution: constant work done once.
class PreparedOp {
 public:
  virtual ~PreparedOp() = default;
  /// Runs on `inputs` (one per op input, undefined when absent; constants included)
  /// and returns one tensor per op output. Safe to call from several threads.
  virtual std::vector<Tensor> run(std::span<const Tensor> inputs) const = 0;
  /// This op as a table of 256 int8 values (index x + 128) when it is an element-wise map
  /// of its one int8 input (HardSwish, Sigmoid, Tanh, a requantising Relu or Clip), else null.
  virtual const std::int8_t* as_table() const { return nullptr; }
  /// Takes `table` (the as_table() of the op that alone reads this op's output) to pass its
  /// own int8 output through, while that output is still in the cache, the two ops then
  /// running as this one; false when it cannot. Called at session load only.
  virtual bool take_output_table(const std::int8_t* /*table*/) { return false; }
  /// Whether this op can take the output of `pre`, which nothing else reads, computed
  /// piece by piece as it needs it (run_after): a depthwise Conv after its 1x1 Conv.
  virtual bool runs_after(const PreparedOp& /*pre*/) const { return false; }
  /// `pre` on pre_inputs, then this op on its output (inputs[0] is not read): the same
  /// tensors as the two runs; by default exactly those two runs.
  virtual std::vector<Tensor> run_after(const PreparedOp& pre, std::span<const Tensor> pre_inputs,
                                        std::span<const Tensor> inputs) const {
    std::vector<Tensor> in(inputs.begin(), inputs.end());
    in.at(0) = pre.run(pre_inputs).at(0);
    return run(in);
  }
};

/// Prepares `op` of `graph` (its tensors' quant params and constants). Throws
/// QuantizationError {tensor, reason} for missing or invalid params and
/// EdgeCompilerError / UnsupportedOpError for shapes or attributes it cannot take.
using PrepareFn = std::unique_ptr<PreparedOp> (*)(const ir::Operation& op, const ir::Graph& graph);

/// How the quantiser chooses the params of an int8 op's output (docs/QUANTISATION.md):
/// from the observed range, the same as its first input's, or the kernel's fixed
/// output params (fixed_output_params()).
enum class Int8OutputParams { Observed, SameAsInput, Fixed };

/// One row of the int8 kernel table. The quantiser reads this table (and asks
/// int8_refusal() about each op) to decide what runs in int8: it keeps no table
/// of its own, so the two cannot drift apart.
struct Int8KernelEntry {
  ir::OpKind kind;
  std::string_view summary;
  PrepareFn prepare;         // int8 op (i8 activations)
  PrepareFn prepare_hybrid;  // hybrid op (f32 activations, i8 weights); null when none
  Int8OutputParams output = Int8OutputParams::Observed;
  bool data_only = false;    // only input 0 is quantised data (the others are shapes, axes, bounds)
};

/// Every int8 kernel, in op-table order.
std::span<const Int8KernelEntry> int8_kernel_table();
/// The table's row for `kind`, or null.
const Int8KernelEntry* find_int8_kernel(ir::OpKind kind);
/// The fixed output params of an op whose row says Int8OutputParams::Fixed
/// (Sigmoid/Softmax: 1/256, -128; Tanh: 1/128, 0 — TFLite's).
ir::QuantParams fixed_output_params(ir::OpKind kind);

/// Prepares `op` of the quantised graph `graph` (an int8 or hybrid op) as a session
/// load would, and returns "" when its kernel takes it, else the one-line reason
/// the kernel refuses it (e.g. "Conv with fused_activation SIGMOID is not supported").
std::string int8_refusal(const ir::Operation& op, const ir::Graph& graph);
/// Whether ops of `kind` can run with i8 activations.
bool has_int8_kernel(ir::OpKind kind);
/// Whether ops of `kind` have a hybrid (f32 in/out, i8 weights) kernel.
bool has_hybrid_kernel(ir::OpKind kind);

/// Whether the int8 kernels take `op` (an NCHW op of an int8 graph) channels-last, with
/// the same results: Conv with i8 activations and symmetric int8 weights (oneDNN's VNNI
/// convolutions), the pools (ONNX's rules, as the NCHW kernels; a .tflite model's pools
/// have equal input and output params, where TFLite's rules give the same integers) and
/// the layout-free ops (element-wise, Concat, Pad, BatchNormalization's per-channel
/// tables). The CPU session's
/// LayoutTransform converts only these (SessionOptions::int8_channels_last).
bool int8_runs_channels_last(const ir::Operation& op, const ir::Graph& graph);

/// True when `op` runs in int8: its first input is an i8 or u8 tensor with `quant` set.
bool is_int8_op(const ir::Operation& op, const ir::Graph& graph);
/// True when `op` is a hybrid op: Conv/FullyConnected/Gemm/MatMul with an f32 first
/// input and a constant i8 second input carrying `quant`.
bool is_hybrid_op(const ir::Operation& op, const ir::Graph& graph);

/// Prepares `op` for integer execution, or returns null when it is neither an int8
/// nor a hybrid op (it then runs on the float kernels). Throws UnsupportedOpError
/// (suggesting `--keep-float <op name>`) for a quantised op without an int8 kernel,
/// QuantizationError naming the tensor for missing or invalid quant params.
std::unique_ptr<PreparedOp> prepare_quantized(const ir::Operation& op, const ir::Graph& graph);

}  // namespace ec::runtime::quantized
