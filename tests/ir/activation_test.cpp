// The activation enum and its name table (core/ir/activation.h): every member's name
// reads back as that member, the op accessor reads and writes the attribute the .eir form
// prints, and an unknown name is an error (validate() and the accessor) rather than a
// silent NONE.
#include <gtest/gtest.h>

#include <limits>
#include <set>
#include <string>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/ir/text_format.h"
#include "core/ir/validate.h"
#include "ir_test_util.h"

namespace ec::ir {
namespace {

TEST(Activation, NameTableRoundTrips) {
  std::set<std::string_view> names;
  for (std::size_t i = 0; i < kActivationCount; ++i) {
    const auto a = static_cast<Activation>(i);
    EXPECT_EQ(activation_info(a).activation, a);
    const std::string_view name = activation_name(a);
    EXPECT_TRUE(names.insert(name).second) << name << " named twice";
    ASSERT_TRUE(activation_from_name(name)) << name;
    EXPECT_EQ(*activation_from_name(name), a) << name;
  }
  // The texts the .eir files, JSON reports and goldens carry, unchanged.
  EXPECT_EQ(names, (std::set<std::string_view>{"NONE", "RELU", "RELU6", "RELU_N1_TO_1", "SIGMOID", "TANH",
                                               "HARD_SWISH", "SILU", "GELU", "GELU_TANH"}));
  for (const char* other : {"", "relu", "Relu", "SIGN_BIT", "ELU", "RELU "}) EXPECT_FALSE(activation_from_name(other)) << other;
}

TEST(Activation, ClampBounds) {
  const auto bounds = [](Activation a) { return std::pair(activation_info(a).lo, activation_info(a).hi); };
  constexpr float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(bounds(Activation::None), std::pair(-inf, inf));
  EXPECT_EQ(bounds(Activation::Relu), std::pair(0.f, inf));
  EXPECT_EQ(bounds(Activation::Relu6), std::pair(0.f, 6.f));
  EXPECT_EQ(bounds(Activation::ReluN1To1), std::pair(-1.f, 1.f));
  for (Activation a : {Activation::None, Activation::Relu, Activation::Relu6, Activation::ReluN1To1})
    EXPECT_TRUE(activation_info(a).clamp) << activation_name(a);
  for (Activation a : {Activation::Sigmoid, Activation::Tanh, Activation::HardSwish, Activation::SiLU, Activation::Gelu,
                       Activation::GeluTanh})
    EXPECT_FALSE(activation_info(a).clamp) << activation_name(a);
}

TEST(Activation, OperationAccessorReadsAndWritesTheAttribute) {
  Graph g = test_util::make_conv_relu();
  Operation& conv = g.ops[0];
  EXPECT_EQ(fused_activation(conv), Activation::None);  // absent
  for (std::size_t i = 0; i < kActivationCount; ++i) {
    const auto a = static_cast<Activation>(i);
    set_fused_activation(conv, a);
    EXPECT_EQ(conv.attr_string("fused_activation", ""), activation_name(a));
    EXPECT_EQ(fused_activation(conv), a);
  }
  set_fused_activation(conv, Activation::Relu6);
  // The text form prints it as before and reads it back.
  const std::string text = print(g);
  EXPECT_NE(text.find("fused_activation = \"RELU6\""), std::string::npos) << text;
  EXPECT_EQ(fused_activation(parse(text).ops[0]), Activation::Relu6);
  clear_fused_activation(conv);
  EXPECT_FALSE(conv.attr("fused_activation"));
  EXPECT_EQ(fused_activation(conv), Activation::None);
}

TEST(Activation, UnknownNameIsAnError) {
  Graph g = test_util::make_conv_relu();
  g.ops[0].attributes["fused_activation"] = std::string("RELU7");
  EXPECT_THROW(fused_activation(g.ops[0]), GraphError);
  bool flagged = false;
  for (const auto& issue : validate(g))
    flagged |= issue.severity == ValidationIssue::Severity::Error && issue.message.find("RELU7") != std::string::npos;
  EXPECT_TRUE(flagged);
  g.ops[0].attributes["fused_activation"] = std::string("RELU");
  for (const auto& issue : validate(g)) EXPECT_NE(issue.severity, ValidationIssue::Severity::Error) << issue.message;
}

}  // namespace
}  // namespace ec::ir
