// save_tflite: IR -> .tflite flatbuffer. An IR op written from a row of the
// operator table both directions share (core/frontends/tflite/tflite_op_table.h)
// takes no code here; the others are one case each of write_op's switch (the
// larger ones a function each, named after the op), and the reader's cases
// mirror them.
#include "core/backends/tflite/tflite_writer.h"

#include <algorithm>
#include <cassert>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/errors.h"
#include "core/frontends/tflite/tflite_op_table.h"
#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/shape_inference.h"
#include "core/passes/decompose/decompose.h"
#include "core/passes/fuse_activation.h"
#include "core/passes/op_builder.h"
#include "core/passes/pass_manager.h"

namespace ec::backends::tflite {
namespace {

namespace fb = flatbuffers;
namespace tfl = ::tflite;
using B = tfl::BuiltinOperator;
using K = ir::OpKind;

std::int64_t same_before(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t& after) {
  const std::int64_t out = (in + s - 1) / s;
  const std::int64_t total = std::max<std::int64_t>((out - 1) * s + (k - 1) * d + 1 - in, 0);
  after = total - total / 2;
  return total / 2;
}

using frontends::tflite_ops::attr_float;
using frontends::tflite_ops::tensor_type;

// TFLite's int32 bias of a quantised conv / fully-connected op: per output channel c,
// scale = s_x * s_w[c], zero point 0.
ir::QuantParams bias_params(const ir::QuantParams& x, const ir::QuantParams& w, std::int64_t channels) {
  ir::QuantParams bq;
  bq.dtype = ir::DType::Int32;
  for (std::int64_t c = 0; c < channels; ++c)
    bq.scales.push_back(x.scales[0] * w.scales[w.scales.size() == 1 ? 0 : static_cast<std::size_t>(c)]);
  bq.zero_points.assign(bq.scales.size(), 0);
  bq.axis = bq.scales.size() > 1 ? 0 : -1;
  return bq;
}

tfl::ActivationFunctionType act_of(ir::Activation a, const ir::Operation& op) {
  if (const auto act = frontends::tflite_ops::fused_activation_from_ir(a)) return *act;
  throw UnsupportedOpError(op.op_type + " with fused_activation " + std::string(ir::activation_name(a)), "the TFLite writer", "",
                           "op '" + op.name + "'");
}

// On a quantised output whose range ends inside a clamp's bound, the clamp does
// nothing there -- and TFLite refuses a bound whose quantised value overflows
// int32 (6 / scale with a tiny scale): write the weaker, equivalent activation.
tfl::ActivationFunctionType legal_activation(tfl::ActivationFunctionType act, const ir::Tensor& y) {
  using A = tfl::ActivationFunctionType;
  if (!y.quant || y.quant->scales.size() != 1 || !(y.quant->scales[0] > 0)) return act;
  const double s = y.quant->scales[0];
  const double z = y.quant->zero_points.empty() ? 0.0 : double(y.quant->zero_points[0]);
  const double lo = y.dtype == ir::DType::UInt8 ? 0 : -128, hi = y.dtype == ir::DType::UInt8 ? 255 : 127;
  if (act == A::RELU6 && z + 6.0 / s >= hi) return A::RELU;
  if (act == A::RELU_N1_TO_1 && z + 1.0 / s >= hi) return z - 1.0 / s <= lo ? A::NONE : A::RELU_N1_TO_1;
  return act;
}

// The special cases (not rows) that write a fused activation: CONV_2D / DEPTHWISE_CONV_2D /
// CONV_3D, FULLY_CONNECTED, MAX_POOL_2D / AVERAGE_POOL_2D.
bool takes_fused_activation(K k) {
  return k == K::Conv || k == K::FullyConnected || k == K::Gemm || k == K::MatMul || k == K::MaxPool ||
         k == K::AveragePool || k == K::GlobalAveragePool || k == K::GlobalMaxPool;
}

// Which activation the writer folds into the operator before it (TFLite's
// fused_activation_function), decided by FuseActivation with these rules: RELU, RELU6 and
// RELU_N1_TO_1 (a Clip with constant float bounds) whose output keeps the op's
// quantisation, into an op written as one operator with that field.
passes::ActivationFusion tflite_fusion() {
  passes::ActivationFusion r;
  for (const frontends::tflite_ops::OpRow& row : frontends::tflite_ops::op_table())
    if (row.act == frontends::tflite_ops::Act::following) r.producers.push_back(row.kind);
  r.producers.insert(r.producers.end(), {K::Conv, K::FullyConnected, K::Gemm, K::MatMul, K::MaxPool, K::AveragePool});
  for (const ir::Activation a : {ir::Activation::Relu, ir::Activation::Relu6, ir::Activation::ReluN1To1}) r.allow(a);
  r.skip_quantised = false;
  r.accepts = [](const ir::Graph& g, const ir::Operation& op, const ir::Operation& act) {
    const ir::Tensor *y = g.find_tensor(op.outputs[0]), *a = g.find_tensor(act.outputs[0]), *x = g.find_tensor(op.inputs[0]);
    if (!y || !a || !x || y->quant != a->quant) return false;
    if (act.kind == K::Clip) {  // bounds as constant float inputs
      if (act.inputs.size() != 3) return false;
      for (std::size_t k = 1; k < 3; ++k) {
        const ir::Tensor* b = act.inputs[k].empty() ? nullptr : g.find_tensor(act.inputs[k]);
        if (!b || !b->is_constant() || b->dtype != ir::DType::Float32) return false;
      }
    }
    if (const frontends::tflite_ops::OpRow* row = frontends::tflite_ops::row_for_kind(op.kind))
      if (!(row->special && row->special(g, op))) return row->act == frontends::tflite_ops::Act::following;
    switch (op.kind) {
      case K::Conv:  // not CONV_3D
        return !(op.attr_string("layout", "NCHW") == "NCHW" && x->shape.rank_known && x->shape.rank() == 5);
      case K::AveragePool:  // an output on other params than the input's is a QUANTIZE after it
        return !(x->quant && y->quant && !(x->quant == y->quant));
      case K::MaxPool: case K::FullyConnected: case K::Gemm: case K::MatMul: return true;
      default: return false;
    }
  };
  return r;
}

// The attribute prepare_for_tflite leaves on an op LegaliseTflite could not rewrite: why.
constexpr std::string_view kLegaliseNote = "legalise_note";

class Writer {
 public:
  Writer(const ir::Graph& g, const TfliteWriteOptions& o) : g_(g), opts_(o) {}
  std::string write();

 private:
  [[noreturn]] void unsupported(const ir::Operation& op, std::string why = {}) const {
    if (why.empty()) why = op.attr_string(std::string(kLegaliseNote), "");
    throw UnsupportedOpError(op.op_type + (why.empty() ? "" : " (" + why + ")"), "the TFLite writer",
                             "it has no TFLite form here", "op '" + (op.name.empty() ? op.op_type : op.name) + "'");
  }
  const ir::Tensor& t(const std::string& n) const {
    const ir::Tensor* p = g_.find_tensor(n);
    if (!p) throw GraphError("tensor '" + n + "' is not declared");
    return *p;
  }
  int tensor(const std::string& name);
  int add_tensor(const std::string& name, ir::DType dt, const std::vector<std::int64_t>& shape,
                 const std::optional<ir::QuantParams>& q, const void* data = nullptr, std::size_t bytes = 0,
                 const std::vector<std::int32_t>* signature = nullptr);
  int const_i32(const std::string& base, const std::vector<std::int64_t>& v, bool scalar = false);
  int opcode(B code, int version = 1, const std::string& custom = {});
  void emit(B code, std::vector<int> in, std::vector<int> out, tfl::BuiltinOptions type = tfl::BuiltinOptions::NONE,
            fb::Offset<void> options = 0, int version = 1);
  std::string unique(const std::string& base) {
    std::string n = base;
    for (int k = 1; used_.count(n); ++k) n = base + "_" + std::to_string(k);
    used_.insert(n);
    return n;
  }
  std::vector<std::int64_t> const_ints(const std::string& n, const ir::Operation& op) const;
  int version_for(const ir::Operation& op, int int8_version) const {
    const ir::Tensor* x = op.inputs.empty() ? nullptr : g_.find_tensor(op.inputs[0]);
    return x && (x->dtype == ir::DType::Int8) ? int8_version : 1;
  }
  void write_op(const ir::Operation& op);
  // The special cases write_op hands on, one function each (the IR ops no row writes, or
  // the inputs a row leaves to them).
  void fully_connected(const ir::Operation& op);
  void clip(const ir::Operation& op);
  void reshape(const ir::Operation& op);
  void merged_transpose(const ir::Operation& op);
  void requantised_concat(const ir::Operation& op);
  void slice(const ir::Operation& op);
  void wrapped_gather(const ir::Operation& op);
  void conv_transpose(const ir::Operation& op);
  void depth_space(const ir::Operation& op);
  void custom_op(const ir::Operation& op);
  /// A Reshape/Flatten to [N, K] of an [N, ...] tensor whose only reader is a
  /// FULLY_CONNECTED (a constant-weight FullyConnected/Gemm/MatMul) as its data input.
  bool flattens_into_fully_connected(const ir::Operation& op) const {
    if (op.kind != K::Reshape && op.kind != K::Flatten) return false;
    const std::string& y = op.outputs[0];
    if (outputs_.count(y)) return false;
    const auto c = consumers_.find(y);
    if (c == consumers_.end() || c->second != 1) return false;
    const ir::Tensor& xt = t(op.inputs[0]);
    const ir::Tensor& yt = t(y);
    if (!xt.shape.is_static() || !yt.shape.is_static() || yt.shape.rank() != 2 || xt.shape.rank() < 2 || xt.quant != yt.quant)
      return false;
    const auto xs = xt.shape.sizes(), ys = yt.shape.sizes();
    std::int64_t k = 1;
    for (std::size_t d = 1; d < xs.size(); ++d) k *= xs[d];
    if (xs[0] != ys[0] || k != ys[1]) return false;
    for (const auto& n : g_.ops) {
      if (n.inputs.empty() || n.inputs[0] != y) continue;
      if (n.kind != K::FullyConnected && n.kind != K::Gemm && n.kind != K::MatMul) return false;
      if (n.inputs.size() < 2 || !t(n.inputs[1]).is_constant()) return false;
      return std::count(n.inputs.begin() + 1, n.inputs.end(), y) == 0;
    }
    return false;
  }
  void conv(const ir::Operation& op);
  void pool(const ir::Operation& op);
  void conv3d(const ir::Operation& op);
  // Op families write_op hands on (one member function each).
  /// Xor (NOT_EQUAL on bool).
  void logic(const ir::Operation& op);
  /// Add/Sub/Mul/Div/Pow on types TFLite's kernels do not compute in, Mod, BitShift.
  void integer_arithmetic(const ir::Operation& op);
  /// ArgMax/ArgMin, TopK, CumSum, NonZero.
  void index_op(const ir::Operation& op);
  /// Shape, Size, EyeLike, ConstantOfShape, Tile, Expand, OneHot, Split with sizes.
  void shape_op(const ir::Operation& op);
  /// GatherND, GatherElements, ScatterND, ScatterElements, ReverseSequence.
  void gather_scatter(const ir::Operation& op);
  int element_coordinates(const ir::Operation& op, bool int32_only);
  void scatter_into(const ir::Operation& op, int idx, bool add);
  void resize(const ir::Operation& op);
  void pad(const ir::Operation& op);
  /// Hardmax.
  void per_axis(const ir::Operation& op);
  /// IsNaN, IsInf, Trilu, CastLike.
  void elementwise_misc(const ir::Operation& op);
  void qdq_arithmetic(const ir::Operation& op);
  /// Resize as constant FULLY_CONNECTED weights along H and W (any mode the op has).
  void resize_by_matrices(const ir::Operation& op, const std::size_t hw[2], const std::vector<double> weights[2],
                          const std::vector<char> outside[2]);

  // Glue tensors and ops.
  /// A fresh tensor of `shape` (dynamic dims written as 1 with a -1 signature).
  int temp(const std::string& base, ir::DType dt, const ir::Shape& shape);
  int temp(const std::string& base, ir::DType dt, const std::vector<std::int64_t>& shape) {
    return add_tensor(unique(base), dt, shape, std::nullopt);
  }
  /// A scalar constant of type dt holding v.
  int const_scalar(const std::string& base, ir::DType dt, double v);
  /// CAST of tensor `x` (IR shape `shape`) from `from` to `to`; x itself when they agree.
  int cast(int x, ir::DType from, ir::DType to, const ir::Shape& shape, const std::string& base);
  /// TRANSPOSE of x (IR shape `shape`) by perm; returns the new tensor.
  int transpose(int x, ir::DType dt, const ir::Shape& shape, const std::vector<std::int64_t>& perm, const std::string& base);
  /// An int32 scalar from a tensor holding one integer (constant or not).
  int scalar_i32(const std::string& name, const ir::Operation& op);
  /// Refuses an op reading or writing float64/float16/string tensors: TFLite's kernels compute in none of them.
  void check_computable(const ir::Operation& op) const;
  void lstm(const ir::Operation& op);
  /// A float tensor the op keeps state in (is_variable, no buffer: the interpreter
  /// allocates it and resets it to zero).
  int variable_tensor(const std::string& name, const std::vector<std::int64_t>& shape);
  int f32_const(const std::string& name, const std::vector<std::int64_t>& shape, const std::vector<float>& v) {
    return add_tensor(unique(name), ir::DType::Float32, shape, std::nullopt, v.data(), v.size() * sizeof(float));
  }
  /// An activation op reading only `y` (and nothing else reads `y`) folds into its producer.
  /// The op's fused activation (FuseActivation, tflite_fusion()) as TFLite writes it on its output.
  tfl::ActivationFunctionType fused(const ir::Operation& op) const {
    return legal_activation(act_of(ir::fused_activation(op), op), t(op.outputs[0]));
  }
  /// Refuses a fused activation on an operator that has no field for one.
  void no_fused_activation(const ir::Operation& op) const {
    if (const ir::Activation a = ir::fused_activation(op); a != ir::Activation::None)
      unsupported(op, "fused activation " + std::string(ir::activation_name(a)) + " on an operator without one");
  }
  /// A fresh tensor like the op's output, for the op's result before a separate LOGISTIC.
  int pre_sigmoid(const ir::Operation& op) {
    const ir::Tensor& y = t(op.outputs[0]);
    if (!y.shape.is_static()) unsupported(op, "fused SIGMOID on a dynamic shape");
    return add_tensor(unique(op.outputs[0] + "/pre_sigmoid"), y.dtype, y.shape.sizes(), std::nullopt);
  }

  const ir::Graph& g_;
  TfliteWriteOptions opts_;
  fb::FlatBufferBuilder fbb_{1 << 20};
  std::vector<fb::Offset<tfl::Buffer>> buffers_;
  std::vector<fb::Offset<tfl::Tensor>> tensors_;
  /// What emit() needs to know of each written tensor (its kernels' rank limits).
  struct TensorInfo {
    ir::DType dtype;
    std::vector<std::int64_t> shape;
    bool dynamic;
    std::optional<ir::QuantParams> quant;
  };
  std::vector<TensorInfo> info_;
  const ir::Operation* current_ = nullptr;  // the op write_op is writing (named by emit's refusals)
  std::map<std::string, int> index_;
  std::set<std::string> used_;
  std::vector<fb::Offset<tfl::OperatorCode>> codes_;
  std::map<std::pair<int, std::string>, int> code_index_;
  std::vector<int> code_version_;
  std::vector<fb::Offset<tfl::Operator>> ops_;
  std::map<std::string, int> consumers_;
  std::set<std::string> outputs_;
  std::set<const ir::Operation*> folded_;
  /// NCHW ops written in TRANSPOSE pairs: the NHWC tensor a reader-made Transpose
  /// before them reads, and the one a Transpose after them writes (both folded).
  std::map<const ir::Operation*, std::string> nhwc_in_, nhwc_out_;
  void fold_layout_transposes();
};

int Writer::add_tensor(const std::string& name, ir::DType dt, const std::vector<std::int64_t>& shape,
                       const std::optional<ir::QuantParams>& q, const void* data, std::size_t bytes,
                       const std::vector<std::int32_t>* signature) {
  const auto tt = tensor_type(dt);
  if (!tt) throw UnsupportedOpError("tensor '" + name + "' of type " + std::string(ir::dtype_name(dt)), "the TFLite writer", "");
  std::uint32_t buf = 0;
  if (data) {
    fbb_.ForceVectorAlignment(bytes, 1, 16);
    const auto v = fbb_.CreateVector(static_cast<const std::uint8_t*>(data), bytes);
    buffers_.push_back(tfl::CreateBuffer(fbb_, v));
    buf = static_cast<std::uint32_t>(buffers_.size() - 1);
  }
  std::vector<std::int32_t> s;
  for (auto d : shape) s.push_back(static_cast<std::int32_t>(d));
  fb::Offset<tfl::QuantizationParameters> qo = 0;
  if (q && !q->scales.empty()) {
    std::vector<std::int64_t> zp = q->zero_points;
    if (zp.empty()) zp.assign(1, 0);
    if (q->scales.size() > 1 && zp.size() == 1) zp.assign(q->scales.size(), zp[0]);
    qo = tfl::CreateQuantizationParametersDirect(fbb_, nullptr, nullptr, &q->scales, &zp, tfl::QuantizationDetails::NONE,
                                                 0, q->scales.size() > 1 ? std::max(q->axis, 0) : 0);
  }
  const auto sv = fbb_.CreateVector(s);
  const auto nm = fbb_.CreateString(name);
  fb::Offset<fb::Vector<std::int32_t>> sig = 0;
  if (signature) sig = fbb_.CreateVector(*signature);
  tensors_.push_back(tfl::CreateTensor(fbb_, sv, *tt, buf, nm, qo, false, 0, sig, false));
  info_.push_back({dt, shape, signature != nullptr, q});
  used_.insert(name);
  return static_cast<int>(tensors_.size() - 1);
}

int Writer::tensor(const std::string& name) {
  if (name.empty()) return -1;
  auto it = index_.find(name);
  if (it != index_.end()) return it->second;
  const ir::Tensor& x = t(name);
  if (!x.shape.rank_known) throw UnsupportedOpError("tensor '" + name + "' of unknown rank", "the TFLite writer", "");
  std::vector<std::int64_t> shape;
  std::vector<std::int32_t> sig;
  bool dynamic = false;
  for (const auto& d : x.shape.dims) {
    shape.push_back(d.is_static() ? d.value : 1);
    sig.push_back(d.is_static() ? static_cast<std::int32_t>(d.value) : -1);
    dynamic |= !d.is_static();
  }
  const int i = add_tensor(name, x.dtype, shape, x.quant, x.is_constant() ? x.data->data() : nullptr,
                           x.is_constant() ? x.data->size() : 0, dynamic ? &sig : nullptr);
  index_[name] = i;
  return i;
}

int Writer::const_i32(const std::string& base, const std::vector<std::int64_t>& v, bool scalar) {
  std::vector<std::int32_t> w;
  for (auto x : v) w.push_back(static_cast<std::int32_t>(std::clamp<std::int64_t>(x, INT32_MIN, INT32_MAX)));
  std::vector<std::int64_t> shape;
  if (!scalar) shape.push_back(static_cast<std::int64_t>(w.size()));
  return add_tensor(unique(base), ir::DType::Int32, shape, std::nullopt, w.data(), w.size() * 4);
}

int Writer::temp(const std::string& base, ir::DType dt, const ir::Shape& shape) {
  if (!shape.rank_known) throw UnsupportedOpError("tensor '" + base + "' of unknown rank", "the TFLite writer", "");
  std::vector<std::int64_t> sizes;
  std::vector<std::int32_t> sig;
  bool dynamic = false;
  for (const auto& d : shape.dims) {
    sizes.push_back(d.is_static() ? d.value : 1);
    sig.push_back(d.is_static() ? static_cast<std::int32_t>(d.value) : -1);
    dynamic |= !d.is_static();
  }
  return add_tensor(unique(base), dt, sizes, std::nullopt, nullptr, 0, dynamic ? &sig : nullptr);
}

int Writer::const_scalar(const std::string& base, ir::DType dt, double v) {
  switch (dt) {
    case ir::DType::Float32: { const float x = static_cast<float>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 4); }
    case ir::DType::Int32: { const auto x = static_cast<std::int32_t>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 4); }
    case ir::DType::Int64: { const auto x = static_cast<std::int64_t>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 8); }
    case ir::DType::Int16: { const auto x = static_cast<std::int16_t>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 2); }
    case ir::DType::Int8: { const auto x = static_cast<std::int8_t>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 1); }
    case ir::DType::UInt8: { const auto x = static_cast<std::uint8_t>(v); return add_tensor(unique(base), dt, {}, std::nullopt, &x, 1); }
    case ir::DType::Bool: { const std::uint8_t x = v != 0; return add_tensor(unique(base), dt, {}, std::nullopt, &x, 1); }
    default:
      throw UnsupportedOpError("a scalar of type " + std::string(ir::dtype_name(dt)), "the TFLite writer", "");
  }
}

int Writer::cast(int x, ir::DType from, ir::DType to, const ir::Shape& shape, const std::string& base) {
  if (from == to) return x;
  const auto it = tensor_type(from), ot = tensor_type(to);
  if (!it || !ot) throw UnsupportedOpError("a CAST from " + std::string(ir::dtype_name(from)), "the TFLite writer", "");
  const int y = temp(base, to, shape);
  emit(B::CAST, {x}, {y}, tfl::BuiltinOptions::CastOptions, tfl::CreateCastOptions(fbb_, *it, *ot).Union());
  return y;
}

int Writer::transpose(int x, ir::DType dt, const ir::Shape& shape, const std::vector<std::int64_t>& perm, const std::string& base) {
  ir::Shape ps = shape;
  for (std::size_t i = 0; i < perm.size(); ++i) ps.dims[i] = shape.dims[static_cast<std::size_t>(perm[i])];
  const int y = temp(base, dt, ps);
  emit(B::TRANSPOSE, {x, const_i32(base + "/perm", perm)}, {y}, tfl::BuiltinOptions::TransposeOptions,
       tfl::CreateTransposeOptions(fbb_).Union());
  return y;
}

int Writer::scalar_i32(const std::string& name, const ir::Operation& op) {
  const ir::Tensor& x = t(name);
  if (x.is_constant()) {
    if (x.dtype == ir::DType::Int32 || x.dtype == ir::DType::Int64) {
      const auto v = const_ints(name, op);
      if (v.size() != 1) unsupported(op, "input '" + name + "' must hold one value");
      return const_i32(name + "/i32", v, true);
    }
    if (x.dtype == ir::DType::Float32 && x.data->size() == 4)
      return const_i32(name + "/i32", {static_cast<std::int64_t>(x.data->as<float>()[0])}, true);
  }
  if (!x.shape.rank_known || x.shape.num_elements().value_or(-1) != 1) unsupported(op, "input '" + name + "' must hold one value");
  // CAST truncates toward zero as ONNX's cast to an integer does; RESHAPE makes it a scalar.
  const int c = cast(tensor(name), x.dtype, ir::DType::Int32, x.shape, name + "/i32");
  if (x.shape.rank() == 0) return c;
  const int sc = temp(name + "/scalar", ir::DType::Int32, std::vector<std::int64_t>{});
  std::vector<std::int32_t> none;
  emit(B::RESHAPE, {c, const_i32(name + "/scalar_shape", {})}, {sc}, tfl::BuiltinOptions::ReshapeOptions,
       tfl::CreateReshapeOptionsDirect(fbb_, &none).Union());
  return sc;
}

void Writer::check_computable(const ir::Operation& op) const {
  auto check = [&](const std::string& n) {
    if (n.empty()) return;
    const ir::Tensor* x = g_.find_tensor(n);
    if (!x || x->is_constant()) return;
    if (x->dtype == ir::DType::Float64 || x->dtype == ir::DType::Float16 || x->dtype == ir::DType::String ||
        x->dtype == ir::DType::BFloat16)
      unsupported(op, "tensor '" + n + "' is " + std::string(ir::dtype_name(x->dtype)) +
                          ": TFLite's kernels compute in none of float64, float16, bfloat16 or strings; convert the model to float32");
  };
  for (const auto& i : op.inputs) check(i);
  for (const auto& o : op.outputs) check(o);
}

int Writer::opcode(B code, int version, const std::string& custom) {
  const auto key = std::make_pair(static_cast<int>(code), custom);
  auto it = code_index_.find(key);
  if (it != code_index_.end()) {
    code_version_[static_cast<std::size_t>(it->second)] = std::max(code_version_[static_cast<std::size_t>(it->second)], version);
    return it->second;
  }
  const int i = static_cast<int>(code_version_.size());
  code_index_[key] = i;
  code_version_.push_back(version);
  return i;
}

void Writer::emit(B code, std::vector<int> in, std::vector<int> out, tfl::BuiltinOptions type, fb::Offset<void> options,
                  int version) {
  // Rank limits of TFLite's kernels (measured on tfjs-tflite's build, tests/tflite): SLICE,
  // STRIDED_SLICE and TRANSPOSE take at most 5-D; POW, the comparisons, LOGICAL_AND/OR and FLOOR_MOD broadcast
  // at most 4-D (5-D aborts the interpreter), SELECT_V2 5-D: wider operands are broadcast to
  // the output's shape first (BROADCAST_TO goes to 8-D).
  auto name_of = [&] { return current_ ? "op '" + (current_->name.empty() ? current_->op_type : current_->name) + "'" : std::string(); };
  assert(info_.size() == tensors_.size() && "every tensor is made by add_tensor or variable_tensor");
  if ((code == B::SLICE || code == B::STRIDED_SLICE || code == B::TRANSPOSE) && !in.empty() && in[0] >= 0 &&
      info_[static_cast<std::size_t>(in[0])].shape.size() > 5)
    throw UnsupportedOpError(std::string(tfl::EnumNameBuiltinOperator(code)) + " on " +
                                 std::to_string(info_[static_cast<std::size_t>(in[0])].shape.size()) + "-D",
                             "the TFLite writer", "TFLite's " + std::string(tfl::EnumNameBuiltinOperator(code)) + " takes at most 5-D", name_of());
  const std::size_t limit = code == B::SELECT_V2 ? 5
                            : code == B::POW || code == B::EQUAL || code == B::NOT_EQUAL || code == B::LESS || code == B::LESS_EQUAL ||
                                      code == B::GREATER || code == B::GREATER_EQUAL || code == B::LOGICAL_AND || code == B::LOGICAL_OR ||
                                      code == B::FLOOR_MOD || code == B::FLOOR_DIV || code == B::SQUARED_DIFFERENCE
                                  ? 4
                                  : 0;
  if (limit && !out.empty() && info_[static_cast<std::size_t>(out[0])].shape.size() > limit) {
    const TensorInfo o = info_[static_cast<std::size_t>(out[0])];
    for (auto& i : in) {
      if (i < 0 || info_[static_cast<std::size_t>(i)].shape == o.shape) continue;
      if (o.dynamic || info_[static_cast<std::size_t>(i)].dynamic)
        throw UnsupportedOpError(std::string(tfl::EnumNameBuiltinOperator(code)) + " broadcasting " + std::to_string(o.shape.size()) + "-D",
                                 "the TFLite writer", "TFLite broadcasts it up to " + std::to_string(limit) + "-D; a dynamic shape cannot be broadcast first",
                                 name_of());
      const TensorInfo x = info_[static_cast<std::size_t>(i)];
      const int b = add_tensor(unique("broadcast"), x.dtype, o.shape, x.quant);
      emit(B::BROADCAST_TO, {i, const_i32("broadcast/shape", o.shape)}, {b}, tfl::BuiltinOptions::BroadcastToOptions,
           tfl::CreateBroadcastToOptions(fbb_).Union(), 2);
      i = b;
    }
  }
  const int oc = opcode(code, version);
  ops_.push_back(tfl::CreateOperatorDirect(fbb_, static_cast<std::uint32_t>(oc), &in, &out, type, options));
}

std::vector<std::int64_t> Writer::const_ints(const std::string& n, const ir::Operation& op) const {
  const ir::Tensor& c = t(n);
  if (!c.is_constant()) unsupported(op, "input '" + n + "' must be a constant");
  std::vector<std::int64_t> v;
  if (c.dtype == ir::DType::Int64) for (auto x : c.data->as<std::int64_t>()) v.push_back(x);
  else if (c.dtype == ir::DType::Int32) for (auto x : c.data->as<std::int32_t>()) v.push_back(x);
  else unsupported(op, "input '" + n + "' must be int32 or int64");
  return v;
}

void Writer::conv(const ir::Operation& op) {
  if (op.attr_string("layout", "NCHW") == "NCHW" && t(op.inputs[0]).shape.rank_known && t(op.inputs[0]).shape.rank() == 5)
    return conv3d(op);
  if (op.attr_string("layout", "NCHW") != "NHWC") unsupported(op, "layout NCHW; NHWC expected after legalisation");
  const std::string auto_pad = op.attr_string("auto_pad", "NOTSET");
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& w = t(op.inputs[1]);
  if (!w.is_constant() || !w.shape.is_static() || w.shape.rank() != 4) unsupported(op, "needs a constant 4-D weight");
  if (x.shape.rank() != 4 || !x.shape.dims[1].is_static() || !x.shape.dims[2].is_static() || !x.shape.dims[3].is_static())
    unsupported(op, "needs a 4-D input with static H, W, C");
  const auto ws = w.shape.sizes();
  const std::int64_t M = ws[0], kh = ws[1], kw = ws[2], cg = ws[3];
  const std::int64_t C = x.shape.dims[3].value, group = op.attr_int("group", 1);
  auto s = op.attr_ints("strides"), d = op.attr_ints("dilations"), p = op.attr_ints("pads");
  if (s.empty()) s = {1, 1};
  if (d.empty()) d = {1, 1};
  if (p.empty()) p = {0, 0, 0, 0};
  if (s.size() != 2 || d.size() != 2 || p.size() != 4) unsupported(op, "2-D convolution only");
  std::int64_t ab, aw;
  const std::int64_t bt = same_before(x.shape.dims[1].value, kh, s[0], d[0], ab);
  const std::int64_t bl = same_before(x.shape.dims[2].value, kw, s[1], d[1], aw);
  // auto_pad as the pads it means: SAME_UPPER is TFLite's SAME, SAME_LOWER the odd pixel before
  if (auto_pad == "VALID") p = {0, 0, 0, 0};
  else if (auto_pad == "SAME_UPPER") p = {bt, bl, ab, aw};
  else if (auto_pad == "SAME_LOWER") p = {ab, aw, bt, bl};
  else if (auto_pad != "NOTSET") unsupported(op, "auto_pad " + auto_pad);
  tfl::Padding padding = tfl::Padding::VALID;
  int xin = tensor(op.inputs[0]);
  if (p == std::vector<std::int64_t>{0, 0, 0, 0}) padding = tfl::Padding::VALID;
  else if (p == std::vector<std::int64_t>{bt, bl, ab, aw}) padding = tfl::Padding::SAME;
  else {
    // Explicit pads: a PAD op first (real 0 = the zero point for quantised inputs).
    std::vector<std::int64_t> shape = x.shape.sizes();
    shape[0] = std::max<std::int64_t>(shape[0], 1);
    shape[1] += p[0] + p[2];
    shape[2] += p[1] + p[3];
    const int padded = add_tensor(unique(op.inputs[0] + "/padded"), x.dtype, shape, x.quant);
    const int pads = add_tensor(unique(op.name + "/paddings"), ir::DType::Int32, {4, 2}, std::nullopt,
                                std::vector<std::int32_t>{0, 0, static_cast<std::int32_t>(p[0]), static_cast<std::int32_t>(p[2]),
                                                          static_cast<std::int32_t>(p[1]), static_cast<std::int32_t>(p[3]), 0, 0}
                                    .data(),
                                32);
    emit(B::PAD, {xin, pads}, {padded}, tfl::BuiltinOptions::PadOptions, tfl::CreatePadOptions(fbb_).Union(),
         version_for(op, 2));
    xin = padded;
  }
  // A fused SIGMOID (FuseActivation makes them) has no TFLite fused form: a LOGISTIC after.
  // A fused SIGMOID or TANH: a LOGISTIC / TANH op after (FULLY_CONNECTED refuses a fused TANH,
  // and CONV_2D's float kernel would clamp nothing for it: the interpreter ignored it)
  const ir::Activation fused = ir::fused_activation(op);
  const bool sigmoid = (fused == ir::Activation::Sigmoid || fused == ir::Activation::Tanh) && !t(op.outputs[0]).quant;
  const B after = fused == ir::Activation::Tanh ? B::TANH : B::LOGISTIC;
  tfl::ActivationFunctionType act =
      sigmoid ? tfl::ActivationFunctionType::NONE
              : legal_activation(act_of(ir::fused_activation(op), op), t(op.outputs[0]));
  const int y = sigmoid ? pre_sigmoid(op) : tensor(op.outputs[0]);
  int bias = op.inputs.size() > 2 ? tensor(op.inputs[2]) : -1;
  if (bias < 0 && x.quant && w.quant) {
    // TFLite's int8 kernels want an int32 bias: zeros with scale s_x * s_w.
    std::vector<std::int32_t> zeros(static_cast<std::size_t>(M), 0);
    const ir::QuantParams bq = bias_params(*x.quant, *w.quant, M);
    bias = add_tensor(unique(op.name + "/bias"), ir::DType::Int32, {M}, bq, zeros.data(), zeros.size() * 4);
  } else if (bias < 0 && x.dtype == ir::DType::Float32) {
    // TFLite's CONV_2D / DEPTHWISE_CONV_2D (before 2.x's optional bias) want one: zeros
    std::vector<float> zeros(static_cast<std::size_t>(M), 0.f);
    bias = add_tensor(unique(op.name + "/bias"), ir::DType::Float32, {M}, std::nullopt, zeros.data(), zeros.size() * 4);
  } else if (bias >= 0) {
    const ir::Tensor& b = t(op.inputs[2]);
    if (b.dtype == ir::DType::Int32 && !b.quant && x.quant && w.quant) {
      // Give the bias the scale TFLite expects: s_x * s_w[c], zero point 0.
      const ir::QuantParams bq = bias_params(*x.quant, *w.quant, M);
      index_.erase(op.inputs[2]);
      bias = add_tensor(unique(op.inputs[2] + "/q"), ir::DType::Int32, {M}, bq, b.data->data(), b.data->size());
    }
  }
  if (group == 1) {
    if (cg != C) unsupported(op, "weight has " + std::to_string(cg) + " input channels, input has " + std::to_string(C));
    const auto o = tfl::CreateConv2DOptions(fbb_, padding, static_cast<int>(s[1]), static_cast<int>(s[0]), act,
                                            static_cast<int>(d[1]), static_cast<int>(d[0]));
    const bool per_channel = w.quant && w.quant->scales.size() > 1;
    emit(B::CONV_2D, {xin, tensor(op.inputs[1]), bias}, {y}, tfl::BuiltinOptions::Conv2DOptions, o.Union(),
         x.dtype == ir::DType::Int8 ? (per_channel ? 3 : 2) : 1);
    if (sigmoid) emit(after, {y}, {tensor(op.outputs[0])});
    return;
  }
  if (group == C && cg == 1 && M % C == 0) {
    // Depthwise: OHWI [M, KH, KW, 1] -> TFLite's [1, KH, KW, M].
    const std::size_t es = ir::dtype_size(w.dtype);
    std::vector<std::byte> buf(w.data->size());
    for (std::int64_t m = 0; m < M; ++m)
      for (std::int64_t k = 0; k < kh * kw; ++k)
        std::memcpy(&buf[static_cast<std::size_t>(k * M + m) * es], w.data->data() + static_cast<std::size_t>(m * kh * kw + k) * es, es);
    std::optional<ir::QuantParams> wq = w.quant;
    if (wq && wq->scales.size() > 1) wq->axis = 3;
    // The reader names its OHWI copy "<name>/ohwi": write the file's own name back.
    std::string wname = op.inputs[1];
    if (wname.size() > 5 && wname.compare(wname.size() - 5, 5, "/ohwi") == 0) wname.resize(wname.size() - 5);
    const int wi = add_tensor(wname, w.dtype, {1, kh, kw, M}, wq, buf.data(), buf.size());
    const auto o = tfl::CreateDepthwiseConv2DOptions(fbb_, padding, static_cast<int>(s[1]), static_cast<int>(s[0]),
                                                     static_cast<int>(M / C), act, static_cast<int>(d[1]), static_cast<int>(d[0]));
    const bool per_channel = w.quant && w.quant->scales.size() > 1;
    emit(B::DEPTHWISE_CONV_2D, {xin, wi, bias}, {y}, tfl::BuiltinOptions::DepthwiseConv2DOptions, o.Union(),
         x.dtype == ir::DType::Int8 ? (per_channel ? 3 : 2) : (d[0] > 1 || d[1] > 1 ? 2 : 1));
    if (sigmoid) emit(after, {y}, {tensor(op.outputs[0])});
    return;
  }
  unsupported(op, "grouped convolution with " + std::to_string(group) + " groups");
}

// Conv over NCDHW: TRANSPOSE to NDHWC, CONV_3D (filter [kD, kH, kW, C, M]), TRANSPOSE back.
// TFLite's CONV_3D is float only.
void Writer::conv3d(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& w = t(op.inputs[1]);
  const ir::Tensor& yt = t(op.outputs[0]);
  if (x.dtype != ir::DType::Float32 || x.quant) unsupported(op, "3-D convolution on " + std::string(ir::dtype_name(x.dtype)) + " (TFLite's CONV_3D is float only)");
  if (!x.shape.is_static() || !yt.shape.is_static() || !w.is_constant() || !w.shape.is_static() || w.shape.rank() != 5)
    unsupported(op, "3-D convolution needs static shapes and a constant weight");
  if (op.attr_int("group", 1) != 1) unsupported(op, "grouped 3-D convolution");
  if (op.attr_string("auto_pad", "NOTSET") != "NOTSET") unsupported(op, "auto_pad");
  auto s = op.attr_ints("strides"), d = op.attr_ints("dilations"), p = op.attr_ints("pads");
  if (s.empty()) s = {1, 1, 1};
  if (d.empty()) d = {1, 1, 1};
  if (p.empty()) p = {0, 0, 0, 0, 0, 0};
  const auto xs = x.shape.sizes(), ws = w.shape.sizes(), ys = yt.shape.sizes();
  const std::int64_t M = ws[0], C = ws[1];
  if (xs[1] != C) unsupported(op, "weight channels do not match the input");
  auto ndhwc = [](const std::vector<std::int64_t>& v) { return std::vector<std::int64_t>{v[0], v[2], v[3], v[4], v[1]}; };
  int xin = add_tensor(unique(op.inputs[0] + "/ndhwc"), x.dtype, ndhwc(xs), std::nullopt);
  emit(B::TRANSPOSE, {tensor(op.inputs[0]), const_i32(op.name + "/to_ndhwc", {0, 2, 3, 4, 1})}, {xin},
       tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union());
  bool zero = true, same = true;
  for (int i = 0; i < 3; ++i) {
    std::int64_t after;
    const std::int64_t before = same_before(xs[2 + i], ws[2 + i], s[i], d[i], after);
    zero &= p[i] == 0 && p[i + 3] == 0;
    same &= p[i] == before && p[i + 3] == after;
  }
  tfl::Padding padding = tfl::Padding::VALID;
  if (!zero && same) padding = tfl::Padding::SAME;
  else if (!zero) {
    auto shape = ndhwc(xs);
    for (int i = 0; i < 3; ++i) shape[1 + i] += p[i] + p[i + 3];
    const int padded = add_tensor(unique(op.inputs[0] + "/padded"), x.dtype, shape, std::nullopt);
    std::vector<std::int32_t> pv{0, 0};
    for (int i = 0; i < 3; ++i) {
      pv.push_back(static_cast<std::int32_t>(p[i]));
      pv.push_back(static_cast<std::int32_t>(p[i + 3]));
    }
    pv.push_back(0);
    pv.push_back(0);
    const int pads = add_tensor(unique(op.name + "/paddings"), ir::DType::Int32, {5, 2}, std::nullopt, pv.data(), pv.size() * 4);
    emit(B::PAD, {xin, pads}, {padded}, tfl::BuiltinOptions::PadOptions, tfl::CreatePadOptions(fbb_).Union(), 1);
    xin = padded;
  }
  // [M, C, kD, kH, kW] -> [kD, kH, kW, C, M]
  const std::int64_t taps = ws[2] * ws[3] * ws[4];
  std::vector<float> f(static_cast<std::size_t>(M * C * taps));
  const auto src = w.data->as<float>();
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t k = 0; k < taps; ++k)
        f[static_cast<std::size_t>((k * C + c) * M + m)] = src[static_cast<std::size_t>((m * C + c) * taps + k)];
  std::string wname = op.inputs[1];
  if (wname.size() > 6 && wname.compare(wname.size() - 6, 6, "/oidhw") == 0) wname.resize(wname.size() - 6);
  const int wi = add_tensor(unique(wname), ir::DType::Float32, {ws[2], ws[3], ws[4], C, M}, std::nullopt, f.data(), f.size() * 4);
  std::vector<int> ins{xin, wi};
  if (op.inputs.size() > 2 && !op.inputs[2].empty()) ins.push_back(tensor(op.inputs[2]));
  const tfl::ActivationFunctionType act = act_of(ir::fused_activation(op), op);
  const int yn = add_tensor(unique(op.outputs[0] + "/ndhwc"), yt.dtype, ndhwc(ys), std::nullopt);
  const auto o = tfl::CreateConv3DOptions(fbb_, padding, static_cast<int>(s[0]), static_cast<int>(s[2]), static_cast<int>(s[1]), act,
                                          static_cast<int>(d[0]), static_cast<int>(d[2]), static_cast<int>(d[1]));
  emit(B::CONV_3D, ins, {yn}, tfl::BuiltinOptions::Conv3DOptions, o.Union(), 1);
  emit(B::TRANSPOSE, {yn, const_i32(op.name + "/to_ncdhw", {0, 4, 1, 2, 3})}, {tensor(op.outputs[0])},
       tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union());
}

int Writer::variable_tensor(const std::string& name, const std::vector<std::int64_t>& shape) {
  const std::string n = unique(name);
  std::vector<std::int32_t> s(shape.begin(), shape.end());
  tensors_.push_back(tfl::CreateTensor(fbb_, fbb_.CreateVector(s), tfl::TensorType::FLOAT32, 0, fbb_.CreateString(n), 0, true));
  info_.push_back({ir::DType::Float32, shape, false, std::nullopt});  // one entry per tensor, as add_tensor's
  return static_cast<int>(tensors_.size() - 1);
}

// An ONNX LSTM as TFLite's UNIDIRECTIONAL_SEQUENCE_LSTM (one direction; reverse through
// REVERSE_V2 in time before and after) or BIDIRECTIONAL_SEQUENCE_LSTM (merged output),
// as the TensorFlow converter writes a Keras LSTM. Gates: ONNX W, R and B hold i, o, f, c;
// TFLite takes one tensor per gate in the order i, f, c, o, bias = Wb + Rb, peepholes
// i, f, o. Y [T, dirs, B, H] (layout 1: [B, T, dirs, H]) is the sequence output reshaped;
// Y_h its last step (step 0 for the backward direction). The states are variable
// tensors: they start at zero, and the interpreter carries them from one Invoke to the
// next unless reset (tf.lite.Interpreter.reset_all_variables), as for the converter's.
void Writer::lstm(const ir::Operation& op) {
  if (const std::string why = passes::decompose::tflite_sequence_lstm_refusal(g_, op); !why.empty()) unsupported(op, why);
  const auto xs = t(op.inputs[0]).shape.sizes();
  const bool time_major = op.attr_int("layout", 0) == 0;
  const std::int64_t T = time_major ? xs[0] : xs[1], Bn = time_major ? xs[1] : xs[0], I = xs[2];
  const std::string dir = op.attr_string("direction", "forward");
  const std::int64_t dirs = dir == "bidirectional" ? 2 : 1;
  const std::int64_t H = t(op.inputs[2]).shape.sizes()[2];
  const auto W = *passes::f32_values(g_, op.inputs[1]), R = *passes::f32_values(g_, op.inputs[2]);
  if (static_cast<std::int64_t>(W.size()) != dirs * 4 * H * I || static_cast<std::int64_t>(R.size()) != dirs * 4 * H * H)
    unsupported(op, "weights do not match the hidden size");
  std::vector<float> bias(static_cast<std::size_t>(dirs * 8 * H), 0.f);
  if (op.inputs.size() > 3 && !op.inputs[3].empty()) bias = *passes::f32_values(g_, op.inputs[3]);
  std::optional<std::vector<float>> peep;
  if (op.inputs.size() > 7 && !op.inputs[7].empty()) {
    peep = passes::f32_values(g_, op.inputs[7]);
    if (std::all_of(peep->begin(), peep->end(), [](float v) { return v == 0.f; })) peep.reset();
  }
  const std::string base = op.name.empty() ? op.outputs[0] : op.name;
  const auto Hu = static_cast<std::size_t>(H), Iu = static_cast<std::size_t>(I);
  constexpr std::array<std::size_t, 4> kOnnxGate{0, 2, 3, 1};  // TFLite gate k (i, f, c, o) -> ONNX's i, o, f, c
  constexpr std::array<const char*, 4> kGateName{"input", "forget", "cell", "output"};
  // inputs 1..17 of one direction's cell
  auto cell = [&](std::int64_t d) {
    const auto du = static_cast<std::size_t>(d);
    std::vector<int> v;
    auto rows = [&](const std::vector<float>& m, std::size_t first, std::size_t width) {
      return std::vector<float>(m.begin() + static_cast<std::ptrdiff_t>(first * width),
                                m.begin() + static_cast<std::ptrdiff_t>((first + Hu) * width));
    };
    const std::string pre = base + (dirs == 2 ? (d == 0 ? "/fw" : "/bw") : "");
    for (std::size_t k = 0; k < 4; ++k)
      v.push_back(f32_const(pre + "/input_to_" + kGateName[k] + "_weights", {H, I}, rows(W, (du * 4 + kOnnxGate[k]) * Hu, Iu)));
    for (std::size_t k = 0; k < 4; ++k)
      v.push_back(f32_const(pre + "/recurrent_to_" + kGateName[k] + "_weights", {H, H}, rows(R, (du * 4 + kOnnxGate[k]) * Hu, Hu)));
    if (peep) {
      // ONNX P: i, o, f per direction; TFLite: cell_to_input, cell_to_forget, cell_to_output
      constexpr std::array<std::size_t, 3> kOnnxPeep{0, 2, 1};
      constexpr std::array<const char*, 3> kPeepName{"input", "forget", "output"};
      for (std::size_t k = 0; k < 3; ++k) {
        const auto first = peep->begin() + static_cast<std::ptrdiff_t>((du * 3 + kOnnxPeep[k]) * Hu);
        v.push_back(f32_const(pre + "/cell_to_" + kPeepName[k] + "_weights", {H}, std::vector<float>(first, first + static_cast<std::ptrdiff_t>(Hu))));
      }
    } else {
      v.insert(v.end(), {-1, -1, -1});
    }
    for (std::size_t k = 0; k < 4; ++k) {
      std::vector<float> b(Hu);
      const std::size_t g = kOnnxGate[k];
      for (std::size_t j = 0; j < Hu; ++j) b[j] = bias[du * 8 * Hu + g * Hu + j] + bias[du * 8 * Hu + (4 + g) * Hu + j];
      v.push_back(f32_const(pre + "/" + kGateName[k] + "_gate_bias", {H}, b));
    }
    v.insert(v.end(), {-1, -1});  // no projection
    return v;
  };
  // TFLite's BIDIRECTIONAL_SEQUENCE_LSTM computes wrong values batch-major with merged
  // outputs for a batch above 2 (tfjs-tflite, checked against the ONNX definition): a
  // bidirectional layer always runs time-major, between TRANSPOSEs.
  const bool tm = time_major || dirs == 2;
  const std::int64_t time_axis = tm ? 0 : 1;
  const std::vector<std::int64_t> seq_shape = tm ? std::vector<std::int64_t>{T, Bn, dirs * H} : std::vector<std::int64_t>{Bn, T, dirs * H};
  auto transpose = [&](int from, int to, const std::vector<std::int64_t>& perm) {
    emit(B::TRANSPOSE, {from, const_i32(base + "/perm", perm)}, {to}, tfl::BuiltinOptions::TransposeOptions,
         tfl::CreateTransposeOptions(fbb_).Union());
  };
  auto fresh = [&](const std::string& name, const std::vector<std::int64_t>& shape) {
    return add_tensor(unique(base + name), ir::DType::Float32, shape, std::nullopt);
  };
  auto reverse_time = [&](int from, const std::vector<std::int64_t>& shape, const std::string& name) {
    const int to = fresh(name, shape);
    emit(B::REVERSE_V2, {from, const_i32(base + "/time_axis", {time_axis})}, {to}, tfl::BuiltinOptions::ReverseV2Options,
         tfl::CreateReverseV2Options(fbb_).Union(), 1);
    return to;
  };
  int x = tensor(op.inputs[0]);
  if (tm && !time_major) {
    const int xt = fresh("/time_major_input", {T, Bn, I});
    transpose(x, xt, {1, 0, 2});
    x = xt;
  }
  const bool reverse = dir == "reverse";
  if (reverse) x = reverse_time(x, tm ? std::vector<std::int64_t>{T, Bn, I} : std::vector<std::int64_t>{Bn, T, I}, "/reversed_input");
  const int seq = fresh("/sequence", seq_shape);
  using A = tfl::ActivationFunctionType;
  if (dirs == 1) {
    std::vector<int> ins{x};
    const auto c = cell(0);
    ins.insert(ins.end(), c.begin(), c.end());
    ins.push_back(variable_tensor(base + "/output_state", {Bn, H}));
    ins.push_back(variable_tensor(base + "/cell_state", {Bn, H}));
    ins.insert(ins.end(), {-1, -1, -1, -1});  // no layer normalisation
    const auto o = tfl::CreateUnidirectionalSequenceLSTMOptions(fbb_, A::TANH, 0.f, 0.f, tm);
    emit(B::UNIDIRECTIONAL_SEQUENCE_LSTM, ins, {seq}, tfl::BuiltinOptions::UnidirectionalSequenceLSTMOptions, o.Union(), 1);
  } else {
    std::vector<int> ins{x};
    for (std::int64_t d = 0; d < 2; ++d) {
      const auto c = cell(d);
      ins.insert(ins.end(), c.begin(), c.end());
    }
    ins.push_back(variable_tensor(base + "/fw_output_state", {Bn, H}));
    ins.push_back(variable_tensor(base + "/fw_cell_state", {Bn, H}));
    ins.push_back(variable_tensor(base + "/bw_output_state", {Bn, H}));
    ins.push_back(variable_tensor(base + "/bw_cell_state", {Bn, H}));
    ins.insert(ins.end(), 9, -1);  // no auxiliary input
    const auto o = tfl::CreateBidirectionalSequenceLSTMOptions(fbb_, A::TANH, 0.f, 0.f, true, true);
    emit(B::BIDIRECTIONAL_SEQUENCE_LSTM, ins, {seq}, tfl::BuiltinOptions::BidirectionalSequenceLSTMOptions, o.Union(), 1);
  }
  const int s = reverse ? reverse_time(seq, seq_shape, "/sequence_in_time") : seq;
  auto reshape = [&](int from, int to, const std::vector<std::int64_t>& shape) {
    std::vector<std::int32_t> ns(shape.begin(), shape.end());
    emit(B::RESHAPE, {from, const_i32(base + "/shape", shape)}, {to}, tfl::BuiltinOptions::ReshapeOptions,
         tfl::CreateReshapeOptionsDirect(fbb_, &ns).Union());
  };
  auto wanted = [&](std::size_t i) {
    return op.outputs.size() > i && !op.outputs[i].empty() && (outputs_.count(op.outputs[i]) || consumers_.count(op.outputs[i]));
  };
  if (wanted(0)) {
    // Y: [T, dirs, B, H] (layout 1: [B, T, dirs, H])
    const int y = tensor(op.outputs[0]);
    if (!tm) {
      reshape(s, y, {Bn, T, 1, H});
    } else if (dirs == 1 && time_major) {
      reshape(s, y, {T, 1, Bn, H});
    } else {
      const int split = fresh("/directions", {T, Bn, dirs, H});
      reshape(s, split, {T, Bn, dirs, H});
      transpose(split, y, time_major ? std::vector<std::int64_t>{0, 2, 1, 3} : std::vector<std::int64_t>{1, 0, 2, 3});
    }
  }
  if (wanted(1)) {
    // Y_h [dirs, B, H] (layout 1: [B, dirs, H]): each direction's h after its last step
    const int yh = tensor(op.outputs[1]);
    if (!tm) {
      const std::int64_t step = reverse ? 0 : T - 1;
      emit(B::SLICE, {s, const_i32(base + "/begin", {0, step, 0}), const_i32(base + "/size", {Bn, 1, H})}, {yh},
           tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union());
    } else {
      std::vector<int> parts;
      const bool direct = dirs == 1 && time_major;
      for (std::int64_t d = 0; d < dirs; ++d) {
        const std::int64_t step = (reverse || d == 1) ? 0 : T - 1;
        const int p = direct ? yh : fresh("/last_h", {1, Bn, H});
        emit(B::SLICE, {s, const_i32(base + "/begin", {step, 0, d * H}), const_i32(base + "/size", {1, Bn, H})}, {p},
             tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union());
        parts.push_back(p);
      }
      if (!direct) {
        int all = parts[0];
        if (dirs == 2) {
          all = time_major ? yh : fresh("/last_h_all", {dirs, Bn, H});
          emit(B::CONCATENATION, parts, {all}, tfl::BuiltinOptions::ConcatenationOptions,
               tfl::CreateConcatenationOptions(fbb_, 0, A::NONE).Union());
        }
        if (!time_major) transpose(all, yh, {1, 0, 2});
      }
    }
  }
}

void Writer::pool(const ir::Operation& op) {
  const bool global = op.kind == K::GlobalAveragePool || op.kind == K::GlobalMaxPool;
  const bool avg = op.kind == K::AveragePool || op.kind == K::GlobalAveragePool;
  const bool nhwc = op.attr_string("layout", "NCHW") == "NHWC";
  const ir::Tensor& x = t(op.inputs[0]);
  if (global) no_fused_activation(op);  // MEAN / REDUCE_MAX
  if (global && x.shape.rank_known && (!nhwc || x.shape.rank() != 4)) {
    // Global pooling of any rank = MEAN / REDUCE_MAX over the spatial axes, dims kept.
    std::vector<std::int64_t> axes;
    const auto r = static_cast<std::int64_t>(x.shape.rank());
    for (std::int64_t a = nhwc ? 1 : 2; a < (nhwc ? r - 1 : r); ++a) axes.push_back(a);
    const auto o = tfl::CreateReducerOptions(fbb_, true);
    emit(avg ? B::MEAN : B::REDUCE_MAX, {tensor(op.inputs[0]), const_i32(op.name + "/axes", axes)}, {tensor(op.outputs[0])},
         tfl::BuiltinOptions::ReducerOptions, o.Union(), version_for(op, 2));
    return;
  }
  if (!nhwc) unsupported(op, "layout NCHW; NHWC expected after legalisation");
  if (x.shape.rank() != 4 || !x.shape.dims[1].is_static() || !x.shape.dims[2].is_static()) unsupported(op, "needs a 4-D input with static H, W");
  if (global) {
    // Global pooling = MEAN / REDUCE_MAX over H, W with kept dims.
    const int axes = const_i32(op.name + "/axes", {1, 2});
    const auto o = tfl::CreateReducerOptions(fbb_, true);
    emit(avg ? B::MEAN : B::REDUCE_MAX, {tensor(op.inputs[0]), axes}, {tensor(op.outputs[0])},
         tfl::BuiltinOptions::ReducerOptions, o.Union(), version_for(op, 2));
    return;
  }
  const auto k = op.attr_ints("kernel_shape");
  auto s = op.attr_ints("strides"), p = op.attr_ints("pads");
  if (s.empty()) s = {1, 1};
  if (p.empty()) p = {0, 0, 0, 0};
  if (k.size() != 2 || s.size() != 2 || p.size() != 4) unsupported(op, "2-D pooling only");
  if (op.attr_string("auto_pad", "NOTSET") != "NOTSET") unsupported(op, "auto_pad");
  if (!op.attr_ints("dilations").empty() && op.attr_ints("dilations") != std::vector<std::int64_t>{1, 1}) unsupported(op, "dilations");
  const ir::Tensor& yt = t(op.outputs[0]);
  if (!yt.shape.rank_known || yt.shape.rank() != 4 || !yt.shape.dims[1].is_static() || !yt.shape.dims[2].is_static())
    unsupported(op, "needs a static output shape");
  const std::int64_t in[2] = {x.shape.dims[1].value, x.shape.dims[2].value};
  const std::int64_t out[2] = {yt.shape.dims[1].value, yt.shape.dims[2].value};
  // The pads the op uses (ceil_mode: the last window may run past the end pad) and
  // the bounds its average counts within (count_include_pad: the pads, not past them).
  const std::vector<std::int64_t> declared = p;
  for (int i = 0; i < 2; ++i) {
    const std::int64_t extra = (out[i] - 1) * s[i] + k[i] - (in[i] + p[i] + p[i + 2]);
    if (extra > 0) p[i + 2] += extra;
  }
  std::int64_t ab, aw;
  const std::int64_t bt = same_before(in[0], k[0], s[0], 1, ab);
  const std::int64_t bl = same_before(in[1], k[1], s[1], 1, aw);
  tfl::Padding padding = tfl::Padding::VALID;
  int xin = tensor(op.inputs[0]);
  const bool include_pad = op.attr_int("count_include_pad", 0) != 0;
  // the divisor TFLite's padded average uses equals the op's only without pads
  // (VALID), or with SAME pads when the op excludes them from its count
  std::vector<float> correction;  // per output pixel: k_h k_w / count, when an AVG over explicit pads needs it
  if (p == std::vector<std::int64_t>{0, 0, 0, 0}) padding = tfl::Padding::VALID;
  else if (p == std::vector<std::int64_t>{bt, bl, ab, aw} && (!avg || !include_pad)) padding = tfl::Padding::SAME;
  else {
    // Explicit pads: PADV2 with the lowest value (max) or PAD with zeros (average), then VALID.
    std::vector<std::int64_t> shape = x.shape.sizes();
    shape[0] = std::max<std::int64_t>(shape[0], 1);
    shape[1] += p[0] + p[2];
    shape[2] += p[1] + p[3];
    const int padded = add_tensor(unique(op.inputs[0] + "/padded"), x.dtype, shape, x.quant);
    const std::vector<std::int32_t> pv{0, 0, static_cast<std::int32_t>(p[0]), static_cast<std::int32_t>(p[2]),
                                       static_cast<std::int32_t>(p[1]), static_cast<std::int32_t>(p[3]), 0, 0};
    const int pads = add_tensor(unique(op.name + "/paddings"), ir::DType::Int32, {4, 2}, std::nullopt, pv.data(), 32);
    if (avg) {
      // the divisor the op uses per output pixel: its window within [0, in) (or within
      // the declared pads with count_include_pad), never past them
      bool uniform = true;
      for (std::int64_t h = 0; h < out[0]; ++h)
        for (std::int64_t w = 0; w < out[1]; ++w) {
          std::int64_t n[2];
          const std::int64_t pos[2] = {h, w};
          for (int i = 0; i < 2; ++i) {
            const std::int64_t lo = include_pad ? -declared[i] : 0, hi = include_pad ? in[i] + declared[i + 2] : in[i];
            const std::int64_t a = pos[i] * s[i] - p[i];
            n[i] = std::max<std::int64_t>(std::min(a + k[i], hi) - std::max(a, lo), 1);
          }
          correction.push_back(static_cast<float>(double(k[0] * k[1]) / double(n[0] * n[1])));
          uniform &= correction.back() == 1.f;
        }
      if (uniform) correction.clear();
      if (!correction.empty() && x.dtype != ir::DType::Float32)
        unsupported(op, "an average over pads it does not count, on " + std::string(ir::dtype_name(x.dtype)) +
                            " (TFLite's AVERAGE_POOL_2D counts only SAME's pads)");
      emit(B::PAD, {xin, pads}, {padded}, tfl::BuiltinOptions::PadOptions, tfl::CreatePadOptions(fbb_).Union(), version_for(op, 2));
    } else {
      int lowest;
      if (x.dtype == ir::DType::Float32) {
        const float v = -std::numeric_limits<float>::max();
        lowest = add_tensor(unique(op.name + "/lowest"), x.dtype, {}, std::nullopt, &v, 4);
      } else if (x.dtype == ir::DType::Int8 || x.dtype == ir::DType::UInt8) {
        const std::uint8_t v = x.dtype == ir::DType::Int8 ? 0x80 : 0;
        lowest = add_tensor(unique(op.name + "/lowest"), x.dtype, {}, x.quant, &v, 1);
      } else {
        unsupported(op, "explicit pads on " + std::string(ir::dtype_name(x.dtype)));
      }
      emit(B::PADV2, {xin, pads, lowest}, {padded}, tfl::BuiltinOptions::PadV2Options, tfl::CreatePadV2Options(fbb_).Union(),
           version_for(op, 2));
    }
    xin = padded;
  }
  // TFLite's 8-bit AVERAGE_POOL_2D keeps its input's params (its quantisation spec): an
  // output on others is a QUANTIZE after it.
  const bool requantize = avg && x.quant && yt.quant && !(x.quant == yt.quant);
  // The fused activation (tflite_fusion(): never with `requantize`) on the pool, or on the
  // correction's MUL.
  const tfl::ActivationFunctionType fa = fused(op);
  if (requantize && fa != tfl::ActivationFunctionType::NONE) no_fused_activation(op);
  const tfl::ActivationFunctionType act = correction.empty() ? fa : tfl::ActivationFunctionType::NONE;
  int y = correction.empty() && !requantize
              ? tensor(op.outputs[0])
              : add_tensor(unique(op.outputs[0] + (requantize ? "/pooled" : "/uncorrected")), x.dtype, yt.shape.sizes(), x.quant);
  const auto o = tfl::CreatePool2DOptions(fbb_, padding, static_cast<int>(s[1]), static_cast<int>(s[0]), static_cast<int>(k[1]),
                                          static_cast<int>(k[0]), act);
  emit(avg ? B::AVERAGE_POOL_2D : B::MAX_POOL_2D, {xin}, {y}, tfl::BuiltinOptions::Pool2DOptions, o.Union(),
       version_for(op, 2));
  if (!correction.empty()) {
    // x k_h k_w / count: the window's sum over the values the op counts
    const int c = add_tensor(unique(op.name + "/count_correction"), ir::DType::Float32, {1, out[0], out[1], 1}, std::nullopt,
                             correction.data(), correction.size() * 4);
    const int yo = tensor(op.outputs[0]);
    emit(B::MUL, {y, c}, {yo}, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_, fa).Union(), 1);
  }
  if (requantize)
    emit(B::QUANTIZE, {y}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::QuantizeOptions, tfl::CreateQuantizeOptions(fbb_).Union(), 2);
}

// ---- logic: Xor (the comparisons, boolean ops and Where are rows) ----------------------

void Writer::logic(const ir::Operation& op) {
  // a xor b = a != b on bool
  const ir::Tensor& a = t(op.inputs[0]);
  const int y = tensor(op.outputs[0]);
  if (t(op.inputs[1]).dtype != a.dtype) unsupported(op, "inputs of two types");
  if (a.dtype != ir::DType::Bool) unsupported(op, "on " + std::string(ir::dtype_name(a.dtype)) + " (ONNX's logic ops take bool)");
  emit(B::NOT_EQUAL, {tensor(op.inputs[0]), tensor(op.inputs[1])}, {y}, tfl::BuiltinOptions::NotEqualOptions,
       tfl::CreateNotEqualOptions(fbb_).Union());
}

// ---- integer arithmetic TFLite's kernels lack -----------------------------------------

namespace {
bool narrow_int(ir::DType d) {
  return d == ir::DType::UInt8 || d == ir::DType::Int8 || d == ir::DType::Int16 || d == ir::DType::UInt16;
}
}  // namespace

void Writer::integer_arithmetic(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  const ir::DType dt = x.dtype;
  const std::string base = op.outputs[0];
  // 8- and 16-bit integers without quantisation params: TFLite's 8-bit ADD/SUB/MUL/DIV are
  // quantised ops. Computed in int32 and cast back (the CAST wraps as ONNX's arithmetic does).
  const bool widen = narrow_int(dt) && !x.quant;
  const ir::DType ct = widen ? ir::DType::Int32 : dt;
  auto operand = [&](std::size_t i) {
    const ir::Tensor& a = t(op.inputs[i]);
    return cast(tensor(op.inputs[i]), a.dtype, ct, a.shape, op.inputs[i] + "/i32");
  };
  auto result = [&](B code, tfl::BuiltinOptions ot, fb::Offset<void> o, std::vector<int> ins) {
    const int r = widen ? temp(base + "/i32", ct, yt.shape) : tensor(op.outputs[0]);
    emit(code, std::move(ins), {r}, ot, o);
    if (widen) {
      const auto it = tensor_type(ct), to = tensor_type(yt.dtype);
      emit(B::CAST, {r}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CastOptions, tfl::CreateCastOptions(fbb_, *it, *to).Union());
    }
  };
  switch (op.kind) {
    case K::Add: case K::Sub: case K::Mul: case K::Div: {
      if (!widen) unsupported(op, "on " + std::string(ir::dtype_name(dt)));
      const int a = operand(0), b = operand(1);
      if (op.kind == K::Add) result(B::ADD, tfl::BuiltinOptions::AddOptions, tfl::CreateAddOptions(fbb_).Union(), {a, b});
      if (op.kind == K::Sub) result(B::SUB, tfl::BuiltinOptions::SubOptions, tfl::CreateSubOptions(fbb_).Union(), {a, b});
      if (op.kind == K::Mul) result(B::MUL, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_).Union(), {a, b});
      // int32 DIV truncates: ONNX's integer Div too (its operands here are never both negative
      // for unsigned types; signed ones truncate in both)
      if (op.kind == K::Div) result(B::DIV, tfl::BuiltinOptions::DivOptions, tfl::CreateDivOptions(fbb_).Union(), {a, b});
      return;
    }
    case K::Pow: {
      // TFLite's POW takes two float32 or two int32 operands.
      const ir::Tensor& e = t(op.inputs[1]);
      if (dt != ir::DType::Float32 && dt != ir::DType::Int32)
        unsupported(op, "a base of type " + std::string(ir::dtype_name(dt)) + " (TFLite's POW takes float32 or int32)");
      if (dt == ir::DType::Int32 && dtype_is_float(e.dtype))
        unsupported(op, "an int32 base with a float exponent (TFLite's POW takes one type)");
      if (e.dtype != ir::DType::Float32 && e.dtype != ir::DType::Int32 && e.dtype != ir::DType::Int64 && e.dtype != ir::DType::Int16 &&
          e.dtype != ir::DType::Int8 && e.dtype != ir::DType::UInt8)
        unsupported(op, "an exponent of type " + std::string(ir::dtype_name(e.dtype)) + " (TFLite's CAST cannot make it the base's type)");
      // an integer exponent is exact in float32 up to 2^24; int64 -> int32 when it fits
      const int b = cast(tensor(op.inputs[1]), e.dtype, dt, e.shape, op.inputs[1] + "/as_base");
      emit(B::POW, {tensor(op.inputs[0]), b}, {tensor(op.outputs[0])});
      return;
    }
    case K::Mod: {
      const bool fmod = op.attr_int("fmod", 0) != 0;
      if (x.quant) unsupported(op, "on quantised tensors");
      if (!fmod) {
        // ONNX's integer Mod takes the divisor's sign: TFLite's FLOOR_MOD
        if (dt != ir::DType::Int32 && dt != ir::DType::Int64 && dt != ir::DType::Float32 && !widen)
          unsupported(op, "on " + std::string(ir::dtype_name(dt)));
        result(B::FLOOR_MOD, tfl::BuiltinOptions::FloorModOptions, tfl::CreateFloorModOptions(fbb_).Union(), {operand(0), operand(1)});
        return;
      }
      if (dt == ir::DType::Float32) {
        // fmod(x, y) = sign(x) * fmod(|x|, |y|), and on |x|, |y| FLOOR_MOD is fmod exactly
        const ir::Tensor& d = t(op.inputs[1]);
        const int ax = temp(base + "/abs_x", dt, x.shape), ad = temp(base + "/abs_y", dt, d.shape);
        emit(B::ABS, {tensor(op.inputs[0])}, {ax});
        emit(B::ABS, {tensor(op.inputs[1])}, {ad});
        const int m = temp(base + "/fmod_abs", dt, yt.shape), nm = temp(base + "/fmod_neg", dt, yt.shape);
        emit(B::FLOOR_MOD, {ax, ad}, {m}, tfl::BuiltinOptions::FloorModOptions, tfl::CreateFloorModOptions(fbb_).Union());
        emit(B::NEG, {m}, {nm});
        const int neg = temp(base + "/x_negative", ir::DType::Bool, x.shape);
        emit(B::LESS, {tensor(op.inputs[0]), const_scalar(base + "/zero", dt, 0)}, {neg}, tfl::BuiltinOptions::LessOptions,
             tfl::CreateLessOptions(fbb_).Union());
        emit(B::SELECT_V2, {neg, nm, m}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::SelectV2Options, tfl::CreateSelectV2Options(fbb_).Union());
        return;
      }
      if (dt == ir::DType::Int32 || widen) {
        // fmod on integers: x - trunc(x / y) * y, and int32 DIV truncates
        const int a = operand(0), b = operand(1);
        const int q = temp(base + "/quotient", ct, yt.shape), p = temp(base + "/product", ct, yt.shape);
        emit(B::DIV, {a, b}, {q}, tfl::BuiltinOptions::DivOptions, tfl::CreateDivOptions(fbb_).Union());
        emit(B::MUL, {q, b}, {p}, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_).Union());
        result(B::SUB, tfl::BuiltinOptions::SubOptions, tfl::CreateSubOptions(fbb_).Union(), {a, p});
        return;
      }
      unsupported(op, "fmod 1 on " + std::string(ir::dtype_name(dt)) +
                          " (TFLite's integer DIV, which a truncated modulo needs, is int32 only; FLOOR_MOD rounds toward -inf)");
    }
    case K::BitShift: {
      // x << s = x * 2^s and x >> s = x / 2^s (truncating) in int32, cast back: exact for
      // unsigned 8- and 16-bit values (TFLite's RIGHT_SHIFT is newer than the runtimes this targets)
      if (dt != ir::DType::UInt8 && dt != ir::DType::UInt16)
        unsupported(op, "on " + std::string(ir::dtype_name(dt)) + " (exact through int32 for uint8 and uint16 only)");
      const ir::Tensor& s = t(op.inputs[1]);
      const int a = operand(0), sh = operand(1);
      const int p = temp(base + "/pow2", ct, s.shape);
      emit(B::POW, {const_scalar(base + "/two", ct, 2), sh}, {p});
      const bool left = op.attr_string("direction", "") == "LEFT";
      if (!left && op.attr_string("direction", "") != "RIGHT") unsupported(op, "direction " + op.attr_string("direction", ""));
      if (left) result(B::MUL, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_).Union(), {a, p});
      else result(B::DIV, tfl::BuiltinOptions::DivOptions, tfl::CreateDivOptions(fbb_).Union(), {a, p});
      return;
    }
    default: unsupported(op);
  }
}

// ---- index ops -----------------------------------------------------------------------

void Writer::index_op(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
  const auto r = static_cast<std::int64_t>(x.shape.rank());
  const std::string base = op.outputs[0];
  switch (op.kind) {
    case K::ArgMax: case K::ArgMin: {
      std::int64_t axis = op.attr_int("axis", 0);
      if (axis < 0) axis += r;
      if (axis < 0 || axis >= r) unsupported(op, "axis out of range");
      const ir::Tensor& yt = t(op.outputs[0]);
      const bool last = op.attr_int("select_last_index", 0) != 0;
      const bool keep = op.attr_int("keepdims", 1) != 0;
      int xin = tensor(op.inputs[0]);
      if (last) {
        // the last extreme index = (n - 1) - the first one in the axis reversed
        if (!x.shape.dims[static_cast<std::size_t>(axis)].is_static()) unsupported(op, "select_last_index on a dynamic axis");
        const int rev = temp(base + "/reversed", x.dtype, x.shape);
        emit(B::REVERSE_V2, {xin, const_i32(base + "/reverse_axis", {axis})}, {rev}, tfl::BuiltinOptions::ReverseV2Options,
             tfl::CreateReverseV2Options(fbb_).Union());
        xin = rev;
      }
      ir::Shape reduced = x.shape;
      reduced.dims.erase(reduced.dims.begin() + axis);
      // (the row writes the one ARG_MAX / ARG_MIN without select_last_index or keepdims)
      const ir::DType it = last ? ir::DType::Int32 : yt.dtype;
      if (it != ir::DType::Int32 && it != ir::DType::Int64) unsupported(op, "an output of type " + std::string(ir::dtype_name(yt.dtype)));
      const int idx = temp(base + "/index", it, reduced);
      const auto ot = *tensor_type(it);
      const int ax = const_i32(base + "/axis", {axis});
      if (op.kind == K::ArgMax)
        emit(B::ARG_MAX, {xin, ax}, {idx}, tfl::BuiltinOptions::ArgMaxOptions, tfl::CreateArgMaxOptions(fbb_, ot).Union(), version_for(op, 2));
      else
        emit(B::ARG_MIN, {xin, ax}, {idx}, tfl::BuiltinOptions::ArgMinOptions, tfl::CreateArgMinOptions(fbb_, ot).Union(), version_for(op, 2));
      int v = idx;
      if (last) {
        const int flipped = temp(base + "/last_index", ir::DType::Int32, reduced);
        emit(B::SUB, {const_scalar(base + "/n_minus_1", ir::DType::Int32, double(x.shape.dims[static_cast<std::size_t>(axis)].value - 1)), idx},
             {flipped}, tfl::BuiltinOptions::SubOptions, tfl::CreateSubOptions(fbb_).Union());
        v = keep ? cast(flipped, ir::DType::Int32, yt.dtype, reduced, base + "/typed") : flipped;
        if (!keep) {
          const auto i = tensor_type(ir::DType::Int32), o = tensor_type(yt.dtype);
          if (!o) unsupported(op, "output type");
          emit(B::CAST, {flipped}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CastOptions, tfl::CreateCastOptions(fbb_, *i, *o).Union());
          return;
        }
      }
      // keepdims: the reduced axis back as 1
      emit(B::EXPAND_DIMS, {v, const_i32(base + "/keep_axis", {axis}, true)}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::ExpandDimsOptions,
           tfl::CreateExpandDimsOptions(fbb_).Union());
      return;
    }
    case K::CumSum: {
      if (x.dtype != ir::DType::Float32 && x.dtype != ir::DType::Int32 && x.dtype != ir::DType::Int64)
        unsupported(op, "on " + std::string(ir::dtype_name(x.dtype)) + " (TFLite's CUMSUM takes float32, int32, int64)");
      const int axis = scalar_i32(op.inputs[1], op);  // negative axes count from the end in both
      emit(B::CUMSUM, {tensor(op.inputs[0]), axis}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CumsumOptions,
           tfl::CreateCumsumOptions(fbb_, op.attr_int("exclusive", 0) != 0, op.attr_int("reverse", 0) != 0).Union());
      return;
    }
    case K::TopK: {
      // TOPK_V2 works on the last axis, largest first, ties by the lower index (as ONNX),
      // with int32 indices: other axes through a TRANSPOSE pair, smallest as top-k of -x.
      std::int64_t axis = op.attr_int("axis", -1);
      if (axis < 0) axis += r;
      if (axis < 0 || axis >= r) unsupported(op, "axis out of range");
      const bool largest = op.attr_int("largest", 1) != 0;
      if (!largest && x.dtype != ir::DType::Float32)
        unsupported(op, "largest 0 on " + std::string(ir::dtype_name(x.dtype)) + " (smallest is top-k of -x, exact for floats only)");
      const ir::Tensor& vt = t(op.outputs[0]);
      const ir::Tensor& it = t(op.outputs[1]);
      if (!vt.shape.rank_known || !it.shape.rank_known) unsupported(op, "outputs of unknown rank");
      std::vector<std::int64_t> perm;
      for (std::int64_t d = 0; d < r; ++d) perm.push_back(d);
      std::swap(perm[static_cast<std::size_t>(axis)], perm.back());
      const bool moved = axis != r - 1;
      int xin = moved ? transpose(tensor(op.inputs[0]), x.dtype, x.shape, perm, base + "/last_axis") : tensor(op.inputs[0]);
      ir::Shape xs = x.shape, vs = vt.shape;
      if (moved) {
        std::swap(xs.dims[static_cast<std::size_t>(axis)], xs.dims.back());
        std::swap(vs.dims[static_cast<std::size_t>(axis)], vs.dims.back());
      }
      if (!largest) {
        const int n = temp(base + "/negated_input", x.dtype, xs);
        emit(B::NEG, {xin}, {n});
        xin = n;
      }
      const int k = scalar_i32(op.inputs[1], op);
      const bool direct_values = largest && !moved;
      const int values = direct_values ? tensor(op.outputs[0]) : temp(base + "/values", vt.dtype, vs);
      const int index = temp(base + "/indices_i32", ir::DType::Int32, vs);
      emit(B::TOPK_V2, {xin, k}, {values, index}, tfl::BuiltinOptions::TopKV2Options, tfl::CreateTopKV2Options(fbb_).Union());
      int v = values;
      if (!largest) {
        const int n = moved ? temp(base + "/values_back", vt.dtype, vs) : tensor(op.outputs[0]);
        emit(B::NEG, {values}, {n});
        v = n;
      }
      if (moved)
        emit(B::TRANSPOSE, {v, const_i32(base + "/perm_back", perm)}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::TransposeOptions,
             tfl::CreateTransposeOptions(fbb_).Union());
      int idx = index;
      if (moved) idx = transpose(index, ir::DType::Int32, vs, perm, base + "/indices_back");
      // ONNX's indices are int64: a CAST widens TFLite's int32 ones
      if (it.dtype != ir::DType::Int64) unsupported(op, "indices of type " + std::string(ir::dtype_name(it.dtype)));
      emit(B::CAST, {idx}, {tensor(op.outputs[1])}, tfl::BuiltinOptions::CastOptions,
           tfl::CreateCastOptions(fbb_, tfl::TensorType::INT32, tfl::TensorType::INT64).Union());
      return;
    }
    case K::NonZero: {
      // WHERE on a bool condition gives [count, rank] int64 coordinates; ONNX's are [rank, count]
      int c = tensor(op.inputs[0]);
      if (x.dtype != ir::DType::Bool) {
        c = temp(base + "/nonzero", ir::DType::Bool, x.shape);
        emit(B::NOT_EQUAL, {tensor(op.inputs[0]), const_scalar(base + "/zero", x.dtype, 0)}, {c}, tfl::BuiltinOptions::NotEqualOptions,
             tfl::CreateNotEqualOptions(fbb_).Union());
      }
      ir::Shape ws;
      ws.rank_known = true;
      ws.dims = {ir::Dim::unknown(), ir::Dim::fixed(r)};
      const int w = temp(base + "/coordinates", ir::DType::Int64, ws);
      emit(B::WHERE, {c}, {w}, tfl::BuiltinOptions::WhereOptions, tfl::CreateWhereOptions(fbb_).Union());
      const ir::Tensor& yt = t(op.outputs[0]);
      if (yt.dtype != ir::DType::Int64) unsupported(op, "an output of type " + std::string(ir::dtype_name(yt.dtype)));
      emit(B::TRANSPOSE, {w, const_i32(base + "/perm", {1, 0})}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::TransposeOptions,
           tfl::CreateTransposeOptions(fbb_).Union());
      return;
    }
    default: unsupported(op);
  }
}

// ---- shape ops -----------------------------------------------------------------------

void Writer::shape_op(const ir::Operation& op) {
  const std::string base = op.outputs[0];
  const ir::Tensor& yt = t(op.outputs[0]);
  auto in = [&](std::size_t i) { return tensor(op.inputs[i]); };
  switch (op.kind) {
    case K::Shape: {
      const ir::Tensor& x = t(op.inputs[0]);
      if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
      const auto r = static_cast<std::int64_t>(x.shape.rank());
      if (yt.dtype != ir::DType::Int64 && yt.dtype != ir::DType::Int32) unsupported(op, "output type");
      std::int64_t b = op.attr_int("start", 0), e = op.attr_int("end", r);
      if (b < 0) b += r;
      if (e < 0) e += r;
      b = std::clamp<std::int64_t>(b, 0, r);
      e = std::clamp<std::int64_t>(e, b, r);
      const auto ot = *tensor_type(yt.dtype);
      const bool whole = b == 0 && e == r;
      const int s = whole ? tensor(op.outputs[0]) : temp(base + "/full", yt.dtype, std::vector<std::int64_t>{r});
      emit(B::SHAPE, {in(0)}, {s}, tfl::BuiltinOptions::ShapeOptions, tfl::CreateShapeOptions(fbb_, ot).Union());
      if (!whole)
        emit(B::SLICE, {s, const_i32(base + "/begin", {b}), const_i32(base + "/size", {e - b})}, {tensor(op.outputs[0])},
             tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union());
      return;
    }
    case K::Size: {
      // the product of SHAPE (int32), CAST to the output's type
      const ir::Tensor& x = t(op.inputs[0]);
      if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
      const auto r = static_cast<std::int64_t>(x.shape.rank());
      if (yt.dtype != ir::DType::Int64 && yt.dtype != ir::DType::Int32) unsupported(op, "output type");
      const int s = temp(base + "/shape", ir::DType::Int32, std::vector<std::int64_t>{r});
      emit(B::SHAPE, {in(0)}, {s}, tfl::BuiltinOptions::ShapeOptions, tfl::CreateShapeOptions(fbb_, tfl::TensorType::INT32).Union());
      const int n = yt.dtype == ir::DType::Int32 ? tensor(op.outputs[0]) : temp(base + "/count", ir::DType::Int32, std::vector<std::int64_t>{});
      emit(B::REDUCE_PROD, {s, const_i32(base + "/axes", {0})}, {n}, tfl::BuiltinOptions::ReducerOptions, tfl::CreateReducerOptions(fbb_, false).Union());
      if (yt.dtype == ir::DType::Int64)
        emit(B::CAST, {n}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CastOptions,
             tfl::CreateCastOptions(fbb_, tfl::TensorType::INT32, tfl::TensorType::INT64).Union());
      return;
    }
    case K::EyeLike: {
      // ones on the k-th diagonal of the input's static [N, M] shape: a constant, RESHAPEd to the output
      const ir::Tensor& x = t(op.inputs[0]);
      if (!x.shape.is_static() || x.shape.rank() != 2) unsupported(op, "needs a static 2-D input");
      const auto xs = x.shape.sizes();
      const std::int64_t k = op.attr_int("k", 0);
      const std::size_t es = ir::dtype_size(yt.dtype);
      if (!tensor_type(yt.dtype) || es == 0 || yt.dtype == ir::DType::String) unsupported(op, "output type");
      std::vector<std::uint8_t> bytes(static_cast<std::size_t>(xs[0] * xs[1]) * es, 0);
      for (std::int64_t i = 0; i < xs[0]; ++i) {
        const std::int64_t j = i + k;
        if (j < 0 || j >= xs[1]) continue;
        std::uint8_t* p = &bytes[static_cast<std::size_t>(i * xs[1] + j) * es];
        switch (yt.dtype) {
          case ir::DType::Float32: { const float one = 1.f; std::memcpy(p, &one, 4); break; }
          case ir::DType::Float64: { const double one = 1.0; std::memcpy(p, &one, 8); break; }
          default: p[0] = 1;  // little-endian integers and bool
        }
      }
      const int c = add_tensor(unique(base + "/eye"), yt.dtype, xs, std::nullopt, bytes.data(), bytes.size());
      std::vector<std::int32_t> ns(xs.begin(), xs.end());
      emit(B::RESHAPE, {c, const_i32(base + "/shape", xs)}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::ReshapeOptions,
           tfl::CreateReshapeOptionsDirect(fbb_, &ns).Union());
      return;
    }
    case K::ConstantOfShape: {
      // FILL(dims, value): dims int32 or int64, the value a scalar of the output's type
      ir::DType vt = ir::DType::Float32;
      double v = 0;
      if (const auto* a = op.attr("value")) {
        const auto* tv = std::get_if<ir::TensorValue>(a);
        if (!tv) unsupported(op, "value must be a tensor");
        vt = tv->dtype;
        if (tv->data.size() < ir::dtype_size(vt) || ir::dtype_size(vt) == 0) unsupported(op, "an empty value");
        switch (vt) {
          case ir::DType::Float32: v = tv->data.as<float>()[0]; break;
          case ir::DType::Int32: v = tv->data.as<std::int32_t>()[0]; break;
          case ir::DType::Int64: v = double(tv->data.as<std::int64_t>()[0]); break;
          case ir::DType::Int8: v = tv->data.as<std::int8_t>()[0]; break;
          case ir::DType::UInt8: v = tv->data.as<std::uint8_t>()[0]; break;
          case ir::DType::Bool: v = tv->data.as<std::uint8_t>()[0]; break;
          default: unsupported(op, "a value of type " + std::string(ir::dtype_name(vt)));
        }
      }
      const ir::Tensor& d = t(op.inputs[0]);
      int dims = in(0);
      if (d.dtype != ir::DType::Int32 && d.dtype != ir::DType::Int64) unsupported(op, "dims of type " + std::string(ir::dtype_name(d.dtype)));
      if (d.is_constant()) dims = const_i32(base + "/dims", const_ints(op.inputs[0], op));
      emit(B::FILL, {dims, const_scalar(base + "/value", vt, v)}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::FillOptions,
           tfl::CreateFillOptions(fbb_).Union());
      return;
    }
    case K::Tile: {
      const ir::Tensor& m = t(op.inputs[1]);
      int reps = in(1);
      if (m.is_constant()) reps = const_i32(base + "/multiples", const_ints(op.inputs[1], op));
      else if (m.dtype != ir::DType::Int32 && m.dtype != ir::DType::Int64) unsupported(op, "repeats of type " + std::string(ir::dtype_name(m.dtype)));
      emit(B::TILE, {in(0), reps}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::TileOptions, tfl::CreateTileOptions(fbb_).Union());
      return;
    }
    case K::Expand: {
      // ONNX broadcasts both ways (the output may be larger than `shape` says): BROADCAST_TO the
      // output's shape when it is static, else x * ones(shape), which broadcasts both ways too.
      const ir::Tensor& x = t(op.inputs[0]);
      if (yt.shape.rank_known && yt.shape.is_static()) {
        emit(B::BROADCAST_TO, {in(0), const_i32(base + "/shape", yt.shape.sizes())}, {tensor(op.outputs[0])},
             tfl::BuiltinOptions::BroadcastToOptions, tfl::CreateBroadcastToOptions(fbb_).Union(), 2);  // its versions start at 2
        return;
      }
      if (x.dtype != ir::DType::Float32 && x.dtype != ir::DType::Int32 && x.dtype != ir::DType::Int64)
        unsupported(op, "a dynamic output shape on " + std::string(ir::dtype_name(x.dtype)));
      const ir::Tensor& s = t(op.inputs[1]);
      if (!s.shape.rank_known || s.shape.rank() != 1 || !s.shape.dims[0].is_static()) unsupported(op, "a shape of unknown length");
      ir::Shape os;
      os.rank_known = true;
      os.dims.assign(static_cast<std::size_t>(s.shape.dims[0].value), ir::Dim::unknown());
      const int ones = temp(base + "/ones", x.dtype, os);
      emit(B::FILL, {in(1), const_scalar(base + "/one", x.dtype, 1)}, {ones}, tfl::BuiltinOptions::FillOptions, tfl::CreateFillOptions(fbb_).Union());
      emit(B::MUL, {in(0), ones}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_).Union());
      return;
    }
    case K::OneHot: {
      // ONE_HOT(indices, depth, on, off) with ONNX's axis (a position in the output). ONNX counts
      // negative indices from the end (TFLite writes a row of `off` for them): idx + depth first.
      const ir::Tensor& ix = t(op.inputs[0]);
      const ir::Tensor& vals = t(op.inputs[2]);
      if (!ix.shape.rank_known) unsupported(op, "indices of unknown rank");
      const auto r = static_cast<std::int64_t>(ix.shape.rank());
      std::int64_t axis = op.attr_int("axis", -1);
      if (axis < 0) axis += r + 1;
      if (axis < 0 || axis > r) unsupported(op, "axis out of range");
      ir::DType it = ix.dtype == ir::DType::Int64 ? ir::DType::Int64 : ir::DType::Int32;
      if (!dtype_is_float(ix.dtype) && !dtype_is_integer(ix.dtype)) unsupported(op, "indices of type " + std::string(ir::dtype_name(ix.dtype)));
      int idx = cast(in(0), ix.dtype, it, ix.shape, op.inputs[0] + "/index");
      const int depth = scalar_i32(op.inputs[1], op);
      const int depth_t = cast(depth, ir::DType::Int32, it, ir::Shape::of(std::vector<std::int64_t>{}), base + "/depth");
      const int neg = temp(base + "/negative", ir::DType::Bool, ix.shape);
      emit(B::LESS, {idx, const_scalar(base + "/zero", it, 0)}, {neg}, tfl::BuiltinOptions::LessOptions, tfl::CreateLessOptions(fbb_).Union());
      const int wrapped = temp(base + "/wrapped", it, ix.shape);
      emit(B::ADD, {idx, depth_t}, {wrapped}, tfl::BuiltinOptions::AddOptions, tfl::CreateAddOptions(fbb_).Union());
      const int fixed = temp(base + "/from_start", it, ix.shape);
      emit(B::SELECT_V2, {neg, wrapped, idx}, {fixed}, tfl::BuiltinOptions::SelectV2Options, tfl::CreateSelectV2Options(fbb_).Union());
      // values = [off, on]
      int off, on;
      if (vals.dtype != yt.dtype) unsupported(op, "values of another type than the output");
      if (vals.is_constant() && vals.shape.num_elements().value_or(-1) == 2) {
        const std::size_t es = ir::dtype_size(vals.dtype);
        off = add_tensor(unique(base + "/off"), vals.dtype, {}, std::nullopt, vals.data->data(), es);
        on = add_tensor(unique(base + "/on"), vals.dtype, {}, std::nullopt, vals.data->data() + es, es);
      } else {
        const ir::Shape scalar = ir::Shape::of(std::vector<std::int64_t>{});
        off = temp(base + "/off", vals.dtype, scalar);
        on = temp(base + "/on", vals.dtype, scalar);
        emit(B::GATHER, {in(2), const_i32(base + "/off_index", {0}, true)}, {off}, tfl::BuiltinOptions::GatherOptions,
             tfl::CreateGatherOptions(fbb_, 0).Union());
        emit(B::GATHER, {in(2), const_i32(base + "/on_index", {1}, true)}, {on}, tfl::BuiltinOptions::GatherOptions,
             tfl::CreateGatherOptions(fbb_, 0).Union());
      }
      emit(B::ONE_HOT, {fixed, depth, on, off}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::OneHotOptions,
           tfl::CreateOneHotOptions(fbb_, static_cast<int>(axis)).Union());
      return;
    }
    case K::Split: {
      const ir::Tensor& x = t(op.inputs[0]);
      if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
      std::int64_t axis = op.attr_int("axis", 0);
      if (axis < 0) axis += static_cast<std::int64_t>(x.shape.rank());
      std::vector<int> outs;
      for (const auto& o : op.outputs) outs.push_back(tensor(o));
      // the sizes: the outputs' own (static) extents, else the sizes input as it is
      std::vector<std::int64_t> sizes;
      for (const auto& o : op.outputs) {
        const ir::Tensor& ot = t(o);
        if (!ot.shape.rank_known || !ot.shape.dims[static_cast<std::size_t>(axis)].is_static()) { sizes.clear(); break; }
        sizes.push_back(ot.shape.dims[static_cast<std::size_t>(axis)].value);
      }
      int sz;
      if (!sizes.empty()) sz = const_i32(base + "/size_splits", sizes);
      else if (t(op.inputs[1]).is_constant()) sz = const_i32(base + "/size_splits", const_ints(op.inputs[1], op));
      else sz = cast(in(1), t(op.inputs[1]).dtype, ir::DType::Int32, t(op.inputs[1]).shape, base + "/size_splits");
      emit(B::SPLIT_V, {in(0), sz, const_i32(base + "/axis", {axis}, true)}, outs, tfl::BuiltinOptions::SplitVOptions,
           tfl::CreateSplitVOptions(fbb_, static_cast<int>(outs.size())).Union());
      return;
    }
    default: unsupported(op);
  }
}

// ---- gather / scatter ----------------------------------------------------------------

// Full coordinates [indices' shape..., rank] of GatherElements / ScatterElements: each index
// position with its `axis` coordinate replaced by the index (negative ones counted from the
// end): the constant positions of the other axes CONCATENATEd around the indices.
int Writer::element_coordinates(const ir::Operation& op, bool int32_only) {
  const ir::Tensor& ix = t(op.inputs[1]);
  const ir::Tensor& x = t(op.inputs[0]);
  const std::string base = op.outputs[0];
  if (!x.shape.is_static() || !ix.shape.is_static()) unsupported(op, "needs static shapes");
  if (ix.dtype != ir::DType::Int32 && ix.dtype != ir::DType::Int64) unsupported(op, "indices of type " + std::string(ir::dtype_name(ix.dtype)));
  const auto xs = x.shape.sizes(), is = ix.shape.sizes();
  const auto r = static_cast<std::int64_t>(xs.size());
  std::int64_t axis = op.attr_int("axis", 0);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r || static_cast<std::int64_t>(is.size()) != r) unsupported(op, "axis or ranks out of range");
  const std::int64_t n = xs[static_cast<std::size_t>(axis)];
  std::int64_t count = 1;
  for (auto d : is) count *= d;
  auto position = [&](std::int64_t flat) {
    std::vector<std::int64_t> pos(is.size());
    for (std::size_t d = is.size(); d-- > 0;) {
      pos[d] = flat % is[d];
      flat /= is[d];
    }
    return pos;
  };
  const ir::DType it = ix.is_constant() || int32_only ? ir::DType::Int32 : ix.dtype;
  auto constant = [&](const std::string& name, const std::vector<std::int64_t>& v, std::vector<std::int64_t> shape) {
    if (it == ir::DType::Int32) {
      std::vector<std::int32_t> w(v.begin(), v.end());
      return add_tensor(unique(name), it, shape, std::nullopt, w.data(), w.size() * 4);
    }
    return add_tensor(unique(name), it, shape, std::nullopt, v.data(), v.size() * 8);
  };
  std::vector<std::int64_t> cshape(is);
  cshape.push_back(r);
  int coords;
  if (ix.is_constant()) {
    const auto v = const_ints(op.inputs[1], op);
    std::vector<std::int64_t> c;
    for (std::int64_t p = 0; p < count; ++p) {
      auto pos = position(p);
      const std::int64_t i = v[static_cast<std::size_t>(p)];
      pos[static_cast<std::size_t>(axis)] = i < 0 ? i + n : i;  // ONNX counts negative indices from the end
      c.insert(c.end(), pos.begin(), pos.end());
    }
    coords = constant(base + "/coordinates", c, cshape);
  } else {
    const int wrapped = temp(op.inputs[1] + "/from_start", it, ix.shape);
    const int typed = cast(tensor(op.inputs[1]), ix.dtype, it, ix.shape, op.inputs[1] + "/i32");
    emit(B::FLOOR_MOD, {typed, const_scalar(op.inputs[1] + "/axis_size", it, double(n))}, {wrapped},
         tfl::BuiltinOptions::FloorModOptions, tfl::CreateFloorModOptions(fbb_).Union());
    std::vector<std::int64_t> one(is);
    one.push_back(1);
    const int column = temp(op.inputs[1] + "/column", it, one);
    emit(B::EXPAND_DIMS, {wrapped, const_i32(base + "/last", {r}, true)}, {column}, tfl::BuiltinOptions::ExpandDimsOptions,
         tfl::CreateExpandDimsOptions(fbb_).Union());
    std::vector<int> pieces;
    for (int part = 0; part < 2; ++part) {
      const std::int64_t lo = part == 0 ? 0 : axis + 1, hi = part == 0 ? axis : r;
      if (hi > lo) {
        std::vector<std::int64_t> c;
        for (std::int64_t p = 0; p < count; ++p) {
          const auto pos = position(p);
          c.insert(c.end(), pos.begin() + lo, pos.begin() + hi);
        }
        std::vector<std::int64_t> s(is);
        s.push_back(hi - lo);
        pieces.push_back(constant(base + (part == 0 ? "/leading" : "/trailing"), c, s));
      }
      if (part == 0) pieces.push_back(column);
    }
    coords = temp(base + "/coordinates", it, cshape);
    emit(B::CONCATENATION, pieces, {coords}, tfl::BuiltinOptions::ConcatenationOptions,
         tfl::CreateConcatenationOptions(fbb_, static_cast<int>(r)).Union());
  }
  return coords;
}

// ONNX's scatter into `data` (input 0) of `updates` (input 2) at full coordinates `idx`:
// SCATTER_ND sums into zeros, so add = data + scatter(updates), and none =
// select(scatter(ones) > 0, scatter(updates), data).
void Writer::scatter_into(const ir::Operation& op, int idx, bool add) {
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& ut = t(op.inputs[2]);
  const std::string base = op.outputs[0];
  const int shape = const_i32(base + "/shape", x.shape.sizes());
  const int scattered = temp(base + "/scattered", x.dtype, x.shape);
  emit(B::SCATTER_ND, {idx, tensor(op.inputs[2]), shape}, {scattered}, tfl::BuiltinOptions::ScatterNdOptions,
       tfl::CreateScatterNdOptions(fbb_).Union());
  if (add) {
    emit(B::ADD, {tensor(op.inputs[0]), scattered}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::AddOptions, tfl::CreateAddOptions(fbb_).Union());
    return;
  }
  const std::size_t n = static_cast<std::size_t>(ut.shape.num_elements().value_or(0));
  std::vector<float> ones(n, 1.f);
  const int one = add_tensor(unique(base + "/ones"), ir::DType::Float32, ut.shape.sizes(), std::nullopt, ones.data(), n * 4);
  const int mask = temp(base + "/written", ir::DType::Float32, x.shape);
  emit(B::SCATTER_ND, {idx, one, shape}, {mask}, tfl::BuiltinOptions::ScatterNdOptions, tfl::CreateScatterNdOptions(fbb_).Union());
  const int cond = temp(base + "/is_written", ir::DType::Bool, x.shape);
  emit(B::GREATER, {mask, const_scalar(base + "/zero", ir::DType::Float32, 0)}, {cond}, tfl::BuiltinOptions::GreaterOptions,
       tfl::CreateGreaterOptions(fbb_).Union());
  emit(B::SELECT_V2, {cond, scattered, tensor(op.inputs[0])}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::SelectV2Options,
       tfl::CreateSelectV2Options(fbb_).Union());
}

void Writer::gather_scatter(const ir::Operation& op) {
  const std::string base = op.outputs[0];
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  switch (op.kind) {
    case K::GatherND: {
      // batch_dims b: each index row gets its b batch coordinates in front (a constant
      // CONCATENATEd before it), which makes it GATHER_ND with batch_dims 0.
      const ir::Tensor& ix = t(op.inputs[1]);
      const std::int64_t b = op.attr_int("batch_dims", 0);
      if (ix.dtype != ir::DType::Int32 && ix.dtype != ir::DType::Int64) unsupported(op, "indices of type " + std::string(ir::dtype_name(ix.dtype)));
      int idx = tensor(op.inputs[1]);
      if (ix.is_constant()) {
        // ONNX counts negative indices from the end of their axis; TFLite refuses them
        if (!x.shape.is_static() || !ix.shape.is_static()) unsupported(op, "constant indices on a dynamic shape");
        const auto v = const_ints(op.inputs[1], op);
        const auto is = ix.shape.sizes();
        const std::int64_t k = is.back();
        std::vector<std::int64_t> w(v);
        for (std::size_t i = 0; i < w.size(); ++i) {
          const std::int64_t n = x.shape.dims[static_cast<std::size_t>(b + static_cast<std::int64_t>(i) % k)].value;
          if (w[i] < 0) w[i] += n;
        }
        std::vector<std::int32_t> w32(w.begin(), w.end());
        idx = add_tensor(unique(op.inputs[1] + "/from_start"), ir::DType::Int32, is, std::nullopt, w32.data(), w32.size() * 4);
      }
      if (b > 0) {
        if (!ix.shape.is_static()) unsupported(op, "batch_dims with indices of dynamic shape");
        const auto is = ix.shape.sizes();
        std::vector<std::int64_t> cs(is.begin(), is.end() - 1);
        cs.push_back(b);
        std::int64_t rows = 1;
        for (std::size_t d = 0; d + 1 < is.size(); ++d) rows *= is[d];
        const ir::DType it = ix.is_constant() ? ir::DType::Int32 : ix.dtype;
        std::vector<std::int64_t> coords;
        for (std::int64_t row = 0; row < rows; ++row) {
          // row's position along the index dims; the first b of them are its batch coordinates
          std::vector<std::int64_t> pos(is.size() - 1);
          std::int64_t rem = row;
          for (std::size_t d = is.size() - 1; d-- > 0;) {
            pos[d] = rem % is[d];
            rem /= is[d];
          }
          for (std::int64_t j = 0; j < b; ++j) coords.push_back(pos[static_cast<std::size_t>(j)]);
        }
        int c;
        if (it == ir::DType::Int32) {
          std::vector<std::int32_t> c32(coords.begin(), coords.end());
          c = add_tensor(unique(base + "/batch_coordinates"), it, cs, std::nullopt, c32.data(), c32.size() * 4);
        } else {
          c = add_tensor(unique(base + "/batch_coordinates"), it, cs, std::nullopt, coords.data(), coords.size() * 8);
        }
        std::vector<std::int64_t> full(is);
        full.back() += b;
        const int joined = temp(base + "/full_indices", it, full);
        emit(B::CONCATENATION, {c, idx}, {joined}, tfl::BuiltinOptions::ConcatenationOptions,
             tfl::CreateConcatenationOptions(fbb_, static_cast<int>(is.size()) - 1).Union());
        idx = joined;
      }
      emit(B::GATHER_ND, {tensor(op.inputs[0]), idx}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::GatherNdOptions,
           tfl::CreateGatherNdOptions(fbb_).Union());
      return;
    }
    case K::ScatterND: {
      // SCATTER_ND scatters into zeros (adding duplicates). ONNX's ScatterND updates `data`:
      // add = data + scatter(updates); none = select(scatter(ones) > 0, scatter(updates), data).
      const std::string red = op.attr_string("reduction", "none");
      if (red != "none" && red != "add")
        unsupported(op, "reduction " + red + " (TFLite's SCATTER_ND only sums into zeros: none and add are expressible)");
      if (!x.shape.is_static()) unsupported(op, "needs a static data shape");
      const ir::Tensor& ix = t(op.inputs[1]);
      const ir::Tensor& ut = t(op.inputs[2]);
      if (!ut.shape.is_static()) unsupported(op, "needs static update shapes");
      int idx = tensor(op.inputs[1]);
      if (ix.is_constant()) {
        // keep the index tensor's shape
        const auto v = const_ints(op.inputs[1], op);
        std::vector<std::int32_t> w(v.begin(), v.end());
        idx = add_tensor(unique(op.inputs[1] + "/i32"), ir::DType::Int32, ix.shape.sizes(), std::nullopt, w.data(), w.size() * 4);
      } else {
        idx = cast(idx, ix.dtype, ir::DType::Int32, ix.shape, op.inputs[1] + "/i32");
      }
      scatter_into(op, idx, red == "add");
      return;
    }
    case K::GatherElements: {
      // out[p] = data[p with p[axis] = indices[p]]: GATHER_ND on full coordinates
      const int coords = element_coordinates(op, false);
      emit(B::GATHER_ND, {tensor(op.inputs[0]), coords}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::GatherNdOptions,
           tfl::CreateGatherNdOptions(fbb_).Union());
      return;
    }
    case K::ScatterElements: {
      // data with data[p with p[axis] = indices[p]] = updates[p]: SCATTER_ND on full coordinates,
      // then as ScatterND (none: select where written; add: data + the scattered sum)
      const std::string red = op.attr_string("reduction", "none");
      if (red != "none" && red != "add")
        unsupported(op, "reduction " + red + " (TFLite's SCATTER_ND only sums into zeros: none and add are expressible)");
      const ir::Tensor& ut = t(op.inputs[2]);
      if (!x.shape.is_static() || !ut.shape.is_static()) unsupported(op, "needs static shapes");
      const int coords = element_coordinates(op, true);
      scatter_into(op, coords, red == "add");
      return;
    }
    case K::ReverseSequence: {
      const ir::Tensor& sl = t(op.inputs[1]);
      if (sl.dtype != ir::DType::Int32 && sl.dtype != ir::DType::Int64) unsupported(op, "lengths of type " + std::string(ir::dtype_name(sl.dtype)));
      emit(B::REVERSE_SEQUENCE, {tensor(op.inputs[0]), tensor(op.inputs[1])}, {tensor(op.outputs[0])},
           tfl::BuiltinOptions::ReverseSequenceOptions,
           tfl::CreateReverseSequenceOptions(fbb_, static_cast<int>(op.attr_int("time_axis", 0)), static_cast<int>(op.attr_int("batch_axis", 1))).Union());
      (void)yt;
      return;
    }
    default: unsupported(op);
  }
}

namespace {

// ONNX Resize's weights along one axis (out x in, row-major), as the ONNX reference computes
// them: the source coordinate by coordinate_transformation_mode, then nearest / linear / cubic
// taps around it, taps past the ends clamped to them (or, exclude_outside, dropped and the
// rest renormalised). `scale` is the op's own (its scales input, else out / in). Empty when
// the mode needs what a matrix cannot hold (why says what).
// tf_crop_and_resize samples the box [roi_start, roi_end] (fractions of the axis); a row whose
// coordinate falls outside the input takes extrapolation_value: outside[o] says so.
std::vector<double> onnx_resize_weights(const ir::Operation& op, std::int64_t in, std::int64_t out, double scale,
                                        const std::optional<std::pair<double, double>>& roi, std::vector<char>& outside,
                                        std::string& why) {
  const std::string mode = op.attr_string("mode", "nearest"), ctm = op.attr_string("coordinate_transformation_mode", "half_pixel");
  const std::string nm = op.attr_string("nearest_mode", "round_prefer_floor");
  const double a = attr_float(op, "cubic_coeff_a", -0.75);
  const bool exclude = op.attr_int("exclude_outside", 0) != 0;
  std::vector<double> w(static_cast<std::size_t>(out * in), 0.0);
  outside.assign(static_cast<std::size_t>(out), 0);
  const double out_len = scale * double(in);  // the reference's length_resized (scales may not divide evenly)
  for (std::int64_t o = 0; o < out; ++o) {
    double x;
    if (ctm == "half_pixel") x = (o + 0.5) / scale - 0.5;
    else if (ctm == "pytorch_half_pixel") x = out_len > 1 ? (o + 0.5) / scale - 0.5 : 0.0;
    else if (ctm == "align_corners") x = out_len == 1 ? 0.0 : double(o) * double(in - 1) / (out_len - 1);
    else if (ctm == "asymmetric") x = o / scale;
    else if (ctm == "tf_half_pixel_for_nn") x = (o + 0.5) / scale;
    else if (ctm == "tf_crop_and_resize") {
      if (!roi) { why = "coordinate_transformation_mode tf_crop_and_resize with a box known only when the model runs"; return {}; }
      const auto [b, e] = *roi;
      x = (out_len == 1 ? (e - b) * double(in - 1) / 2 : double(o) * (e - b) * double(in - 1) / (out_len - 1)) + b * double(in - 1);
      if (x < 0 || x > double(in - 1)) {
        outside[static_cast<std::size_t>(o)] = 1;
        continue;
      }
    } else { why = "coordinate_transformation_mode " + ctm; return {}; }
    std::int64_t f = static_cast<std::int64_t>(std::floor(x));
    double r = x - double(f);
    auto add = [&](std::int64_t i, double v) {
      w[static_cast<std::size_t>(o * in + std::clamp<std::int64_t>(i, 0, in - 1))] += v;
    };
    if (mode == "nearest") {
      std::int64_t i = f;
      if (r != 0) {
        if (nm == "round_prefer_floor") i = r <= 0.5 ? f : f + 1;
        else if (nm == "round_prefer_ceil") i = r < 0.5 ? f : f + 1;
        else if (nm == "floor") i = f;
        else if (nm == "ceil") i = f + 1;
        else { why = "nearest_mode " + nm; return {}; }
      }
      add(i, 1.0);
    } else if (mode == "linear") {
      if (r == 0) add(f, 1.0);
      else { add(f, 1 - r); add(f + 1, r); }
    } else if (mode == "cubic") {
      if (r == 0) { f -= 1; r = 1; }  // the reference's taps around an integer coordinate
      const double s = r + 1, t1 = 1 - r, t2 = 2 - r;
      double c[4] = {((a * s - 5 * a) * s + 8 * a) * s - 4 * a, ((a + 2) * r - (a + 3)) * r * r + 1,
                     ((a + 2) * t1 - (a + 3)) * t1 * t1 + 1, ((a * t2 - 5 * a) * t2 + 8 * a) * t2 - 4 * a};
      if (exclude) {
        double sum = 0;
        for (int k = 0; k < 4; ++k) {
          const std::int64_t i = f - 1 + k;
          if (i < 0 || i >= in) c[k] = 0;
          sum += c[k];
        }
        for (auto& v : c) v /= sum;
      }
      for (int k = 0; k < 4; ++k) add(f - 1 + k, c[k]);
    } else {
      why = "mode " + mode;
      return {};
    }
  }
  return w;
}

// TFLite's RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR weights along one axis (reference kernels).
std::vector<double> tflite_resize_weights(bool linear, bool align, bool half, std::int64_t in, std::int64_t out) {
  std::vector<double> w(static_cast<std::size_t>(out * in), 0.0);
  const double sc = align && out > 1 ? double(in - 1) / double(out - 1) : double(in) / double(out);
  for (std::int64_t o = 0; o < out; ++o) {
    if (linear) {
      const double v = half ? (o + 0.5) * sc - 0.5 : o * sc;
      const double fl = std::floor(v);
      const std::int64_t lo = std::max<std::int64_t>(static_cast<std::int64_t>(fl), 0);
      const std::int64_t hi = std::min<std::int64_t>(static_cast<std::int64_t>(std::ceil(v)), in - 1);
      w[static_cast<std::size_t>(o * in + lo)] += 1 - (v - fl);
      w[static_cast<std::size_t>(o * in + hi)] += v - fl;
    } else {
      const double v = (o + (half ? 0.5 : 0.0)) * sc;
      const auto i = std::min<std::int64_t>(static_cast<std::int64_t>(align ? std::round(v) : std::floor(v)), in - 1);
      w[static_cast<std::size_t>(o * in + std::max<std::int64_t>(i, 0))] = 1;
    }
  }
  return w;
}

bool same_weights(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-6) return false;
  return true;
}

}  // namespace

void Writer::resize(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& out = t(op.outputs[0]);
  if (!x.shape.rank_known || !out.shape.rank_known || x.shape.rank() != 4 || out.shape.rank() != 4 || !out.shape.is_static() ||
      !x.shape.is_static())
    unsupported(op, "needs static 4-D shapes");
  const auto xs0 = x.shape.sizes(), ys0 = out.shape.sizes();
  // An NCHW Resize (one LayoutTransform left: a float island in an 8-bit graph) runs
  // between two TRANSPOSEs.
  const bool nchw = xs0[3] != ys0[3] && xs0[1] == ys0[1];
  auto xs = xs0, ys = ys0;
  if (nchw) {
    xs = {xs[0], xs[2], xs[3], xs[1]};
    ys = {ys[0], ys[2], ys[3], ys[1]};
  }
  if (xs[0] != ys[0] || xs[3] != ys[3]) unsupported(op, "resizes other axes than H and W");
  const std::string mode = op.attr_string("mode", "nearest");
  // The op's scale per axis (in the tensor's own axis order): its scales input, else out / in.
  std::vector<double> scales;
  if (op.inputs.size() > 2 && !op.inputs[2].empty()) {
    const ir::Tensor& s = t(op.inputs[2]);
    if (s.is_constant() && s.dtype == ir::DType::Float32 && s.data->size() == 16)
      for (float v : s.data->as<float>()) scales.push_back(v);
    else if (!s.is_constant() && s.shape.num_elements().value_or(0) != 0)
      unsupported(op, "scales known only when the model runs");
  }
  const std::size_t hw[2] = {nchw ? 2u : 1u, nchw ? 3u : 2u};
  // tf_crop_and_resize's box: [starts, ends] over the op's axes (LayoutTransform leaves such a Resize NCHW)
  std::vector<float> roi;
  if (op.inputs.size() > 1 && !op.inputs[1].empty()) {
    const ir::Tensor& rt = t(op.inputs[1]);
    if (rt.is_constant() && rt.dtype == ir::DType::Float32 && rt.data->size() == 32)
      for (float v : rt.data->as<float>()) roi.push_back(v);
  }
  std::vector<double> onnx_w[2];
  std::vector<char> outside[2];
  for (int k = 0; k < 2; ++k) {
    const std::int64_t n_in = xs0[hw[k]], n_out = ys0[hw[k]];
    const double sc = scales.empty() ? double(n_out) / double(n_in) : scales[hw[k]];
    std::string why;
    std::optional<std::pair<double, double>> box;
    if (!roi.empty()) box = std::make_pair(double(roi[hw[k]]), double(roi[4 + hw[k]]));
    onnx_w[k] = onnx_resize_weights(op, n_in, n_out, sc, box, outside[k], why);
    if (onnx_w[k].empty()) unsupported(op, why);
  }
  // TFLite's builtins when one of their three index rules (align_corners, half_pixel_centers,
  // neither) gives the op's own weights on both axes; else the weights as matrices.
  // Where several do (a 1-pixel or unchanged axis), linear keeps the op's own rule (a file read
  // back says what it said); nearest tries them in order, as before.
  int chosen = -1;
  const std::string ctm = op.attr_string("coordinate_transformation_mode", "half_pixel");
  const int natural = mode != "linear" ? 0 : ctm == "align_corners" ? 1 : ctm == "half_pixel" || ctm == "pytorch_half_pixel" ? 2 : 0;
  if (mode == "linear" || mode == "nearest")
    for (int step = 0; step < 3 && chosen < 0; ++step) {
      const int c = (natural + step) % 3;
      bool same = true;
      for (int k = 0; k < 2 && same; ++k)
        same = same_weights(onnx_w[k], tflite_resize_weights(mode == "linear", c == 1, c == 2, xs0[hw[k]], ys0[hw[k]]));
      if (same) chosen = c;
    }
  if (chosen < 0) {
    if (x.dtype != ir::DType::Float32 || x.quant)
      unsupported(op, "mode " + mode + " with coordinate_transformation_mode " + op.attr_string("coordinate_transformation_mode", "half_pixel") +
                          " on " + std::string(ir::dtype_name(x.dtype)) +
                          " (TFLite's RESIZE_BILINEAR / RESIZE_NEAREST_NEIGHBOR cannot pick those rows; as constant matrices only in float)");
    return resize_by_matrices(op, hw, onnx_w, outside);
  }
  auto in0 = [&] { return tensor(op.inputs[0]); };
  const int size = const_i32(op.outputs[0] + "/size", {ys[1], ys[2]});
  int rin = in0(), rout = tensor(op.outputs[0]);
  if (nchw) {
    rin = add_tensor(unique(op.inputs[0] + "/nhwc"), x.dtype, xs, x.quant);
    emit(B::TRANSPOSE, {in0(), const_i32(op.name + "/to_nhwc", {0, 2, 3, 1})}, {rin}, tfl::BuiltinOptions::TransposeOptions,
         tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
    rout = add_tensor(unique(op.outputs[0] + "/nhwc"), out.dtype, ys, out.quant);
  }
  if (mode == "linear") {
    const auto o = tfl::CreateResizeBilinearOptions(fbb_, chosen == 1, chosen == 2);
    emit(B::RESIZE_BILINEAR, {rin, size}, {rout}, tfl::BuiltinOptions::ResizeBilinearOptions, o.Union(), chosen == 2 ? 3 : version_for(op, 2));
  } else {
    const auto o = tfl::CreateResizeNearestNeighborOptions(fbb_, chosen == 1, chosen == 2);
    emit(B::RESIZE_NEAREST_NEIGHBOR, {rin, size}, {rout}, tfl::BuiltinOptions::ResizeNearestNeighborOptions, o.Union(),
         chosen == 2 ? 3 : version_for(op, 2));
  }
  if (nchw)
    emit(B::TRANSPOSE, {rout, const_i32(op.name + "/to_nchw", {0, 3, 1, 2})}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::TransposeOptions,
         tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
}

// y = W_h x W_w^T per image: along each resized axis a FULLY_CONNECTED with the constant
// [out, in] weights (the axis moved last by a TRANSPOSE pair when it is not). Exact up to
// float rounding of the weighted sums; nearest weights are 0/1 (an infinity or NaN in a
// row then spreads as 0 * inf).
void Writer::resize_by_matrices(const ir::Operation& op, const std::size_t hw[2], const std::vector<double> weights[2],
                                const std::vector<char> outside[2]) {
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  std::vector<std::int64_t> cur = x.shape.sizes();
  const std::vector<std::int64_t> final_shape = yt.shape.sizes();
  int v = tensor(op.inputs[0]);
  const std::string base = op.outputs[0];
  const std::size_t last = cur.size() - 1;
  std::vector<std::size_t> axes;
  for (int k = 0; k < 2; ++k)
    if (cur[hw[k]] != final_shape[hw[k]] ||
        !same_weights(weights[k], tflite_resize_weights(false, false, false, cur[hw[k]], cur[hw[k]])))
      axes.push_back(static_cast<std::size_t>(k));
  if (axes.empty()) {
    emit(B::RESHAPE, {v, const_i32(base + "/shape", final_shape)}, {tensor(op.outputs[0])});
    return;
  }
  for (std::size_t n = 0; n < axes.size(); ++n) {
    const std::size_t k = axes[n];
    const std::size_t a = hw[k];
    const std::int64_t n_in = cur[a], n_out = final_shape[a];
    std::vector<float> wf(weights[k].begin(), weights[k].end());
    const int w = add_tensor(unique(base + "/resize_weights_" + std::to_string(a)), ir::DType::Float32, {n_out, n_in}, std::nullopt,
                             wf.data(), wf.size() * 4);
    std::vector<std::int64_t> perm(cur.size());
    for (std::size_t d = 0; d < cur.size(); ++d) perm[d] = static_cast<std::int64_t>(d);
    std::swap(perm[a], perm[last]);
    std::vector<std::int64_t> moved = cur;
    std::swap(moved[a], moved[last]);
    int src = v;
    if (a != last) {
      src = temp(base + "/axis_last", ir::DType::Float32, moved);
      emit(B::TRANSPOSE, {v, const_i32(base + "/perm", perm)}, {src}, tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union());
    }
    moved[last] = n_out;
    cur[a] = n_out;
    const bool final_step = n + 1 == axes.size();
    const int dst = final_step && a == last ? tensor(op.outputs[0]) : temp(base + "/resized", ir::DType::Float32, moved);
    // rows sampled outside the input (tf_crop_and_resize) are the extrapolation value: the bias
    int bias = -1;
    if (std::count(outside[k].begin(), outside[k].end(), 1) > 0) {
      const float e = static_cast<float>(attr_float(op, "extrapolation_value", 0.0));
      std::vector<float> b(outside[k].size(), 0.f);
      for (std::size_t o = 0; o < b.size(); ++o) b[o] = outside[k][o] ? e : 0.f;
      bias = add_tensor(unique(base + "/extrapolation_" + std::to_string(a)), ir::DType::Float32, {n_out}, std::nullopt, b.data(), b.size() * 4);
    }
    const auto o = tfl::CreateFullyConnectedOptions(fbb_, tfl::ActivationFunctionType::NONE, tfl::FullyConnectedOptionsWeightsFormat::DEFAULT, true);
    emit(B::FULLY_CONNECTED, {src, w, bias}, {dst}, tfl::BuiltinOptions::FullyConnectedOptions, o.Union(), 5);
    v = dst;
    if (a != last) {
      const int back = final_step ? tensor(op.outputs[0]) : temp(base + "/resized_back", ir::DType::Float32, cur);
      emit(B::TRANSPOSE, {dst, const_i32(base + "/perm_back", perm)}, {back}, tfl::BuiltinOptions::TransposeOptions,
           tfl::CreateTransposeOptions(fbb_).Union());
      v = back;
    }
  }
}


// ONNX Pad: pads [b_0.. b_r-1, e_0.. e_r-1] (on the axes input's axes when given). constant ->
// PAD / PADV2, reflect -> MIRROR_PAD REFLECT (both leave the edge value out), edge -> the edge
// slice TILEd and CONCATENATEd on each side (TFLite's MIRROR_PAD has only REFLECT and
// SYMMETRIC). Negative pads crop: the positive ones first, then a SLICE.
void Writer::pad(const ir::Operation& op) {
  const std::string mode = op.attr_string("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge") unsupported(op, "mode " + mode);
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
  const std::size_t r = x.shape.rank();
  const std::string base = op.outputs[0];
  const bool has_axes = op.inputs.size() > 3 && !op.inputs[3].empty();
  const bool value = op.inputs.size() > 2 && !op.inputs[2].empty();
  auto emit_pad = [&](int src, int paddings, int dst) {
    if (mode == "reflect")
      emit(B::MIRROR_PAD, {src, paddings}, {dst}, tfl::BuiltinOptions::MirrorPadOptions,
           tfl::CreateMirrorPadOptions(fbb_, tfl::MirrorPadMode::REFLECT).Union(), version_for(op, 2));
    else if (value)
      emit(B::PADV2, {src, paddings, tensor(op.inputs[2])}, {dst}, tfl::BuiltinOptions::PadV2Options, tfl::CreatePadV2Options(fbb_).Union(),
           version_for(op, 2));
    else
      emit(B::PAD, {src, paddings}, {dst}, tfl::BuiltinOptions::PadOptions, tfl::CreatePadOptions(fbb_).Union(), version_for(op, 2));
  };
  const ir::Tensor& pt = t(op.inputs[1]);
  if (!pt.is_constant()) {
    // pads known when the model runs: [2, r] -> TRANSPOSE -> TFLite's [r, 2]
    if (mode == "edge") unsupported(op, "mode edge with pads known only when the model runs (written as slices of constant width only)");
    if (has_axes) unsupported(op, "an axes input with pads known only when the model runs");
    if (pt.dtype != ir::DType::Int32 && pt.dtype != ir::DType::Int64) unsupported(op, "pads of type " + std::string(ir::dtype_name(pt.dtype)));
    // int32 paddings: this runtime's PAD reads int64 ones as int32 (it padded nothing)
    const auto ri = static_cast<std::int64_t>(r);
    const int p32 = cast(tensor(op.inputs[1]), pt.dtype, ir::DType::Int32, pt.shape, base + "/pads_i32");
    const int two_r = temp(base + "/pads_2xr", ir::DType::Int32, std::vector<std::int64_t>{2, ri});
    std::vector<std::int32_t> ns{2, static_cast<std::int32_t>(ri)};
    emit(B::RESHAPE, {p32, const_i32(base + "/pads_shape", {2, ri})}, {two_r}, tfl::BuiltinOptions::ReshapeOptions,
         tfl::CreateReshapeOptionsDirect(fbb_, &ns).Union());
    const int paddings = temp(base + "/paddings", ir::DType::Int32, std::vector<std::int64_t>{ri, 2});
    emit(B::TRANSPOSE, {two_r, const_i32(base + "/pads_perm", {1, 0})}, {paddings}, tfl::BuiltinOptions::TransposeOptions,
         tfl::CreateTransposeOptions(fbb_).Union());
    emit_pad(tensor(op.inputs[0]), paddings, tensor(op.outputs[0]));
    return;
  }
  const auto given = const_ints(op.inputs[1], op);
  std::vector<std::int64_t> pb(r, 0), pe(r, 0);
  if (has_axes) {
    const auto axes = const_ints(op.inputs[3], op);
    if (given.size() != 2 * axes.size()) unsupported(op, "pads do not match the axes");
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const std::int64_t a = axes[i] < 0 ? axes[i] + static_cast<std::int64_t>(r) : axes[i];
      if (a < 0 || a >= static_cast<std::int64_t>(r)) unsupported(op, "axis out of range");
      pb[static_cast<std::size_t>(a)] = given[i];
      pe[static_cast<std::size_t>(a)] = given[axes.size() + i];
    }
  } else {
    if (given.size() != 2 * r) unsupported(op, "pads do not match the input's rank");
    for (std::size_t d = 0; d < r; ++d) { pb[d] = given[d]; pe[d] = given[r + d]; }
  }
  bool crop = false;
  for (std::size_t d = 0; d < r; ++d) crop |= pb[d] < 0 || pe[d] < 0;
  if ((crop || mode == "edge") && (!x.shape.is_static() || !yt.shape.is_static()))
    unsupported(op, std::string(crop ? "negative pads" : "mode edge") + " on a dynamic shape");
  std::vector<std::int64_t> padded_shape;
  if (x.shape.is_static()) {
    padded_shape = x.shape.sizes();
    for (std::size_t d = 0; d < r; ++d) padded_shape[d] += std::max<std::int64_t>(pb[d], 0) + std::max<std::int64_t>(pe[d], 0);
  }
  const int padded = crop ? add_tensor(unique(base + "/padded"), x.dtype, padded_shape, x.quant) : tensor(op.outputs[0]);
  if (mode == "edge") {
    std::vector<std::int64_t> shape = x.shape.sizes();
    int cur = tensor(op.inputs[0]);
    std::size_t last = r;
    for (std::size_t d = 0; d < r; ++d)
      if (pb[d] > 0 || pe[d] > 0) last = d;
    if (last == r) {  // nothing to pad
      emit(B::RESHAPE, {cur, const_i32(base + "/shape", padded_shape)}, {padded});
    }
    for (std::size_t d = 0; d < r && last < r; ++d) {
      if (pb[d] <= 0 && pe[d] <= 0) continue;
      std::vector<int> pieces;
      for (int side = 0; side < 2; ++side) {
        const std::int64_t n = side == 0 ? pb[d] : pe[d];
        if (n <= 0) {
          if (side == 0) pieces.push_back(cur);
          continue;
        }
        std::vector<std::int64_t> begin(r, 0), size = shape, mult(r, 1);
        begin[d] = side == 0 ? 0 : shape[d] - 1;
        size[d] = 1;
        const int edge = add_tensor(unique(base + "/edge"), x.dtype, size, x.quant);
        emit(B::SLICE, {cur, const_i32(base + "/edge_begin", begin), const_i32(base + "/edge_size", size)}, {edge},
             tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union(), version_for(op, 2));
        mult[d] = n;
        size[d] = n;
        const int tiled = add_tensor(unique(base + "/edge_tiled"), x.dtype, size, x.quant);
        emit(B::TILE, {edge, const_i32(base + "/edge_multiples", mult)}, {tiled}, tfl::BuiltinOptions::TileOptions,
             tfl::CreateTileOptions(fbb_).Union());
        if (side == 0) { pieces.push_back(tiled); pieces.push_back(cur); }
        else pieces.push_back(tiled);
      }
      shape[d] += std::max<std::int64_t>(pb[d], 0) + std::max<std::int64_t>(pe[d], 0);
      const int joined = d == last ? padded : add_tensor(unique(base + "/edge_padded"), x.dtype, shape, x.quant);
      emit(B::CONCATENATION, pieces, {joined}, tfl::BuiltinOptions::ConcatenationOptions,
           tfl::CreateConcatenationOptions(fbb_, static_cast<int>(d)).Union(), version_for(op, 2));
      cur = joined;
    }
  } else {
    std::vector<std::int32_t> v;
    for (std::size_t d = 0; d < r; ++d) {
      v.push_back(static_cast<std::int32_t>(std::max<std::int64_t>(pb[d], 0)));
      v.push_back(static_cast<std::int32_t>(std::max<std::int64_t>(pe[d], 0)));
    }
    const int paddings = add_tensor(unique(base + "/paddings"), ir::DType::Int32, {static_cast<std::int64_t>(r), 2}, std::nullopt, v.data(),
                                    v.size() * 4);
    emit_pad(tensor(op.inputs[0]), paddings, padded);
  }
  if (crop) {
    std::vector<std::int64_t> begin(r);
    for (std::size_t d = 0; d < r; ++d) begin[d] = std::max<std::int64_t>(-pb[d], 0);
    emit(B::SLICE, {padded, const_i32(base + "/crop_begin", begin), const_i32(base + "/crop_size", yt.shape.sizes())}, {tensor(op.outputs[0])},
         tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union(), version_for(op, 2));
  }
}

// ---- per-axis ops ---------------------------------------------------------------------

void Writer::per_axis(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  const std::string base = op.outputs[0];
  if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
  const auto r = static_cast<std::int64_t>(x.shape.rank());
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) unsupported(op, "axis out of range");
  switch (op.kind) {
    case K::Hardmax: {
      // 1 at the first largest value along the axis: ONE_HOT of ARG_MAX (which keeps the first)
      if (x.dtype != ir::DType::Float32 || x.quant) unsupported(op, "on " + std::string(ir::dtype_name(x.dtype)));
      if (!x.shape.dims[static_cast<std::size_t>(axis)].is_static()) unsupported(op, "a dynamic axis");
      ir::Shape reduced = x.shape;
      reduced.dims.erase(reduced.dims.begin() + axis);
      const int idx = temp(base + "/argmax", ir::DType::Int32, reduced);
      emit(B::ARG_MAX, {tensor(op.inputs[0]), const_i32(base + "/axis", {axis})}, {idx}, tfl::BuiltinOptions::ArgMaxOptions,
           tfl::CreateArgMaxOptions(fbb_, tfl::TensorType::INT32).Union());
      emit(B::ONE_HOT,
           {idx, const_i32(base + "/depth", {x.shape.dims[static_cast<std::size_t>(axis)].value}, true),
            const_scalar(base + "/one", ir::DType::Float32, 1), const_scalar(base + "/zero", ir::DType::Float32, 0)},
           {tensor(op.outputs[0])}, tfl::BuiltinOptions::OneHotOptions, tfl::CreateOneHotOptions(fbb_, static_cast<int>(axis)).Union());
      return;
    }
    default: unsupported(op);
  }
}

void Writer::elementwise_misc(const ir::Operation& op) {
  const ir::Tensor& x = t(op.inputs[0]);
  const std::string base = op.outputs[0];
  switch (op.kind) {
    case K::IsNaN:  // NaN is the one value unequal to itself
      if (x.dtype != ir::DType::Float32) unsupported(op, "on " + std::string(ir::dtype_name(x.dtype)));
      emit(B::NOT_EQUAL, {tensor(op.inputs[0]), tensor(op.inputs[0])}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::NotEqualOptions,
           tfl::CreateNotEqualOptions(fbb_).Union());
      return;
    case K::IsInf: {
      if (x.dtype != ir::DType::Float32) unsupported(op, "on " + std::string(ir::dtype_name(x.dtype)));
      const bool pos = op.attr_int("detect_positive", 1) != 0, neg = op.attr_int("detect_negative", 1) != 0;
      const double inf = std::numeric_limits<double>::infinity();
      auto equal = [&](double v, int out) {
        emit(B::EQUAL, {tensor(op.inputs[0]), const_scalar(base + (v > 0 ? "/plus_inf" : "/minus_inf"), ir::DType::Float32, v)}, {out},
             tfl::BuiltinOptions::EqualOptions, tfl::CreateEqualOptions(fbb_).Union());
      };
      if (pos && neg) {
        const int a = temp(base + "/is_plus_inf", ir::DType::Bool, x.shape), b = temp(base + "/is_minus_inf", ir::DType::Bool, x.shape);
        equal(inf, a);
        equal(-inf, b);
        emit(B::LOGICAL_OR, {a, b}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::LogicalOrOptions, tfl::CreateLogicalOrOptions(fbb_).Union());
      } else if (pos || neg) {
        equal(pos ? inf : -inf, tensor(op.outputs[0]));
      } else {  // nothing detected: x < -inf is false everywhere (NaN included)
        emit(B::LESS, {tensor(op.inputs[0]), const_scalar(base + "/minus_inf", ir::DType::Float32, -inf)}, {tensor(op.outputs[0])},
             tfl::BuiltinOptions::LessOptions, tfl::CreateLessOptions(fbb_).Union());
      }
      return;
    }
    case K::Trilu: {
      // A constant [N, M] mask of the kept triangle: SELECT_V2(mask, x, 0)
      if (!x.shape.is_static() || x.shape.rank() < 2) unsupported(op, "needs a static shape of rank 2 or more");
      std::int64_t k = 0;
      if (op.inputs.size() > 1 && !op.inputs[1].empty()) {
        const auto v = const_ints(op.inputs[1], op);
        if (v.size() != 1) unsupported(op, "k must hold one value");
        k = v[0];
      }
      const bool upper = op.attr_int("upper", 1) != 0;
      const auto xs = x.shape.sizes();
      const std::int64_t n = xs[xs.size() - 2], m = xs.back();
      std::vector<std::uint8_t> mask(static_cast<std::size_t>(n * m));
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < m; ++j) mask[static_cast<std::size_t>(i * m + j)] = upper ? j - i >= k : j - i <= k;
      const int mk = add_tensor(unique(base + "/mask"), ir::DType::Bool, {n, m}, std::nullopt, mask.data(), mask.size());
      emit(B::SELECT_V2, {mk, tensor(op.inputs[0]), const_scalar(base + "/zero", x.dtype, 0)}, {tensor(op.outputs[0])},
           tfl::BuiltinOptions::SelectV2Options, tfl::CreateSelectV2Options(fbb_).Union());
      return;
    }
    case K::CastLike: {
      const auto it = tensor_type(x.dtype), ot = tensor_type(t(op.outputs[0]).dtype);
      if (!it || !ot) unsupported(op, "types");
      emit(B::CAST, {tensor(op.inputs[0])}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CastOptions, tfl::CreateCastOptions(fbb_, *it, *ot).Union());
      return;
    }
    default: unsupported(op);
  }
}

// ---- quantisation arithmetic on float graphs ------------------------------------------

// QuantizeLinear / DequantizeLinear in a float graph (no quantisation params on the tensors,
// constant scale and zero point): ONNX's arithmetic. Quantize: saturate(round(x / s) + zp)
// with ROUND half to even as ONNX's, clamped, CAST to the 8-bit type; dequantize: (x - zp) * s.
void Writer::qdq_arithmetic(const ir::Operation& op) {
  const bool q = op.kind == K::QuantizeLinear;
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  const ir::Tensor& s = t(op.inputs[1]);
  const std::string base = op.outputs[0];
  const bool has_zp = op.inputs.size() > 2 && !op.inputs[2].empty();
  if (!s.is_constant() || s.dtype != ir::DType::Float32 || (has_zp && !t(op.inputs[2]).is_constant()))
    unsupported(op, "a scale or zero point known only when the model runs");
  if (!x.shape.rank_known) unsupported(op, "an input of unknown rank");
  const ir::DType qt = q ? yt.dtype : x.dtype;
  if (qt != ir::DType::UInt8 && qt != ir::DType::Int8 && qt != ir::DType::Int32)
    unsupported(op, "type " + std::string(ir::dtype_name(qt)));
  if ((q ? x.dtype : yt.dtype) != ir::DType::Float32) unsupported(op, "a float side of type other than float32");
  // scale and zero point as float constants shaped to broadcast along `axis` (per-axis) or scalars
  const auto sv = s.data->as<float>();
  std::vector<float> scales(sv.begin(), sv.end()), zps(scales.size(), 0.f);
  if (has_zp) {
    const ir::Tensor& z = t(op.inputs[2]);
    std::vector<double> zv;
    if (z.dtype == ir::DType::UInt8) for (auto v : z.data->as<std::uint8_t>()) zv.push_back(v);
    else if (z.dtype == ir::DType::Int8) for (auto v : z.data->as<std::int8_t>()) zv.push_back(v);
    else if (z.dtype == ir::DType::Int32) for (auto v : z.data->as<std::int32_t>()) zv.push_back(v);
    else unsupported(op, "a zero point of type " + std::string(ir::dtype_name(z.dtype)));
    if (zv.size() != scales.size()) unsupported(op, "scale and zero point of different lengths");
    for (std::size_t i = 0; i < zv.size(); ++i) zps[i] = static_cast<float>(zv[i]);
  }
  const auto r = static_cast<std::int64_t>(x.shape.rank());
  std::vector<std::int64_t> cshape;
  if (scales.size() > 1 || s.shape.rank() == 1) {
    std::int64_t axis = op.attr_int("axis", 1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) unsupported(op, "axis out of range");
    cshape.assign(static_cast<std::size_t>(r), 1);
    cshape[static_cast<std::size_t>(axis)] = static_cast<std::int64_t>(scales.size());
  }
  const int sc = add_tensor(unique(base + "/scale"), ir::DType::Float32, cshape, std::nullopt, scales.data(), scales.size() * 4);
  const int zp = add_tensor(unique(base + "/zero_point"), ir::DType::Float32, cshape, std::nullopt, zps.data(), zps.size() * 4);
  const ir::Shape& fs = q ? x.shape : yt.shape;
  if (!q) {
    const int xf = cast(tensor(op.inputs[0]), x.dtype, ir::DType::Float32, x.shape, base + "/float");
    const int d = temp(base + "/centred", ir::DType::Float32, fs);
    emit(B::SUB, {xf, zp}, {d}, tfl::BuiltinOptions::SubOptions, tfl::CreateSubOptions(fbb_).Union());
    emit(B::MUL, {d, sc}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::MulOptions, tfl::CreateMulOptions(fbb_).Union());
    return;
  }
  const int d = temp(base + "/scaled", ir::DType::Float32, fs), rd = temp(base + "/rounded", ir::DType::Float32, fs),
            sh = temp(base + "/shifted", ir::DType::Float32, fs), lo = temp(base + "/above_min", ir::DType::Float32, fs),
            hi = temp(base + "/saturated", ir::DType::Float32, fs);
  emit(B::DIV, {tensor(op.inputs[0]), sc}, {d}, tfl::BuiltinOptions::DivOptions, tfl::CreateDivOptions(fbb_).Union());
  emit(B::ROUND, {d}, {rd});
  emit(B::ADD, {rd, zp}, {sh}, tfl::BuiltinOptions::AddOptions, tfl::CreateAddOptions(fbb_).Union());
  const double qmin = qt == ir::DType::UInt8 ? 0 : qt == ir::DType::Int8 ? -128 : -2147483648.0;
  const double qmax = qt == ir::DType::UInt8 ? 255 : qt == ir::DType::Int8 ? 127 : 2147483520.0;  // the largest float32 below 2^31
  emit(B::MAXIMUM, {sh, const_scalar(base + "/qmin", ir::DType::Float32, qmin)}, {lo}, tfl::BuiltinOptions::MaximumMinimumOptions,
       tfl::CreateMaximumMinimumOptions(fbb_).Union());
  emit(B::MINIMUM, {lo, const_scalar(base + "/qmax", ir::DType::Float32, qmax)}, {hi}, tfl::BuiltinOptions::MaximumMinimumOptions,
       tfl::CreateMaximumMinimumOptions(fbb_).Union());
  const auto ot = tensor_type(qt);
  emit(B::CAST, {hi}, {tensor(op.outputs[0])}, tfl::BuiltinOptions::CastOptions,
       tfl::CreateCastOptions(fbb_, tfl::TensorType::FLOAT32, *ot).Union());
}

void Writer::write_op(const ir::Operation& op) {
  if (folded_.count(&op)) return;
  current_ = &op;
  using A = tfl::ActivationFunctionType;
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  if (op.kind != K::Unknown) check_computable(op);
  // From a row of the table (frontends/tflite/tflite_op_table.h), unless the row leaves
  // these inputs to the special case below.
  if (const frontends::tflite_ops::OpRow* row = frontends::tflite_ops::row_for_kind(op.kind);
      row && !(row->special && row->special(g_, op))) {
    if (row->check)
      if (std::string why = row->check(g_, op); !why.empty()) unsupported(op, why);
    const int n = row->operator_inputs() < 0 ? static_cast<int>(op.inputs.size()) : row->operator_inputs();
    A act = A::NONE;
    if (row->act == frontends::tflite_ops::Act::following) act = fused(op);
    else no_fused_activation(op);
    fb::Offset<void> options = 0;
    int out = -1;
    std::vector<int> inputs(static_cast<std::size_t>(n), -1);
    std::vector<bool> added(static_cast<std::size_t>(n), false);
    auto add_input = [&](int i) {
      if (added[static_cast<std::size_t>(i)]) return;
      added[static_cast<std::size_t>(i)] = true;
      const auto& ints = row->ints;
      if (i == ints.index) {
        inputs[static_cast<std::size_t>(i)] =
            const_i32(op.outputs[0] + ints.suffix, ints.values ? ints.values(g_, op) : op.attr_ints(ints.attr));
      } else {
        inputs[static_cast<std::size_t>(i)] = in(static_cast<std::size_t>(ints.index >= 0 && i > ints.index ? i - 1 : i));
      }
    };
    for (const char* c = row->order; *c; ++c) {
      if (*c == 'o' && row->write) options = row->write({fbb_, g_, act}, op);
      if (*c == 'y') out = y();
      if (*c >= '0' && *c <= '9' && *c - '0' < n) add_input(*c - '0');
      if (*c == '*')
        for (int i = 0; i < n; ++i) add_input(i);
    }
    emit(row->code, std::move(inputs), {out}, row->write ? row->options : tfl::BuiltinOptions::NONE, options,
         row->version ? row->version(g_, op) : version_for(op, row->int8_version));
    return;
  }
  // The special cases: decompositions, layouts, quantisation, fused activations.
  if (!takes_fused_activation(op.kind)) no_fused_activation(op);
  switch (op.kind) {
    case K::Xor: return logic(op);
    case K::Mod: case K::BitShift: case K::Pow: return integer_arithmetic(op);
    case K::ArgMax: case K::ArgMin: case K::CumSum: case K::TopK: case K::NonZero: return index_op(op);
    case K::Shape: case K::Size: case K::EyeLike: case K::ConstantOfShape: case K::Tile: case K::Expand: case K::OneHot:
      return shape_op(op);
    case K::GatherND: case K::GatherElements: case K::ScatterND: case K::ScatterElements: case K::ReverseSequence:
      return gather_scatter(op);
    case K::Resize: return resize(op);
    case K::Hardmax: return per_axis(op);
    case K::IsNaN: case K::IsInf: case K::Trilu: case K::CastLike: return elementwise_misc(op);
    case K::Conv: return conv(op);
    case K::LSTM: return lstm(op);
    case K::MaxPool: case K::AveragePool: case K::GlobalAveragePool: case K::GlobalMaxPool: return pool(op);
    case K::FullyConnected: case K::Gemm: case K::MatMul: return fully_connected(op);
    // 8- and 16-bit integers without quantisation params (the other Add/Sub/Mul/Div are rows)
    case K::Add: case K::Sub: case K::Mul: case K::Div: return integer_arithmetic(op);
    case K::Reciprocal: {
      const ir::Tensor& x = t(op.inputs[0]);
      if (x.dtype != ir::DType::Float32) unsupported(op, "on " + std::string(ir::dtype_name(x.dtype)));
      const float one = 1.f;
      const int c = add_tensor(unique(op.name + "/one"), ir::DType::Float32, {}, std::nullopt, &one, 4);
      emit(B::DIV, {c, in(0)}, {y()}, tfl::BuiltinOptions::DivOptions, tfl::CreateDivOptions(fbb_).Union(), 1);
      return;
    }
    case K::Clip: return clip(op);
    case K::Reshape: case K::Flatten: case K::Squeeze: case K::Unsqueeze: return reshape(op);
    case K::Transpose: return merged_transpose(op);
    case K::Concat: return requantised_concat(op);
    case K::Pad: return pad(op);
    case K::Slice: return slice(op);
    case K::Gather: return wrapped_gather(op);
    case K::Split: {
      if (op.inputs.size() > 1 && !op.inputs[1].empty()) return shape_op(op);  // SPLIT_V
      std::vector<int> outs;
      for (const auto& o : op.outputs) outs.push_back(tensor(o));
      const auto o = tfl::CreateSplitOptions(fbb_, static_cast<int>(outs.size()));
      emit(B::SPLIT, {const_i32(op.name + "/axis", {op.attr_int("axis", 0)}, true), in(0)}, outs, tfl::BuiltinOptions::SplitOptions,
           o.Union(), version_for(op, 2));
      return;
    }
    case K::QuantizeLinear: case K::DequantizeLinear: {
      // Scale and zero point live on the quantised tensor (they are constants of the op in the IR).
      const bool q = op.kind == K::QuantizeLinear;
      const std::string& qt = q ? op.outputs[0] : op.inputs[0];
      if (!t(qt).quant) return qdq_arithmetic(op);
      emit(q ? B::QUANTIZE : B::DEQUANTIZE, {in(0)}, {y()}, q ? tfl::BuiltinOptions::QuantizeOptions : tfl::BuiltinOptions::DequantizeOptions,
           q ? tfl::CreateQuantizeOptions(fbb_).Union() : tfl::CreateDequantizeOptions(fbb_).Union(), 2);
      return;
    }
    case K::Identity: {
      const ir::Tensor &a = t(op.inputs[0]), &b = t(op.outputs[0]);
      if (a.quant && b.quant && a.quant != b.quant) {
        emit(B::QUANTIZE, {in(0)}, {y()}, tfl::BuiltinOptions::QuantizeOptions, tfl::CreateQuantizeOptions(fbb_).Union(), 2);
        return;
      }
      if (!b.shape.is_static()) unsupported(op, "needs a static shape");
      const auto shape = b.shape.sizes();
      std::vector<std::int32_t> ns(shape.begin(), shape.end());
      const auto o = tfl::CreateReshapeOptionsDirect(fbb_, &ns);
      emit(B::RESHAPE, {in(0), const_i32(op.outputs[0] + "/new_shape", shape)}, {y()}, tfl::BuiltinOptions::ReshapeOptions, o.Union());
      return;
    }
    case K::ConvTranspose: return conv_transpose(op);
    case K::DepthToSpace: case K::SpaceToDepth: return depth_space(op);
    case K::Unknown: return custom_op(op);
    default: unsupported(op);
  }
}

// FullyConnected, Gemm and MatMul with a constant 2-D weight: FULLY_CONNECTED
void Writer::fully_connected(const ir::Operation& op) {
  using A = tfl::ActivationFunctionType;
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& w = t(op.inputs[1]);
  if (!w.is_constant() || !w.shape.is_static() || w.shape.rank() != 2) unsupported(op, "needs a constant 2-D weight");
  if (op.kind == K::Gemm && (op.attr_int("transA", 0) != 0 || attr_float(op, "alpha", 1.0) != 1.0 || attr_float(op, "beta", 1.0) != 1.0))
    unsupported(op, "transA, alpha or beta");
  // TFLite wants [out, in]: FullyConnected and Gemm(transB=1) have it; MatMul/Gemm(transB=0) are [in, out].
  const bool transposed = op.kind == K::FullyConnected || (op.kind == K::Gemm && op.attr_int("transB", 0) != 0);
  int wi = in(1);
  const auto ws = w.shape.sizes();
  const std::int64_t N = transposed ? ws[0] : ws[1], Kd = transposed ? ws[1] : ws[0];
  if (!transposed) {
    const std::size_t es = ir::dtype_size(w.dtype);
    std::vector<std::byte> buf(w.data->size());
    for (std::int64_t k = 0; k < Kd; ++k)
      for (std::int64_t n = 0; n < N; ++n)
        std::memcpy(&buf[static_cast<std::size_t>(n * Kd + k) * es], w.data->data() + static_cast<std::size_t>(k * N + n) * es, es);
    std::optional<ir::QuantParams> wq = w.quant;
    if (wq && wq->scales.size() > 1) wq->axis = 0;
    wi = add_tensor(unique(op.inputs[1] + "/transposed"), w.dtype, {N, Kd}, wq, buf.data(), buf.size());
    index_.erase(op.inputs[1]);
  }
  int bias = op.inputs.size() > 2 && !op.inputs[2].empty() ? in(2) : -1;
  if (bias >= 0) {
    const ir::Tensor& b = t(op.inputs[2]);
    if (b.shape.num_elements().value_or(-1) != N) unsupported(op, "bias must have one value per output");
    if (b.dtype == ir::DType::Int32 && !b.quant && x.quant && w.quant) {
      const ir::QuantParams bq = bias_params(*x.quant, *w.quant, N);
      index_.erase(op.inputs[2]);
      bias = add_tensor(unique(op.inputs[2] + "/q"), ir::DType::Int32, {N}, bq, b.data->data(), b.data->size());
    }
  }
  // fused SIGMOID / TANH: FULLY_CONNECTED takes neither (a LOGISTIC / TANH op after)
  const ir::Activation fused = ir::fused_activation(op);
  const bool sigmoid = (fused == ir::Activation::Sigmoid || fused == ir::Activation::Tanh) && !t(op.outputs[0]).quant;
  A act = sigmoid ? A::NONE : legal_activation(act_of(ir::fused_activation(op), op), t(op.outputs[0]));
  const int out = sigmoid ? pre_sigmoid(op) : y();
  const bool keep = x.shape.rank() > 2;
  const auto o = tfl::CreateFullyConnectedOptions(fbb_, act, tfl::FullyConnectedOptionsWeightsFormat::DEFAULT, keep);
  emit(B::FULLY_CONNECTED, {in(0), wi, bias}, {out}, tfl::BuiltinOptions::FullyConnectedOptions, o.Union(),
       x.dtype == ir::DType::Int8 ? (keep ? 5 : 4) : (keep ? 5 : 1));
  if (sigmoid) emit(fused == ir::Activation::Tanh ? B::TANH : B::LOGISTIC, {out}, {y()});
  return;
}

// Clip: RELU6 / RELU_N1_TO_1 / RELU, else MAXIMUM and MINIMUM with its bounds
void Writer::clip(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  auto unary = [&](B code, int v8 = 2) { emit(code, {in(0)}, {y()}, tfl::BuiltinOptions::NONE, 0, version_for(op, v8)); };
  if (op.inputs.size() == 3 && !op.inputs[1].empty() && !op.inputs[2].empty() && t(op.inputs[1]).is_constant() &&
      t(op.inputs[2]).is_constant() && t(op.inputs[1]).dtype == ir::DType::Float32 && t(op.inputs[2]).dtype == ir::DType::Float32) {
    const float l = t(op.inputs[1]).data->as<float>()[0], h = t(op.inputs[2]).data->as<float>()[0];
    if (l == 0.f && h == 6.f) return unary(B::RELU6);
    if (l == -1.f && h == 1.f) return unary(B::RELU_N1_TO_1);
    if (l == 0.f && std::isinf(h) && h > 0) return unary(B::RELU);
  }
  // Other bounds: MAXIMUM with the lower, MINIMUM with the upper (either may be absent),
  // both of the input's type (a quantised input: its params on the bound too).
  {
    const ir::Tensor& x = t(op.inputs[0]);
    const bool plain = x.dtype == ir::DType::Float32 || x.dtype == ir::DType::Int32 || x.dtype == ir::DType::Int64 ||
                       x.dtype == ir::DType::Int8 || x.dtype == ir::DType::UInt8 || x.dtype == ir::DType::Int16;
    if (!plain || x.quant || !x.shape.is_static())
      unsupported(op, "bounds other than [0, 6] or [-1, 1] on " + std::string(ir::dtype_name(x.dtype)));
    int v = in(0);
    for (int k = 1; k <= 2; ++k) {
      if (op.inputs.size() <= static_cast<std::size_t>(k) || op.inputs[static_cast<std::size_t>(k)].empty()) continue;
      const ir::Tensor& b = t(op.inputs[static_cast<std::size_t>(k)]);
      if (b.dtype != x.dtype) unsupported(op, "bounds of type " + std::string(ir::dtype_name(b.dtype)));
      const bool last = k == 2 || op.inputs.size() < 3 || op.inputs[2].empty();
      const int out = last ? y() : add_tensor(unique(op.outputs[0] + "/lower_clamped"), x.dtype, x.shape.sizes(), std::nullopt);
      emit(k == 1 ? B::MAXIMUM : B::MINIMUM, {v, in(static_cast<std::size_t>(k))}, {out}, tfl::BuiltinOptions::MaximumMinimumOptions,
           tfl::CreateMaximumMinimumOptions(fbb_).Union(), 1);
      v = out;
    }
    if (v == in(0)) {  // no bounds: an identity
      const auto shape = x.shape.sizes();
      std::vector<std::int32_t> ns(shape.begin(), shape.end());
      emit(B::RESHAPE, {in(0), const_i32(op.outputs[0] + "/shape", shape)}, {y()}, tfl::BuiltinOptions::ReshapeOptions,
           tfl::CreateReshapeOptionsDirect(fbb_, &ns).Union());
    }
    return;
  }
}

// Reshape, Flatten, Squeeze, Unsqueeze: RESHAPE, SQUEEZE or EXPAND_DIMS (nothing before a FULLY_CONNECTED)
void Writer::reshape(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  const ir::Tensor& out = t(op.outputs[0]);
  if (flattens_into_fully_connected(op)) {
    // FULLY_CONNECTED flattens its input itself ([N, ...] -> [N, K]): no RESHAPE in front
    // (as TFLite's converter writes it, and as the reader splits it off).
    index_[op.outputs[0]] = tensor(op.inputs[0]);
    return;
  }
  if (op.kind == K::Squeeze && op.inputs.size() > 1) {
    auto axes = const_ints(op.inputs[1], op);
    std::vector<std::int32_t> a(axes.begin(), axes.end());
    const auto o = tfl::CreateSqueezeOptionsDirect(fbb_, &a);
    emit(B::SQUEEZE, {in(0)}, {y()}, tfl::BuiltinOptions::SqueezeOptions, o.Union());
    return;
  }
  if (op.kind == K::Unsqueeze && op.inputs.size() > 1 && const_ints(op.inputs[1], op).size() == 1) {
    const int axis = const_i32(op.name + "/axis", const_ints(op.inputs[1], op), true);
    emit(B::EXPAND_DIMS, {in(0), axis}, {y()}, tfl::BuiltinOptions::ExpandDimsOptions, tfl::CreateExpandDimsOptions(fbb_).Union());
    return;
  }
  std::vector<std::int64_t> shape;
  if (out.shape.rank_known && out.shape.is_static()) shape = out.shape.sizes();
  else if (op.kind == K::Reshape) shape = const_ints(op.inputs[1], op);
  else unsupported(op, "output shape must be static");
  std::vector<std::int32_t> ns(shape.begin(), shape.end());
  const int st = const_i32(op.outputs[0] + "/new_shape", shape);
  const auto o = tfl::CreateReshapeOptionsDirect(fbb_, &ns);
  emit(B::RESHAPE, {in(0), st}, {y()}, tfl::BuiltinOptions::ReshapeOptions, o.Union());
  return;
}

// Transpose above 5-D (the row writes the others): axes merged, RESHAPE, TRANSPOSE, RESHAPE
void Writer::merged_transpose(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  auto perm = op.attr_ints("perm");
  if (perm.empty()) {
    const auto r = static_cast<std::int64_t>(t(op.inputs[0]).shape.rank());
    for (std::int64_t i = r - 1; i >= 0; --i) perm.push_back(i);
  }
  const ir::Tensor& xt = t(op.inputs[0]);
  if (perm.size() > 5 && xt.shape.rank_known && xt.shape.is_static() && xt.shape.rank() == perm.size()) {
    // TFLite's TRANSPOSE takes at most 5-D. Unit axes go anywhere, and input axes that stay
    // side by side in the output move as one (Swin's window partition [B, H/w, w, W/w, w, C]
    // -> [0, 1, 3, 2, 4, 5] is a 4-D transpose): RESHAPE to the merged axes, TRANSPOSE
    // them, RESHAPE to the output.
    const auto xs = xt.shape.sizes();
    std::vector<std::int64_t> rank_of(xs.size(), -1), nz;
    for (std::size_t a = 0; a < xs.size(); ++a)
      if (xs[a] != 1) {
        rank_of[a] = static_cast<std::int64_t>(nz.size());
        nz.push_back(static_cast<std::int64_t>(a));
      }
    std::vector<std::pair<std::int64_t, std::int64_t>> groups;  // output order: {first non-unit rank, count}
    for (auto a : perm) {
      if (a < 0 || a >= static_cast<std::int64_t>(xs.size())) unsupported(op, "perm out of range");
      const std::int64_t k = rank_of[static_cast<std::size_t>(a)];
      if (k < 0) continue;
      if (!groups.empty() && groups.back().first + groups.back().second == k) ++groups.back().second;
      else groups.push_back({k, 1});
    }
    if (groups.size() <= 5) {
      auto in_order = groups;
      std::sort(in_order.begin(), in_order.end());
      std::vector<std::int64_t> merged_in, merged_out, p2;
      auto size_of = [&](const std::pair<std::int64_t, std::int64_t>& gr) {
        std::int64_t n = 1;
        for (std::int64_t k = gr.first; k < gr.first + gr.second; ++k) n *= xs[static_cast<std::size_t>(nz[static_cast<std::size_t>(k)])];
        return n;
      };
      for (const auto& gr : in_order) merged_in.push_back(size_of(gr));
      for (const auto& gr : groups) {
        merged_out.push_back(size_of(gr));
        p2.push_back(std::find(in_order.begin(), in_order.end(), gr) - in_order.begin());
      }
      auto reshape_to = [&](int from, int to, const std::vector<std::int64_t>& shape) {
        std::vector<std::int32_t> ns(shape.begin(), shape.end());
        emit(B::RESHAPE, {from, const_i32(op.outputs[0] + "/shape", shape)}, {to}, tfl::BuiltinOptions::ReshapeOptions,
             tfl::CreateReshapeOptionsDirect(fbb_, &ns).Union());
      };
      if (groups.size() <= 1) {
        reshape_to(in(0), y(), t(op.outputs[0]).shape.sizes());
        return;
      }
      const int a = add_tensor(unique(op.outputs[0] + "/merged_in"), xt.dtype, merged_in, xt.quant);
      const int c = add_tensor(unique(op.outputs[0] + "/merged_out"), xt.dtype, merged_out, xt.quant);
      reshape_to(in(0), a, merged_in);
      emit(B::TRANSPOSE, {a, const_i32(op.outputs[0] + "/perm", p2)}, {c}, tfl::BuiltinOptions::TransposeOptions,
           tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
      reshape_to(c, y(), t(op.outputs[0]).shape.sizes());
      return;
    }
  }
  emit(B::TRANSPOSE, {in(0), const_i32(op.outputs[0] + "/perm", perm)}, {y()}, tfl::BuiltinOptions::TransposeOptions,
       tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
  return;
}

// Concat whose 8-bit inputs are on other params than its output (the row writes the others)
void Writer::requantised_concat(const ir::Operation& op) {
  using A = tfl::ActivationFunctionType;
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  // TFLite's 8-bit CONCATENATION takes every input on the output's params (its
  // quantisation spec): an input on others is requantised first (QUANTIZE).
  std::vector<int> ins;
  const ir::Tensor& yt = t(op.outputs[0]);
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const ir::Tensor& xt = t(op.inputs[i]);
    if (yt.quant && xt.quant && xt.quant != yt.quant && xt.dtype == yt.dtype && !xt.is_constant() && xt.shape.is_static()) {
      const int r = add_tensor(unique(op.inputs[i] + "/requantized"), xt.dtype, xt.shape.sizes(), yt.quant);
      emit(B::QUANTIZE, {in(i)}, {r}, tfl::BuiltinOptions::QuantizeOptions, tfl::CreateQuantizeOptions(fbb_).Union(), 2);
      ins.push_back(r);
    } else {
      ins.push_back(in(i));
    }
  }
  // no fused activation: TFLite's CONCATENATION kernel refuses one (and so does the Edge TPU)
  const int out = y();
  std::int64_t axis = op.attr_int("axis", 0);
  const auto o = tfl::CreateConcatenationOptions(fbb_, static_cast<int>(axis), A::NONE);
  emit(B::CONCATENATION, ins, {out}, tfl::BuiltinOptions::ConcatenationOptions, o.Union(), version_for(op, 2));
  return;
}

// Slice: SLICE, or STRIDED_SLICE for steps other than 1
void Writer::slice(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  const ir::Tensor& x = t(op.inputs[0]);
  if (!x.shape.is_static()) unsupported(op, "needs a static input shape");
  const auto xs = x.shape.sizes();
  const auto r = static_cast<std::int64_t>(xs.size());
  auto starts = const_ints(op.inputs[1], op), ends = const_ints(op.inputs[2], op);
  std::vector<std::int64_t> axes, steps;
  if (op.inputs.size() > 3 && !op.inputs[3].empty()) axes = const_ints(op.inputs[3], op);
  else for (std::size_t i = 0; i < starts.size(); ++i) axes.push_back(static_cast<std::int64_t>(i));
  if (op.inputs.size() > 4 && !op.inputs[4].empty()) steps = const_ints(op.inputs[4], op);
  else steps.assign(starts.size(), 1);
  std::vector<std::int64_t> b(static_cast<std::size_t>(r), 0), e = xs, st(static_cast<std::size_t>(r), 1);
  bool unit = true;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    std::int64_t a = axes[i] < 0 ? axes[i] + r : axes[i];
    if (a < 0 || a >= r) unsupported(op, "axis out of range");
    const std::int64_t n = xs[static_cast<std::size_t>(a)];
    auto clampi = [&](std::int64_t v, bool end) {
      if (v < 0) v += n;
      return steps[i] > 0 ? std::clamp<std::int64_t>(v, 0, n) : std::clamp<std::int64_t>(v, -1, end ? n - 1 : n - 1);
    };
    b[static_cast<std::size_t>(a)] = clampi(starts[i], false);
    e[static_cast<std::size_t>(a)] = clampi(ends[i], true);
    st[static_cast<std::size_t>(a)] = steps[i];
    unit &= steps[i] == 1;
  }
  if (unit) {
    std::vector<std::int64_t> size(static_cast<std::size_t>(r));
    for (std::int64_t d = 0; d < r; ++d) size[static_cast<std::size_t>(d)] = std::max<std::int64_t>(e[static_cast<std::size_t>(d)] - b[static_cast<std::size_t>(d)], 0);
    emit(B::SLICE, {in(0), const_i32(op.outputs[0] + "/begin", b), const_i32(op.outputs[0] + "/size", size)}, {y()},
         tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union(), version_for(op, 2));
  } else {
    int end_mask = 0;
    for (std::int64_t d = 0; d < r; ++d)
      if (st[static_cast<std::size_t>(d)] < 0 && e[static_cast<std::size_t>(d)] < 0) end_mask |= 1 << d;
    const auto o = tfl::CreateStridedSliceOptions(fbb_, 0, end_mask);
    emit(B::STRIDED_SLICE, {in(0), const_i32(op.outputs[0] + "/begin", b), const_i32(op.outputs[0] + "/end", e),
                            const_i32(op.outputs[0] + "/strides", st)},
         {y()}, tfl::BuiltinOptions::StridedSliceOptions, o.Union(), version_for(op, 2));
  }
  return;
}

// Gather with negative or run-time indices (the row writes the others)
void Writer::wrapped_gather(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  std::int64_t axis = op.attr_int("axis", 0);
  const ir::Tensor& x = t(op.inputs[0]);
  if (axis < 0 && x.shape.rank_known) axis += static_cast<std::int64_t>(x.shape.rank());
  int idx = in(1);
  // TFLite's GATHER takes no negative index (ONNX counts them from the end): constant
  // ones are written counted from the start.
  const ir::Tensor& it = t(op.inputs[1]);
  if (it.is_constant() && x.shape.rank_known && axis >= 0 && static_cast<std::size_t>(axis) < x.shape.rank() &&
      x.shape.dims[static_cast<std::size_t>(axis)].is_static()) {
    const std::int64_t n = x.shape.dims[static_cast<std::size_t>(axis)].value;
    std::vector<std::int32_t> v;
    bool negative = false;
    for (auto i : const_ints(op.inputs[1], op)) {
      negative |= i < 0;
      v.push_back(static_cast<std::int32_t>(i < 0 ? i + n : i));
    }
    if (negative) {
      std::vector<std::int64_t> shape = it.shape.sizes();
      idx = add_tensor(unique(op.inputs[1] + "/from_start"), ir::DType::Int32, shape, std::nullopt, v.data(), v.size() * 4);
    }
  } else if (!it.is_constant() && x.shape.rank_known && axis >= 0 && static_cast<std::size_t>(axis) < x.shape.rank() &&
             x.shape.dims[static_cast<std::size_t>(axis)].is_static() &&
             (it.dtype == ir::DType::Int32 || it.dtype == ir::DType::Int64)) {
    // indices known only when the model runs: FLOOR_MOD(i, n) is i for 0 <= i < n and
    // i + n for -n <= i < 0, the index ONNX means
    const std::int64_t n = x.shape.dims[static_cast<std::size_t>(axis)].value;
    const int wrapped = temp(op.inputs[1] + "/from_start", it.dtype, it.shape);
    emit(B::FLOOR_MOD, {idx, const_scalar(op.inputs[1] + "/axis_size", it.dtype, double(n))}, {wrapped},
         tfl::BuiltinOptions::FloorModOptions, tfl::CreateFloorModOptions(fbb_).Union());
    idx = wrapped;
  }
  const auto o = tfl::CreateGatherOptions(fbb_, static_cast<int>(axis));
  emit(B::GATHER, {in(0), idx}, {y()}, tfl::BuiltinOptions::GatherOptions, o.Union(), version_for(op, 2));
  return;
}

// ConvTranspose: TRANSPOSE_CONV (NHWC) between TRANSPOSEs
void Writer::conv_transpose(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  // The IR's op is NCHW with [Cin, Cout/group, KH, KW] weights; TFLite's TRANSPOSE_CONV
  // is NHWC with [Cout, KH, KW, Cin]: TRANSPOSE in, TRANSPOSE_CONV, TRANSPOSE back.
  if (op.attr_string("layout", "NCHW") != "NCHW") unsupported(op, "layout " + op.attr_string("layout", ""));
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& w = t(op.inputs[1]);
  const ir::Tensor& yt = t(op.outputs[0]);
  if (!w.is_constant() || !w.shape.is_static() || w.shape.rank() != 4) unsupported(op, "needs a constant 4-D weight");
  if (!x.shape.is_static() || !yt.shape.is_static() || x.shape.rank() != 4 || yt.shape.rank() != 4)
    unsupported(op, "a dynamic or non-4-D shape");
  if (op.attr_int("group", 1) != 1)
    unsupported(op, "group " + std::to_string(op.attr_int("group", 1)) + " (TFLite's TRANSPOSE_CONV has no groups)");
  const auto dil = op.attr_ints("dilations");
  if (!dil.empty() && dil != std::vector<std::int64_t>{1, 1})
    unsupported(op, "dilations other than 1 (TFLite's TRANSPOSE_CONV has none)");
  auto s = op.attr_ints("strides"), p = op.attr_ints("pads"), opad = op.attr_ints("output_padding"),
       oshape = op.attr_ints("output_shape");
  if (s.empty()) s = {1, 1};
  if (p.empty()) p = {0, 0, 0, 0};
  if (opad.empty()) opad = {0, 0};
  if (s.size() != 2 || p.size() != 4 || opad.size() != 2) unsupported(op, "2-D transposed convolution only");
  const auto xs = x.shape.sizes(), ws = w.shape.sizes(), ys = yt.shape.sizes();
  const std::int64_t cin = ws[0], cout = ws[1], k[2] = {ws[2], ws[3]};
  if (xs[1] != cin || ys[1] != cout) unsupported(op, "weight channels do not match the input and output");
  // The pads the runtime uses (core/runtime/kernels/conv.cpp, conv_geometry).
  const std::string auto_pad = op.attr_string("auto_pad", "NOTSET");
  std::int64_t pb[2], out[2];
  for (int i = 0; i < 2; ++i) {
    if (s[i] < 1) unsupported(op, "stride below 1");
    const std::int64_t full = s[i] * (xs[2 + i] - 1) + opad[i] + k[i];
    std::int64_t pe = p[2 + i];
    pb[i] = p[i];
    if (!oshape.empty()) {
      const std::int64_t total = full - oshape[oshape.size() - 2 + i];
      const std::int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      pb[i] = auto_pad == "SAME_UPPER" ? half : total - half;
      pe = total - pb[i];
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      const std::int64_t total = full - xs[2 + i] * s[i];
      pb[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      pe = total - pb[i];
    } else if (auto_pad == "VALID") {
      pb[i] = pe = 0;
    }
    out[i] = full - pb[i] - pe;
    if (out[i] != ys[2 + i]) unsupported(op, "its attributes do not give its output shape");
  }
  // TFLite pads as a convolution from the output to the input would: VALID, or
  // SAME (total / 2 before); the input size must be that convolution's output.
  auto fits = [&](tfl::Padding pad) {
    for (int i = 0; i < 2; ++i) {
      const std::int64_t o = out[i];
      const std::int64_t conv_out = pad == tfl::Padding::SAME ? (o + s[i] - 1) / s[i]
                                    : o >= k[i]               ? (o - k[i]) / s[i] + 1
                                                              : -1;
      const std::int64_t before =
          pad == tfl::Padding::SAME ? std::max<std::int64_t>((conv_out - 1) * s[i] + k[i] - o, 0) / 2 : 0;
      if (conv_out != xs[2 + i] || before != pb[i]) return false;
    }
    return true;
  };
  tfl::Padding padding = tfl::Padding::VALID;
  // Pads that are neither (PyTorch's k 3, stride 2, padding 1, output_padding 1): a VALID
  // TRANSPOSE_CONV to the rows [0, pads before + output), then a SLICE dropping the pads before.
  bool crop = false;
  if (fits(tfl::Padding::VALID)) padding = tfl::Padding::VALID;
  else if (fits(tfl::Padding::SAME)) padding = tfl::Padding::SAME;
  else if (pb[0] >= 0 && pb[1] >= 0) crop = true;
  else
    unsupported(op, "negative pads before an output of " + std::to_string(out[0]) + "x" + std::to_string(out[1]));
  // [Cin, Cout, KH, KW] -> [Cout, KH, KW, Cin]
  const std::size_t es = ir::dtype_size(w.dtype);
  if (es == 0 || w.data->size() != static_cast<std::size_t>(cin * cout * k[0] * k[1]) * es)
    unsupported(op, "weight type " + std::string(ir::dtype_name(w.dtype)));
  std::vector<std::byte> buf(w.data->size());
  for (std::int64_t c = 0; c < cin; ++c)
    for (std::int64_t m = 0; m < cout; ++m)
      for (std::int64_t q = 0; q < k[0] * k[1]; ++q)
        std::memcpy(&buf[static_cast<std::size_t>((m * k[0] * k[1] + q) * cin + c) * es],
                    w.data->data() + static_cast<std::size_t>((c * cout + m) * k[0] * k[1] + q) * es, es);
  std::optional<ir::QuantParams> wq = w.quant;
  if (wq && wq->scales.size() > 1) wq->axis = 0;
  // The reader names its copy "<name>/iohw": write the file's own name back.
  std::string wname = op.inputs[1];
  if (wname.size() > 5 && wname.compare(wname.size() - 5, 5, "/iohw") == 0) wname.resize(wname.size() - 5);
  const int wi = add_tensor(unique(wname), w.dtype, {cout, k[0], k[1], cin}, wq, buf.data(), buf.size());
  int bias = op.inputs.size() > 2 ? tensor(op.inputs[2]) : -1;
  if (bias >= 0 && x.quant && w.quant) {
    const ir::Tensor& b = t(op.inputs[2]);
    if (b.dtype == ir::DType::Int32 && !b.quant) {
      index_.erase(op.inputs[2]);
      bias = add_tensor(unique(op.inputs[2] + "/q"), ir::DType::Int32, {cout}, bias_params(*x.quant, *w.quant, cout),
                        b.data->data(), b.data->size());
    }
  }
  auto nhwc = [](std::vector<std::int64_t> v) { return std::vector<std::int64_t>{v[0], v[2], v[3], v[1]}; };
  const auto fin = nhwc_in_.find(&op), fout = nhwc_out_.find(&op);
  int a, c;
  if (fin != nhwc_in_.end()) {
    a = tensor(fin->second);
  } else {
    a = add_tensor(unique(op.outputs[0] + "/nhwc_in"), x.dtype, nhwc(xs), x.quant);
    emit(B::TRANSPOSE, {in(0), const_i32(op.outputs[0] + "/to_nhwc", {0, 2, 3, 1})}, {a},
         tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
  }
  if (fout != nhwc_out_.end()) c = tensor(fout->second);
  else c = add_tensor(unique(op.outputs[0] + "/nhwc_out"), yt.dtype, nhwc(ys), yt.quant);
  std::vector<std::int64_t> conv_shape = nhwc(ys);
  if (crop) {
    // the whole transposed convolution ((in - 1) s + output_padding + k), never less: TFLite's
    // XNNPACK delegate takes an output shorter than that for a SAME-like padding (the
    // interpreter's results were rows off); the SLICE after it picks the op's rows
    for (int i = 0; i < 2; ++i)
      conv_shape[static_cast<std::size_t>(1 + i)] = std::max(s[i] * (xs[2 + i] - 1) + opad[i] + k[i], pb[i] + out[i]);
  }
  const int full = crop ? add_tensor(unique(op.outputs[0] + "/uncropped"), yt.dtype, conv_shape, yt.quant) : c;
  std::vector<int> ins{const_i32(op.outputs[0] + "/output_shape", conv_shape), wi, a};
  if (bias >= 0) ins.push_back(bias);
  emit(B::TRANSPOSE_CONV, ins, {full}, tfl::BuiltinOptions::TransposeConvOptions,
       tfl::CreateTransposeConvOptions(fbb_, padding, static_cast<int>(s[1]), static_cast<int>(s[0])).Union(),
       bias >= 0 ? 3 : version_for(op, 2));
  if (crop)
    emit(B::SLICE, {full, const_i32(op.outputs[0] + "/crop_begin", {0, pb[0], pb[1], 0}), const_i32(op.outputs[0] + "/crop_size", nhwc(ys))},
         {c}, tfl::BuiltinOptions::SliceOptions, tfl::CreateSliceOptions(fbb_).Union(), version_for(op, 2));
  if (fout == nhwc_out_.end())
    emit(B::TRANSPOSE, {c, const_i32(op.outputs[0] + "/to_nchw", {0, 3, 1, 2})}, {y()},
         tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
  return;
}

// DepthToSpace, SpaceToDepth: TRANSPOSE, the op, TRANSPOSE
void Writer::depth_space(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  auto y = [&] { return tensor(op.outputs[0]); };
  // The IR's op is NCHW, TFLite's NHWC: TRANSPOSE in, the op, TRANSPOSE back (the reader's mirror).
  const bool d2s = op.kind == K::DepthToSpace;
  if (d2s && op.attr_string("mode", "DCR") != "DCR")
    unsupported(op, "mode " + op.attr_string("mode", "DCR") + " (TFLite's DEPTH_TO_SPACE is DCR)");
  const ir::Tensor& x = t(op.inputs[0]);
  const ir::Tensor& yt = t(op.outputs[0]);
  if (!x.shape.is_static() || !yt.shape.is_static() || x.shape.rank() != 4 || yt.shape.rank() != 4)
    unsupported(op, "a dynamic or non-4-D shape");
  auto nhwc = [](std::vector<std::int64_t> v) { return std::vector<std::int64_t>{v[0], v[2], v[3], v[1]}; };
  const int a = add_tensor(unique(op.outputs[0] + "/nhwc_in"), x.dtype, nhwc(x.shape.sizes()), x.quant);
  const int c = add_tensor(unique(op.outputs[0] + "/nhwc_out"), yt.dtype, nhwc(yt.shape.sizes()), yt.quant);
  emit(B::TRANSPOSE, {in(0), const_i32(op.outputs[0] + "/to_nhwc", {0, 2, 3, 1})}, {a},
       tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
  const auto bs = static_cast<std::int32_t>(op.attr_int("blocksize", 0));
  if (d2s)
    emit(B::DEPTH_TO_SPACE, {a}, {c}, tfl::BuiltinOptions::DepthToSpaceOptions,
         tfl::CreateDepthToSpaceOptions(fbb_, bs).Union(), version_for(op, 2));
  else
    emit(B::SPACE_TO_DEPTH, {a}, {c}, tfl::BuiltinOptions::SpaceToDepthOptions,
         tfl::CreateSpaceToDepthOptions(fbb_, bs).Union(), version_for(op, 2));
  emit(B::TRANSPOSE, {c, const_i32(op.outputs[0] + "/to_nchw", {0, 3, 1, 2})}, {y()},
       tfl::BuiltinOptions::TransposeOptions, tfl::CreateTransposeOptions(fbb_).Union(), version_for(op, 2));
  return;
}

// a custom op read from a .tflite, written back unchanged
void Writer::custom_op(const ir::Operation& op) {
  auto in = [&](std::size_t i) { return i < op.inputs.size() ? tensor(op.inputs[i]) : -1; };
  // A custom op read from a .tflite ("tflite::<custom code>") is written back as it was.
  if (op.op_type.rfind("tflite::", 0) != 0) unsupported(op, "an op the IR does not know");
  const std::string type = op.op_type.substr(8);
  if ([&] {
        for (int c = 0; c <= static_cast<int>(B::MAX); ++c)
          if (type == tfl::EnumNameBuiltinOperator(static_cast<B>(c))) return true;
        return false;
      }())
    unsupported(op, "builtin " + type + " with options the reader did not map");
  std::vector<int> ins, outs;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) ins.push_back(in(i));
  for (const auto& o : op.outputs) outs.push_back(tensor(o));
  fb::Offset<fb::Vector<std::uint8_t>> opts = 0;
  if (const auto* a = op.attr("custom_options"))
    if (const auto* v = std::get_if<ir::TensorValue>(a))
      opts = fbb_.CreateVector(reinterpret_cast<const std::uint8_t*>(v->data.data()), v->data.size());
  const int oc = opcode(B::CUSTOM, 1, type);
  const auto iv = fbb_.CreateVector(ins), ov = fbb_.CreateVector(outs);
  ops_.push_back(tfl::CreateOperator(fbb_, static_cast<std::uint32_t>(oc), iv, ov, tfl::BuiltinOptions::NONE, 0, opts));
  return;
}

// Transpose(0,3,1,2) -> ConvTranspose -> Transpose(0,2,3,1), as the reader makes it,
// is written as TRANSPOSE_CONV alone (not with a TRANSPOSE pair on each side).
void Writer::fold_layout_transposes() {
  const std::vector<std::int64_t> to_nchw{0, 3, 1, 2}, to_nhwc{0, 2, 3, 1};
  for (const auto& op : g_.ops) {
    if (op.kind != K::ConvTranspose || op.inputs.empty() || op.outputs.empty()) continue;
    for (const auto& p : g_.ops) {
      if (p.kind != K::Transpose || p.outputs.empty() || p.outputs[0] != op.inputs[0]) continue;
      if (p.attr_ints("perm") == to_nchw && consumers_[op.inputs[0]] == 1 && !outputs_.count(op.inputs[0]) &&
          t(p.inputs[0]).shape.is_static()) {
        nhwc_in_[&op] = p.inputs[0];
        folded_.insert(&p);
      }
    }
    if (consumers_[op.outputs[0]] != 1 || outputs_.count(op.outputs[0])) continue;
    for (const auto& n : g_.ops)
      if (n.kind == K::Transpose && !n.inputs.empty() && n.inputs[0] == op.outputs[0] && n.attr_ints("perm") == to_nhwc &&
          t(n.outputs[0]).shape.is_static() && t(n.outputs[0]).quant == t(op.outputs[0]).quant) {
        nhwc_out_[&op] = n.outputs[0];
        folded_.insert(&n);
      }
  }
}

std::string Writer::write() {
  buffers_.push_back(tfl::CreateBuffer(fbb_));  // the sentinel: tensors without data
  for (const auto& o : g_.outputs) outputs_.insert(o);
  for (const auto& op : g_.ops)
    for (const auto& i : op.inputs)
      if (!i.empty()) ++consumers_[i];
  for (const auto& o : g_.outputs) ++consumers_[o];
  for (const auto& [name, x] : g_.tensors) used_.insert(name);
  std::vector<int> inputs, outputs;
  for (const auto& n : g_.inputs) inputs.push_back(tensor(n));
  fold_layout_transposes();
  for (const auto& op : g_.ops) write_op(op);
  for (const auto& n : g_.outputs) outputs.push_back(tensor(n));

  // Op codes: both the byte-wide deprecated field (capped at 127, the
  // placeholder for larger codes) and the int32 builtin_code.
  std::vector<std::pair<std::pair<int, std::string>, int>> by_index(code_index_.begin(), code_index_.end());
  std::sort(by_index.begin(), by_index.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  for (const auto& [key, idx] : by_index) {
    const int code = key.first;
    const auto dep = static_cast<std::int8_t>(std::min(code, 127));
    codes_.push_back(tfl::CreateOperatorCodeDirect(fbb_, dep, key.second.empty() ? nullptr : key.second.c_str(),
                                                   code_version_[static_cast<std::size_t>(idx)], static_cast<B>(code)));
  }
  // Signature "serving_default" over the graph's own input/output names.
  std::vector<fb::Offset<tfl::TensorMap>> sin, sout;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    sin.push_back(tfl::CreateTensorMapDirect(fbb_, g_.inputs[i].c_str(), static_cast<std::uint32_t>(inputs[i])));
  for (std::size_t i = 0; i < outputs.size(); ++i)
    sout.push_back(tfl::CreateTensorMapDirect(fbb_, g_.outputs[i].c_str(), static_cast<std::uint32_t>(outputs[i])));
  const auto sig = tfl::CreateSignatureDefDirect(fbb_, &sin, &sout, "serving_default", 0);
  // min_runtime_version: the TFLite release that runs every op version written here.
  const char kMinRuntime[16] = "2.3.0";
  fbb_.ForceVectorAlignment(16, 1, 16);
  const auto mv = fbb_.CreateVector(reinterpret_cast<const std::uint8_t*>(kMinRuntime), 16);
  buffers_.push_back(tfl::CreateBuffer(fbb_, mv));
  const auto meta = tfl::CreateMetadataDirect(fbb_, "min_runtime_version", static_cast<std::uint32_t>(buffers_.size() - 1));

  const auto sg = tfl::CreateSubGraphDirect(fbb_, &tensors_, &inputs, &outputs, &ops_, g_.name.empty() ? "main" : g_.name.c_str());
  std::vector<fb::Offset<tfl::SubGraph>> sgs{sg};
  std::vector<fb::Offset<tfl::Metadata>> metas{meta};
  std::vector<fb::Offset<tfl::SignatureDef>> sigs{sig};
  const auto model = tfl::CreateModelDirect(fbb_, 3, &codes_, &sgs, "edgecompiler", &buffers_, nullptr, &metas, &sigs);
  tfl::FinishModelBuffer(fbb_, model);
  return std::string(reinterpret_cast<const char*>(fbb_.GetBufferPointer()), fbb_.GetSize());
}

bool has_quant(const ir::Graph& g) {
  for (const auto& [n, t] : g.tensors)
    if (t.quant && !t.is_constant()) return true;
  return false;
}

}  // namespace

ir::Graph prepare_for_tflite(ir::Graph g, const TfliteWriteOptions& opts) {
  const bool from_tflite = g.metadata.count("source.format") && g.metadata.at("source.format") == "tflite";
  if (from_tflite) {
    passes::PassManagerOptions po;
    po.record_diffs = false;
    auto pm = passes::make_pipeline({"DeadCodeElimination"}, po);
    pm.run(g);
  } else {
    // Batch (and every named dim) is 1 in the file; the shape ops computing
    // Reshape targets from it then fold to constants.
    // Inputs' dynamic dims become 1; every other shape with a dynamic dim
    // ("4*batch", "?") is inferred again from them.
    const std::set<std::string> inputs(g.inputs.begin(), g.inputs.end());
    for (auto& [name, t] : g.tensors) {
      const bool dynamic = std::any_of(t.shape.dims.begin(), t.shape.dims.end(), [](const ir::Dim& d) { return !d.is_static(); });
      if (!dynamic) continue;
      if (inputs.count(name))
        for (auto& d : t.shape.dims) d = d.is_static() ? d : ir::Dim::fixed(1);
      else if (!t.is_constant())
        t.shape = ir::Shape::unknown_rank();
    }
    ir::infer_shapes(g);
    std::vector<std::string> names;
    if (has_quant(g) && opts.legalise_int8) names = {"LegaliseTflite", "LayoutTransform", "DeadCodeElimination"};
    else if (has_quant(g)) names = {"LayoutTransform", "DeadCodeElimination"};
    else names = {"Cleanup", "ConstantFolding", "Cleanup", "OpFusion", "LegaliseTflite", "FuseActivation", "LayoutTransform",
                  "DeadCodeElimination"};
    passes::PassManagerOptions po;
    po.record_diffs = false;
    auto pm = passes::make_pipeline(names, po);
    const passes::PipelineReport report = pm.run(g);
    // Why LegaliseTflite left an op of a kind it rewrites (runtime weights, say): the
    // writer's refusal of that op then says so instead of "no TFLite form".
    for (const auto& rec : report.passes) {
      if (rec.pass != "LegaliseTflite") continue;
      for (const auto& d : rec.diagnostics)
        for (auto& op : g.ops)
          if (!d.op.empty() && op.name == d.op) op.attributes[std::string(kLegaliseNote)] = d.message;
    }
  }
  if (!from_tflite) {
    // int64 inputs (token ids) are int32 in the file, as TFLite's converter writes them
    // (its GATHER takes int32 indices); another reader gets them through a CAST.
    for (const auto& in : g.inputs) {
      ir::Tensor* t = g.find_tensor(in);
      if (!t || t->dtype != ir::DType::Int64) continue;
      t->dtype = ir::DType::Int32;
      bool only_gather = true;
      for (const auto& op : g.ops)
        for (std::size_t k = 0; k < op.inputs.size(); ++k)
          if (op.inputs[k] == in) only_gather &= op.kind == K::Gather && k == 1;
      if (only_gather) continue;
      ir::Tensor wide = *t;
      wide.name = in + "/int64";
      wide.dtype = ir::DType::Int64;
      g.add_tensor(wide);
      for (auto& op : g.ops)
        for (auto& i : op.inputs)
          if (i == in) i = wide.name;
      ir::Operation cast;
      cast.kind = K::Cast;
      cast.op_type = "Cast";
      cast.name = in + "/to_int64";
      cast.inputs = {in};
      cast.outputs = {wide.name};
      cast.attributes["to"] = std::string(ir::dtype_name(ir::DType::Int64));
      g.ops.insert(g.ops.begin(), std::move(cast));
    }
  }
  auto consumers = [&](const std::string& n) {
    std::vector<ir::Operation*> v;
    for (auto& op : g.ops)
      if (std::find(op.inputs.begin(), op.inputs.end(), n) != op.inputs.end()) v.push_back(&op);
    return v;
  };
  auto erase_op = [&](const ir::Operation* p) {
    g.ops.erase(std::find_if(g.ops.begin(), g.ops.end(), [&](const ir::Operation& o) { return &o == p; }));
  };
  if (opts.int8_io) {
    for (auto& in : g.inputs) {
      auto c = consumers(in);
      if (c.size() != 1 || c[0]->kind != K::QuantizeLinear) continue;
      const std::string q = c[0]->outputs[0];
      ir::Tensor qt = *g.find_tensor(q);
      erase_op(c[0]);
      g.tensors.erase(q);
      g.tensors.erase(in);
      qt.name = in;
      g.add_tensor(std::move(qt));
      for (auto& op : g.ops)
        for (auto& i : op.inputs)
          if (i == q) i = in;
    }
    for (auto& out : g.outputs) {
      ir::Operation* p = nullptr;
      for (auto& op : g.ops)
        if (!op.outputs.empty() && op.outputs[0] == out) p = &op;
      if (!p || p->kind != K::DequantizeLinear || consumers(p->inputs[0]).size() != 1) continue;
      const std::string q = p->inputs[0];
      ir::Tensor qt = *g.find_tensor(q);
      erase_op(p);
      g.tensors.erase(out);
      g.tensors.erase(q);
      qt.name = out;
      g.add_tensor(std::move(qt));
      for (auto& op : g.ops)
        for (auto& o : op.outputs)
          if (o == q) o = out;
    }
  }
  if (opts.nhwc_io) {
    for (auto& in : g.inputs) {
      auto c = consumers(in);
      if (c.empty()) continue;
      // Through a QuantizeLinear at the float edge, the Transpose may come after it.
      bool all = true;
      for (auto* op : c) all &= op->kind == K::Transpose && op->attr_ints("perm") == std::vector<std::int64_t>{0, 2, 3, 1};
      if (!all) continue;
      const ir::Shape nhwc = g.find_tensor(c[0]->outputs[0])->shape;
      std::vector<std::string> outs;
      for (auto* op : c) outs.push_back(op->outputs[0]);
      for (const auto& o : outs) {
        erase_op(&*std::find_if(g.ops.begin(), g.ops.end(), [&](const ir::Operation& x) { return !x.outputs.empty() && x.outputs[0] == o; }));
        g.tensors.erase(o);
        for (auto& op : g.ops)
          for (auto& i : op.inputs)
            if (i == o) i = in;
      }
      g.find_tensor(in)->shape = nhwc;
    }
  }
  return g;
}

std::string save_tflite(const ir::Graph& g, const TfliteWriteOptions& opts) {
  ir::Graph fused = g;  // constants are shared, not copied
  passes::make_fuse_activation_pass(tflite_fusion())->run(fused);
  return Writer(fused, opts).write();
}

}  // namespace ec::backends::tflite
