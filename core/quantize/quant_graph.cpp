// Building the int8 graph and its float simulation from a Plan (quant_plan.h),
// and stripping QDQ pairs for the qat strategy.
#include <algorithm>
#include <cstring>

#include "core/errors.h"
#include "core/ir/algorithms.h"
#include "core/quantize/quant_plan.h"
#include "core/runtime/tensor.h"

namespace ec::quantize::detail {
namespace {

template <typename T>
ir::ConstantData bytes_of(const std::vector<T>& v) {
  return ir::ConstantData::copy_of(v.data(), v.size() * sizeof(T));
}

ir::Tensor constant(const std::string& name, ir::DType dt, const ir::Shape& shape, ir::ConstantData data) {
  ir::Tensor t;
  t.name = name;
  t.dtype = dt;
  t.shape = shape;
  t.data = std::move(data);
  return t;
}

std::vector<float> floats_of(const ir::Tensor& t) {
  std::vector<float> v;
  if (!t.data || t.dtype != ir::DType::Float32) return v;
  auto s = t.data->as<float>();
  return {s.begin(), s.end()};
}

ir::Operation make_op(ir::OpKind kind, const std::string& name, std::vector<std::string> in, std::vector<std::string> out) {
  ir::Operation op;
  op.kind = kind;
  op.op_type = std::string(ir::op_info(kind).name);
  op.name = name;
  op.inputs = std::move(in);
  op.outputs = std::move(out);
  return op;
}

// Scale and zero point of `t` as scalar constants (ONNX Quantize/DequantizeLinear inputs).
std::pair<std::string, std::string> add_param_constants(ir::Graph& g, const std::string& t, const ir::QuantParams& p) {
  const std::string s = t + "/scale", z = t + "/zero_point";
  if (!g.find_tensor(s)) {
    g.add_tensor(constant(s, ir::DType::Float32, ir::Shape::of({}), bytes_of(std::vector<float>{p.scales[0]})));
    g.add_tensor(constant(z, ir::DType::Int8, ir::Shape::of({}),
                          bytes_of(std::vector<std::int8_t>{static_cast<std::int8_t>(p.zero_points[0])})));
  }
  return {s, z};
}

ir::Tensor like(const ir::Graph& g, const std::string& src, const std::string& name, ir::DType dt) {
  ir::Tensor t;
  if (const ir::Tensor* s = g.find_tensor(src)) t.shape = s->shape;
  t.name = name;
  t.dtype = dt;
  return t;
}

// Name for a per-op replacement of a constant: the constant's own name when only
// this op reads it, else "name@op".
std::string replacement_name(const ir::UseLists& uses, const std::string& c, const ir::Operation& op) {
  return uses.consumers(c).size() <= 1 ? c : c + "@" + op.name;
}

}  // namespace

bool is_float_activation(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  return t && !t->is_constant() && t->dtype == ir::DType::Float32;
}
bool is_float_constant(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  return t && t->is_constant() && t->dtype == ir::DType::Float32;
}

std::optional<WeightSlot> weight_slot(const ir::Graph& g, const ir::Operation& op) {
  if (op.inputs.size() < 2 || !is_float_constant(g, op.inputs[1])) return std::nullopt;
  const ir::Tensor* w = g.find_tensor(op.inputs[1]);
  if (!w->shape.is_static()) return std::nullopt;
  const std::size_t rank = w->shape.rank();
  switch (op.kind) {
    case ir::OpKind::Conv:
      return rank >= 3 ? std::optional<WeightSlot>{{0}} : std::nullopt;  // [O, I/g, k...]
    case ir::OpKind::ConvTranspose:  // [I, O, k...]: per output channel (group 1)
      return rank >= 3 && op.attr_int("group", 1) == 1 ? std::optional<WeightSlot>{{1}} : std::nullopt;
    case ir::OpKind::FullyConnected:
      return rank == 2 ? std::optional<WeightSlot>{{0}} : std::nullopt;  // [out, in]
    case ir::OpKind::Gemm:
      if (rank != 2 || op.attr_int("transA", 0) != 0) return std::nullopt;
      return WeightSlot{op.attr_int("transB", 0) ? 0 : 1};  // [N, K] or [K, N]
    case ir::OpKind::MatMul:
      return rank == 2 ? std::optional<WeightSlot>{{1}} : std::nullopt;  // [K, N]: per column
    default:
      return std::nullopt;
  }
}

ir::Graph build_int8_graph(const Plan& plan, bool int8_io) {
  const ir::Graph& g = plan.graph;
  const ir::UseLists uses(g);
  ir::Graph q;
  q.name = g.name;
  q.version = g.version;
  q.metadata = g.metadata;
  q.metadata["quantize.strategy"] = plan.strategy;
  q.inputs = g.inputs;
  q.outputs = g.outputs;
  q.tensors = g.tensors;
  const std::set<std::string> outputs(g.outputs.begin(), g.outputs.end());
  const std::set<std::string> inputs(g.inputs.begin(), g.inputs.end());
  auto producer_int8 = [&](const std::string& t) {
    const auto p = uses.producer(t);
    return p >= 0 && plan.int8_ops.count(static_cast<std::size_t>(p));
  };
  auto params_of = [&](const std::string& t) -> const ir::QuantParams* {
    auto it = plan.params.find(t);
    return it == plan.params.end() ? nullptr : &it->second;
  };
  // An int8 graph input (int8_io) or an int8 op's output: stored as i8.
  auto stored_int8 = [&](const std::string& t) {
    return producer_int8(t) || (int8_io && inputs.count(t) && params_of(t));
  };
  // What int8 ops read for t, and what float ops read for it.
  auto int8_name = [&](const std::string& t) {
    if (stored_int8(t)) return (!int8_io && outputs.count(t)) ? t + "/quantized" : t;
    return t + "/quantized";
  };
  auto float_name = [&](const std::string& t) {
    if (!stored_int8(t)) return t;
    return (!int8_io && outputs.count(t)) ? t : t + "/dequantized";
  };

  std::vector<ir::Operation> ops;
  std::set<std::string> emitted;
  auto emit_q = [&](const std::string& t) {
    const std::string out = t + "/quantized";
    if (!emitted.insert(out).second) return;
    const ir::QuantParams& p = *params_of(t);
    auto [s, z] = add_param_constants(q, t, p);
    ops.push_back(make_op(ir::OpKind::QuantizeLinear, t + "/QuantizeLinear", {t, s, z}, {out}));
    ir::Tensor& qt = q.add_tensor(like(g, t, out, ir::DType::Int8));
    qt.quant = p;
  };
  auto emit_dq = [&](const std::string& from, const std::string& t, const std::string& out) {
    if (!emitted.insert(out).second) return;
    auto [s, z] = add_param_constants(q, t, *params_of(t));
    ops.push_back(make_op(ir::OpKind::DequantizeLinear, t + "/DequantizeLinear", {from, s, z}, {out}));
    q.add_tensor(like(g, t, out, ir::DType::Float32));
  };

  for (const auto& in : g.inputs) {
    const ir::QuantParams* p = params_of(in);
    if (!p) continue;
    if (int8_io) {
      ir::Tensor& t = q.tensors[in];
      t.dtype = ir::DType::Int8;
      t.quant = *p;
    }
  }

  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    ir::Operation op = g.ops[i];
    const bool int8 = plan.int8_ops.count(i) > 0, hybrid = plan.hybrid_ops.count(i) > 0;
    auto layer = plan.layers.find(i);
    if (int8 || hybrid) {
      for (std::size_t k = 0; k < op.inputs.size(); ++k) {
        const std::string t = op.inputs[k];
        if (t.empty()) continue;
        if (layer != plan.layers.end() && k == 1) {
          const LayerPlan& l = layer->second;
          const std::string name = replacement_name(uses, t, op);
          ir::Tensor c = constant(name, ir::DType::Int8, g.find_tensor(t)->shape, bytes_of(l.weights.values));
          c.quant = l.weights.params;
          q.add_tensor(std::move(c));
          op.inputs[k] = name;
        } else if (layer != plan.layers.end() && k == 2 && layer->second.bias) {
          const QuantizedBias& b = *layer->second.bias;
          const std::string name = replacement_name(uses, t, op);
          ir::Tensor c = constant(name, ir::DType::Int32, g.find_tensor(t)->shape, bytes_of(b.values));
          c.quant = b.params;
          q.add_tensor(std::move(c));
          op.inputs[k] = name;
        } else if (is_float_activation(g, t)) {
          if (hybrid) {
            op.inputs[k] = float_name(t);
            if (stored_int8(t) && op.inputs[k] != t) emit_dq(int8_name(t), t, op.inputs[k]);
          } else {
            if (!stored_int8(t)) emit_q(t);
            op.inputs[k] = int8_name(t);
          }
        } else if (int8 && is_float_constant(g, t) && params_of(t)) {
          // A constant operand of an element-wise op: per-tensor asymmetric int8.
          const ir::QuantParams& p = *params_of(t);
          const std::string name = t + "@" + op.name;
          ir::Tensor c = constant(name, ir::DType::Int8, g.find_tensor(t)->shape,
                                  bytes_of(quantize_values(floats_of(*g.find_tensor(t)), p)));
          c.quant = p;
          q.add_tensor(std::move(c));
          op.inputs[k] = name;
        }
      }
    } else {
      for (auto& t : op.inputs) {
        if (t.empty() || !g.find_tensor(t) || g.find_tensor(t)->is_constant()) continue;
        if (!stored_int8(t)) continue;
        const std::string fn = float_name(t);
        if (fn != t) emit_dq(int8_name(t), t, fn);
        t = fn;
      }
    }
    std::vector<std::pair<std::string, std::string>> dq_after;  // (i8 name, float name)
    if (int8) {
      for (auto& t : op.outputs) {
        if (t.empty()) continue;
        const std::string n = int8_name(t);
        ir::Tensor& ot = n == t ? q.tensors[t] : q.add_tensor(like(g, t, n, ir::DType::Int8));
        ot.dtype = ir::DType::Int8;
        ot.quant = *params_of(t);
        if (n != t) dq_after.emplace_back(n, t);
        t = n;
      }
    }
    ops.push_back(std::move(op));
    for (const auto& [from, to] : dq_after) emit_dq(from, to, to);
  }
  q.ops = std::move(ops);
  ir::drop_unused_tensors(q);  // the replaced float weights
  ir::topological_sort(q);
  return q;
}

std::string simulated_name(const Plan& plan, const std::string& t) {
  const ir::UseLists uses(plan.graph);
  const auto p = uses.producer(t);
  return p >= 0 && plan.int8_ops.count(static_cast<std::size_t>(p)) ? t : t + "/fq";
}

std::string int8_name(const Plan& plan, const std::string& t) {
  const ir::UseLists uses(plan.graph);
  const auto p = uses.producer(t);
  const bool out = std::find(plan.graph.outputs.begin(), plan.graph.outputs.end(), t) != plan.graph.outputs.end();
  if (p >= 0 && plan.int8_ops.count(static_cast<std::size_t>(p))) return out ? t + "/quantized" : t;
  return t + "/quantized";
}

ir::Graph build_simulation_graph(const Plan& plan, const std::set<std::size_t>& as_float) {
  const ir::Graph& g = plan.graph;
  const ir::UseLists uses(g);
  ir::Graph s = g;
  s.ops.clear();
  auto int8 = [&](std::size_t i) { return plan.int8_ops.count(i) && !as_float.count(i); };
  auto producer_int8 = [&](const std::string& t) {
    const auto p = uses.producer(t);
    return p >= 0 && int8(static_cast<std::size_t>(p));
  };
  std::set<std::string> emitted;
  // Quantize -> Dequantize of `from` (params of `t`) into `out`.
  auto emit_fq = [&](const std::string& from, const std::string& t, const std::string& out) {
    if (!emitted.insert(out).second) return;
    const ir::QuantParams& p = plan.params.at(t);
    auto [sc, zp] = add_param_constants(s, t, p);
    s.ops.push_back(make_op(ir::OpKind::QuantizeLinear, out + "/Q", {from, sc, zp}, {out + "/q"}));
    s.add_tensor(like(g, t, out + "/q", ir::DType::Int8));
    s.ops.push_back(make_op(ir::OpKind::DequantizeLinear, out + "/DQ", {out + "/q", sc, zp}, {out}));
    s.add_tensor(like(g, t, out, ir::DType::Float32));
  };
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    ir::Operation op = g.ops[i];
    auto layer = plan.layers.find(i);
    const bool q8 = int8(i), hybrid = plan.hybrid_ops.count(i) && !as_float.count(i);
    if (q8 || hybrid) {
      for (std::size_t k = 0; k < op.inputs.size(); ++k) {
        const std::string t = op.inputs[k];
        if (t.empty()) continue;
        if (layer != plan.layers.end() && k == 1) {
          const std::string name = t + "/sim@" + op.name;
          s.add_tensor(constant(name, ir::DType::Float32, g.find_tensor(t)->shape, bytes_of(layer->second.weights.dequantized)));
          op.inputs[k] = name;
        } else if (layer != plan.layers.end() && k == 2 && layer->second.bias && q8) {
          const QuantizedBias& b = *layer->second.bias;
          std::vector<float> v(b.values.size());
          for (std::size_t c = 0; c < v.size(); ++c)
            v[c] = static_cast<float>(b.values[c] * static_cast<double>(b.params.scales[b.params.scales.size() > 1 ? c : 0]));
          const std::string name = t + "/sim@" + op.name;
          s.add_tensor(constant(name, ir::DType::Float32, g.find_tensor(t)->shape, bytes_of(v)));
          op.inputs[k] = name;
        } else if (is_float_activation(g, t)) {
          if (hybrid) {
            // TFLite hybrid: the input is quantised per run from its own min/max.
            const std::string out = t + "/dyn";
            if (emitted.insert(out).second) {
              s.ops.push_back(make_op(ir::OpKind::DynamicQuantizeLinear, out + "/Q", {t}, {out + "/q", out + "/s", out + "/z"}));
              s.add_tensor(like(g, t, out + "/q", ir::DType::UInt8));
              s.add_tensor(like(g, t, out + "/s", ir::DType::Float32)).shape = ir::Shape::of({});
              s.add_tensor(like(g, t, out + "/z", ir::DType::UInt8)).shape = ir::Shape::of({});
              s.ops.push_back(make_op(ir::OpKind::DequantizeLinear, out + "/DQ", {out + "/q", out + "/s", out + "/z"}, {out}));
              s.add_tensor(like(g, t, out, ir::DType::Float32));
            }
            op.inputs[k] = out;
          } else if (!producer_int8(t)) {
            emit_fq(t, t, t + "/fq");
            op.inputs[k] = t + "/fq";
          }
        } else if (q8 && is_float_constant(g, t) && plan.params.count(t)) {
          const ir::QuantParams& p = plan.params.at(t);
          const auto qv = quantize_values(floats_of(*g.find_tensor(t)), p);
          std::vector<float> v(qv.size());
          for (std::size_t c = 0; c < v.size(); ++c)
            v[c] = static_cast<float>((qv[c] - p.zero_points[0]) * static_cast<double>(p.scales[0]));
          const std::string name = t + "/sim@" + op.name;
          s.add_tensor(constant(name, ir::DType::Float32, g.find_tensor(t)->shape, bytes_of(v)));
          op.inputs[k] = name;
        }
      }
    }
    if (q8) {
      std::vector<std::string> outs = op.outputs;
      for (auto& t : op.outputs)
        if (!t.empty()) {
          s.add_tensor(like(g, t, t + "/acc", ir::DType::Float32));
          t += "/acc";
        }
      s.ops.push_back(std::move(op));
      for (const auto& t : outs)
        if (!t.empty()) emit_fq(t + "/acc", t, t);
    } else {
      s.ops.push_back(std::move(op));
    }
  }
  ir::drop_unused_tensors(s);
  ir::topological_sort(s);
  return s;
}

std::map<std::string, ir::QuantParams> strip_qdq_pairs(ir::Graph& g) {
  std::map<std::string, ir::QuantParams> found;
  const ir::UseLists uses(g);
  std::set<std::size_t> remove;
  std::map<std::string, std::string> forward;  // DequantizeLinear output -> original float tensor
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const ir::Operation& qop = g.ops[i];
    if (qop.kind != ir::OpKind::QuantizeLinear || qop.outputs.empty()) continue;
    const auto& readers = uses.consumers(qop.outputs[0]);
    if (readers.empty()) continue;
    bool all_dq = true;
    for (auto r : readers) all_dq &= g.ops[r].kind == ir::OpKind::DequantizeLinear;
    if (!all_dq) continue;
    // Scale and zero point are constants, possibly behind a Cast (PyTorch exports
    // the zero point as Cast(Constant)).
    auto values = [&](const std::string& name, ir::DType& dt) -> std::optional<std::vector<double>> {
      const ir::Tensor* t = g.find_tensor(name);
      if (!t) return std::nullopt;
      dt = t->dtype;
      const ir::Tensor* src = t;
      for (int hops = 0; src && !src->data && hops < 4; ++hops) {  // Cast(Identity(constant))
        const auto p = uses.producer(src->name);
        if (p < 0) return std::nullopt;
        const ir::Operation& via = g.ops[static_cast<std::size_t>(p)];
        if (via.kind != ir::OpKind::Cast && via.kind != ir::OpKind::Identity) return std::nullopt;
        src = g.find_tensor(via.inputs[0]);
      }
      if (!src || !src->data || !src->shape.is_static()) return std::nullopt;
      const runtime::Tensor r = runtime::Tensor::from_constant(src->dtype, src->shape.sizes(), *src->data);
      std::vector<double> v(static_cast<std::size_t>(r.numel()));
      for (std::size_t k = 0; k < v.size(); ++k) v[k] = r.get_double(static_cast<std::int64_t>(k));
      return v;
    };
    ir::DType st = ir::DType::Undefined, zt = ir::DType::UInt8;
    const auto scales = values(qop.inputs[1], st);
    if (!scales || scales->empty()) continue;
    std::optional<std::vector<double>> zps;
    if (qop.inputs.size() > 2 && !qop.inputs[2].empty()) {
      zps = values(qop.inputs[2], zt);
      if (!zps || zps->size() != scales->size()) continue;
    }
    if (zt != ir::DType::UInt8 && zt != ir::DType::Int8) continue;
    ir::QuantParams p;
    for (std::size_t c = 0; c < scales->size(); ++c) {
      p.scales.push_back(static_cast<float>((*scales)[c]));
      const auto z = zps ? static_cast<std::int64_t>((*zps)[c]) : 0;
      // u8 -> i8: the same real values, zero point shifted by 128.
      p.zero_points.push_back(zt == ir::DType::UInt8 ? z - 128 : z);
    }
    p.dtype = ir::DType::Int8;
    if (p.scales.size() > 1) {
      const ir::Tensor* x = g.find_tensor(qop.inputs[0]);
      std::int64_t axis = qop.attr_int("axis", 1);
      if (axis < 0 && x) axis += static_cast<std::int64_t>(x->shape.rank());
      p.axis = static_cast<int>(axis);
    }
    found[qop.inputs[0]] = p;
    remove.insert(i);
    for (auto r : readers) {
      remove.insert(r);
      forward[g.ops[r].outputs[0]] = qop.inputs[0];
    }
  }
  if (remove.empty()) return found;
  // Readers of a DequantizeLinear output read the float tensor instead; a graph
  // output that was a DequantizeLinear output takes the float tensor's place by name.
  std::map<std::string, std::string> rename;  // float tensor -> graph output name
  for (const auto& o : g.outputs)
    if (auto it = forward.find(o); it != forward.end()) rename[it->second] = o;
  auto resolve = [&](const std::string& t) {
    auto it = forward.find(t);
    std::string r = it == forward.end() ? t : it->second;
    auto rn = rename.find(r);
    return rn == rename.end() ? r : rn->second;
  };
  std::vector<ir::Operation> ops;
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    if (remove.count(i)) continue;
    ir::Operation op = g.ops[i];
    for (auto& t : op.inputs) t = resolve(t);
    for (auto& t : op.outputs)
      if (auto rn = rename.find(t); rn != rename.end()) t = rn->second;
    ops.push_back(std::move(op));
  }
  g.ops = std::move(ops);
  for (const auto& [from, to] : rename) {
    ir::Tensor t = *g.find_tensor(from);
    t.name = to;
    g.tensors.erase(from);
    g.add_tensor(std::move(t));
    if (auto it = found.find(from); it != found.end()) {
      found[to] = it->second;
      found.erase(it);
    }
  }
  ir::drop_unused_tensors(g);
  return found;
}

}  // namespace ec::quantize::detail
