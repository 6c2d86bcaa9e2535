// TFLite's fused-activation codes (ActivationFunctionType) and the IR's activations
// (core/ir/activation.h), both ways: the one pair of functions the reader and the writer
// (core/backends/tflite) turn them with.
#pragma once

#include <optional>

#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/activation.h"

namespace ec::frontends::tflite_ops {

/// The IR's activation for a TFLite code; nullopt for SIGN_BIT and codes the schema does
/// not have (no kernel or writer has a form for them).
inline std::optional<ir::Activation> activation_from_tflite(::tflite::ActivationFunctionType a) {
  using A = ::tflite::ActivationFunctionType;
  switch (a) {
    case A::NONE: return ir::Activation::None;
    case A::RELU: return ir::Activation::Relu;
    case A::RELU_N1_TO_1: return ir::Activation::ReluN1To1;
    case A::RELU6: return ir::Activation::Relu6;
    case A::TANH: return ir::Activation::Tanh;
    default: return std::nullopt;
  }
}

/// TFLite's code for an IR activation; nullopt for those TFLite has no fused form for
/// (SIGMOID, HARD_SWISH, SILU, GELU, GELU_TANH).
inline std::optional<::tflite::ActivationFunctionType> activation_to_tflite(ir::Activation a) {
  using A = ::tflite::ActivationFunctionType;
  switch (a) {
    case ir::Activation::None: return A::NONE;
    case ir::Activation::Relu: return A::RELU;
    case ir::Activation::ReluN1To1: return A::RELU_N1_TO_1;
    case ir::Activation::Relu6: return A::RELU6;
    case ir::Activation::Tanh: return A::TANH;
    default: return std::nullopt;
  }
}

}  // namespace ec::frontends::tflite_ops
