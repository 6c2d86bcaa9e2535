// The TorchScript importer: load, freeze, inline, then walk the graph while
// executing it on a sample input (see importer.h).
#include <torch/csrc/jit/api/module.h>
#include <torch/csrc/jit/passes/inliner.h>
#include <torch/csrc/jit/passes/remove_mutation.h>
#include <malloc.h>
#include <torch/script.h>
#include <torch/version.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <limits>
#include <sstream>

#include "core/frontends/torchscript/plugin/importer.h"
#include "core/frontends/torchscript/torchscript_plugin_abi.h"
#include "core/ir/excerpt.h"
#include "core/ir/shape_inference.h"
#include "core/ir/validate.h"

namespace ec::frontends::torchscript {
namespace {

using torch::jit::Node;
using torch::jit::Value;

// The first non-blank line of a libtorch message (they often start with a newline).
std::string first_line(const std::string& s) {
  std::size_t b = 0;
  while (b < s.size()) {
    const auto nl = std::min(s.find('\n', b), s.size());
    const std::string line = s.substr(b, nl - b);
    if (line.find_first_not_of(" \t\r") != std::string::npos) return bounded_message(line, 160);
    b = nl + 1;
  }
  return "(no message)";
}

std::string torch_message(const c10::Error& e) { return first_line(e.what_without_backtrace()); }


std::string sanitize(std::string s) {
  for (char& c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '/' || c == ':')) c = '_';
  return s.empty() ? "t" : s;
}

// Does any use of `v`, directly or through aliasing ops, index an embedding table?
bool feeds_indices(const Value* v, int depth = 0) {
  if (depth > 8) return false;
  for (const auto& use : v->uses()) {
    const std::string k = use.user->kind().toQualString();
    if ((k == "aten::embedding" && use.offset == 1) || (k == "aten::embedding_bag" && use.offset == 1)) return true;
    if (k == "aten::contiguous" || k == "aten::to" || k == "aten::view" || k == "aten::reshape")
      if (feeds_indices(use.user->output(), depth + 1)) return true;
  }
  return false;
}

// Ops whose results alias or equal their first input in inference.
bool is_identity(std::string_view k) {
  static const char* const kIds[] = {"aten::contiguous", "aten::detach",       "aten::clone",   "aten::dropout",
                                     "aten::feature_dropout", "aten::alpha_dropout", "prim::unchecked_cast",
                                     "aten::alias",  "aten::dropout_",        "aten::lift_fresh", "aten::dequantize"};
  return std::any_of(std::begin(kIds), std::end(kIds), [&](const char* s) { return k == s; });
}

// A tensor from the archive must lie inside its storage: data.pkl and constants.pkl give
// sizes, strides and offsets that libtorch does not check against the bytes it read, and an
// op on a tensor that reaches past them reads outside the buffer.
bool inside_storage(const at::Tensor& t) {
  if (!t.defined() || t.is_quantized() || !t.has_storage()) return true;
  if (t.numel() == 0) return true;
  std::int64_t last = t.storage_offset();
  if (last < 0) return false;
  for (std::int64_t d = 0; d < t.dim(); ++d) {
    if (t.stride(d) < 0) return false;
    if (t.size(d) > 1 && t.stride(d) > (std::numeric_limits<std::int64_t>::max() - last) / (t.size(d) - 1)) return false;
    last += (t.size(d) - 1) * t.stride(d);
  }
  const auto bytes = static_cast<std::uint64_t>(t.storage().nbytes());
  if (t.storage().data() == nullptr) return false;  // a data/N record shorter than its storage: no bytes at all
  // libtorch sizes a loaded storage from data.pkl, not from its record: a record cut short
  // gives a storage larger than its allocation. The CPU allocator's blocks come from
  // posix_memalign (c10::alloc_cpu; the block is its own context), whose usable size bounds
  // the bytes that really exist.
  const auto& dp = t.storage().data_ptr();
  if (dp.device().is_cpu() && dp.get_deleter() != nullptr && dp.get_context() == dp.get() &&
      bytes > ::malloc_usable_size(const_cast<void*>(dp.get())))
    return false;
  const auto item = static_cast<std::uint64_t>(t.element_size());
  return item != 0 && static_cast<std::uint64_t>(last) < bytes / item;
}

bool values_inside_storage(const c10::IValue& v) {
  if (v.isTensor()) return inside_storage(v.toTensor());
  if (v.isTensorList())
    for (const auto& t : v.toTensorVector())
      if (!inside_storage(t)) return false;
  if (v.isTuple())
    for (const auto& e : v.toTupleRef().elements())
      if (!values_inside_storage(e)) return false;
  return true;
}

}  // namespace

ir::DType dtype_of(at::ScalarType t) {
  switch (t) {
    case at::kFloat: return ir::DType::Float32;
    case at::kDouble: return ir::DType::Float64;
    case at::kHalf: return ir::DType::Float16;
    case at::kBFloat16: return ir::DType::BFloat16;
    case at::kLong: return ir::DType::Int64;
    case at::kInt: return ir::DType::Int32;
    case at::kShort: return ir::DType::Int16;
    case at::kChar: return ir::DType::Int8;
    case at::kByte: return ir::DType::UInt8;
    case at::kBool: return ir::DType::Bool;
    default: return ir::DType::Undefined;
  }
}

// --- Args

std::size_t Args::size() const { return node_->inputs().size(); }
const Slot& Args::slot(std::size_t i) const { return im_.slot_of(node_->input(i)); }
bool Args::is_none(std::size_t i) const { return i >= size() || (!slot(i).data && slot(i).value.isNone()); }
const c10::IValue& Args::known(std::size_t i) const {
  const Slot& s = slot(i);
  if (s.data)
    im_.refuse("argument " + std::to_string(i) + " is computed from the input's values; only tensors may be");
  return s.value;
}
std::vector<std::int64_t> Args::ints(std::size_t i) const {
  const auto& v = known(i);
  if (v.isInt()) return {v.toInt()};
  return v.toIntVector();
}
at::Tensor Args::actual(std::size_t i) const { return slot(i).value.toTensor(); }
std::string Args::tensor(std::size_t i, int like) const {
  const Slot& s = slot(i);
  if (s.data) {
    if (s.ir.empty()) im_.refuse("argument " + std::to_string(i) + " is a list where a tensor is expected");
    return s.ir;
  }
  if (s.value.isTensor()) return im_.constant(s.value.toTensor(), node_->input(i)->debugName());
  if (s.value.isScalar() || s.value.isBool()) {
    at::ScalarType st = at::kFloat;
    if (like >= 0 && static_cast<std::size_t>(like) < size() && slot(like).value.isTensor())
      st = slot(like).value.toTensor().scalar_type();
    else if (s.value.isInt())
      st = at::kLong;
    return im_.constant(at::scalar_tensor(s.value.toScalar(), at::TensorOptions().dtype(st)), "scalar");
  }
  im_.refuse("argument " + std::to_string(i) + " is neither a tensor nor a number");
}

// --- Importer

const Slot& Importer::slot_of(const Value* v) const {
  const auto it = env_.find(v);
  if (it == env_.end()) refuse("value %" + v->debugName() + " is used before it is computed");
  return it->second;
}

void Importer::refuse(const std::string& why, bool unsupported) const {
  throw ImportError{where() + why, unsupported};
}

std::string Importer::where() const {
  if (!current_) return "";
  const std::string scope = scope_of(current_);
  return "at " + (scope.empty() ? std::string("forward") : scope) + " (" + current_->kind().toQualString() + "): ";
}

std::string Importer::scope_of(const Node* n) const {
  std::string path;
  if (auto cs = n->callstack()) {
    for (const auto& entry : (*cs)->vec()) {
      const auto& info = std::get<2>(entry);
      if (info && !info->instance_name().empty() && info->instance_name() != "SELF") path += (path.empty() ? "" : "/") + info->instance_name();
    }
  }
  auto* mn = const_cast<Node*>(n);  // Node::scope() is not const in libtorch 1.13
  if (path.empty() && mn->scope() && !mn->scope()->isBlank()) {
    // A traced scope: "__module.features/__module.features.0" -> "features/0".
    std::string names = mn->scope()->namesFromRoot();
    const auto slash = names.rfind('/');
    std::string last = slash == std::string::npos ? names : names.substr(slash + 1);
    if (last.rfind("__module.", 0) == 0) last = last.substr(9);
    std::replace(last.begin(), last.end(), '.', '/');
    path = last;
  }
  return path;
}

std::string Importer::unique_op_name(const std::string& base) {
  const int n = op_names_[base]++;
  return n == 0 ? base : base + "_" + std::to_string(n);
}

std::string Importer::constant(const at::Tensor& t0, const std::string& hint) {
  at::Tensor t = t0.contiguous();
  if (t.scalar_type() == at::kDouble) t = t.to(at::kFloat);  // the IR's kernels are float32
  std::ostringstream key;
  key << t0.data_ptr() << ':' << t0.sizes() << ':' << t0.strides() << ':' << int(t.scalar_type());
  if (const auto it = constants_.find(key.str()); it != constants_.end()) return it->second;
  keep_.push_back(t0);
  const ir::DType dt = dtype_of(t.scalar_type());
  if (dt == ir::DType::Undefined) refuse(std::string("a constant of dtype ") + c10::toString(t.scalar_type()) + " has no IR type");
  ir::Tensor c;
  c.name = sanitize(hint) + "_const" + std::to_string(counter_++);
  c.dtype = dt;
  c.shape = ir::Shape::of(std::vector<std::int64_t>(t.sizes().begin(), t.sizes().end()));
  c.data = ir::ConstantData::copy_of(t.data_ptr(), static_cast<std::size_t>(t.numel()) * t.element_size());
  const std::string name = c.name;
  g_.add_tensor(std::move(c));
  return constants_[key.str()] = name;
}

std::string Importer::constant_ints(const std::vector<std::int64_t>& v, const std::string& hint) {
  return constant(torch::tensor(v, at::TensorOptions().dtype(at::kLong)), hint);
}

std::vector<std::string> Importer::emit(const std::string& op_type, std::vector<std::string> inputs,
                                        std::map<std::string, ir::Attribute> attrs,
                                        const std::vector<at::Tensor>& results, const std::string& suffix) {
  ir::Operation op;
  const std::string scope = current_ ? scope_of(current_) : "";
  op.name = unique_op_name("/" + scope + (scope.empty() ? "" : "/") + op_type + suffix);
  op.op_type = op_type;
  if (auto k = ir::op_kind_from_name(op_type)) op.kind = *k;
  op.inputs = std::move(inputs);
  op.attributes = std::move(attrs);
  std::vector<std::string> names;
  for (std::size_t i = 0; i < results.size(); ++i) {
    ir::Tensor t;
    t.name = sanitize(op.name.substr(1)) + (results.size() > 1 ? "_out" + std::to_string(i) : "_out") ;
    const at::Tensor& r = results[i];
    if (r.defined()) {
      // Quantised tensors are held as their dequantised float values (QDQ form).
      t.dtype = r.is_quantized() ? ir::DType::Float32 : dtype_of(r.scalar_type() == at::kDouble ? at::kFloat : r.scalar_type());
      t.shape = ir::Shape::of(std::vector<std::int64_t>(r.sizes().begin(), r.sizes().end()));
    }
    names.push_back(t.name);
    g_.add_tensor(std::move(t));
  }
  op.outputs = names;
  g_.ops.push_back(std::move(op));
  return names;
}

void Importer::bind_data_outputs(const Node* n, const std::vector<std::string>& names) {
  // Tensor outputs take names in order; a tensor-list output takes the rest.
  std::size_t next = 0;
  for (std::size_t i = 0; i < n->outputs().size(); ++i) {
    Slot s;
    s.value = current_results_.at(i);
    s.data = true;
    if (s.value.isTensor()) {
      if (next >= names.size()) refuse("the op's mapping produced too few outputs");
      s.ir = names[next++];
    } else if (s.value.isTensorList() || s.value.isList()) {
      const auto list = s.value.toList();
      for (std::size_t k = 0; k < list.size(); ++k) {
        if (next >= names.size()) refuse("the op's mapping produced too few list outputs");
        Slot item;
        item.value = list.get(k);
        item.data = true;
        item.ir = names[next++];
        s.items.push_back(std::move(item));
      }
    }
    env_[n->output(i)] = std::move(s);
  }
}

void Importer::walk(const torch::jit::Block* block) {
  for (const Node* n : block->nodes()) visit(n);
}

void Importer::visit(const Node* n) {
  current_ = n;
  const std::string kind = n->kind().toQualString();

  if (kind == "prim::Constant") {
    auto v = torch::jit::toIValue(n->output()).value_or(c10::IValue());
    if (!values_inside_storage(v)) refuse("a constant tensor reaches past its stored bytes; the archive is damaged");
    env_[n->output()] = Slot{std::move(v)};
    return;
  }
  if (kind == "prim::RaiseException") refuse("the model raises an exception for inputs of these shapes");
  if (kind == "prim::If") {
    const Slot& cond = slot_of(n->input(0));
    if (cond.data) refuse("control flow on the input's values is not supported (the branch must depend on shapes only)");
    const auto* block = n->blocks()[cond.value.toBool() ? 0 : 1];
    walk(block);
    current_ = n;
    std::vector<Slot> outs;
    for (const Value* v : block->outputs()) outs.push_back(slot_of(v));
    for (std::size_t i = 0; i < n->outputs().size(); ++i) env_[n->output(i)] = outs.at(i);
    return;
  }
  if (kind == "prim::Loop") {
    const Slot& trip = slot_of(n->input(0));
    const Slot& cond0 = slot_of(n->input(1));
    if (trip.data || cond0.data) refuse("a loop whose count depends on the input's values is not supported");
    const auto* body = n->blocks()[0];
    std::vector<Slot> carried;
    for (std::size_t i = 2; i < n->inputs().size(); ++i) carried.push_back(slot_of(n->input(i)));
    const std::int64_t max_trip = trip.value.toInt();
    bool go = cond0.value.toBool();
    constexpr std::int64_t kMaxUnroll = 4096;
    for (std::int64_t it = 0; go && it < max_trip; ++it) {
      if (it >= kMaxUnroll) refuse("a loop of more than 4096 iterations is not unrolled");
      env_[body->inputs()[0]] = Slot{c10::IValue(it)};
      for (std::size_t k = 0; k < carried.size(); ++k) env_[body->inputs()[k + 1]] = carried[k];
      walk(body);
      current_ = n;
      const Slot& c = slot_of(body->outputs()[0]);
      if (c.data) refuse("a loop condition depends on the input's values");
      go = c.value.toBool();
      for (std::size_t k = 0; k < carried.size(); ++k) carried[k] = slot_of(body->outputs()[k + 1]);
    }
    for (std::size_t k = 0; k < carried.size(); ++k) env_[n->output(k)] = carried[k];
    return;
  }

  bool any_data = false;
  for (const Value* v : n->inputs()) any_data |= slot_of(v).data;

  // List and tuple plumbing, built here (libtorch finds no operator for some list
  // types); data-dependent elements stay known one by one.
  if (kind == "prim::ListConstruct" || kind == "prim::TupleConstruct") {
    Slot s;
    s.data = any_data;
    std::vector<c10::IValue> vals;
    for (const Value* v : n->inputs()) {
      if (any_data) s.items.push_back(slot_of(v));
      vals.push_back(slot_of(v).value);
    }
    if (kind == "prim::TupleConstruct") {
      s.value = c10::ivalue::Tuple::create(std::move(vals));
    } else {
      const auto lt = n->output()->type()->cast<c10::ListType>();
      if (!lt) refuse("a list of an unknown type");
      c10::impl::GenericList list(lt->getElementType());
      for (auto& v : vals) list.push_back(std::move(v));
      s.value = c10::IValue(std::move(list));
    }
    env_[n->output()] = std::move(s);
    return;
  }
  if (!any_data && (kind == "prim::ListUnpack" || kind == "prim::TupleUnpack")) {
    const c10::IValue& in = slot_of(n->input(0)).value;
    std::vector<c10::IValue> elems;
    if (in.isTuple()) elems = in.toTupleRef().elements().vec();
    else for (const auto& e : in.toListRef()) elems.push_back(e);
    if (elems.size() != n->outputs().size()) refuse("unpacks a list of another length");
    for (std::size_t i = 0; i < elems.size(); ++i) env_[n->output(i)] = Slot{elems[i]};
    return;
  }
  if (any_data && (kind == "prim::ListUnpack" || kind == "prim::TupleUnpack")) {
    const Slot& in = slot_of(n->input(0));
    if (in.items.size() != n->outputs().size()) refuse("unpacks a list whose elements are not known one by one");
    for (std::size_t i = 0; i < n->outputs().size(); ++i) env_[n->output(i)] = in.items[i];
    return;
  }
  if (kind == "prim::DictConstruct") {  // key, value, key, value, ...
    Slot s;
    s.data = any_data;
    const auto dt = n->output()->type()->cast<c10::DictType>();
    if (!dt) refuse("a dict of an unknown type");
    c10::impl::GenericDict dict(dt->getKeyType(), dt->getValueType());
    for (std::size_t i = 0; i + 1 < n->inputs().size(); i += 2) {
      const Slot& k = slot_of(n->input(i));
      if (k.data) refuse("a dict key computed from the input's values");
      dict.insert_or_assign(k.value, slot_of(n->input(i + 1)).value);
      if (any_data) {
        s.keys.push_back(k.value);
        s.items.push_back(slot_of(n->input(i + 1)));
      }
    }
    s.value = c10::IValue(std::move(dict));
    env_[n->output()] = std::move(s);
    return;
  }
  if (kind == "aten::warn" || kind == "prim::Print") return;  // no result, nothing to compute
  if (any_data && kind == "aten::append") {  // list.append(x) on a list the IR holds element by element
    Slot list = slot_of(n->input(0));
    const Slot& x = slot_of(n->input(1));
    list.items.push_back(x);
    list.data = true;
    auto l = list.value.toList();
    l.push_back(x.value);
    env_[n->input(0)] = list;
    env_[n->output()] = std::move(list);
    return;
  }
  if (kind == "aten::_set_item" && slot_of(n->input(0)).value.isGenericDict()) {  // d[key] = value
    Slot d = slot_of(n->input(0));
    const Slot& key = slot_of(n->input(1));
    const Slot& val = slot_of(n->input(2));
    if (key.data) refuse("a dict key computed from the input's values");
    if (val.data || d.data) {
      if (!d.data)  // a known dict becomes one the IR holds value by value
        for (const auto& e : d.value.toGenericDict()) {
          d.keys.push_back(e.key());
          d.items.push_back(Slot{e.value()});
        }
      d.data = true;
      const auto at = std::find(d.keys.begin(), d.keys.end(), key.value);
      if (at == d.keys.end()) {
        d.keys.push_back(key.value);
        d.items.push_back(val);
      } else {
        d.items[static_cast<std::size_t>(at - d.keys.begin())] = val;
      }
    }
    auto dict = d.value.toGenericDict();
    dict.insert_or_assign(key.value, val.value);
    env_[n->input(0)] = std::move(d);
    return;
  }
  if (any_data && kind == "aten::__getitem__" && !slot_of(n->input(0)).keys.empty()) {
    const Slot& in = slot_of(n->input(0));
    const Slot& key = slot_of(n->input(1));
    if (key.data) refuse("indexes a dict by a value computed from the input's values");
    for (std::size_t i = 0; i < in.keys.size(); ++i)
      if (in.keys[i] == key.value) {
        env_[n->output()] = in.items[i];
        return;
      }
    refuse("dict has no such key");
  }
  if (any_data && (kind == "aten::__getitem__" || kind == "prim::TupleIndex")) {
    const Slot& in = slot_of(n->input(0));
    const Slot& idx = slot_of(n->input(1));
    if (idx.data || in.items.empty()) refuse("indexes a list by a value computed from the input's values");
    std::int64_t k = idx.value.toInt();
    if (k < 0) k += static_cast<std::int64_t>(in.items.size());
    if (k < 0 || k >= static_cast<std::int64_t>(in.items.size())) refuse("list index out of range");
    env_[n->output()] = in.items[static_cast<std::size_t>(k)];
    return;
  }
  if (any_data && is_identity(kind)) {
    Slot s = slot_of(n->input(0));
    if (s.value.isTensor() && s.value.toTensor().is_quantized() && kind == "aten::dequantize")
      s.value = s.value.toTensor().dequantize();  // the IR already holds the float value (QDQ)
    if (s.value.isTensor() && kind == "aten::contiguous")
      s.value = s.value.toTensor().contiguous();  // a later view() needs the memory layout torch would have
    env_[n->output()] = std::move(s);
    return;
  }

  if (kind == "prim::GetAttr") {  // modules that keep mutable state (FakeQuantize) are not frozen away
    const Slot& obj = slot_of(n->input(0));
    if (!obj.value.isObject()) refuse("reads an attribute of something that is not a module");
    auto v = obj.value.toObjectRef().getAttr(n->s(c10::attr::name));
    if (!values_inside_storage(v)) refuse("a module tensor reaches past its stored bytes; the archive is damaged");
    env_[n->output()] = Slot{std::move(v)};
    return;
  }
  if (const auto& ev = self_evaluating_table(); ev.count(kind)) {
    current_results_.clear();
    bind_data_outputs(n, ev.at(kind)(*this, Args(*this, n)));
    return;
  }

  // Execute the node on the concrete values.
  torch::jit::Stack stack;
  for (const Value* v : n->inputs()) stack.push_back(slot_of(v).value);
  // The interpreter's convention for variadic ops (aten::format, ...): the count goes last.
  if (const auto* schema = n->maybeSchema(); schema && schema->is_vararg())
    stack.emplace_back(static_cast<std::int64_t>(n->inputs().size()));
  try {
    n->getOperation()(stack);
  } catch (const c10::Error& e) {
    refuse("fails on a sample input of the given shapes (" + torch_message(e) + "); check --input-shape");
  } catch (const std::exception& e) {
    refuse("cannot be evaluated (" + first_line(e.what()) + ")", true);
  }
  if (stack.size() != n->outputs().size()) refuse("returned an unexpected number of results");
  current_results_.assign(stack.begin(), stack.end());

  std::string base = kind;
  const bool inplace = base.size() > 1 && base.back() == '_' && base[base.size() - 2] != '_';
  if (inplace) base.pop_back();
  if (!any_data || is_shape_only(base)) {
    for (std::size_t i = 0; i < n->outputs().size(); ++i) env_[n->output(i)] = Slot{current_results_[i]};
    return;
  }
  for (const auto& r : current_results_)
    if (!(r.isTensor() || r.isTensorList() || r.isNone()))
      refuse("turns the input's values into a number the graph then uses (a branch or a shape that depends on the "
             "data); such models cannot be compiled ahead of time");

  const auto& table = aten_table();
  const auto it = table.find(base);
  std::vector<std::string> names;
  if (it != table.end()) {
    names = it->second(*this, Args(*this, n));
    // An aten op on quantised tensors: its result keeps qparams the IR states as a QDQ pair.
    if (base.rfind("quantized::", 0) != 0 && base != "aten::quantize_per_tensor")
      for (std::size_t i = 0, k = 0; i < current_results_.size(); ++i)
        if (current_results_[i].isTensor()) {
          const at::Tensor r = current_results_[i].toTensor();
          if (r.is_quantized() && k < names.size() && !names[k].empty()) names[k] = requantize_like(*this, names[k], r);
          ++k;
        }
  } else {
    if (!opts_.allow_unknown_ops)
      refuse("has no mapping to the IR; export with torch.onnx.export for ONNX's wider coverage", true);
    std::vector<std::string> ins;
    Args a(*this, n);
    for (std::size_t i = 0; i < n->inputs().size(); ++i)
      if (a.slot(i).data && !a.slot(i).ir.empty()) ins.push_back(a.slot(i).ir);
    std::vector<at::Tensor> results;
    for (const auto& r : current_results_)
      if (r.isTensor()) results.push_back(r.toTensor());
    std::map<std::string, ir::Attribute> attrs;
    if (const auto* schema = n->maybeSchema()) {
      std::ostringstream s;
      s << *schema;
      attrs["description"] = s.str();  // inspect lists an opaque op with it
    }
    names = emit(kind, ins, attrs, results);
  }
  bind_data_outputs(n, names);
  if (inplace) env_[n->input(0)] = env_[n->output(0)];
}

ir::Graph Importer::run() {
  torch::jit::Module module;
  try {
    module = torch::jit::load(path_);
  } catch (const c10::Error& e) {
    refuse("is not a TorchScript archive torch.jit.load can read (" + torch_message(e) +
           "); save the model with torch.jit.save");
  } catch (const std::exception& e) {  // torch::jit::ErrorReport: the archive's code does not compile
    refuse("is not a TorchScript archive torch.jit.load can read (" + first_line(e.what()) +
           "); save the model with torch.jit.save");
  }
  module.eval();
  if (!module.find_method("forward")) refuse("the module has no forward method");
  // Before freezing (which folds constants by running ops on them): every tensor the
  // archive holds lies inside its bytes.
  for (const auto& attr : module.named_attributes(/*recurse=*/true))
    if (!values_inside_storage(attr.value))
      refuse("tensor '" + bounded_message(attr.name, 80) + "' reaches past its stored bytes; the archive is damaged");
  for (const auto& m : module.get_methods())
    for (const Node* cn : torch::jit::toGraphFunction(m.function()).graph()->nodes())
      if (cn->kind() == c10::prim::Constant)
        if (auto v = torch::jit::toIValue(cn->output()); v && !values_inside_storage(*v))
          refuse("a constant tensor reaches past its stored bytes; the archive is damaged");
  torch::jit::Module frozen;
  try {
    frozen = torch::jit::freeze(module);
  } catch (const c10::Error& e) {
    refuse("the module cannot be frozen for inference (" + torch_message(e) + ")");
  }
  auto method = frozen.get_method("forward");
  auto graph = torch::jit::toGraphFunction(method.function()).graph()->copy();
  torch::jit::Inline(*graph);
  try {  // best effort: in-place ops that stay are rebound below (visit)
    torch::jit::RemoveListMutation(graph);
    torch::jit::RemoveTensorMutation(graph);
  } catch (const c10::Error&) {
  }

  const auto& schema = method.function().getSchema();
  torch::manual_seed(20261128);
  std::size_t arg = 0;
  for (const Value* v : graph->inputs()) {
    if (v->type()->cast<c10::ClassType>()) {  // self
      env_[v] = Slot{frozen._ivalue()};
      ++arg;
      continue;
    }
    const std::string name =
        arg < schema.arguments().size() ? schema.arguments()[arg].name() : v->debugName();
    const c10::Argument* spec = arg < schema.arguments().size() ? &schema.arguments()[arg] : nullptr;
    ++arg;
    const bool given = opts_.input_shapes.count(name) || (opts_.input_shapes.count("") && g_.inputs.empty());
    if (spec && spec->default_value() && !(given && opts_.input_shapes.count(name))) {
      env_[v] = Slot{*spec->default_value()};  // an optional argument left at its default (mask=None)
      continue;
    }
    if (!v->type()->isSubtypeOf(*c10::TensorType::get()))
      refuse("input '" + name + "' is a " + v->type()->str() + ", not a tensor; only tensor inputs can be compiled");
    std::vector<std::int64_t> shape;
    if (const auto s = opts_.input_shapes.find(name); s != opts_.input_shapes.end()) shape = s->second;
    else if (const auto f = opts_.input_shapes.find(""); f != opts_.input_shapes.end() && g_.inputs.empty()) shape = f->second;
    else
      refuse("the file records no shape for input '" + name + "'; pass --input-shape " + name + "=1,3,224,224 (its real dims)");
    // The dtype: as --input-shape NAME=...:int64 states it, else int64 for an input that
    // indexes an embedding, else float32. Integer samples are zeros (a valid index).
    std::string dt = feeds_indices(v) ? "i64" : "f32";
    if (const auto d = opts_.input_dtypes.find(name); d != opts_.input_dtypes.end()) dt = d->second;
    else if (const auto f = opts_.input_dtypes.find(""); f != opts_.input_dtypes.end() && g_.inputs.empty()) dt = f->second;
    Slot s;
    s.value = dt == "f32"   ? at::randn(shape)
              : dt == "i64" ? at::zeros(shape, at::kLong)
              : dt == "i32" ? at::zeros(shape, at::kInt)
                            : at::zeros(shape, at::kBool);
    s.data = true;
    s.ir = sanitize(name);
    ir::Tensor t;
    t.name = s.ir;
    t.dtype = ir::dtype_from_name(dt).value_or(ir::DType::Float32);
    t.shape = ir::Shape::of(shape);
    g_.add_tensor(std::move(t));
    g_.inputs.push_back(s.ir);
    env_[v] = std::move(s);
  }
  for (const auto& [name, dims] : opts_.input_shapes)
    if (!name.empty() && std::find(g_.inputs.begin(), g_.inputs.end(), sanitize(name)) == g_.inputs.end())
      refuse("--input-shape names '" + name + "', which is not an input of forward()");

  {
    torch::NoGradGuard no_grad;
    walk(graph->block());
  }
  current_ = nullptr;

  std::vector<Slot> outs;
  for (const Value* v : graph->outputs()) outs.push_back(slot_of(v));
  for (auto& o : outs)  // a known dict output holds its values
    if (!o.data && o.value.isGenericDict()) {
      for (const auto& e : o.value.toGenericDict()) o.items.push_back(Slot{e.value()});
    }
  for (std::size_t i = 0; i < outs.size(); ++i) {  // flatten tuples, lists and dicts
    if (!outs[i].items.empty()) {
      auto items = outs[i].items;
      outs.erase(outs.begin() + static_cast<std::ptrdiff_t>(i));
      outs.insert(outs.begin() + static_cast<std::ptrdiff_t>(i), items.begin(), items.end());
      --i;
    }
  }
  outs.erase(std::remove_if(outs.begin(), outs.end(), [](const Slot& s) { return !s.data && s.value.isNone(); }),
             outs.end());  // None fields of an output tuple (GoogLeNet's aux logits in eval)
  for (const auto& s : outs) {
    if (!s.value.isTensor()) refuse("forward() returns a " + s.value.tagKind() + "; only tensors can be outputs");
    std::string name = s.ir;
    if (!s.data) name = emit("Identity", {constant(s.value.toTensor(), "output")}, {}, {s.value.toTensor()})[0];
    if (std::find(g_.outputs.begin(), g_.outputs.end(), name) != g_.outputs.end() ||
        std::find(g_.inputs.begin(), g_.inputs.end(), name) != g_.inputs.end())
      name = emit("Identity", {name}, {}, {s.value.toTensor()})[0];
    g_.outputs.push_back(name);
  }
  // Outputs by position, as torch.onnx.export names them by default: output, output_1, ...
  for (std::size_t i = 0; i < g_.outputs.size(); ++i) {
    const std::string to = i == 0 ? "output" : "output_" + std::to_string(i);
    const std::string from = g_.outputs[i];
    if (g_.find_tensor(to)) continue;
    ir::Tensor t = *g_.find_tensor(from);
    t.name = to;
    g_.tensors.erase(from);
    g_.add_tensor(std::move(t));
    for (auto& op : g_.ops) {
      for (auto& n : op.inputs) if (n == from) n = to;
      for (auto& n : op.outputs) if (n == from) n = to;
    }
    g_.outputs[i] = to;
  }

  g_.name = std::filesystem::path(path_).stem().string();
  g_.metadata["source.format"] = "torchscript";
  g_.metadata["source.producer"] = std::string("PyTorch ") + TORCH_VERSION;
  ir::infer_shapes(g_);
  for (const auto& issue : ir::validate(g_))
    if (issue.severity == ir::ValidationIssue::Severity::Error) refuse("the imported graph is invalid: " + ir::to_string(issue));
  return std::move(g_);
}

}  // namespace ec::frontends::torchscript

extern "C" __attribute__((visibility("default"))) int ec_torchscript_import_v2(
    const char* path, const ec::frontends::OpenOptions* opts, ec::ir::Graph* graph, char* error,
    std::size_t error_size) {
  auto fail = [&](const std::string& msg, int code) {
    if (error_size) {
      std::strncpy(error, msg.c_str(), error_size - 1);
      error[error_size - 1] = '\0';
    }
    return code;
  };
  try {
    ec::frontends::torchscript::Importer im(path, *opts);
    *graph = im.run();
    return 0;
  } catch (const ec::frontends::torchscript::ImportError& e) {
    return fail(e.message, e.unsupported ? 2 : 1);
  } catch (const c10::Error& e) {
    return fail(ec::frontends::torchscript::first_line(e.what_without_backtrace()), 1);
  } catch (const std::exception& e) {
    return fail(ec::frontends::torchscript::first_line(e.what()), 1);
  }
}
