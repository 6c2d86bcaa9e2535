// IR -> MIL. One row per IR op kind in kLowerings; each row's function writes
// the MIL op(s) through Builder, which declares constants as `const` ops (fp16
// in fp16 programs; int64 as int32, which is what MIL computes shapes in) and
// names every value with a MIL identifier.
#include "core/backends/metal/lower.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <set>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/runtime/kernels/conv_reference.h"
#include "core/util/half.h"

namespace ec::backends::metal {
namespace {

using ir::DType;

double attr_f(const ir::Operation& op, const std::string& key, double fallback) {
  const auto* a = op.attr(key);
  if (a && std::holds_alternative<double>(*a)) return std::get<double>(*a);
  if (a && std::holds_alternative<std::int64_t>(*a)) return static_cast<double>(std::get<std::int64_t>(*a));
  return fallback;
}

[[noreturn]] void no_form(const ir::Operation& op, const std::string& why) {
  throw UnsupportedOpError(op.op_type, "the metal backend (Core ML)", why, "op '" + op.name + "'");
}

std::vector<std::uint8_t> raw(const void* p, std::size_t n) {
  const auto* b = static_cast<const std::uint8_t*>(p);
  return {b, b + n};
}

class Builder {
 public:
  Builder(const ir::Graph& g, const LowerOptions& o, MilProgram& p) : g_(g), o_(o), p_(p) {}

  const ir::Graph& graph() const { return g_; }
  const LowerOptions& options() const { return o_; }
  int ios() const { return o_.target->ios; }
  DType fdt() const { return o_.fp16 ? DType::Float16 : DType::Float32; }
  const ir::Operation* current = nullptr;
  std::vector<std::string>* made = nullptr;

  std::string unique(const std::string& hint) {
    std::string base = mil_identifier(hint), n = base;
    for (int k = 1; used_.count(n); ++k) n = base + "_" + std::to_string(k);
    used_.insert(n);
    return n;
  }
  void reserve(const std::string& n) { used_.insert(n); }

  /// MIL type of an IR tensor as the program computes it.
  MilType type_of(const std::string& t) const {
    const auto* x = g_.find_tensor(t);
    if (!x) throw std::runtime_error("tensor '" + t + "' has no type");
    MilType m{x->quant ? fdt() : compute_dtype(x->dtype), {}};  // an int8 tensor: its real value
    if (!x->shape.rank_known) throw std::runtime_error("tensor '" + t + "' has unknown rank");
    for (const auto& d : x->shape.dims) m.shape.push_back(d.is_static() ? d.value : -1);
    return m;
  }
  DType compute_dtype(DType t) const {
    if (t == DType::Float32 || t == DType::Float16 || t == DType::Float64) return fdt();
    if (t == DType::Int64 || t == DType::Int32 || t == DType::Int16 || t == DType::UInt16) return DType::Int32;
    if (t == DType::Bool || t == DType::Int8 || t == DType::UInt8) return t;
    throw std::runtime_error(std::string("dtype ") + std::string(ir::dtype_name(t)) + " has no MIL form");
  }

  const ir::Tensor* constant(const std::string& t) const {
    const auto* x = t.empty() ? nullptr : g_.find_tensor(t);
    return x && x->is_constant() ? x : nullptr;
  }
  std::vector<double> const_floats(const std::string& t) const {
    const auto* x = constant(t);
    if (!x) throw std::runtime_error("'" + t + "' must be a constant");
    std::vector<double> v;
    const auto n = x->num_elements().value_or(0);
    if (x->quant) return dequantized(*x);
    for (std::int64_t i = 0; i < n; ++i) {
      switch (x->dtype) {
        case DType::Float32: v.push_back(x->data->as<float>()[i]); break;
        case DType::Float64: v.push_back(x->data->as<double>()[i]); break;
        case DType::Float16: v.push_back(util::half_to_float(x->data->as<std::uint16_t>()[i])); break;
        default: throw std::runtime_error("'" + t + "' is not a float constant");
      }
    }
    return v;
  }
  /// real = scale * (q - zero_point), per tensor or along the params' axis.
  static std::vector<double> dequantized(const ir::Tensor& x) {
    const auto& q = *x.quant;
    const auto n = x.num_elements().value_or(0);
    std::int64_t inner = 1, channels = 1;
    if (q.scales.size() > 1 && q.axis >= 0) {
      for (std::size_t d = static_cast<std::size_t>(q.axis) + 1; d < x.shape.rank(); ++d) inner *= x.shape.dims[d].value;
      channels = static_cast<std::int64_t>(q.scales.size());
    }
    std::vector<double> v;
    for (std::int64_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>((i / inner) % channels);
      double raw = 0;
      switch (x.dtype) {
        case DType::Int8: raw = x.data->as<std::int8_t>()[i]; break;
        case DType::UInt8: raw = x.data->as<std::uint8_t>()[i]; break;
        case DType::Int32: raw = x.data->as<std::int32_t>()[i]; break;
        default: throw std::runtime_error("'" + x.name + "': quantised constant of type " + std::string(ir::dtype_name(x.dtype)));
      }
      const double zp = q.zero_points.empty() ? 0.0 : static_cast<double>(q.zero_points[std::min(c, q.zero_points.size() - 1)]);
      v.push_back(static_cast<double>(q.scales[std::min(c, q.scales.size() - 1)]) * (raw - zp));
    }
    return v;
  }
  /// Integer constant of any integer type (a zero point: i8 / u8).
  std::vector<std::int64_t> const_ints_any(const std::string& t) const {
    const auto* x = constant(t);
    if (!x) throw std::runtime_error("'" + t + "' must be a constant");
    if (x->dtype == DType::Int8) return {x->data->as<std::int8_t>().begin(), x->data->as<std::int8_t>().end()};
    if (x->dtype == DType::UInt8) return {x->data->as<std::uint8_t>().begin(), x->data->as<std::uint8_t>().end()};
    return const_ints(t);
  }
  std::vector<std::int64_t> const_ints(const std::string& t) const {
    const auto* x = constant(t);
    if (!x) throw std::runtime_error("'" + t + "' must be a constant");
    std::vector<std::int64_t> v;
    const auto n = x->num_elements().value_or(0);
    for (std::int64_t i = 0; i < n; ++i) {
      if (x->dtype == DType::Int64) v.push_back(x->data->as<std::int64_t>()[i]);
      else if (x->dtype == DType::Int32) v.push_back(x->data->as<std::int32_t>()[i]);
      else throw std::runtime_error("'" + t + "' is not an integer constant");
    }
    return v;
  }

  /// The MIL value of an IR tensor (a const op on first use of a constant).
  std::string value(const std::string& t) {
    if (auto it = names_.find(t); it != names_.end()) return it->second;
    const auto* x = constant(t);
    if (!x) throw std::runtime_error("tensor '" + t + "' is used before it is defined");
    MilValue v;
    v.type = type_of(t);
    const auto n = x->num_elements().value_or(0);
    if (ir::dtype_is_float(x->dtype) || x->quant) {
      const auto f = const_floats(t);
      v.bytes = float_bytes(f);
    } else if (v.type.dtype == DType::Int32) {
      std::vector<std::int32_t> i32;
      for (auto i : const_ints(t)) i32.push_back(checked_i32(i, t));
      v.bytes = raw(i32.data(), i32.size() * 4);
    } else {
      v.bytes = raw(x->data->data(), static_cast<std::size_t>(n) * ir::dtype_size(x->dtype));
    }
    const std::string name = emit_const(t, std::move(v));
    names_[t] = name;
    return name;
  }
  std::vector<std::uint8_t> float_bytes(const std::vector<double>& f) const {
    if (o_.fp16) {
      std::vector<std::uint16_t> h;
      for (double d : f) h.push_back(util::float_to_half(static_cast<float>(d)));
      return raw(h.data(), h.size() * 2);
    }
    std::vector<float> s(f.begin(), f.end());
    return raw(s.data(), s.size() * 4);
  }
  static std::int32_t checked_i32(std::int64_t i, const std::string& what) {
    if (i > std::numeric_limits<std::int32_t>::max()) return std::numeric_limits<std::int32_t>::max();
    if (i < std::numeric_limits<std::int32_t>::min()) throw std::runtime_error("'" + what + "' holds " + std::to_string(i) + ", beyond int32");
    return static_cast<std::int32_t>(i);
  }

  std::string emit_const(const std::string& hint, MilValue v) {
    MilOp op;
    op.type = "const";
    op.name = unique(hint);
    op.outputs.push_back({op.name, v.type});
    op.attributes["val"] = std::move(v);
    op.source_op = current ? current->name : "";
    p_.ops.push_back(std::move(op));
    return p_.ops.back().name;
  }
  std::string ints(const std::string& hint, const std::vector<std::int64_t>& v, bool scalar = false) {
    MilValue m;
    m.type = {DType::Int32, scalar ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{static_cast<std::int64_t>(v.size())}};
    std::vector<std::int32_t> i32;
    for (auto i : v) i32.push_back(checked_i32(i, hint));
    m.bytes = raw(i32.data(), i32.size() * 4);
    return emit_const(hint, std::move(m));
  }
  std::string int1(const std::string& hint, std::int64_t v) { return ints(hint, {v}, true); }
  std::string bools(const std::string& hint, const std::vector<bool>& v) {
    MilValue m;
    m.type = {DType::Bool, {static_cast<std::int64_t>(v.size())}};
    for (bool b : v) m.bytes.push_back(b ? 1 : 0);
    return emit_const(hint, std::move(m));
  }
  std::string bool1(const std::string& hint, bool b) {
    MilValue m;
    m.type = {DType::Bool, {}};
    m.bytes.push_back(b ? 1 : 0);
    return emit_const(hint, std::move(m));
  }
  std::string str(const std::string& hint, const std::string& s) {
    MilValue m;
    m.type = {DType::String, {}};
    m.strings.push_back(s);
    return emit_const(hint, std::move(m));
  }
  std::string float1(const std::string& hint, double d) {
    MilValue m;
    m.type = {fdt(), {}};
    m.bytes = float_bytes({d});
    return emit_const(hint, std::move(m));
  }
  std::string floats(const std::string& hint, const std::vector<double>& f, std::vector<std::int64_t> shape) {
    return floats_as(fdt(), hint, f, std::move(shape));
  }
  /// A float constant of type `t` (fp32 in an fp16 program: lstm / gru before iOS17).
  std::string floats_as(DType t, const std::string& hint, const std::vector<double>& f, std::vector<std::int64_t> shape) {
    MilValue m;
    m.type = {t, std::move(shape)};
    if (t == DType::Float16) {
      std::vector<std::uint16_t> h;
      for (double d : f) h.push_back(util::float_to_half(static_cast<float>(d)));
      m.bytes = raw(h.data(), h.size() * 2);
    } else {
      std::vector<float> v(f.begin(), f.end());
      m.bytes = raw(v.data(), v.size() * 4);
    }
    return emit_const(hint, std::move(m));
  }
  /// An op with several intermediate outputs, typed `types`; returns their names.
  std::vector<std::string> emit_n(const std::string& type, std::vector<std::pair<std::string, std::vector<std::string>>> inputs,
                                  const std::vector<MilType>& types) {
    MilOp op;
    op.type = type;
    op.inputs = std::move(inputs);
    std::vector<std::string> names;
    for (std::size_t k = 0; k < types.size(); ++k) {
      names.push_back(unique(current->name + "_" + type + (k ? "_" + std::to_string(k) : "")));
      op.outputs.push_back({names.back(), types[k]});
    }
    op.name = names.front();
    op.source_op = current->name;
    if (made) made->push_back(type);
    p_.ops.push_back(std::move(op));
    return names;
  }
  /// `v` (typed `t`) cast to float type `to`; `v` itself when it already is.
  std::string cast_to(const std::string& v, MilType t, DType to) {
    if (t.dtype == to) return v;
    t.dtype = to;
    return emit("cast", {{"x", {v}}, {"dtype", {str(current->name + "_dtype", to == DType::Float16 ? "fp16" : "fp32")}}}, "", &t);
  }

  /// Emits `type` with `inputs`; its output is the IR tensor `out` (or a fresh
  /// intermediate when `out` is empty, typed `t`). Returns the output's MIL name.
  std::string emit(const std::string& type, std::vector<std::pair<std::string, std::vector<std::string>>> inputs,
                   const std::string& out, const MilType* t = nullptr) {
    MilOp op;
    op.type = type;
    const bool boundary = !out.empty() && o_.fp16 && is_graph_output(out) && ir::dtype_is_float(g_.find_tensor(out)->dtype);
    if (!out.empty() && !boundary && is_graph_output(out)) op.name = mil_identifier(out);  // reserved
    else op.name = unique(out.empty() ? current->name + "_" + type : (boundary ? out + "_fp16" : out));
    op.inputs = std::move(inputs);
    op.outputs.push_back({op.name, t ? *t : type_of(out)});
    op.source_op = current ? current->name : "";
    if (made) made->push_back(type);
    p_.ops.push_back(std::move(op));
    if (!out.empty()) names_[out] = p_.ops.back().name;
    return p_.ops.back().name;
  }
  /// An op with one output per IR tensor in `outs` (split).
  void emit_multi(const std::string& type, std::vector<std::pair<std::string, std::vector<std::string>>> inputs,
                  const std::vector<std::string>& outs) {
    MilOp op;
    op.type = type;
    op.inputs = std::move(inputs);
    for (const auto& out : outs) {
      const bool boundary = o_.fp16 && is_graph_output(out) && ir::dtype_is_float(g_.find_tensor(out)->dtype);
      const std::string n = !boundary && is_graph_output(out) ? mil_identifier(out) : unique(boundary ? out + "_fp16" : out);
      op.outputs.push_back({n, type_of(out)});
      names_[out] = n;
    }
    op.name = op.outputs.front().first;
    op.source_op = current ? current->name : "";
    if (made) made->push_back(type);
    p_.ops.push_back(std::move(op));
  }
  void bind(const std::string& ir_tensor, const std::string& mil_name) { names_[ir_tensor] = mil_name; }
  /// An int8 activation (iOS17 quantize / dequantize): the float value `v` quantised to
  /// int8 with per-tensor (scale, zero_point) and back; `ir_tensor` is bound to the result.
  void fake_quant(const std::string& ir_tensor, const std::string& v, double scale, std::int64_t zero_point) {
    if (ios() < 17)
      throw std::runtime_error("int8 activations need Core ML's quantize/dequantize (iOS17 / macOS14 or later); use "
                               "--deployment-target iOS17, or --quantize weights-int8 / none");
    MilType q = type_of(ir_tensor);
    q.dtype = DType::Int8;
    MilValue zp;
    zp.type = {DType::Int8, {}};
    zp.bytes.push_back(static_cast<std::uint8_t>(static_cast<std::int8_t>(zero_point)));
    const std::string z = emit_const(ir_tensor + "_zero_point", zp);
    const std::string s = float1(ir_tensor + "_scale", scale);
    const std::string qn = emit("quantize", {{"input", {v}}, {"zero_point", {z}}, {"scale", {s}},
                                             {"output_dtype", {str(ir_tensor + "_output_dtype", "int8")}}},
                                "", &q);
    const MilType f = type_of(ir_tensor);
    bind(ir_tensor, emit("dequantize", {{"input", {qn}}, {"zero_point", {z}}, {"scale", {s}}}, "", &f));
  }
  bool is_graph_output(const std::string& t) const {
    return std::find(g_.outputs.begin(), g_.outputs.end(), t) != g_.outputs.end();
  }
  /// The float MIL value of a constant computed here (e.g. a transposed weight).
  std::string weight(const std::string& hint, const std::vector<double>& f, const std::vector<std::int64_t>& shape);

 private:
  const ir::Graph& g_;
  const LowerOptions& o_;
  MilProgram& p_;
  std::set<std::string> used_;
  std::map<std::string, std::string> names_;  // IR tensor -> MIL value
};

// int8 weights: symmetric per output channel (axis 0), real = scale * q.
std::string Builder::weight(const std::string& hint, const std::vector<double>& f, const std::vector<std::int64_t>& shape) {
  if (!o_.weights_int8 || f.size() < 10 || shape.empty()) return floats(hint, f, shape);
  const std::int64_t C = shape[0], per = static_cast<std::int64_t>(f.size()) / C;
  std::vector<std::int8_t> q(f.size());
  std::vector<double> scale(C);
  for (std::int64_t c = 0; c < C; ++c) {
    double m = 0;
    for (std::int64_t i = 0; i < per; ++i) m = std::max(m, std::fabs(f[c * per + i]));
    scale[c] = m > 0 ? m / 127.0 : 1.0;
    for (std::int64_t i = 0; i < per; ++i)
      q[c * per + i] = static_cast<std::int8_t>(std::clamp(std::lround(f[c * per + i] / scale[c]), -127L, 127L));
  }
  MilValue data;
  data.type = {DType::Int8, shape};
  data.bytes = raw(q.data(), q.size());
  const MilType out{fdt(), shape};
  if (ios() >= 18) {  // iOS18/compression.py: constexpr_blockwise_shift_scale(data, scale[C,1,...])
    std::vector<std::int64_t> sshape(shape.size(), 1);
    sshape[0] = C;
    const std::string d = emit_const(hint + "_quantized", std::move(data));
    const std::string s = floats(hint + "_scale", scale, sshape);
    MilOp op;
    op.type = "constexpr_blockwise_shift_scale";
    op.name = unique(hint);
    op.inputs = {{"data", {d}}, {"scale", {s}}};
    op.outputs.push_back({op.name, out});
    op.source_op = current ? current->name : "";
    if (made) made->push_back(op.type);
    p_.ops.push_back(std::move(op));
    return p_.ops.back().name;
  }
  // iOS16/constexpr_ops.py: constexpr_affine_dequantize, parameters as attributes up to iOS17
  MilOp op;
  op.type = "constexpr_affine_dequantize";
  op.name = unique(hint);
  op.outputs.push_back({op.name, out});
  op.attributes["quantized_data"] = std::move(data);
  MilValue zp;
  zp.type = {DType::Int8, {C}};
  zp.bytes.assign(static_cast<std::size_t>(C), 0);
  op.attributes["zero_point"] = std::move(zp);
  MilValue sc;
  sc.type = {fdt(), {C}};
  sc.bytes = float_bytes(scale);
  op.attributes["scale"] = std::move(sc);
  MilValue ax;
  ax.type = {DType::Int32, {}};
  const std::int32_t zero = 0;
  ax.bytes = raw(&zero, 4);
  op.attributes["axis"] = std::move(ax);
  op.source_op = current ? current->name : "";
  if (made) made->push_back(op.type);
  p_.ops.push_back(std::move(op));
  return p_.ops.back().name;
}

using In = std::vector<std::pair<std::string, std::vector<std::string>>>;
std::string in0(const ir::Operation& op, std::size_t k = 0) { return k < op.inputs.size() ? op.inputs[k] : std::string(); }

int rank_of(Builder& b, const std::string& t) { return static_cast<int>(b.type_of(t).shape.size()); }

void need_nchw(const ir::Operation& op) {
  if (op.attr_string("layout", "NCHW") != "NCHW") no_form(op, "layout " + op.attr_string("layout", "") + ": the writer takes NCHW (channels first) only");
}

// fused_activation (set by FuseActivation) as its own MIL op after `y`.
void fused(Builder& b, const ir::Operation& op, const std::string& y_tmp) {
  const ir::Activation act = ir::fused_activation(op);
  const std::string out = op.outputs[0];
  switch (act) {
    case ir::Activation::Relu: b.emit("relu", {{"x", {y_tmp}}}, out); break;
    case ir::Activation::Relu6: b.emit("clip", {{"x", {y_tmp}}, {"alpha", {b.float1(op.name + "_lo", 0)}}, {"beta", {b.float1(op.name + "_hi", 6)}}}, out); break;
    case ir::Activation::ReluN1To1: b.emit("clip", {{"x", {y_tmp}}, {"alpha", {b.float1(op.name + "_lo", -1)}}, {"beta", {b.float1(op.name + "_hi", 1)}}}, out); break;
    case ir::Activation::Sigmoid: b.emit("sigmoid", {{"x", {y_tmp}}}, out); break;
    case ir::Activation::Tanh: b.emit("tanh", {{"x", {y_tmp}}}, out); break;
    default: no_form(op, "fused activation " + std::string(ir::activation_name(act)));
  }
}

// Emits the op's main MIL op, followed by its fused activation when it has one.
void emit_with_activation(Builder& b, const ir::Operation& op, const std::string& type, In inputs) {
  if (ir::fused_activation(op) == ir::Activation::None) {
    b.emit(type, std::move(inputs), op.outputs[0]);
    return;
  }
  const MilType t = b.type_of(op.outputs[0]);
  fused(b, op, b.emit(type, std::move(inputs), "", &t));
}

// ONNX pads [b0, b1, ..., e0, e1, ...] -> MIL pad [b0, e0, b1, e1, ...].
std::vector<std::int64_t> interleave_pads(const std::vector<std::int64_t>& pads, std::size_t spatial) {
  std::vector<std::int64_t> p(2 * spatial, 0);
  if (pads.size() == 2 * spatial)
    for (std::size_t i = 0; i < spatial; ++i) {
      p[2 * i] = pads[i];
      p[2 * i + 1] = pads[spatial + i];
    }
  return p;
}

std::string pad_type(const ir::Operation& op) {
  const std::string a = op.attr_string("auto_pad", "NOTSET");
  if (a == "NOTSET") return "custom";
  if (a == "VALID") return "valid";
  if (a == "SAME_UPPER") return "same";
  if (a == "SAME_LOWER") return "same_lower";
  no_form(op, "auto_pad " + a);
}

std::vector<std::int64_t> ones(std::size_t n) { return std::vector<std::int64_t>(n, 1); }
std::vector<std::int64_t> or_default(std::vector<std::int64_t> v, std::vector<std::int64_t> d) { return v.empty() ? d : v; }

void lower_conv(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  const int r = rank_of(b, op.inputs[0]);
  if (r < 3 || r > 5) no_form(op, "conv of rank " + std::to_string(r) + " (MIL's conv takes 1-D to 3-D convolutions)");
  const std::size_t sp = static_cast<std::size_t>(r - 2);
  if (!b.constant(op.inputs[1])) no_form(op, "weights that are not constant");
  const std::string name = op.name;
  In in{{"x", {b.value(op.inputs[0])}},
        {"weight", {b.weight(name + "_weight", b.const_floats(op.inputs[1]), b.type_of(op.inputs[1]).shape)}}};
  if (!in0(op, 2).empty()) in.push_back({"bias", {b.value(op.inputs[2])}});
  in.push_back({"strides", {b.ints(name + "_strides", or_default(op.attr_ints("strides"), ones(sp)))}});
  in.push_back({"pad_type", {b.str(name + "_pad_type", pad_type(op))}});
  in.push_back({"pad", {b.ints(name + "_pad", interleave_pads(op.attr_ints("pads"), sp))}});
  in.push_back({"dilations", {b.ints(name + "_dilations", or_default(op.attr_ints("dilations"), ones(sp)))}});
  in.push_back({"groups", {b.int1(name + "_groups", op.attr_int("group", 1))}});
  emit_with_activation(b, op, "conv", std::move(in));
}

// ConvTranspose -> conv_transpose (weight [C_in, C_out/groups, *K], ONNX's own layout). The runtime's
// geometry (core/runtime/kernels/conv.cpp) gives the pads; output_padding o extends the output at
// the end: y = full[pb : F + o - pe], F = s (in - 1) + (K - 1) d + 1 the full transposed output. MIL
// crops with custom pads, so the end pad is pe - o; where a pad is negative (o > pe, or an
// output_shape above F) the rows beyond F hold the bias alone: conv_transpose without bias and
// with those pads at 0, `pad` with zeros, then `add` the bias.
void lower_conv_transpose(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  const auto xs = b.type_of(op.inputs[0]).shape;
  const int r = static_cast<int>(xs.size());
  if (r < 3 || r > 5) no_form(op, "conv_transpose of rank " + std::to_string(r) + " (MIL takes 1-D to 3-D)");
  if (!b.constant(op.inputs[1])) no_form(op, "weights that are not constant");
  if (std::any_of(xs.begin(), xs.end(), [](auto d) { return d < 0; })) no_form(op, "an input shape that is not static");
  const auto ws = b.type_of(op.inputs[1]).shape;
  const std::size_t sp = static_cast<std::size_t>(r - 2);
  const auto g = runtime::kernels::conv_geometry(op, xs, ws, true);
  const auto opad = op.attr_ints("output_padding");
  std::vector<std::int64_t> pad(2 * sp), extra(2 * sp, 0);
  bool zeros_around = false;
  for (std::size_t i = 0; i < sp; ++i) {
    const std::int64_t before = g.pad_begin[i], after = g.pad_end[i] - (i < opad.size() ? opad[i] : 0);
    pad[2 * i] = std::max<std::int64_t>(before, 0);
    pad[2 * i + 1] = std::max<std::int64_t>(after, 0);
    extra[2 * i] = std::max<std::int64_t>(-before, 0);
    extra[2 * i + 1] = std::max<std::int64_t>(-after, 0);
    zeros_around = zeros_around || before < 0 || after < 0;
  }
  const std::string name = op.name;
  In in{{"x", {b.value(op.inputs[0])}},
        {"weight", {b.weight(name + "_weight", b.const_floats(op.inputs[1]), ws)}}};
  const bool bias = !in0(op, 2).empty();
  if (bias && !zeros_around) in.push_back({"bias", {b.value(op.inputs[2])}});
  in.push_back({"pad", {b.ints(name + "_pad", pad)}});
  in.push_back({"pad_type", {b.str(name + "_pad_type", "custom")}});
  in.push_back({"strides", {b.ints(name + "_strides", g.strides)}});
  in.push_back({"dilations", {b.ints(name + "_dilations", g.dilations)}});
  in.push_back({"groups", {b.int1(name + "_groups", g.group)}});
  if (!zeros_around) {
    b.emit("conv_transpose", std::move(in), op.outputs[0]);
    return;
  }
  MilType t = b.type_of(op.outputs[0]);
  for (std::size_t i = 0; i < sp; ++i) t.shape[2 + i] -= extra[2 * i] + extra[2 * i + 1];
  const std::string y = b.emit("conv_transpose", std::move(in), "", &t);
  std::vector<std::int64_t> full_pad(4, 0);  // no padding of N and C
  full_pad.insert(full_pad.end(), extra.begin(), extra.end());
  if (!bias) {
    b.emit("pad", {{"x", {y}}, {"pad", {b.ints(name + "_zeros", full_pad)}}, {"mode", {b.str(name + "_mode", "constant")}},
                   {"constant_val", {b.float1(name + "_constant_val", 0)}}}, op.outputs[0]);
    return;
  }
  const MilType u = b.type_of(op.outputs[0]);
  const std::string padded = b.emit("pad", {{"x", {y}}, {"pad", {b.ints(name + "_zeros", full_pad)}},
                                            {"mode", {b.str(name + "_mode", "constant")}},
                                            {"constant_val", {b.float1(name + "_constant_val", 0)}}}, "", &u);
  std::vector<std::int64_t> bshape(sp + 1, 1);  // [C, 1, ...] against [N, C, *D]
  bshape[0] = u.shape[1];
  b.emit("add", {{"x", {padded}}, {"y", {b.floats(name + "_bias", b.const_floats(op.inputs[2]), bshape)}}}, op.outputs[0]);
}

// ---- LSTM / GRU (ONNX semantics, core/ir/ops.def) ------------------------------------------
// MIL's lstm (gates [i, f, o, z], one bias = Wb + Rb) and gru (gates [r, o, z], o = act(W_o x +
// R_o (r * h) + b_o): ONNX's linear_before_reset = 0, biases summed) compute in fp32 only before
// iOS17 (iOS17/recurrent.py adds fp16): an fp16 program casts around them there. A reverse
// direction runs forward on the sequence reversed (`reverse`, axis 0) and reverses the result,
// so the output stays in time order as ONNX has it. GRU with linear_before_reset = 1 (PyTorch's:
// n = tanh(W_n x + b_Wn + r * (R_n h + b_Rn))) has no MIL form before iOS18's reset_after, whose
// own parity test with PyTorch is marked xfail in coremltools (iOS18/test_recurrent.py,
// rdar://128479517): it is unrolled over the (static) sequence into linear/sigmoid/tanh ops.

struct Recurrent {
  std::int64_t S = 0, N = 0, I = 0, H = 0, dirs = 1;
  std::string direction;
  bool batch_first = false;
  DType dt = DType::Float32;  // what the MIL recurrent op computes in
};

Recurrent recurrent_shape(Builder& b, const ir::Operation& op, int gates) {
  Recurrent r;
  const auto xs = b.type_of(op.inputs[0]).shape;
  if (xs.size() != 3 || std::any_of(xs.begin(), xs.end(), [](auto d) { return d < 0; }))
    no_form(op, "an input that is not 3-D with static sizes");
  r.batch_first = op.attr_int("layout", 0) == 1;
  r.S = r.batch_first ? xs[1] : xs[0];
  r.N = r.batch_first ? xs[0] : xs[1];
  r.I = xs[2];
  r.direction = op.attr_string("direction", "forward");
  if (r.direction != "forward" && r.direction != "reverse" && r.direction != "bidirectional") no_form(op, "direction " + r.direction);
  r.dirs = r.direction == "bidirectional" ? 2 : 1;
  const auto ws = b.type_of(op.inputs[1]).shape;
  if (ws.size() != 3 || ws[0] != r.dirs || ws[1] % gates) no_form(op, "weights W that are not [directions, gates * hidden, input]");
  r.H = ws[1] / gates;
  if (op.attr_int("hidden_size", r.H) != r.H) no_form(op, "hidden_size disagrees with W");
  if (!b.constant(op.inputs[1]) || !b.constant(op.inputs[2]) || (!in0(op, 3).empty() && !b.constant(op.inputs[3])))
    no_form(op, "W, R and B must be constants (MIL's recurrent weights are const)");
  if (!in0(op, 4).empty()) {  // sequence_lens: only when every entry is the full length
    const auto* c = b.constant(op.inputs[4]);
    const auto v = c ? b.const_ints(op.inputs[4]) : std::vector<std::int64_t>{};
    if (!c || std::any_of(v.begin(), v.end(), [&](auto l) { return l != r.S; })) no_form(op, "sequence_lens shorter than the sequence");
  }
  if (op.attr("clip")) no_form(op, "clip (ONNX clips the gates' inputs; MIL's lstm clips the cell state)");
  const auto defaults = gates == 4   ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
                       : gates == 3 ? std::vector<std::string>{"Sigmoid", "Tanh"}
                                    : std::vector<std::string>{"Tanh"};
  const auto* acts = op.attr("activations");
  if (acts && std::holds_alternative<std::vector<std::string>>(*acts)) {
    const auto& a = std::get<std::vector<std::string>>(*acts);
    for (std::size_t k = 0; k < a.size(); ++k)
      if (a[k] != defaults[k % defaults.size()]) no_form(op, "activation " + a[k] + " (the writer maps ONNX's default activations)");
  }
  r.dt = b.ios() >= 17 ? b.fdt() : DType::Float32;
  return r;
}

/// Rows of direction `d` of a [dirs, gates * H, cols] constant, gate blocks in `order` (ONNX gate indices).
std::vector<double> gate_rows(const std::vector<double>& w, std::int64_t d, std::int64_t gates, std::int64_t H, std::int64_t cols,
                              const std::vector<int>& order) {
  std::vector<double> out;
  const std::int64_t base = d * gates * H * cols;
  for (int g : order)
    for (std::int64_t i = 0; i < H * cols; ++i) out.push_back(w[static_cast<std::size_t>(base + g * H * cols + i)]);
  return out;
}

/// Wb + Rb of direction d from ONNX's B [dirs, 2 * gates * H] in `order`, or zeros.
std::vector<double> summed_bias(Builder& b, const ir::Operation& op, std::int64_t d, std::int64_t gates, std::int64_t H,
                                const std::vector<int>& order) {
  if (in0(op, 3).empty()) return std::vector<double>(static_cast<std::size_t>(gates * H), 0.0);
  const auto B = b.const_floats(op.inputs[3]);
  std::vector<double> out;
  for (int g : order)
    for (std::int64_t i = 0; i < H; ++i) {
      const std::int64_t w = d * 2 * gates * H + g * H + i;
      out.push_back(B[static_cast<std::size_t>(w)] + B[static_cast<std::size_t>(w + gates * H)]);
    }
  return out;
}

/// X as [S, N, I] in type `dt`.
std::string recurrent_x(Builder& b, const ir::Operation& op, const Recurrent& r, DType dt) {
  const std::string x = b.cast_to(b.value(op.inputs[0]), b.type_of(op.inputs[0]), dt);
  if (!r.batch_first) return x;
  const MilType t{dt, {r.S, r.N, r.I}};
  return b.emit("transpose", {{"x", {x}}, {"perm", {b.ints(op.name + "_x_perm", {1, 0, 2})}}}, "", &t);
}

std::string reversed_in_time(Builder& b, const std::string& v, const MilType& t) {
  return b.emit("reverse", {{"x", {v}}, {"axes", {b.ints(b.current->name + "_time_axis", {0})}}}, "", &t);
}

/// Initial state input k (ONNX [dirs, N, H], layout 1: [N, dirs, H]) as MIL wants it, in type dt:
/// every direction side by side [N, dirs * H] (d < 0), or direction d alone [N, H]. Zeros when absent.
std::string state_in(Builder& b, const ir::Operation& op, std::size_t k, const Recurrent& r, int d, DType dt) {
  const std::int64_t width = d < 0 ? r.dirs * r.H : r.H;
  const MilType out{dt, {r.N, width}};
  if (in0(op, k).empty())
    return b.floats_as(dt, op.name + "_zero_state", std::vector<double>(static_cast<std::size_t>(r.N * width), 0.0), out.shape);
  const std::string n = op.name + "_state";
  // a constant state is written in dt directly (no fp16 rounding before an fp32 lstm)
  std::string v = b.constant(op.inputs[k]) ? b.floats_as(dt, n + "_init", b.const_floats(op.inputs[k]), b.type_of(op.inputs[k]).shape)
                                           : b.cast_to(b.value(op.inputs[k]), b.type_of(op.inputs[k]), dt);
  if (d >= 0 && r.dirs > 1) {  // direction d: [1, N, H] (layout 1: [N, 1, H])
    const std::vector<std::int64_t> at = r.batch_first ? std::vector<std::int64_t>{0, d, 0} : std::vector<std::int64_t>{d, 0, 0};
    auto to = at;
    to[r.batch_first ? 1 : 0] += 1;
    const std::vector<bool> whole = r.batch_first ? std::vector<bool>{true, false, true} : std::vector<bool>{false, true, true};
    const MilType t{dt, r.batch_first ? std::vector<std::int64_t>{r.N, 1, r.H} : std::vector<std::int64_t>{1, r.N, r.H}};
    v = b.emit("slice_by_index", {{"x", {v}}, {"begin", {b.ints(n + "_begin", at)}}, {"end", {b.ints(n + "_end", to)}},
                                  {"stride", {b.ints(n + "_stride", {1, 1, 1})}}, {"begin_mask", {b.bools(n + "_begin_mask", whole)}},
                                  {"end_mask", {b.bools(n + "_end_mask", whole)}},
                                  {"squeeze_mask", {b.bools(n + "_squeeze_mask", {false, false, false})}}},
               "", &t);
  } else if (r.dirs > 1 && !r.batch_first) {  // [dirs, N, H] -> [N, dirs, H]
    const MilType t{dt, {r.N, r.dirs, r.H}};
    v = b.emit("transpose", {{"x", {v}}, {"perm", {b.ints(n + "_perm", {1, 0, 2})}}}, "", &t);
  }
  return b.emit("reshape", {{"x", {v}}, {"shape", {b.ints(n + "_shape", out.shape)}}}, "", &out);
}

/// MIL's sequence output [S, N, dirs * H] (or a state [N, dirs * H] when `state`) to ONNX's output k:
/// Y [S, dirs, N, H] (layout 1: [N, S, dirs, H]), Y_h / Y_c [dirs, N, H] (layout 1: [N, dirs, H]).
void recurrent_out(Builder& b, const ir::Operation& op, std::size_t k, const Recurrent& r, std::string v, DType dt, bool state) {
  if (k >= op.outputs.size() || op.outputs[k].empty()) return;
  const std::string& out = op.outputs[k];
  const std::string n = op.name + (state ? "_state_out" : "_seq_out");
  const std::vector<std::int64_t> lead = state ? std::vector<std::int64_t>{r.N} : std::vector<std::int64_t>{r.S, r.N};
  std::vector<std::int64_t> joined = lead;  // MIL's [.., N, dirs * H]
  joined.push_back(r.dirs * r.H);
  v = b.cast_to(v, {dt, joined}, b.fdt());
  std::vector<std::int64_t> split = lead;  // [.., N, dirs, H]
  split.push_back(r.dirs);
  split.push_back(r.H);
  std::vector<std::int64_t> perm = state ? std::vector<std::int64_t>{1, 0, 2} : std::vector<std::int64_t>{0, 2, 1, 3};
  if (r.batch_first) perm = state ? std::vector<std::int64_t>{0, 1, 2} : std::vector<std::int64_t>{1, 0, 2, 3};
  const bool identity = std::is_sorted(perm.begin(), perm.end());
  if (identity || (r.dirs == 1 && !r.batch_first)) {  // a reshape alone gives the layout
    b.emit("reshape", {{"x", {v}}, {"shape", {b.ints(n + "_shape", b.type_of(out).shape)}}}, out);
    return;
  }
  const MilType t{b.fdt(), split};
  v = b.emit("reshape", {{"x", {v}}, {"shape", {b.ints(n + "_shape", split)}}}, "", &t);
  b.emit("transpose", {{"x", {v}}, {"perm", {b.ints(n + "_perm", perm)}}}, out);
}

void lower_lstm(Builder& b, const ir::Operation& op) {
  const Recurrent r = recurrent_shape(b, op, 4);
  if (op.attr_int("input_forget", 0)) no_form(op, "input_forget = 1 (MIL's lstm has no coupled input/forget gate)");
  const std::vector<int> order{0, 2, 1, 3};  // ONNX [i, o, f, c] -> MIL [i, f, o, z]
  const auto W = b.const_floats(op.inputs[1]), R = b.const_floats(op.inputs[2]);
  const std::string n = op.name;
  std::string x = recurrent_x(b, op, r, r.dt);
  const bool rev = r.direction == "reverse";
  const MilType seq{r.dt, {r.S, r.N, r.dirs * r.H}}, st{r.dt, {r.N, r.dirs * r.H}};
  if (rev) x = reversed_in_time(b, x, {r.dt, {r.S, r.N, r.I}});
  In in{{"x", {x}}, {"initial_h", {state_in(b, op, 5, r, -1, r.dt)}}, {"initial_c", {state_in(b, op, 6, r, -1, r.dt)}}};
  for (std::int64_t d = 0; d < r.dirs; ++d) {
    const std::string sfx = d ? "_back" : "";
    in.push_back({"weight_ih" + sfx, {b.floats_as(r.dt, n + "_weight_ih" + sfx, gate_rows(W, d, 4, r.H, r.I, order), {4 * r.H, r.I})}});
    in.push_back({"weight_hh" + sfx, {b.floats_as(r.dt, n + "_weight_hh" + sfx, gate_rows(R, d, 4, r.H, r.H, order), {4 * r.H, r.H})}});
    in.push_back({"bias" + sfx, {b.floats_as(r.dt, n + "_bias" + sfx, summed_bias(b, op, d, 4, r.H, order), {4 * r.H})}});
    if (!in0(op, 7).empty())  // ONNX P [i, o, f] -> MIL peephole [i, f, o]
      in.push_back({"peephole" + sfx, {b.floats_as(r.dt, n + "_peephole" + sfx, gate_rows(b.const_floats(op.inputs[7]), d, 3, r.H, 1, {0, 2, 1}), {3 * r.H})}});
  }
  in.push_back({"direction", {b.str(n + "_direction", r.dirs == 2 ? "bidirectional" : "forward")}});
  in.push_back({"output_sequence", {b.bool1(n + "_output_sequence", true)}});
  in.push_back({"recurrent_activation", {b.str(n + "_recurrent_activation", "sigmoid")}});
  in.push_back({"cell_activation", {b.str(n + "_cell_activation", "tanh")}});
  in.push_back({"activation", {b.str(n + "_activation", "tanh")}});
  const auto outs = b.emit_n("lstm", std::move(in), {seq, st, st});
  recurrent_out(b, op, 0, r, rev ? reversed_in_time(b, outs[0], seq) : outs[0], r.dt, false);
  recurrent_out(b, op, 1, r, outs[1], r.dt, true);
  recurrent_out(b, op, 2, r, outs[2], r.dt, true);
}

// One direction of GRU with linear_before_reset = 1, unrolled over the sequence (ONNX gates [z, r, h]):
//   z = sigmoid(Wz x + Wbz + Rz h + Rbz), r = sigmoid(Wr x + Wbr + Rr h + Rbr),
//   n = tanh(Wn x + Wbn + r * (Rn h + Rbn)), h' = (1 - z) n + z h = n + z (h - n).
std::pair<std::string, std::string> gru_unrolled(Builder& b, const ir::Operation& op, const Recurrent& r, std::int64_t d,
                                                 const std::string& x, std::string h, bool reverse) {
  const DType dt = b.fdt();
  const std::int64_t S = r.S, N = r.N, H = r.H;
  const auto W = b.const_floats(op.inputs[1]), R = b.const_floats(op.inputs[2]);
  std::vector<double> B = in0(op, 3).empty() ? std::vector<double>(static_cast<std::size_t>(r.dirs * 6 * H), 0.0) : b.const_floats(op.inputs[3]);
  auto part = [&](std::int64_t from) {
    return std::vector<double>(B.begin() + d * 6 * H + from, B.begin() + d * 6 * H + from + 3 * H);
  };
  const std::string n = op.name + "_d" + std::to_string(d);
  const MilType xw_t{dt, {S, N, 3 * H}}, step_t{dt, {1, N, 3 * H}}, flat_t{dt, {N, 3 * H}}, h_t{dt, {N, H}}, h1_t{dt, {1, N, H}};
  const std::string xw = b.emit("linear", {{"x", {x}}, {"weight", {b.weight(n + "_W", gate_rows(W, d, 3, H, r.I, {0, 1, 2}), {3 * H, r.I})}},
                                           {"bias", {b.floats(n + "_Wb", part(0), {3 * H})}}}, "", &xw_t);
  const std::string Rw = b.weight(n + "_R", gate_rows(R, d, 3, H, H, {0, 1, 2}), {3 * H, H}), Rb = b.floats(n + "_Rb", part(3 * H), {3 * H});
  const std::string sizes = b.ints(n + "_split_sizes", {H, H, H}), axis1 = b.int1(n + "_axis", 1);
  const std::string whole = b.bools(n + "_mask", {false, true, true}), keep = b.bools(n + "_squeeze", {false, false, false});
  const std::string ones = b.ints(n + "_stride", {1, 1, 1}), flat = b.ints(n + "_flat", {N, 3 * H}), one = b.ints(n + "_h1", {1, N, H});
  std::vector<std::string> by_time(static_cast<std::size_t>(S));
  for (std::int64_t k = 0; k < S; ++k) {
    const std::int64_t t = reverse ? S - 1 - k : k;
    const std::string ts = n + "_t" + std::to_string(t);
    std::string xt = b.emit("slice_by_index", {{"x", {xw}}, {"begin", {b.ints(ts + "_begin", {t, 0, 0})}}, {"end", {b.ints(ts + "_end", {t + 1, 0, 0})}},
                                               {"stride", {ones}}, {"begin_mask", {whole}}, {"end_mask", {whole}}, {"squeeze_mask", {keep}}},
                            "", &step_t);
    xt = b.emit("reshape", {{"x", {xt}}, {"shape", {flat}}}, "", &flat_t);
    const std::string hw = b.emit("linear", {{"x", {h}}, {"weight", {Rw}}, {"bias", {Rb}}}, "", &flat_t);
    const auto xg = b.emit_n("split", {{"x", {xt}}, {"split_sizes", {sizes}}, {"axis", {axis1}}}, {h_t, h_t, h_t});
    const auto hg = b.emit_n("split", {{"x", {hw}}, {"split_sizes", {sizes}}, {"axis", {axis1}}}, {h_t, h_t, h_t});
    auto un = [&](const char* t2, const std::string& a) { return b.emit(t2, {{"x", {a}}}, "", &h_t); };
    auto bin = [&](const char* t2, const std::string& a, const std::string& c) { return b.emit(t2, {{"x", {a}}, {"y", {c}}}, "", &h_t); };
    const std::string z = un("sigmoid", bin("add", xg[0], hg[0]));
    const std::string rr = un("sigmoid", bin("add", xg[1], hg[1]));
    const std::string nn = un("tanh", bin("add", xg[2], bin("mul", rr, hg[2])));
    h = bin("add", nn, bin("mul", z, bin("sub", h, nn)));
    by_time[static_cast<std::size_t>(t)] = b.emit("reshape", {{"x", {h}}, {"shape", {one}}}, "", &h1_t);
  }
  const MilType y_t{dt, {S, N, H}};
  const std::string y = b.emit("concat", {{"values", by_time}, {"axis", {b.int1(n + "_time_axis", 0)}},
                                          {"interleave", {b.bool1(n + "_interleave", false)}}}, "", &y_t);
  return {y, h};
}

// GRU and RNN: one MIL gru / rnn per direction (neither has a bidirectional form), a reversed
// pass for the backward one; a GRU with linear_before_reset = 1 unrolled (above).
void lower_gru(Builder& b, const ir::Operation& op) {
  const bool gru = op.kind == ir::OpKind::GRU;
  const std::int64_t gates = gru ? 3 : 1;
  Recurrent r = recurrent_shape(b, op, static_cast<int>(gates));
  const bool unrolled = gru && op.attr_int("linear_before_reset", 0) != 0;
  if (unrolled) r.dt = b.fdt();  // plain ops: fp16 at every target
  const std::string n = op.name;
  const std::string x = recurrent_x(b, op, r, r.dt);
  const MilType seq{r.dt, {r.S, r.N, r.H}}, st{r.dt, {r.N, r.H}};
  std::vector<std::string> ys, hs;
  for (std::int64_t d = 0; d < r.dirs; ++d) {
    const bool rev = r.direction == "reverse" || d == 1;
    const std::string h0 = state_in(b, op, 5, r, static_cast<int>(d), r.dt);
    if (unrolled) {
      const auto [y, h] = gru_unrolled(b, op, r, d, x, h0, rev);
      ys.push_back(y);
      hs.push_back(h);
      continue;
    }
    const std::vector<int> order = gru ? std::vector<int>{1, 2, 0} : std::vector<int>{0};  // ONNX [z, r, h] -> MIL [r, o, z]
    const std::string sfx = d ? "_back" : "";
    const auto W = b.const_floats(op.inputs[1]), R = b.const_floats(op.inputs[2]);
    In in{{"x", {rev ? reversed_in_time(b, x, {r.dt, {r.S, r.N, r.I}}) : x}},
          {"initial_h", {h0}},
          {"weight_ih", {b.floats_as(r.dt, n + "_weight_ih" + sfx, gate_rows(W, d, gates, r.H, r.I, order), {gates * r.H, r.I})}},
          {"weight_hh", {b.floats_as(r.dt, n + "_weight_hh" + sfx, gate_rows(R, d, gates, r.H, r.H, order), {gates * r.H, r.H})}},
          {"bias", {b.floats_as(r.dt, n + "_bias" + sfx, summed_bias(b, op, d, gates, r.H, order), {gates * r.H})}},
          {"direction", {b.str(n + "_direction", "forward")}},
          {"output_sequence", {b.bool1(n + "_output_sequence", true)}}};
    if (gru) in.push_back({"recurrent_activation", {b.str(n + "_recurrent_activation", "sigmoid")}});
    in.push_back({"activation", {b.str(n + "_activation", "tanh")}});
    const auto outs = b.emit_n(gru ? "gru" : "rnn", std::move(in), {seq, st});
    ys.push_back(rev ? reversed_in_time(b, outs[0], seq) : outs[0]);
    hs.push_back(outs[1]);
  }
  auto joined = [&](const std::vector<std::string>& v, std::int64_t axis, std::vector<std::int64_t> shape) {
    if (v.size() == 1) return v[0];
    shape.back() *= r.dirs;
    const MilType t{r.dt, shape};
    return b.emit("concat", {{"values", v}, {"axis", {b.int1(n + "_dir_axis", axis)}}, {"interleave", {b.bool1(n + "_interleave", false)}}}, "", &t);
  };
  recurrent_out(b, op, 0, r, joined(ys, 2, seq.shape), r.dt, false);
  recurrent_out(b, op, 1, r, joined(hs, 1, st.shape), r.dt, true);
}

std::vector<double> transposed(const std::vector<double>& w, std::int64_t rows, std::int64_t cols) {
  std::vector<double> t(w.size());
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) t[j * rows + i] = w[i * cols + j];
  return t;
}

// linear(x, W[Dout, Din], b): x W^T + b.
void lower_gemm(Builder& b, const ir::Operation& op) {
  if (op.attr_int("transA", 0)) no_form(op, "Gemm with transA = 1");
  if (std::fabs(attr_f(op, "alpha", 1) - 1) > 0 || std::fabs(attr_f(op, "beta", 1) - 1) > 0)
    no_form(op, "Gemm with alpha or beta other than 1");
  if (!b.constant(op.inputs[1])) no_form(op, "Gemm whose B is not constant");
  const auto shape = b.type_of(op.inputs[1]).shape;
  if (shape.size() != 2) no_form(op, "Gemm whose B is not 2-D");
  auto w = b.const_floats(op.inputs[1]);
  std::vector<std::int64_t> wshape = shape;
  const bool trans_b = op.kind == ir::OpKind::FullyConnected || op.attr_int("transB", 0);
  if (!trans_b) {
    w = transposed(w, shape[0], shape[1]);
    wshape = {shape[1], shape[0]};
  }
  In in{{"x", {b.value(op.inputs[0])}}, {"weight", {b.weight(op.name + "_weight", w, wshape)}}};
  if (!in0(op, 2).empty()) {
    const auto* c = b.constant(op.inputs[2]);
    if (!c || c->num_elements().value_or(0) != wshape[0]) no_form(op, "Gemm whose C is not a constant vector of N values");
    in.push_back({"bias", {b.value(op.inputs[2])}});
  }
  emit_with_activation(b, op, "linear", std::move(in));
}

void lower_matmul(Builder& b, const ir::Operation& op) {
  emit_with_activation(b, op, "matmul",
                       {{"x", {b.value(op.inputs[0])}}, {"y", {b.value(op.inputs[1])}},
                        {"transpose_x", {b.bool1(op.name + "_transpose_x", false)}},
                        {"transpose_y", {b.bool1(op.name + "_transpose_y", false)}}});
}

const std::map<ir::OpKind, std::string>& binary_names() {
  static const std::map<ir::OpKind, std::string> m{{ir::OpKind::Add, "add"},     {ir::OpKind::Sub, "sub"},
                                                    {ir::OpKind::Mul, "mul"},     {ir::OpKind::Div, "real_div"},
                                                    {ir::OpKind::Pow, "pow"},     {ir::OpKind::Max, "maximum"},
                                                    {ir::OpKind::Min, "minimum"}};
  return m;
}
void lower_binary(Builder& b, const ir::Operation& op) {
  if (op.inputs.size() != 2) no_form(op, "only two operands have a MIL form");
  b.emit(binary_names().at(op.kind), {{"x", {b.value(op.inputs[0])}}, {"y", {b.value(op.inputs[1])}}}, op.outputs[0]);
}

const std::map<ir::OpKind, std::string>& unary_names() {
  static const std::map<ir::OpKind, std::string> m{{ir::OpKind::Relu, "relu"}, {ir::OpKind::Sigmoid, "sigmoid"},
                                                    {ir::OpKind::Tanh, "tanh"}, {ir::OpKind::Sqrt, "sqrt"},
                                                    {ir::OpKind::Exp, "exp"},   {ir::OpKind::Erf, "erf"},
                                                    {ir::OpKind::Identity, "identity"}, {ir::OpKind::Dropout, "identity"},
                                                    {ir::OpKind::Abs, "abs"},   {ir::OpKind::Log, "log"},
                                                    {ir::OpKind::Floor, "floor"}, {ir::OpKind::Ceil, "ceil"},
                                                    {ir::OpKind::Sin, "sin"},   {ir::OpKind::Cos, "cos"},
                                                    {ir::OpKind::Sign, "sign"}};
  return m;
}
// split(x, split_sizes, axis): the sizes from the outputs' static shapes.
void lower_split(Builder& b, const ir::Operation& op) {
  const auto xs = b.type_of(op.inputs[0]).shape;
  std::int64_t axis = op.attr_int("axis", 0);
  if (axis < 0) axis += static_cast<std::int64_t>(xs.size());
  std::vector<std::int64_t> sizes;
  for (const auto& o : op.outputs) {
    if (o.empty()) no_form(op, "an output left out");
    const auto s = b.type_of(o).shape;
    if (axis < 0 || static_cast<std::size_t>(axis) >= s.size() || s[static_cast<std::size_t>(axis)] < 0)
      no_form(op, "outputs whose size along the axis is not static");
    sizes.push_back(s[static_cast<std::size_t>(axis)]);
  }
  b.emit_multi("split", {{"x", {b.value(op.inputs[0])}}, {"split_sizes", {b.ints(op.name + "_split_sizes", sizes)}},
                         {"axis", {b.int1(op.name + "_axis", axis)}}},
               op.outputs);
}

// QuantizeLinear (float -> int8): quantize + dequantize with its own params;
// DequantizeLinear: the int8 tensor is already held as its real value.
void lower_quantize_linear(Builder& b, const ir::Operation& op) {
  const auto scale = b.const_floats(op.inputs.at(1));
  const auto zp = op.inputs.size() > 2 && !op.inputs[2].empty() ? b.const_ints_any(op.inputs[2]) : std::vector<std::int64_t>{0};
  if (scale.size() != 1 || zp.size() != 1) no_form(op, "per-channel QuantizeLinear of an activation");
  b.fake_quant(op.outputs[0], b.value(op.inputs[0]), scale[0], zp[0]);
}
void lower_dequantize_linear(Builder& b, const ir::Operation& op) {
  b.emit("identity", {{"x", {b.value(op.inputs[0])}}}, op.outputs[0]);
}

void lower_unary(Builder& b, const ir::Operation& op) {
  b.emit(unary_names().at(op.kind), {{"x", {b.value(op.inputs[0])}}}, op.outputs[0]);
}

void lower_clip(Builder& b, const ir::Operation& op) {
  const double big = b.options().fp16 ? 65504.0 : std::numeric_limits<float>::max();
  auto bound = [&](std::size_t k, double d) {
    if (in0(op, k).empty()) return d;
    const auto v = b.const_floats(op.inputs[k]);
    if (v.size() != 1) no_form(op, "Clip bounds that are not scalars");
    return std::clamp(v[0], -big, big);
  };
  b.emit("clip", {{"x", {b.value(op.inputs[0])}}, {"alpha", {b.float1(op.name + "_alpha", bound(1, -big))}},
                  {"beta", {b.float1(op.name + "_beta", bound(2, big))}}}, op.outputs[0]);
}

void lower_leaky(Builder& b, const ir::Operation& op) {
  b.emit("leaky_relu", {{"x", {b.value(op.inputs[0])}}, {"alpha", {b.float1(op.name + "_alpha", attr_f(op, "alpha", 0.01))}}},
         op.outputs[0]);
}
void lower_hard_sigmoid(Builder& b, const ir::Operation& op) {
  b.emit("sigmoid_hard", {{"x", {b.value(op.inputs[0])}}, {"alpha", {b.float1(op.name + "_alpha", attr_f(op, "alpha", 0.2))}},
                          {"beta", {b.float1(op.name + "_beta", attr_f(op, "beta", 0.5))}}}, op.outputs[0]);
}
void lower_gelu(Builder& b, const ir::Operation& op) {
  const std::string a = op.attr_string("approximate", "none");
  b.emit("gelu", {{"x", {b.value(op.inputs[0])}}, {"mode", {b.str(op.name + "_mode", a == "tanh" ? "TANH_APPROXIMATION" : "EXACT")}}},
         op.outputs[0]);
}
void lower_softmax(Builder& b, const ir::Operation& op) {
  b.emit("softmax", {{"x", {b.value(op.inputs[0])}}, {"axis", {b.int1(op.name + "_axis", op.attr_int("axis", -1))}}}, op.outputs[0]);
}

void lower_pool(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  if (op.outputs.size() > 1 && !op.outputs[1].empty()) no_form(op, "MaxPool's indices output");
  if (!op.attr_ints("dilations").empty() && op.attr_ints("dilations") != ones(op.attr_ints("dilations").size()))
    no_form(op, "dilated pooling");
  const auto k = op.attr_ints("kernel_shape");
  const std::size_t sp = k.size();
  In in{{"x", {b.value(op.inputs[0])}},
        {"kernel_sizes", {b.ints(op.name + "_kernel_sizes", k)}},
        {"strides", {b.ints(op.name + "_strides", or_default(op.attr_ints("strides"), ones(sp)))}},
        {"pad_type", {b.str(op.name + "_pad_type", pad_type(op))}},
        {"pad", {b.ints(op.name + "_pad", interleave_pads(op.attr_ints("pads"), sp))}}};
  const bool avg = op.kind == ir::OpKind::AveragePool;
  if (avg)
    in.push_back({"exclude_padding_from_average", {b.bool1(op.name + "_exclude_padding_from_average", op.attr_int("count_include_pad", 0) == 0)}});
  in.push_back({"ceil_mode", {b.bool1(op.name + "_ceil_mode", op.attr_int("ceil_mode", 0) != 0)}});
  b.emit(avg ? "avg_pool" : "max_pool", std::move(in), op.outputs[0]);
}

void lower_global_pool(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  std::vector<std::int64_t> axes;
  for (int a = 2; a < rank_of(b, op.inputs[0]); ++a) axes.push_back(a);
  b.emit(op.kind == ir::OpKind::GlobalMaxPool ? "reduce_max" : "reduce_mean",
         {{"x", {b.value(op.inputs[0])}}, {"axes", {b.ints(op.name + "_axes", axes)}}, {"keep_dims", {b.bool1(op.name + "_keep_dims", true)}}},
         op.outputs[0]);
}

void lower_reduce(Builder& b, const ir::Operation& op) {
  if (op.inputs.size() > 1 && !op.inputs[1].empty()) no_form(op, "axes computed at run time");
  auto axes = op.attr_ints("axes");
  if (axes.empty()) {
    if (op.attr_int("noop_with_empty_axes", 0)) {
      b.emit("identity", {{"x", {b.value(op.inputs[0])}}}, op.outputs[0]);
      return;
    }
    for (int a = 0; a < rank_of(b, op.inputs[0]); ++a) axes.push_back(a);
  }
  const std::string t = op.kind == ir::OpKind::ReduceMean ? "reduce_mean" : op.kind == ir::OpKind::ReduceSum ? "reduce_sum" : "reduce_max";
  b.emit(t, {{"x", {b.value(op.inputs[0])}}, {"axes", {b.ints(op.name + "_axes", axes)}},
             {"keep_dims", {b.bool1(op.name + "_keep_dims", op.attr_int("keepdims", 1) != 0)}}}, op.outputs[0]);
}

// Reshape, Flatten, Squeeze, Unsqueeze: reshape to the output's static shape.
void lower_reshape(Builder& b, const ir::Operation& op) {
  const auto s = b.type_of(op.outputs[0]).shape;
  if (std::any_of(s.begin(), s.end(), [](auto d) { return d < 0; }))
    no_form(op, "an output shape that is not static (" + b.graph().find_tensor(op.outputs[0])->shape.to_string() + ")");
  b.emit("reshape", {{"x", {b.value(op.inputs[0])}}, {"shape", {b.ints(op.name + "_shape", s)}}}, op.outputs[0]);
}

void lower_transpose(Builder& b, const ir::Operation& op) {
  auto perm = op.attr_ints("perm");
  if (perm.empty())
    for (int a = rank_of(b, op.inputs[0]) - 1; a >= 0; --a) perm.push_back(a);
  b.emit("transpose", {{"x", {b.value(op.inputs[0])}}, {"perm", {b.ints(op.name + "_perm", perm)}}}, op.outputs[0]);
}

// DepthToSpace (DCR or CRD: PyTorch's PixelShuffle) as reshape, transpose, reshape: with a batch
// of 1 the channel split is 5-D, within Core ML's rank limit.
//   DCR: [b, b, C', H, W] -> perm [2, 3, 0, 4, 1];  CRD: [C', b, b, H, W] -> perm [0, 3, 1, 4, 2]
// both giving [C', H, b, W, b] -> [1, C', H b, W b].
void lower_depth_to_space(Builder& b, const ir::Operation& op) {
  const MilType xt = b.type_of(op.inputs[0]);
  const std::int64_t bs = op.attr_int("blocksize", 0);
  if (xt.shape.size() != 4 || std::any_of(xt.shape.begin(), xt.shape.end(), [](auto d) { return d < 0; }) || xt.shape[0] != 1)
    no_form(op, "a static 4-D input of batch 1 is needed (its channel split is 6-D otherwise)");
  const std::int64_t C = xt.shape[1], H = xt.shape[2], W = xt.shape[3];
  if (bs < 1 || C % (bs * bs) != 0) no_form(op, "channels not divisible by blocksize^2");
  const std::int64_t Cp = C / (bs * bs);
  const bool crd = op.attr_string("mode", "DCR") == "CRD";
  const MilType split{xt.dtype, crd ? std::vector<std::int64_t>{Cp, bs, bs, H, W} : std::vector<std::int64_t>{bs, bs, Cp, H, W}};
  const MilType moved{xt.dtype, {Cp, H, bs, W, bs}};
  std::string v = b.emit("reshape", {{"x", {b.value(op.inputs[0])}}, {"shape", {b.ints(op.name + "_split", split.shape)}}}, "", &split);
  v = b.emit("transpose", {{"x", {v}}, {"perm", {b.ints(op.name + "_perm", crd ? std::vector<std::int64_t>{0, 3, 1, 4, 2}
                                                                                  : std::vector<std::int64_t>{2, 3, 0, 4, 1})}}},
             "", &moved);
  b.emit("reshape", {{"x", {v}}, {"shape", {b.ints(op.name + "_shape", {1, Cp, H * bs, W * bs})}}}, op.outputs[0]);
}

void lower_concat(Builder& b, const ir::Operation& op) {
  std::vector<std::string> vals;
  for (const auto& i : op.inputs) vals.push_back(b.value(i));
  b.emit("concat", {{"values", vals}, {"axis", {b.int1(op.name + "_axis", op.attr_int("axis", 0))}},
                    {"interleave", {b.bool1(op.name + "_interleave", false)}}}, op.outputs[0]);
}

void lower_batch_norm(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  const int r = rank_of(b, op.inputs[0]);
  if (r < 3 || r > 5) no_form(op, "batch_norm takes rank 3 to 5, this input has rank " + std::to_string(r));
  // ONNX: X, scale, B, mean, var
  b.emit("batch_norm", {{"x", {b.value(op.inputs[0])}}, {"mean", {b.value(op.inputs[3])}}, {"variance", {b.value(op.inputs[4])}},
                        {"gamma", {b.value(op.inputs[1])}}, {"beta", {b.value(op.inputs[2])}},
                        {"epsilon", {b.float1(op.name + "_epsilon", attr_f(op, "epsilon", 1e-5))}}}, op.outputs[0]);
}

void lower_layer_norm(Builder& b, const ir::Operation& op) {
  if (op.outputs.size() > 1 && std::any_of(op.outputs.begin() + 1, op.outputs.end(), [](auto& s) { return !s.empty(); }))
    no_form(op, "LayerNormalization's mean / inv_std_dev outputs");
  const int r = rank_of(b, op.inputs[0]);
  std::int64_t axis = op.attr_int("axis", -1);
  if (axis < 0) axis += r;
  std::vector<std::int64_t> axes;
  for (std::int64_t a = axis; a < r; ++a) axes.push_back(a);
  In in{{"x", {b.value(op.inputs[0])}}, {"axes", {b.ints(op.name + "_axes", axes)}}, {"gamma", {b.value(op.inputs[1])}}};
  if (!in0(op, 2).empty()) in.push_back({"beta", {b.value(op.inputs[2])}});
  in.push_back({"epsilon", {b.float1(op.name + "_epsilon", attr_f(op, "epsilon", 1e-5))}});
  b.emit("layer_norm", std::move(in), op.outputs[0]);
}

void lower_pad(Builder& b, const ir::Operation& op) {
  const auto pads = b.const_ints(op.inputs[1]);
  const std::size_t r = static_cast<std::size_t>(rank_of(b, op.inputs[0]));
  if (!in0(op, 3).empty()) no_form(op, "Pad with an axes input");
  const std::string m = op.attr_string("mode", "constant");
  const std::string mode = m == "edge" ? "replicate" : m;
  if (mode != "constant" && mode != "reflect" && mode != "replicate") no_form(op, "pad mode " + m);
  double cv = 0;
  if (!in0(op, 2).empty()) cv = b.const_floats(op.inputs[2]).at(0);
  b.emit("pad", {{"x", {b.value(op.inputs[0])}}, {"pad", {b.ints(op.name + "_pad", interleave_pads(pads, r))}},
                 {"mode", {b.str(op.name + "_mode", mode)}}, {"constant_val", {b.float1(op.name + "_constant_val", cv)}}},
         op.outputs[0]);
}

void lower_gather(Builder& b, const ir::Operation& op) {
  In in{{"x", {b.value(op.inputs[0])}}, {"indices", {b.value(op.inputs[1])}},
        {"axis", {b.int1(op.name + "_axis", op.attr_int("axis", 0))}}};
  if (b.ios() >= 16) in.push_back({"batch_dims", {b.int1(op.name + "_batch_dims", 0)}});
  if (b.ios() >= 17) in.push_back({"validate_indices", {b.bool1(op.name + "_validate_indices", false)}});
  b.emit("gather", std::move(in), op.outputs[0]);
}

void lower_slice(Builder& b, const ir::Operation& op) {
  const auto x = b.type_of(op.inputs[0]).shape;
  const std::size_t r = x.size();
  const auto starts = b.const_ints(op.inputs[1]), ends = b.const_ints(op.inputs[2]);
  std::vector<std::int64_t> axes = in0(op, 3).empty() ? std::vector<std::int64_t>{} : b.const_ints(op.inputs[3]);
  std::vector<std::int64_t> steps = in0(op, 4).empty() ? std::vector<std::int64_t>{} : b.const_ints(op.inputs[4]);
  if (axes.empty())
    for (std::size_t a = 0; a < starts.size(); ++a) axes.push_back(static_cast<std::int64_t>(a));
  std::vector<std::int64_t> begin(r, 0), end(r, 0), stride(r, 1);
  std::vector<bool> bmask(r, true), emask(r, true);
  for (std::size_t k = 0; k < axes.size(); ++k) {
    std::int64_t a = axes[k] < 0 ? axes[k] + static_cast<std::int64_t>(r) : axes[k];
    if (a < 0 || a >= static_cast<std::int64_t>(r)) no_form(op, "slice axis out of range");
    const std::int64_t st = k < steps.size() ? steps[k] : 1;
    if (st <= 0) no_form(op, "Slice with a step below 1");
    const auto ua = static_cast<std::size_t>(a);
    begin[ua] = starts[k];
    bmask[ua] = false;
    stride[ua] = st;
    if (ends[k] >= std::numeric_limits<std::int32_t>::max() || (x[ua] >= 0 && ends[k] >= x[ua])) emask[ua] = true;
    else {
      end[ua] = ends[k];
      emask[ua] = false;
    }
  }
  std::vector<bool> squeeze(r, false);
  b.emit("slice_by_index", {{"x", {b.value(op.inputs[0])}}, {"begin", {b.ints(op.name + "_begin", begin)}},
                            {"end", {b.ints(op.name + "_end", end)}}, {"stride", {b.ints(op.name + "_stride", stride)}},
                            {"begin_mask", {b.bools(op.name + "_begin_mask", bmask)}},
                            {"end_mask", {b.bools(op.name + "_end_mask", emask)}},
                            {"squeeze_mask", {b.bools(op.name + "_squeeze_mask", squeeze)}}},
         op.outputs[0]);
}

void lower_cast(Builder& b, const ir::Operation& op) {
  const auto* in = b.graph().find_tensor(op.inputs[0]);
  const auto* out = b.graph().find_tensor(op.outputs[0]);
  const DType from = b.compute_dtype(in->dtype), to = b.compute_dtype(out->dtype);
  if (from == to) {  // f32 -> f16 in an fp16 program, int64 -> int32: the same MIL type
    b.emit("identity", {{"x", {b.value(op.inputs[0])}}}, op.outputs[0]);
    return;
  }
  const std::string name = to == DType::Float16 ? "fp16" : to == DType::Float32 ? "fp32" : to == DType::Int32 ? "int32" : to == DType::Bool ? "bool" : "";
  if (name.empty()) no_form(op, "cast to " + std::string(ir::dtype_name(out->dtype)));
  b.emit("cast", {{"x", {b.value(op.inputs[0])}}, {"dtype", {b.str(op.name + "_dtype", name)}}}, op.outputs[0]);
}

void lower_resize(Builder& b, const ir::Operation& op) {
  need_nchw(op);
  const auto xs = b.type_of(op.inputs[0]).shape, ys = b.type_of(op.outputs[0]).shape;
  if (xs.size() != 4 || xs[2] <= 0 || xs[3] <= 0 || ys[2] <= 0 || ys[3] <= 0) no_form(op, "Resize of a tensor that is not 4-D with static sizes");
  const double sh = static_cast<double>(ys[2]) / static_cast<double>(xs[2]), sw = static_cast<double>(ys[3]) / static_cast<double>(xs[3]);
  const std::string mode = op.attr_string("mode", "nearest"), ct = op.attr_string("coordinate_transformation_mode", "half_pixel");
  auto scale = [&](const std::string& h, double s) {
    MilValue m;
    m.type = {DType::Float32, {}};
    const float f = static_cast<float>(s);
    m.bytes = raw(&f, 4);
    return b.emit_const(h, std::move(m));
  };
  In in{{"x", {b.value(op.inputs[0])}}, {"scale_factor_height", {scale(op.name + "_scale_h", sh)}},
        {"scale_factor_width", {scale(op.name + "_scale_w", sw)}}};
  if (mode == "nearest") {
    // upsample_nearest_neighbor samples floor(i / s). So does half_pixel with either rounding at an
    // integer scale s: (i + 0.5) / s - 0.5 = q + (r - (s - 1) / 2) / s for i = q s + r, whose
    // fraction stays inside (-1/2, 1/2), so it rounds to q; tf_half_pixel_for_nn (i + 0.5) / s floors to q.
    const std::string nm = op.attr_string("nearest_mode", "round_prefer_floor");
    const bool integer = sh == std::floor(sh) && sw == std::floor(sw);
    const bool same = (ct == "asymmetric" && nm == "floor") || (ct == "tf_half_pixel_for_nn" && nm == "floor") ||
                      (integer && (ct == "half_pixel" || ct == "pytorch_half_pixel") && nm.rfind("round_prefer_", 0) == 0);
    if (!same) no_form(op, "nearest Resize with " + ct + "/" + nm + (integer ? "" : " at a fractional scale") +
                               " (upsample_nearest_neighbor samples floor(i / scale))");
    b.emit("upsample_nearest_neighbor", std::move(in), op.outputs[0]);
  } else if (mode == "linear" && ct == "asymmetric") {
    // iOS15 resize_bilinear "DEFAULT": grid i (Xin - Xin/Xout) / (Xout - 1) = i Xin / Xout, clamped: asymmetric.
    b.emit("resize_bilinear", {{"x", {b.value(op.inputs[0])}}, {"target_size_height", {b.int1(op.name + "_height", ys[2])}},
                               {"target_size_width", {b.int1(op.name + "_width", ys[3])}},
                               {"sampling_mode", {b.str(op.name + "_sampling_mode", "DEFAULT")}}},
           op.outputs[0]);
  } else if (mode == "linear") {
    if (ct != "align_corners" && ct != "half_pixel" && ct != "pytorch_half_pixel") no_form(op, "linear Resize with " + ct);
    in.push_back({"align_corners", {b.bool1(op.name + "_align_corners", ct == "align_corners")}});
    if (b.ios() >= 16) in.push_back({"half_pixel_centers", {b.bool1(op.name + "_half_pixel_centers", ct != "align_corners")}});
    b.emit("upsample_bilinear", std::move(in), op.outputs[0]);
  } else {
    no_form(op, "Resize mode " + mode);
  }
}

struct Lowering {
  ir::OpKind kind;
  const char* mil;  // what it becomes, for reports
  void (*fn)(Builder&, const ir::Operation&);
};

const std::vector<Lowering>& lowerings() {
  using K = ir::OpKind;
  static const std::vector<Lowering> t{
      {K::Conv, "conv", lower_conv},
      {K::ConvTranspose, "conv_transpose", lower_conv_transpose},
      {K::LSTM, "lstm", lower_lstm},
      {K::GRU, "gru", lower_gru},
      {K::RNN, "rnn", lower_gru},
      {K::Gemm, "linear", lower_gemm},
      {K::FullyConnected, "linear", lower_gemm},
      {K::MatMul, "matmul", lower_matmul},
      {K::Add, "add", lower_binary},
      {K::Sub, "sub", lower_binary},
      {K::Mul, "mul", lower_binary},
      {K::Div, "real_div", lower_binary},
      {K::Pow, "pow", lower_binary},
      {K::Max, "maximum", lower_binary},
      {K::Min, "minimum", lower_binary},
      {K::Relu, "relu", lower_unary},
      {K::Sigmoid, "sigmoid", lower_unary},
      {K::Tanh, "tanh", lower_unary},
      {K::Sqrt, "sqrt", lower_unary},
      {K::Exp, "exp", lower_unary},
      {K::Erf, "erf", lower_unary},
      {K::Identity, "identity", lower_unary},
      {K::Abs, "abs", lower_unary},
      {K::Log, "log", lower_unary},
      {K::Floor, "floor", lower_unary},
      {K::Ceil, "ceil", lower_unary},
      {K::Sin, "sin", lower_unary},
      {K::Cos, "cos", lower_unary},
      {K::Sign, "sign", lower_unary},
      {K::Split, "split", lower_split},
      {K::QuantizeLinear, "quantize + dequantize", lower_quantize_linear},
      {K::DequantizeLinear, "identity", lower_dequantize_linear},
      {K::Dropout, "identity", lower_unary},
      {K::Clip, "clip", lower_clip},
      {K::LeakyRelu, "leaky_relu", lower_leaky},
      {K::HardSigmoid, "sigmoid_hard", lower_hard_sigmoid},
      {K::Gelu, "gelu", lower_gelu},
      {K::Softmax, "softmax", lower_softmax},
      {K::MaxPool, "max_pool", lower_pool},
      {K::AveragePool, "avg_pool", lower_pool},
      {K::GlobalAveragePool, "reduce_mean", lower_global_pool},
      {K::GlobalMaxPool, "reduce_max", lower_global_pool},
      {K::ReduceMean, "reduce_mean", lower_reduce},
      {K::ReduceSum, "reduce_sum", lower_reduce},
      {K::ReduceMax, "reduce_max", lower_reduce},
      {K::Reshape, "reshape", lower_reshape},
      {K::Flatten, "reshape", lower_reshape},
      {K::Squeeze, "reshape", lower_reshape},
      {K::Unsqueeze, "reshape", lower_reshape},
      {K::Transpose, "transpose", lower_transpose},
      {K::DepthToSpace, "reshape", lower_depth_to_space},
      {K::Concat, "concat", lower_concat},
      {K::BatchNormalization, "batch_norm", lower_batch_norm},
      {K::LayerNormalization, "layer_norm", lower_layer_norm},
      {K::Pad, "pad", lower_pad},
      {K::Gather, "gather", lower_gather},
      {K::Slice, "slice_by_index", lower_slice},
      {K::Cast, "cast", lower_cast},
      {K::Resize, "upsample", lower_resize},
  };
  return t;
}

const Lowering* find_lowering(const ir::Operation& op) {
  for (const auto& l : lowerings())
    if (l.kind == op.kind && op.is_known()) return &l;
  return nullptr;
}

const DeploymentTarget& target_of(const LowerOptions& o) { return o.target ? *o.target : deployment_targets().front(); }

void lower_one(Builder& b, const ir::Operation& op) {
  const Lowering* l = find_lowering(op);
  if (!l) no_form(op, "no MIL op for it in this writer; decompose it into supported ops or register an override");
  try {
    l->fn(b, op);
    // an int8 activation: quantised after the op that makes it (QuantizeLinear does its own)
    if (op.kind != ir::OpKind::QuantizeLinear)
      for (const auto& o : op.outputs)
        if (const auto* t = o.empty() ? nullptr : b.graph().find_tensor(o); t && t->quant && !t->is_constant()) {
          if (t->quant->scales.size() != 1) no_form(op, "a per-channel quantised activation '" + o + "'");
          b.fake_quant(o, b.value(o), t->quant->scales[0], t->quant->zero_points.empty() ? 0 : t->quant->zero_points[0]);
        }
  } catch (const EdgeCompilerError&) {
    throw;
  } catch (const std::exception& e) {
    no_form(op, e.what());
  }
}

}  // namespace

std::string mil_identifier(const std::string& name) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  std::size_t k = 0;
  while (k < s.size() && s[k] == '_') ++k;
  s = s.substr(k);
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v_" + s;
  return s;
}

std::string mil_form(const ir::Graph& graph, const ir::Operation& op, const LowerOptions& options) {
  LowerOptions o = options;
  o.target = &target_of(options);
  MilProgram scratch;
  Builder b(graph, o, scratch);
  for (const auto& in : op.inputs)  // inputs computed elsewhere are placeholders here
    if (!in.empty() && !b.constant(in)) b.bind(in, b.unique(in));
  std::vector<std::string> made;
  b.current = &op;
  b.made = &made;
  lower_one(b, op);
  std::string s;
  if (made.size() <= 16) {
    for (const auto& m : made) s += (s.empty() ? "" : " + ") + m;
    return s;
  }
  std::vector<std::pair<std::string, int>> counts;  // a long form (an unrolled GRU): each op type once, counted
  for (const auto& m : made) {
    auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& c) { return c.first == m; });
    if (it == counts.end()) counts.push_back({m, 1});
    else ++it->second;
  }
  for (const auto& [m, n] : counts) s += (s.empty() ? "" : " + ") + m + (n > 1 ? " x" + std::to_string(n) : "");
  return s;
}

LoweredProgram lower_graph(const ir::Graph& g, const LowerOptions& options) {
  LowerOptions o = options;
  o.target = &target_of(options);
  for (const auto& op : g.ops)  // a quantised graph keeps its int8 weights int8 (constexpr form)
    for (const auto& in : op.inputs)
      if (const auto* t = in.empty() ? nullptr : g.find_tensor(in); t && t->is_constant() && t->quant && t->dtype == DType::Int8)
        o.weights_int8 = true;
  LoweredProgram out;
  MilProgram& p = out.program;
  p.spec_version = o.target->spec_version;
  p.opset = std::string(o.target->opset);
  p.metadata["com.github.edgecompiler.precision"] = o.fp16 ? "fp16" : "fp32";
  p.metadata["com.github.edgecompiler.deployment_target"] = std::string(o.target->name);
  if (!g.name.empty()) p.metadata["com.github.edgecompiler.source"] = g.name;
  Builder b(g, o, p);
  for (const auto& o2 : g.outputs) b.reserve(mil_identifier(o2));  // the outputs keep their names
  for (const auto& in : g.inputs) {
    const auto* t = g.find_tensor(in);
    if (!t) throw BackendError("metal", "graph input '" + in + "' has no tensor");
    MilType mt = b.type_of(in);
    const bool is_f = ir::dtype_is_float(t->dtype);
    if (is_f) mt.dtype = DType::Float32;  // inputs stay fp32, as the source model has them
    const std::string name = b.unique(in);
    p.inputs.push_back({name, mt});
    if (is_f && o.fp16) {
      MilType h = mt;
      h.dtype = DType::Float16;
      MilOp c;
      c.type = "cast";
      c.name = b.unique(in + "_to_fp16");
      c.inputs = {{"x", {name}}, {"dtype", {b.str(in + "_to_fp16_dtype", "fp16")}}};
      c.outputs.push_back({c.name, h});
      p.ops.push_back(std::move(c));
      b.bind(in, p.ops.back().name);
    } else {
      b.bind(in, name);
    }
  }
  for (const auto& op : g.ops) {
    auto& made = out.mil_ops_of[op.name];
    b.current = &op;
    b.made = &made;
    lower_one(b, op);
  }
  b.current = nullptr;
  b.made = nullptr;
  for (const auto& o2 : g.outputs) {
    const auto* t = g.find_tensor(o2);
    const std::string v = b.value(o2);
    const std::string want = mil_identifier(o2);
    if (t && ir::dtype_is_float(t->dtype) && o.fp16) {  // back to fp32 at the boundary
      MilType mt = b.type_of(o2);
      mt.dtype = DType::Float32;
      MilOp c;
      c.type = "cast";
      c.name = want;
      c.inputs = {{"x", {v}}, {"dtype", {b.str(o2 + "_to_fp32_dtype", "fp32")}}};
      c.outputs.push_back({c.name, mt});
      p.ops.push_back(std::move(c));
      p.outputs.push_back(want);
    } else if (v != want) {
      MilOp c;
      c.type = "identity";
      c.name = want;
      c.inputs = {{"x", {v}}};
      c.outputs.push_back({c.name, b.type_of(o2)});
      p.ops.push_back(std::move(c));
      p.outputs.push_back(want);
    } else {
      p.outputs.push_back(v);
    }
  }
  return out;
}

}  // namespace ec::backends::metal
