#include "core/frontends/coreml/coreml_frontend.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "Model.pb.h"
#include "core/errors.h"
#include "core/util/half.h"
#include "core/frontends/coreml/weight_file.h"
#include "core/ir/excerpt.h"
#include "core/util/json_text.h"
#include "core/util/safe_file.h"
#include "core/ir/shape_inference.h"
#include "core/ir/validate.h"
#include "core/frontends/protobuf_log.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;
namespace spec = CoreML::Specification;
namespace mil = CoreML::Specification::MILSpec;
using ir::DType;

bool ends_with(const std::string& s, const std::string& x) {
  return s.size() >= x.size() && s.compare(s.size() - x.size(), x.size(), x) == 0;
}

constexpr std::uint64_t kMaxManifestBytes = std::uint64_t{16} << 20;
constexpr std::uint64_t kMaxModelBytes = std::uint64_t{1} << 30;
// A constant may hold at most 2^31 bytes: more would not fit the weight file's
// purpose and is refused before anything is allocated.
constexpr std::uint64_t kMaxConstBytes = std::uint64_t{1} << 31;

DType ir_dtype(mil::DataType t) {
  switch (t) {
    case mil::BOOL: return DType::Bool;
    case mil::STRING: return DType::String;
    case mil::FLOAT16: return DType::Float16;
    case mil::FLOAT32: return DType::Float32;
    case mil::FLOAT64: return DType::Float64;
    case mil::INT8: return DType::Int8;
    case mil::INT16: return DType::Int16;
    case mil::INT32: return DType::Int32;
    case mil::INT64: return DType::Int64;
    case mil::UINT8: return DType::UInt8;
    case mil::UINT16: return DType::UInt16;
    case mil::UINT32: return DType::UInt32;
    default: throw std::runtime_error("MIL data type " + std::to_string(static_cast<int>(t)) + " is not supported");
  }
}

// A decoded constant: dtype as stored, shape, values as doubles (numbers) or strings.
struct Const {
  DType dtype = DType::Float32;
  std::vector<std::int64_t> shape;
  std::vector<double> num;
  std::vector<std::string> str;
  // The element count; throws for an unknown dim or a count past kMaxConstBytes
  // (checked before multiplying, so a dim of 2^62 cannot wrap it).
  std::int64_t n() const {
    std::uint64_t k = 1;
    for (auto d : shape) {
      if (d < 0) throw std::runtime_error("a constant with an unknown or negative dimension");
      if (d != 0 && k > kMaxConstBytes / static_cast<std::uint64_t>(d))
        throw std::runtime_error("a constant of more than 2^31 elements (a dimension of " + std::to_string(d) + ")");
      k *= static_cast<std::uint64_t>(d);
    }
    return static_cast<std::int64_t>(k);
  }
};

struct Ctx {
  std::string path;
  fs::path root;             // the package folder (or the .mlmodel's folder)
  std::string weights_rel;   // weight.bin relative to root
  std::string weights;  // loaded on first use
  bool weights_loaded = false;
};

std::vector<std::int64_t> shape_of(const mil::TensorType& t) {
  std::vector<std::int64_t> s;
  for (const auto& d : t.dimensions()) s.push_back(d.has_constant() ? static_cast<std::int64_t>(d.constant().size()) : -1);
  return s;
}

void widen(const std::uint8_t* p, DType dt, std::int64_t n, std::vector<double>& out) {
  for (std::int64_t i = 0; i < n; ++i) {
    switch (dt) {
      case DType::Float16: { std::uint16_t h; std::memcpy(&h, p + 2 * i, 2); out.push_back(util::half_to_float(h)); break; }
      case DType::Float32: { float f; std::memcpy(&f, p + 4 * i, 4); out.push_back(f); break; }
      case DType::Int8: out.push_back(static_cast<std::int8_t>(p[i])); break;
      case DType::UInt8: case DType::Bool: out.push_back(p[i]); break;
      case DType::Int16: { std::int16_t v; std::memcpy(&v, p + 2 * i, 2); out.push_back(v); break; }
      case DType::UInt16: { std::uint16_t v; std::memcpy(&v, p + 2 * i, 2); out.push_back(v); break; }
      case DType::Int32: { std::int32_t v; std::memcpy(&v, p + 4 * i, 4); out.push_back(v); break; }
      case DType::UInt32: { std::uint32_t v; std::memcpy(&v, p + 4 * i, 4); out.push_back(v); break; }
      default: throw std::runtime_error("cannot decode " + std::string(ir::dtype_name(dt)) + " bytes");
    }
  }
}

Const decode_value(Ctx& c, const mil::Value& v) {
  if (!v.type().has_tensortype()) throw std::runtime_error("a non-tensor value");
  Const k;
  k.dtype = ir_dtype(v.type().tensortype().datatype());
  k.shape = shape_of(v.type().tensortype());
  const std::int64_t n = k.n();
  if (v.has_blobfilevalue()) {
    if (!c.weights_loaded) {
      c.weights = util::read_file_inside(c.root, c.weights_rel, kMaxModelBytes);
      c.weights_loaded = true;
    }
    const std::span<const std::uint8_t> file(reinterpret_cast<const std::uint8_t*>(c.weights.data()), c.weights.size());
    const auto b = coreml::read_blob(file, v.blobfilevalue().offset());
    const auto dt = coreml::blob_dtype_from_code(b.dtype_code);
    if (dt != k.dtype) throw std::runtime_error("blob at " + std::to_string(b.metadata_offset) + " holds " + std::string(ir::dtype_name(*dt)) + ", the value's type is " + std::string(ir::dtype_name(k.dtype)));
    const std::uint64_t need = static_cast<std::uint64_t>(n) * ir::dtype_size(k.dtype);  // n <= 2^31: no wrap
    if (need > kMaxConstBytes) throw std::runtime_error("a constant of " + std::to_string(need) + " bytes (more than 2^31)");
    if (b.size != need) throw std::runtime_error("blob at " + std::to_string(b.metadata_offset) + " has " + std::to_string(b.size) + " bytes for " + std::to_string(n) + " elements");
    widen(file.data() + b.data_offset, k.dtype, n, k.num);
    return k;
  }
  if (!v.has_immediatevalue() || !v.immediatevalue().has_tensor()) throw std::runtime_error("a value that is neither a tensor nor a blob");
  const auto& t = v.immediatevalue().tensor();
  if (t.has_floats()) k.num.assign(t.floats().values().begin(), t.floats().values().end());
  else if (t.has_ints()) k.num.assign(t.ints().values().begin(), t.ints().values().end());
  else if (t.has_longints()) for (auto x : t.longints().values()) k.num.push_back(static_cast<double>(x));
  else if (t.has_doubles()) k.num.assign(t.doubles().values().begin(), t.doubles().values().end());
  else if (t.has_bools()) for (bool x : t.bools().values()) k.num.push_back(x ? 1 : 0);
  else if (t.has_strings()) k.str.assign(t.strings().values().begin(), t.strings().values().end());
  else if (t.has_bytes()) {
    const std::uint64_t need = static_cast<std::uint64_t>(n) * ir::dtype_size(k.dtype);
    if (t.bytes().values().size() != need)
      throw std::runtime_error("immediate value has " + std::to_string(t.bytes().values().size()) + " bytes, its type needs " + std::to_string(need));
    widen(reinterpret_cast<const std::uint8_t*>(t.bytes().values().data()), k.dtype, n, k.num);
  }
  if (k.dtype != DType::String && static_cast<std::int64_t>(k.num.size()) != n)
    throw std::runtime_error("immediate value has " + std::to_string(k.num.size()) + " elements, its type " + std::to_string(n));
  return k;
}

// The IR dtype a MIL value is given in the graph: fp16 widened to f32.
constexpr std::int64_t kOpenEnd = std::int64_t{1} << 40;  // a slice end past any dim

DType graph_dtype(DType t) { return t == DType::Float16 ? DType::Float32 : t; }

ir::Tensor const_tensor(const std::string& name, const Const& k) {
  ir::Tensor t;
  t.name = name;
  t.shape = ir::Shape::of(k.shape);
  if (ir::dtype_is_float(k.dtype)) {
    t.dtype = DType::Float32;
    std::vector<float> f(k.num.begin(), k.num.end());
    t.data = ir::ConstantData::copy_of(f.data(), f.size() * 4);
  } else if (k.dtype == DType::Bool) {
    t.dtype = DType::Bool;
    std::vector<std::uint8_t> b;
    for (double d : k.num) b.push_back(d != 0);
    t.data = ir::ConstantData::copy_of(b.data(), b.size());
  } else {  // integers as int64, as the IR's shape and index inputs take them
    t.dtype = DType::Int64;
    std::vector<std::int64_t> v;
    for (double d : k.num) v.push_back(static_cast<std::int64_t>(d));
    t.data = ir::ConstantData::copy_of(v.data(), v.size() * 8);
  }
  return t;
}

class Reader {
 public:
  Reader(Ctx& c, ir::Graph& g, const OpenOptions& o) : c_(c), g_(g), o_(o) {}

  void read_block(const mil::Block& block) {
    for (const auto& op : block.operations()) read_op(op);
  }
  /// Float values the program's ops compute (consts not counted), by declared type: the
  /// program's compute precision, which the f32 graph no longer shows.
  int fp16_values() const { return fp16_values_; }
  int fp32_values() const { return fp32_values_; }

 private:
  Ctx& c_;
  ir::Graph& g_;
  const OpenOptions& o_;
  std::map<std::string, Const> consts_;  // const op outputs, by name
  int fresh_ = 0;
  int fp16_values_ = 0, fp32_values_ = 0;

  const Const* constant(const mil::Operation& op, const std::string& arg) const {
    auto it = op.inputs().find(arg);
    if (it == op.inputs().end() || it->second.arguments_size() != 1) return nullptr;
    const auto& b = it->second.arguments(0);
    if (!b.has_name()) return nullptr;
    auto c = consts_.find(b.name());
    return c == consts_.end() ? nullptr : &c->second;
  }
  bool has(const mil::Operation& op, const std::string& arg) const { return op.inputs().count(arg) > 0; }
  std::string name_of(const mil::Operation& op, const std::string& arg, std::size_t k = 0) {
    auto it = op.inputs().find(arg);
    if (it == op.inputs().end() || static_cast<int>(k) >= it->second.arguments_size())
      throw std::runtime_error("input '" + arg + "' missing");
    const auto& b = it->second.arguments(static_cast<int>(k));
    if (b.has_value()) {  // an inline value: a constant tensor of its own
      const std::string n = "coreml_inline_" + std::to_string(fresh_++);
      consts_[n] = decode_value(c_, b.value());
      return n;
    }
    return b.name();
  }
  /// The IR tensor of an input: a constant materialised on first use.
  std::string tensor(const mil::Operation& op, const std::string& arg, std::size_t k = 0) {
    const std::string n = name_of(op, arg, k);
    if (!g_.find_tensor(n)) {
      auto it = consts_.find(n);
      if (it == consts_.end()) throw std::runtime_error("input '" + arg + "' names '" + excerpt(n) + "', which is not defined");
      g_.add_tensor(const_tensor(n, it->second));
    }
    return n;
  }
  std::vector<double> nums(const mil::Operation& op, const std::string& arg, std::vector<double> fallback = {}) const {
    const Const* k = constant(op, arg);
    if (!k) {
      if (has(op, arg)) throw std::runtime_error("input '" + arg + "' must be a constant");
      return fallback;
    }
    return k->num;
  }
  std::vector<std::int64_t> ints(const mil::Operation& op, const std::string& arg, std::vector<std::int64_t> fallback = {}) const {
    const Const* k = constant(op, arg);
    if (!k) {
      if (has(op, arg)) throw std::runtime_error("input '" + arg + "' must be a constant");
      return fallback;
    }
    return {k->num.begin(), k->num.end()};
  }
  double num(const mil::Operation& op, const std::string& arg, double fallback) const {
    const auto v = nums(op, arg, {fallback});
    return v.empty() ? fallback : v[0];
  }
  std::string str(const mil::Operation& op, const std::string& arg, const std::string& fallback) const {
    const Const* k = constant(op, arg);
    return k && !k->str.empty() ? k->str[0] : fallback;
  }
  std::string add_const(const std::string& hint, const Const& k) {
    const std::string n = hint + "_" + std::to_string(fresh_++);
    g_.add_tensor(const_tensor(n, k));
    return n;
  }
  std::string add_ints(const std::string& hint, const std::vector<std::int64_t>& v) {
    Const k;
    k.dtype = DType::Int64;
    k.shape = {static_cast<std::int64_t>(v.size())};
    k.num.assign(v.begin(), v.end());
    return add_const(hint, k);
  }
  std::string add_scalar(const std::string& hint, double d) {
    Const k;
    k.dtype = DType::Float32;
    k.num = {d};
    return add_const(hint, k);
  }

  void add_op(const std::string& type, const std::string& name, std::vector<std::string> inputs,
              std::vector<std::string> outputs, std::map<std::string, ir::Attribute> attrs = {}) {
    ir::Operation o;
    o.name = name;
    o.op_type = type;
    const auto k = ir::op_kind_from_name(type);
    o.kind = k ? *k : ir::OpKind::Unknown;
    o.inputs = std::move(inputs);
    o.outputs = std::move(outputs);
    o.attributes = std::move(attrs);
    g_.ops.push_back(std::move(o));
  }

  void declare_outputs(const mil::Operation& op) {
    for (const auto& o : op.outputs()) {
      ir::Tensor t;
      t.name = o.name();
      if (o.type().has_tensortype()) {
        const auto dt = o.type().tensortype().datatype();
        fp16_values_ += dt == mil::FLOAT16;
        fp32_values_ += dt == mil::FLOAT32;
        t.dtype = graph_dtype(ir_dtype(dt));
        std::vector<ir::Dim> dims;
        for (auto d : shape_of(o.type().tensortype())) dims.push_back(d >= 0 ? ir::Dim::fixed(d) : ir::Dim::unknown());
        t.shape = ir::Shape{dims, true};
      }
      g_.add_tensor(std::move(t));
    }
  }

  // ONNX-style pads [b0, b1, .., e0, e1, ..] from MIL's [b0, e0, b1, e1, ..].
  static std::vector<std::int64_t> onnx_pads(const std::vector<std::int64_t>& p) {
    const std::size_t sp = p.size() / 2;
    std::vector<std::int64_t> o(p.size());
    for (std::size_t i = 0; i < sp; ++i) {
      o[i] = p[2 * i];
      o[sp + i] = p[2 * i + 1];
    }
    return o;
  }
  std::map<std::string, ir::Attribute> window_attrs(const mil::Operation& op, std::size_t sp) {
    std::map<std::string, ir::Attribute> a;
    const std::string pt = str(op, "pad_type", "valid");
    a["strides"] = ints(op, "strides", std::vector<std::int64_t>(sp, 1));
    if (pt == "custom") a["pads"] = onnx_pads(ints(op, "pad", std::vector<std::int64_t>(2 * sp, 0)));
    else if (pt == "same") a["auto_pad"] = std::string("SAME_UPPER");
    else if (pt == "same_lower") a["auto_pad"] = std::string("SAME_LOWER");
    else a["auto_pad"] = std::string("VALID");
    return a;
  }

  // ---- recurrent layers: MIL lstm (gates [i, f, o, z]) / gru (gates [r, o, z], ONNX's
  // linear_before_reset = 0) / rnn back to ONNX LSTM [i, o, f, c] / GRU [z, r, h] / RNN (core/ir/ops.def).
  // MIL: x [S, N, I], states [N, dirs*H], outputs [S or 1, N, dirs*H]; ONNX: Y [S, dirs, N, H],
  // states [dirs, N, H]. MIL's "reverse" yields the sequence in the order it was processed
  // (coremltools iOS14/test_recurrent.py: torch on the flipped input), ONNX's in time order.
  std::string temp(const std::string& n) {
    ir::Tensor t;
    t.name = n;
    t.dtype = DType::Float32;
    g_.add_tensor(t);
    return n;
  }
  /// Rows of `w` ([gates * H, cols], in `dirs` stacked copies) with gate blocks in `order`, as [dirs, gates*H, cols].
  static Const gate_blocks(const std::vector<const Const*>& w, std::int64_t gates, const std::vector<int>& order) {
    Const k;
    const std::int64_t rows = w[0]->shape.at(0), cols = w[0]->shape.size() > 1 ? w[0]->shape[1] : 1, H = rows / gates;
    k.shape = {static_cast<std::int64_t>(w.size()), rows};
    if (w[0]->shape.size() > 1) k.shape.push_back(cols);
    for (const Const* d : w) {
      if (d->shape != w[0]->shape) throw std::runtime_error("forward and backward weights differ in shape");
      for (int g : order)
        for (std::int64_t i = 0; i < H * cols; ++i) k.num.push_back(d->num.at(static_cast<std::size_t>(g * H * cols + i)));
    }
    return k;
  }
  void read_recurrent(const mil::Operation& op, const std::string& type, const std::string& out) {
    const bool lstm = type == "lstm";
    const std::string dir = str(op, "direction", "forward");
    const std::int64_t dirs = dir == "bidirectional" ? 2 : 1;
    if (!lstm && dirs == 2) throw std::runtime_error(type + " has no bidirectional direction");
    if ((type != "rnn" && str(op, "recurrent_activation", "sigmoid") != "sigmoid") || str(op, "activation", "tanh") != "tanh" ||
        (lstm && str(op, "cell_activation", "tanh") != "tanh"))
      throw std::runtime_error("activations other than sigmoid / tanh");
    if (has(op, "clip")) throw std::runtime_error("lstm with clip (MIL clips the cell state, ONNX the gates' inputs)");
    if (has(op, "reset_after") || has(op, "input_bias")) throw std::runtime_error("gru with reset_after / input_bias (iOS18)");
    const std::int64_t gates = lstm ? 4 : type == "gru" ? 3 : 1;
    const std::vector<int> order = lstm ? std::vector<int>{0, 2, 1, 3} : type == "gru" ? std::vector<int>{2, 0, 1} : std::vector<int>{0};
    auto param = [&](const std::string& arg) {
      const Const* k = constant(op, arg);
      if (!k) throw std::runtime_error("input '" + arg + "' must be a constant");
      return k;
    };
    std::vector<const Const*> wi{param("weight_ih")}, wh{param("weight_hh")};
    if (dirs == 2) {
      wi.push_back(param("weight_ih_back"));
      wh.push_back(param("weight_hh_back"));
    }
    const std::int64_t H = wh[0]->shape.at(1);
    const std::string n = out + "_" + type;
    std::vector<std::string> in{tensor(op, "x"), add_const(n + "_W", gate_blocks(wi, gates, order)),
                                add_const(n + "_R", gate_blocks(wh, gates, order))};
    Const B;  // [Wb (MIL's summed bias), Rb = 0] per direction
    B.shape = {dirs, 2 * gates * H};
    for (std::int64_t d = 0; d < dirs; ++d) {
      const std::string arg = d ? "bias_back" : "bias";
      Const b1;
      b1.shape = {gates * H};
      b1.num = has(op, arg) ? param(arg)->num : std::vector<double>(static_cast<std::size_t>(gates * H), 0.0);
      const Const bb = gate_blocks({&b1}, gates, order);
      B.num.insert(B.num.end(), bb.num.begin(), bb.num.end());
      B.num.insert(B.num.end(), static_cast<std::size_t>(gates * H), 0.0);
    }
    in.push_back(add_const(n + "_B", B));
    in.push_back("");  // sequence_lens
    const auto* x = g_.find_tensor(in[0]);
    const std::int64_t N = x->shape.dims.at(1).value, S = x->shape.dims.at(0).value;
    for (const char* s : {"initial_h", "initial_c"}) {  // [N, dirs*H] -> [dirs, N, H]
      if (!lstm && std::string(s) == "initial_c") break;
      const std::string v = temp(n + "_" + s + "_3d");
      add_op("Reshape", v, {tensor(op, s), add_ints(v + "_shape", {N, dirs, H})}, {v});
      in.push_back(temp(n + "_" + s));
      add_op("Transpose", in.back(), {v}, {in.back()}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
    }
    if (lstm && (has(op, "peephole") || has(op, "peephole_back"))) {  // MIL [i, f, o] -> ONNX P [i, o, f]
      std::vector<const Const*> p{param("peephole")};
      if (dirs == 2) p.push_back(param("peephole_back"));
      in.push_back(add_const(n + "_P", gate_blocks(p, 3, {0, 2, 1})));
    }
    std::vector<std::string> outs{temp(n + "_Y"), temp(n + "_Y_h")};
    if (lstm) outs.push_back(temp(n + "_Y_c"));
    add_op(lstm ? "LSTM" : type == "gru" ? "GRU" : "RNN", n, in, outs, {{"direction", dir}, {"hidden_size", H}});
    // states back to [N, dirs*H]
    for (std::size_t k = 1; k < outs.size() && static_cast<int>(k) < op.outputs_size(); ++k) {
      const std::string t = temp(outs[k] + "_t");
      add_op("Transpose", t, {outs[k]}, {t}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
      add_op("Reshape", op.outputs(static_cast<int>(k)).name(), {t, add_ints(t + "_shape", {N, dirs * H})}, {op.outputs(static_cast<int>(k)).name()});
    }
    if (num(op, "output_sequence", 0) == 0) {  // the final step: the state itself, [1, N, dirs*H]
      const std::string t = temp(n + "_last_t");
      add_op("Transpose", t, {outs[1]}, {t}, {{"perm", std::vector<std::int64_t>{1, 0, 2}}});
      return add_op("Reshape", out, {t, add_ints(t + "_shape", {1, N, dirs * H})}, {out});
    }
    const std::string t = temp(n + "_Y_t");
    add_op("Transpose", t, {outs[0]}, {t}, {{"perm", std::vector<std::int64_t>{0, 2, 1, 3}}});
    if (dir != "reverse") return add_op("Reshape", out, {t, add_ints(t + "_shape", {S, N, dirs * H})}, {out});
    const std::string y = temp(n + "_Y_time");
    add_op("Reshape", y, {t, add_ints(t + "_shape", {S, N, dirs * H})}, {y});
    add_op("Slice", out, {y, add_ints(out + "_starts", {-1}), add_ints(out + "_ends", {-kOpenEnd}), add_ints(out + "_axes", {0}),
                          add_ints(out + "_steps", {-1})}, {out});
  }

  void read_op(const mil::Operation& op) {
    const std::string& type = op.type();
    if (op.outputs_size() < 1) throw std::runtime_error("op of type '" + excerpt(type) + "' has no outputs");
    const std::string out = op.outputs(0).name();
    const std::string where = "op '" + excerpt(out) + "' (" + excerpt(type) + ")";
    try {
      if (type == "const") {
        auto it = op.attributes().find("val");
        if (it == op.attributes().end()) throw std::runtime_error("const without val");
        consts_[out] = decode_value(c_, it->second);
        return;
      }
      if (type == "constexpr_affine_dequantize" || type == "constexpr_blockwise_shift_scale") {
        consts_[out] = dequantize(op);
        return;
      }
      declare_outputs(op);
      lower(op, type, out);
    } catch (const EdgeCompilerError&) {
      throw;
    } catch (const std::exception& e) {
      throw FrontendError(c_.path, where + ": " + e.what(), "coreml");
    }
  }

  Const attr_or_input(const mil::Operation& op, const std::string& k) {
    if (auto it = op.attributes().find(k); it != op.attributes().end()) return decode_value(c_, it->second);
    const Const* c = constant(op, k);
    if (!c) throw std::runtime_error("parameter '" + k + "' missing");
    return *c;
  }

  // real = scale * (q - zero_point) along `axis`; iOS18: data * scale (+ offset), scale broadcast by blocks.
  Const dequantize(const mil::Operation& op) {
    const bool ios18 = op.type() == "constexpr_blockwise_shift_scale";
    const Const q = attr_or_input(op, ios18 ? "data" : "quantized_data");
    const Const s = attr_or_input(op, "scale");
    Const out;
    out.dtype = DType::Float32;
    out.shape = q.shape;
    const std::int64_t n = q.n();
    out.num.resize(static_cast<std::size_t>(n));
    if (ios18) {
      const bool has_off = has(op, "offset");
      const Const off = has_off ? attr_or_input(op, "offset") : Const{};
      // index of each element's block in scale: per dim, i / (dim / scale_dim)
      std::vector<std::int64_t> idx(q.shape.size(), 0);
      for (std::int64_t i = 0; i < n; ++i) {
        std::int64_t rem = i, si = 0;
        for (std::size_t d = q.shape.size(); d-- > 0;) {
          idx[d] = rem % q.shape[d];
          rem /= q.shape[d];
        }
        for (std::size_t d = 0; d < q.shape.size(); ++d) {
          const std::int64_t sd = d < s.shape.size() ? s.shape[d] : 1;
          si = si * sd + idx[d] / (q.shape[d] / sd);
        }
        const double o = has_off ? off.num[static_cast<std::size_t>(si)] : 0;
        out.num[static_cast<std::size_t>(i)] = (q.num[static_cast<std::size_t>(i)] - o) * s.num[static_cast<std::size_t>(si)];
      }
      return out;
    }
    const Const zp = attr_or_input(op, "zero_point");
    const Const ax = attr_or_input(op, "axis");
    std::int64_t axis = static_cast<std::int64_t>(ax.num.at(0));
    if (axis < 0) axis += static_cast<std::int64_t>(q.shape.size());
    std::int64_t inner = 1;
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < q.shape.size(); ++d) inner *= q.shape[d];
    const std::int64_t C = q.shape.at(static_cast<std::size_t>(axis));
    for (std::int64_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>((i / inner) % C);
      const double sc = s.num.size() == 1 ? s.num[0] : s.num[c];
      const double z = zp.num.size() == 1 ? zp.num[0] : zp.num[c];
      out.num[static_cast<std::size_t>(i)] = sc * (q.num[static_cast<std::size_t>(i)] - z);
    }
    return out;
  }

  void lower(const mil::Operation& op, const std::string& type, const std::string& out) {
    static const std::map<std::string, std::string> unary{{"relu", "Relu"}, {"sigmoid", "Sigmoid"}, {"tanh", "Tanh"},
                                                           {"sqrt", "Sqrt"}, {"exp", "Exp"},         {"erf", "Erf"},
                                                           {"identity", "Identity"}, {"abs", "Abs"},
                                                           {"log", "Log"}, {"floor", "Floor"}, {"ceil", "Ceil"},
                                                           {"sin", "Sin"}, {"cos", "Cos"}, {"sign", "Sign"}};
    static const std::map<std::string, std::string> binary{{"add", "Add"}, {"sub", "Sub"},         {"mul", "Mul"},
                                                            {"real_div", "Div"}, {"pow", "Pow"}, {"maximum", "Max"},
                                                            {"minimum", "Min"}};
    if (auto u = unary.find(type); u != unary.end()) return add_op(u->second, out, {tensor(op, "x")}, {out});
    if (auto b = binary.find(type); b != binary.end()) return add_op(b->second, out, {tensor(op, "x"), tensor(op, "y")}, {out});
    if (type == "cast") {
      const std::string d = str(op, "dtype", "fp32");
      if (d == "fp16" || d == "fp32") return add_op("Identity", out, {tensor(op, "x")}, {out});  // floats are f32 here
      return add_op("Cast", out, {tensor(op, "x")}, {out}, {{"to", std::string(d == "int32" ? "i64" : d == "bool" ? "bool" : "i64")}});
    }
    if (type == "conv") {
      const std::size_t sp = static_cast<std::size_t>(std::max(1, static_cast<int>(g_.find_tensor(out)->shape.rank()) - 2));
      auto a = window_attrs(op, sp);
      a["dilations"] = ints(op, "dilations", std::vector<std::int64_t>(sp, 1));
      a["group"] = static_cast<std::int64_t>(num(op, "groups", 1));
      std::vector<std::string> in{tensor(op, "x"), tensor(op, "weight")};
      if (has(op, "bias")) in.push_back(tensor(op, "bias"));
      return add_op("Conv", out, in, {out}, a);
    }
    if (type == "linear") {  // x W^T + b: FullyConnected keeps W as [Dout, Din]; leading dims restored by Reshape
      const auto* x = g_.find_tensor(tensor(op, "x"));
      std::vector<std::string> in{tensor(op, "x"), tensor(op, "weight")};
      if (has(op, "bias")) in.push_back(tensor(op, "bias"));
      if (x && x->shape.rank() == 2) return add_op("FullyConnected", out, in, {out});
      const std::string flat = out + "_2d";
      ir::Tensor t;
      t.name = flat;
      t.dtype = DType::Float32;
      g_.add_tensor(t);
      add_op("FullyConnected", out + "_fc", in, {flat});
      return add_op("Reshape", out, {flat, add_ints(out + "_shape", g_.find_tensor(out)->shape.sizes())}, {out});
    }
    if (type == "matmul") {
      std::string x = tensor(op, "x"), y = tensor(op, "y");
      auto maybe_t = [&](std::string v, const std::string& flag) {
        if (num(op, flag, 0) == 0) return v;
        const auto* t = g_.find_tensor(v);
        std::vector<std::int64_t> perm;
        for (std::size_t d = 0; d < t->shape.rank(); ++d) perm.push_back(static_cast<std::int64_t>(d));
        std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
        ir::Tensor tt;
        tt.name = out + "_" + flag;
        tt.dtype = DType::Float32;
        g_.add_tensor(tt);
        add_op("Transpose", tt.name, {v}, {tt.name}, {{"perm", perm}});
        return tt.name;
      };
      x = maybe_t(x, "transpose_x");
      y = maybe_t(y, "transpose_y");
      return add_op("MatMul", out, {x, y}, {out});
    }
    if (type == "clip")
      return add_op("Clip", out, {tensor(op, "x"), add_scalar(out + "_min", num(op, "alpha", 0)), add_scalar(out + "_max", num(op, "beta", 6))}, {out});
    if (type == "relu6") return add_op("Clip", out, {tensor(op, "x"), add_scalar(out + "_min", 0), add_scalar(out + "_max", 6)}, {out});
    if (type == "leaky_relu") return add_op("LeakyRelu", out, {tensor(op, "x")}, {out}, {{"alpha", num(op, "alpha", 0.01)}});
    if (type == "sigmoid_hard")
      return add_op("HardSigmoid", out, {tensor(op, "x")}, {out}, {{"alpha", num(op, "alpha", 0.2)}, {"beta", num(op, "beta", 0.5)}});
    if (type == "gelu")
      return add_op("Gelu", out, {tensor(op, "x")}, {out}, {{"approximate", std::string(str(op, "mode", "EXACT") == "EXACT" ? "none" : "tanh")}});
    if (type == "softmax") return add_op("Softmax", out, {tensor(op, "x")}, {out}, {{"axis", static_cast<std::int64_t>(num(op, "axis", -1))}});
    if (type == "max_pool" || type == "avg_pool") {
      const auto k = ints(op, "kernel_sizes");
      auto a = window_attrs(op, k.size());
      a["kernel_shape"] = k;
      a["ceil_mode"] = static_cast<std::int64_t>(num(op, "ceil_mode", 0));
      if (type == "avg_pool") a["count_include_pad"] = static_cast<std::int64_t>(num(op, "exclude_padding_from_average", 0) == 0);
      return add_op(type == "max_pool" ? "MaxPool" : "AveragePool", out, {tensor(op, "x")}, {out}, a);
    }
    if (type == "reduce_mean" || type == "reduce_sum" || type == "reduce_max") {
      std::map<std::string, ir::Attribute> a{{"keepdims", static_cast<std::int64_t>(num(op, "keep_dims", 0))}};
      if (has(op, "axes")) a["axes"] = ints(op, "axes");
      return add_op(type == "reduce_mean" ? "ReduceMean" : type == "reduce_sum" ? "ReduceSum" : "ReduceMax", out, {tensor(op, "x")}, {out}, a);
    }
    if (type == "reshape" || type == "squeeze" || type == "expand_dims") {
      std::vector<std::int64_t> s = type == "reshape" ? ints(op, "shape") : g_.find_tensor(out)->shape.sizes();
      return add_op("Reshape", out, {tensor(op, "x"), add_ints(out + "_shape", s)}, {out});
    }
    if (type == "quantize" || type == "dequantize") {  // iOS17 int8 activations, per tensor
      if (has(op, "axis")) throw std::runtime_error("per-axis quantize/dequantize");
      if (type == "quantize" && str(op, "output_dtype", "int8") != "int8") throw std::runtime_error("output_dtype other than int8");
      ir::Tensor z;
      z.name = out + "_zero_point";
      z.dtype = DType::Int8;
      z.shape = ir::Shape::of(std::vector<std::int64_t>{});
      const auto zv = static_cast<std::int8_t>(num(op, "zero_point", 0));
      z.data = ir::ConstantData::copy_of(&zv, 1);
      g_.add_tensor(z);
      return add_op(type == "quantize" ? "QuantizeLinear" : "DequantizeLinear", out,
                    {tensor(op, "input"), add_scalar(out + "_scale", num(op, "scale", 1)), z.name}, {out});
    }
    if (type == "split") {
      const auto* x = g_.find_tensor(tensor(op, "x"));
      std::int64_t axis = static_cast<std::int64_t>(num(op, "axis", 0));
      if (axis < 0) axis += static_cast<std::int64_t>(x->shape.rank());
      std::vector<std::int64_t> sizes;
      std::vector<std::string> outs;
      for (const auto& o : op.outputs()) {
        outs.push_back(o.name());
        sizes.push_back(g_.find_tensor(o.name())->shape.dims.at(static_cast<std::size_t>(axis)).value);
      }
      return add_op("Split", out, {tensor(op, "x"), add_ints(out + "_split", sizes)}, outs, {{"axis", axis}});
    }
    if (type == "transpose") return add_op("Transpose", out, {tensor(op, "x")}, {out}, {{"perm", ints(op, "perm")}});
    if (type == "concat") {
      std::vector<std::string> in;
      const int n = op.inputs().at("values").arguments_size();
      for (int k = 0; k < n; ++k) in.push_back(tensor(op, "values", static_cast<std::size_t>(k)));
      if (num(op, "interleave", 0) != 0) throw std::runtime_error("concat with interleave = true");
      return add_op("Concat", out, in, {out}, {{"axis", static_cast<std::int64_t>(num(op, "axis", 0))}});
    }
    if (type == "batch_norm") {
      const auto* x = g_.find_tensor(tensor(op, "x"));
      const std::int64_t C = x->shape.dims.at(1).value;
      auto or_fill = [&](const std::string& arg, double v) {
        if (has(op, arg)) return tensor(op, arg);
        Const k;
        k.shape = {C};
        k.num.assign(static_cast<std::size_t>(C), v);
        return add_const(out + "_" + arg, k);
      };
      return add_op("BatchNormalization", out,
                    {tensor(op, "x"), or_fill("gamma", 1), or_fill("beta", 0), tensor(op, "mean"), tensor(op, "variance")}, {out},
                    {{"epsilon", num(op, "epsilon", 1e-5)}});
    }
    if (type == "layer_norm") {
      const auto* x = g_.find_tensor(tensor(op, "x"));
      const auto r = static_cast<std::int64_t>(x->shape.rank());
      auto axes = ints(op, "axes");
      for (auto& a : axes) if (a < 0) a += r;
      std::sort(axes.begin(), axes.end());
      for (std::size_t k = 0; k < axes.size(); ++k)
        if (axes[k] != r - static_cast<std::int64_t>(axes.size() - k)) throw std::runtime_error("layer_norm over axes that are not the trailing ones");
      const auto xs = x->shape.sizes();
      const std::vector<std::int64_t> ns(xs.end() - static_cast<std::ptrdiff_t>(axes.size()), xs.end());
      auto or_fill = [&](const std::string& arg, double v) {
        if (has(op, arg)) return tensor(op, arg);
        Const k;
        k.shape = ns;
        k.num.assign(static_cast<std::size_t>(k.n()), v);
        return add_const(out + "_" + arg, k);
      };
      return add_op("LayerNormalization", out, {tensor(op, "x"), or_fill("gamma", 1), or_fill("beta", 0)}, {out},
                    {{"axis", -static_cast<std::int64_t>(axes.size())}, {"epsilon", num(op, "epsilon", 1e-5)}});
    }
    if (type == "pad") {
      const std::string m = str(op, "mode", "constant");
      return add_op("Pad", out, {tensor(op, "x"), add_ints(out + "_pads", onnx_pads(ints(op, "pad"))), add_scalar(out + "_value", num(op, "constant_val", 0))},
                    {out}, {{"mode", std::string(m == "replicate" ? "edge" : m)}});
    }
    if (type == "gather") {
      if (num(op, "batch_dims", 0) != 0) throw std::runtime_error("gather with batch_dims");
      return add_op("Gather", out, {tensor(op, "x"), tensor(op, "indices")}, {out}, {{"axis", static_cast<std::int64_t>(num(op, "axis", 0))}});
    }
    if (type == "slice_by_index") {
      const auto* x = g_.find_tensor(tensor(op, "x"));
      const std::size_t r = x->shape.rank();
      auto begin = ints(op, "begin"), end = ints(op, "end"), stride = ints(op, "stride", std::vector<std::int64_t>(r, 1));
      const auto bm = ints(op, "begin_mask", std::vector<std::int64_t>(r, 0)), em = ints(op, "end_mask", std::vector<std::int64_t>(r, 0));
      const auto sq = ints(op, "squeeze_mask", std::vector<std::int64_t>(r, 0));
      std::vector<std::int64_t> st, en, ax, sp;
      for (std::size_t d = 0; d < r; ++d) {
        if (sq[d]) throw std::runtime_error("slice_by_index with squeeze_mask");
        st.push_back(bm[d] ? (stride[d] > 0 ? 0 : -1) : begin[d]);
        en.push_back(em[d] ? (stride[d] > 0 ? kOpenEnd : -kOpenEnd) : end[d]);  // Const holds doubles: an exact large value
        ax.push_back(static_cast<std::int64_t>(d));
        sp.push_back(stride[d]);
      }
      return add_op("Slice", out, {tensor(op, "x"), add_ints(out + "_starts", st), add_ints(out + "_ends", en), add_ints(out + "_axes", ax),
                                   add_ints(out + "_steps", sp)}, {out});
    }
    if (type == "resize_bilinear") {  // sampling modes as iOS15/image_resizing.py defines them
      static const std::map<std::string, std::string> ct{{"DEFAULT", "asymmetric"}, {"STRICT_ALIGN_CORNERS", "align_corners"},
                                                         {"UNALIGN_CORNERS", "half_pixel"}};
      const std::string m = str(op, "sampling_mode", "DEFAULT");
      auto it = ct.find(m);
      if (it == ct.end()) throw std::runtime_error("resize_bilinear sampling_mode " + m);
      return add_op("Resize", out, {tensor(op, "x"), "", "", add_ints(out + "_sizes", g_.find_tensor(out)->shape.sizes())}, {out},
                    {{"mode", std::string("linear")}, {"coordinate_transformation_mode", it->second}});
    }
    if (type == "upsample_nearest_neighbor" || type == "upsample_bilinear") {
      const auto* y = g_.find_tensor(out);
      const bool nearest = type == "upsample_nearest_neighbor";
      const bool align = num(op, "align_corners", 0) != 0;
      std::map<std::string, ir::Attribute> a{{"mode", std::string(nearest ? "nearest" : "linear")},
                                             {"coordinate_transformation_mode", std::string(nearest ? "asymmetric" : align ? "align_corners" : "half_pixel")}};
      if (nearest) a["nearest_mode"] = std::string("floor");
      return add_op("Resize", out, {tensor(op, "x"), "", "", add_ints(out + "_sizes", y->shape.sizes())}, {out}, a);
    }
    if (type == "conv_transpose") {  // weight [C_in, C_out/groups, *K]: ONNX's ConvTranspose layout
      const std::size_t sp = static_cast<std::size_t>(std::max(1, static_cast<int>(g_.find_tensor(out)->shape.rank()) - 2));
      auto a = window_attrs(op, sp);
      a["dilations"] = ints(op, "dilations", std::vector<std::int64_t>(sp, 1));
      a["group"] = static_cast<std::int64_t>(num(op, "groups", 1));
      if (has(op, "output_shape")) a["output_shape"] = ints(op, "output_shape");
      std::vector<std::string> in{tensor(op, "x"), tensor(op, "weight")};
      if (has(op, "bias")) in.push_back(tensor(op, "bias"));
      return add_op("ConvTranspose", out, in, {out}, a);
    }
    if (type == "lstm" || type == "gru" || type == "rnn") return read_recurrent(op, type, out);
    if (type == "reverse") {  // Slice with step -1 along each reversed axis
      const auto r = static_cast<std::int64_t>(g_.find_tensor(out)->shape.rank());
      std::vector<std::int64_t> axes = ints(op, "axes");
      if (axes.empty())
        for (std::int64_t a = 0; a < r; ++a) axes.push_back(a);
      const auto n = axes.size();
      return add_op("Slice", out, {tensor(op, "x"), add_ints(out + "_starts", std::vector<std::int64_t>(n, -1)),
                                   add_ints(out + "_ends", std::vector<std::int64_t>(n, -kOpenEnd)), add_ints(out + "_axes", axes),
                                   add_ints(out + "_steps", std::vector<std::int64_t>(n, -1))}, {out});
    }
    if (!o_.allow_unknown_ops)
      throw UnsupportedOpError(excerpt(type), "the Core ML frontend", "", c_.path + ": op '" + excerpt(out) + "'");
    std::vector<std::string> in;
    for (const auto& [k, v] : op.inputs())
      for (const auto& b : v.arguments())
        if (b.has_name() && g_.find_tensor(b.name())) in.push_back(b.name());
    std::vector<std::string> outs;
    for (const auto& o : op.outputs()) outs.push_back(o.name());
    add_op("coreml::" + type, out, in, outs);
  }
};

}  // namespace

std::unique_ptr<Frontend> make_coreml_frontend() { return std::make_unique<CoremlFrontend>(); }

float CoremlFrontend::match(std::span<const std::byte> head, const std::string& path) const {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return fs::exists(fs::path(path) / "Manifest.json", ec) ? 1.0f : 0.0f;
  if (ends_with(path, ".mlmodel") && !head.empty() && head[0] == std::byte{0x08}) return 0.9f;
  return 0.0f;
}

ir::Graph CoremlFrontend::open(const std::string& path, const OpenOptions& opts) const {
  Ctx c;
  c.path = path;
  std::string model_rel;
  std::error_code ec;
  // Every entry is resolved inside the package and refused (absolute, '..', a symlink
  // leading out, a FIFO or device) before it is opened; nothing outside is read.
  try {
    if (fs::is_directory(path, ec)) {
      c.root = path;
      const auto man = util::parse_json(util::read_file_inside(c.root, "Manifest.json", kMaxManifestBytes), "Manifest.json");
      const auto root_id = man.find("rootModelIdentifier");
      if (!man.is_object() || root_id == man.end() || !root_id->is_string())
        throw std::runtime_error("Manifest.json: no \"rootModelIdentifier\" string");
      const auto entries = man.find("itemInfoEntries");
      if (entries == man.end() || !entries->is_object())
        throw std::runtime_error("Manifest.json: no \"itemInfoEntries\" object");
      const auto entry = entries->find(root_id->get<std::string>());
      if (entry == entries->end() || !entry->is_object())
        throw std::runtime_error("Manifest.json: no item entry '" + excerpt(root_id->get<std::string>()) + "'");
      const auto item_path = entry->find("path");
      if (item_path == entry->end() || !item_path->is_string())
        throw std::runtime_error("Manifest.json: the root item has no \"path\" string");
      const std::string item = item_path->get<std::string>();
      util::require_relative(item);  // the item's own path: relative, no '..'
      util::resolve_inside(c.root, "Data");
      model_rel = "Data/" + item;
    } else {
      c.root = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
      model_rel = fs::path(path).filename().string();
    }
    c.weights_rel = (fs::path(model_rel).parent_path() / "weights" / "weight.bin").string();
  } catch (const EdgeCompilerError& e) {
    throw FrontendError(path, e.what(), "coreml");
  } catch (const std::exception& e) {
    throw FrontendError(path, excerpt(e.what(), 200) + "; is this an .mlpackage?", "coreml");
  }
  spec::Model m;
  std::string bytes;
  try {
    bytes = fs::is_directory(path, ec) ? util::read_file_inside(c.root, model_rel, kMaxModelBytes)
                                       : util::read_regular_file(path, kMaxModelBytes, "'" + excerpt(model_rel) + "'");
  } catch (const std::exception& e) {
    throw FrontendError(path, e.what(), "coreml");
  }
  route_protobuf_log_to_debug();
  if (!m.ParseFromString(bytes)) throw FrontendError(path, "'" + excerpt(model_rel) + "' is not a Core ML Model protobuf", "coreml");
  if (!m.has_mlprogram())
    throw FrontendError(path, "specification version " + std::to_string(m.specificationversion()) +
                                  ": not an ML Program (only mlProgram models are read; NeuralNetwork models are not)", "coreml");
  const auto& prog = m.mlprogram();
  auto fit = prog.functions().find("main");
  if (fit == prog.functions().end()) throw FrontendError(path, "the ML Program has no function 'main'", "coreml");
  const auto& fn = fit->second;
  auto bit = fn.block_specializations().find(fn.opset());
  if (bit == fn.block_specializations().end()) throw FrontendError(path, "function main has no block for its opset '" + excerpt(fn.opset()) + "'", "coreml");

  ir::Graph g;
  g.name = fs::path(path).stem().string();
  g.metadata["source.format"] = "coreml";
  g.metadata["coreml.specification_version"] = std::to_string(m.specificationversion());
  g.metadata["coreml.opset"] = fn.opset();
  for (const auto& [k, v] : m.description().metadata().userdefined()) g.metadata["coreml." + k] = v;
  for (const auto& in : fn.inputs()) {
    ir::Tensor t;
    t.name = in.name();
    try {
      t.dtype = graph_dtype(ir_dtype(in.type().tensortype().datatype()));
    } catch (const std::exception& e) {
      throw FrontendError(path, "input '" + excerpt(in.name()) + "': " + e.what(), "coreml");
    }
    std::vector<ir::Dim> dims;
    for (auto d : shape_of(in.type().tensortype())) dims.push_back(d >= 0 ? ir::Dim::fixed(d) : ir::Dim::unknown());
    t.shape = ir::Shape{dims, true};
    g.add_tensor(t);
    g.inputs.push_back(in.name());
  }
  Reader r(c, g, opts);
  try {
    r.read_block(bit->second);
  } catch (const EdgeCompilerError&) {
    throw;
  } catch (const std::exception& e) {
    throw FrontendError(path, e.what(), "coreml");
  }
  // fp16 when most float values the ops compute are fp16 (the Metal backend's default: only
  // the casts at the fp32 inputs and outputs are fp32); compare simulates it (issue 42).
  if (r.fp16_values() + r.fp32_values() > 0)
    g.metadata["coreml.compute_precision"] = r.fp16_values() > r.fp32_values() ? "fp16" : "fp32";
  for (const auto& o : bit->second.outputs()) {
    if (!g.find_tensor(o)) throw FrontendError(path, "block output '" + excerpt(o) + "' is not produced by any op", "coreml");
    g.outputs.push_back(o);
  }
  if (opts.infer_shapes) ir::infer_shapes(g);
  return g;
}

}  // namespace ec::frontends
