// ONE table of the MIL ops this backend writes and the Core ML frontend reads:
// per op the first opset that defines it and each input with the opset it
// appears in and its type class, as coremltools' op definitions give them
// (coremltools/converters/mil/mil/ops/defs/iOS15..iOS18; see README.md).
// check_program() holds every written op against it.
#pragma once

#include <span>
#include <string_view>

namespace ec::backends::metal {

/// Type class of an op input: the float type of the op's `x` (T), or fixed.
enum class MilIn : unsigned char { T, Int32, Bool, String, Indices, Any };

struct MilInputDef {
  std::string_view name;
  MilIn type;
  bool required;
  int since_ios = 15;  // first opset (iOS version) that has this input
  bool tuple = false;  // binds several values (concat's values)
};

struct MilOpDef {
  std::string_view type;
  int since_ios;  // iOS15 = CoreML5 ...
  std::span<const MilInputDef> inputs;
  bool attribute_params_until_ios17 = false;  // constexpr_*: parameters are attributes up to iOS17
  int fp16_since_ios = 15;  // T is fp32 only before this opset (lstm, gru: fp16 from iOS17/recurrent.py)
};

std::span<const MilOpDef> mil_op_table();
const MilOpDef* find_mil_op(std::string_view type);

}  // namespace ec::backends::metal
