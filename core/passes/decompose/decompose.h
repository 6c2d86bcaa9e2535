// Decompositions: one op rewritten into ops that TFLite (and the Edge TPU) have a
// builtin for, computing the same values. Used by the LegaliseTflite pass and by
// the Coral backend's overrides. One file per op family beside this header.
//
// Each function looks at g.ops[index]; when it applies it replaces that op in place
// (splice_ops: the ops it made sit at [index, index + n)) and returns n > 0. It
// returns 0 and leaves the graph untouched when the op is not its case, with the
// reason in *why when the op is its case but a form it cannot express.
#pragma once

#include <cstddef>
#include <string>

#include <span>

#include "core/ir/graph.h"

namespace ec::passes {
struct PassResult;
}

namespace ec::passes::decompose {

using Fn = std::size_t (*)(ir::Graph& g, std::size_t index, std::string* why);

/// Each step over every op, last op first (what a rewrite splices in sits after the ops
/// still to visit), counting "ops_decomposed" / "ops_made" into `r` and noting each
/// refusal under the op's name. The loop of LegaliseTflite and LegaliseTfliteInt8.
void apply(ir::Graph& g, std::span<const Fn> steps, PassResult& r);

// convolution.cpp
/// Conv, ConvTranspose, MaxPool, AveragePool, GlobalAveragePool, GlobalMaxPool over
/// [N, C, W] as their 2-D forms over [N, C, 1, W] (Reshape in and out). float and int8.
std::size_t one_d_as_two_d(ir::Graph& g, std::size_t index, std::string* why);
/// A grouped Conv (1 < group, not depthwise) or ConvTranspose as Split, one op per
/// group, Concat. float and int8 (per-channel weight params sliced with the weights).
std::size_t grouped_conv(ir::Graph& g, std::size_t index, std::string* why);
/// MaxPool / AveragePool over [N, C, D, H, W] as a 2-D pool per frame and, in time,
/// the max (mean) of kd strided Slices. Depth pads are not supported.
std::size_t pool_3d(ir::Graph& g, std::size_t index, std::string* why);
/// ConvTranspose with dilations: the same op with the kernel dilated (zeros between
/// taps), which is exact. float and int8.
std::size_t dilated_conv_transpose(ir::Graph& g, std::size_t index, std::string* why);

// activations.cpp
/// HardSigmoid(x) = clip(alpha x + beta, 0, 1) = relu6(6 alpha x + 6 beta) / 6:
/// Mul, Add, Clip [0, 6], Mul. float, and int8 with intermediate params from the
/// input's range.
std::size_t hard_sigmoid(ir::Graph& g, std::size_t index, std::string* why);
/// Softplus, Softsign, Mish, Elu (alpha != 1), Selu, Celu and ThresholdedRelu from Relu,
/// Abs, Exp, Log, Tanh, TFLite's ELU (alpha 1), Min, Sign, Mul, Add, Div. float.
std::size_t smooth_activations(ir::Graph& g, std::size_t index, std::string* why);
/// Softmax / LogSoftmax over a non-last axis: Transpose (the axis swapped with the last),
/// the op over the last axis, Transpose back. float and int8.
std::size_t softmax_axis(ir::Graph& g, std::size_t index, std::string* why);
/// Erf by Abramowitz & Stegun 7.1.26 (|error| <= 1.5e-7): float only.
std::size_t erf(ir::Graph& g, std::size_t index, std::string* why);
/// Gelu in its tanh form 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): at most
/// 3e-4 x |x|... from the exact GELU (max 4.7e-4 absolute). float and int8.
std::size_t gelu_tanh(ir::Graph& g, std::size_t index, std::string* why);

// normalization.cpp
/// LayerNormalization as ReduceMean, Sub, Mul, ReduceMean, Add(eps), Sqrt, Div, Mul, Add
/// (its Mean / InvStdDev outputs too). float.
std::size_t layer_norm(ir::Graph& g, std::size_t index, std::string* why);
/// BatchNormalization (inference) as Mul + Add by per-channel constants. float.
std::size_t batch_norm(ir::Graph& g, std::size_t index, std::string* why);
/// InstanceNormalization and GroupNormalization (static shape; per-group scale / bias
/// constants repeated per channel) as LayerNormalization's arithmetic, then Mul + Add. float.
std::size_t instance_group_norm(ir::Graph& g, std::size_t index, std::string* why);
/// MeanVarianceNormalization as (x - mean) / sqrt(var + 1e-9) over its axes. float.
std::size_t mean_variance_norm(ir::Graph& g, std::size_t index, std::string* why);
/// LRN: the channel window's sum of squares as a Conv with a kernel of ones, then Mul,
/// Add, Pow, Div. float, static shape.
std::size_t lrn(ir::Graph& g, std::size_t index, std::string* why);

// reduction.cpp
/// ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum, ReduceLogSumExp (max-shifted) from
/// Abs, Mul, ReduceSum, ReduceMax, Sqrt, Log, Exp. float.
std::size_t reduction(ir::Graph& g, std::size_t index, std::string* why);

// linear.cpp
/// Gemm with transA, alpha != 1, beta != 1, a non-constant B or a C other than a constant
/// [N] bias: Transpose, Gemm (plain) or MatMul, Mul, Add. float.
std::size_t gemm(ir::Graph& g, std::size_t index, std::string* why);
/// A constant-weight FullyConnected / MatMul / plain Gemm as Reshape to [1, M, 1, K], a 1x1
/// NHWC Conv (weight [N, 1, 1, K], same params, bias and activation), Reshape back: the
/// same integers; the Edge TPU maps FULLY_CONNECTED only with a one-dimensional output.
std::size_t fc_as_conv1x1(ir::Graph& g, std::size_t index, std::string* why);

// elementwise.cpp
/// Sum / Mean / Max / Min of one input (Identity) or of more than two (Max / Min) or two
/// (Sum, Mean): chains of Add / Max / Min, Mul by 1/n for Mean. Any dtype but quantised;
/// Mean float.
std::size_t variadic(ir::Graph& g, std::size_t index, std::string* why);
/// Tan, Sinh, Cosh, Asinh, Acosh, Atanh by Sin / Cos / Exp / Log / Sqrt forms; Atan by a
/// polynomial on [0, 1] with range reduction (2e-8), Asin and Acos through it. float.
std::size_t trigonometric(ir::Graph& g, std::size_t index, std::string* why);

// data_movement.cpp
/// DepthToSpace in CRD mode: a channel permutation (Reshape, Transpose, Reshape), then
/// the DCR op. Exact, any dtype.
std::size_t depth_to_space_crd(ir::Graph& g, std::size_t index, std::string* why);
/// Dropout in inference mode: Identity; a used mask, a constant of ones (bool).
std::size_t dropout(ir::Graph& g, std::size_t index, std::string* why);

// recurrent.cpp
/// LSTM, GRU and RNN unrolled over their (static) sequence: one FullyConnected for the
/// inputs of every step, then per step FullyConnected on the state, Split,
/// Sigmoid/Tanh, Mul, Add (Sub for GRU); RNN with any ONNX activation and clip. float.
std::size_t recurrent(ir::Graph& g, std::size_t index, std::string* why);

// conv3d.cpp
/// A float 3-D Conv (group 1) as one 2-D Conv over [N*Do, kd*C, H, W]: each output
/// frame's kd input frames stacked in channels (Transpose, Reshape, Pad in depth,
/// strided Slices, Concat; weight reordered), then Reshape and Transpose back.
std::size_t conv3d_as_conv2d(ir::Graph& g, std::size_t index, std::string* why);

// channel_shuffle.cpp
/// A channel shuffle (Reshape to [N, g, C/g, H, W], Transpose [0, 2, 1, 3, 4], Reshape
/// back) as one 1x1 Conv with the permutation as its weight. float.
std::size_t channel_shuffle_as_conv(ir::Graph& g, std::size_t index, std::string* why);

// conv_transpose_bias.cpp
/// A float ConvTranspose's constant bias as an Add after it ([1, M, 1, 1]): TFLite's
/// TRANSPOSE_CONV takes a bias only from version 3, which the Edge TPU compiler refuses.
std::size_t conv_transpose_bias_as_add(ir::Graph& g, std::size_t index, std::string* why);

// global_pool.cpp
/// GlobalAveragePool / GlobalMaxPool over more than 2 spatial dims as ReduceMean /
/// ReduceMax over all of them (keepdims). float.
std::size_t global_pool_as_reduce(ir::Graph& g, std::size_t index, std::string* why);

// sequence_lstm.cpp
/// Why TFLite's UNIDIRECTIONAL_/BIDIRECTIONAL_SEQUENCE_LSTM cannot express this LSTM,
/// or "" when it can (float, constant weights, default activations, no clip or
/// input_forget, full sequences, zero initial states, the last cell state unused).
std::string tflite_sequence_lstm_refusal(const ir::Graph& g, const ir::Operation& op);
/// recurrent(), except that an LSTM TFLite's sequence op expresses stays whole.
std::size_t recurrent_unless_sequence_op(ir::Graph& g, std::size_t index, std::string* why);

// lp_pool.cpp
/// LpPool / GlobalLpPool as |x|^p (Abs, Mul or Pow), AveragePool counting padding times
/// the window's taps (ReduceSum for the global form), and the p-th root. float.
std::size_t lp_pool(ir::Graph& g, std::size_t index, std::string* why);

// data_movement.cpp (more)
/// Compress with a constant condition as Gather of the kept indices (over the flattened
/// input without an axis). Any dtype.
std::size_t compress_as_gather(ir::Graph& g, std::size_t index, std::string* why);
/// CenterCropPad with a static input and a constant shape as Slice (crop, centred) and Pad
/// (zeros, centred). Any dtype.
std::size_t center_crop_pad(ir::Graph& g, std::size_t index, std::string* why);
/// Gather with constant indices naming one run of consecutive positions (x[:, -1]) as Slice,
/// then a Reshape dropping the axis for a scalar index. Exact, any dtype.
std::size_t gather_as_slice(ir::Graph& g, std::size_t index, std::string* why);

// integer_ops.cpp
/// ONNX Runtime's quantised operator format as float arithmetic: QLinearConv / QLinearMatMul
/// as DequantizeLinear, the float op on dequantised constant weights (and bias), and
/// QuantizeLinear; ConvInteger / MatMulInteger as Cast, Sub of the zero point, the float
/// op, Cast to int32 (exact while |sum| < 2^24); DynamicQuantizeLinear from reductions and
/// Round / Clip / Cast. Constant weights, scales and zero points.
std::size_t integer_ops(ir::Graph& g, std::size_t index, std::string* why);

}  // namespace ec::passes::decompose
