#include "core/report/model_summary.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cstring>
#include <functional>
#include <numeric>
#include <sstream>

#include "core/ir/validate.h"
#include "core/ir/op_cost.h"

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

ModelSummary summarize(const ir::Graph& g, const std::string& path, const std::string& file_format) {
  ModelSummary s;
  s.path = path;
  s.format = meta(g, "source.format");
  if (!file_format.empty() && file_format != s.format)
    s.format = s.format.empty() ? file_format : file_format + " (from " + s.format + ")";
  for (const auto& [name, t] : g.tensors) {
    if (!t.quant) continue;
    ++s.quant_summary.quantized_tensors;
    ++s.quant_summary.tensors_by_dtype[std::string(ir::dtype_name(t.quant->dtype))];
    if (t.quant->per_channel()) ++s.quant_summary.per_channel_tensors;
  }
  for (const auto& op : g.ops) {
    bool all = !op.outputs.empty();
    for (const auto& o : op.outputs) {
      const ir::Tensor* t = g.find_tensor(o);
      all = all && t && t->quant;
    }
    s.quant_summary.quantized_ops += all;
  }
  s.name = g.name;
  s.producer = meta(g, "source.producer");
  s.opset = meta(g, "source.opset");
  s.ir_version = meta(g, "source.ir_version");
  for (const auto& n : g.inputs) s.inputs.push_back(tensor_summary(g, n));
  for (const auto& n : g.outputs) s.outputs.push_back(tensor_summary(g, n));
  s.op_count = static_cast<std::int64_t>(g.ops.size());
  // Sums are checked: a total that would exceed int64 leaves the op out and says so.
  auto add_to = [&](std::int64_t& total, std::int64_t v) {
    return !__builtin_add_overflow(total, v, &total);
  };
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const ir::Operation& op = g.ops[i];
    ++s.ops_by_type[op.op_type];
    if (!op.is_known()) ++s.unknown_ops[op.op_type];
    ir::OpCost c = ir::estimate_cost(g, op);
    if (c.status == ir::OpCost::Status::Estimated) {
      std::int64_t macs = s.macs, other = s.other_flops, by_m = s.macs_by_type[op.op_type],
                   by_f = s.flops_by_type[op.op_type];
      if (add_to(macs, c.macs) && add_to(other, c.flops) && add_to(by_m, c.macs) && add_to(by_f, c.flops)) {
        s.macs = macs;
        s.other_flops = other;
        if (c.macs) s.macs_by_type[op.op_type] = by_m;
        if (c.flops) s.flops_by_type[op.op_type] = by_f;
      } else {
        c = {ir::OpCost::Status::Overflow, 0, 0, "the model's total exceeds the 64-bit range with this op"};
      }
      if (!s.macs_by_type[op.op_type]) s.macs_by_type.erase(op.op_type);
      if (!s.flops_by_type[op.op_type]) s.flops_by_type.erase(op.op_type);
    }
    if (c.status != ir::OpCost::Status::Estimated) {
      if (c.status == ir::OpCost::Status::Overflow) s.overflow = true;
      const std::string name = op.name.empty() ? "#" + std::to_string(i) : op.name;
      s.macs_unknown_ops.push_back(name);
      s.ops_without_estimate.push_back({name, op.op_type, c.reason});
    }
  }
  if (__builtin_mul_overflow(s.macs, std::int64_t{2}, &s.flops) ||
      __builtin_add_overflow(s.flops, s.other_flops, &s.total_flops)) {
    // only reachable with macs near the int64 limit: report the overflow, keep MACs
    s.overflow = true;
    s.flops = s.total_flops = INT64_MAX;
  }
  for (const auto& [name, t] : g.tensors) {
    if (!t.is_constant()) continue;
    const std::size_t esize = ir::dtype_size(t.dtype);
    // The byte size bounds the element count (a declared shape may be absurd).
    std::int64_t n = 0;
    if (auto ne = t.num_elements())
      n = *ne;
    else if (esize)
      n = static_cast<std::int64_t>(t.data->size() / esize);
    if (!add_to(s.parameter_count, n) || !add_to(s.parameter_bytes, static_cast<std::int64_t>(t.data->size())))
      s.overflow = true;
  }
  for (const auto& issue : ir::validate(g))
    if (issue.severity == ir::ValidationIssue::Severity::Warning)
      s.validation_warnings.push_back(ir::to_string(issue));
  // "CONV_2D 15, DEPTHWISE_CONV_2D 13" as recorded by the TFLite frontend.
  if (auto counts = meta(g, "tflite.ops_by_type"); !counts.empty()) {
    std::size_t pos = 0;
    while (pos < counts.size()) {
      std::size_t end = counts.find(", ", pos);
      if (end == std::string::npos) end = counts.size();
      const std::string item = counts.substr(pos, end - pos);
      const auto sp = item.rfind(' ');
      // The metadata may come from a hand-edited .eir: a count that does not parse is skipped.
      std::int64_t n = 0;
      const char* first = item.data() + (sp == std::string::npos ? item.size() : sp + 1);
      const char* last = item.data() + item.size();
      if (sp != std::string::npos && std::from_chars(first, last, n).ptr == last && first != last)
        s.source_ops_by_type[item.substr(0, sp)] = n;
      pos = end + 2;
    }
  }
  for (const auto& [k, v] : g.metadata)
    if (k.rfind("tflite.", 0) == 0 && k != "tflite.ops_by_type") s.file_metadata[k] = v;
  for (const auto* entry : g.tensors.by_name()) {
    const ir::Tensor& t = entry->second;
    if (!t.quant) continue;
    s.quantization.push_back({t.name, std::string(ir::dtype_name(t.quant->dtype)), t.quant->scales,
                              t.quant->zero_points, t.quant->axis});
  }
  for (const auto& op : g.ops) {
    if (op.is_known()) continue;
    ModelSummary::OpaqueOp o{op.name, op.op_type, {}, op.inputs, op.outputs};
    if (auto it = op.attributes.find("description"); it != op.attributes.end())
      if (auto* d = std::get_if<std::string>(&it->second)) o.detail = *d;
    for (const char* key : {"executable_bytes", "custom_options_bytes"})
      if (auto it = op.attributes.find(key); it != op.attributes.end())
        if (auto* n = std::get_if<std::int64_t>(&it->second))
          o.detail += (o.detail.empty() ? "" : ", ") + with_commas(*n) + " bytes";
    s.opaque_ops.push_back(std::move(o));
  }
  return s;
}

std::string quant_text(const ModelSummary::TensorQuant& q) {
  std::ostringstream os;
  os.precision(6);
  if (q.scales.size() <= 1) {
    os << q.dtype << " scale " << (q.scales.empty() ? 0.f : q.scales[0]) << " zp "
       << (q.zero_points.empty() ? 0 : q.zero_points[0]);
    return os.str();
  }
  const auto [lo, hi] = std::minmax_element(q.scales.begin(), q.scales.end());
  const auto [zlo, zhi] = std::minmax_element(q.zero_points.begin(), q.zero_points.end());
  os << q.dtype << " per-channel axis " << q.axis << " (" << q.scales.size() << "): scale " << *lo << ".." << *hi
     << " zp ";
  if (q.zero_points.empty()) os << 0;
  else if (*zlo == *zhi) os << *zlo;
  else os << *zlo << ".." << *zhi;
  return os.str();
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
  json quant = json::array();
  for (const auto& q : s.quantization)
    quant.push_back({{"tensor", q.name}, {"dtype", q.dtype}, {"scales", q.scales}, {"zero_points", q.zero_points},
                     {"axis", q.axis}});
  json opaque = json::array();
  for (const auto& o : s.opaque_ops)
    opaque.push_back({{"name", o.name}, {"op_type", o.op_type}, {"detail", o.detail}, {"inputs", o.inputs},
                      {"outputs", o.outputs}});
  json without = json::array();
  for (const auto& o : s.ops_without_estimate)
    without.push_back({{"op", o.op}, {"op_type", o.op_type}, {"reason", o.reason}});
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
                   {"other_flops", s.other_flops}, {"total_flops", s.total_flops},
                   {"flops_by_type", s.flops_by_type}, {"overflow", s.overflow},
                   {"dynamic_dims_assumed", 1}, {"ops_without_estimate", s.macs_unknown_ops},
                   {"ops_without_estimate_detail", without}}},
      {"unknown_ops", s.unknown_ops},
      {"warnings", s.validation_warnings},
      {"source_ops_by_type", s.source_ops_by_type},
      {"file_metadata", s.file_metadata},
      {"quantization", quant},
      {"opaque_ops", opaque},
      {"quantization_summary", s.quant_summary.quantized_tensors == 0
                           ? json(nullptr)
                           : json{{"tensors_by_dtype", s.quant_summary.tensors_by_dtype},
                                  {"quantized_tensors", s.quant_summary.quantized_tensors},
                                  {"per_channel_tensors", s.quant_summary.per_channel_tensors},
                                  {"quantized_ops", s.quant_summary.quantized_ops}}},
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
  if (const auto& q = s.quant_summary; q.quantized_tensors > 0) {
    std::string dtypes;
    for (const auto& [dt, n] : q.tensors_by_dtype) dtypes += (dtypes.empty() ? "" : ", ") + dt;
    row("quantised", dtypes + ": " + with_commas(q.quantized_tensors) + " tensors (" +
                         with_commas(q.per_channel_tensors) + " per channel); outputs of " +
                         with_commas(q.quantized_ops) + " of " + with_commas(s.op_count) + " ops");
  } else {
    row("quantised", "no (float)");
  }
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
     << human_count(s.flops) << ")\n  all FLOPs   " << with_commas(s.total_flops) << " ("
     << human_count(s.total_flops) << ", with normalisation, activations, pooling, ...)\n";
  if (s.overflow) os << "  some counts exceed the 64-bit range and are left out (are the dims real?)\n";
  if (!s.ops_without_estimate.empty()) {
    std::map<std::string, std::vector<std::string>> by_reason;
    for (const auto& o : s.ops_without_estimate) by_reason[o.reason].push_back(o.op);
    for (const auto& [reason, ops] : by_reason) {
      os << "  not estimated (" << reason << "): " << ops.size() << " ops";
      for (std::size_t i = 0; i < ops.size() && i < 3; ++i) os << (i ? ", " : ": ") << ops[i];
      os << (ops.size() > 3 ? ", ...\n" : "\n");
    }
  }
  if (!s.unknown_ops.empty()) {
    os << "Unknown ops (" << s.unknown_ops.size() << " types): ";
    bool first = true;
    for (const auto& [t, n] : s.unknown_ops) {
      os << (first ? "" : ", ") << t << " x" << n;
      first = false;
    }
    os << "\n  these cannot be compiled until the IR supports them\n";
  }
  if (!s.source_ops_by_type.empty()) {
    std::int64_t total = 0;
    for (const auto& [t, n] : s.source_ops_by_type) total += n;
    os << "Source ops (" << total << ", as named in the file)\n";
    std::vector<std::pair<std::string, std::int64_t>> v(s.source_ops_by_type.begin(), s.source_ops_by_type.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    for (const auto& [type, n] : v) os << "  " << type << std::string(type.size() < 32 ? 32 - type.size() : 1, ' ') << n << '\n';
  }
  if (!s.opaque_ops.empty()) {
    os << "Opaque ops (" << s.opaque_ops.size() << ")\n";
    for (const auto& o : s.opaque_ops) {
      os << "  " << o.name << "  " << o.op_type;
      if (!o.detail.empty()) os << "  (" << o.detail << ")";
      os << "\n    inputs: ";
      for (std::size_t i = 0; i < o.inputs.size(); ++i) os << (i ? ", " : "") << o.inputs[i];
      os << "\n    outputs: ";
      for (std::size_t i = 0; i < o.outputs.size(); ++i) os << (i ? ", " : "") << o.outputs[i];
      os << '\n';
    }
  }
  if (!s.file_metadata.empty()) {
    os << "File metadata\n";
    for (const auto& [k, v] : s.file_metadata) os << "  " << k << ": " << v << '\n';
  }
  if (!s.quantization.empty()) {
    os << "Quantisation (" << s.quantization.size() << " tensors)\n";
    for (const auto& q : s.quantization) os << "  " << q.name << "  " << quant_text(q) << '\n';
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
