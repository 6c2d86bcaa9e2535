// The rules of FuseActivation (fuse_activation.cpp), the one pass that folds an
// activation into the op before it: which ops take a fused activation and which
// activations the graph's consumer applies fused. Which activation op (or pattern) is
// which ir::Activation, and when it is the sole reader, the pass alone decides.
#pragma once

#include <bitset>
#include <functional>
#include <memory>
#include <vector>

#include "core/ir/activation.h"
#include "core/passes/pass.h"

namespace ec::passes {

struct ActivationFusion {
  std::vector<ir::OpKind> producers;
  std::bitset<ir::kActivationCount> activations;  // by ir::Activation
  /// Also through one Reshape between the op and the activation (the Reshape then writes
  /// the activation's output).
  bool through_reshape = false;
  /// Only ops whose result is f32 (the CPU kernels apply fused activations to f32
  /// results; int8 ops fold theirs as tables, InferenceSession::fuse_int8_tables).
  bool f32_only = false;
  /// Leave ops with op-level quantisation (and quantised activations) alone.
  bool skip_quantised = true;
  /// The consumer's own condition on a pair the rules allow (e.g. the TFLite writer: the
  /// activation keeps the op's quantisation, and the op is written as an operator with a
  /// fused activation field); empty = every allowed pair.
  std::function<bool(const ir::Graph& g, const ir::Operation& producer, const ir::Operation& activation)> accepts;

  void allow(ir::Activation a) { activations.set(static_cast<std::size_t>(a)); }
  bool allows(ir::Activation a) const { return activations.test(static_cast<std::size_t>(a)); }

  /// The registered pass's (make_fuse_activation_pass(), pass_registry.h): Conv, Gemm,
  /// MatMul, FullyConnected with RELU, RELU6, RELU_N1_TO_1, SIGMOID or TANH, which every
  /// writer (TFLite, ONNX, Core ML) can express.
  static ActivationFusion portable();
  /// The CPU runtime's, applied by InferenceSession at load: also BatchNormalization,
  /// Add, Sub, Mul, Div; also HARD_SWISH, SILU (x * Sigmoid(x)), GELU, GELU_TANH; through
  /// a Reshape; f32 results only; op-level quantisation ignored.
  static ActivationFusion cpu_runtime();
  // The TFLite writer's (core/backends/tflite: RELU, RELU6, RELU_N1_TO_1 into the operators
  // with a fused_activation_function field, quantised graphs too) is declared there.
};

/// FuseActivation with other rules than the registered pass's (the session's
/// cpu_runtime()); the same name and statistics.
std::unique_ptr<Pass> make_fuse_activation_pass(ActivationFusion rules);

}  // namespace ec::passes
