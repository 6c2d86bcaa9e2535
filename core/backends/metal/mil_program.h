// An ML Program (Core ML's MIL) held in memory before it is serialised: ops
// over named values, constants as separate `const` ops (as coremltools writes
// them), one function "main" with one block in one opset. The lowering
// (lower.cpp) builds it; mlpackage_writer.cpp turns it into Model.proto bytes
// and weight.bin; check_program() is the writer's own check of it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/dtype.h"

namespace ec::backends::metal {

/// A MIL tensor type: element type and shape (-1 = unknown dim).
struct MilType {
  ir::DType dtype = ir::DType::Float32;
  std::vector<std::int64_t> shape;
  bool operator==(const MilType&) const = default;
};

/// A compile-time value: raw little-endian bytes in `type.dtype`, or strings.
struct MilValue {
  MilType type;
  std::vector<std::uint8_t> bytes;   // numeric and bool (1 byte per bool)
  std::vector<std::string> strings;  // STRING tensors
  std::int64_t num_elements() const;
};

struct MilOp {
  std::string type;  // "conv", "const", ...
  std::string name;  // the `name` attribute (= the first output's name)
  /// Named inputs; each binds one or more previously defined values by name
  /// (a tuple input such as concat's `values` binds several).
  std::vector<std::pair<std::string, std::vector<std::string>>> inputs;
  std::vector<std::pair<std::string, MilType>> outputs;
  /// Attributes besides `name`: `val` of a const op; the parameters of a
  /// constexpr_* op for opsets up to iOS17, which take them as attributes.
  std::map<std::string, MilValue> attributes;
  std::string source_op;  // the IR op this was lowered from ("" for boundary casts)
};

struct MilProgram {
  int spec_version = 7;           // Model.specificationVersion
  std::string opset = "CoreML6";  // Function.opset and the block's key
  std::vector<std::pair<std::string, MilType>> inputs;   // function inputs
  std::vector<MilOp> ops;
  std::vector<std::string> outputs;  // block outputs
  std::map<std::string, std::string> metadata;  // Model description's userDefined
};

/// True when `s` matches MIL's identifier rule [A-Za-z_][A-Za-z0-9_@]*.
bool is_mil_identifier(const std::string& s);

/// The writer's own check (Core ML's validator skips ML Programs on Linux):
/// identifiers are valid; every input binding names a value defined before it
/// (function input or earlier op output); names are unique; every block output
/// exists; the opset agrees with the spec version; every op is one the opset
/// defines, with the inputs its definition requires. Throws BackendError
/// naming the op and what is wrong.
void check_program(const MilProgram& p);

/// Smallest opset index of an opset name: "CoreML5" -> 15 (iOS15), "CoreML6" -> 16,
/// "CoreML7" -> 17, "CoreML8" -> 18; 0 for an unknown name.
int opset_ios(const std::string& opset);

}  // namespace ec::backends::metal
