// load_savedmodel: a SavedModel's signature -> IR (internal to the frontend).
//
// Order: saved_model.pb is parsed and its MetaGraph ("serve") and signature chosen;
// the signature's inputs become graph inputs (their shapes completed from
// OpenOptions::input_shapes); from the signature's outputs the graph is walked
// backwards, without recursion, inlining (Stateful)PartitionedCall bodies from the
// function library on demand (bounded nesting and node count) and skipping
// Identity-like nodes; variables are bound to checkpoint keys; then every node
// reached is mapped, inputs before users, by one row of the op table
// (savedmodel_ops.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/frontends/frontend.h"
#include "core/frontends/savedmodel/checkpoint_reader.h"
#include "core/ir/graph.h"

namespace ec_tf {
class NodeDef;
class AttrValue;
class FunctionDef;
class SavedModel;
class MetaGraphDef;
class TensorProto;
}  // namespace ec_tf

namespace ec::frontends::savedmodel {

/// Reads the SavedModel whose saved_model.pb bytes are `pb` (the folder `dir`
/// holds variables/). `what` names the folder in errors.
ir::Graph load_savedmodel(const std::string& pb, const std::string& dir, const OpenOptions& opts);

/// One output of one node of the flattened graph.
struct Ref {
  int node = -1;
  int index = 0;
  auto operator<=>(const Ref&) const = default;
};

class Importer;

/// What an op-table row sees of the node it maps.
struct OpContext {
  Importer& im;
  const ec_tf::NodeDef& def;
  std::string name;              // the node's unique (prefixed) name
  std::vector<std::string> in;   // IR tensor names of its data inputs
  std::vector<std::string> out;  // IR tensor names of its used outputs ("" = unused)

  [[noreturn]] void fail(const std::string& why) const;
  std::string where() const;  // "node 'NAME' (OP)"
  // attributes
  const ec_tf::AttrValue* attr(const std::string& key) const;
  std::int64_t attr_int(const std::string& key, std::int64_t fallback) const;
  float attr_float(const std::string& key, float fallback) const;
  bool attr_bool(const std::string& key, bool fallback) const;
  std::string attr_string(const std::string& key, const std::string& fallback) const;
  std::vector<std::int64_t> attr_ints(const std::string& key) const;
  /// Input `i` must exist; returns its IR name.
  const std::string& input(std::size_t i) const;
  /// Input `i` as constant integers (int32 or int64).
  std::vector<std::int64_t> const_ints(std::size_t i, const std::string& what) const;
};

using OpImport = void (*)(OpContext&);

/// How the walker treats an op: mapped by its row's function, forwarded to one of
/// its inputs (Identity-like: output i is input i, or input 0), or inlined (a call).
enum class RowKind : std::uint8_t { Map, Alias, Call };

/// One row of the op table: a TensorFlow op and how it maps.
struct OpRow {
  std::string_view tf_op;
  RowKind kind;
  OpImport import;  // Map rows only
  int outputs;      // Map rows: how many outputs the mapping produces (others must be unused)
  std::string_view ir;  // what it becomes, for the README's coverage table
};

/// The op table (savedmodel_ops.cpp); nullptr for an op it has no row for.
const OpRow* find_op_row(std::string_view tf_op);
/// Every op of the table, for the README check and --help.
std::vector<std::string_view> op_table_names();

class Importer {
 public:
  Importer(const std::string& pb, const std::string& dir, const OpenOptions& opts);
  ~Importer();
  ir::Graph run();

  // --- used by the op table
  [[noreturn]] void fail(const std::string& why) const;
  /// fail() for an op mapping (see savedmodel_import.cpp).
  [[noreturn]] void fail_mapping(const std::string& why) const;
  ir::Operation& emit(const std::string& type, std::vector<std::string> inputs, std::vector<std::string> outputs,
                      const std::string& name);
  /// A new constant tensor (name made unique from `base`), returned by name.
  std::string add_const(const std::string& base, ir::DType dtype, std::vector<std::int64_t> shape, ir::ConstantData data);
  std::string add_i64(const std::string& base, const std::vector<std::int64_t>& v, bool scalar = false);
  std::string add_f32(const std::string& base, float v);
  /// Puts a constant under an output name chosen by the driver (folded ops, Const).
  void set_const(const std::string& name, ir::DType dtype, std::vector<std::int64_t> shape, ir::ConstantData data);
  const ir::Tensor* tensor(const std::string& name) const { return graph_.find_tensor(name); }
  /// The tensor's shape, after shape inference of the graph built so far when unknown.
  const ir::Shape& shape_of(const std::string& name);
  /// The value of a constant tensor as integers (int32/int64/bool), or nullopt.
  std::optional<std::vector<std::int64_t>> ints_of(const std::string& name) const;
  /// A Const node's TensorProto as an IR constant under `name`.
  void const_from_proto(const ec_tf::TensorProto& t, const std::string& name, const std::string& where);
  /// A variable node's value (from the checkpoint) under `name`.
  void variable(const OpContext& ctx);
  bool allow_unknown_ops() const { return opts_.allow_unknown_ops; }
  /// How many inputs of mapped nodes and signature outputs read the tensor.
  int uses(const std::string& tensor) const;
  /// Makes `op` write `name` as its output `k` (a new tensor of unknown shape).
  void rewire_output(ir::Operation& op, std::size_t k, const std::string& name);
  /// The op that writes `tensor`, or nullptr.
  ir::Operation* producer(const std::string& tensor);

 private:
  struct Scope;
  struct Node;

  void choose_signature();
  void bind_inputs();
  int add_node(const ec_tf::NodeDef* def, const std::string& name, int scope);
  void resolve_inputs(int node);
  Ref parse_ref(int scope, const std::string& text, const std::string& where);
  int output_index(const ec_tf::NodeDef& producer, const std::string& arg, int i, const std::string& where);
  void inline_call(int node);
  Ref canon(Ref r);
  std::vector<int> order();
  void import_node(int node);
  std::string fresh(const std::string& base);
  void load_variable_keys();
  CheckpointReader& checkpoint();
  std::string value_name(Ref r);

  std::string dir_;      // the SavedModel folder
  std::string what_;     // how errors name it
  OpenOptions opts_;
  std::unique_ptr<ec_tf::SavedModel> model_;
  const ec_tf::MetaGraphDef* meta_ = nullptr;
  std::string signature_;
  std::map<std::string, const ec_tf::FunctionDef*> functions_;
  std::vector<Scope> scopes_;
  std::vector<Node> nodes_;
  std::map<Ref, std::string> feeds_;       // signature input -> its key
  std::vector<std::pair<std::string, Ref>> fetches_;  // signature output key -> value
  std::map<Ref, std::string> names_;       // canonical value -> IR tensor name
  std::map<Ref, std::string> preferred_;   // value -> signature output key to name it by
  std::map<Ref, int> read_;                // canonical value -> how many readers
  std::set<std::string> used_;      // tensor names
  std::set<std::string> op_names_;
  ir::Graph graph_;
  bool shapes_dirty_ = false;
  std::unique_ptr<CheckpointReader> ckpt_;
  bool keys_loaded_ = false;
  std::map<std::string, std::string> handle_keys_;  // VarHandleOp node name -> checkpoint key
  std::map<std::string, std::string> name_keys_;    // SavedVariable name -> checkpoint key
  std::map<std::string, std::int64_t> op_counts_;
  std::size_t budget_ = 0;
  std::pair<std::string, std::string> first_unknown_;  // node, op kept as Unknown  // nodes created so far (inlining is bounded)
};

}  // namespace ec::frontends::savedmodel
