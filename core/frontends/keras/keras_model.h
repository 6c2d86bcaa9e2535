// load_keras: a Keras model config (Sequential or Functional, Keras 2 and Keras 3
// shapes, nested models) + its weights -> IR. The walk over the config lives in
// keras_model.cpp; the per-class mapping is ONE table in keras_layers.cpp, whose
// converters use the Builder below to read a layer's config and weights and to
// emit IR ops (NHWC, as the model states it).
#pragma once

#include <cstdint>
#include <cstddef>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/frontends/frontend.h"
#include "core/frontends/keras/keras_container.h"
#include "core/ir/graph.h"

namespace ec::frontends::keras {

using json = nlohmann::json;

/// One call of a layer on its inputs.
struct LayerCall {
  std::string cls;                  // Keras class name ("Conv2D")
  std::string name;                 // the layer's name ("conv2d"); op names derive from it
  const json* config = nullptr;     // the layer's "config" object
  std::vector<std::string> inputs;  // IR tensor names
  std::string out;                  // base name of its outputs (unique in the graph)
  WeightRef weights;
};

/// A weight the layer expects: its Keras name and shape.
struct ExpectedWeight {
  const char* name;
  std::vector<std::int64_t> shape;
};

class Builder {
 public:
  Builder(std::string path, int keras_major) : path_(std::move(path)), keras_major_(keras_major) {}

  const std::string& path() const { return path_; }
  /// 3 for Keras 3 (its hard_sigmoid is relu6(x + 3) / 6), 2 before.
  int keras_major() const { return keras_major_; }
  [[noreturn]] void fail(const LayerCall& c, const std::string& why) const;
  [[noreturn]] void fail(const std::string& why) const;

  // --- config (each throws a one-line FrontendError naming the layer and key)
  bool has(const LayerCall& c, const char* key) const;
  std::int64_t get_int(const LayerCall& c, const char* key, std::optional<std::int64_t> fallback = {}) const;
  double get_float(const LayerCall& c, const char* key, std::optional<double> fallback = {}) const;
  bool get_bool(const LayerCall& c, const char* key, bool fallback) const;
  std::string get_string(const LayerCall& c, const char* key, std::optional<std::string> fallback = {}) const;
  /// An int or a list of ints, as n values ("kernel_size": 3 -> {3, 3}).
  std::vector<std::int64_t> get_ints(const LayerCall& c, const char* key, std::size_t n,
                                     std::optional<std::vector<std::int64_t>> fallback = {}) const;
  /// Any list of ints (no fixed length).
  std::vector<std::int64_t> get_int_list(const LayerCall& c, const char* key) const;

  // --- weights
  void set_weights(const WeightStore* w) { weights_ = w; }
  /// The layer's weights, checked against `expected` (count and shapes); the entries
  /// from `required` on may be absent (trailing optional state such as a count).
  std::vector<WeightArray> weights(const LayerCall& c, const std::vector<ExpectedWeight>& expected,
                                   std::size_t required = SIZE_MAX) const;

  // --- IR
  ir::Graph& graph() { return graph_; }
  /// A new f32 (or `dtype`) activation tensor named after `base`.
  std::string tensor(const std::string& base, ir::DType dtype = ir::DType::Float32);
  /// The layer's result tensor `c.out + suffix` (that exact name when still free).
  std::string result(const LayerCall& c, const std::string& suffix = "", ir::DType dtype = ir::DType::Float32);
  std::string constant(const std::string& base, const std::vector<std::int64_t>& shape, std::vector<float> values);
  std::string scalar(const std::string& base, float v) { return constant(base, {}, {v}); }
  std::string ints(const std::string& base, const std::vector<std::int64_t>& v);
  ir::Operation& emit(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                      const std::string& name);
  /// A tensor's static shape (shape inference runs over the ops emitted since the
  /// last call first); fails naming the layer when it is not static.
  std::vector<std::int64_t> shape_of(const LayerCall& c, const std::string& tensor);
  ir::DType dtype_of(const std::string& tensor);
  /// A unique tensor/op name from `base`.
  std::string fresh(const std::string& base);
  /// Runs shape inference over the ops emitted since the last run.
  void infer_pending(const LayerCall* c);

 private:
  std::string add(ir::Tensor t);  // adds `t` (its name already unique) and returns the name

  std::string path_;
  int keras_major_;
  const WeightStore* weights_ = nullptr;
  ir::Graph graph_;
  std::set<std::string> used_;
  std::size_t inferred_ = 0;
};

/// Converts one layer call; returns its output tensors.
using LayerFn = std::vector<std::string> (*)(Builder& b, const LayerCall& c);

struct LayerEntry {
  const char* cls;     // Keras class name (aliases have rows of their own)
  LayerFn convert;
  int min_inputs, max_inputs;  // -1: any number
  const char* note;    // for the README table / messages
};

/// THE layer table.
const std::vector<LayerEntry>& layer_table();
const LayerEntry* find_layer(const std::string& cls);

/// The whole import: the file's model config and weights -> a validated graph.
ir::Graph load_keras(const std::string& path, KerasFile& file, const OpenOptions& opts);

}  // namespace ec::frontends::keras
