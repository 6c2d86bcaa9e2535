#include "core/ir/activation.h"

#include <limits>

#include "core/errors.h"

namespace ec::ir {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// The key as the attribute map takes it (built once: kernels ask per run).
const std::string& key() {
  static const std::string k(kFusedActivationAttr);
  return k;
}

constexpr std::array<ActivationInfo, kActivationCount> kActivations{{
    {Activation::None, "NONE", true, -kInf, kInf},
    {Activation::Relu, "RELU", true, 0.f, kInf},
    {Activation::Relu6, "RELU6", true, 0.f, 6.f},
    {Activation::ReluN1To1, "RELU_N1_TO_1", true, -1.f, 1.f},
    {Activation::Sigmoid, "SIGMOID", false, -kInf, kInf},
    {Activation::Tanh, "TANH", false, -kInf, kInf},
    {Activation::HardSwish, "HARD_SWISH", false, -kInf, kInf},
    {Activation::SiLU, "SILU", false, -kInf, kInf},
    {Activation::Gelu, "GELU", false, -kInf, kInf},
    {Activation::GeluTanh, "GELU_TANH", false, -kInf, kInf},
}};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kActivations.size(); ++i)
    if (static_cast<std::size_t>(kActivations[i].activation) != i) return false;
  return true;
}
static_assert(in_enum_order(), "kActivations must list every Activation in enum order");
static_assert(static_cast<std::size_t>(Activation::GeluTanh) + 1 == kActivationCount, "kActivationCount is stale");

}  // namespace

const std::array<ActivationInfo, kActivationCount>& activation_table() { return kActivations; }

std::optional<Activation> activation_from_name(std::string_view name) {
  for (const ActivationInfo& a : kActivations)
    if (a.name == name) return a.activation;
  return std::nullopt;
}

std::string activation_names() {
  std::string s;
  for (const ActivationInfo& a : kActivations) (s += s.empty() ? "" : ", ") += a.name;
  return s;
}

Activation fused_activation(const Operation& op) {
  const auto it = op.attributes.find(key());
  if (it == op.attributes.end()) return Activation::None;
  const auto* s = std::get_if<std::string>(&it->second);
  const std::optional<Activation> a = s ? activation_from_name(*s) : std::nullopt;
  if (!a)
    throw GraphError("op '" + (op.name.empty() ? op.op_type : op.name) + "' (" + op.op_type + "): unknown " +
                     std::string(kFusedActivationAttr) + (s ? " '" + *s + "'" : std::string(" (not a string)")) +
                     "; known: " + activation_names());
  return *a;
}

void set_fused_activation(Operation& op, Activation a) {
  op.attributes[key()] = std::string(activation_name(a));
}

void clear_fused_activation(Operation& op) { op.attributes.erase(key()); }

}  // namespace ec::ir
