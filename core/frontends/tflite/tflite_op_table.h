// The ONE table of TFLite builtin operators the reader (tflite_frontend.cpp) and
// the writer (core/backends/tflite/tflite_writer.cpp) both map from a row: each
// row names the IR op, the BuiltinOperator code, the operator's inputs (tensors,
// a constant int list the IR holds as an attribute, or all of them), its builtin
// options table and the two functions that convert it (flatbuffer options -> IR
// attributes, IR attributes -> flatbuffer options), its fused activation, what the
// writer refuses and which inputs the writer's special case takes instead. A new
// op is one row here and nothing else: the reader and the writer look it up before
// their special cases (the ops that take decompositions, layout or quantisation
// work, which keep one named case each in their own file).
//
// Lives in the frontends layer: the writer (backends) may use it, the reader may
// not use the backends (EC_CORE_LAYERS).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/activation.h"
#include "core/ir/graph.h"

namespace ec::frontends::tflite_ops {

// ---- fused activations: the one place TFLite's codes meet the IR's form

/// The IR's form of a fused activation (core/ir/activation.h).
using IrActivation = ir::Activation;
/// TFLite's fused activation as the IR's; nullopt for SIGN_BIT and codes the schema does not
/// have (no kernel or writer has a form for them).
std::optional<IrActivation> fused_activation_to_ir(tflite::ActivationFunctionType a);
/// The IR's fused activation as TFLite's code; nullopt for those TFLite has no fused form for
/// (SIGMOID, HARD_SWISH, SILU, GELU, GELU_TANH).
std::optional<tflite::ActivationFunctionType> fused_activation_from_ir(IrActivation a);

/// TFLite's tensor type of an IR dtype (nullopt: TFLite has none).
std::optional<tflite::TensorType> tensor_type(ir::DType d);

// ---- what a row's functions are given

/// What the reader offers a row's options reader: the operator and its tensors as read so far.
class ReadContext {
 public:
  virtual ~ReadContext() = default;
  virtual const tflite::Operator& op() const = 0;
  /// The operator's i-th input / output tensor (present: the reader checked the row's arity).
  virtual const ir::Tensor& input(std::size_t i) const = 0;
  virtual const ir::Tensor& output(std::size_t i) const = 0;
  /// Refuses the file: "operator N (NAME)" + problem.
  [[noreturn]] virtual void fail(const std::string& problem) const = 0;
};

/// What the writer offers a row's options writer.
struct WriteContext {
  flatbuffers::FlatBufferBuilder& fbb;
  const ir::Graph& graph;
  /// The fused activation the writer folded into the operator (Act::following), else NONE.
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType::NONE;
};

/// Sets the IR op's attributes from the operator's builtin options (absent options:
/// TFLite's defaults). May also set attributes the op always has in TFLite. Returns
/// false when the options say what the IR op cannot (the operator stays opaque).
using ReadOptions = bool (*)(const ReadContext& c, ir::Operation& out);
/// The fused activation in the operator's builtin options (absent options: NONE).
using ReadActivation = tflite::ActivationFunctionType (*)(const tflite::Operator& op);
/// Writes the IR op's attributes as the row's builtin options table.
using WriteOptions = flatbuffers::Offset<void> (*)(const WriteContext& c, const ir::Operation& op);
/// Why the writer cannot write the op (in graph `g`) as the row's operator ("" when it can).
using WriteCheck = std::string (*)(const ir::Graph& g, const ir::Operation& op);
/// True when the writer's special case writes this op instead (other operators for these inputs).
using WriteSpecial = bool (*)(const ir::Graph& g, const ir::Operation& op);
/// The operator version written (when it is not `int8_version` for int8 inputs, 1 otherwise).
using WriteVersion = int (*)(const ir::Graph& g, const ir::Operation& op);
/// The values the writer writes for an int-list attribute (defaults filled in, axes counted from the start).
using WriteInts = std::vector<std::int64_t> (*)(const ir::Graph& g, const ir::Operation& op);

/// How a row treats TFLite's fused activation.
enum class Act : std::uint8_t {
  none,       // the operator has none
  following,  // read as a following Relu/Clip op; the writer folds such an op back in
  read_only,  // read as a following op; written NONE (the kernel refuses one)
};

/// An operator input that is a constant int list in the file and an attribute in the IR.
struct IntsInput {
  int index = -1;                // the operator's input (-1: none); the IR op's inputs are the others
  const char* attr = nullptr;    // the IR attribute
  const char* suffix = nullptr;  // the written int32 constant is named <output><suffix>
  const char* what = nullptr;    // named so when the reader refuses it ("must be a constant")
  WriteInts values = nullptr;    // what the writer writes (nullptr: the attribute's list)
  bool one = false;              // the attribute is one int (the file's list holds one value)
};

struct OpRow {
  ir::OpKind kind;                  // the IR op
  tflite::BuiltinOperator code;     // its TFLite operator
  int inputs;                       // tensor inputs in the IR op's order (-1: all, at least one); one output
  tflite::BuiltinOptions options;   // its builtin options table (NONE: none)
  ReadOptions read;                 // nullptr: no attributes
  WriteOptions write;               // nullptr: no options table written
  WriteCheck check;                 // nullptr: every op of the kind is written
  int int8_version;                 // the operator version written for int8 inputs (1 otherwise)
  bool reads = true;                // the reader maps `code` by this row
  bool writes = true;               // the writer maps `kind` by this row
  Act act = Act::none;              // the fused activation
  ReadActivation read_act = nullptr;  // reads it (act != none)
  IntsInput ints = {};              // a constant int-list input held as an attribute
  WriteSpecial special = nullptr;   // nullptr: the row writes every op it does not refuse
  WriteVersion version = nullptr;   // nullptr: int8_version for int8 inputs, else 1
  // The order the writer adds the operator's parts to the flatbuffer: 'o' the options
  // table, 'y' the output, a digit that operator input, '*' the inputs not yet added.
  // Any order makes a valid file; each row keeps the one its files have always had
  // (byte-identical output), and 'y' comes before 'o' when the activation is folded.
  const char* order = "oy*";
  // Attributes other than the defaults in the IR's text form ("{axis = 1}"), which
  // tflite_op_table_test writes and reads back; "" when the op has none.
  const char* sample = "";

  /// The number of operator inputs (-1: all).
  int operator_inputs() const { return inputs < 0 ? -1 : inputs + (ints.index >= 0 ? 1 : 0); }
};

/// A float attribute (an int one widened), or `fallback` when absent.
double attr_float(const ir::Operation& op, const std::string& key, double fallback);

/// Every row, in the order of README.md's op table.
std::span<const OpRow> op_table();
/// The row the reader maps `code` by, or nullptr (a special case or not supported).
const OpRow* row_for_code(tflite::BuiltinOperator code);
/// The row the writer maps `kind` by, or nullptr (a special case or not supported).
const OpRow* row_for_kind(ir::OpKind kind);

}  // namespace ec::frontends::tflite_ops
