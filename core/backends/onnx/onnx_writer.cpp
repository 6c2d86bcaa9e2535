// save_onnx: the IR as an ONNX ModelProto (opset 17, IR version 8). The mirror of
// core/frontends/onnx; what each op becomes is the table kOpForms below.
//
// Quantised graphs (tensors carrying QuantParams) become QDQ: every op reads float
// and writes float, an integer tensor with quantisation parameters is read through a
// DequantizeLinear (int8 weights per channel along their axis, int32 biases with
// scale s_in * s_w and no zero point) and written through a QuantizeLinear with its
// own parameters. ONNX Runtime fuses the pairs back into integer kernels; a plain
// reader (Netron, onnx.reference) sees the float graph with its quantisation.
#include "core/backends/onnx/onnx_writer.h"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <functional>
#include <numbers>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <onnx/onnx_pb.h>

#include "core/errors.h"
#include "core/ir/activation.h"

namespace ec::backends::onnx_export {
namespace {

using ir::DType;
using ir::OpKind;

constexpr int kOpset = 17;
constexpr int kIrVersion = 8;  // the IR version of opset 17
constexpr const char* kWriter = "the ONNX writer";

// --- the op table ---------------------------------------------------------------
// Every op kind is written as the ONNX op of its name (the IR's semantics are
// ONNX's) unless it has a row here.
enum class Form {
  Rewrite,  // written as standard ONNX ops (the function named in `how`)
  None,     // no form at opset 17: refused with `how` as the suggestion
};
struct OpForm {
  OpKind kind;
  Form form;
  const char* how;
};
constexpr OpForm kOpForms[] = {
    {OpKind::FullyConnected, Form::Rewrite, "Gemm(X, W, B, transB=1), X reshaped to [-1, K] first when rank > 2"},
    {OpKind::Gelu, Form::Rewrite, "0.5*x*(1+Erf(x/sqrt(2))), or the tanh form for approximate=tanh (Gelu is opset 20)"},
    {OpKind::Mish, Form::Rewrite, "x*Tanh(Softplus(x)) (Mish is opset 18)"},
    {OpKind::ReduceSum, Form::Rewrite, "axes attribute as the opset-13 axes input"},
    {OpKind::GroupNormalization, Form::None, "GroupNormalization is ONNX opset 18; export before fusing it or keep it decomposed"},
    {OpKind::CenterCropPad, Form::None, "CenterCropPad is ONNX opset 18"},
    {OpKind::BitwiseAnd, Form::None, "bitwise ops are ONNX opset 18"},
    {OpKind::BitwiseOr, Form::None, "bitwise ops are ONNX opset 18"},
    {OpKind::BitwiseXor, Form::None, "bitwise ops are ONNX opset 18"},
    {OpKind::BitwiseNot, Form::None, "bitwise ops are ONNX opset 18"},
};
// Also everywhere: `fused_activation` becomes the activation op after the op
// (RELU6 and RELU_N1_TO_1 as Clip), `layout: NHWC` becomes Transposes around the
// NCHW op (Conv weights OHWI -> OIHW by a Transpose too), dtype attributes the IR
// names ("f32") become ONNX's enums, Cast's `saturate` and Split's `num_outputs`
// (opset 19/18, which the IR keeps for those files) are dropped.

const OpForm* find_form(OpKind k) {
  for (const auto& f : kOpForms)
    if (f.kind == k) return &f;
  return nullptr;
}

bool has_layout_attr(OpKind k) {
  switch (k) {
    case OpKind::Conv: case OpKind::ConvTranspose: case OpKind::MaxPool: case OpKind::AveragePool:
    case OpKind::GlobalAveragePool: case OpKind::GlobalMaxPool: case OpKind::BatchNormalization:
      return true;
    default: return false;
  }
}

std::optional<int> onnx_dtype(DType t) {
  switch (t) {
    case DType::Float32: return onnx::TensorProto::FLOAT;
    case DType::Float16: return onnx::TensorProto::FLOAT16;
    case DType::BFloat16: return onnx::TensorProto::BFLOAT16;
    case DType::Float64: return onnx::TensorProto::DOUBLE;
    case DType::Int8: return onnx::TensorProto::INT8;
    case DType::Int16: return onnx::TensorProto::INT16;
    case DType::Int32: return onnx::TensorProto::INT32;
    case DType::Int64: return onnx::TensorProto::INT64;
    case DType::UInt8: return onnx::TensorProto::UINT8;
    case DType::UInt16: return onnx::TensorProto::UINT16;
    case DType::UInt32: return onnx::TensorProto::UINT32;
    case DType::UInt64: return onnx::TensorProto::UINT64;
    case DType::Bool: return onnx::TensorProto::BOOL;
    case DType::String: return onnx::TensorProto::STRING;
    case DType::Complex64: return onnx::TensorProto::COMPLEX64;
    case DType::Complex128: return onnx::TensorProto::COMPLEX128;
    default: return std::nullopt;
  }
}

// Attributes the IR stores as dtype names where ONNX stores a TensorProto enum.
bool is_dtype_attribute(const std::string& key) {
  return key == "to" || key == "dtype" || key == "output_datatype";
}

class Writer {
 public:
  Writer(const ir::Graph& g, const OnnxWriteOptions& o) : g_(g), opts_(o) {}

  std::string run() {
    model_.set_ir_version(kIrVersion);
    model_.set_producer_name("edgecompiler");
    if (!opts_.producer_version.empty()) model_.set_producer_version(opts_.producer_version);
    model_.set_model_version(g_.version);
    auto* opset = model_.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOpset);
    for (const auto& [k, v] : g_.metadata) {
      auto* p = model_.add_metadata_props();
      p->set_key(k);
      p->set_value(v);
    }
    gp_ = model_.mutable_graph();
    gp_->set_name(g_.name.empty() ? "graph" : g_.name);
    for (const auto& [name, t] : g_.tensors) names_.insert(name);

    for (const auto& in : g_.inputs) value_info(gp_->add_input(), tensor(in));
    for (const auto& op : g_.ops) emit(op);
    for (const auto& out : g_.outputs) {
      const ir::Tensor& t = tensor(out);
      if (t.is_constant()) {  // an output ONNX must compute: Identity of the initializer
        const std::string c = fresh(out + "/constant");
        add_initializer(t, c);
        node("Identity", out + "/Identity", {c}, {out});
      }
      value_info(gp_->add_output(), t);
    }
    // Shapes the IR knows, for readers (Netron) and ONNX Runtime's planner.
    for (const auto& [name, t] : g_.tensors) {
      if (t.is_constant() || !written_outputs_.count(name) || is_graph_io(name)) continue;
      if (!onnx_dtype(t.dtype) || t.dtype == DType::Undefined || !t.shape.rank_known) continue;
      value_info(gp_->add_value_info(), t);
    }
    if (model_.ByteSizeLong() > static_cast<std::size_t>(INT_MAX))
      throw BackendError("onnx", "the model is larger than protobuf's 2 GiB limit (" +
                                     std::to_string(model_.ByteSizeLong()) + " bytes)");
    std::string bytes;
    if (!model_.SerializeToString(&bytes)) throw BackendError("onnx", "protobuf could not serialise the model");
    return bytes;
  }

 private:
  const ir::Graph& g_;
  OnnxWriteOptions opts_;
  onnx::ModelProto model_;
  onnx::GraphProto* gp_ = nullptr;
  std::unordered_set<std::string> names_, node_names_, initialised_, written_outputs_;
  std::unordered_map<std::string, std::string> dequantized_;  // quantised tensor -> its float twin

  const ir::Tensor& tensor(const std::string& n) const {
    const ir::Tensor* t = g_.find_tensor(n);
    if (!t) throw GraphError("tensor '" + n + "' is used but not defined");
    return *t;
  }
  bool is_graph_io(const std::string& n) const {
    return std::find(g_.inputs.begin(), g_.inputs.end(), n) != g_.inputs.end() ||
           std::find(g_.outputs.begin(), g_.outputs.end(), n) != g_.outputs.end();
  }

  std::string fresh(const std::string& base) {
    std::string n = base;
    for (int k = 1; names_.count(n); ++k) n = base + "_" + std::to_string(k);
    names_.insert(n);
    return n;
  }
  std::string fresh_node(const std::string& base) {
    std::string n = base;
    for (int k = 1; node_names_.count(n); ++k) n = base + "_" + std::to_string(k);
    node_names_.insert(n);
    return n;
  }

  void value_info(onnx::ValueInfoProto* vi, const ir::Tensor& t) {
    vi->set_name(t.name);
    auto dt = onnx_dtype(t.dtype);
    if (!dt) throw UnsupportedOpError("tensor '" + t.name + "' of type " + std::string(ir::dtype_name(t.dtype)), kWriter, "");
    auto* tt = vi->mutable_type()->mutable_tensor_type();
    tt->set_elem_type(*dt);
    if (!t.shape.rank_known) return;
    auto* shape = tt->mutable_shape();
    for (const auto& d : t.shape.dims) {
      auto* dim = shape->add_dim();
      if (d.is_static()) dim->set_dim_value(d.value);
      else if (!d.symbol.empty()) dim->set_dim_param(d.symbol);
    }
  }

  void add_initializer(const ir::Tensor& t, const std::string& name) {
    auto dt = onnx_dtype(t.dtype);
    if (!dt || t.dtype == DType::String)
      throw UnsupportedOpError("constant '" + t.name + "' of type " + std::string(ir::dtype_name(t.dtype)), kWriter, "");
    auto* init = gp_->add_initializer();
    init->set_name(name);
    init->set_data_type(*dt);
    for (auto s : t.shape.sizes()) {
      if (s < 0) throw GraphError("constant '" + t.name + "' has a dynamic shape " + t.shape.to_string());
      init->add_dims(s);
    }
    const auto bytes = t.data->bytes();
    init->set_raw_data(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }

  // A name the ONNX graph defines for tensor n (constants become initializers once).
  std::string use(const std::string& n) {
    if (n.empty()) return n;
    const ir::Tensor& t = tensor(n);
    if (t.is_constant() && initialised_.insert(n).second) add_initializer(t, n);
    return n;
  }

  template <typename T>
  std::string constant(const std::string& base, DType dt, std::vector<std::int64_t> dims, const std::vector<T>& v) {
    const std::string name = fresh(base);
    auto* init = gp_->add_initializer();
    init->set_name(name);
    init->set_data_type(*onnx_dtype(dt));
    for (auto d : dims) init->add_dims(d);
    init->set_raw_data(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
    return name;
  }
  // A scalar of the float type `like` is computed in (a quantised tensor: its float twin).
  std::string scalar_like(const std::string& base, const ir::Tensor& like, double value) {
    if (like.dtype != DType::Float32 && !(like.quant && ir::dtype_is_integer(like.dtype)))
      throw UnsupportedOpError("a decomposition on " + std::string(ir::dtype_name(like.dtype)) + " tensor '" + like.name + "'",
                               kWriter, "only f32 decompositions are written");
    return constant(base, DType::Float32, {}, std::vector<float>{static_cast<float>(value)});
  }

  onnx::NodeProto* node(const std::string& type, const std::string& name, const std::vector<std::string>& ins,
                        const std::vector<std::string>& outs) {
    auto* n = gp_->add_node();
    n->set_op_type(type);
    n->set_name(fresh_node(name));
    for (const auto& i : ins) n->add_input(i);
    for (const auto& o : outs) {
      n->add_output(o);
      if (!o.empty()) written_outputs_.insert(o);
    }
    return n;
  }
  static void set_ints(onnx::NodeProto* n, const std::string& key, const std::vector<std::int64_t>& v) {
    auto* a = n->add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INTS);
    for (auto x : v) a->add_ints(x);
  }
  static void set_int(onnx::NodeProto* n, const std::string& key, std::int64_t v) {
    auto* a = n->add_attribute();
    a->set_name(key);
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }

  void copy_attribute(onnx::NodeProto* n, const std::string& key, const ir::Attribute& value, const ir::Operation& op) {
    auto* a = n->add_attribute();
    a->set_name(key);
    switch (ir::attr_kind(value)) {
      case ir::AttrKind::Int:
        a->set_type(onnx::AttributeProto::INT);
        a->set_i(std::get<std::int64_t>(value));
        break;
      case ir::AttrKind::Float:
        a->set_type(onnx::AttributeProto::FLOAT);
        a->set_f(static_cast<float>(std::get<double>(value)));
        break;
      case ir::AttrKind::String: {
        const auto& s = std::get<std::string>(value);
        if (is_dtype_attribute(key)) {
          auto dt = ir::dtype_from_name(s);
          auto e = dt ? onnx_dtype(*dt) : std::nullopt;
          if (!e) throw UnsupportedOpError(op.op_type + " to type '" + s + "'", kWriter, "", "op '" + op.name + "'");
          a->set_type(onnx::AttributeProto::INT);
          a->set_i(*e);
        } else {
          a->set_type(onnx::AttributeProto::STRING);
          a->set_s(s);
        }
        break;
      }
      case ir::AttrKind::Ints:
        a->set_type(onnx::AttributeProto::INTS);
        for (auto x : std::get<std::vector<std::int64_t>>(value)) a->add_ints(x);
        break;
      case ir::AttrKind::Floats:
        a->set_type(onnx::AttributeProto::FLOATS);
        for (auto x : std::get<std::vector<double>>(value)) a->add_floats(static_cast<float>(x));
        break;
      case ir::AttrKind::Strings:
        a->set_type(onnx::AttributeProto::STRINGS);
        for (const auto& x : std::get<std::vector<std::string>>(value)) a->add_strings(x);
        break;
      case ir::AttrKind::Tensor: {
        const auto& tv = std::get<ir::TensorValue>(value);
        auto dt = onnx_dtype(tv.dtype);
        if (!dt) throw UnsupportedOpError(op.op_type + " with a " + std::string(ir::dtype_name(tv.dtype)) + " tensor attribute", kWriter, "", "op '" + op.name + "'");
        a->set_type(onnx::AttributeProto::TENSOR);
        auto* t = a->mutable_t();
        t->set_data_type(*dt);
        for (auto d : tv.shape) t->add_dims(d);
        const auto b = tv.data.bytes();
        t->set_raw_data(reinterpret_cast<const char*>(b.data()), b.size());
        break;
      }
    }
  }

  // --- quantisation ---------------------------------------------------------------

  bool is_quantised(const std::string& n) const {
    const ir::Tensor* t = g_.find_tensor(n);
    return t && t->quant && ir::dtype_is_integer(t->dtype);
  }
  // Scale and zero point initializers of t's parameters (zero point omitted for int32).
  std::pair<std::string, std::string> qparams(const ir::Tensor& t, std::optional<std::int64_t>& axis) {
    const ir::QuantParams& p = *t.quant;
    if (t.dtype != DType::Int8 && t.dtype != DType::UInt8 && t.dtype != DType::Int32)
      throw UnsupportedOpError("quantised tensor '" + t.name + "' of type " + std::string(ir::dtype_name(t.dtype)), kWriter,
                               "ONNX opset 17 quantises to int8 or uint8 (and int32 biases) only");
    if (p.scales.empty()) throw QuantizationError(t.name, "has quantisation parameters without a scale");
    const bool per_channel = p.scales.size() > 1;
    const std::size_t n = p.scales.size();
    std::vector<std::int64_t> dims;
    if (per_channel) {
      dims = {static_cast<std::int64_t>(n)};
      axis = p.axis >= 0 ? p.axis : 0;
    }
    const std::string s = constant(t.name + "/scale", DType::Float32, dims, p.scales);
    if (t.dtype == DType::Int32) return {s, ""};
    auto zp_at = [&](std::size_t c) { return p.zero_points.empty() ? 0 : p.zero_points[std::min(c, p.zero_points.size() - 1)]; };
    std::string z;
    if (t.dtype == DType::Int8) {
      std::vector<std::int8_t> v(n);
      for (std::size_t c = 0; c < n; ++c) v[c] = static_cast<std::int8_t>(zp_at(c));
      z = constant(t.name + "/zero_point", DType::Int8, dims, v);
    } else {
      std::vector<std::uint8_t> v(n);
      for (std::size_t c = 0; c < n; ++c) v[c] = static_cast<std::uint8_t>(zp_at(c));
      z = constant(t.name + "/zero_point", DType::UInt8, dims, v);
    }
    return {s, z};
  }
  std::string dequantized(const std::string& n) {
    auto it = dequantized_.find(n);
    if (it != dequantized_.end()) return it->second;
    const ir::Tensor& t = tensor(n);
    std::optional<std::int64_t> axis;
    auto [s, z] = qparams(t, axis);
    const std::string out = fresh(n + "/dequantized");
    std::vector<std::string> ins{use(n), s};
    if (!z.empty()) ins.push_back(z);
    auto* dq = node("DequantizeLinear", n + "/DequantizeLinear", ins, {out});
    if (axis) set_int(dq, "axis", *axis);
    dequantized_[n] = out;
    return out;
  }
  void quantize_into(const std::string& from, const std::string& n) {
    const ir::Tensor& t = tensor(n);
    std::optional<std::int64_t> axis;
    auto [s, z] = qparams(t, axis);
    std::vector<std::string> ins{from, s};
    if (!z.empty()) ins.push_back(z);
    auto* q = node("QuantizeLinear", n + "/QuantizeLinear", ins, {n});
    if (axis) set_int(q, "axis", *axis);
  }

  // --- ops ---------------------------------------------------------------------------

  [[noreturn]] void refuse(const ir::Operation& op, const std::string& why) const {
    throw UnsupportedOpError(op.op_type, kWriter, why, "op '" + op.name + "'");
  }

  int rank_of(const std::string& n, int fallback) const {
    const ir::Tensor* t = g_.find_tensor(n);
    return t && t->shape.rank_known && t->shape.rank() > 0 ? static_cast<int>(t->shape.rank()) : fallback;
  }

  std::string transpose(const std::string& in, const std::vector<std::int64_t>& perm, const std::string& base) {
    const std::string out = fresh(base);
    set_ints(node("Transpose", base, {in}, {out}), "perm", perm);
    return out;
  }

  void emit(const ir::Operation& op) {
    if (!op.is_known())
      refuse(op, "the IR keeps it as an opaque op from its source format; ONNX has no such op");
    const OpForm* form = find_form(op.kind);
    if (form && form->form == Form::None) refuse(op, form->how);
    const bool qdq_op = op.kind == OpKind::QuantizeLinear || op.kind == OpKind::DequantizeLinear ||
                        op.kind == OpKind::DynamicQuantizeLinear;

    std::vector<std::string> ins, outs = op.outputs;
    for (const auto& in : op.inputs) ins.push_back(!qdq_op && is_quantised(in) ? dequantized(in) : use(in));

    // The chain after the op, built from its end: op -> activation -> Transpose -> QuantizeLinear.
    struct Post { std::function<void()> emit; };
    std::vector<Post> post;  // in reverse emission order
    if (!qdq_op)
      for (auto& out : outs)
        if (!out.empty() && is_quantised(out)) {
          const std::string q = out, f = fresh(out + "/float");
          post.push_back({[this, f, q] { quantize_into(f, q); }});
          out = f;
        }
    const bool nhwc = has_layout_attr(op.kind) && op.attr_string("layout", "NCHW") == "NHWC";
    if (nhwc) {
      const int r = rank_of(op.inputs[0], 4);
      std::vector<std::int64_t> to_first{0, r - 1}, to_last{0};
      for (int i = 1; i < r - 1; ++i) to_first.push_back(i);
      for (int i = 2; i < r; ++i) to_last.push_back(i);
      to_last.push_back(1);
      for (std::size_t i = 1; i < outs.size(); ++i)
        if (!outs[i].empty()) refuse(op, "a channels-last op with a second output (MaxPool indices) has no ONNX form");
      ins[0] = transpose(ins[0], to_first, op.outputs[0] + "/nchw_in");
      if (op.kind == OpKind::Conv && ins.size() > 1) {
        // OHWI -> OIHW
        std::vector<std::int64_t> w_first{0, r - 1};
        for (int i = 1; i < r - 1; ++i) w_first.push_back(i);
        ins[1] = transpose(ins[1], w_first, op.inputs[1] + "/oihw");
      } else if (op.kind == OpKind::ConvTranspose) {
        refuse(op, "a channels-last ConvTranspose has no ONNX form here; export before LayoutTransform");
      }
      const std::string last = outs[0], first = fresh(op.outputs[0] + "/nchw");
      post.push_back({[this, first, last, to_last, &op] {
        set_ints(node("Transpose", op.name + "/to_nhwc", {first}, {last}), "perm", to_last);
      }});
      outs[0] = first;
    }
    if (const ir::Activation act = ir::fused_activation(op); act != ir::Activation::None) {
      const std::string last = outs[0], pre = fresh(op.outputs[0] + "/preactivation");
      const ir::Tensor& like = tensor(op.outputs[0]);
      auto clip = [this, &op, pre, last, &like](double lo, double hi) {
        const std::string a = scalar_like(op.name + "/clip_min", like, lo), b = scalar_like(op.name + "/clip_max", like, hi);
        node("Clip", op.name + "/Clip", {pre, a, b}, {last});
      };
      switch (act) {
        case ir::Activation::Relu: post.push_back({[=, this] { node("Relu", op.name + "/Relu", {pre}, {last}); }}); break;
        case ir::Activation::Relu6: post.push_back({[=] { clip(0, 6); }}); break;
        case ir::Activation::ReluN1To1: post.push_back({[=] { clip(-1, 1); }}); break;
        case ir::Activation::Sigmoid: post.push_back({[=, this] { node("Sigmoid", op.name + "/Sigmoid", {pre}, {last}); }}); break;
        case ir::Activation::Tanh: post.push_back({[=, this] { node("Tanh", op.name + "/Tanh", {pre}, {last}); }}); break;
        default: refuse(op, "fused activation '" + std::string(ir::activation_name(act)) + "' has no ONNX form");
      }
      outs[0] = pre;
    }

    write_op(op, ins, outs);
    for (auto it = post.rbegin(); it != post.rend(); ++it) it->emit();
  }

  // The op itself, reading `ins` and writing `outs` (already renamed for wrapping).
  void write_op(const ir::Operation& op, const std::vector<std::string>& ins, const std::vector<std::string>& outs) {
    const std::string name = op.name.empty() ? op.op_type : op.name;
    switch (op.kind) {
      case OpKind::FullyConnected: {
        // y = x * W^T + b, x flattened to [M, K] (K from W [N, K]).
        std::string x = ins[0];
        if (rank_of(op.inputs[0], -1) != 2) {
          const ir::Tensor& w = tensor(op.inputs[1]);
          if (!w.shape.rank_known || w.shape.rank() != 2 || !w.shape.dims[1].is_static())
            refuse(op, "its weights' shape is not a static [N, K]");
          const std::string shape = constant(name + "/shape", DType::Int64, {2},
                                             std::vector<std::int64_t>{-1, w.shape.dims[1].value});
          x = fresh(op.outputs[0] + "/2d");
          node("Reshape", name + "/Reshape", {ins[0], shape}, {x});
        }
        std::vector<std::string> gin{x, ins[1]};
        if (ins.size() > 2 && !ins[2].empty()) gin.push_back(ins[2]);
        set_int(node("Gemm", name, gin, {outs[0]}), "transB", 1);
        return;
      }
      case OpKind::Gelu: {
        const ir::Tensor& like = tensor(op.inputs[0]);
        const std::string& x = ins[0];
        auto tmp = [&](const char* s) { return fresh(op.outputs[0] + "/" + s); };
        std::string inner;
        if (op.attr_string("approximate", "none") == "tanh") {
          // 0.5*x*(1 + tanh(sqrt(2/pi) * (x + 0.044715*x^3)))
          const std::string x2 = tmp("x2"), x3 = tmp("x3"), cx3 = tmp("cx3"), sum = tmp("sum"), arg = tmp("arg");
          node("Mul", name + "/x2", {x, x}, {x2});
          node("Mul", name + "/x3", {x2, x}, {x3});
          node("Mul", name + "/cx3", {x3, scalar_like(name + "/c", like, 0.044715)}, {cx3});
          node("Add", name + "/sum", {x, cx3}, {sum});
          node("Mul", name + "/arg", {sum, scalar_like(name + "/k", like, std::sqrt(2.0 / std::numbers::pi))}, {arg});
          inner = tmp("tanh");
          node("Tanh", name + "/Tanh", {arg}, {inner});
        } else {
          // 0.5*x*(1 + erf(x / sqrt(2)))
          const std::string d = tmp("scaled");
          node("Div", name + "/Div", {x, scalar_like(name + "/sqrt2", like, std::sqrt(2.0))}, {d});
          inner = tmp("erf");
          node("Erf", name + "/Erf", {d}, {inner});
        }
        const std::string p1 = tmp("plus1"), xm = tmp("xmul");
        node("Add", name + "/Add", {inner, scalar_like(name + "/one", like, 1.0)}, {p1});
        node("Mul", name + "/Mul", {x, p1}, {xm});
        node("Mul", name + "/Half", {xm, scalar_like(name + "/half", like, 0.5)}, {outs[0]});
        return;
      }
      case OpKind::Mish: {
        const std::string sp = fresh(op.outputs[0] + "/softplus"), th = fresh(op.outputs[0] + "/tanh");
        node("Softplus", name + "/Softplus", {ins[0]}, {sp});
        node("Tanh", name + "/Tanh", {sp}, {th});
        node("Mul", name + "/Mul", {ins[0], th}, {outs[0]});
        return;
      }
      case OpKind::ReduceSum: {
        std::vector<std::string> rin = ins;
        auto axes = op.attr_ints("axes");
        if (!axes.empty()) {
          rin.resize(1);
          rin.push_back(constant(name + "/axes", DType::Int64, {static_cast<std::int64_t>(axes.size())}, axes));
        }
        auto* n = node("ReduceSum", name, rin, outs);
        for (const auto& [k, v] : op.attributes)
          if (k != "axes") copy_attribute(n, k, v, op);
        return;
      }
      case OpKind::ReduceMean: case OpKind::ReduceMax: case OpKind::ReduceMin: case OpKind::ReduceProd:
      case OpKind::ReduceL1: case OpKind::ReduceL2: case OpKind::ReduceLogSum: case OpKind::ReduceLogSumExp:
      case OpKind::ReduceSumSquare:
        if (ins.size() > 1 && !ins[1].empty())
          refuse(op, "its axes are computed at run time; opset 17 takes them only as an attribute");
        break;
      default: break;
    }
    auto* n = node(op.op_type, name, ins, outs);
    for (const auto& [k, v] : op.attributes) {
      if (k == ir::kFusedActivationAttr) continue;
      if (k == "layout" && has_layout_attr(op.kind)) continue;
      if (k == "saturate" && op.kind == OpKind::Cast) continue;
      if (k == "num_outputs" && op.kind == OpKind::Split) continue;
      copy_attribute(n, k, v, op);
    }
  }
};

}  // namespace

std::string save_onnx(const ir::Graph& g, const OnnxWriteOptions& opts) { return Writer(g, opts).run(); }

bool is_onnx_path(const std::string& path) {
  return path.size() >= 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
}

}  // namespace ec::backends::onnx_export
