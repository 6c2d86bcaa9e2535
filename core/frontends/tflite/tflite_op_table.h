// The ONE table of TFLite builtin operators the reader (tflite_frontend.cpp) and
// the writer (core/backends/tflite/tflite_writer.cpp) map one to one: each row
// names the IR op, the BuiltinOperator code, the operator's inputs, its builtin
// options table and the two functions that convert it (flatbuffer options -> IR
// attributes, IR attributes -> flatbuffer options). A simple op is one row here
// and nothing else: the reader and the writer look it up before their special
// cases (the ops that take decompositions, layout or quantisation work, which
// keep one named function each in their own file).
//
// Lives in the frontends layer: the writer (backends) may use it, the reader may
// not use the backends (EC_CORE_LAYERS).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/graph.h"

namespace ec::frontends::tflite_ops {

/// Sets the IR op's attributes from the operator's builtin options (absent options:
/// TFLite's defaults). May also set attributes the op always has in TFLite.
using ReadOptions = void (*)(const tflite::Operator& op, ir::Operation& out);
/// Writes the IR op's attributes as the row's builtin options table.
using WriteOptions = flatbuffers::Offset<void> (*)(flatbuffers::FlatBufferBuilder& fbb, const ir::Operation& op);
/// Why the writer cannot write the op (in graph `g`) as the row's operator ("" when it can).
using WriteCheck = std::string (*)(const ir::Graph& g, const ir::Operation& op);

struct OpRow {
  ir::OpKind kind;                  // the IR op
  tflite::BuiltinOperator code;     // its TFLite operator
  int inputs;                       // operator inputs, in the IR op's order (one output)
  tflite::BuiltinOptions options;   // its builtin options table (NONE: none)
  ReadOptions read;                 // nullptr: no attributes
  WriteOptions write;               // nullptr: no options table written
  WriteCheck check;                 // nullptr: every op of the kind is written
  int int8_version;                 // the operator version written for int8 inputs (1 otherwise)
  bool reads = true;                // the reader maps `code` by this row
  bool writes = true;               // the writer maps `kind` by this row
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
