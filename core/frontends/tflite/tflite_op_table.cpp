// The TFLite operator table (tflite_op_table.h): one row per operator the reader
// and the writer map one to one.
#include "core/frontends/tflite/tflite_op_table.h"

#include <array>

namespace ec::frontends::tflite_ops {
namespace {

using B = tflite::BuiltinOperator;
using K = ir::OpKind;
using O = tflite::BuiltinOptions;
namespace fb = flatbuffers;

// ---- options: flatbuffer -> attributes, attributes -> flatbuffer

void read_gelu(const tflite::Operator& op, ir::Operation& out) {
  const auto* o = op.builtin_options_as_GeluOptions();
  out.attributes["approximate"] = std::string(o && o->approximate() ? "tanh" : "none");
}
fb::Offset<void> write_gelu(fb::FlatBufferBuilder& fbb, const ir::Operation& op) {
  return tflite::CreateGeluOptions(fbb, op.attr_string("approximate", "none") == "tanh").Union();
}

void read_leaky_relu(const tflite::Operator& op, ir::Operation& out) {
  const auto* o = op.builtin_options_as_LeakyReluOptions();
  out.attributes["alpha"] = double(o ? o->alpha() : 0.2f);
}
fb::Offset<void> write_leaky_relu(fb::FlatBufferBuilder& fbb, const ir::Operation& op) {
  return tflite::CreateLeakyReluOptions(fbb, static_cast<float>(attr_float(op, "alpha", 0.01))).Union();
}

// L2_NORMALIZATION: over the last axis, p = 2 (its options hold only an activation, never set).
void read_l2_norm(const tflite::Operator&, ir::Operation& out) {
  out.attributes["axis"] = std::int64_t{-1};
  out.attributes["p"] = std::int64_t{2};
}

fb::Offset<void> write_l2_norm(fb::FlatBufferBuilder& fbb, const ir::Operation&) {
  return tflite::CreateL2NormOptions(fbb).Union();
}

// Operators whose options table is empty: written so, as TFLite's converter writes them.
template <typename Options, fb::Offset<Options> (*Create)(fb::FlatBufferBuilder&)>
fb::Offset<void> write_empty(fb::FlatBufferBuilder& fbb, const ir::Operation&) {
  return Create(fbb).Union();
}

// ---- what the writer cannot write as the row's operator

std::string check_elu(const ir::Graph&, const ir::Operation& op) {
  return attr_float(op, "alpha", 1.0) != 1.0 ? "alpha other than 1 (TFLite's ELU has none)" : "";
}
std::string check_two_inputs(const ir::Graph&, const ir::Operation& op) {
  return op.inputs.size() != 2 ? "only two inputs" : "";
}
std::string check_l2_norm(const ir::Graph& g, const ir::Operation& op) {
  if (op.attr_int("p", 2) != 2) return "p other than 2";
  const auto axis = op.attr_int("axis", -1);
  const ir::Tensor* x = g.find_tensor(op.inputs[0]);
  if (axis != -1 && (!x || axis != static_cast<std::int64_t>(x->shape.rank()) - 1)) return "axis other than the last";
  return {};
}

//  kind            code               in  options table                 read              write                 check             int8 version
constexpr std::array kRows{
    // activations
    OpRow{K::Relu,      B::RELU,           1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::Sigmoid,   B::LOGISTIC,       1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::Tanh,      B::TANH,           1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::HardSwish, B::HARD_SWISH,     1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Elu,       B::ELU,            1, O::NONE, nullptr, nullptr, check_elu, 2},
    OpRow{K::Gelu,      B::GELU,           1, O::GeluOptions, read_gelu, write_gelu, nullptr, 2},
    OpRow{K::LeakyRelu, B::LEAKY_RELU,     1, O::LeakyReluOptions, read_leaky_relu, write_leaky_relu, nullptr, 2},
    OpRow{K::PRelu,     B::PRELU,          2, O::NONE, nullptr, nullptr, nullptr, 1},
    // elementwise maths
    OpRow{K::Exp,       B::EXP,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Log,       B::LOG,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Sqrt,      B::SQRT,           1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Abs,       B::ABS,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Neg,       B::NEG,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Floor,     B::FLOOR,          1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Ceil,      B::CEIL,           1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Round,     B::ROUND,          1, O::NONE, nullptr, nullptr, nullptr, 1},  // both round half to even
    OpRow{K::Sin,       B::SIN,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Cos,       B::COS,            1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Sign,      B::SIGN,           1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Max,       B::MAXIMUM,        2, O::MaximumMinimumOptions, nullptr,
          write_empty<tflite::MaximumMinimumOptions, tflite::CreateMaximumMinimumOptions>, check_two_inputs, 2},
    OpRow{K::Min,       B::MINIMUM,        2, O::MaximumMinimumOptions, nullptr,
          write_empty<tflite::MaximumMinimumOptions, tflite::CreateMaximumMinimumOptions>, check_two_inputs, 2},
    OpRow{K::LpNormalization, B::L2_NORMALIZATION, 1, O::L2NormOptions, read_l2_norm,
          write_l2_norm, check_l2_norm, 2},
    // read only: the writer's special cases write these IR ops otherwise (logic and
    // shape_op, whose tensors and options are written in another order; per_axis for a
    // LogSoftmax over another axis; integer_arithmetic for the types TFLite lacks)
    OpRow{K::And,       B::LOGICAL_AND,    2, O::LogicalAndOptions, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::Or,        B::LOGICAL_OR,     2, O::LogicalOrOptions, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::Not,       B::LOGICAL_NOT,    1, O::LogicalNotOptions, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::Where,     B::SELECT_V2,      3, O::SelectV2Options, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::Range,     B::RANGE,          3, O::RangeOptions, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::LogSoftmax, B::LOG_SOFTMAX,   1, O::NONE, nullptr, nullptr, nullptr, 1, true, false},
    OpRow{K::Pow,       B::POW,            2, O::NONE, nullptr, nullptr, nullptr, 1, true, false},
    // ONNX's Mod (fmod 0) takes the divisor's sign, as FLOOR_MOD does (the writer normalises
    // runtime Gather indices with it)
    OpRow{K::Mod,       B::FLOOR_MOD,      2, O::NONE, nullptr, nullptr, nullptr, 1, true, false},
};

}  // namespace

double attr_float(const ir::Operation& op, const std::string& key, double fallback) {
  const ir::Attribute* a = op.attr(key);
  if (!a) return fallback;
  if (const auto* d = std::get_if<double>(a)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(a)) return static_cast<double>(*i);
  return fallback;
}

std::span<const OpRow> op_table() { return kRows; }

const OpRow* row_for_code(tflite::BuiltinOperator code) {
  for (const auto& r : kRows)
    if (r.reads && r.code == code) return &r;
  return nullptr;
}

const OpRow* row_for_kind(ir::OpKind kind) {
  for (const auto& r : kRows)
    if (r.writes && r.kind == kind) return &r;
  return nullptr;
}

}  // namespace ec::frontends::tflite_ops
