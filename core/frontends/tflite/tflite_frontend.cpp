// load_tflite: .tflite flatbuffer -> IR (the writer, save_tflite, is its mirror
// in core/backends/tflite/tflite_writer.cpp; the operators both map from a row
// are rows of tflite_op_table.h, the rest special cases of import_op, the larger
// ones a read_* function each).
//
// Order matters: the flatbuffers Verifier runs over the whole file first (every
// offset, vector length and string inside the buffer), then the model-level
// indices are checked (op codes, tensors, buffers, subgraph references and
// their cycles), and only then are ops mapped.
#include "core/frontends/tflite/tflite_frontend.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "core/util/safe_file.h"
#include "core/frontends/tflite/tflite_op_table.h"
#include "core/frontends/tflite/tflite_schema_generated.h"
#include "core/ir/algorithms.h"
#include "core/ir/validate.h"

namespace ec::frontends {
namespace {

using tflite::BuiltinOperator;
namespace fb = flatbuffers;

std::string builtin_name(int code) {
  if (code >= 0 && code <= static_cast<int>(BuiltinOperator::MAX)) {
    const char* n = tflite::EnumNameBuiltinOperator(static_cast<BuiltinOperator>(code));
    if (n && *n) return n;
  }
  return "BUILTIN_" + std::to_string(code);
}

std::optional<ir::DType> dtype_of(tflite::TensorType t) {
  using T = tflite::TensorType;
  switch (t) {
    case T::FLOAT32: return ir::DType::Float32;
    case T::FLOAT16: return ir::DType::Float16;
    case T::FLOAT64: return ir::DType::Float64;
    case T::INT32: return ir::DType::Int32;
    case T::UINT8: return ir::DType::UInt8;
    case T::INT64: return ir::DType::Int64;
    case T::STRING: return ir::DType::String;
    case T::BOOL: return ir::DType::Bool;
    case T::INT16: return ir::DType::Int16;
    case T::INT8: return ir::DType::Int8;
    case T::UINT64: return ir::DType::UInt64;
    case T::UINT32: return ir::DType::UInt32;
    case T::UINT16: return ir::DType::UInt16;
    case T::COMPLEX64: return ir::DType::Complex64;
    case T::COMPLEX128: return ir::DType::Complex128;
    case T::INT4: return ir::DType::Int4;
    default: return std::nullopt;
  }
}

// TFLite's SAME padding (before = total / 2, the odd pixel after), per spatial dim.
void same_pads(std::int64_t in, std::int64_t k, std::int64_t s, std::int64_t d, std::int64_t& before,
               std::int64_t& after) {
  const std::int64_t out = (in + s - 1) / s;
  const std::int64_t eff = (k - 1) * d + 1;
  const std::int64_t total = std::max<std::int64_t>((out - 1) * s + eff - in, 0);
  before = total / 2;
  after = total - before;
}

class Reader {
 public:
  Reader(std::shared_ptr<const std::string> bytes, const std::string& path, const OpenOptions& opts)
      : bytes_(std::move(bytes)), path_(path), opts_(opts) {}

  ir::Graph read();

 private:
  [[noreturn]] void fail(const std::string& why) const { throw FrontendError(path_, why, "tflite"); }

  void verify();
  void check_subgraph_calls();
  void import_tensors();
  std::vector<int> execution_order();
  void import_op(int index);

  /// One operator as import_op sees it: what its special cases are given.
  struct OpView {
    const tflite::Operator* op;
    tflite::BuiltinOperator b;
    const std::string& what;  // "operator N (NAME)", how refusals name it
    const std::string& y;     // its first output ("" when it has none)
    std::size_t nin, nout;
  };
  /// Refuses the operator unless it has min_in inputs (all present) and min_out outputs.
  void need(const OpView& v, std::size_t min_in, std::size_t min_out) const;
  // The special cases import_op hands on, one function each (the writer's conv, lstm, ...
  // mirror them); the smaller ones stay cases of its switch.
  void read_conv(const OpView& v);             // CONV_2D
  void read_depthwise_conv(const OpView& v);   // DEPTHWISE_CONV_2D: Conv with group = C, OHWI weights
  void read_fully_connected(const OpView& v);  // FULLY_CONNECTED (+ its own flattening Reshape)
  void read_int_result(const OpView& v);       // SHAPE, TOPK_V2, WHERE: the IR op's int64 result, then the file's type
  void read_transpose_conv(const OpView& v);   // TRANSPOSE_CONV: NCHW ConvTranspose between Transposes
  void read_conv3d(const OpView& v);           // CONV_3D: NCDHW Conv between Transposes
  void read_sequence_lstm(const OpView& v);    // UNIDIRECTIONAL_ / BIDIRECTIONAL_SEQUENCE_LSTM
  void read_quantize(const OpView& v);         // QUANTIZE: QuantizeLinear, or Identity when requantising
  void read_dequantize(const OpView& v);       // DEQUANTIZE: DequantizeLinear (Cast for f16)

  // helpers for op mapping
  const tflite::Tensor* tensor(int i) const { return model_->subgraphs()->Get(0)->tensors()->Get(i); }
  std::string in(const tflite::Operator* op, std::size_t i) const {
    if (!op->inputs() || i >= op->inputs()->size()) return {};
    const int t = op->inputs()->Get(i);
    return t < 0 ? std::string() : names_[static_cast<std::size_t>(t)];
  }
  std::string out(const tflite::Operator* op, std::size_t i) const {
    if (!op->outputs() || i >= op->outputs()->size()) return {};
    const int t = op->outputs()->Get(i);
    return t < 0 ? std::string() : names_[static_cast<std::size_t>(t)];
  }
  std::vector<std::int64_t> const_ints(const tflite::Operator* op, std::size_t i, const std::string& what) const;
  std::string add_i64(const std::string& base, const std::vector<std::int64_t>& v, bool scalar = false);
  std::string add_f32(const std::string& base, float v);
  std::string fresh(const std::string& base);
  /// A Cast of tensor `n` (int32 indices, lengths) to the int64 the IR's ops take.
  std::string as_int64(const std::string& n);
  ir::Operation& emit(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                      const std::string& name = {});
  /// The op writes `out`; a fused activation becomes a following op. Returns
  /// the name the op itself should write.
  std::string with_activation(tflite::ActivationFunctionType act, const std::string& out, const std::string& what);
  const ir::Tensor& t(const std::string& n) const { return *graph_.find_tensor(n); }
  /// The IR's activation for a fused-activation code (fails for one the IR has none for).
  ir::Activation ir_activation(tflite::ActivationFunctionType act, const std::string& what) const {
    const auto a = tflite_ops::fused_activation_to_ir(act);
    if (!a) fail(what + " has an unsupported fused activation");
    return *a;
  }
  std::vector<std::int64_t> spatial_pads(tflite::Padding p, const ir::Tensor& x, std::int64_t kh, std::int64_t kw,
                                         std::int64_t sh, std::int64_t sw, std::int64_t dh, std::int64_t dw,
                                         const std::string& what);

  std::shared_ptr<const std::string> bytes_;
  std::string path_;
  OpenOptions opts_;
  const tflite::Model* model_ = nullptr;
  ir::Graph graph_;
  std::vector<std::string> names_;  // IR name of each tensor of subgraph 0
  std::set<std::string> used_;
  std::map<std::string, std::int64_t> op_counts_;
  std::vector<std::pair<int, std::string>> codes_;  // builtin code (or CUSTOM) and custom code per op code
  struct PendingActivation {
    tflite::ActivationFunctionType act;
    std::string pre, out;
  };
  std::vector<PendingActivation> pending_;
  void flush_activations();
};

void Reader::verify() {
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes_->data());
  const std::size_t size = bytes_->size();
  if (size < 8) fail("file is too short to be a TFLite model (" + std::to_string(size) + " bytes)");
  if (!tflite::ModelBufferHasIdentifier(data))
  {
    std::string id;
    for (char c : bytes_->substr(4, 4)) {
      const auto u = static_cast<unsigned char>(c);
      if (u >= 32 && u < 127 && c != '\'') id += c;
      else {
        static const char* hex = "0123456789abcdef";
        id += std::string("\\x") + hex[u >> 4] + hex[u & 15];
      }
    }
    fail("file identifier is '" + id + "', not 'TFL3': not a TensorFlow Lite model");
  }
  fb::Verifier::Options vo;
  vo.max_depth = 128;
  vo.max_tables = 100000000;
  fb::Verifier v(data, size, vo);
  if (!tflite::VerifyModelBuffer(v))
    fail("the flatbuffer is damaged (flatbuffers' Verifier rejected it: truncated, or an offset points outside the file)");
  model_ = tflite::GetModel(data);
  if (!model_->subgraphs() || model_->subgraphs()->size() == 0) fail("the model has no subgraphs");
  if (model_->version() != 3) fail("schema version " + std::to_string(model_->version()) + " (this reader takes version 3)");
  const auto* codes = model_->operator_codes();
  if (codes)
    for (const auto* c : *codes) {
      const int code = std::max<int>(c->deprecated_builtin_code(), static_cast<int>(c->builtin_code()));
      codes_.push_back({code, c->custom_code() ? c->custom_code()->str() : std::string()});
    }
  const std::size_t nbuf = model_->buffers() ? model_->buffers()->size() : 0;
  for (std::size_t si = 0; si < model_->subgraphs()->size(); ++si) {
    const auto* sg = model_->subgraphs()->Get(static_cast<fb::uoffset_t>(si));
    const std::size_t nt = sg->tensors() ? sg->tensors()->size() : 0;
    const std::string where = si ? "subgraph " + std::to_string(si) + ": " : std::string();
    if (sg->tensors())
      for (std::size_t i = 0; i < nt; ++i) {
        const auto* t = sg->tensors()->Get(static_cast<fb::uoffset_t>(i));
        if (t->buffer() >= nbuf)
          fail(where + "tensor " + std::to_string(i) + " ('" + (t->name() ? t->name()->str() : "") +
               "') refers to buffer " + std::to_string(t->buffer()) + ", the file has " + std::to_string(nbuf) +
               " buffers");
        if (t->sparsity()) fail(where + "tensor " + std::to_string(i) + " is sparse (not supported)");
      }
    auto check_list = [&](const fb::Vector<std::int32_t>* v, const std::string& what, bool allow_missing) {
      if (!v) return;
      for (const std::int32_t x : *v)
        if ((x < 0 && !(allow_missing && x == -1)) || (x >= 0 && static_cast<std::size_t>(x) >= nt))
          fail(where + what + " refers to tensor " + std::to_string(x) + ", the subgraph has " + std::to_string(nt) +
               " tensors");
    };
    check_list(sg->inputs(), "the subgraph's input list", false);
    check_list(sg->outputs(), "the subgraph's output list", false);
    if (sg->operators())
      for (std::size_t oi = 0; oi < sg->operators()->size(); ++oi) {
        const auto* op = sg->operators()->Get(static_cast<fb::uoffset_t>(oi));
        if (op->opcode_index() >= codes_.size())
          fail(where + "operator " + std::to_string(oi) + " uses op code " + std::to_string(op->opcode_index()) +
               ", the file has " + std::to_string(codes_.size()) + " op codes");
        check_list(op->inputs(), "operator " + std::to_string(oi) + " input", true);
        check_list(op->outputs(), "operator " + std::to_string(oi) + " output", false);
        check_list(op->intermediates(), "operator " + std::to_string(oi) + " intermediate", true);
      }
  }
  // Metadata buffers and signature tensors.
  if (model_->metadata())
    for (const auto* m : *model_->metadata())
      if (m->buffer() >= nbuf)
        fail("metadata '" + (m->name() ? m->name()->str() : "") + "' refers to buffer " +
             std::to_string(m->buffer()) + ", the file has " + std::to_string(nbuf) + " buffers");
  if (model_->buffers())
    for (std::size_t i = 0; i < nbuf; ++i) {
      const auto* b = model_->buffers()->Get(static_cast<fb::uoffset_t>(i));
      if (b->offset() > 1 && (b->offset() > size || b->size() > size - b->offset()))
        fail("buffer " + std::to_string(i) + " lies outside the file (offset " + std::to_string(b->offset()) +
             ", size " + std::to_string(b->size()) + ", file " + std::to_string(size) + " bytes)");
    }
}

// Subgraph references (IF, WHILE, CALL, CALL_ONCE) must name existing subgraphs
// and must not recurse: a cycle would make an interpreter loop for ever.
void Reader::check_subgraph_calls() {
  const auto* sgs = model_->subgraphs();
  const std::size_t n = sgs->size();
  std::vector<std::vector<std::size_t>> calls(n);
  for (std::size_t si = 0; si < n; ++si) {
    const auto* sg = sgs->Get(static_cast<fb::uoffset_t>(si));
    if (!sg->operators()) continue;
    for (const auto* op : *sg->operators()) {
      std::vector<std::int64_t> refs;
      if (const auto* o = op->builtin_options_as_IfOptions()) refs = {o->then_subgraph_index(), o->else_subgraph_index()};
      if (const auto* o = op->builtin_options_as_WhileOptions()) refs = {o->cond_subgraph_index(), o->body_subgraph_index()};
      if (const auto* o = op->builtin_options_as_CallOptions()) refs = {static_cast<std::int64_t>(o->subgraph())};
      for (auto r : refs) {
        if (r < 0 || static_cast<std::size_t>(r) >= n)
          fail("subgraph " + std::to_string(si) + " calls subgraph " + std::to_string(r) + ", the file has " +
               std::to_string(n) + " subgraphs");
        calls[si].push_back(static_cast<std::size_t>(r));
      }
    }
  }
  std::vector<int> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::function<void(std::size_t)> dfs = [&](std::size_t s) {
    state[s] = 1;
    for (auto c : calls[s]) {
      if (state[c] == 1)
        fail("subgraph cycle: subgraph " + std::to_string(s) + " calls subgraph " + std::to_string(c) +
             ", which leads back to it");
      if (state[c] == 0) dfs(c);
    }
    state[s] = 2;
  };
  for (std::size_t s = 0; s < n; ++s)
    if (state[s] == 0) dfs(s);
}

std::string Reader::fresh(const std::string& base) { return ir::claim_unique_name(used_, base); }

void Reader::import_tensors() {
  const auto* sg = model_->subgraphs()->Get(0);
  const std::size_t nt = sg->tensors() ? sg->tensors()->size() : 0;
  names_.resize(nt);
  for (std::size_t i = 0; i < nt; ++i) {
    const auto* ft = sg->tensors()->Get(static_cast<fb::uoffset_t>(i));
    ir::Tensor t;
    t.name = names_[i] = fresh(ft->name() ? ft->name()->str() : "tensor_" + std::to_string(i));
    const auto dt = dtype_of(ft->type());
    if (!dt) fail("tensor '" + t.name + "' has type " + std::to_string(static_cast<int>(ft->type())) + ", which this reader does not know");
    t.dtype = *dt;
    std::vector<ir::Dim> dims;
    if (ft->shape())
      for (std::size_t d = 0; d < ft->shape()->size(); ++d) {
        const std::int32_t v = ft->shape()->Get(static_cast<fb::uoffset_t>(d));
        const std::int32_t sig =
            ft->shape_signature() && d < ft->shape_signature()->size() ? ft->shape_signature()->Get(static_cast<fb::uoffset_t>(d)) : v;
        if (v < 0 && sig >= 0) fail("tensor '" + t.name + "' has a negative dimension " + std::to_string(v));
        if (sig < 0) dims.push_back(d == 0 ? ir::Dim::named("batch") : ir::Dim::unknown());
        else dims.push_back(ir::Dim::fixed(v));
      }
    t.shape = ir::Shape{dims, true};
    if (const auto* q = ft->quantization(); q && q->scale() && q->scale()->size() > 0) {
      ir::QuantParams qp;
      qp.dtype = t.dtype;
      for (float s : *q->scale()) qp.scales.push_back(s);
      // Copied out byte-wise: the verifier checks a vector's length is 4-byte aligned, not
      // that its 8-byte elements are (a misaligned load is undefined; found by fuzz_tflite).
      if (const auto* zp = q->zero_point())
        for (fb::uoffset_t i = 0; i < zp->size(); ++i) {
          std::int64_t z;
          std::memcpy(&z, zp->Data() + sizeof(std::int64_t) * i, sizeof z);
          qp.zero_points.push_back(z);
        }
      if (qp.zero_points.empty()) qp.zero_points.assign(1, 0);
      if (qp.zero_points.size() != 1 && qp.zero_points.size() != qp.scales.size())
        fail("tensor '" + t.name + "' has " + std::to_string(qp.scales.size()) + " scales but " +
             std::to_string(qp.zero_points.size()) + " zero points");
      if (qp.scales.size() > 1) {
        qp.axis = q->quantized_dimension();
        if (qp.axis < 0 || static_cast<std::size_t>(qp.axis) >= dims.size() || !dims[static_cast<std::size_t>(qp.axis)].is_static() ||
            dims[static_cast<std::size_t>(qp.axis)].value != static_cast<std::int64_t>(qp.scales.size()))
          fail("tensor '" + t.name + "' has " + std::to_string(qp.scales.size()) + " per-channel scales along axis " +
               std::to_string(qp.axis) + ", which does not match its shape");
      }
      t.quant = std::move(qp);
    }
    const auto* buf = model_->buffers()->Get(ft->buffer());
    const std::byte* p = nullptr;
    std::size_t n = 0;
    if (buf->data() && buf->data()->size() > 0) {
      p = reinterpret_cast<const std::byte*>(buf->data()->data());
      n = buf->data()->size();
    } else if (buf->offset() > 1) {
      p = reinterpret_cast<const std::byte*>(bytes_->data()) + buf->offset();
      n = static_cast<std::size_t>(buf->size());
    }
    if (p) {
      const auto numel = t.shape.num_elements();
      const std::size_t es = ir::dtype_size(t.dtype);
      if (t.dtype != ir::DType::String) {
        if (!numel) fail("constant tensor '" + t.name + "' has no static shape");
        const std::size_t want = t.dtype == ir::DType::Int4 ? static_cast<std::size_t>((*numel + 1) / 2)
                                                            : static_cast<std::size_t>(*numel) * es;
        if (n != want)
          fail("tensor '" + t.name + "' (" + std::string(ir::dtype_name(t.dtype)) + ", " + std::to_string(*numel) +
               " elements) needs " + std::to_string(want) + " bytes, its buffer holds " + std::to_string(n));
      }
      if (es > 1 && reinterpret_cast<std::uintptr_t>(p) % es != 0)
        t.data = ir::ConstantData::copy_of(p, n);  // misaligned: kernels read typed pointers
      else
        t.data = ir::ConstantData(bytes_, p, n);
    }
    graph_.add_tensor(std::move(t));
  }
}

// Operators in an order where every input is produced before it is read
// (TFLite lists them in execution order; a file that does not is sorted, and
// one whose operators form a cycle is refused).
std::vector<int> Reader::execution_order() {
  const auto* sg = model_->subgraphs()->Get(0);
  const int n = sg->operators() ? static_cast<int>(sg->operators()->size()) : 0;
  std::vector<int> producer(names_.size(), -1);
  for (int i = 0; i < n; ++i) {
    const auto* op = sg->operators()->Get(static_cast<fb::uoffset_t>(i));
    if (!op->outputs()) continue;
    for (std::int32_t o : *op->outputs()) {
      if (producer[static_cast<std::size_t>(o)] >= 0)
        fail("tensor '" + names_[static_cast<std::size_t>(o)] + "' is written by operators " +
             std::to_string(producer[static_cast<std::size_t>(o)]) + " and " + std::to_string(i));
      if (graph_.find_tensor(names_[static_cast<std::size_t>(o)])->is_constant())
        fail("operator " + std::to_string(i) + " writes constant tensor '" + names_[static_cast<std::size_t>(o)] + "'");
      producer[static_cast<std::size_t>(o)] = i;
    }
  }
  std::vector<std::vector<int>> users(static_cast<std::size_t>(n));
  std::vector<int> pending(static_cast<std::size_t>(n), 0);
  for (int i = 0; i < n; ++i) {
    const auto* op = sg->operators()->Get(static_cast<fb::uoffset_t>(i));
    if (!op->inputs()) continue;
    std::set<int> deps;
    for (std::int32_t x : *op->inputs())
      if (x >= 0 && producer[static_cast<std::size_t>(x)] >= 0) deps.insert(producer[static_cast<std::size_t>(x)]);
    for (int d : deps) {
      users[static_cast<std::size_t>(d)].push_back(i);
      ++pending[static_cast<std::size_t>(i)];
    }
  }
  std::vector<int> order, ready;
  for (int i = n - 1; i >= 0; --i)
    if (pending[static_cast<std::size_t>(i)] == 0) ready.push_back(i);
  // Smallest index first: keeps the file's order when it is already valid.
  std::set<int> q(ready.begin(), ready.end());
  while (!q.empty()) {
    const int i = *q.begin();
    q.erase(q.begin());
    order.push_back(i);
    for (int u : users[static_cast<std::size_t>(i)])
      if (--pending[static_cast<std::size_t>(u)] == 0) q.insert(u);
  }
  if (static_cast<int>(order.size()) != n) {
    for (int i = 0; i < n; ++i)
      if (pending[static_cast<std::size_t>(i)] > 0)
        fail("operators form a cycle (operator " + std::to_string(i) + ", " +
             builtin_name(codes_[sg->operators()->Get(static_cast<fb::uoffset_t>(i))->opcode_index()].first) +
             ", depends on its own output)");
  }
  return order;
}

std::vector<std::int64_t> Reader::const_ints(const tflite::Operator* op, std::size_t i, const std::string& what) const {
  const std::string n = in(op, i);
  const ir::Tensor* t = n.empty() ? nullptr : graph_.find_tensor(n);
  if (!t || !t->is_constant()) fail(what + " must be a constant");
  auto v = ir::constant_ints(*t);
  if (!v) fail(what + " must be int32 or int64, got " + std::string(ir::dtype_name(t->dtype)));
  return *v;
}

std::string Reader::add_i64(const std::string& base, const std::vector<std::int64_t>& v, bool scalar) {
  ir::Tensor t;
  t.name = fresh(base);
  t.dtype = ir::DType::Int64;
  t.shape = scalar ? ir::Shape::of(std::vector<std::int64_t>{}) : ir::Shape::of({static_cast<std::int64_t>(v.size())});
  t.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(std::int64_t));
  const std::string n = t.name;
  graph_.add_tensor(std::move(t));
  return n;
}

std::string Reader::as_int64(const std::string& n) {
  ir::Tensor w = t(n);
  w.name = fresh(n + "/int64");
  w.dtype = ir::DType::Int64;
  w.data.reset();
  w.quant.reset();
  const std::string wide = w.name;
  graph_.add_tensor(std::move(w));
  emit("Cast", {n}, {wide}).attributes["to"] = std::string(ir::dtype_name(ir::DType::Int64));
  return wide;
}

std::string Reader::add_f32(const std::string& base, float v) {
  ir::Tensor t;
  t.name = fresh(base);
  t.dtype = ir::DType::Float32;
  t.shape = ir::Shape::of(std::vector<std::int64_t>{});
  t.data = ir::ConstantData::copy_of(&v, sizeof v);
  const std::string n = t.name;
  graph_.add_tensor(std::move(t));
  return n;
}

ir::Operation& Reader::emit(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                            const std::string& name) {
  ir::Operation op;
  op.op_type = type;
  op.kind = ir::op_kind_from_name(type).value_or(ir::OpKind::Unknown);
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  op.name = name.empty() ? (op.outputs.empty() || op.outputs[0].empty() ? type : op.outputs[0]) : name;
  graph_.ops.push_back(std::move(op));
  return graph_.ops.back();
}

std::string Reader::with_activation(tflite::ActivationFunctionType act, const std::string& out, const std::string& what) {
  using A = tflite::ActivationFunctionType;
  if (act == A::NONE) return out;
  ir::Tensor pre = t(out);
  pre.name = fresh(out + "/pre_activation");
  pre.data.reset();
  const std::string p = pre.name;
  graph_.add_tensor(std::move(pre));
  if (act != A::RELU && act != A::RELU6 && act != A::RELU_N1_TO_1 && act != A::TANH)
    fail(what + " has fused activation " + std::to_string(static_cast<int>(act)) + ", which is not supported");
  pending_.push_back({act, p, out});  // emitted after the op itself (import_op)
  return p;
}

void Reader::flush_activations() {
  using A = tflite::ActivationFunctionType;
  for (const auto& [act, p, out] : pending_) {
    switch (act) {
      case A::RELU: emit("Relu", {p}, {out}, out + "/activation"); break;
      case A::RELU6: emit("Clip", {p, add_f32(out + "/min", 0.f), add_f32(out + "/max", 6.f)}, {out}, out + "/activation"); break;
      case A::RELU_N1_TO_1: emit("Clip", {p, add_f32(out + "/min", -1.f), add_f32(out + "/max", 1.f)}, {out}, out + "/activation"); break;
      default: emit("Tanh", {p}, {out}, out + "/activation"); break;
    }
  }
  pending_.clear();
}

std::vector<std::int64_t> Reader::spatial_pads(tflite::Padding p, const ir::Tensor& x, std::int64_t kh, std::int64_t kw,
                                               std::int64_t sh, std::int64_t sw, std::int64_t dh, std::int64_t dw,
                                               const std::string& what) {
  if (sh < 1 || sw < 1 || dh < 1 || dw < 1 || kh < 1 || kw < 1)
    fail(what + " has a stride, dilation or window size below 1");
  if (p == tflite::Padding::VALID) return {0, 0, 0, 0};
  if (x.shape.rank() != 4 || !x.shape.dims[1].is_static() || !x.shape.dims[2].is_static())
    fail(what + " with SAME padding needs a static 4-D input");
  std::int64_t t0, b0, l0, r0;
  same_pads(x.shape.dims[1].value, kh, sh, dh, t0, b0);
  same_pads(x.shape.dims[2].value, kw, sw, dw, l0, r0);
  return {t0, l0, b0, r0};
}

void Reader::need(const OpView& v, std::size_t min_in, std::size_t min_out) const {
  if (v.nin < min_in || v.nout < min_out)
    fail(v.what + " has " + std::to_string(v.nin) + " inputs and " + std::to_string(v.nout) + " outputs, needs at least " +
         std::to_string(min_in) + " and " + std::to_string(min_out));
  for (std::size_t i = 0; i < min_in; ++i)
    if (in(v.op, i).empty()) fail(v.what + " input " + std::to_string(i) + " is missing");
}

void Reader::import_op(int index) {
  const auto* sg = model_->subgraphs()->Get(0);
  const auto* op = sg->operators()->Get(static_cast<fb::uoffset_t>(index));
  // (not a structured binding: clang 14, the fuzz build's compiler, cannot capture one)
  const int code = codes_[op->opcode_index()].first;
  const std::string& custom = codes_[op->opcode_index()].second;
  const std::string bname = code == static_cast<int>(BuiltinOperator::CUSTOM) ? custom : builtin_name(code);
  ++op_counts_[bname];
  const std::string what = "operator " + std::to_string(index) + " (" + bname + ")";
  const std::size_t nin = op->inputs() ? op->inputs()->size() : 0;
  const std::size_t nout = op->outputs() ? op->outputs()->size() : 0;
  auto all_inputs = [&] {
    std::vector<std::string> v;
    for (std::size_t i = 0; i < nin; ++i) v.push_back(in(op, i));
    return v;
  };
  auto all_outputs = [&] {
    std::vector<std::string> v;
    for (std::size_t i = 0; i < nout; ++i) v.push_back(out(op, i));
    return v;
  };
  auto opaque = [&](const std::string& type) {
    auto& o = emit("tflite::" + type, all_inputs(), all_outputs());
    const std::size_t bytes = op->custom_options() ? op->custom_options()->size() : 0;
    if (type == "edgetpu-custom-op") {
      o.attributes["description"] = std::string("Edge TPU executable");
      o.attributes["executable_bytes"] = static_cast<std::int64_t>(bytes);
    } else if (bytes) {
      o.attributes["custom_options_bytes"] = static_cast<std::int64_t>(bytes);
    }
    if (bytes && code == static_cast<int>(BuiltinOperator::CUSTOM)) {
      // Kept (without a copy) so the writer can write the op back as it was.
      ir::TensorValue v;
      v.dtype = ir::DType::UInt8;
      v.shape = {static_cast<std::int64_t>(bytes)};
      v.data = ir::ConstantData(bytes_, reinterpret_cast<const std::byte*>(op->custom_options()->data()), bytes);
      o.attributes["custom_options"] = std::move(v);
    }
    if (!opts_.allow_unknown_ops)
      throw UnsupportedOpError("tflite::" + type, "edgecompiler's IR", "", path_);
  };
  using B = BuiltinOperator;
  if (code == static_cast<int>(B::CUSTOM)) return opaque(custom.empty() ? "CUSTOM" : custom);
  if (code < 0 || code > static_cast<int>(B::MAX)) return opaque(bname);
  const B b = static_cast<B>(code);
  const std::string y = nout ? out(op, 0) : std::string();
  const OpView v{op, b, what, y, nin, nout};
  auto need = [&](std::size_t min_in, std::size_t min_out) { this->need(v, min_in, min_out); };
  // From a row of the table (tflite_op_table.h): inputs, options, fused activation.
  if (const tflite_ops::OpRow* row = tflite_ops::row_for_code(b)) {
    const int n = row->operator_inputs();
    need(n < 0 ? 1 : static_cast<std::size_t>(n), 1);
    struct Context final : tflite_ops::ReadContext {
      const Reader& r;
      const tflite::Operator& o;
      const std::string& what;
      Context(const Reader& r_, const tflite::Operator& o_, const std::string& w) : r(r_), o(o_), what(w) {}
      const tflite::Operator& op() const override { return o; }
      const ir::Tensor& input(std::size_t i) const override { return r.t(r.in(&o, i)); }
      const ir::Tensor& output(std::size_t i) const override { return r.t(r.out(&o, i)); }
      [[noreturn]] void fail(const std::string& problem) const override { r.fail(what + problem); }
    } ctx(*this, *op, what);
    ir::Operation read;  // the attributes, before the op is added (the options may leave it opaque)
    if (row->read && !row->read(ctx, read)) return opaque(bname);
    if (const auto& ints = row->ints; ints.index >= 0) {
      auto v = const_ints(op, static_cast<std::size_t>(ints.index), what + " " + ints.what);
      if (ints.one && v.size() != 1) fail(what + " " + ints.what + " must hold one value");
      if (ints.one) read.attributes[ints.attr] = v[0];
      else read.attributes[ints.attr] = std::move(v);
    }
    std::vector<std::string> inputs;
    if (n < 0) inputs = all_inputs();
    for (int i = 0; i < n; ++i)
      if (i != row->ints.index) inputs.push_back(in(op, static_cast<std::size_t>(i)));
    const auto act = row->act == tflite_ops::Act::none ? tflite::ActivationFunctionType::NONE : row->read_act(*op);
    ir::Operation& o = emit(std::string(ir::op_info(row->kind).name), std::move(inputs), {with_activation(act, y, what)}, y);
    o.attributes = std::move(read.attributes);
    return;
  }
  // The special cases: decompositions, layouts, quantisation, options the IR op takes otherwise.
  switch (b) {
    case B::CONV_2D: return read_conv(v);
    case B::DEPTHWISE_CONV_2D: return read_depthwise_conv(v);
    case B::FULLY_CONNECTED: return read_fully_connected(v);
    case B::AVERAGE_POOL_2D: case B::MAX_POOL_2D: {
      need(1, 1);
      const auto* o = op->builtin_options_as_Pool2DOptions();
      if (!o) fail(what + " has no Pool2DOptions");
      const auto pads = spatial_pads(o->padding(), t(in(op, 0)), o->filter_height(), o->filter_width(), o->stride_h(),
                                     o->stride_w(), 1, 1, what);
      auto& p = emit(b == B::AVERAGE_POOL_2D ? "AveragePool" : "MaxPool", {in(op, 0)},
                     {with_activation(o->fused_activation_function(), y, what)}, y);
      p.attributes["kernel_shape"] = std::vector<std::int64_t>{o->filter_height(), o->filter_width()};
      p.attributes["strides"] = std::vector<std::int64_t>{o->stride_h(), o->stride_w()};
      p.attributes["pads"] = pads;
      p.attributes["layout"] = std::string("NHWC");
      return;
    }
    case B::RESHAPE: {
      need(1, 1);
      std::vector<std::int64_t> shape;
      const ir::Tensor& yt = t(y);
      if (yt.shape.is_static() && yt.shape.rank() > 0) shape = yt.shape.sizes();
      else if (nin > 1 && !in(op, 1).empty()) shape = const_ints(op, 1, what + " shape");
      else if (const auto* o = op->builtin_options_as_ReshapeOptions(); o && o->new_shape())
        for (auto v : *o->new_shape()) shape.push_back(v);
      else if (yt.shape.is_static()) shape = yt.shape.sizes();
      else fail(what + " has no target shape");
      emit("Reshape", {in(op, 0), add_i64(y + "/shape", shape)}, {y});
      return;
    }
    case B::SQUEEZE: {
      need(1, 1);
      std::vector<std::int64_t> axes;
      if (const auto* o = op->builtin_options_as_SqueezeOptions(); o && o->squeeze_dims())
        for (auto v : *o->squeeze_dims()) axes.push_back(v);
      if (axes.empty()) {
        const auto& xs = t(in(op, 0)).shape;
        for (std::size_t d = 0; d < xs.rank(); ++d)
          if (xs.dims[d].is_static() && xs.dims[d].value == 1) axes.push_back(static_cast<std::int64_t>(d));
      }
      emit("Squeeze", {in(op, 0), add_i64(y + "/axes", axes)}, {y});
      return;
    }
    case B::EXPAND_DIMS: {
      need(2, 1);
      auto axes = const_ints(op, 1, what + " axis");
      if (axes.size() != 1) fail(what + " axis must hold one value");
      if (axes[0] < 0) axes[0] += static_cast<std::int64_t>(t(y).shape.rank());
      emit("Unsqueeze", {in(op, 0), add_i64(y + "/axes", axes)}, {y});
      return;
    }
    case B::PAD: case B::PADV2: {
      need(2, 1);
      const auto p = const_ints(op, 1, what + " paddings");
      const std::size_t r = p.size() / 2;
      std::vector<std::int64_t> pads(2 * r);
      for (std::size_t d = 0; d < r; ++d) {
        pads[d] = p[2 * d];
        pads[r + d] = p[2 * d + 1];
      }
      std::vector<std::string> ins = {in(op, 0), add_i64(y + "/pads", pads)};
      if (b == B::PADV2 && nin > 2 && !in(op, 2).empty()) ins.push_back(in(op, 2));
      emit("Pad", ins, {y});
      return;
    }
    case B::SLICE: {
      need(3, 1);
      const auto begin = const_ints(op, 1, what + " begin");
      const auto size = const_ints(op, 2, what + " size");
      if (begin.size() != size.size()) fail(what + " begin and size differ in length");
      std::vector<std::int64_t> ends(begin.size()), axes(begin.size());
      for (std::size_t d = 0; d < begin.size(); ++d) {
        ends[d] = size[d] < 0 ? INT64_MAX : begin[d] + size[d];
        axes[d] = static_cast<std::int64_t>(d);
      }
      emit("Slice", {in(op, 0), add_i64(y + "/starts", begin), add_i64(y + "/ends", ends), add_i64(y + "/axes", axes)}, {y});
      return;
    }
    case B::STRIDED_SLICE: {
      need(4, 1);
      const auto* o = op->builtin_options_as_StridedSliceOptions();
      if (o && (o->ellipsis_mask() || o->new_axis_mask() || o->offset())) return opaque(bname);
      auto begin = const_ints(op, 1, what + " begin");
      auto end = const_ints(op, 2, what + " end");
      const auto strides = const_ints(op, 3, what + " strides");
      const std::size_t r = begin.size();
      if (end.size() != r || strides.size() != r) fail(what + " begin, end and strides differ in length");
      std::vector<std::int64_t> axes(r), shrink;
      for (std::size_t d = 0; d < r; ++d) {
        axes[d] = static_cast<std::int64_t>(d);
        const bool neg = strides[d] < 0;
        if (o && (o->begin_mask() >> d & 1)) begin[d] = neg ? INT64_MAX : 0;
        if (o && (o->end_mask() >> d & 1)) end[d] = neg ? INT64_MIN : INT64_MAX;
        if (o && (o->shrink_axis_mask() >> d & 1)) {
          end[d] = begin[d] == -1 ? INT64_MAX : begin[d] + 1;
          shrink.push_back(static_cast<std::int64_t>(d));
        }
      }
      std::string target = y;
      if (!shrink.empty()) {
        ir::Tensor mid = t(y);
        mid.name = fresh(y + "/unsqueezed");
        mid.shape = ir::Shape::unknown_rank();
        target = mid.name;
        graph_.add_tensor(std::move(mid));
      }
      emit("Slice", {in(op, 0), add_i64(y + "/starts", begin), add_i64(y + "/ends", end), add_i64(y + "/axes", axes),
                     add_i64(y + "/steps", strides)}, {target}, shrink.empty() ? y : target);
      if (!shrink.empty()) emit("Squeeze", {target, add_i64(y + "/axes", shrink)}, {y});
      return;
    }
    // The builtins the writer makes of ONNX comparison, logic, shape and gather ops, read back
    // as those IR ops (so `run` takes the files `convert` writes).
    case B::NOT_EQUAL: {  // (the others are rows)
      need(2, 1);
      ir::Tensor eq = t(y);
      eq.name = fresh(y + "/equal");
      eq.data.reset();
      const std::string e = eq.name;
      graph_.add_tensor(std::move(eq));
      emit("Equal", {in(op, 0), in(op, 1)}, {e});
      emit("Not", {e}, {y}, y);
      return;
    }
    case B::SQUARED_DIFFERENCE: {
      need(2, 1);
      ir::Tensor d = t(y);
      d.name = fresh(y + "/difference");
      d.data.reset();
      const std::string dn = d.name;
      graph_.add_tensor(std::move(d));
      emit("Sub", {in(op, 0), in(op, 1)}, {dn});
      emit("Mul", {dn, dn}, {y}, y);
      return;
    }
    case B::TILE: need(2, 1); emit("Tile", {in(op, 0), add_i64(y + "/repeats", const_ints(op, 1, what + " multiples"))}, {y}); return;
    case B::BROADCAST_TO: need(2, 1); emit("Expand", {in(op, 0), add_i64(y + "/shape", const_ints(op, 1, what + " shape"))}, {y}); return;
    case B::CUMSUM: {
      need(2, 1);
      const auto* o = op->builtin_options_as_CumsumOptions();
      auto& c = emit("CumSum", {in(op, 0), add_i64(y + "/axis", const_ints(op, 1, what + " axis"), true)}, {y});
      c.attributes["exclusive"] = std::int64_t{o && o->exclusive() ? 1 : 0};
      c.attributes["reverse"] = std::int64_t{o && o->reverse() ? 1 : 0};
      return;
    }
    case B::SPLIT_V: {
      // (x, size_splits, axis): ONNX's Split with the sizes as its input (-1: the rest)
      need(3, 1);
      const ir::Tensor& x = t(in(op, 0));
      auto axis = const_ints(op, 2, what + " axis");
      auto sizes = const_ints(op, 1, what + " size_splits");
      if (axis.size() != 1 || !x.shape.rank_known) fail(what + " needs one axis and an input of known rank");
      const auto r = static_cast<std::int64_t>(x.shape.rank());
      if (axis[0] < -r || axis[0] >= r) fail(what + " axis is out of range");
      if (axis[0] < 0) axis[0] += r;
      const auto& dim = x.shape.dims[static_cast<std::size_t>(axis[0])];
      std::int64_t known = 0, unknown = 0;
      for (auto v : sizes) v < 0 ? ++unknown : known += v;
      if (unknown > 1 || (unknown && !dim.is_static())) fail(what + " has more than one -1 size, or one on a dynamic axis");
      for (auto& v : sizes)
        if (v < 0) v = dim.value - known;
      auto& sp = emit("Split", {in(op, 0), add_i64(y + "/split", sizes)}, all_outputs());
      sp.attributes["axis"] = axis[0];
      return;
    }
    case B::MIRROR_PAD: {
      need(2, 1);
      const auto* o = op->builtin_options_as_MirrorPadOptions();
      if (o && o->mode() != tflite::MirrorPadMode::REFLECT) return opaque(bname);  // SYMMETRIC: no ONNX mode
      const auto p = const_ints(op, 1, what + " paddings");
      std::vector<std::int64_t> pads(p.size());
      const std::size_t r = p.size() / 2;
      for (std::size_t d = 0; d < r; ++d) {
        pads[d] = p[2 * d];
        pads[r + d] = p[2 * d + 1];
      }
      emit("Pad", {in(op, 0), add_i64(y + "/pads", pads)}, {y}).attributes["mode"] = std::string("reflect");
      return;
    }
    case B::GATHER_ND: {
      need(2, 1);
      emit("GatherND", {in(op, 0), as_int64(in(op, 1))}, {y}, y);
      return;
    }
    case B::SHAPE: case B::TOPK_V2: case B::WHERE: return read_int_result(v);
    case B::REVERSE_V2: {
      // a Slice with step -1 along each axis
      need(2, 1);
      const ir::Tensor& x = t(in(op, 0));
      if (!x.shape.rank_known) fail(what + " needs an input of known rank");
      const auto r = static_cast<std::int64_t>(x.shape.rank());
      std::vector<std::int64_t> axes = const_ints(op, 1, what + " axis");
      if (axes.empty() || axes.size() > static_cast<std::size_t>(r)) fail(what + " axis must hold 1 to rank values");
      for (auto& a : axes) {
        if (a < -r || a >= r) fail(what + " axis " + std::to_string(a) + " is out of range for rank " + std::to_string(r));
        if (a < 0) a += r;
      }
      const std::vector<std::int64_t> starts(axes.size(), -1), ends(axes.size(), INT64_MIN), steps(axes.size(), -1);
      emit("Slice", {in(op, 0), add_i64(y + "/starts", starts), add_i64(y + "/ends", ends), add_i64(y + "/axes", axes),
                     add_i64(y + "/steps", steps)}, {y});
      return;
    }
    case B::SPLIT: {
      need(2, 1);
      const auto axis = const_ints(op, 0, what + " axis");
      if (axis.size() != 1) fail(what + " axis must hold one value");
      auto& s = emit("Split", {in(op, 1)}, all_outputs());
      s.attributes["axis"] = axis[0];
      s.attributes["num_outputs"] = static_cast<std::int64_t>(nout);
      return;
    }
    case B::PACK: {
      need(1, 1);
      const auto* o = op->builtin_options_as_PackOptions();
      std::int64_t axis = o ? o->axis() : 0;
      if (axis < 0) axis += static_cast<std::int64_t>(t(y).shape.rank());
      std::vector<std::string> parts;
      for (std::size_t i = 0; i < nin; ++i) {
        ir::Tensor u = t(in(op, i));
        u.name = fresh(y + "/part" + std::to_string(i));
        u.data.reset();
        u.shape = ir::Shape::unknown_rank();
        parts.push_back(u.name);
        const std::string un = u.name;
        if (auto* src = graph_.find_tensor(in(op, i))) u.quant = src->quant;
        graph_.add_tensor(std::move(u));
        emit("Unsqueeze", {in(op, i), add_i64(un + "/axes", {axis})}, {un});
      }
      auto& c = emit("Concat", parts, {y});
      c.attributes["axis"] = axis;
      return;
    }
    case B::UNPACK: {
      need(1, 1);
      const auto* o = op->builtin_options_as_UnpackOptions();
      std::int64_t axis = o ? o->axis() : 0;
      if (axis < 0) axis += static_cast<std::int64_t>(t(in(op, 0)).shape.rank());
      std::vector<std::string> parts;
      for (std::size_t i = 0; i < nout; ++i) {
        ir::Tensor u = t(out(op, i));
        u.name = fresh(out(op, i) + "/keepdim");
        u.shape = ir::Shape::unknown_rank();
        parts.push_back(u.name);
        graph_.add_tensor(std::move(u));
      }
      auto& s = emit("Split", {in(op, 0)}, parts, y + "/split");
      s.attributes["axis"] = axis;
      s.attributes["num_outputs"] = static_cast<std::int64_t>(nout);
      for (std::size_t i = 0; i < nout; ++i) emit("Squeeze", {parts[i], add_i64(parts[i] + "/axes", {axis})}, {out(op, i)});
      return;
    }
    case B::RELU6: need(1, 1); emit("Clip", {in(op, 0), add_f32(y + "/min", 0.f), add_f32(y + "/max", 6.f)}, {y}); return;
    case B::RELU_N1_TO_1: need(1, 1); emit("Clip", {in(op, 0), add_f32(y + "/min", -1.f), add_f32(y + "/max", 1.f)}, {y}); return;
    case B::RESIZE_BILINEAR: case B::RESIZE_NEAREST_NEIGHBOR: {
      need(2, 1);
      const auto size = const_ints(op, 1, what + " size");
      const ir::Tensor& x = t(in(op, 0));
      if (size.size() != 2 || x.shape.rank() != 4 || !x.shape.dims[3].is_static()) fail(what + " needs a 4-D input and 2 sizes");
      bool align = false, half = false;
      if (const auto* o = op->builtin_options_as_ResizeBilinearOptions()) { align = o->align_corners(); half = o->half_pixel_centers(); }
      if (const auto* o = op->builtin_options_as_ResizeNearestNeighborOptions()) { align = o->align_corners(); half = o->half_pixel_centers(); }
      const std::int64_t n = x.shape.dims[0].is_static() ? x.shape.dims[0].value : 1;
      auto& r = emit("Resize", {in(op, 0), "", "", add_i64(y + "/sizes", {n, size[0], size[1], x.shape.dims[3].value})}, {y});
      const bool bilinear = b == B::RESIZE_BILINEAR;
      r.attributes["mode"] = std::string(bilinear ? "linear" : "nearest");
      r.attributes["coordinate_transformation_mode"] =
          std::string(align ? "align_corners" : half ? (bilinear ? "half_pixel" : "tf_half_pixel_for_nn") : "asymmetric");
      if (!bilinear) r.attributes["nearest_mode"] = std::string(align ? "round_prefer_ceil" : "floor");
      return;
    }
    case B::SPACE_TO_DEPTH: case B::DEPTH_TO_SPACE: {
      need(1, 1);
      std::int64_t bs = 0;
      if (const auto* o = op->builtin_options_as_SpaceToDepthOptions()) bs = o->block_size();
      if (const auto* o = op->builtin_options_as_DepthToSpaceOptions()) bs = o->block_size();
      if (bs < 1) fail(what + " block size must be positive");
      // The IR's SpaceToDepth/DepthToSpace are NCHW: transpose around them.
      auto mid = [&](const std::string& base) {
        ir::Tensor m = t(y);
        m.name = fresh(base);
        m.shape = ir::Shape::unknown_rank();
        const std::string n = m.name;
        graph_.add_tensor(std::move(m));
        return n;
      };
      const std::string a = mid(y + "/nchw_in"), c = mid(y + "/nchw_out");
      emit("Transpose", {in(op, 0)}, {a}).attributes["perm"] = std::vector<std::int64_t>{0, 3, 1, 2};
      auto& s = emit(b == B::SPACE_TO_DEPTH ? "SpaceToDepth" : "DepthToSpace", {a}, {c});
      s.attributes["blocksize"] = bs;
      if (b == B::DEPTH_TO_SPACE) s.attributes["mode"] = std::string("DCR");
      emit("Transpose", {c}, {y}).attributes["perm"] = std::vector<std::int64_t>{0, 2, 3, 1};
      return;
    }
    case B::TRANSPOSE_CONV: return read_transpose_conv(v);
    case B::CONV_3D: return read_conv3d(v);
    case B::UNIDIRECTIONAL_SEQUENCE_LSTM: case B::BIDIRECTIONAL_SEQUENCE_LSTM: return read_sequence_lstm(v);
    case B::QUANTIZE: return read_quantize(v);
    case B::DEQUANTIZE: return read_dequantize(v);
    // More builtins the writer makes of ONNX ops, read back as those ops.
    case B::FLOOR_DIV: {
      need(2, 1);
      auto tmp = [&](const std::string& base) {  // an intermediate shaped as the output
        ir::Tensor v = t(y);
        v.name = fresh(base);
        v.data.reset();
        v.quant.reset();
        const std::string n = v.name;
        graph_.add_tensor(std::move(v));
        return n;
      };
      if (ir::dtype_is_float(t(in(op, 0)).dtype)) {
        const std::string q = tmp(y + "/quotient");
        emit("Div", {in(op, 0), in(op, 1)}, {q});
        emit("Floor", {q}, {y}, y);
        return;
      }
      // integers: a - floor_mod(a, b) is a multiple of b, so ONNX's truncating Div is exact
      const std::string m = tmp(y + "/mod"), d = tmp(y + "/multiple");
      emit("Mod", {in(op, 0), in(op, 1)}, {m});
      emit("Sub", {in(op, 0), m}, {d});
      emit("Div", {d, in(op, 1)}, {y}, y);
      return;
    }
    case B::FILL: need(2, 1); emit("Expand", {in(op, 1), add_i64(y + "/shape", const_ints(op, 0, what + " dims"))}, {y}); return;
    case B::REVERSE_SEQUENCE: {
      need(2, 1);
      const auto* o = op->builtin_options_as_ReverseSequenceOptions();
      const std::int64_t time = o ? o->seq_dim() : 0, batch = o ? o->batch_dim() : 0;
      if (!((time == 0 && batch == 1) || (time == 1 && batch == 0))) return opaque(bname);  // ONNX: axes 0 and 1 only
      auto& r = emit("ReverseSequence", {in(op, 0), as_int64(in(op, 1))}, {y}, y);
      r.attributes["time_axis"] = time;
      r.attributes["batch_axis"] = batch;
      return;
    }
    case B::ONE_HOT: {
      // (indices, depth, on_value, off_value): ONNX's OneHot takes [off, on] as one tensor
      need(4, 1);
      const auto* o = op->builtin_options_as_OneHotOptions();
      std::vector<std::string> parts;
      for (std::size_t i : {std::size_t{3}, std::size_t{2}}) {
        ir::Tensor v = t(in(op, i));
        v.name = fresh(in(op, i) + "/as_1d");
        v.data.reset();
        v.shape = ir::Shape::of({1});
        parts.push_back(v.name);
        graph_.add_tensor(std::move(v));
        emit("Reshape", {in(op, i), add_i64(y + "/one", {1})}, {parts.back()});
      }
      ir::Tensor values = t(in(op, 2));
      values.name = fresh(y + "/values");
      values.data.reset();
      values.shape = ir::Shape::of({2});
      const std::string vn = values.name;
      graph_.add_tensor(std::move(values));
      emit("Concat", parts, {vn}).attributes["axis"] = std::int64_t{0};
      emit("OneHot", {in(op, 0), in(op, 1), vn}, {y}, y).attributes["axis"] = std::int64_t{o ? o->axis() : -1};
      return;
    }
    default: return opaque(bname);
  }
}

// CONV_2D
void Reader::read_conv(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  need(v, 2, 1);
  const auto* o = op->builtin_options_as_Conv2DOptions();
  if (!o) fail(what + " has no Conv2DOptions");
  const ir::Tensor& w = t(in(op, 1));
  if (w.shape.rank() != 4 || !w.shape.is_static()) fail(what + " needs a static 4-D filter");
  const auto ws = w.shape.sizes();
  const auto pads = spatial_pads(o->padding(), t(in(op, 0)), ws[1], ws[2], o->stride_h(), o->stride_w(),
                                 o->dilation_h_factor(), o->dilation_w_factor(), what);
  auto& c = emit("Conv", {in(op, 0), in(op, 1), in(op, 2)}, {y});
  if (c.inputs[2].empty()) c.inputs.pop_back();
  c.attributes["kernel_shape"] = std::vector<std::int64_t>{ws[1], ws[2]};
  c.attributes["strides"] = std::vector<std::int64_t>{o->stride_h(), o->stride_w()};
  c.attributes["dilations"] = std::vector<std::int64_t>{o->dilation_h_factor(), o->dilation_w_factor()};
  c.attributes["pads"] = pads;
  c.attributes["layout"] = std::string("NHWC");
  c.attributes["group"] = std::int64_t{1};
  if (o->fused_activation_function() == tflite::ActivationFunctionType::TANH ||
      o->fused_activation_function() == tflite::ActivationFunctionType::SIGN_BIT)
    fail(what + " has an unsupported fused activation");
  ir::set_fused_activation(c, ir_activation(o->fused_activation_function(), what));
  return;
}

// DEPTHWISE_CONV_2D
void Reader::read_depthwise_conv(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  need(v, 2, 1);
  const auto* o = op->builtin_options_as_DepthwiseConv2DOptions();
  if (!o) fail(what + " has no DepthwiseConv2DOptions");
  const ir::Tensor& x = t(in(op, 0));
  const ir::Tensor& w = t(in(op, 1));
  if (w.shape.rank() != 4 || !w.shape.is_static() || w.shape.sizes()[0] != 1)
    fail(what + " needs a static filter [1, KH, KW, C*M]");
  if (x.shape.rank() != 4 || !x.shape.dims[3].is_static()) fail(what + " needs a 4-D input with static channels");
  const auto ws = w.shape.sizes();
  const std::int64_t kh = ws[1], kw = ws[2], cm = ws[3], cin = x.shape.dims[3].value;
  if (cin <= 0 || cm % cin != 0) fail(what + ": filter channels " + std::to_string(cm) + " are not a multiple of input channels " + std::to_string(cin));
  const auto pads = spatial_pads(o->padding(), x, kh, kw, o->stride_h(), o->stride_w(), o->dilation_h_factor(),
                                 o->dilation_w_factor(), what);
  // [1, KH, KW, CM] -> [CM, KH, KW, 1] (the IR's OHWI with I = 1)
  std::string wname = in(op, 1);
  if (w.is_constant() && kh * kw > 1) {
    ir::Tensor wt = w;
    wt.name = fresh(w.name + "/ohwi");
    const std::size_t es = ir::dtype_size(w.dtype);
    std::vector<std::byte> buf(w.data->size());
    const std::byte* src = w.data->data();
    for (std::int64_t s = 0; s < kh * kw; ++s)
      for (std::int64_t c = 0; c < cm; ++c)
        std::memcpy(&buf[static_cast<std::size_t>((c * kh * kw + s)) * es], src + static_cast<std::size_t>(s * cm + c) * es, es);
    wt.data = ir::ConstantData::from_vector(std::move(buf));
    wt.shape = ir::Shape::of({cm, kh, kw, 1});
    if (wt.quant && wt.quant->axis == 3) wt.quant->axis = 0;
    wname = wt.name;
    graph_.add_tensor(std::move(wt));
  } else {
    ir::Tensor* wm = graph_.find_tensor(wname);
    if (!w.is_constant()) fail(what + " needs a constant filter");
    wm->shape = ir::Shape::of({cm, kh, kw, 1});
    if (wm->quant && wm->quant->axis == 3) wm->quant->axis = 0;
  }
  auto& c = emit("Conv", {in(op, 0), wname, in(op, 2)}, {y});
  if (c.inputs[2].empty()) c.inputs.pop_back();
  c.attributes["kernel_shape"] = std::vector<std::int64_t>{kh, kw};
  c.attributes["strides"] = std::vector<std::int64_t>{o->stride_h(), o->stride_w()};
  c.attributes["dilations"] = std::vector<std::int64_t>{o->dilation_h_factor(), o->dilation_w_factor()};
  c.attributes["pads"] = pads;
  c.attributes["layout"] = std::string("NHWC");
  c.attributes["group"] = cin;
  const auto act = o->fused_activation_function();
  if (act == tflite::ActivationFunctionType::TANH || act == tflite::ActivationFunctionType::SIGN_BIT)
    fail(what + " has an unsupported fused activation");
  ir::set_fused_activation(c, ir_activation(act, what));
  return;
}

// FULLY_CONNECTED
void Reader::read_fully_connected(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  need(v, 2, 1);
  const auto* o = op->builtin_options_as_FullyConnectedOptions();
  const auto act = o ? o->fused_activation_function() : tflite::ActivationFunctionType::NONE;
  if (o && o->weights_format() != tflite::FullyConnectedOptionsWeightsFormat::DEFAULT)
    fail(what + " uses shuffled weights (not supported)");
  std::string x = in(op, 0);
  const ir::Tensor& w = t(in(op, 1));
  const ir::Tensor& xt = t(x);
  if (w.shape.rank() != 2 || !w.shape.dims[1].is_static()) fail(what + " needs a 2-D filter");
  if (xt.shape.rank() != 2 && !(o && o->keep_num_dims())) {
    ir::Tensor flat = xt;
    flat.name = fresh(x + "/flat");
    flat.data.reset();
    const auto n = xt.shape.num_elements();
    const std::int64_t k = w.shape.dims[1].value;
    flat.shape = n ? ir::Shape::of({*n / std::max<std::int64_t>(k, 1), k})
                   : ir::Shape{{ir::Dim::unknown(), ir::Dim::fixed(k)}, true};
    const std::string f = flat.name;
    graph_.add_tensor(std::move(flat));
    // named "<output>/flatten": the FULLY_CONNECTED's own flattening (backends/units.h)
    emit("Reshape", {x, add_i64(x + "/flat_shape", {-1, k})}, {f}, y + "/flatten");
    x = f;
  }
  auto& c = emit("FullyConnected", {x, in(op, 1), in(op, 2)}, {y});
  if (c.inputs[2].empty()) c.inputs.pop_back();
  if (act == tflite::ActivationFunctionType::TANH || act == tflite::ActivationFunctionType::SIGN_BIT)
    fail(what + " has an unsupported fused activation");
  ir::set_fused_activation(c, ir_activation(act, what));
  return;
}

// SHAPE, TOPK_V2, WHERE
void Reader::read_int_result(const OpView& v) {
  const auto* op = v.op;
  using B = BuiltinOperator;
  const auto b = v.b;
  const std::string& what = v.what;
  const std::string& y = v.y;
  // The IR's Shape / TopK / NonZero give int64 where TFLite's give int32 (SHAPE's out_type,
  // TOPK_V2's indices) or [n, rank] (WHERE): the IR op, then a Cast / Transpose to the file's.
  need(v, b == B::TOPK_V2 ? 2 : 1, 1);
  const std::size_t idx = b == B::TOPK_V2 ? 1 : 0;  // the int output
  const std::string target = out(op, idx);
  if (target.empty()) fail(what + " has no output " + std::to_string(idx));
  ir::Tensor w = t(target);
  w.name = fresh(target + "/int64");
  w.dtype = ir::DType::Int64;
  w.data.reset();
  w.shape = ir::Shape::unknown_rank();
  const std::string wide = w.name;
  graph_.add_tensor(std::move(w));
  if (b == B::SHAPE) {
    emit("Shape", {in(op, 0)}, {wide});
  } else if (b == B::TOPK_V2) {
    auto& k = emit("TopK", {in(op, 0), add_i64(y + "/k", const_ints(op, 1, what + " k"))}, {y, wide});
    k.attributes["axis"] = std::int64_t{-1};
    k.attributes["largest"] = std::int64_t{1};
    k.attributes["sorted"] = std::int64_t{1};
  } else {
    ir::Tensor nz = t(target);
    nz.name = fresh(target + "/nonzero");
    nz.dtype = ir::DType::Int64;
    nz.data.reset();
    nz.shape = ir::Shape::unknown_rank();
    const std::string n = nz.name;
    graph_.add_tensor(std::move(nz));
    emit("NonZero", {in(op, 0)}, {n});
    emit("Transpose", {n}, {wide}).attributes["perm"] = std::vector<std::int64_t>{1, 0};
  }
  if (t(target).dtype == ir::DType::Int64) {
    emit("Identity", {wide}, {target}, target);
  } else {
    emit("Cast", {wide}, {target}, target).attributes["to"] = std::string(ir::dtype_name(t(target).dtype));
  }
  return;
}

// TRANSPOSE_CONV
void Reader::read_transpose_conv(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  // Inputs: output_shape (NHWC), filter [Cout, KH, KW, Cin], input NHWC, optional bias.
  // The IR's ConvTranspose is NCHW with [Cin, Cout, KH, KW] weights: transpose around it.
  need(v, 3, 1);
  const auto* o = op->builtin_options_as_TransposeConvOptions();
  if (!o) fail(what + " has no TransposeConvOptions");
  const auto os = const_ints(op, 0, what + " output shape");
  if (os.size() != 4) fail(what + " output shape must have 4 values, has " + std::to_string(os.size()));
  const ir::Tensor& w = t(in(op, 1));
  const ir::Tensor& x = t(in(op, 2));
  if (!w.is_constant() || w.shape.rank() != 4 || !w.shape.is_static())
    fail(what + " needs a constant 4-D filter [Cout, KH, KW, Cin]");
  if (x.shape.rank() != 4 || !x.shape.dims[1].is_static() || !x.shape.dims[2].is_static())
    fail(what + " needs a 4-D input with static H, W");
  const auto ws = w.shape.sizes();
  const std::int64_t cout = ws[0], kh = ws[1], kw = ws[2], cin = ws[3];
  const std::int64_t sh = o->stride_h(), sw = o->stride_w();
  if (sh < 1 || sw < 1 || kh < 1 || kw < 1) fail(what + " has a stride or filter size below 1");
  if (os[3] != cout) fail(what + " output shape has " + std::to_string(os[3]) + " channels, the filter " + std::to_string(cout));
  if (x.shape.dims[3].is_static() && x.shape.dims[3].value != cin)
    fail(what + " input has " + std::to_string(x.shape.dims[3].value) + " channels, the filter " + std::to_string(cin));
  // TFLite pads as for a convolution from output_shape to the input: SAME puts
  // total / 2 before; whatever the full output has beyond output_shape is cut
  // at the end (pads), whatever it lacks is added there (output_padding).
  auto geom = [&](std::int64_t n, std::int64_t k, std::int64_t s, std::int64_t out, std::int64_t& pb,
                  std::int64_t& pe, std::int64_t& opad) {
    if (out < 1) fail(what + " output shape has a size below 1");
    pb = 0;
    if (o->padding() == tflite::Padding::SAME) {
      const std::int64_t conv_out = (out + s - 1) / s;
      pb = std::max<std::int64_t>((conv_out - 1) * s + k - out, 0) / 2;
    }
    const std::int64_t rest = s * (n - 1) + k - pb - out;
    pe = std::max<std::int64_t>(rest, 0);
    opad = std::max<std::int64_t>(-rest, 0);
  };
  std::int64_t pbh, peh, oph, pbw, pew, opw;
  geom(x.shape.dims[1].value, kh, sh, os[1], pbh, peh, oph);
  geom(x.shape.dims[2].value, kw, sw, os[2], pbw, pew, opw);
  // [Cout, KH, KW, Cin] -> [Cin, Cout, KH, KW]
  ir::Tensor wt = w;
  wt.name = fresh(w.name + "/iohw");
  {
    const std::size_t es = ir::dtype_size(w.dtype);
    if (es == 0 || w.data->size() != static_cast<std::size_t>(cout * kh * kw * cin) * es)
      fail(what + " filter type " + std::string(ir::dtype_name(w.dtype)) + " is not supported");
    std::vector<std::byte> buf(w.data->size());
    const std::byte* src = w.data->data();
    for (std::int64_t m = 0; m < cout; ++m)
      for (std::int64_t k = 0; k < kh * kw; ++k)
        for (std::int64_t c = 0; c < cin; ++c)
          std::memcpy(&buf[static_cast<std::size_t>((c * cout + m) * kh * kw + k) * es],
                      src + static_cast<std::size_t>((m * kh * kw + k) * cin + c) * es, es);
    wt.data = ir::ConstantData::from_vector(std::move(buf));
  }
  wt.shape = ir::Shape::of({cin, cout, kh, kw});
  if (wt.quant && wt.quant->scales.size() > 1) wt.quant->axis = 1;
  const std::string wname = wt.name;
  graph_.add_tensor(std::move(wt));
  auto mid = [&](const std::string& like, const std::string& base) {
    ir::Tensor m = t(like);
    m.name = fresh(base);
    m.data.reset();
    if (m.shape.rank_known && m.shape.rank() == 4)  // NHWC -> NCHW
      m.shape.dims = {m.shape.dims[0], m.shape.dims[3], m.shape.dims[1], m.shape.dims[2]};
    else
      m.shape = ir::Shape::unknown_rank();
    const std::string n = m.name;
    graph_.add_tensor(std::move(m));
    return n;
  };
  const std::string a = mid(in(op, 2), y + "/nchw_in"), c = mid(y, y + "/nchw_out");
  emit("Transpose", {in(op, 2)}, {a}).attributes["perm"] = std::vector<std::int64_t>{0, 3, 1, 2};
  auto& ct = emit("ConvTranspose", {a, wname, in(op, 3)}, {c});
  if (ct.inputs[2].empty()) ct.inputs.pop_back();
  ct.attributes["kernel_shape"] = std::vector<std::int64_t>{kh, kw};
  ct.attributes["strides"] = std::vector<std::int64_t>{sh, sw};
  ct.attributes["dilations"] = std::vector<std::int64_t>{1, 1};
  ct.attributes["pads"] = std::vector<std::int64_t>{pbh, pbw, peh, pew};
  if (oph || opw) ct.attributes["output_padding"] = std::vector<std::int64_t>{oph, opw};
  ct.attributes["group"] = std::int64_t{1};
  emit("Transpose", {c}, {with_activation(o->fused_activation_function(), y, what)}, y).attributes["perm"] =
      std::vector<std::int64_t>{0, 2, 3, 1};
  return;
}

// CONV_3D
void Reader::read_conv3d(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  // Input NDHWC, filter [KD, KH, KW, C, M]; the IR's Conv over NCDHW with [M, C, KD, KH, KW]
  // weights between two Transposes (the writer's mirror).
  need(v, 2, 1);
  const auto* o = op->builtin_options_as_Conv3DOptions();
  if (!o) fail(what + " has no Conv3DOptions");
  const ir::Tensor& w = t(in(op, 1));
  const ir::Tensor& x = t(in(op, 0));
  if (!w.is_constant() || w.shape.rank() != 5 || !w.shape.is_static() || w.dtype != ir::DType::Float32)
    fail(what + " needs a constant float 5-D filter [KD, KH, KW, C, M]");
  if (x.shape.rank() != 5 || !x.shape.is_static()) fail(what + " needs a static 5-D input");
  const auto ws = w.shape.sizes(), xs = x.shape.sizes();
  const std::int64_t taps = ws[0] * ws[1] * ws[2], C = ws[3], M = ws[4];
  if (xs[4] != C) fail(what + " input has " + std::to_string(xs[4]) + " channels, the filter " + std::to_string(C));
  if (w.data->size() != static_cast<std::size_t>(taps * C * M) * 4) fail(what + " filter size does not match its shape");
  const std::int64_t st[3] = {o->stride_d(), o->stride_h(), o->stride_w()};
  const std::int64_t dl[3] = {o->dilation_d_factor(), o->dilation_h_factor(), o->dilation_w_factor()};
  std::vector<std::int64_t> pads(6, 0);
  for (int i = 0; i < 3; ++i) {
    if (st[i] < 1 || dl[i] < 1) fail(what + " has a stride or dilation below 1");
    if (o->padding() == tflite::Padding::SAME) {
      const std::int64_t out = (xs[1 + i] + st[i] - 1) / st[i];
      const std::int64_t total = std::max<std::int64_t>((out - 1) * st[i] + (ws[i] - 1) * dl[i] + 1 - xs[1 + i], 0);
      pads[static_cast<std::size_t>(i)] = total / 2;
      pads[static_cast<std::size_t>(i + 3)] = total - total / 2;
    }
  }
  std::vector<float> buf(static_cast<std::size_t>(taps * C * M));
  const auto src = w.data->as<float>();
  for (std::int64_t k = 0; k < taps; ++k)
    for (std::int64_t c = 0; c < C; ++c)
      for (std::int64_t m = 0; m < M; ++m)
        buf[static_cast<std::size_t>((m * C + c) * taps + k)] = src[static_cast<std::size_t>((k * C + c) * M + m)];
  ir::Tensor wt;
  wt.name = fresh(w.name + "/oidhw");
  wt.dtype = ir::DType::Float32;
  wt.shape = ir::Shape::of({M, C, ws[0], ws[1], ws[2]});
  wt.data = ir::ConstantData::copy_of(buf.data(), buf.size() * 4);
  const std::string wname = wt.name;
  graph_.add_tensor(std::move(wt));
  auto ncdhw = [&](const std::string& like, const std::string& base) {
    ir::Tensor m = t(like);
    m.name = fresh(base);
    m.data.reset();
    if (m.shape.rank_known && m.shape.rank() == 5)
      m.shape.dims = {m.shape.dims[0], m.shape.dims[4], m.shape.dims[1], m.shape.dims[2], m.shape.dims[3]};
    else
      m.shape = ir::Shape::unknown_rank();
    const std::string n = m.name;
    graph_.add_tensor(std::move(m));
    return n;
  };
  const std::string a = ncdhw(in(op, 0), y + "/ncdhw_in"), c = ncdhw(y, y + "/ncdhw_out");
  emit("Transpose", {in(op, 0)}, {a}).attributes["perm"] = std::vector<std::int64_t>{0, 4, 1, 2, 3};
  auto& cv = emit("Conv", {a, wname, in(op, 2)}, {c});
  if (cv.inputs[2].empty()) cv.inputs.pop_back();
  cv.attributes["kernel_shape"] = std::vector<std::int64_t>{ws[0], ws[1], ws[2]};
  cv.attributes["strides"] = std::vector<std::int64_t>{st[0], st[1], st[2]};
  cv.attributes["dilations"] = std::vector<std::int64_t>{dl[0], dl[1], dl[2]};
  cv.attributes["pads"] = pads;
  cv.attributes["group"] = std::int64_t{1};
  emit("Transpose", {c}, {with_activation(o->fused_activation_function(), y, what)}, y).attributes["perm"] =
      std::vector<std::int64_t>{0, 2, 3, 4, 1};
  return;
}

// UNIDIRECTIONAL_/BIDIRECTIONAL_SEQUENCE_LSTM
void Reader::read_sequence_lstm(const OpView& v) {
  const auto* op = v.op;
  using B = BuiltinOperator;
  const auto b = v.b;
  const std::string& what = v.what;
  const std::string& y = v.y;
  const std::size_t nin = v.nin;
  const std::size_t nout = v.nout;
  // The IR's LSTM (ONNX semantics: W, R, B of gates i, o, f, c; Wb + Rb = TFLite's gate bias)
  // over the same input, its Y reshaped to TFLite's [T, B, dirs * H] (batch-major: [B, T, ...]).
  // Supported as the writer writes them: sigmoid/tanh/tanh, no CIFG, projection, layer
  // normalisation, clip or auxiliary input; the states start at zero.
  const bool bi = b == B::BIDIRECTIONAL_SEQUENCE_LSTM;
  if (nin < (bi ? 48u : 20u) || nout < 1 || in(op, 0).empty())
    fail(what + " has " + std::to_string(nin) + " inputs and " + std::to_string(nout) + " outputs, needs " +
         (bi ? "48" : "20 or 24") + " and 1");
  bool time_major = true;
  tflite::ActivationFunctionType act = tflite::ActivationFunctionType::NONE;
  float cell_clip = 0.f, proj_clip = 0.f;
  if (bi) {
    const auto* o = op->builtin_options_as_BidirectionalSequenceLSTMOptions();
    if (!o) fail(what + " has no BidirectionalSequenceLSTMOptions");
    if (!o->merge_outputs() || nout != 1) fail(what + " with separate forward and backward outputs is not supported; merge_outputs is");
    time_major = o->time_major();
    act = o->fused_activation_function();
    cell_clip = o->cell_clip();
    proj_clip = o->proj_clip();
    for (std::size_t i = 39; i < 48; ++i)
      if (!in(op, i).empty()) fail(what + " with an auxiliary input is not supported");
  } else {
    const auto* o = op->builtin_options_as_UnidirectionalSequenceLSTMOptions();
    if (!o) fail(what + " has no UnidirectionalSequenceLSTMOptions");
    time_major = o->time_major();
    act = o->fused_activation_function();
    cell_clip = o->cell_clip();
    proj_clip = o->proj_clip();
    for (std::size_t i = 20; i < nin; ++i)
      if (!in(op, i).empty()) fail(what + " with layer normalisation is not supported");
  }
  if (act != tflite::ActivationFunctionType::TANH) fail(what + " has cell activation " + std::string(tflite::EnumNameActivationFunctionType(act)) + "; only TANH is supported");
  if (cell_clip != 0.f || proj_clip != 0.f) fail(what + " clips its cell or projection; not supported");
  const ir::Tensor& x = t(in(op, 0));
  if (x.dtype != ir::DType::Float32 || x.quant || !x.shape.rank_known || x.shape.rank() != 3 || !x.shape.is_static())
    fail(what + " needs a float input of static shape [T, B, I]");
  const auto xs = x.shape.sizes();
  const std::int64_t I = xs[2];
  const std::int64_t dirs = bi ? 2 : 1;
  // one direction's cell: inputs first .. first + 16
  auto values = [&](std::size_t i, std::int64_t count, const char* role) {
    const std::string n = in(op, i);
    if (n.empty()) fail(what + " has no " + role);
    const ir::Tensor& c = t(n);
    if (!c.is_constant() || c.dtype != ir::DType::Float32 || c.data->size() != static_cast<std::size_t>(count) * 4)
      fail(what + " " + role + " '" + n + "' must be a float constant of " + std::to_string(count) + " values");
    const auto v = c.data->as<float>();
    return std::vector<float>(v.begin(), v.end());
  };
  const std::string forget_w = in(op, 2);
  if (forget_w.empty() || !t(forget_w).shape.is_static() || t(forget_w).shape.rank() != 2)
    fail(what + " needs a 2-D input-to-forget weight");
  const std::int64_t H = t(forget_w).shape.sizes()[0];
  if (H < 1 || H > (std::int64_t{1} << 20) || I < 1 || I > (std::int64_t{1} << 20) || t(forget_w).shape.sizes()[1] != I)
    fail(what + " input-to-forget weight does not match the input");
  constexpr std::array<std::size_t, 4> kTflGate{0, 3, 1, 2};  // ONNX gate i, o, f, c -> TFLite i, f, c, o
  std::vector<float> W, R, Bv, P;
  bool peepholes = false;
  for (std::int64_t d = 0; d < dirs; ++d) {
    const std::size_t first = 1 + static_cast<std::size_t>(d) * 17;
    if (in(op, first).empty() || in(op, first + 4).empty())
      fail(what + " without an input gate (CIFG) is not supported");
    if (!in(op, first + 15).empty() || !in(op, first + 16).empty()) fail(what + " with a projection is not supported");
    const bool pd = !in(op, first + 8).empty() || !in(op, first + 9).empty() || !in(op, first + 10).empty();
    if (d > 0 && pd != peepholes) fail(what + " has peepholes in one direction only");
    peepholes = pd;
    for (std::size_t g : kTflGate) {
      const auto w = values(first + g, H * I, "input weight");
      W.insert(W.end(), w.begin(), w.end());
    }
    for (std::size_t g : kTflGate) {
      const auto r = values(first + 4 + g, H * H, "recurrent weight");
      R.insert(R.end(), r.begin(), r.end());
    }
    for (std::size_t g : kTflGate) {
      const auto bias = values(first + 11 + g, H, "gate bias");
      Bv.insert(Bv.end(), bias.begin(), bias.end());
    }
    Bv.insert(Bv.end(), static_cast<std::size_t>(4 * H), 0.f);  // Rb
    if (pd)
      for (std::size_t k : {0, 2, 1}) {  // ONNX P: i, o, f; TFLite cell_to_input, _forget, _output
        const auto p = values(first + 8 + k, H, "peephole weight");
        P.insert(P.end(), p.begin(), p.end());
      }
  }
  auto add_const = [&](const std::string& base, const std::vector<std::int64_t>& shape, const std::vector<float>& v) {
    ir::Tensor c;
    c.name = fresh(base);
    c.dtype = ir::DType::Float32;
    c.shape = ir::Shape::of(shape);
    c.data = ir::ConstantData::copy_of(v.data(), v.size() * sizeof(float));
    const std::string n = c.name;
    graph_.add_tensor(std::move(c));
    return n;
  };
  std::vector<std::string> ins{in(op, 0), add_const(y + "/W", {dirs, 4 * H, I}, W), add_const(y + "/R", {dirs, 4 * H, H}, R),
                               add_const(y + "/B", {dirs, 8 * H}, Bv)};
  if (peepholes) ins.insert(ins.end(), {"", "", "", add_const(y + "/P", {dirs, 3 * H}, P)});
  ir::Tensor yt = t(y);
  yt.name = fresh(y + "/onnx_y");
  yt.data.reset();
  yt.shape = ir::Shape::unknown_rank();
  const std::string onnx_y = yt.name;
  graph_.add_tensor(std::move(yt));
  auto& l = emit("LSTM", ins, {onnx_y});
  l.attributes["hidden_size"] = H;
  l.attributes["direction"] = std::string(bi ? "bidirectional" : "forward");
  l.attributes["layout"] = std::int64_t{time_major ? 0 : 1};
  const std::int64_t T = time_major ? xs[0] : xs[1], Bn = time_major ? xs[1] : xs[0];
  std::string seq = onnx_y;
  if (bi && time_major) {  // [T, 2, B, H] -> [T, B, 2, H]
    ir::Tensor tt = t(y);
    tt.name = fresh(y + "/directions_last");
    tt.data.reset();
    tt.shape = ir::Shape::unknown_rank();
    seq = tt.name;
    graph_.add_tensor(std::move(tt));
    emit("Transpose", {onnx_y}, {seq}).attributes["perm"] = std::vector<std::int64_t>{0, 2, 1, 3};
  }
  emit("Reshape", {seq, add_i64(y + "/shape", time_major ? std::vector<std::int64_t>{T, Bn, dirs * H}
                                                           : std::vector<std::int64_t>{Bn, T, dirs * H})},
       {y});
  return;
}

// QUANTIZE
void Reader::read_quantize(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  need(v, 1, 1);
  const ir::Tensor& yt = t(y);
  if (!yt.quant) fail(what + " output '" + y + "' has no quantisation params");
  if (t(in(op, 0)).dtype != ir::DType::Float32) {  // requantisation: same values, new params
    emit("Identity", {in(op, 0)}, {y});
    return;
  }
  ir::Tensor s, z;
  s.name = fresh(y + "/scale");
  s.dtype = ir::DType::Float32;
  z.name = fresh(y + "/zero_point");
  z.dtype = yt.dtype;
  const bool pc = yt.quant->scales.size() > 1;
  const auto nq = static_cast<std::int64_t>(yt.quant->scales.size());
  s.shape = pc ? ir::Shape::of({nq}) : ir::Shape::of(std::vector<std::int64_t>{});
  z.shape = s.shape;
  s.data = ir::ConstantData::copy_of(yt.quant->scales.data(), yt.quant->scales.size() * 4);
  std::vector<std::byte> zb;
  for (std::size_t i = 0; i < yt.quant->scales.size(); ++i) {
    const std::int64_t zp = yt.quant->zero_points[yt.quant->zero_points.size() == 1 ? 0 : i];
    if (ir::dtype_size(yt.dtype) == 1) zb.push_back(static_cast<std::byte>(static_cast<std::uint8_t>(zp)));
    else if (yt.dtype == ir::DType::Int16) { const auto v = static_cast<std::int16_t>(zp); const auto* p = reinterpret_cast<const std::byte*>(&v); zb.insert(zb.end(), p, p + 2); }
    else fail(what + " quantises to " + std::string(ir::dtype_name(yt.dtype)) + " (not supported)");
  }
  z.data = ir::ConstantData::from_vector(std::move(zb));
  const std::string sn = s.name, zn = z.name;
  graph_.add_tensor(std::move(s));
  graph_.add_tensor(std::move(z));
  auto& q = emit("QuantizeLinear", {in(op, 0), sn, zn}, {y});
  if (pc) q.attributes["axis"] = std::int64_t{yt.quant->axis};
  return;
}

// DEQUANTIZE
void Reader::read_dequantize(const OpView& v) {
  const auto* op = v.op;
  const std::string& what = v.what;
  const std::string& y = v.y;
  need(v, 1, 1);
  const ir::Tensor& x = t(in(op, 0));
  if (x.dtype == ir::DType::Float16) {
    emit("Cast", {in(op, 0)}, {y}).attributes["to"] = std::string("f32");
    return;
  }
  if (!x.quant) fail(what + " input '" + x.name + "' has no quantisation params");
  ir::Tensor s, z;
  s.name = fresh(y + "/scale");
  s.dtype = ir::DType::Float32;
  z.name = fresh(y + "/zero_point");
  z.dtype = x.dtype;
  const bool pc = x.quant->scales.size() > 1;
  const auto nq = static_cast<std::int64_t>(x.quant->scales.size());
  s.shape = pc ? ir::Shape::of({nq}) : ir::Shape::of(std::vector<std::int64_t>{});
  z.shape = s.shape;
  s.data = ir::ConstantData::copy_of(x.quant->scales.data(), x.quant->scales.size() * 4);
  std::vector<std::byte> zb;
  for (std::size_t i = 0; i < x.quant->scales.size(); ++i) {
    const std::int64_t zp = x.quant->zero_points[x.quant->zero_points.size() == 1 ? 0 : i];
    if (ir::dtype_size(x.dtype) == 1) zb.push_back(static_cast<std::byte>(static_cast<std::uint8_t>(zp)));
    else if (x.dtype == ir::DType::Int16) { const auto v = static_cast<std::int16_t>(zp); const auto* p = reinterpret_cast<const std::byte*>(&v); zb.insert(zb.end(), p, p + 2); }
    else if (x.dtype == ir::DType::Int32) { const auto v = static_cast<std::int32_t>(zp); const auto* p = reinterpret_cast<const std::byte*>(&v); zb.insert(zb.end(), p, p + 4); }
    else fail(what + " dequantises " + std::string(ir::dtype_name(x.dtype)) + " (not supported)");
  }
  z.data = ir::ConstantData::from_vector(std::move(zb));
  const std::string sn = s.name, zn = z.name;
  graph_.add_tensor(std::move(s));
  graph_.add_tensor(std::move(z));
  auto& d = emit("DequantizeLinear", {in(op, 0), sn, zn}, {y});
  if (pc) d.attributes["axis"] = std::int64_t{x.quant->axis};
  return;
}

ir::Graph Reader::read() {
  verify();
  check_subgraph_calls();
  const auto* sg = model_->subgraphs()->Get(0);
  graph_.name = sg->name() && sg->name()->size() ? sg->name()->str() : "main";
  import_tensors();
  for (int i : execution_order()) {
    import_op(i);
    flush_activations();
  }
  if (sg->inputs())
    for (std::int32_t i : *sg->inputs()) {
      const auto& n = names_[static_cast<std::size_t>(i)];
      if (!graph_.find_tensor(n)->is_constant()) graph_.inputs.push_back(n);
    }
  if (sg->outputs())
    for (std::int32_t i : *sg->outputs()) graph_.outputs.push_back(names_[static_cast<std::size_t>(i)]);

  // TFLite files keep a few tensors nothing reads or writes (unused intermediates).
  ir::drop_unused_tensors(graph_);

  auto& md = graph_.metadata;
  md["source.format"] = "tflite";
  md["tflite.schema_version"] = std::to_string(model_->version());
  if (model_->description() && model_->description()->size()) md["source.producer"] = model_->description()->str();
  std::string counts;
  for (const auto& [k, v] : op_counts_) counts += (counts.empty() ? "" : ", ") + k + " " + std::to_string(v);
  md["tflite.ops_by_type"] = counts;
  md["tflite.subgraphs"] = std::to_string(model_->subgraphs()->size());
  if (model_->metadata())
    for (const auto* m : *model_->metadata()) {
      const std::string name = m->name() ? m->name()->str() : std::string("unnamed");
      const auto* b = model_->buffers()->Get(m->buffer());
      const std::size_t n = b->data() ? b->data()->size() : 0;
      if (name == "min_runtime_version" && n) {
        std::string v(reinterpret_cast<const char*>(b->data()->data()), n);
        v = v.substr(0, v.find('\0'));
        bool printable = std::all_of(v.begin(), v.end(), [](char c) { return c >= 32 && c < 127; });
        md["tflite.min_runtime_version"] = printable ? v : "(unreadable)";
      } else {
        md["tflite.metadata." + name] = std::to_string(n) + " bytes";
      }
    }
  if (model_->signature_defs()) {
    std::string sigs;
    for (const auto* s : *model_->signature_defs()) {
      std::string one = s->signature_key() ? s->signature_key()->str() : std::string("(unnamed)");
      auto list = [&](const fb::Vector<fb::Offset<tflite::TensorMap>>* v) {
        std::string r;
        if (v)
          for (const auto* m : *v) r += (r.empty() ? "" : ", ") + (m->name() ? m->name()->str() : std::string());
        return r;
      };
      one += "(" + list(s->inputs()) + " -> " + list(s->outputs()) + ")";
      sigs += (sigs.empty() ? "" : "; ") + one;
    }
    if (!sigs.empty()) md["tflite.signatures"] = sigs;
  }

  for (const auto& issue : ir::validate(graph_))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      fail("invalid graph after import: " + ir::to_string(issue));
  return std::move(graph_);
}

}  // namespace

float TfliteFrontend::match(std::span<const std::byte> head, const std::string& path) const {
  const bool ext = path.size() >= 7 && path.compare(path.size() - 7, 7, ".tflite") == 0;
  if (head.size() >= 8 && std::memcmp(head.data() + 4, "TFL3", 4) == 0) return 1.0f;
  return ext ? 0.3f : 0.0f;
}

ir::Graph TfliteFrontend::open(const std::string& path, const OpenOptions& opts) const {
  auto bytes = std::make_shared<std::string>(util::read_regular_file(path, util::kMaxReadBytes, path));
  return load_tflite(std::move(bytes), path, opts);
}

ir::Graph load_tflite(std::shared_ptr<const std::string> bytes, const std::string& path, const OpenOptions& opts) {
  return Reader(std::move(bytes), path, opts).read();
}

std::unique_ptr<Frontend> make_tflite_frontend() { return std::make_unique<TfliteFrontend>(); }

}  // namespace ec::frontends
