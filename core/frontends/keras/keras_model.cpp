// The walk over a Keras model config (see keras_model.h).
//
// Config shapes read (keras/src/models/functional.py, sequential.py and tf.keras's):
//  - Sequential: {"class_name": "Sequential", "config": {"name", "layers": [layer...]}};
//    the first layer is an InputLayer (Keras 3, tf.keras 2.x) or carries
//    "batch_input_shape" itself (older Keras 2); Keras 3 also records "build_input_shape".
//  - Functional ("Functional" in Keras 3, "Model"/"Functional" in Keras 2): "layers"
//    with per-layer "name" and "inbound_nodes", plus "input_layers"/"output_layers":
//    [name, node, tensor] leaves, nested in lists or dicts.
//    Keras 2 nodes: [[name, node_index, tensor_index, kwargs], ...];
//    Keras 3 nodes: {"args": [...], "kwargs": {...}} where a tensor is
//    {"class_name": "__keras_tensor__", "config": {"keras_history": [name, node, tensor]}}.
//  - InputLayer: "batch_shape" (Keras 3) or "batch_input_shape" (Keras 2), "dtype".
//  - A model used as a layer is walked in place (its ops are named "<model>/<layer>");
//    a Functional model's node indices count its own construction node first.
#include "core/frontends/keras/keras_model.h"

#include <algorithm>
#include <functional>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/ir/shape_inference.h"
#include "core/ir/validate.h"
#include "core/util/json_text.h"

namespace ec::frontends::keras {

// ------------------------------------------------------------------ Builder

void Builder::fail(const LayerCall& c, const std::string& why) const {
  fail("layer '" + excerpt(c.name, 60) + "' (" + excerpt(c.cls, 40) + "): " + why);
}

void Builder::fail(const std::string& why) const { throw FrontendError(path_, bounded_message(why, 120), "keras"); }

namespace {
const json* lookup(const LayerCall& c, const char* key) {
  if (!c.config || !c.config->is_object()) return nullptr;
  const auto it = c.config->find(key);
  if (it == c.config->end() || it->is_null()) return nullptr;
  return &*it;
}
std::string kind_of(const json& j) { return j.type_name(); }
}  // namespace

bool Builder::has(const LayerCall& c, const char* key) const { return lookup(c, key) != nullptr; }

std::int64_t Builder::get_int(const LayerCall& c, const char* key, std::optional<std::int64_t> fallback) const {
  const json* j = lookup(c, key);
  if (!j) {
    if (fallback) return *fallback;
    fail(c, std::string("config has no '") + key + "'");
  }
  if (j->is_number_integer()) return j->get<std::int64_t>();
  if (j->is_number_float() && std::floor(j->get<double>()) == j->get<double>() && std::abs(j->get<double>()) < 1e15)
    return static_cast<std::int64_t>(j->get<double>());
  if (j->is_array() && j->size() == 1) {
    LayerCall one = c;
    json wrap = json::object({{key, (*j)[0]}});
    one.config = &wrap;
    return get_int(one, key, fallback);
  }
  fail(c, std::string("config '") + key + "' is a " + kind_of(*j) + ", not an integer");
}

double Builder::get_float(const LayerCall& c, const char* key, std::optional<double> fallback) const {
  const json* j = lookup(c, key);
  if (!j) {
    if (fallback) return *fallback;
    fail(c, std::string("config has no '") + key + "'");
  }
  if (!j->is_number()) fail(c, std::string("config '") + key + "' is a " + kind_of(*j) + ", not a number");
  return j->get<double>();
}

bool Builder::get_bool(const LayerCall& c, const char* key, bool fallback) const {
  const json* j = lookup(c, key);
  if (!j) return fallback;
  if (!j->is_boolean()) fail(c, std::string("config '") + key + "' is a " + kind_of(*j) + ", not true/false");
  return j->get<bool>();
}

std::string Builder::get_string(const LayerCall& c, const char* key, std::optional<std::string> fallback) const {
  const json* j = lookup(c, key);
  if (!j) {
    if (fallback) return *fallback;
    fail(c, std::string("config has no '") + key + "'");
  }
  if (!j->is_string()) fail(c, std::string("config '") + key + "' is a " + kind_of(*j) + ", not a string");
  return j->get<std::string>();
}

std::vector<std::int64_t> Builder::get_int_list(const LayerCall& c, const char* key) const {
  const json* j = lookup(c, key);
  if (!j) fail(c, std::string("config has no '") + key + "'");
  std::vector<std::int64_t> out;
  if (j->is_number_integer()) return {j->get<std::int64_t>()};
  if (!j->is_array() || j->size() > 64) fail(c, std::string("config '") + key + "' is not a list of integers");
  for (const auto& v : *j) {
    if (!v.is_number_integer()) fail(c, std::string("config '") + key + "' holds a " + kind_of(v) + ", not an integer");
    out.push_back(v.get<std::int64_t>());
  }
  return out;
}

std::vector<std::int64_t> Builder::get_ints(const LayerCall& c, const char* key, std::size_t n,
                                            std::optional<std::vector<std::int64_t>> fallback) const {
  if (!lookup(c, key)) {
    if (fallback) return *fallback;
    fail(c, std::string("config has no '") + key + "'");
  }
  auto v = get_int_list(c, key);
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n)
    fail(c, std::string("config '") + key + "' has " + std::to_string(v.size()) + " values, expected " + std::to_string(n));
  return v;
}

namespace {
std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
  return t + "]";
}
}  // namespace

std::vector<WeightArray> Builder::weights(const LayerCall& c, const std::vector<ExpectedWeight>& expected,
                                         std::size_t required) const {
  if (!weights_) fail(c, "no weights were read");
  std::string where;
  auto got = weights_->variables(c.weights, where);
  std::string names;
  for (const auto& e : expected) names += (names.empty() ? "" : ", ") + std::string(e.name);
  if (got.size() != expected.size() && !(got.size() >= std::min(required, expected.size()) && got.size() < expected.size())) {
    if (got.empty())
      fail(c, "weights are missing: expected " + std::to_string(expected.size()) + " (" + names + ") under " + where);
    fail(c, "the file has " + std::to_string(got.size()) + " weights under " + where + ", the layer's config needs " +
                std::to_string(expected.size()) + " (" + names + ")");
  }
  if (got.empty() && !expected.empty()) fail(c, "weights are missing under " + where);
  for (std::size_t i = 0; i < got.size(); ++i)
    if (got[i].shape != expected[i].shape)
      fail(c, std::string("weight '") + expected[i].name + "' has shape " + shape_text(got[i].shape) +
                  ", the layer's config needs " + shape_text(expected[i].shape) + " (" + excerpt(got[i].where, 80) + ")");
  return got;
}

std::string Builder::fresh(const std::string& base) {
  std::string n = base.empty() ? "t" : base;
  if (used_.insert(n).second && !graph_.find_tensor(n)) return n;
  for (int k = 1;; ++k) {
    std::string cand = n + "_" + std::to_string(k);
    if (used_.insert(cand).second && !graph_.find_tensor(cand)) return cand;
  }
}

std::string Builder::add(ir::Tensor t) {
  const std::string n = t.name;
  used_.insert(n);
  graph_.add_tensor(std::move(t));
  return n;
}

std::string Builder::tensor(const std::string& base, ir::DType dtype) { return add({fresh(base), dtype, ir::Shape::unknown_rank(), {}, {}}); }

std::string Builder::result(const LayerCall& c, const std::string& suffix, ir::DType dtype) {
  std::string n = c.out + suffix;
  if (graph_.find_tensor(n) || (!suffix.empty() && used_.count(n))) n = fresh(n);
  return add({n, dtype, ir::Shape::unknown_rank(), {}, {}});
}

std::string Builder::constant(const std::string& base, const std::vector<std::int64_t>& shape, std::vector<float> values) {
  return add({fresh(base), ir::DType::Float32, ir::Shape::of(shape),
              ir::ConstantData::copy_of(values.data(), values.size() * sizeof(float)), {}});
}

std::string Builder::ints(const std::string& base, const std::vector<std::int64_t>& v) {
  return add({fresh(base), ir::DType::Int64, ir::Shape::of({static_cast<std::int64_t>(v.size())}),
              ir::ConstantData::copy_of(v.data(), v.size() * sizeof(std::int64_t)), {}});
}

ir::Operation& Builder::emit(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                             const std::string& name) {
  return graph_.ops.emplace_back(ir::Operation{fresh(name), ir::op_kind_from_name(type).value_or(ir::OpKind::Unknown), type,
                                               std::move(inputs), std::move(outputs), {}, {}});
}

// Shape inference over the ops emitted since the last run, on a small graph of
// their own (so a model of n layers costs O(n), not O(n^2)).
void Builder::infer_pending(const LayerCall* c) {
  if (inferred_ >= graph_.ops.size()) return;
  ir::Graph part;
  auto take = [&](const std::string& n) {
    if (n.empty() || part.find_tensor(n)) return;
    if (const ir::Tensor* t = graph_.find_tensor(n)) part.add_tensor(*t);
  };
  for (std::size_t i = inferred_; i < graph_.ops.size(); ++i) {
    for (const auto& n : graph_.ops[i].inputs) take(n);
    for (const auto& n : graph_.ops[i].outputs) take(n);
    part.ops.push_back(graph_.ops[i]);
  }
  const auto result = ir::infer_shapes(part);
  if (!result.conflicts.empty()) {
    const auto& k = result.conflicts.front();
    const std::string why = "shapes do not fit (" + k.op + ": " + k.message + ")";
    if (c) fail(*c, why);
    fail(why);
  }
  for (std::size_t i = inferred_; i < graph_.ops.size(); ++i)
    for (const auto& n : graph_.ops[i].outputs)
      if (const ir::Tensor* t = part.find_tensor(n); t && !n.empty()) {
        ir::Tensor* dst = graph_.find_tensor(n);
        dst->shape = t->shape;
        if (t->dtype != ir::DType::Undefined) dst->dtype = t->dtype;
      }
  inferred_ = graph_.ops.size();
}

std::vector<std::int64_t> Builder::shape_of(const LayerCall& c, const std::string& name) {
  infer_pending(&c);
  const ir::Tensor* t = graph_.find_tensor(name);
  if (!t || !t->shape.rank_known || !t->shape.is_static())
    fail(c, "input '" + excerpt(name, 60) + "' has no static shape (" + (t ? t->shape.to_string() : "?") + ")");
  return t->shape.sizes();
}

ir::DType Builder::dtype_of(const std::string& name) {
  infer_pending(nullptr);
  const ir::Tensor* t = graph_.find_tensor(name);
  return t ? t->dtype : ir::DType::Undefined;
}

// ------------------------------------------------------------------ the walk

namespace {

struct Scope {
  std::string v3_prefix, v2_prefix;       // "" at the top, "layers/functional/" inside
  std::string legacy_top;                 // legacy .h5: the top-level layer holding a nested model
  std::vector<std::string> legacy_chain;  // names of the models below it
  std::string op_prefix;                  // "" or "inner_model/"
  int depth = 0;
};

struct TensorRef {
  std::string layer;
  std::int64_t node = 0, index = 0;
};

bool is_model_class(const std::string& cls) {
  return cls == "Sequential" || cls == "Functional" || cls == "Model";
}

class ModelReader {
 public:
  ModelReader(const std::string& path, KerasFile& file, const OpenOptions& opts)
      : path_(path), file_(file), opts_(opts), b_(path, major_of(file.keras_version)) {
    b_.set_weights(file.weights.get());
  }

  ir::Graph read();

 private:
  static int major_of(const std::string& v) {
    if (v.empty() || !std::isdigit(static_cast<unsigned char>(v[0]))) return 2;
    return v[0] == '1' || v[0] == '2' ? 2 : 3;
  }
  [[noreturn]] void fail(const std::string& why) const { b_.fail(why); }

  std::vector<std::string> build_model(const json& model, const Scope& scope, const std::vector<std::string>* given,
                                       const std::string& where);
  std::vector<std::string> sequential(const json& cfg, const Scope& scope, const std::vector<std::string>* given,
                                      const std::string& where);
  std::vector<std::string> functional(const json& cfg, const Scope& scope, const std::vector<std::string>* given,
                                      const std::string& where);
  /// Converts one layer (or walks a nested model) on `inputs`.
  std::vector<std::string> call_layer(const json& layer, const Scope& scope, const std::vector<std::string>& inputs,
                                      std::map<std::string, int>& class_counts);
  std::string make_input(const json& layer, const std::string& name, const json* shape_override = nullptr);

  std::string path_;
  KerasFile& file_;
  const OpenOptions& opts_;
  Builder b_;
  std::map<std::string, std::int64_t> class_counts_total_;
  bool first_input_ = true;
  std::size_t layer_calls_ = 0;
};

const json& member(const json& obj, const char* key, const std::string& where,
                   const std::function<void(const std::string&)>& fail) {
  if (!obj.is_object() || !obj.contains(key)) fail(where + " has no '" + key + "'");
  return obj[key];
}

std::string dtype_name(const json& d) {
  if (d.is_string()) return d.get<std::string>();
  if (d.is_object() && d.contains("config") && d["config"].is_object() && d["config"].contains("name") &&
      d["config"]["name"].is_string())
    return d["config"]["name"].get<std::string>();
  return "float32";
}

std::string ModelReader::make_input(const json& layer, const std::string& name, const json* shape_override) {
  const json& cfg = layer.contains("config") ? layer["config"] : layer;
  const json* shape = shape_override;
  if (!shape)
    for (const char* key : {"batch_shape", "batch_input_shape"})
      if (cfg.is_object() && cfg.contains(key) && !cfg[key].is_null()) shape = &cfg[key];
  const std::string shown = excerpt(name, 60);
  if (!shape || !shape->is_array() || shape->empty() || shape->size() > 8)
    fail("input '" + shown + "' has no usable batch_shape/batch_input_shape in its config");
  std::vector<ir::Dim> dims;
  std::vector<std::int64_t> file_dims;
  for (const auto& d : *shape) {
    if (d.is_null()) file_dims.push_back(-1);
    else if (d.is_number_integer() && d.get<std::int64_t>() >= 0 && d.get<std::int64_t>() <= (1 << 30))
      file_dims.push_back(d.get<std::int64_t>());
    else fail("input '" + shown + "' has a dimension that is not a size: " + util::json_excerpt(d));
  }
  const std::vector<std::int64_t>* given = nullptr;
  if (auto it = opts_.input_shapes.find(name); it != opts_.input_shapes.end()) given = &it->second;
  else if (auto it2 = opts_.input_shapes.find(""); first_input_ && it2 != opts_.input_shapes.end()) given = &it2->second;
  first_input_ = false;
  std::string as_text;
  for (std::size_t i = 0; i < file_dims.size(); ++i)
    as_text += (i ? "," : "") + (file_dims[i] < 0 ? std::string("?") : std::to_string(file_dims[i]));
  if (given) {
    if (given->size() != file_dims.size())
      fail("--input-shape for '" + shown + "' has " + std::to_string(given->size()) + " dimensions, the model's input has " +
           std::to_string(file_dims.size()) + " [" + as_text + "]");
    for (std::size_t i = 0; i < file_dims.size(); ++i) {
      if (file_dims[i] >= 0 && i > 0 && file_dims[i] != (*given)[i])
        fail("--input-shape for '" + shown + "' gives dimension " + std::to_string(i) + " as " + std::to_string((*given)[i]) +
             ", the model fixes it to " + std::to_string(file_dims[i]));
      file_dims[i] = (*given)[i];
    }
  }
  std::string example;
  for (std::size_t i = 0; i < file_dims.size(); ++i)
    example += (i ? "," : "") + (i == 0 ? std::string("1") : file_dims[i] < 0 ? "D" + std::to_string(i) : std::to_string(file_dims[i]));
  for (std::size_t i = 0; i < file_dims.size(); ++i) {
    if (file_dims[i] < 0 && i == 0) file_dims[i] = 1;  // a free batch runs as 1
    if (file_dims[i] < 0)
      fail("input '" + shown + "' has free dimensions [" + as_text + "]; pass --input-shape " + shown + "=" + example +
           " with the sizes to use");
  }
  const std::string dt = cfg.is_object() && cfg.contains("dtype") ? dtype_name(cfg["dtype"]) : "float32";
  ir::DType dtype = ir::DType::Float32;
  if (dt == "int32") dtype = ir::DType::Int32;
  else if (dt == "int64") dtype = ir::DType::Int64;
  else if (dt == "uint8") dtype = ir::DType::UInt8;
  else if (dt == "float16" || dt == "mixed_float16" || dt == "float64" || dt == "float32" || dt == "mixed_bfloat16")
    dtype = ir::DType::Float32;
  else fail("input '" + shown + "' has dtype '" + excerpt(dt, 20) + "' (supported: float32, int32, int64, uint8)");
  const std::string n = b_.tensor(name, dtype);
  b_.graph().find_tensor(n)->shape = ir::Shape::of(file_dims);
  b_.graph().inputs.push_back(n);
  return n;
}

std::vector<std::string> ModelReader::build_model(const json& model, const Scope& scope,
                                                  const std::vector<std::string>* given, const std::string& where) {
  if (!model.is_object() || !model.contains("class_name") || !model["class_name"].is_string())
    fail(where + " has no class_name; it is not a Keras model config");
  const std::string cls = model["class_name"].get<std::string>();
  if (!model.contains("config") || !model["config"].is_object()) fail(where + " (" + excerpt(cls, 40) + ") has no config object");
  const json& cfg = model["config"];
  if (scope.depth > 16) fail(where + ": models nested more than 16 deep");
  if (cls == "Sequential") return sequential(cfg, scope, given, where);
  if (cls == "Functional" || cls == "Model") {
    if (!cfg.contains("layers")) fail(where + " is a subclassed Model (no layer graph in its config); only Sequential and "
                                      "Functional models can be read");
    return functional(cfg, scope, given, where);
  }
  fail(where + " is a " + excerpt(cls, 40) + ", not a Sequential or Functional model");
}

std::vector<std::string> ModelReader::sequential(const json& cfg, const Scope& scope, const std::vector<std::string>* given,
                                                 const std::string& where) {
  if (!cfg.contains("layers") || !cfg["layers"].is_array()) fail(where + " (Sequential) has no layer list");
  const json& layers = cfg["layers"];
  std::map<std::string, int> counts;
  std::vector<std::string> cur;
  if (given) {
    if (given->size() != 1) fail(where + " (Sequential) is called on " + std::to_string(given->size()) + " inputs");
    cur = *given;
  }
  std::size_t i = 0;
  for (const auto& layer : layers) {
    const std::string cls = layer.is_object() && layer.contains("class_name") && layer["class_name"].is_string()
                                ? layer["class_name"].get<std::string>() : std::string();
    const json* lc = layer.is_object() && layer.contains("config") ? &layer["config"] : nullptr;
    std::string name = lc && lc->is_object() && lc->contains("name") && (*lc)["name"].is_string()
                           ? (*lc)["name"].get<std::string>() : "layer_" + std::to_string(i);
    ++i;
    if (cls == "InputLayer") {
      if (cur.empty()) cur = {make_input(layer, name)};
      continue;
    }
    if (cur.empty()) {  // no InputLayer: the first layer's batch_input_shape, or the model's build_input_shape
      const json* s = nullptr;
      if (lc && lc->is_object() && lc->contains("batch_input_shape")) s = &(*lc)["batch_input_shape"];
      else if (cfg.contains("build_input_shape")) s = &cfg["build_input_shape"];
      else if (layer.is_object() && layer.contains("build_config") && layer["build_config"].is_object() &&
               layer["build_config"].contains("input_shape"))
        s = &layer["build_config"]["input_shape"];
      if (!s) fail(where + " (Sequential) states no input shape (no InputLayer, batch_input_shape or build_input_shape)");
      cur = {make_input(json::object(), scope.op_prefix + "input", s)};
    }
    cur = call_layer(layer, scope, cur, counts);
    if (cur.empty()) fail("layer '" + excerpt(name, 60) + "' gives no output");
    cur.resize(1);  // Sequential passes the first output on
  }
  if (cur.empty()) fail(where + " (Sequential) has no layers and no input");
  return cur;
}

// [name, node, tensor] leaves of a nested list/dict, in order.
void collect_refs(const json& j, std::vector<TensorRef>& out, int depth, const std::function<void(const std::string&)>& fail) {
  if (depth > 32) fail("tensor references nest too deeply");
  if (j.is_array() && j.size() >= 3 && j.size() <= 4 && j[0].is_string() && j[1].is_number_integer() &&
      j[2].is_number_integer()) {
    out.push_back({j[0].get<std::string>(), j[1].get<std::int64_t>(), j[2].get<std::int64_t>()});
    return;
  }
  if (j.is_object() && j.value("class_name", "") == "__keras_tensor__") {
    const json* h = j.contains("config") && j["config"].is_object() && j["config"].contains("keras_history")
                        ? &j["config"]["keras_history"] : nullptr;
    if (!h || !h->is_array() || h->size() < 3 || !(*h)[0].is_string() || !(*h)[1].is_number_integer() ||
        !(*h)[2].is_number_integer())
      fail("a __keras_tensor__ has no valid keras_history");
    out.push_back({(*h)[0].get<std::string>(), (*h)[1].get<std::int64_t>(), (*h)[2].get<std::int64_t>()});
    return;
  }
  if (j.is_array())
    for (const auto& e : j) collect_refs(e, out, depth + 1, fail);
  else if (j.is_object())
    for (const auto& [k, v] : j.items()) collect_refs(v, out, depth + 1, fail);
}

std::vector<std::string> ModelReader::functional(const json& cfg, const Scope& scope, const std::vector<std::string>* given,
                                                 const std::string& where) {
  const auto failf = [this](const std::string& m) { fail(m); };
  const json& layers = member(cfg, "layers", where, failf);
  if (!layers.is_array()) fail(where + " 'layers' is not a list");
  std::vector<TensorRef> in_refs, out_refs;
  collect_refs(member(cfg, "input_layers", where, failf), in_refs, 0, failf);
  collect_refs(member(cfg, "output_layers", where, failf), out_refs, 0, failf);
  if (out_refs.empty()) fail(where + " has no output layers");
  if (given && given->size() != in_refs.size())
    fail(where + " is called on " + std::to_string(given->size()) + " inputs, it has " + std::to_string(in_refs.size()));

  struct LayerState {
    const json* layer;
    std::string name, cls;
    std::vector<const json*> nodes;  // inbound nodes still to process
    std::size_t done = 0;
    std::vector<std::vector<std::string>> outputs;  // per processed node
    int node_offset = 0;  // a Functional model's own construction node comes first
  };
  std::vector<LayerState> st;
  std::map<std::string, std::size_t> by_name;
  for (const auto& layer : layers) {
    if (!layer.is_object()) fail(where + " lists a layer that is not an object");
    LayerState s;
    s.layer = &layer;
    s.cls = layer.contains("class_name") && layer["class_name"].is_string() ? layer["class_name"].get<std::string>() : "";
    if (layer.contains("name") && layer["name"].is_string()) s.name = layer["name"].get<std::string>();
    else if (layer.contains("config") && layer["config"].is_object() && layer["config"].contains("name") &&
             layer["config"]["name"].is_string())
      s.name = layer["config"]["name"].get<std::string>();
    else fail(where + " lists a layer without a name");
    if (by_name.count(s.name)) fail(where + " has two layers named '" + excerpt(s.name, 60) + "'");
    if (layer.contains("inbound_nodes") && layer["inbound_nodes"].is_array())
      for (const auto& n : layer["inbound_nodes"]) s.nodes.push_back(&n);
    if (s.cls == "Functional" || s.cls == "Model" || (s.cls == "Sequential" && b_.keras_major() < 3)) s.node_offset = 1;
    by_name[s.name] = st.size();
    st.push_back(std::move(s));
  }
  // Inputs: the InputLayers named by input_layers (bound to `given` inside a nested model).
  for (std::size_t k = 0; k < in_refs.size(); ++k) {
    const auto it = by_name.find(in_refs[k].layer);
    if (it == by_name.end()) fail(where + " input_layers names an unknown layer '" + excerpt(in_refs[k].layer, 60) + "'");
    LayerState& s = st[it->second];
    if (!s.outputs.empty()) continue;
    s.outputs.push_back({given ? (*given)[k] : make_input(*s.layer, scope.op_prefix + s.name)});
  }
  auto resolve = [&](const TensorRef& r, std::string& out) -> int {  // 1 found, 0 not yet, fails otherwise
    const auto it = by_name.find(r.layer);
    if (it == by_name.end()) fail(where + " refers to an unknown layer '" + excerpt(r.layer, 60) + "'");
    const LayerState& s = st[it->second];
    const std::int64_t node = s.cls == "InputLayer" ? 0 : r.node - s.node_offset;
    if (node < 0 || r.node > static_cast<std::int64_t>(s.nodes.size()) + 1)
      fail(where + " refers to node " + std::to_string(r.node) + " of layer '" + excerpt(r.layer, 60) + "', which has " +
           std::to_string(s.nodes.size()) + " calls");
    if (static_cast<std::size_t>(node) >= s.outputs.size()) return 0;
    const auto& outs = s.outputs[static_cast<std::size_t>(node)];
    if (r.index < 0 || static_cast<std::size_t>(r.index) >= outs.size())
      fail(where + " refers to output " + std::to_string(r.index) + " of layer '" + excerpt(r.layer, 60) + "', which has " +
           std::to_string(outs.size()));
    out = outs[static_cast<std::size_t>(r.index)];
    return 1;
  };
  std::map<std::string, int> counts;
  // Every layer's config position fixes its weight path; count classes in config order first.
  std::vector<std::map<std::string, int>> counts_at(st.size());
  for (std::size_t i = 0; i < st.size(); ++i) {
    counts_at[i] = counts;
    ++counts[st[i].cls];
  }
  bool progress = true;
  while (progress) {
    progress = false;
    for (std::size_t i = 0; i < st.size(); ++i) {
      LayerState& s = st[i];
      while (s.done < s.nodes.size()) {
        const json& node = *s.nodes[s.done];
        std::vector<TensorRef> refs;
        if (node.is_object()) {
          if (node.contains("args")) collect_refs(node["args"], refs, 0, failf);
          if (node.contains("kwargs")) collect_refs(node["kwargs"], refs, 0, failf);
        } else {
          collect_refs(node, refs, 0, failf);
        }
        if (refs.empty()) fail("layer '" + excerpt(s.name, 60) + "' has a call without input tensors");
        std::vector<std::string> ins;
        bool ready = true;
        for (const auto& r : refs) {
          std::string t;
          if (!resolve(r, t)) {
            ready = false;
            break;
          }
          ins.push_back(t);
        }
        if (!ready) break;
        auto c = counts_at[i];
        s.outputs.push_back(call_layer(*s.layer, scope, ins, c));
        ++s.done;
        progress = true;
      }
    }
  }
  for (const auto& s : st)
    if (s.done < s.nodes.size())
      fail("layer '" + excerpt(s.name, 60) + "' waits for inputs no layer produces (a cycle, or a reference to a missing call)");
  std::vector<std::string> outs;
  for (const auto& r : out_refs) {
    std::string t;
    if (!resolve(r, t)) fail(where + " output '" + excerpt(r.layer, 60) + "' is never computed");
    outs.push_back(t);
  }
  return outs;
}

std::vector<std::string> ModelReader::call_layer(const json& layer, const Scope& scope, const std::vector<std::string>& inputs,
                                                 std::map<std::string, int>& class_counts) {
  if (++layer_calls_ > 100000) fail("more than 100000 layer calls; refused");
  LayerCall c;
  c.cls = layer.contains("class_name") && layer["class_name"].is_string() ? layer["class_name"].get<std::string>() : "";
  static const json kEmpty = json::object();
  c.config = layer.contains("config") && layer["config"].is_object() ? &layer["config"] : &kEmpty;
  c.name = layer.contains("name") && layer["name"].is_string() ? layer["name"].get<std::string>()
                                                                : b_.get_string(c, "name", std::string("layer"));
  c.inputs = inputs;
  // Weight paths (keras_container.h): Keras 3 by class and position, Keras 2.13+ by name.
  const std::string snake = snake_case(c.cls);
  const int seen = class_counts[c.cls]++;
  c.weights.v3_path = scope.v3_prefix + "layers/" + snake + (seen ? "_" + std::to_string(seen) : "");
  c.weights.v2_path = scope.v2_prefix + "_layer_checkpoint_dependencies/" + c.name;
  if (scope.legacy_top.empty()) {
    c.weights.legacy_layer = c.name;
  } else {
    c.weights.legacy_layer = scope.legacy_top;
    c.weights.legacy_inner = scope.legacy_chain;
    c.weights.legacy_inner.push_back(c.name);
  }
  const std::string display = scope.op_prefix + c.name;
  c.out = b_.fresh(display);
  ++class_counts_total_[c.cls];
  if (is_model_class(c.cls)) {
    Scope inner;
    inner.v3_prefix = c.weights.v3_path + "/";
    inner.v2_prefix = c.weights.v2_path + "/";
    inner.legacy_top = scope.legacy_top.empty() ? c.name : scope.legacy_top;
    inner.legacy_chain = scope.legacy_top.empty() ? std::vector<std::string>{} : c.weights.legacy_inner;
    inner.op_prefix = display + "/";
    inner.depth = scope.depth + 1;
    return build_model(layer, inner, &inputs, "nested model '" + excerpt(c.name, 60) + "'");
  }
  const LayerEntry* e = find_layer(c.cls);
  if (!e) {
    throw UnsupportedOpError("keras::" + excerpt(c.cls, 40), "the Keras frontend",
                             "layer '" + excerpt(c.name, 60) + "' (class " + excerpt(c.cls, 40) +
                                 ") has no mapping; rebuild it from supported layers (core/frontends/keras/README.md)",
                             path_);
  }
  const auto n = static_cast<int>(inputs.size());
  if (n < e->min_inputs || (e->max_inputs >= 0 && n > e->max_inputs))
    b_.fail(c, "is called on " + std::to_string(n) + " inputs, it takes " + std::to_string(e->min_inputs) +
                   (e->max_inputs < 0 ? " or more" : e->max_inputs == e->min_inputs ? "" : " to " + std::to_string(e->max_inputs)));
  auto outs = e->convert(b_, c);
  b_.infer_pending(&c);
  return outs;
}

ir::Graph ModelReader::read() {
  Scope top;
  auto outs = build_model(file_.model, top, nullptr, "the model config");
  ir::Graph& g = b_.graph();
  g.name = file_.model.contains("config") && file_.model["config"].is_object() && file_.model["config"].contains("name") &&
                   file_.model["config"]["name"].is_string()
               ? excerpt(file_.model["config"]["name"].get<std::string>(), 80) : "keras_model";
  // A graph output must be an op's own tensor, once: an input passed straight
  // through, or the same tensor twice, gets an Identity.
  std::set<std::string> seen;
  for (auto& o : outs) {
    const bool is_input = std::find(g.inputs.begin(), g.inputs.end(), o) != g.inputs.end();
    if (is_input || !seen.insert(o).second) {
      const std::string id = b_.tensor(o + "/identity", b_.dtype_of(o));
      b_.emit("Identity", {o}, {id}, id);
      o = id;
      seen.insert(o);
    }
    g.outputs.push_back(o);
  }
  b_.infer_pending(nullptr);
  auto& md = g.metadata;
  md["source.format"] = "keras";
  md["source.producer"] = file_.keras_version.empty() ? "Keras" : "Keras " + file_.keras_version;
  md["keras.container"] = file_.variant;
  md["keras.model_class"] = excerpt(file_.model.value("class_name", std::string("?")), 40);
  std::string counts;
  for (const auto& [k, v] : class_counts_total_) counts += (counts.empty() ? "" : ", ") + excerpt(k, 40) + " " + std::to_string(v);
  md["keras.layers_by_class"] = counts;
  for (const auto& issue : ir::validate(g))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      fail("invalid graph after import: " + ir::to_string(issue));
  return std::move(g);
}

}  // namespace

ir::Graph load_keras(const std::string& path, KerasFile& file, const OpenOptions& opts) {
  try {
    return ModelReader(path, file, opts).read();
  } catch (const EdgeCompilerError&) {
    throw;
  } catch (const json::exception& e) {
    throw FrontendError(path, "the model config does not have the expected form (" + bounded_message(e.what(), 60) + ")",
                        "keras");
  }
}

}  // namespace ec::frontends::keras
