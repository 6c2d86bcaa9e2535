#include "core/ir/validate.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/ir/algorithms.h"
#include "core/ir/shape_inference.h"

namespace ec::ir {
namespace {

using Severity = ValidationIssue::Severity;

std::string op_label(const Operation& op, std::size_t index) {
  return op.name.empty() ? "#" + std::to_string(index) : op.name;
}

std::string format_float(float v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string arity_range(int lo, int hi) {
  if (hi < 0) return "at least " + std::to_string(lo);
  if (lo == hi) return std::to_string(lo);
  return std::to_string(lo) + " to " + std::to_string(hi);
}

// Element count x bytes per element, or nullopt on overflow. Int4 packs two per byte.
std::optional<std::uint64_t> expected_bytes(DType dtype, std::int64_t elements) {
  if (elements < 0) return std::nullopt;
  auto n = static_cast<std::uint64_t>(elements);
  if (dtype == DType::Int4) return (n + 1) / 2;
  std::uint64_t size = dtype_size(dtype);
  if (size != 0 && n > std::numeric_limits<std::uint64_t>::max() / size) return std::nullopt;
  return n * size;
}

// Element count of static sizes, or nullopt when one is negative or the product overflows.
std::optional<std::int64_t> checked_elements(const std::vector<std::int64_t>& sizes) {
  std::int64_t n = 1;
  for (std::int64_t s : sizes) {
    if (s < 0) return std::nullopt;
    if (s != 0 && n > std::numeric_limits<std::int64_t>::max() / s) return std::nullopt;
    n *= s;
  }
  return n;
}

std::optional<std::int64_t> checked_elements(const Shape& shape) {
  if (!shape.is_static()) return std::nullopt;
  return checked_elements(shape.sizes());
}

// Range of a quantised storage type, for zero point checks.
bool zero_point_range(DType t, std::int64_t& lo, std::int64_t& hi) {
  switch (t) {
    case DType::Int4:
      lo = -8;
      hi = 7;
      return true;
    case DType::Int8:
      lo = -128;
      hi = 127;
      return true;
    case DType::UInt8:
      lo = 0;
      hi = 255;
      return true;
    case DType::Int16:
      lo = -32768;
      hi = 32767;
      return true;
    case DType::UInt16:
      lo = 0;
      hi = 65535;
      return true;
    case DType::Int32:
      lo = std::numeric_limits<std::int32_t>::min();
      hi = std::numeric_limits<std::int32_t>::max();
      return true;
    case DType::UInt32:
      lo = 0;
      hi = std::numeric_limits<std::uint32_t>::max();
      return true;
    default:
      return false;
  }
}

class Validator {
 public:
  explicit Validator(const Graph& g) : g_(g), uses_(g) {}

  std::vector<ValidationIssue> run() {
    check_graph_inputs();
    for (std::size_t i = 0; i < g_.ops.size(); ++i) check_op(i);
    check_order();
    check_graph_outputs();
    for (const auto& [name, t] : g_.tensors) check_tensor(name, t);
    check_shapes_agree();
    return std::move(issues_);
  }

 private:
  void add(Severity s, std::string op, std::string tensor, std::string message) {
    issues_.push_back({s, std::move(op), std::move(tensor), std::move(message)});
  }

  bool is_constant(const std::string& name) const {
    const Tensor* t = g_.find_tensor(name);
    return t && t->is_constant();
  }

  void check_graph_inputs() {
    for (const std::string& in : g_.inputs) {
      if (!graph_inputs_.insert(in).second) {
        add(Severity::Error, {}, in, "graph input is listed more than once");
        continue;
      }
      const Tensor* t = g_.find_tensor(in);
      if (!t)
        add(Severity::Error, {}, in, "graph input has no entry in the graph's tensors");
      else if (t->is_constant())
        add(Severity::Error, {}, in, "graph input is a constant; constants are not runtime inputs");
    }
  }

  void check_op(std::size_t i) {
    const Operation& op = g_.ops[i];
    const std::string label = op_label(op, i);
    if (!op.name.empty() && !op_names_.insert(op.name).second)
      add(Severity::Warning, label, {}, "op name is used by more than one op");

    // SSA: one producer per tensor, and never both a graph input / constant and an op output.
    for (std::size_t k = 0; k < op.outputs.size(); ++k) {
      const std::string& out = op.outputs[k];
      if (out.empty()) continue;
      std::ptrdiff_t p = uses_.producer(out);
      if (p != static_cast<std::ptrdiff_t>(i)) {
        add(Severity::Error, label, out,
            "output is also produced by op '" +
                op_label(g_.ops[static_cast<std::size_t>(p)], static_cast<std::size_t>(p)) +
                "' (SSA: one producer per tensor)");
      } else {
        bool repeated = false;
        for (std::size_t j = 0; j < k && !repeated; ++j) repeated = op.outputs[j] == out;
        if (repeated) {
          add(Severity::Error, label, out, "op lists the same output twice");
          continue;
        }
        if (graph_inputs_.count(out))
          add(Severity::Error, label, out,
              "output is also a graph input (SSA: one producer per tensor)");
        if (is_constant(out))
          add(Severity::Error, label, out,
              "output is also a constant (SSA: one producer per tensor)");
      }
      if (!g_.find_tensor(out))
        add(Severity::Warning, label, out, "output has no entry in the graph's tensors");
    }

    // Dangling inputs.
    for (const std::string& in : op.inputs) {
      if (in.empty() || uses_.producer(in) >= 0 || graph_inputs_.count(in) || is_constant(in))
        continue;
      add(Severity::Error, label, in,
          "input is not defined: not a graph input, a constant or an op output");
    }

    if (op.quant) check_quant(*op.quant, label, {}, nullptr);

    if (!op.is_known()) {
      add(Severity::Warning, label, {}, "op type '" + op.op_type + "' is not known to the IR");
      return;
    }
    const OpInfo& info = op_info(op.kind);
    if (op.op_type != info.name)
      add(Severity::Warning, label, {},
          "op_type '" + op.op_type + "' does not match its kind " + std::string(info.name));

    // Arity, counting "" placeholders of left-out optional inputs and outputs.
    const auto n_in = static_cast<int>(op.inputs.size());
    if (n_in < info.min_inputs || (info.max_inputs >= 0 && n_in > info.max_inputs))
      add(Severity::Error, label, {},
          std::string(info.name) + " takes " + arity_range(info.min_inputs, info.max_inputs) +
              " input(s), got " + std::to_string(n_in));
    for (int k = 0; k < info.min_inputs && k < n_in; ++k)
      if (op.inputs[static_cast<std::size_t>(k)].empty())
        add(Severity::Error, label, {},
            "required input #" + std::to_string(k) + " of " + std::string(info.name) + " is empty");
    const auto n_out = static_cast<int>(op.outputs.size());
    if (n_out < info.min_outputs || (info.max_outputs >= 0 && n_out > info.max_outputs))
      add(Severity::Error, label, {},
          std::string(info.name) + " has " + arity_range(info.min_outputs, info.max_outputs) +
              " output(s), got " + std::to_string(n_out));

    // Attributes against the schema.
    for (const AttrSpec& spec : info.attributes)
      if (spec.required && !op.attributes.count(spec.name))
        add(Severity::Error, label, {},
            "missing required attribute '" + spec.name + "' of " + std::string(info.name));
    for (const auto& [key, value] : op.attributes) {
      const AttrSpec* spec = find_attr_spec(op.kind, key);
      if (!spec) {
        add(Severity::Warning, label, {},
            "attribute '" + key + "' is not in the schema of " + std::string(info.name));
      } else if (attr_kind(value) != spec->kind) {
        add(Severity::Error, label, {},
            "attribute '" + key + "' is " + attr_kind_name(attr_kind(value)) + "; " +
                std::string(info.name) + " expects " + attr_kind_name(spec->kind));
      }
      if (const auto* s = std::get_if<std::string>(&value); s && key == kFusedActivationAttr && !activation_from_name(*s))
        add(Severity::Error, label, {},
            "attribute '" + key + "' is '" + *s + "', not an activation (" + activation_names() + ")");
    }
    for (const auto& [key, value] : op.attributes)
      if (const auto* tv = std::get_if<TensorValue>(&value)) check_tensor_value(*tv, key, label);
  }

  void check_tensor_value(const TensorValue& tv, const std::string& key, const std::string& label) {
    if (tv.dtype == DType::String || tv.dtype == DType::Undefined) return;
    auto n = checked_elements(tv.shape);
    if (!n) return;
    auto want = expected_bytes(tv.dtype, *n);
    if (want && *want != tv.data.size())
      add(Severity::Error, label, {},
          "attribute '" + key + "' holds " + std::to_string(tv.data.size()) + " bytes; " +
              std::string(dtype_name(tv.dtype)) + " x " + std::to_string(*n) + " elements needs " +
              std::to_string(*want));
  }

  // One pass over the ops finds whether the order is valid; only when it is not
  // do we run the sort on a light copy to tell a cycle from a bad order.
  void check_order() {
    for (std::size_t i = 0; i < g_.ops.size(); ++i) {
      for (const std::string& in : g_.ops[i].inputs) {
        if (in.empty()) continue;
        std::ptrdiff_t p = uses_.producer(in);
        if (p < static_cast<std::ptrdiff_t>(i)) continue;
        Graph skeleton;
        skeleton.ops.reserve(g_.ops.size());
        for (const Operation& op : g_.ops) {
          Operation s;
          s.name = op.name;
          s.inputs = op.inputs;
          s.outputs = op.outputs;
          skeleton.ops.push_back(std::move(s));
        }
        try {
          topological_sort(skeleton);
        } catch (const GraphError& e) {
          add(Severity::Error, {}, {}, e.what());
          return;
        }
        const auto pi = static_cast<std::size_t>(p);
        add(Severity::Error, op_label(g_.ops[i], i), in,
            "input is used before op '" + op_label(g_.ops[pi], pi) +
                "' produces it (ops are not in topological order; topological_sort() fixes this)");
        return;
      }
    }
  }

  void check_graph_outputs() {
    for (const std::string& out : g_.outputs) {
      if (out.empty()) {
        add(Severity::Error, {}, out, "graph output has an empty name");
        continue;
      }
      if (uses_.producer(out) < 0 && !graph_inputs_.count(out) && !is_constant(out))
        add(Severity::Error, {}, out,
            "graph output is not defined: not a graph input, a constant or an op output");
    }
  }

  void check_tensor(const std::string& name, const Tensor& t) {
    if (t.name != name)
      add(Severity::Error, {}, name, "tensor is stored under a different name ('" + t.name + "')");
    if (t.data) {
      if (t.dtype == DType::Undefined) {
        add(Severity::Error, {}, name, "constant has no dtype");
      } else if (t.dtype != DType::String) {
        if (auto n = checked_elements(t.shape)) {
          auto want = expected_bytes(t.dtype, *n);
          if (want && *want != t.data->size())
            add(Severity::Error, {}, name,
                "constant holds " + std::to_string(t.data->size()) + " bytes; " +
                    std::string(dtype_name(t.dtype)) + t.shape.to_string() + " needs " +
                    std::to_string(*want));
        }
      }
    }
    if (t.quant) check_quant(*t.quant, {}, name, &t.shape);
  }

  void check_quant(const QuantParams& q, const std::string& label, const std::string& tensor,
                   const Shape* shape) {
    const std::string what = tensor.empty() ? "op quantisation" : "quantisation";
    if (!dtype_is_integer(q.dtype))
      add(Severity::Error, label, tensor,
          what + " storage type " + std::string(dtype_name(q.dtype)) + " is not an integer type");
    if (q.scales.empty()) add(Severity::Error, label, tensor, what + " has no scales");
    for (std::size_t k = 0; k < q.scales.size(); ++k) {
      float s = q.scales[k];
      if (!(std::isfinite(s) && s > 0)) {
        add(Severity::Error, label, tensor,
            what + " scale #" + std::to_string(k) + " is " + format_float(s) +
                "; scales must be finite and > 0");
        break;  // one message per tensor is enough
      }
    }
    if (q.zero_points.size() != q.scales.size())
      add(Severity::Error, label, tensor,
          what + " has " + std::to_string(q.scales.size()) + " scales but " +
              std::to_string(q.zero_points.size()) + " zero points");
    std::int64_t lo = 0, hi = 0;
    if (zero_point_range(q.dtype, lo, hi))
      for (std::size_t k = 0; k < q.zero_points.size(); ++k)
        if (q.zero_points[k] < lo || q.zero_points[k] > hi) {
          add(Severity::Error, label, tensor,
              what + " zero point #" + std::to_string(k) + " = " +
                  std::to_string(q.zero_points[k]) + " is outside the range of " +
                  std::string(dtype_name(q.dtype)));
          break;
        }
    if (q.scales.size() > 1 && q.axis < 0) {
      add(Severity::Error, label, tensor,
          what + " has " + std::to_string(q.scales.size()) +
              " scales (per-channel) but no channel axis");
      return;
    }
    if (q.axis < -1)
      add(Severity::Error, label, tensor,
          what + " axis " + std::to_string(q.axis) + " is negative");
    if (q.axis < 0 || !shape || !shape->rank_known) return;
    const auto axis = static_cast<std::size_t>(q.axis);
    if (axis >= shape->rank()) {
      add(Severity::Error, label, tensor,
          what + " axis " + std::to_string(q.axis) + " is out of range for rank " +
              std::to_string(shape->rank()));
      return;
    }
    const Dim& d = shape->dims[axis];
    if (d.is_static() && static_cast<std::uint64_t>(d.value) != q.scales.size())
      add(Severity::Error, label, tensor,
          what + " has " + std::to_string(q.scales.size()) + " scales but axis " +
              std::to_string(q.axis) + " has " + std::to_string(d.value) + " channels");
  }

  // A declared shape that shape inference contradicts (a static dim the op's
  // inputs give differently), or an op whose input shapes are inconsistent.
  // A Warning: declared shapes come from the source file, and the runtime
  // checks the real sizes when it runs; a structurally broken graph is not
  // inferred at all.
  void check_shapes_agree() {
    for (const auto& i : issues_)
      if (i.severity == Severity::Error) return;
    for (auto& c : check_shapes(g_)) add(Severity::Warning, std::move(c.op), std::move(c.tensor), std::move(c.message));
  }

  const Graph& g_;
  UseLists uses_;
  std::unordered_set<std::string> graph_inputs_;
  std::unordered_set<std::string> op_names_;
  std::vector<ValidationIssue> issues_;
};

}  // namespace

std::vector<ValidationIssue> validate(const Graph& g) { return Validator(g).run(); }

void validate_or_throw(const Graph& g) {
  auto issues = validate(g);
  const ValidationIssue* first = nullptr;
  std::string detail;
  for (const auto& issue : issues) {
    if (issue.severity != Severity::Error) continue;
    if (!first) first = &issue;
    detail += to_string(issue);
    detail += '\n';
  }
  if (first) throw GraphError(to_string(*first), std::move(detail));
}

std::string to_string(const ValidationIssue& issue) {
  std::string s;
  if (!issue.op.empty()) s += "op '" + issue.op + "': ";
  s += issue.message;
  if (!issue.tensor.empty()) s += " (tensor '" + issue.tensor + "')";
  return s;
}

}  // namespace ec::ir
