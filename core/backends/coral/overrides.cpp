// Hand-written overrides: unsupported ops rewritten into ops the Edge TPU maps.
// Each rewrite works on the int8 graph (params chosen from the op's own input
// and output params) and is checked on the CPU runtime (TFLite-exact int8
// kernels) to stay within 1 LSB of the original op before it is used.
//
//   HARD_SWISH(x)  = x * (relu6(x + 3) * 1/6)      ADD, RELU6, MUL, MUL
//   LEAKY_RELU(x)  = max(x, alpha * x), 0 <= alpha <= 1   (QUANTIZE,) MUL, MAXIMUM
//   HARD_SIGMOID(x) = relu6(6a x + 6b) / 6                  (MUL,) ADD, RELU6, MUL
//   GELU(x) ~ x sigmoid(2c (x + 0.044715 x^3))              MUL, MUL, ADD, MUL, LOGISTIC, MUL (the tanh
//            form: at most 4.7e-4 from the exact GELU in float; checked within 3 LSB in int8)
//   CONV_2D with groups = SPLIT, one CONV_2D per group, CONCATENATION (exact: data movement)
// The last three are the decompositions the TFLite writer uses (core/passes/decompose/).
#include <algorithm>
#include <cmath>
#include <random>

#include "core/backends/coral/coral_backend.h"
#include "core/errors.h"
#include "core/ir/shape_inference.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/op_builder.h"
#include "core/session/session.h"

namespace ec::backends::coral {
namespace {

using ir::DType;

const ir::Tensor& need_int8(const ir::Graph& g, const std::string& name, const std::string& what) {
  const auto* t = g.find_tensor(name);
  if (!t) throw BackendError("coral", what + ": tensor '" + name + "' is missing");
  if (t->dtype != DType::Int8 || !t->quant || t->quant->scales.size() != 1)
    throw BackendError("coral", what + ": tensor '" + name + "' is not per-tensor int8 (quantise the model first)");
  return *t;
}

double real_min(const ir::QuantParams& q) { return passes::real_range(q).first; }
double real_max(const ir::QuantParams& q) { return passes::real_range(q).second; }

// A scalar int8 constant holding `value` (scale |value| / 127, zero point 0).
std::string add_scalar(ir::Graph& g, const std::string& name, double value) {
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::Int8;
  t.shape = ir::Shape::of(std::vector<std::int64_t>{});
  const double scale = std::max(std::abs(value), 1e-6) / 127.0;
  const auto q = static_cast<std::int8_t>(value >= 0 ? 127 : -127);
  t.data = ir::ConstantData::copy_of(&q, 1);
  t.quant = ir::QuantParams{DType::Int8, {static_cast<float>(scale)}, {0}, -1};
  g.add_tensor(std::move(t));
  return name;
}

std::string add_f32(ir::Graph& g, const std::string& name, float v) {
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::Float32;
  t.shape = ir::Shape::of(std::vector<std::int64_t>{});
  t.data = ir::ConstantData::copy_of(&v, sizeof v);
  g.add_tensor(std::move(t));
  return name;
}

std::string add_activation(ir::Graph& g, const std::string& name, const ir::Tensor& like, ir::QuantParams q) {
  ir::Tensor t;
  t.name = name;
  t.dtype = DType::Int8;
  t.shape = like.shape;
  t.quant = std::move(q);
  g.add_tensor(std::move(t));
  return name;
}

ir::Operation make_op(ir::OpKind kind, std::string name, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Operation op;
  op.kind = kind;
  op.op_type = std::string(ir::op_info(kind).name);
  op.name = std::move(name);
  op.inputs = std::move(in);
  op.outputs = std::move(out);
  return op;
}

void replace_op(ir::Graph& g, std::size_t index, std::vector<ir::Operation> ops) {
  g.ops.erase(g.ops.begin() + static_cast<std::ptrdiff_t>(index));
  g.ops.insert(g.ops.begin() + static_cast<std::ptrdiff_t>(index), ops.begin(), ops.end());
}

void rewrite_hard_swish(ir::Graph& g, std::size_t index) {
  const ir::Operation op = g.ops.at(index);
  const ir::Tensor& x = need_int8(g, op.inputs.at(0), "HARD_SWISH override");
  const ir::Tensor& y = need_int8(g, op.outputs.at(0), "HARD_SWISH override");
  const ir::Tensor xc = x;
  const std::string base = op.name + "/override/";
  const ir::QuantParams qx = *xc.quant;
  const std::string three = add_scalar(g, base + "three", 3.0);
  const std::string sixth = add_scalar(g, base + "one_sixth", 1.0 / 6.0);
  const std::string lo = add_f32(g, base + "zero", 0.f), hi = add_f32(g, base + "six", 6.f);
  const std::string a = add_activation(g, base + "x_plus_3", xc, passes::int8_range(real_min(qx) + 3, real_max(qx) + 3));
  const std::string r = add_activation(g, base + "relu6", xc, passes::int8_range(0, 6));
  const std::string s = add_activation(g, base + "relu6_over_6", xc, passes::int8_range(0, 1));
  std::vector<ir::Operation> ops;
  ops.push_back(make_op(ir::OpKind::Add, base + "0", {xc.name, three}, {a}));
  ops.push_back(make_op(ir::OpKind::Clip, base + "1", {a, lo, hi}, {r}));
  ops.push_back(make_op(ir::OpKind::Mul, base + "2", {r, sixth}, {s}));
  ops.push_back(make_op(ir::OpKind::Mul, op.name, {xc.name, s}, {y.name}));
  replace_op(g, index, std::move(ops));
}

void rewrite_leaky_relu(ir::Graph& g, std::size_t index) {
  const ir::Operation op = g.ops.at(index);
  const ir::Tensor xc = need_int8(g, op.inputs.at(0), "LEAKY_RELU override");
  const ir::Tensor yc = need_int8(g, op.outputs.at(0), "LEAKY_RELU override");
  const double alpha = op.attr("alpha") ? std::get<double>(*op.attr("alpha")) : 0.01;
  if (alpha < 0 || alpha > 1)
    throw BackendError("coral", "LEAKY_RELU override: max(x, alpha*x) equals leaky ReLU only for 0 <= alpha <= 1 (alpha is " +
                                    std::to_string(alpha) + ")");
  const std::string base = op.name + "/override/";
  const std::string a = add_scalar(g, base + "alpha", alpha);
  const std::string ax = add_activation(g, base + "alpha_x", xc, *yc.quant);
  std::vector<ir::Operation> ops;
  std::string xin = xc.name;
  if (!(xc.quant == yc.quant)) {  // MAXIMUM takes both inputs on the output's params
    xin = add_activation(g, base + "x_requantized", xc, *yc.quant);
    ops.push_back(make_op(ir::OpKind::Identity, base + "0", {xc.name}, {xin}));
  }
  ops.push_back(make_op(ir::OpKind::Mul, base + "1", {xc.name, a}, {ax}));
  ops.push_back(make_op(ir::OpKind::Max, op.name, {xin, ax}, {yc.name}));
  replace_op(g, index, std::move(ops));
}

// A graph holding only graph.ops[index], its input renamed "x" (shape [1, n]).
ir::Graph single_op_graph(const ir::Graph& graph, std::size_t index, std::int64_t n) {
  const ir::Operation& op = graph.ops.at(index);
  ir::Graph g;
  g.name = "override_check";
  ir::Tensor x = *graph.find_tensor(op.inputs.at(0));
  ir::Tensor y = *graph.find_tensor(op.outputs.at(0));
  x.name = "x";
  y.name = "y";
  x.shape = y.shape = ir::Shape::of({1, n});
  x.data.reset();
  y.data.reset();
  ir::Operation o = op;
  o.inputs[0] = "x";
  o.outputs[0] = "y";
  for (std::size_t i = 1; i < o.inputs.size(); ++i)
    if (const auto* t = graph.find_tensor(o.inputs[i])) g.add_tensor(*t);
  g.add_tensor(std::move(x));
  g.add_tensor(std::move(y));
  g.ops.push_back(std::move(o));
  g.inputs = {"x"};
  g.outputs = {"y"};
  return g;
}

// A decomposition as an override: it must apply to the op.
std::function<void(ir::Graph&, std::size_t)> via(passes::decompose::Fn fn, std::string what) {
  return [fn, what](ir::Graph& g, std::size_t index) {
    std::string why;
    if (fn(g, index, &why) == 0)
      throw BackendError("coral", what + " override does not apply to op '" + g.ops.at(index).name + "'" +
                                      (why.empty() ? std::string() : ": " + why));
  };
}

}  // namespace

void register_builtin_overrides(Backend& backend) {
  backend.register_override("HardSwish", {"hard_swish_as_relu6", "HARD_SWISH as x * relu6(x + 3) / 6", rewrite_hard_swish});
  backend.register_override("LeakyRelu", {"leaky_relu_as_maximum", "LEAKY_RELU as max(x, alpha * x)", rewrite_leaky_relu});
  backend.register_override("HardSigmoid", {"hard_sigmoid_as_relu6", "HARD_SIGMOID as relu6(6a x + 6b) / 6",
                                             via(&passes::decompose::hard_sigmoid, "HARD_SIGMOID")});
  backend.register_override("Gelu", {"gelu_tanh_form", "GELU in its tanh form, x * sigmoid(2c (x + 0.044715 x^3))",
                                      via(&passes::decompose::gelu_tanh, "GELU"), 3});
  backend.register_override("Conv", {"grouped_conv_per_group", "a grouped CONV_2D as one CONV_2D per group (SPLIT, CONCATENATION)",
                                      via(&passes::decompose::grouped_conv, "grouped convolution"), 0, true});
  // FULLY_CONNECTED maps only with a one-dimensional output: a 2-D one (tokens x features,
  // a recurrent layer's input projection over the sequence) as a 1x1 CONV_2D
  for (const char* kind : {"FullyConnected", "MatMul", "Gemm"})
    backend.register_override(kind, {"fully_connected_as_conv1x1",
                                     "a FULLY_CONNECTED with a 2-D output as RESHAPE, a 1x1 CONV_2D, RESHAPE",
                                     via(&passes::decompose::fc_as_conv1x1, "FULLY_CONNECTED"), 0, true});
  backend.register_override("Gather", {"gather_as_slice", "a GATHER of one run of constant positions (x[:, -1]) as SLICE (RESHAPE)",
                                       via(&passes::decompose::gather_as_slice, "GATHER"), 0, true});
}

ir::Graph apply_checked_override(const ir::Graph& graph, std::size_t index, const Override& o, int* max_lsb) {
  if (index >= graph.ops.size()) throw BackendError("coral", "override " + o.name + ": no op at index " + std::to_string(index));
  const auto& op = graph.ops[index];
  if (op.inputs.empty() || op.outputs.empty())
    throw BackendError("coral", "override " + o.name + ": op '" + op.name + "' has no input or output");
  if (o.exact) {
    if (max_lsb) *max_lsb = 0;
    ir::Graph out = graph;
    o.rewrite(out, index);
    ir::infer_shapes(out);  // the ops it made get their shapes (the rules look at them)
    return out;
  }
  // check data: every int8 value, then random ones
  constexpr std::int64_t n = 1024;
  ir::Graph before = single_op_graph(graph, index, n);
  ir::Graph after = before;
  o.rewrite(after, 0);
  runtime::Tensor x = runtime::Tensor::uninitialized(DType::Int8, {1, n});
  auto* xv = x.mutable_data<std::int8_t>();
  std::mt19937 rng(20261124);
  std::uniform_int_distribution<int> dist(-128, 127);
  for (std::int64_t i = 0; i < n; ++i) xv[i] = static_cast<std::int8_t>(i < 256 ? i - 128 : dist(rng));
  const auto want = runtime::run_graph(ir::freeze(std::move(before)), {{"x", x}}).at("y");
  const auto got = runtime::run_graph(ir::freeze(std::move(after)), {{"x", x}}).at("y");
  int worst = 0;
  std::int64_t worst_at = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    const int d = std::abs(int(want.data<std::int8_t>()[i]) - int(got.data<std::int8_t>()[i]));
    if (d > worst) { worst = d; worst_at = i; }
  }
  if (max_lsb) *max_lsb = worst;
  if (worst > o.max_lsb)
    throw BackendError("coral", "override " + o.name + " differs from " + op.op_type + " by " + std::to_string(worst) +
                                    " LSB (> " + std::to_string(o.max_lsb) + ") at input value " + std::to_string(int(xv[worst_at])) + "; not used");
  ir::Graph out = graph;
  o.rewrite(out, index);
  ir::infer_shapes(out);
  return out;
}

}  // namespace ec::backends::coral
