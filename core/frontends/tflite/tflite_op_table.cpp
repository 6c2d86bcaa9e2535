// The TFLite operator table (tflite_op_table.h): one row per operator the reader
// and the writer both map from a row.
#include "core/frontends/tflite/tflite_op_table.h"

#include <array>

#include "core/ir/algorithms.h"

namespace ec::frontends::tflite_ops {

std::optional<IrActivation> fused_activation_to_ir(tflite::ActivationFunctionType a) {
  using A = tflite::ActivationFunctionType;
  switch (a) {
    case A::NONE: return ir::Activation::None;
    case A::RELU: return ir::Activation::Relu;
    case A::RELU6: return ir::Activation::Relu6;
    case A::RELU_N1_TO_1: return ir::Activation::ReluN1To1;
    case A::TANH: return ir::Activation::Tanh;
    default: return std::nullopt;
  }
}

std::optional<tflite::ActivationFunctionType> fused_activation_from_ir(IrActivation a) {
  using A = tflite::ActivationFunctionType;
  switch (a) {
    case ir::Activation::None: return A::NONE;
    case ir::Activation::Relu: return A::RELU;
    case ir::Activation::Relu6: return A::RELU6;
    case ir::Activation::ReluN1To1: return A::RELU_N1_TO_1;
    case ir::Activation::Tanh: return A::TANH;
    default: return std::nullopt;
  }
}

std::optional<tflite::TensorType> tensor_type(ir::DType d) {
  using T = tflite::TensorType;
  switch (d) {
    case ir::DType::Float32: return T::FLOAT32;
    case ir::DType::Float16: return T::FLOAT16;
    case ir::DType::Float64: return T::FLOAT64;
    case ir::DType::Int32: return T::INT32;
    case ir::DType::UInt8: return T::UINT8;
    case ir::DType::Int64: return T::INT64;
    case ir::DType::String: return T::STRING;
    case ir::DType::Bool: return T::BOOL;
    case ir::DType::Int16: return T::INT16;
    case ir::DType::Int8: return T::INT8;
    case ir::DType::UInt32: return T::UINT32;
    case ir::DType::UInt16: return T::UINT16;
    case ir::DType::UInt64: return T::UINT64;
    default: return std::nullopt;
  }
}

namespace {

using A = tflite::ActivationFunctionType;
using B = tflite::BuiltinOperator;
using K = ir::OpKind;
using O = tflite::BuiltinOptions;
namespace fb = flatbuffers;

const ir::Tensor* input_tensor(const ir::Graph& g, const ir::Operation& op, std::size_t i) {
  return i < op.inputs.size() && !op.inputs[i].empty() ? g.find_tensor(op.inputs[i]) : nullptr;
}
std::string dtype_of(const ir::Tensor& t) { return std::string(ir::dtype_name(t.dtype)); }

// ---- options: flatbuffer -> attributes, attributes -> flatbuffer

// Operators whose options table is empty: written so, as TFLite's converter writes them.
template <typename Options, fb::Offset<Options> (*Create)(fb::FlatBufferBuilder&)>
fb::Offset<void> write_empty(const WriteContext& c, const ir::Operation&) {
  return Create(c.fbb).Union();
}
#define EC_EMPTY(Name) write_empty<tflite::Name, tflite::Create##Name>

bool read_gelu(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_GeluOptions();
  out.attributes["approximate"] = std::string(o && o->approximate() ? "tanh" : "none");
  return true;
}
fb::Offset<void> write_gelu(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateGeluOptions(c.fbb, op.attr_string("approximate", "none") == "tanh").Union();
}

bool read_leaky_relu(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_LeakyReluOptions();
  out.attributes["alpha"] = double(o ? o->alpha() : 0.2f);
  return true;
}
fb::Offset<void> write_leaky_relu(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateLeakyReluOptions(c.fbb, static_cast<float>(attr_float(op, "alpha", 0.01))).Union();
}

// L2_NORMALIZATION: over the last axis, p = 2 (its options hold only an activation, never set).
bool read_l2_norm(const ReadContext&, ir::Operation& out) {
  out.attributes["axis"] = std::int64_t{-1};
  out.attributes["p"] = std::int64_t{2};
  return true;
}
fb::Offset<void> write_l2_norm(const WriteContext& c, const ir::Operation&) {
  return tflite::CreateL2NormOptions(c.fbb).Union();
}

// ADD, SUB, MUL, DIV: options holding only the fused activation (any of the four is read).
A read_arith_act(const tflite::Operator& op) {
  A act = A::NONE;
  if (const auto* o = op.builtin_options_as_AddOptions()) act = o->fused_activation_function();
  if (const auto* o = op.builtin_options_as_SubOptions()) act = o->fused_activation_function();
  if (const auto* o = op.builtin_options_as_MulOptions()) act = o->fused_activation_function();
  if (const auto* o = op.builtin_options_as_DivOptions()) act = o->fused_activation_function();
  return act;
}
fb::Offset<void> write_add(const WriteContext& c, const ir::Operation&) { return tflite::CreateAddOptions(c.fbb, c.act).Union(); }
fb::Offset<void> write_sub(const WriteContext& c, const ir::Operation&) { return tflite::CreateSubOptions(c.fbb, c.act).Union(); }
fb::Offset<void> write_mul(const WriteContext& c, const ir::Operation&) { return tflite::CreateMulOptions(c.fbb, c.act).Union(); }
fb::Offset<void> write_div(const WriteContext& c, const ir::Operation&) { return tflite::CreateDivOptions(c.fbb, c.act).Union(); }
// 8- and 16-bit integers without quantisation params: computed in int32 (integer_arithmetic).
bool arith_on_plain_ints(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (!x) return false;
  const bool narrow = x->dtype == ir::DType::UInt8 || x->dtype == ir::DType::Int8 || x->dtype == ir::DType::Int16 ||
                      x->dtype == ir::DType::UInt16;
  return narrow && !x->quant;
}

// MEAN, SUM, REDUCE_*: (x, axes), keep_dims.
bool read_reducer(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_ReducerOptions();
  out.attributes["keepdims"] = std::int64_t{o && o->keep_dims() ? 1 : 0};
  return true;
}
fb::Offset<void> write_reducer(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateReducerOptions(c.fbb, op.attr_int("keepdims", 1) != 0).Union();
}
std::string check_reduce(const ir::Graph&, const ir::Operation& op) {
  if (op.inputs.size() > 1 && !op.inputs[1].empty()) return "axes computed at run time";
  if (op.attr_ints("axes").empty() && op.attr_int("noop_with_empty_axes", 0)) return "noop_with_empty_axes";
  return {};
}
// no axes: all of them
std::vector<std::int64_t> reduce_axes(const ir::Graph& g, const ir::Operation& op) {
  std::vector<std::int64_t> axes = op.attr_ints("axes");
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (axes.empty())
    for (std::size_t d = 0; x && d < x->shape.rank(); ++d) axes.push_back(static_cast<std::int64_t>(d));
  return axes;
}

// TRANSPOSE: (x, perm); no perm reverses the axes.
std::vector<std::int64_t> transpose_perm(const ir::Graph& g, const ir::Operation& op) {
  std::vector<std::int64_t> perm = op.attr_ints("perm");
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (perm.empty())
    for (auto i = static_cast<std::int64_t>(x ? x->shape.rank() : 0) - 1; i >= 0; --i) perm.push_back(i);
  return perm;
}
// TFLite's TRANSPOSE takes at most 5-D: a static wider one merges axes first (the writer's case).
bool transpose_above_5d(const ir::Graph& g, const ir::Operation& op) {
  const auto perm = transpose_perm(g, op);
  const ir::Tensor* x = input_tensor(g, op, 0);
  return perm.size() > 5 && x && x->shape.rank_known && x->shape.is_static() && x->shape.rank() == perm.size();
}

// CAST: the types are the tensors'.
bool read_cast(const ReadContext& c, ir::Operation& out) {
  out.attributes["to"] = dtype_of(c.output(0));
  return true;
}
fb::Offset<void> write_cast(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateCastOptions(c.fbb, *tensor_type(c.graph.find_tensor(op.inputs[0])->dtype),
                                   *tensor_type(c.graph.find_tensor(op.outputs[0])->dtype))
      .Union();
}
std::string check_cast(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* x = input_tensor(g, op, 0);
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  return !x || !y || !tensor_type(x->dtype) || !tensor_type(y->dtype) ? "types" : "";
}

// GATHER: axis (batch_dims 0 only).
bool read_gather(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_GatherOptions();
  if (o && o->batch_dims() != 0) return false;
  out.attributes["axis"] = std::int64_t{o ? o->axis() : 0};
  return true;
}
std::int64_t gather_axis(const ir::Graph& g, const ir::Operation& op) {
  std::int64_t axis = op.attr_int("axis", 0);
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (axis < 0 && x && x->shape.rank_known) axis += static_cast<std::int64_t>(x->shape.rank());
  return axis;
}
fb::Offset<void> write_gather(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateGatherOptions(c.fbb, static_cast<int>(gather_axis(c.graph, op))).Union();
}
// TFLite's GATHER takes no negative index (ONNX counts them from the end): constant
// negative indices and indices known only at run time along a static axis are the
// writer's case (counted from the start, or wrapped by FLOOR_MOD).
bool gather_wraps_indices(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* x = input_tensor(g, op, 0);
  const ir::Tensor* it = input_tensor(g, op, 1);
  if (!x || !it) return true;
  const std::int64_t axis = gather_axis(g, op);
  const bool static_axis = x->shape.rank_known && axis >= 0 && static_cast<std::size_t>(axis) < x->shape.rank() &&
                           x->shape.dims[static_cast<std::size_t>(axis)].is_static();
  if (!static_axis) return false;
  if (it->is_constant()) {
    const auto v = ir::constant_ints(*it);
    if (!v) return true;  // refused there
    for (auto i : *v)
      if (i < 0) return true;
    return false;
  }
  return it->dtype == ir::DType::Int32 || it->dtype == ir::DType::Int64;
}

// SOFTMAX / LOG_SOFTMAX: over the last axis (LegaliseTflite moves another one last).
bool read_softmax(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_SoftmaxOptions();
  if (o && o->beta() != 1.0f) return false;
  out.attributes["axis"] = std::int64_t{-1};
  return true;
}
fb::Offset<void> write_softmax(const WriteContext& c, const ir::Operation&) {
  return tflite::CreateSoftmaxOptions(c.fbb, 1.0f).Union();
}
std::string check_last_axis(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (!x || !x->shape.rank_known) return "an input of unknown rank";
  const auto r = static_cast<std::int64_t>(x->shape.rank());
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return "axis out of range";
  return axis != r - 1 ? "axis other than the last" : "";
}

// BATCH_MATMUL: MatMul of two tensors (a constant weight: FULLY_CONNECTED, the writer's case).
bool read_batch_matmul(const ReadContext& c, ir::Operation&) {
  const auto* o = c.op().builtin_options_as_BatchMatMulOptions();
  return !(o && (o->adj_x() || o->adj_y()));
}
fb::Offset<void> write_batch_matmul(const WriteContext& c, const ir::Operation&) {
  return tflite::CreateBatchMatMulOptions(c.fbb, false, false).Union();
}
bool constant_weight(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* w = input_tensor(g, op, 1);
  return !w || w->is_constant();
}

// CONCATENATION: axis (counted from the start on read).
bool read_concat(const ReadContext& c, ir::Operation& out) {
  const auto* o = c.op().builtin_options_as_ConcatenationOptions();
  if (!o) c.fail(" has no ConcatenationOptions");
  std::int64_t axis = o->axis();
  const auto rank = static_cast<std::int64_t>(c.output(0).shape.rank());
  if (axis < 0) axis += rank;
  if (axis < 0 || axis >= rank) c.fail(" axis " + std::to_string(o->axis()) + " is out of range");
  out.attributes["axis"] = axis;
  return true;
}
A read_concat_act(const tflite::Operator& op) {
  const auto* o = op.builtin_options_as_ConcatenationOptions();
  return o ? o->fused_activation_function() : A::NONE;
}
// no fused activation: TFLite's CONCATENATION kernel refuses one (and so does the Edge TPU)
fb::Offset<void> write_concat(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateConcatenationOptions(c.fbb, static_cast<int>(op.attr_int("axis", 0)), A::NONE).Union();
}
// TFLite's 8-bit CONCATENATION takes every input on the output's params (its quantisation
// spec): an input on others is requantised first (QUANTIZE, the writer's case).
bool concat_requantises(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* yt = g.find_tensor(op.outputs[0]);
  if (!yt || !yt->quant) return false;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const ir::Tensor* xt = input_tensor(g, op, i);
    if (!xt) return true;
    if (xt->quant && xt->quant != yt->quant && xt->dtype == yt->dtype && !xt->is_constant() && xt->shape.is_static())
      return true;
  }
  return false;
}

// Comparisons: operands of one type; version 2 on quantised ones.
std::string check_same_types(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor *a = input_tensor(g, op, 0), *b = input_tensor(g, op, 1);
  return a && b && a->dtype != b->dtype ? "inputs of two types" : "";
}
int version_if_quantised(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* a = input_tensor(g, op, 0);
  return a && a->quant ? 2 : 1;
}
// LOGICAL_*: bool only (as ONNX's logic ops).
std::string check_logic(const ir::Graph& g, const ir::Operation& op) {
  if (op.kind != K::Not)
    if (std::string why = check_same_types(g, op); !why.empty()) return why;
  const ir::Tensor* a = input_tensor(g, op, 0);
  if (a && a->dtype != ir::DType::Bool) return "on " + dtype_of(*a) + " (ONNX's logic ops take bool)";
  return {};
}
std::string check_select(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* a = input_tensor(g, op, 0);
  return a && a->dtype != ir::DType::Bool ? "a condition of type " + dtype_of(*a) : "";
}

// RANGE(start, limit, delta): ceil((limit - start) / delta) values, as ONNX's.
std::string check_range(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* s = input_tensor(g, op, 0);
  if (!s) return "no start";
  const ir::DType dt = s->dtype;
  if (dt != ir::DType::Float32 && dt != ir::DType::Int32) return "on " + dtype_of(*s) + " (TFLite's RANGE takes float32 or int32)";
  for (std::size_t i = 0; i < 3; ++i) {
    const ir::Tensor* a = input_tensor(g, op, i);
    if (!a) return "three inputs";
    if (a->dtype != dt) return "inputs of two types";
    if (!a->shape.rank_known || a->shape.num_elements().value_or(-1) != 1) return "inputs must be scalars";
  }
  return {};
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

// ARG_MAX / ARG_MIN: (x, axis), the index type; keepdims and select_last_index are the writer's case.
bool read_arg(const ReadContext&, ir::Operation& out) {
  out.attributes["keepdims"] = std::int64_t{0};
  return true;
}
fb::Offset<void> write_arg_max(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateArgMaxOptions(c.fbb, *tensor_type(c.graph.find_tensor(op.outputs[0])->dtype)).Union();
}
fb::Offset<void> write_arg_min(const WriteContext& c, const ir::Operation& op) {
  return tflite::CreateArgMinOptions(c.fbb, *tensor_type(c.graph.find_tensor(op.outputs[0])->dtype)).Union();
}
std::vector<std::int64_t> arg_axis(const ir::Graph& g, const ir::Operation& op) {
  std::int64_t axis = op.attr_int("axis", 0);
  if (axis < 0) axis += static_cast<std::int64_t>(input_tensor(g, op, 0)->shape.rank());
  return {axis};
}
std::string check_arg(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* x = input_tensor(g, op, 0);
  if (!x || !x->shape.rank_known) return "an input of unknown rank";
  const auto axis = arg_axis(g, op)[0];
  return axis < 0 || axis >= static_cast<std::int64_t>(x->shape.rank()) ? "axis out of range" : "";
}
// the last extreme index, keepdims (EXPAND_DIMS after) or another index type: the writer's case
bool arg_needs_more(const ir::Graph& g, const ir::Operation& op) {
  const ir::Tensor* y = g.find_tensor(op.outputs[0]);
  return op.attr_int("select_last_index", 0) != 0 || op.attr_int("keepdims", 1) != 0 || !y ||
         (y->dtype != ir::DType::Int32 && y->dtype != ir::DType::Int64);
}

constexpr IntsInput kReduceAxes{1, "axes", "/axes", "axes", reduce_axes};
constexpr IntsInput kPerm{1, "perm", "/perm", "permutation", transpose_perm};
constexpr IntsInput kArgAxis{1, "axis", "/axis", "axis", arg_axis, true};

// The arithmetic rows: a fused activation read as a following op and folded back on write.
constexpr OpRow arithmetic(K kind, B code, O options, WriteOptions write, int int8_version) {
  return OpRow{.kind = kind, .code = code, .inputs = 2, .options = options, .read = nullptr, .write = write,
               .check = nullptr, .int8_version = int8_version, .act = Act::following, .read_act = read_arith_act,
               .special = arith_on_plain_ints, .order = "yo*"};
}
constexpr OpRow reduce(K kind, B code) {
  return OpRow{.kind = kind, .code = code, .inputs = 1, .options = O::ReducerOptions, .read = read_reducer,
               .write = write_reducer, .check = check_reduce, .int8_version = 2, .ints = kReduceAxes,
               .sample = "{axes = [1], keepdims = 0}"};
}
constexpr OpRow arg(K kind, B code, O options, WriteOptions write) {
  return OpRow{.kind = kind, .code = code, .inputs = 1, .options = options, .read = read_arg, .write = write,
               .check = check_arg, .int8_version = 2, .ints = kArgAxis, .special = arg_needs_more, .order = "0y1o",
               .sample = "{axis = 1, keepdims = 0}"};
}
constexpr OpRow comparison(K kind, B code, O options, WriteOptions write) {
  return OpRow{.kind = kind, .code = code, .inputs = 2, .options = options, .read = nullptr, .write = write,
               .check = check_same_types, .int8_version = 1, .version = version_if_quantised, .order = "yo*"};
}
constexpr OpRow logical(K kind, B code, int inputs, O options, WriteOptions write, WriteCheck check) {
  return OpRow{.kind = kind, .code = code, .inputs = inputs, .options = options, .read = nullptr, .write = write,
               .check = check, .int8_version = 1, .order = "yo*"};
}

//  kind            code               in  options table                 read              write                 check             int8 version
constexpr std::array kRows{
    // activations
    OpRow{K::Relu,      B::RELU,           1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::Sigmoid,   B::LOGISTIC,       1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::Tanh,      B::TANH,           1, O::NONE, nullptr, nullptr, nullptr, 2},
    OpRow{K::HardSwish, B::HARD_SWISH,     1, O::NONE, nullptr, nullptr, nullptr, 1},
    OpRow{K::Elu,       B::ELU,            1, O::NONE, nullptr, nullptr, check_elu, 2},
    OpRow{.kind = K::Gelu, .code = B::GELU, .inputs = 1, .options = O::GeluOptions, .read = read_gelu,
          .write = write_gelu, .check = nullptr, .int8_version = 2, .sample = "{approximate = \"tanh\"}"},
    OpRow{.kind = K::LeakyRelu, .code = B::LEAKY_RELU, .inputs = 1, .options = O::LeakyReluOptions,
          .read = read_leaky_relu, .write = write_leaky_relu, .check = nullptr, .int8_version = 2,
          .sample = "{alpha = 0.5}"},
    OpRow{K::PRelu,     B::PRELU,          2, O::NONE, nullptr, nullptr, nullptr, 1},
    // elementwise maths
    arithmetic(K::Add, B::ADD, O::AddOptions, write_add, 2),
    arithmetic(K::Sub, B::SUB, O::SubOptions, write_sub, 2),
    arithmetic(K::Mul, B::MUL, O::MulOptions, write_mul, 2),
    arithmetic(K::Div, B::DIV, O::DivOptions, write_div, 1),
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
    OpRow{K::Max,       B::MAXIMUM,        2, O::MaximumMinimumOptions, nullptr, EC_EMPTY(MaximumMinimumOptions), check_two_inputs, 2},
    OpRow{K::Min,       B::MINIMUM,        2, O::MaximumMinimumOptions, nullptr, EC_EMPTY(MaximumMinimumOptions), check_two_inputs, 2},
    OpRow{K::Cast,      B::CAST,           1, O::CastOptions, read_cast, write_cast, check_cast, 1},
    // reductions
    reduce(K::ReduceMean, B::MEAN),
    reduce(K::ReduceSum, B::SUM),
    reduce(K::ReduceMax, B::REDUCE_MAX),
    reduce(K::ReduceMin, B::REDUCE_MIN),
    reduce(K::ReduceProd, B::REDUCE_PROD),
    // shape and data movement
    OpRow{.kind = K::Concat, .code = B::CONCATENATION, .inputs = -1, .options = O::ConcatenationOptions,
          .read = read_concat, .write = write_concat, .check = nullptr, .int8_version = 2, .act = Act::read_only,
          .read_act = read_concat_act, .special = concat_requantises, .order = "*yo", .sample = "{axis = 1}"},
    OpRow{.kind = K::Transpose, .code = B::TRANSPOSE, .inputs = 1, .options = O::TransposeOptions, .read = nullptr,
          .write = EC_EMPTY(TransposeOptions), .check = nullptr, .int8_version = 2, .ints = kPerm,
          .special = transpose_above_5d, .sample = "{perm = [1,0]}"},
    OpRow{.kind = K::Gather, .code = B::GATHER, .inputs = 2, .options = O::GatherOptions, .read = read_gather,
          .write = write_gather, .check = nullptr, .int8_version = 2, .special = gather_wraps_indices, .order = "1oy0",
          .sample = "{axis = 1}"},
    OpRow{.kind = K::Softmax, .code = B::SOFTMAX, .inputs = 1, .options = O::SoftmaxOptions, .read = read_softmax,
          .write = write_softmax, .check = check_last_axis, .int8_version = 2, .order = "y0o"},
    OpRow{.kind = K::LogSoftmax, .code = B::LOG_SOFTMAX, .inputs = 1, .options = O::LogSoftmaxOptions, .read = nullptr,
          .write = EC_EMPTY(LogSoftmaxOptions), .check = check_last_axis, .int8_version = 2, .order = "y0o"},
    arg(K::ArgMax, B::ARG_MAX, O::ArgMaxOptions, write_arg_max),
    arg(K::ArgMin, B::ARG_MIN, O::ArgMinOptions, write_arg_min),
    OpRow{.kind = K::MatMul, .code = B::BATCH_MATMUL, .inputs = 2, .options = O::BatchMatMulOptions,
          .read = read_batch_matmul, .write = write_batch_matmul, .check = nullptr, .int8_version = 2,
          .special = constant_weight},
    OpRow{K::LpNormalization, B::L2_NORMALIZATION, 1, O::L2NormOptions, read_l2_norm, write_l2_norm,
          check_l2_norm, 2},
    // comparison and logic
    comparison(K::Equal, B::EQUAL, O::EqualOptions, EC_EMPTY(EqualOptions)),
    comparison(K::Greater, B::GREATER, O::GreaterOptions, EC_EMPTY(GreaterOptions)),
    comparison(K::GreaterOrEqual, B::GREATER_EQUAL, O::GreaterEqualOptions, EC_EMPTY(GreaterEqualOptions)),
    comparison(K::Less, B::LESS, O::LessOptions, EC_EMPTY(LessOptions)),
    comparison(K::LessOrEqual, B::LESS_EQUAL, O::LessEqualOptions, EC_EMPTY(LessEqualOptions)),
    logical(K::And, B::LOGICAL_AND, 2, O::LogicalAndOptions, EC_EMPTY(LogicalAndOptions), check_logic),
    logical(K::Or, B::LOGICAL_OR, 2, O::LogicalOrOptions, EC_EMPTY(LogicalOrOptions), check_logic),
    logical(K::Not, B::LOGICAL_NOT, 1, O::LogicalNotOptions, EC_EMPTY(LogicalNotOptions), check_logic),
    logical(K::Where, B::SELECT_V2, 3, O::SelectV2Options, EC_EMPTY(SelectV2Options), check_select),
    OpRow{.kind = K::Range, .code = B::RANGE, .inputs = 3, .options = O::RangeOptions, .read = nullptr,
          .write = EC_EMPTY(RangeOptions), .check = check_range, .int8_version = 1, .order = "*oy"},
    // read only: the writer's special case writes these IR ops otherwise (integer_arithmetic:
    // in the types TFLite's kernels take, with CASTs around)
    OpRow{K::Pow,       B::POW,            2, O::NONE, nullptr, nullptr, nullptr, 1, true, false},
    // ONNX's Mod (fmod 0) takes the divisor's sign, as FLOOR_MOD does (the writer normalises
    // runtime Gather indices with it)
    OpRow{K::Mod,       B::FLOOR_MOD,      2, O::NONE, nullptr, nullptr, nullptr, 1, true, false},
};

#undef EC_EMPTY

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
