// The reference for shape inference: the CPU runtime's reference kernels.
// compare_with_runtime() runs a graph op by op (runtime::run_kernel) and
// compares every op output's actual shape with the shape the graph declares.
// Named dims are evaluated with the values given per symbol (a product such
// as "4*batch" as well); anonymous dims ("?") are counted as not static.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"
#include "core/passes/rewrite.h"
#include "core/runtime/kernel_registry.h"

namespace ec::test {

struct ShapeComparison {
  std::size_t checked = 0;                // op outputs compared
  std::vector<std::string> mismatches;    // "tensor: declared [..] but the runtime made [..]" (or dtypes)
  std::vector<std::string> not_static;    // op outputs whose declared shape has an unknown rank or dim
};

/// Value of a declared dim with `symbols` substituted; -1 when it cannot be evaluated.
inline std::int64_t eval_dim(const ir::Dim& d, const std::map<std::string, std::int64_t>& symbols) {
  if (d.is_static()) return d.value;
  if (d.symbol.empty() || d.symbol.rfind("unk__", 0) == 0) return -1;
  std::int64_t v = 1;
  std::size_t p = 0;
  while (true) {
    const auto star = d.symbol.find('*', p);
    const std::string tok = d.symbol.substr(p, star == std::string::npos ? std::string::npos : star - p);
    if (!tok.empty() && tok.find_first_not_of("0123456789") == std::string::npos) {
      v *= std::stoll(tok);
    } else {
      auto it = symbols.find(tok);
      if (it == symbols.end()) return -1;
      v *= it->second;
    }
    if (star == std::string::npos) break;
    p = star + 1;
  }
  return v;
}

inline std::string sizes_text(const std::vector<std::int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + std::to_string(v[i]);
  return s + "]";
}

/// Graph inputs are filled deterministically: floats in [-1, 1), integers 0.
inline ShapeComparison compare_with_runtime(const ir::Graph& g,
                                            const std::map<std::string, std::int64_t>& symbols) {
  ShapeComparison r;
  std::unordered_map<std::string, runtime::Tensor> values;
  for (const auto& name : g.inputs) {
    const ir::Tensor* t = g.find_tensor(name);
    std::vector<std::int64_t> shape;
    for (const auto& d : t->shape.dims) shape.push_back(std::max<std::int64_t>(eval_dim(d, symbols), 1));
    runtime::Tensor v(t->dtype, shape);
    if (t->dtype == ir::DType::Float32) {
      std::uint32_t state = 12345;
      for (auto& x : std::span<float>(v.mutable_data<float>(), static_cast<std::size_t>(v.numel()))) {
        state = state * 1664525u + 1013904223u;
        x = static_cast<float>(state >> 8) / static_cast<float>(1u << 23) - 1.0f;
      }
    }
    values.emplace(name, std::move(v));
  }
  for (const auto& op : g.ops) {
    std::vector<runtime::Tensor> in;
    for (const auto& name : op.inputs) {
      if (name.empty()) {
        in.emplace_back();
        continue;
      }
      const ir::Tensor* t = g.find_tensor(name);
      if (t && t->is_constant()) {
        in.push_back(passes::constant_value(*t));
      } else {
        auto it = values.find(name);
        if (it == values.end()) throw std::runtime_error("no value for " + name);
        in.push_back(it->second);
      }
    }
    auto out = runtime::run_kernel(op, in);
    for (std::size_t k = 0; k < op.outputs.size() && k < out.size(); ++k) {
      if (op.outputs[k].empty()) continue;
      const ir::Tensor* t = g.find_tensor(op.outputs[k]);
      const auto& actual = out[k].shape();
      ++r.checked;
      const ir::Shape& declared = t->shape;
      bool is_static = declared.rank_known;
      bool ok = !declared.rank_known || declared.rank() == actual.size();
      for (std::size_t d = 0; ok && d < declared.rank(); ++d) {
        const std::int64_t v = eval_dim(declared.dims[d], symbols);
        if (v < 0) is_static = false;
        else if (v != actual[d]) ok = false;
      }
      if (!ok)
        r.mismatches.push_back(op.outputs[k] + " (" + op.op_type + "): declared " + declared.to_string() +
                               " but the runtime made " + sizes_text(actual));
      if (t->dtype != ir::DType::Undefined && t->dtype != out[k].dtype())
        r.mismatches.push_back(op.outputs[k] + " (" + op.op_type + "): declared " +
                               std::string(ir::dtype_name(t->dtype)) + " but the runtime made " +
                               std::string(ir::dtype_name(out[k].dtype())));
      if (!is_static) r.not_static.push_back(op.outputs[k] + " (" + op.op_type + ") " + declared.to_string());
      values[op.outputs[k]] = std::move(out[k]);
    }
  }
  return r;
}

}  // namespace ec::test
