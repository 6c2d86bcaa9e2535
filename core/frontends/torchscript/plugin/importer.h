// The TorchScript importer's walker and the aten op table it dispatches to.
//
// How a module becomes IR: torch::jit::load, freeze (parameters become
// constants, Conv+BatchNorm fold), inline every call, remove mutation. Then the
// graph is walked once in order while it is EXECUTED on a sample input of the
// given shapes (zeros for indices, a fixed pseudo-random tensor otherwise). Every
// value therefore has a concrete result, and is either
//   - data-dependent (computed from an input's values): a tensor the IR holds,
//     produced by the IR ops the aten op's row in the table emits; or
//   - known: a constant, a parameter, or anything computed from constants and
//     input SHAPES only (aten::size, shape arithmetic, prim::If on shapes, list
//     plumbing). Known values never reach the IR except as an op's constant input.
// So scripted control flow on shapes resolves to the branch the shapes take,
// and every IR tensor gets its concrete shape and dtype.
#pragma once

#include <torch/script.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/frontends/frontend.h"
#include "core/ir/graph.h"

namespace ec::frontends::torchscript {

/// One value of the walk.
struct Slot {
  Slot() = default;
  explicit Slot(c10::IValue v) : value(std::move(v)) {}
  c10::IValue value;        // the concrete result on the sample input
  bool data = false;        // depends on the input's values
  std::string ir;           // the IR tensor holding it (a data-dependent tensor)
  std::vector<Slot> items;  // a data-dependent list, tuple or dict's values, element by element
  std::vector<c10::IValue> keys;  // a data-dependent dict's keys, parallel to items
};

/// The IR dtype of a torch dtype (Undefined where the IR has none).
ir::DType dtype_of(at::ScalarType t);

/// Thrown for a refusal; `unsupported` marks an aten op with no mapping.
struct ImportError {
  std::string message;
  bool unsupported = false;
};

class Importer;

/// The arguments of one node, as its handler sees them.
class Args {
 public:
  Args(Importer& im, const torch::jit::Node* node) : im_(im), node_(node) {}
  std::size_t size() const;
  const Slot& slot(std::size_t i) const;
  bool is_none(std::size_t i) const;
  /// A known argument (int, float, bool, list, string); refuses a data-dependent one.
  const c10::IValue& known(std::size_t i) const;
  std::int64_t i64(std::size_t i) const { return known(i).toInt(); }
  double f64(std::size_t i) const { return known(i).toScalar().toDouble(); }
  bool flag(std::size_t i) const { return known(i).toBool(); }
  std::vector<std::int64_t> ints(std::size_t i) const;
  /// The IR tensor name of argument i; a known tensor becomes an IR constant, a
  /// scalar a rank-0 constant of `like`'s dtype (an argument index, or -1).
  std::string tensor(std::size_t i, int like = 0) const;
  /// The concrete tensor result of argument i (data-dependent or known).
  at::Tensor actual(std::size_t i) const;
  const torch::jit::Node* node() const { return node_; }

 private:
  Importer& im_;
  const torch::jit::Node* node_;
};

/// An aten op's row: emits the IR ops for one node and returns the IR names of
/// its outputs (one per tensor output; a list output returns its elements).
using Handler = std::function<std::vector<std::string>(Importer&, const Args&)>;
const std::unordered_map<std::string, Handler>& aten_table();
/// Rows that compute their node's results themselves (Importer::set_results) and run
/// even on known inputs: fake quantisation, whose observers would update the module's
/// scales if executed. quantized_ops.cpp.
const std::unordered_map<std::string, Handler>& self_evaluating_table();
/// Adds the rows of converted quantised models (quantized::conv2d, ...). quantized_ops.cpp.
void add_quantized_rows(std::unordered_map<std::string, Handler>& table);
/// `name` followed by QuantizeLinear -> DequantizeLinear with the qparams of the
/// quantised tensor `result` (an aten op on a quantised tensor keeps them implicitly).
std::string requantize_like(Importer& im, const std::string& name, const at::Tensor& result);
/// Ops whose result depends only on their inputs' shapes (aten::size, zeros_like...).
bool is_shape_only(std::string_view kind);

class Importer {
 public:
  Importer(std::string path, const OpenOptions& opts) : path_(std::move(path)), opts_(opts) {}
  ir::Graph run();

  // --- for the op table
  /// Adds one IR op; `outputs` are the node outputs it produces (their concrete
  /// results type the IR tensors). Returns the output names.
  std::vector<std::string> emit(const std::string& op_type, std::vector<std::string> inputs,
                                std::map<std::string, ir::Attribute> attrs, const std::vector<at::Tensor>& results,
                                const std::string& suffix = "");
  /// An IR constant holding `t` (deduplicated by storage).
  std::string constant(const at::Tensor& t, const std::string& hint);
  std::string constant_ints(const std::vector<std::int64_t>& v, const std::string& hint);
  /// The concrete results of the current node's outputs.
  const std::vector<c10::IValue>& results() const { return current_results_; }
  at::Tensor result(std::size_t i = 0) const { return current_results_.at(i).toTensor(); }
  void set_results(std::vector<c10::IValue> r) { current_results_ = std::move(r); }
  const Slot& slot_of(const torch::jit::Value* v) const;
  [[noreturn]] void refuse(const std::string& why, bool unsupported = false) const;
  std::string where() const;  // "at layer1/0/conv1 (aten::conv2d)"

 private:
  friend class Args;
  void walk(const torch::jit::Block* block);
  void visit(const torch::jit::Node* n);
  void bind_data_outputs(const torch::jit::Node* n, const std::vector<std::string>& names);
  std::string scope_of(const torch::jit::Node* n) const;
  std::string unique_op_name(const std::string& base);

  std::string path_;
  const OpenOptions& opts_;
  ir::Graph g_;
  std::unordered_map<const torch::jit::Value*, Slot> env_;
  std::map<std::string, std::string> constants_;
  std::vector<at::Tensor> keep_;  // constants stay alive: their addresses key constants_
  std::map<std::string, int> op_names_;
  const torch::jit::Node* current_ = nullptr;
  std::vector<c10::IValue> current_results_;
  int counter_ = 0;
};

}  // namespace ec::frontends::torchscript
