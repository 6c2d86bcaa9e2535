#include "core/report/model_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>

#include "core/ir/validate.h"

namespace ec::report {
namespace {

std::string meta(const ir::Graph& g, const std::string& key) {
  auto it = g.metadata.find(key);
  return it == g.metadata.end() ? std::string() : it->second;
}

TensorSummary tensor_summary(const ir::Graph& g, const std::string& name) {
  TensorSummary s{name, "undefined", ir::Shape::unknown_rank()};
  if (const ir::Tensor* t = g.find_tensor(name)) {
    s.dtype = std::string(ir::dtype_name(t->dtype));
    s.shape = t->shape;
  }
  return s;
}

// Sizes with dynamic dims taken as 1; nullopt when the rank is unknown.
std::optional<std::vector<std::int64_t>> batch1_sizes(const ir::Graph& g, const std::string& n) {
  const ir::Tensor* t = g.find_tensor(n);
  if (!t || !t->shape.rank_known) return std::nullopt;
  std::vector<std::int64_t> v = t->shape.sizes();
  for (auto& d : v)
    if (d < 0) d = 1;
  return v;
}

std::int64_t product(const std::vector<std::int64_t>& v, std::size_t from = 0,
                     std::size_t to = SIZE_MAX) {
  const std::size_t end = std::min(to, v.size());
  if (from >= end) return 1;
  return std::accumulate(v.begin() + static_cast<std::ptrdiff_t>(from), v.begin() + static_cast<std::ptrdiff_t>(end),
                         std::int64_t{1}, std::multiplies<>());
}

// Multiply-accumulates of one op, or nullopt when the shapes needed are unknown.
std::optional<std::int64_t> op_macs(const ir::Graph& g, const ir::Operation& op) {
  auto in = [&](std::size_t i) -> std::optional<std::vector<std::int64_t>> {
    if (i >= op.inputs.size() || op.inputs[i].empty()) return std::nullopt;
    return batch1_sizes(g, op.inputs[i]);
  };
  auto out = [&]() -> std::optional<std::vector<std::int64_t>> {
    if (op.outputs.empty()) return std::nullopt;
    return batch1_sizes(g, op.outputs[0]);
  };
  switch (op.kind) {
    case ir::OpKind::Conv: {
      // every output element sums over (Cin/group) * kernel taps: W is [Cout, Cin/g, k...]
      auto w = in(1), y = out();
      if (!w || !y || w->size() < 2) return std::nullopt;
      return product(*y) * product(*w, 1);
    }
    case ir::OpKind::ConvTranspose: {
      // every input element scatters into (Cout/group) * kernel taps: W is [Cin, Cout/g, k...]
      auto x = in(0), w = in(1);
      if (!x || !w || w->size() < 2) return std::nullopt;
      return product(*x) * product(*w, 1);
    }
    case ir::OpKind::Gemm: {
      auto a = in(0), b = in(1);
      if (!a || !b || a->size() != 2 || b->size() != 2) return std::nullopt;
      const bool ta = op.attr_int("transA", 0) != 0, tb = op.attr_int("transB", 0) != 0;
      const std::int64_t m = ta ? (*a)[1] : (*a)[0], k = ta ? (*a)[0] : (*a)[1];
      const std::int64_t n = tb ? (*b)[0] : (*b)[1];
      return m * n * k;
    }
    case ir::OpKind::FullyConnected: {
      // y = x W^T + b with W [N, K]
      auto x = in(0), w = in(1);
      if (!x || !w || x->empty() || w->size() != 2) return std::nullopt;
      return product(*x) / std::max<std::int64_t>((*x).back(), 1) * (*w)[0] * (*w)[1];
    }
    case ir::OpKind::MatMul: {
      // each output element is a dot product over A's last dim
      auto a = in(0), y = out();
      if (!a || !y || a->empty()) return std::nullopt;
      return product(*y) * a->back();
    }
    default:
      return std::nullopt;
  }
}

bool counts_macs(ir::OpKind k) {
  return k == ir::OpKind::Conv || k == ir::OpKind::ConvTranspose || k == ir::OpKind::Gemm ||
         k == ir::OpKind::MatMul || k == ir::OpKind::FullyConnected;
}

std::string with_commas(std::int64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > (v < 0 ? 1 : 0); i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return s;
}

std::string human(double v, const char* const* units, int nunits, double base) {
  int u = 0;
  while (v >= base && u + 1 < nunits) {
    v /= base;
    ++u;
  }
  std::ostringstream os;
  os.precision(u == 0 ? 0 : 2);
  os << std::fixed << v << units[u];
  return os.str();
}

std::string human_count(std::int64_t v) {
  static const char* const kUnits[] = {"", "K", "M", "G", "T"};
  return human(static_cast<double>(v), kUnits, 5, 1000.0);
}

std::string human_bytes(std::int64_t v) {
  static const char* const kUnits[] = {" B", " KiB", " MiB", " GiB", " TiB"};
  return human(static_cast<double>(v), kUnits, 5, 1024.0);
}

nlohmann::json shape_json(const ir::Shape& s) {
  if (!s.rank_known) return nullptr;
  nlohmann::json dims = nlohmann::json::array();
  for (const auto& d : s.dims) {
    if (d.is_static())
      dims.push_back(d.value);
    else
      dims.push_back(d.symbol.empty() ? "?" : d.symbol);
  }
  return dims;
}

}  // namespace

ModelSummary summarize(const ir::Graph& g, const std::string& path) {
  ModelSummary s;
  s.path = path;
  s.format = meta(g, "source.format");
  s.name = g.name;
  s.producer = meta(g, "source.producer");
  s.opset = meta(g, "source.opset");
  s.ir_version = meta(g, "source.ir_version");
  for (const auto& n : g.inputs) s.inputs.push_back(tensor_summary(g, n));
  for (const auto& n : g.outputs) s.outputs.push_back(tensor_summary(g, n));
  s.op_count = static_cast<std::int64_t>(g.ops.size());
  for (const auto& op : g.ops) {
    ++s.ops_by_type[op.op_type];
    if (!op.is_known()) ++s.unknown_ops[op.op_type];
    if (!counts_macs(op.kind)) continue;
    if (auto m = op_macs(g, op)) {
      s.macs += *m;
      s.macs_by_type[op.op_type] += *m;
    } else {
      s.macs_unknown_ops.push_back(op.name);
    }
  }
  s.flops = 2 * s.macs;
  for (const auto& [name, t] : g.tensors) {
    if (!t.is_constant()) continue;
    const std::size_t esize = ir::dtype_size(t.dtype);
    if (auto n = t.num_elements())
      s.parameter_count += *n;
    else if (esize)
      s.parameter_count += static_cast<std::int64_t>(t.data->size() / esize);
    s.parameter_bytes += static_cast<std::int64_t>(t.data->size());
  }
  for (const auto& issue : ir::validate(g))
    if (issue.severity == ir::ValidationIssue::Severity::Warning)
      s.validation_warnings.push_back(ir::to_string(issue));
  return s;
}

nlohmann::json to_json(const ModelSummary& s) {
  using nlohmann::json;
  auto tensors = [](const std::vector<TensorSummary>& v) {
    json a = json::array();
    for (const auto& t : v)
      a.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", shape_json(t.shape)},
                   {"shape_text", t.shape.to_string()}});
    return a;
  };
  return json{
      {"schema", "edgecompiler.inspect/1"},
      {"path", s.path},
      {"format", s.format},
      {"model", {{"name", s.name}, {"producer", s.producer}, {"opset", s.opset},
                 {"ir_version", s.ir_version}}},
      {"inputs", tensors(s.inputs)},
      {"outputs", tensors(s.outputs)},
      {"ops", {{"count", s.op_count}, {"by_type", s.ops_by_type}}},
      {"parameters", {{"count", s.parameter_count}, {"bytes", s.parameter_bytes}}},
      {"compute", {{"macs", s.macs}, {"flops", s.flops}, {"macs_by_type", s.macs_by_type},
                   {"dynamic_dims_assumed", 1}, {"ops_without_estimate", s.macs_unknown_ops}}},
      {"unknown_ops", s.unknown_ops},
      {"warnings", s.validation_warnings},
  };
}

std::string to_text(const ModelSummary& s) {
  std::ostringstream os;
  auto row = [&](const char* k, const std::string& v) {
    if (!v.empty()) os << "  " << k << std::string(12 - std::min<std::size_t>(12, std::strlen(k)), ' ') << v << '\n';
  };
  os << "Model " << (s.path.empty() ? s.name : s.path) << '\n';
  row("name", s.name);
  row("format", s.format);
  row("producer", s.producer);
  row("opset", s.opset);
  row("ir version", s.ir_version);
  auto tensors = [&](const char* title, const std::vector<TensorSummary>& v) {
    os << title << " (" << v.size() << ")\n";
    for (const auto& t : v) os << "  " << t.name << "  " << t.dtype << t.shape.to_string() << '\n';
  };
  tensors("Inputs", s.inputs);
  tensors("Outputs", s.outputs);
  os << "Ops (" << s.op_count << ", " << s.ops_by_type.size() << " types)\n";
  std::vector<std::pair<std::string, std::int64_t>> by_count(s.ops_by_type.begin(),
                                                             s.ops_by_type.end());
  std::stable_sort(by_count.begin(), by_count.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  for (const auto& [type, n] : by_count) {
    os << "  " << type << std::string(type.size() < 24 ? 24 - type.size() : 1, ' ') << n;
    if (s.unknown_ops.count(type)) os << "   (unknown to the IR)";
    os << '\n';
  }
  os << "Parameters\n  count       " << with_commas(s.parameter_count) << " ("
     << human_count(s.parameter_count) << ")\n  size        " << human_bytes(s.parameter_bytes)
     << '\n';
  os << "Compute (batch 1, dynamic dims as 1)\n  MACs        " << with_commas(s.macs) << " ("
     << human_count(s.macs) << ")\n  FLOPs       " << with_commas(s.flops) << " ("
     << human_count(s.flops) << ")\n";
  if (!s.macs_unknown_ops.empty())
    os << "  not estimated (shapes unknown): " << s.macs_unknown_ops.size() << " ops\n";
  if (!s.unknown_ops.empty()) {
    os << "Unknown ops (" << s.unknown_ops.size() << " types): ";
    bool first = true;
    for (const auto& [t, n] : s.unknown_ops) {
      os << (first ? "" : ", ") << t << " x" << n;
      first = false;
    }
    os << "\n  these cannot be compiled until the IR supports them\n";
  }
  if (!s.validation_warnings.empty()) {
    os << "Warnings (" << s.validation_warnings.size() << ")\n";
    for (std::size_t i = 0; i < s.validation_warnings.size() && i < 10; ++i)
      os << "  " << s.validation_warnings[i] << '\n';
    if (s.validation_warnings.size() > 10)
      os << "  ... and " << s.validation_warnings.size() - 10 << " more\n";
  }
  return os.str();
}

}  // namespace ec::report
