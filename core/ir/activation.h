// The activations an op can carry fused into it (its `fused_activation` attribute,
// ops.def): ONE enum and ONE table giving each its name, the text the .eir form, the
// JSON reports and the workbench show ("RELU6"), and its clamp bounds when it is a
// clamp. The FuseActivation pass sets it; the kernels, the quantiser and the writers
// read it through fused_activation() below, never by comparing names.
//
// The attribute stays a string in the IR (the Attribute variant is a closed set of
// JSON-like values, and the text form, goldens and reports print it as before); this
// header is the only place that turns it into the enum and back.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/ir/graph.h"

namespace ec::ir {

/// An activation fused into its producer. TFLite's SIGN_BIT has no member: the TFLite
/// reader refuses it (no kernel or writer has a form for it).
enum class Activation : std::uint8_t {
  None,
  Relu,       // max(x, 0)
  Relu6,      // min(max(x, 0), 6)
  ReluN1To1,  // min(max(x, -1), 1)
  Sigmoid,    // 1 / (1 + exp(-x))
  Tanh,
  HardSwish,  // x * relu6(x + 3) / 6
  SiLU,       // x * sigmoid(x)
  Gelu,       // x/2 (1 + erf(x / sqrt 2))
  GeluTanh,   // Gelu approximate="tanh"
};
inline constexpr std::size_t kActivationCount = 10;

struct ActivationInfo {
  Activation activation;
  std::string_view name;  // the attribute's text
  bool clamp;             // min(max(x, lo), hi): kernels fold it into their epilogue
  float lo, hi;           // clamp bounds; infinite where open (None: both)
};

/// Every activation, in enum order (a static_assert keeps the two in step).
const std::array<ActivationInfo, kActivationCount>& activation_table();
inline const ActivationInfo& activation_info(Activation a) { return activation_table()[static_cast<std::size_t>(a)]; }
/// "NONE", "RELU", "RELU6", "RELU_N1_TO_1", "SIGMOID", "TANH", "HARD_SWISH", "SILU", "GELU", "GELU_TANH".
inline std::string_view activation_name(Activation a) { return activation_info(a).name; }
/// The activation named `name` (the attribute's text); nullopt for any other text.
std::optional<Activation> activation_from_name(std::string_view name);
/// The names of activation_table(), comma-separated (for messages).
std::string activation_names();

/// The attribute's key.
inline constexpr std::string_view kFusedActivationAttr = "fused_activation";

/// The op's fused activation: None when the attribute is absent. Throws GraphError
/// naming the op when it holds a name activation_table() does not know (a typo in a
/// hand-written .eir).
Activation fused_activation(const Operation& op);
/// Sets the attribute to `a`'s name ("NONE" included: readers that copy TFLite's
/// options write it explicitly).
void set_fused_activation(Operation& op, Activation a);
/// Removes the attribute (the op then has none).
void clear_fused_activation(Operation& op);

}  // namespace ec::ir
