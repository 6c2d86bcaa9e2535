// The graph and function import of the SavedModel frontend (see savedmodel_import.h).
// Field meanings follow TensorFlow's published protos (core/frontends/savedmodel/proto).
#include "core/frontends/protobuf_log.h"
#include "core/frontends/savedmodel/savedmodel_import.h"

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/ir/shape_inference.h"
#include "core/ir/algorithms.h"
#include "core/ir/validate.h"
#include "ec_tf/saved_model.pb.h"
#include "ec_tf/trackable_object_graph.pb.h"

namespace ec::frontends::savedmodel {
namespace fs = std::filesystem;

namespace {
constexpr int kMaxCallDepth = 32;                 // nested function calls
constexpr std::size_t kMaxNodes = 1u << 20;       // nodes after inlining
constexpr std::int64_t kMaxFillElements = 1 << 24;  // a Const expanded from fewer values than elements
constexpr std::uint64_t kMaxConstBytes = std::uint64_t{1} << 31;
constexpr std::int64_t kMaxDim = std::int64_t{1} << 31;  // a signature input's dimension
constexpr const char* kObjectGraphKey = "_CHECKPOINTABLE_OBJECT_GRAPH";

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 9 && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    const auto j = s.find(sep, i);
    out.push_back(s.substr(i, j == std::string::npos ? std::string::npos : j - i));
    if (j == std::string::npos) return out;
    i = j + 1;
  }
}

std::string shape_text(const std::vector<std::int64_t>& d) {
  std::string s = "[";
  for (std::size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + (d[i] < 0 ? std::string("?") : std::to_string(d[i]));
  return s + "]";
}
}  // namespace

struct Importer::Scope {
  const ec_tf::FunctionDef* fn = nullptr;  // nullptr: the MetaGraph's graph
  std::map<std::string, int> nodes;
  std::map<std::string, Ref> args;
  int depth = 0;
};

struct Importer::Node {
  const ec_tf::NodeDef* def = nullptr;
  std::string name;
  int scope = 0;
  std::vector<Ref> inputs;  // data inputs, as written (control inputs dropped)
  bool resolved = false;
  std::vector<Ref> rets;    // a call's results once inlined
  bool inlined = false;
  std::vector<Ref> cin;     // canonical inputs (set by order())
  int used = 0;             // 1 + the highest output index read
};

// ---------------------------------------------------------------- OpContext

void OpContext::fail(const std::string& why) const { im.fail_mapping(where() + ": " + why); }
std::string OpContext::where() const { return "node '" + excerpt(name) + "' (" + excerpt(def.op()) + ")"; }

const ec_tf::AttrValue* OpContext::attr(const std::string& key) const {
  const auto it = def.attr().find(key);
  return it == def.attr().end() ? nullptr : &it->second;
}
std::int64_t OpContext::attr_int(const std::string& key, std::int64_t fallback) const {
  const auto* a = attr(key);
  return a && a->value_case() == ec_tf::AttrValue::kI ? a->i() : fallback;
}
float OpContext::attr_float(const std::string& key, float fallback) const {
  const auto* a = attr(key);
  return a && a->value_case() == ec_tf::AttrValue::kF ? a->f() : fallback;
}
bool OpContext::attr_bool(const std::string& key, bool fallback) const {
  const auto* a = attr(key);
  return a && a->value_case() == ec_tf::AttrValue::kB ? a->b() : fallback;
}
std::string OpContext::attr_string(const std::string& key, const std::string& fallback) const {
  const auto* a = attr(key);
  return a && a->value_case() == ec_tf::AttrValue::kS ? a->s() : fallback;
}
std::vector<std::int64_t> OpContext::attr_ints(const std::string& key) const {
  const auto* a = attr(key);
  if (!a || a->value_case() != ec_tf::AttrValue::kList) return {};
  return {a->list().i().begin(), a->list().i().end()};
}
const std::string& OpContext::input(std::size_t i) const {
  if (i >= in.size()) fail("has " + std::to_string(in.size()) + " inputs, needs at least " + std::to_string(i + 1));
  return in[i];
}
std::vector<std::int64_t> OpContext::const_ints(std::size_t i, const std::string& what) const {
  const auto v = im.ints_of(input(i));
  if (!v) fail(what + " (input " + std::to_string(i) + ") must be a constant integer tensor");
  return *v;
}

// ---------------------------------------------------------------- Importer

Importer::Importer(const std::string& pb, const std::string& dir, const OpenOptions& opts)
    : dir_(dir), what_(dir), opts_(opts), model_(std::make_unique<ec_tf::SavedModel>()) {
  route_protobuf_log_to_debug();
  if (!model_->ParseFromString(pb))
    fail("saved_model.pb does not parse as a SavedModel protobuf (" + std::to_string(pb.size()) +
         " bytes): truncated or not a SavedModel");
}

Importer::~Importer() = default;

void Importer::fail(const std::string& why) const { throw FrontendError(what_, why, "savedmodel"); }

// A mapping that fails after an op was kept as Unknown most likely lacks the shape that
// op could not give: the unsupported op is the error to report.
void Importer::fail_mapping(const std::string& why) const {
  if (!first_unknown_.first.empty())
    throw UnsupportedOpError(first_unknown_.second, "the SavedModel frontend",
                             "the ops after it cannot be imported without its output shape (" + why + ")",
                             what_ + ": node '" + first_unknown_.first + "'");
  fail(why);
}

std::string Importer::fresh(const std::string& base) { return ir::claim_unique_name(used_, base); }

ir::Operation& Importer::emit(const std::string& type, std::vector<std::string> inputs,
                              std::vector<std::string> outputs, const std::string& name) {
  ir::Operation op;
  op.op_type = type;
  op.kind = ir::op_kind_from_name(type).value_or(ir::OpKind::Unknown);
  op.inputs = std::move(inputs);
  op.outputs = std::move(outputs);
  for (const auto& o : op.outputs)
    if (!o.empty() && !graph_.find_tensor(o)) {
      ir::Tensor t;
      t.name = o;
      used_.insert(o);
      graph_.add_tensor(std::move(t));
    }
  // Op names are a namespace of their own: an op is named after its node, as its first output is.
  op.name = ir::claim_unique_name(op_names_, name.empty() ? (op.outputs.empty() ? type : op.outputs[0]) : name);
  graph_.ops.push_back(std::move(op));
  shapes_dirty_ = true;
  return graph_.ops.back();
}

std::string Importer::add_const(const std::string& base, ir::DType dtype, std::vector<std::int64_t> shape,
                                ir::ConstantData data) {
  const std::string n = fresh(base);
  set_const(n, dtype, std::move(shape), std::move(data));
  return n;
}

void Importer::set_const(const std::string& name, ir::DType dtype, std::vector<std::int64_t> shape, ir::ConstantData data) {
  ir::Tensor t;
  t.name = name;
  used_.insert(name);
  t.dtype = dtype;
  t.shape = ir::Shape::of(shape);
  t.data = std::move(data);
  graph_.add_tensor(std::move(t));
}

std::string Importer::add_i64(const std::string& base, const std::vector<std::int64_t>& v, bool scalar) {
  return add_const(base, ir::DType::Int64, scalar ? std::vector<std::int64_t>{} : std::vector<std::int64_t>{static_cast<std::int64_t>(v.size())},
                   ir::ConstantData::copy_of(v.data(), v.size() * sizeof(std::int64_t)));
}

std::string Importer::add_f32(const std::string& base, float v) {
  return add_const(base, ir::DType::Float32, {}, ir::ConstantData::copy_of(&v, sizeof v));
}

const ir::Shape& Importer::shape_of(const std::string& name) {
  const ir::Tensor* t = graph_.find_tensor(name);
  if (!t) fail("internal: no tensor '" + excerpt(name) + "'");
  if ((!t->shape.rank_known || !t->shape.is_static()) && shapes_dirty_) {
    ir::infer_shapes(graph_);
    shapes_dirty_ = false;
    t = graph_.find_tensor(name);
  }
  return t->shape;
}

std::optional<std::vector<std::int64_t>> Importer::ints_of(const std::string& name) const {
  const ir::Tensor* t = graph_.find_tensor(name);
  return t ? ir::constant_ints(*t) : std::nullopt;
}

void Importer::const_from_proto(const ec_tf::TensorProto& tp, const std::string& name, const std::string& where) {
  const ir::DType dt = ir_dtype_of(tp.dtype());
  const std::size_t es = ir::dtype_size(dt);
  if (es == 0) fail(where + ": a constant of " + tf_type_name(tp.dtype()) + " (not a numeric type this reader takes)");
  std::vector<std::int64_t> shape;
  std::uint64_t numel = 1;
  for (const auto& d : tp.tensor_shape().dim()) {
    if (d.size() < 0) fail(where + ": a constant with an unknown dimension");
    if (d.size() > 0 && numel > kMaxConstBytes / es / static_cast<std::uint64_t>(d.size()))
      fail(where + ": a constant larger than 2 GiB");
    numel *= static_cast<std::uint64_t>(d.size());
    shape.push_back(d.size());
  }
  if (!tp.tensor_content().empty()) {
    if (tp.tensor_content().size() != numel * es)
      fail(where + ": tensor_content holds " + std::to_string(tp.tensor_content().size()) + " bytes, shape " +
           shape_text(shape) + " of " + std::string(ir::dtype_name(dt)) + " needs " + std::to_string(numel * es));
    set_const(name, dt, shape, ir::ConstantData::copy_of(tp.tensor_content().data(), tp.tensor_content().size()));
    return;
  }
  // Typed value fields; fewer values than elements repeat the last one (TensorFlow's rule).
  std::vector<std::byte> out;
  auto fill = [&](auto tag, int count, auto get) {
    using T = decltype(tag);
    if (static_cast<std::uint64_t>(count) > numel)
      fail(where + ": " + std::to_string(count) + " values for a constant of " + std::to_string(numel) + " elements");
    if (count < static_cast<std::int64_t>(numel) && numel > static_cast<std::uint64_t>(kMaxFillElements))
      fail(where + ": a constant of " + std::to_string(numel) + " elements given by " + std::to_string(count) + " values");
    out.resize(numel * sizeof(T));
    T last{};
    for (std::uint64_t i = 0; i < numel; ++i) {
      if (i < static_cast<std::uint64_t>(count)) last = static_cast<T>(get(static_cast<int>(i)));
      std::memcpy(out.data() + i * sizeof(T), &last, sizeof(T));
    }
  };
  switch (dt) {
    case ir::DType::Float32: fill(float{}, tp.float_val_size(), [&](int i) { return tp.float_val(i); }); break;
    case ir::DType::Float64: fill(double{}, tp.double_val_size(), [&](int i) { return tp.double_val(i); }); break;
    case ir::DType::Int32: fill(std::int32_t{}, tp.int_val_size(), [&](int i) { return tp.int_val(i); }); break;
    case ir::DType::Int16: fill(std::int16_t{}, tp.int_val_size(), [&](int i) { return tp.int_val(i); }); break;
    case ir::DType::Int8: fill(std::int8_t{}, tp.int_val_size(), [&](int i) { return tp.int_val(i); }); break;
    case ir::DType::UInt8: fill(std::uint8_t{}, tp.int_val_size(), [&](int i) { return tp.int_val(i); }); break;
    case ir::DType::UInt16: fill(std::uint16_t{}, tp.int_val_size(), [&](int i) { return tp.int_val(i); }); break;
    case ir::DType::Int64: fill(std::int64_t{}, tp.int64_val_size(), [&](int i) { return tp.int64_val(i); }); break;
    case ir::DType::UInt32: fill(std::uint32_t{}, tp.uint32_val_size(), [&](int i) { return tp.uint32_val(i); }); break;
    case ir::DType::UInt64: fill(std::uint64_t{}, tp.uint64_val_size(), [&](int i) { return tp.uint64_val(i); }); break;
    case ir::DType::Bool: fill(std::uint8_t{}, tp.bool_val_size(), [&](int i) { return tp.bool_val(i) ? 1 : 0; }); break;
    case ir::DType::Float16:
    case ir::DType::BFloat16: fill(std::uint16_t{}, tp.half_val_size(), [&](int i) { return tp.half_val(i); }); break;
    default: fail(where + ": a constant of type " + std::string(ir::dtype_name(dt)) + " given by value fields (not supported)");
  }
  set_const(name, dt, shape, ir::ConstantData::from_vector(std::move(out)));
}

// ---------------------------------------------------------------- signature and inputs

void Importer::choose_signature() {
  if (model_->meta_graphs_size() == 0) fail("saved_model.pb holds no MetaGraph");
  for (const auto& mg : model_->meta_graphs())
    if (std::find(mg.meta_info_def().tags().begin(), mg.meta_info_def().tags().end(), "serve") !=
        mg.meta_info_def().tags().end()) {
      meta_ = &mg;
      break;
    }
  if (!meta_) meta_ = &model_->meta_graphs(0);
  signature_ = opts_.signature.empty() ? "serving_default" : opts_.signature;
  const auto& sigs = meta_->signature_def();
  if (!sigs.count(signature_)) {
    std::vector<std::string> names;
    for (const auto& [k, v] : sigs) names.push_back(k);
    std::sort(names.begin(), names.end());
    std::string list;
    for (const auto& n : names) list += (list.empty() ? "" : ", ") + excerpt(n);
    fail("no signature '" + excerpt(signature_) + "' in saved_model.pb; " +
         (names.empty() ? std::string("it has no signatures at all") : "it has: " + list + " (pick one with --signature NAME)"));
  }
}

int Importer::add_node(const ec_tf::NodeDef* def, const std::string& name, int scope) {
  if (++budget_ > kMaxNodes)
    fail("more than " + std::to_string(kMaxNodes) + " nodes after inlining functions (a call graph that multiplies)");
  Node n;
  n.def = def;
  n.name = name;
  n.scope = scope;
  const int id = static_cast<int>(nodes_.size());
  if (!scopes_[static_cast<std::size_t>(scope)].nodes.emplace(def->name(), id).second)
    fail("two nodes are named '" + excerpt(name) + "'");
  nodes_.push_back(std::move(n));
  return id;
}

int Importer::output_index(const ec_tf::NodeDef& producer, const std::string& arg, int i, const std::string& where) {
  if (i < 0 || i > 65535) fail(where + " reads output " + std::to_string(i) + " of '" + excerpt(producer.name()) + "'");
  static const std::vector<std::string> kBatchNorm = {"y", "batch_mean", "batch_variance",
                                                      "reserve_space_1", "reserve_space_2", "reserve_space_3"};
  const std::string& op = producer.op();
  if (op == "FusedBatchNorm" || op == "FusedBatchNormV2" || op == "FusedBatchNormV3") {
    const auto it = std::find(kBatchNorm.begin(), kBatchNorm.end(), arg);
    if (it == kBatchNorm.end() || i != 0) fail(where + " reads '" + excerpt(arg) + "' of a batch norm");
    return static_cast<int>(it - kBatchNorm.begin());
  }
  if (const auto f = functions_.find(op); f != functions_.end()) {  // a function called as an op
    const auto& outs = f->second->signature().output_arg();
    for (int k = 0; k < outs.size(); ++k)
      if (outs[k].name() == arg) return k + i;
    fail(where + " reads output '" + excerpt(arg) + "' of function '" + excerpt(op) + "', which it does not have");
  }
  return i;  // one output argument (possibly a list: IdentityN, Split, calls)
}

Ref Importer::parse_ref(int scope, const std::string& text, const std::string& where) {
  const Scope& s = scopes_[static_cast<std::size_t>(scope)];
  const auto node_id = [&](const std::string& n) {
    const auto it = s.nodes.find(n);
    if (it == s.nodes.end()) fail(where + " reads '" + excerpt(text) + "', which no node produces");
    return it->second;
  };
  const auto parts = split(text, ':');
  if (!s.fn) {  // "node" or "node:index"
    if (parts.size() >= 2 && all_digits(parts.back())) {
      const std::string node = text.substr(0, text.rfind(':'));
      return {node_id(node), std::stoi(parts.back())};
    }
    return {node_id(text), 0};
  }
  if (parts.size() == 1) {  // a function argument
    if (const auto a = s.args.find(text); a != s.args.end()) return a->second;
    return {node_id(text), 0};
  }
  if (parts.size() == 3 && all_digits(parts[2])) {
    const int id = node_id(parts[0]);
    return {id, output_index(*nodes_[static_cast<std::size_t>(id)].def, parts[1], std::stoi(parts[2]), where)};
  }
  if (parts.size() == 2 && all_digits(parts[1])) return {node_id(parts[0]), std::stoi(parts[1])};
  fail(where + " has an input '" + excerpt(text) + "' that is neither an argument nor node:output:index");
}

void Importer::resolve_inputs(int id) {
  if (nodes_[static_cast<std::size_t>(id)].resolved) return;
  const Node& n = nodes_[static_cast<std::size_t>(id)];
  std::vector<Ref> in;
  for (const auto& s : n.def->input())
    if (s.empty() || s[0] != '^') in.push_back(parse_ref(n.scope, s, "node '" + excerpt(n.name) + "'"));
  nodes_[static_cast<std::size_t>(id)].inputs = std::move(in);
  nodes_[static_cast<std::size_t>(id)].resolved = true;
}

void Importer::inline_call(int id) {
  if (nodes_[static_cast<std::size_t>(id)].inlined) return;
  resolve_inputs(id);
  const Node& n = nodes_[static_cast<std::size_t>(id)];
  const std::string where = "node '" + excerpt(n.name) + "' (" + excerpt(n.def->op()) + ")";
  std::string fname = n.def->op();
  if (fname == "StatefulPartitionedCall" || fname == "PartitionedCall") {
    const auto a = n.def->attr().find("f");
    if (a == n.def->attr().end() || a->second.value_case() != ec_tf::AttrValue::kFunc)
      fail(where + " has no function attribute 'f'");
    fname = a->second.func().name();
  }
  const auto f = functions_.find(fname);
  if (f == functions_.end()) fail(where + " calls function '" + excerpt(fname) + "', which the graph's function library does not hold");
  const int depth = scopes_[static_cast<std::size_t>(n.scope)].depth + 1;
  if (depth > kMaxCallDepth) fail(where + ": function calls nest deeper than " + std::to_string(kMaxCallDepth));
  const ec_tf::FunctionDef& fn = *f->second;
  if (fn.signature().input_arg_size() != static_cast<int>(n.inputs.size()))
    fail(where + " passes " + std::to_string(n.inputs.size()) + " inputs to function '" + excerpt(fname) + "', which takes " +
         std::to_string(fn.signature().input_arg_size()));
  Scope s;
  s.fn = &fn;
  s.depth = depth;
  for (int k = 0; k < fn.signature().input_arg_size(); ++k) s.args[fn.signature().input_arg(k).name()] = n.inputs[static_cast<std::size_t>(k)];
  const std::string prefix = n.name;
  const int sid = static_cast<int>(scopes_.size());
  scopes_.push_back(std::move(s));
  for (const auto& def : fn.node_def()) add_node(&def, prefix + "/" + def.name(), sid);
  std::vector<Ref> rets;
  for (const auto& out : fn.signature().output_arg()) {
    const auto r = fn.ret().find(out.name());
    if (r == fn.ret().end()) fail("function '" + excerpt(fname) + "' returns no value for its output '" + excerpt(out.name()) + "'");
    rets.push_back(parse_ref(sid, r->second, "function '" + excerpt(fname) + "'"));
  }
  nodes_[static_cast<std::size_t>(id)].rets = std::move(rets);
  nodes_[static_cast<std::size_t>(id)].inlined = true;
}

// Follows Identity-like nodes and calls to the value's producer (or a fed input).
Ref Importer::canon(Ref r) {
  for (std::size_t steps = 0;; ++steps) {
    if (steps > 4 * nodes_.size() + 64) fail("Identity nodes or calls form a cycle around node '" + excerpt(nodes_[static_cast<std::size_t>(r.node)].name) + "'");
    if (feeds_.count(r)) return r;
    const Node& n = nodes_[static_cast<std::size_t>(r.node)];
    const OpRow* row = find_op_row(n.def->op());
    const bool call = (row && row->kind == RowKind::Call) || functions_.count(n.def->op());
    if (call) {
      inline_call(r.node);
      const Node& c = nodes_[static_cast<std::size_t>(r.node)];
      if (r.index >= static_cast<int>(c.rets.size()))
        fail("output " + std::to_string(r.index) + " of node '" + excerpt(c.name) + "' is read; its function returns " + std::to_string(c.rets.size()));
      r = c.rets[static_cast<std::size_t>(r.index)];
      continue;
    }
    if (row && row->kind == RowKind::Alias) {
      resolve_inputs(r.node);
      const Node& a = nodes_[static_cast<std::size_t>(r.node)];
      const std::size_t k = n.def->op() == "IdentityN" ? static_cast<std::size_t>(r.index) : 0;
      if (k >= a.inputs.size() || (n.def->op() != "IdentityN" && r.index != 0))
        fail("node '" + excerpt(a.name) + "' (" + excerpt(n.def->op()) + ") has no value for output " + std::to_string(r.index));
      r = a.inputs[k];
      continue;
    }
    return r;
  }
}

void Importer::bind_inputs() {
  const auto& sig = meta_->signature_def().at(signature_);
  std::vector<std::pair<std::string, const ec_tf::TensorInfo*>> outs;
  for (const auto& [k, v] : sig.outputs()) outs.emplace_back(k, &v);
  std::vector<std::pair<std::string, const ec_tf::TensorInfo*>> in_sorted;
  for (const auto& [k, v] : sig.inputs()) in_sorted.emplace_back(k, &v);
  std::sort(in_sorted.begin(), in_sorted.end());
  std::sort(outs.begin(), outs.end());
  if (outs.empty()) fail("signature '" + excerpt(signature_) + "' has no outputs");
  for (const auto& [key, _] : in_sorted) used_.insert(key);
  bool first = true;
  for (const auto& [key, info] : in_sorted) {
    const std::string where = "signature '" + excerpt(signature_) + "' input '" + excerpt(key) + "'";
    if (info->encoding_case() != ec_tf::TensorInfo::kName) fail(where + " is not a dense tensor (sparse and composite inputs are not supported)");
    const Ref r = parse_ref(0, info->name(), where);
    if (feeds_.count(r)) fail(where + " feeds the same tensor as input '" + excerpt(feeds_[r]) + "'");
    const ec_tf::NodeDef& def = *nodes_[static_cast<std::size_t>(r.node)].def;
    // dtype: the TensorInfo's, else the node's dtype / T attribute (older exports, e.g. half_plus_two)
    int tf_type = info->dtype();
    for (const char* a : {"dtype", "T"})
      if (!tf_type)
        if (const auto it = def.attr().find(a); it != def.attr().end() && it->second.value_case() == ec_tf::AttrValue::kType)
          tf_type = it->second.type();
    ir::Tensor t;
    t.name = key;
    t.dtype = ir_dtype_of(tf_type);
    if (t.dtype == ir::DType::Undefined || t.dtype == ir::DType::String)
      fail(where + " has " + tf_type_name(tf_type) + ", not a numeric type this frontend takes");
    // shape: the TensorInfo's, else the node's recorded output shape, else a Placeholder's shape
    const ec_tf::TensorShapeProto* sp = info->has_tensor_shape() ? &info->tensor_shape() : nullptr;
    if (!sp)
      if (const auto it = def.attr().find("_output_shapes"); it != def.attr().end() && r.index < it->second.list().shape_size())
        sp = &it->second.list().shape(r.index);
    if (!sp)
      if (const auto it = def.attr().find("shape"); it != def.attr().end() && it->second.value_case() == ec_tf::AttrValue::kShape)
        sp = &it->second.shape();
    std::vector<std::int64_t> dims;
    bool known = sp && !sp->unknown_rank();
    if (known)
      for (const auto& d : sp->dim()) dims.push_back(d.size() < 0 ? -1 : d.size());
    const std::vector<std::int64_t>* given = nullptr;
    for (const std::string& k : {key, def.name()})
      if (!given && opts_.input_shapes.count(k)) given = &opts_.input_shapes.at(k);
    if (!given && first && opts_.input_shapes.count("")) given = &opts_.input_shapes.at("");
    if (given) {
      if (known && given->size() != dims.size())
        fail(where + " has shape " + shape_text(dims) + "; --input-shape gives " + std::to_string(given->size()) + " dimensions");
      for (std::size_t d = 0; known && d < dims.size(); ++d)
        if (dims[d] >= 0 && dims[d] != (*given)[d])
          fail(where + " has shape " + shape_text(dims) + "; --input-shape gives " + shape_text(*given));
      dims = *given;
      known = true;
    }
    if (!known)
      fail(where + " has no recorded shape; pass --input-shape " + excerpt(key) + "=1,2,3 (its dimensions)");
    if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d > kMaxDim; }))
      fail(where + " has a dimension over " + std::to_string(kMaxDim) + " in " + shape_text(dims));
    if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; }))
      fail(where + " has free dimensions " + shape_text(dims) + "; pass --input-shape " + excerpt(key) + "=" + [&] {
             std::string s;
             for (std::size_t d = 0; d < dims.size(); ++d) s += (d ? "," : "") + (dims[d] < 0 ? std::string("1") : std::to_string(dims[d]));
             return s;
           }() + " (with the sizes you want)");
    t.shape = ir::Shape::of(dims);
    graph_.add_tensor(std::move(t));
    graph_.inputs.push_back(key);
    feeds_[r] = key;
    names_[r] = key;
    first = false;
  }
  for (const auto& [key, info] : outs) {
    const std::string where = "signature '" + excerpt(signature_) + "' output '" + excerpt(key) + "'";
    if (info->encoding_case() != ec_tf::TensorInfo::kName) fail(where + " is not a dense tensor");
    fetches_.emplace_back(key, parse_ref(0, info->name(), where));
  }
}

// Nodes to map, inputs before users: an iterative depth-first walk from the
// fetches (an explicit stack: a hostile graph cannot overflow the C++ stack).
std::vector<int> Importer::order() {
  std::vector<int> post;
  std::vector<char> state(nodes_.size(), 0);  // 0 new, 1 on the stack, 2 done
  struct Frame {
    int node;
    std::size_t next;
  };
  std::vector<Frame> stack;
  auto visit = [&](Ref r) {
    ++read_[r];
    if (feeds_.count(r)) return;
    Node& n = nodes_[static_cast<std::size_t>(r.node)];
    n.used = std::max(n.used, r.index + 1);
    if (state.size() < nodes_.size()) state.resize(nodes_.size(), 0);
    const char st = state[static_cast<std::size_t>(r.node)];
    if (st == 1) fail("the graph has a cycle through node '" + excerpt(n.name) + "'");
    if (st == 0) {
      state[static_cast<std::size_t>(r.node)] = 1;
      stack.push_back({r.node, 0});
    }
  };
  for (auto& [key, r] : fetches_) {
    r = canon(r);
    visit(r);
    while (!stack.empty()) {
      Frame& f = stack.back();
      const int id = f.node;
      if (f.next == 0 && nodes_[static_cast<std::size_t>(id)].cin.empty()) {
        resolve_inputs(id);
        std::vector<Ref> cin;
        for (const Ref& in : nodes_[static_cast<std::size_t>(id)].inputs) cin.push_back(canon(in));
        nodes_[static_cast<std::size_t>(id)].cin = std::move(cin);
      }
      if (state.size() < nodes_.size()) state.resize(nodes_.size(), 0);
      const auto& cin = nodes_[static_cast<std::size_t>(id)].cin;
      if (f.next < cin.size()) {
        const Ref next = cin[f.next++];
        visit(next);  // may push (invalidates f)
        continue;
      }
      state[static_cast<std::size_t>(id)] = 2;
      post.push_back(id);
      stack.pop_back();
    }
  }
  return post;
}

std::string Importer::value_name(Ref r) {
  const auto it = names_.find(r);
  if (it == names_.end()) fail("internal: node '" + excerpt(nodes_[static_cast<std::size_t>(r.node)].name) + "' output " + std::to_string(r.index) + " used before it is made");
  return it->second;
}

void Importer::import_node(int id) {
  const Node& n = nodes_[static_cast<std::size_t>(id)];
  const ec_tf::NodeDef& def = *n.def;
  ++op_counts_[def.op()];
  OpContext ctx{*this, def, n.name, {}, {}};
  for (const Ref& r : n.cin) ctx.in.push_back(value_name(r));
  ctx.out.resize(static_cast<std::size_t>(n.used));
  for (int i = 0; i < n.used; ++i) {
    const Ref r{id, i};
    if (!read_.count(r)) continue;
    const auto p = preferred_.find(r);
    const std::string name = p != preferred_.end() ? p->second : fresh(i == 0 ? n.name : n.name + ":" + std::to_string(i));
    ctx.out[static_cast<std::size_t>(i)] = name;
    names_[r] = name;
  }
  const OpRow* row = find_op_row(def.op());
  if (!row || row->kind != RowKind::Map) {
    if (!opts_.allow_unknown_ops)
      throw UnsupportedOpError("tf::" + excerpt(def.op()), "the SavedModel frontend",
                               "core/frontends/savedmodel/README.md lists the ops it maps",
                               what_ + ": node '" + excerpt(n.name) + "'");
    auto& op = emit("tf::" + def.op(), ctx.in, ctx.out, n.name);
    op.kind = ir::OpKind::Unknown;
    if (first_unknown_.first.empty()) first_unknown_ = {excerpt(n.name), "tf::" + excerpt(def.op())};
    return;
  }
  for (int i = row->outputs; i < n.used; ++i)
    if (!ctx.out[static_cast<std::size_t>(i)].empty())
      ctx.fail("output " + std::to_string(i) + " is used; this frontend maps only its first " + std::to_string(row->outputs));
  row->import(ctx);
  for (const auto& o : ctx.out)
    if (!o.empty() && !graph_.find_tensor(o)) ctx.fail("internal: the mapping made no tensor '" + excerpt(o) + "'");
}

int Importer::uses(const std::string& tensor) const {
  int n = 0;
  for (const auto& [r, name] : names_)
    if (name == tensor)
      if (const auto it = read_.find(r); it != read_.end()) n += it->second;
  return n;
}

void Importer::rewire_output(ir::Operation& op, std::size_t k, const std::string& name) {
  op.outputs.at(k) = name;
  if (!graph_.find_tensor(name)) {
    ir::Tensor t;
    t.name = name;
    used_.insert(name);
    graph_.add_tensor(std::move(t));
  }
  shapes_dirty_ = true;
}

ir::Operation* Importer::producer(const std::string& tensor) {
  for (auto it = graph_.ops.rbegin(); it != graph_.ops.rend(); ++it)
    if (std::find(it->outputs.begin(), it->outputs.end(), tensor) != it->outputs.end()) return &*it;
  return nullptr;
}

// ---------------------------------------------------------------- variables

CheckpointReader& Importer::checkpoint() {
  if (!ckpt_) {
    const fs::path vars = fs::path(dir_) / "variables";
    std::error_code ec;
    if (!fs::is_directory(vars, ec))
      fail("the graph reads variables but the folder has no variables/ (variables/variables.index and .data-*); copy the whole SavedModel folder");
    ckpt_ = std::make_unique<CheckpointReader>((vars / "variables").string());
  }
  return *ckpt_;
}

// TF2: checkpoint keys of variables from the object graphs. The checkpoint's
// TrackableObjectGraph and the MetaGraph's SavedObjectGraph number their nodes
// alike; a node's "VARIABLE_VALUE" attribute names its bundle key. A concrete
// function's bound_inputs list the variable nodes its callers pass after the
// signature's own inputs.
void Importer::load_variable_keys() {
  if (keys_loaded_) return;
  keys_loaded_ = true;
  CheckpointReader& ck = checkpoint();
  if (!ck.has(kObjectGraphKey)) return;  // a TF1 checkpoint: keys are variable names
  ec_tf::TrackableObjectGraph tog;
  if (!tog.ParseFromString(ck.string_scalar(kObjectGraphKey)))
    fail("variables/variables: the checkpoint's object graph does not parse");
  std::map<int, std::string> key_of_node;
  for (int i = 0; i < tog.nodes_size(); ++i)
    for (const auto& a : tog.nodes(i).attributes())
      if (a.name() == "VARIABLE_VALUE") key_of_node[i] = a.checkpoint_key();
  const auto& sog = meta_->object_graph_def();
  for (int i = 0; i < sog.nodes_size(); ++i)
    if (sog.nodes(i).kind_case() == ec_tf::SavedObject::kVariable && key_of_node.count(i))
      name_keys_.emplace(sog.nodes(i).variable().name(), key_of_node[i]);
  for (const auto& n : nodes_) {
    if (n.scope != 0) continue;
    std::string fname;
    if (const auto a = n.def->attr().find("f"); a != n.def->attr().end() && a->second.value_case() == ec_tf::AttrValue::kFunc)
      fname = a->second.func().name();
    const auto cf = sog.concrete_functions().find(fname);
    if (cf == sog.concrete_functions().end()) continue;
    std::vector<std::string> ins;
    for (const auto& s : n.def->input())
      if (s.empty() || s[0] != '^') ins.push_back(s.substr(0, s.find(':')));
    const auto& bound = cf->second.bound_inputs();
    if (bound.size() > static_cast<int>(ins.size())) continue;
    for (int k = 0; k < bound.size(); ++k)
      if (const auto kk = key_of_node.find(bound[k]); kk != key_of_node.end())
        handle_keys_.emplace(ins[ins.size() - static_cast<std::size_t>(bound.size()) + static_cast<std::size_t>(k)], kk->second);
  }
}

void Importer::variable(const OpContext& ctx) {
  load_variable_keys();
  const CheckpointReader& ck = checkpoint();
  const std::string node = ctx.def.name();
  const std::string shared = ctx.attr_string("shared_name", "");
  std::string key;
  const auto main = scopes_[0].nodes.find(node);
  if (main != scopes_[0].nodes.end() && nodes_[static_cast<std::size_t>(main->second)].def == &ctx.def)
    if (const auto it = handle_keys_.find(node); it != handle_keys_.end()) key = it->second;
  for (const std::string& cand : {shared, node})
    if (key.empty() && !cand.empty())
      if (const auto it = name_keys_.find(cand); it != name_keys_.end()) key = it->second;
  for (const std::string& cand : {shared, node})
    if (key.empty() && !cand.empty() && ck.has(cand)) key = cand;
  if (key.empty())
    ctx.fail("the variable has no value in variables/variables.index (looked up by the object graph, then as '" +
             excerpt(shared.empty() ? node : shared) + "')");
  BundleTensor t = ck.tensor(key);
  const auto* dt = ctx.attr("dtype");
  if (dt && dt->value_case() == ec_tf::AttrValue::kType && ir_dtype_of(dt->type()) != t.dtype)
    ctx.fail("the variable is " + std::string(ir::dtype_name(ir_dtype_of(dt->type()))) + " but checkpoint entry '" +
             excerpt(key) + "' holds " + std::string(ir::dtype_name(t.dtype)));
  if (ctx.out.empty() || ctx.out[0].empty()) return;
  set_const(ctx.out[0], t.dtype, t.shape, std::move(t.data));
}

// ---------------------------------------------------------------- driver

ir::Graph Importer::run() {
  choose_signature();
  for (const auto& f : meta_->graph_def().library().function()) functions_.emplace(f.signature().name(), &f);
  scopes_.emplace_back();
  for (const auto& def : meta_->graph_def().node()) add_node(&def, def.name(), 0);
  bind_inputs();
  const std::vector<int> post = order();
  // Outputs are named by their signature keys where the value is an op's own result.
  std::map<Ref, int> fetch_count;
  for (const auto& [key, r] : fetches_) ++fetch_count[r];
  for (const auto& [key, r] : fetches_)
    if (!feeds_.count(r) && fetch_count[r] == 1 && !used_.count(key)) {
      preferred_[r] = key;
      used_.insert(key);
    }
  for (int id : post) import_node(id);
  for (const auto& [key, r] : fetches_) {
    std::string t = value_name(r);
    const ir::Tensor* tt = graph_.find_tensor(t);
    if (t != key || (tt && tt->is_constant())) {  // a fed input, a constant, or a value fetched twice
      const std::string alias = fresh(t == key ? key + "/value" : key);
      emit("Identity", {t}, {alias}, alias);
      t = alias;
    }
    graph_.outputs.push_back(t);
  }

  // Conv outputs a BiasAdd took over, variables read only by unused outputs.
  ir::drop_unused_tensors(graph_);

  graph_.name = fs::path(dir_).filename().string();
  if (graph_.name.empty() || graph_.name == ".") graph_.name = "savedmodel";
  auto& md = graph_.metadata;
  md["source.format"] = "savedmodel";
  md["savedmodel.signature"] = signature_;
  std::string sigs;
  std::vector<std::string> names;
  for (const auto& [k, v] : meta_->signature_def()) names.push_back(excerpt(k));
  std::sort(names.begin(), names.end());
  for (const auto& n : names) sigs += (sigs.empty() ? "" : ", ") + n;
  md["savedmodel.signatures"] = sigs;
  std::string tags;
  for (const auto& t : meta_->meta_info_def().tags()) tags += (tags.empty() ? "" : ", ") + excerpt(t);
  md["savedmodel.tags"] = tags;
  if (!meta_->meta_info_def().tensorflow_version().empty())
    md["source.producer"] = "TensorFlow " + excerpt(meta_->meta_info_def().tensorflow_version());
  std::string counts;
  for (const auto& [k, v] : op_counts_) counts += (counts.empty() ? "" : ", ") + excerpt(k) + " " + std::to_string(v);
  md["savedmodel.ops_by_type"] = counts;
  md["savedmodel.functions_inlined"] = std::to_string(scopes_.size() - 1);

  if (opts_.infer_shapes) ir::infer_shapes(graph_);
  for (const auto& issue : ir::validate(graph_))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      fail("invalid graph after import: " + ir::to_string(issue));
  return std::move(graph_);
}

ir::Graph load_savedmodel(const std::string& pb, const std::string& dir, const OpenOptions& opts) {
  return Importer(pb, dir, opts).run();
}

}  // namespace ec::frontends::savedmodel
