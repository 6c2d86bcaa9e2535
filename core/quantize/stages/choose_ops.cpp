// Stage choose_ops (stages.h): which ops run in int8 (or hybrid), which stay
// float and why; every chosen op's weights quantised; the int8 kernels probed.
#include <algorithm>

#include "core/errors.h"
#include "core/quantize/stages/stages.h"
#include "core/runtime/thread_pool.h"

namespace ec::quantize::detail {
namespace {

using runtime::quantized::Int8KernelEntry;

// Why `op` cannot run in int8 as the table allows, or "" when it can.
std::string int8_refusal(const ir::Graph& g, const ir::Operation& op) {
  const Int8KernelEntry* row = int8_op(op.kind);
  if (!row) return "the CPU runtime has no int8 kernel for " + op.op_type;
  for (const auto& o : op.outputs)
    if (!o.empty() && (!g.find_tensor(o) || g.find_tensor(o)->dtype != ir::DType::Float32))
      return "its outputs are not all f32";
  if (op.kind == ir::OpKind::MaxPool && op.outputs.size() > 1 && !op.outputs[1].empty()) return "MaxPool with indices";
  for (std::size_t k = 0; k < op.inputs.size(); ++k) {
    const std::string& t = op.inputs[k];
    if (t.empty() || (row->data_only && k > 0)) continue;
    if (!is_float_activation(g, t) && !is_float_constant(g, t)) return "input '" + t + "' is not f32";
  }
  if (op.kind == ir::OpKind::Clip)
    for (std::size_t k = 1; k < op.inputs.size(); ++k)
      if (!op.inputs[k].empty() && !is_float_constant(g, op.inputs[k])) return "Clip bounds are not constants";
  if (op.kind == ir::OpKind::ConvTranspose && op.attr_int("group", 1) != 1)
    return "a grouped ConvTranspose (int8 per-channel weights need group 1)";
  const bool weighted = op.kind == ir::OpKind::Conv || op.kind == ir::OpKind::ConvTranspose || op.kind == ir::OpKind::Gemm ||
                        op.kind == ir::OpKind::FullyConnected;
  if (weighted && !weight_slot(g, op)) return "its weight is not a constant of static shape";
  if (op.kind == ir::OpKind::MatMul && is_float_constant(g, op.inputs[1]) && !weight_slot(g, op))
    return "constant MatMul operand of rank != 2";
  if (op.kind == ir::OpKind::Gemm) {
    const ir::Attribute* a = op.attr("alpha");
    const ir::Attribute* b = op.attr("beta");
    auto one = [](const ir::Attribute* x) { return !x || (std::holds_alternative<double>(*x) && std::get<double>(*x) == 1.0); };
    if (!one(a) || !one(b)) return "Gemm with alpha/beta != 1";
  }
  if (weighted && op.inputs.size() > 2 && !op.inputs[2].empty()) {
    const ir::Tensor* b = g.find_tensor(op.inputs[2]);
    if (!is_float_constant(g, op.inputs[2]) || b->shape.rank() != 1) return "its bias is not a 1-D constant";
  }
  if (!is_float_activation(g, op.inputs[0])) return "its first input is a constant";
  return {};
}

// Each op's weights are quantised once (the probe and choose_parameters plan them
// again as ops are demoted): all candidates at once on the threads.
void quantize_candidate_weights(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  std::vector<std::size_t> weighted;
  for (std::size_t i = 0; i < fg.ops.size(); ++i)
    if ((c.plan.int8_ops.count(i) || c.plan.hybrid_ops.count(i)) && weight_slot(fg, fg.ops[i])) weighted.push_back(i);
  std::vector<QuantizedWeights> done(weighted.size());
  runtime::ThreadPool pool(std::min<int>(c.threads, static_cast<int>(std::max<std::size_t>(weighted.size(), 1))));
  runtime::PoolScope scope(&pool);
  runtime::parallel_for(static_cast<std::int64_t>(weighted.size()), [&](std::int64_t k) {
    done[static_cast<std::size_t>(k)] = quantize_op_weights(c, weighted[static_cast<std::size_t>(k)]);
  });
  for (std::size_t k = 0; k < weighted.size(); ++k) c.quantized_weights.emplace(weighted[k], std::move(done[k]));
}

// Ask the runtime's int8 kernels about every op chosen so far, with placeholder
// activation params ([-1, 1]), exactly as a session load prepares them. An op a
// kernel refuses (an attribute it does not take, e.g. a fused SIGMOID) stays in
// float with the kernel's reason; its neighbours then read it through
// Quantize/Dequantize boundaries. Repeat until every kernel takes its op.
void probe_int8_kernels(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  Plan& plan = c.plan;
  std::map<std::string, std::size_t> by_name;
  for (std::size_t i = 0; i < fg.ops.size(); ++i)
    if (!fg.ops[i].name.empty()) by_name.emplace(fg.ops[i].name, i);
  for (bool demoted = true; demoted;) {
    demoted = false;
    Ranges placeholder;
    if (c.strategy->calibrate)
      for (const auto& t : activation_tensors(c)) placeholder[t] = {-1.f, 1.f};
    propagate_scales(c, placeholder);
    plan_weights(c);
    const ir::Graph probe = build_int8_graph(plan, false);
    for (const auto& op : probe.ops) {
      if (!runtime::quantized::is_int8_op(op, probe) && !runtime::quantized::is_hybrid_op(op, probe)) continue;
      const std::string why = runtime::quantized::int8_refusal(op, probe);
      if (why.empty()) continue;
      const auto it = by_name.find(op.name);
      if (it == by_name.end() || (!plan.int8_ops.count(it->second) && !plan.hybrid_ops.count(it->second)))
        throw QuantizationError(op.name, "the CPU runtime's int8 kernels refuse an op the quantiser did not choose: " + why +
                                             " (a bug; please report it)");
      plan.int8_ops.erase(it->second);
      plan.hybrid_ops.erase(it->second);
      plan.float_reasons[op_label(fg.ops[it->second], it->second)] = "the int8 kernel does not take it: " + why;
      demoted = true;
    }
  }
  plan.params.clear();
  plan.layers.clear();
}

}  // namespace

void choose_ops(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  const TargetConstraints& target = c.options.target;
  Plan& plan = c.plan;
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    const ir::Operation& op = fg.ops[i];
    if (op.inputs.empty() || !is_float_activation(fg, op.inputs[0])) continue;  // not float data
    bool float_out = false;  // Shape/Size read only metadata: not worth a line in the report
    for (const auto& o : op.outputs) float_out |= !o.empty() && is_float_activation(fg, o);
    if (!float_out) continue;
    if (matches_keep_float(op, c.options.keep_float)) {
      plan.float_reasons[op_label(op, i)] = "--keep-float";
      continue;
    }
    if (std::find(target.keep_float.begin(), target.keep_float.end(), op.op_type) != target.keep_float.end()) {
      plan.float_reasons[op_label(op, i)] = target.keep_float_reason;
      continue;
    }
    if (c.strategy->hybrid) {
      if (weight_slot(fg, op) && runtime::quantized::has_hybrid_kernel(op.kind) && int8_refusal(fg, op).empty())
        plan.hybrid_ops.insert(i);
      continue;
    }
    const std::string why = int8_refusal(fg, op);
    if (why.empty()) plan.int8_ops.insert(i);
    else plan.float_reasons[op_label(op, i)] = why;
  }
  quantize_candidate_weights(c);
  probe_int8_kernels(c);
}

}  // namespace ec::quantize::detail
