// Stage choose_parameters (stages.h): activation ranges -> int8 params in graph
// order, weights and int32 biases planned; ops whose bias does not fit demoted.
#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {

using runtime::quantized::Int8KernelEntry;
using runtime::quantized::Int8OutputParams;

std::vector<std::string> activation_tensors(const QuantContext& c) {
  const ir::Graph& fg = c.fg();
  std::vector<std::string> act;
  std::set<std::string> seen;
  auto add = [&](const std::string& t) {
    if (!t.empty() && is_float_activation(fg, t) && seen.insert(t).second) act.push_back(t);
  };
  for (const auto& in : fg.inputs)
    for (auto i : c.uses->consumers(in))
      if (c.plan.int8_ops.count(i)) add(in);
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    if (!c.plan.int8_ops.count(i)) continue;
    for (const auto& t : fg.ops[i].inputs) add(t);
    for (const auto& t : fg.ops[i].outputs) add(t);
  }
  std::stable_sort(act.begin(), act.end(), [&](const std::string& a, const std::string& b) {
    return c.uses->producer(a) < c.uses->producer(b);
  });
  return act;
}

// Graph order: an op's inputs have params before its outputs are chosen.
void propagate_scales(QuantContext& c, const Ranges& observed) {
  const ir::Graph& fg = c.fg();
  Plan& plan = c.plan;
  plan.params.clear();
  // A target whose 8-bit Concat takes every input on the output's params (TFLite's
  // quantisation spec, so the Edge TPU): inputs and output share the union of their
  // ranges, as TFLite's converter chooses them (no requantising op in front).
  Ranges range = observed;
  if (c.options.target.concat_shares_params)
    for (int round = 0; round < 4; ++round)  // concats of concats settle in a few rounds
      for (std::size_t i = 0; i < fg.ops.size(); ++i) {
        const ir::Operation& op = fg.ops[i];
        if (op.kind != ir::OpKind::Concat || !plan.int8_ops.count(i)) continue;
        std::vector<std::string> members(op.inputs.begin(), op.inputs.end());
        members.push_back(op.outputs[0]);
        float lo = 0, hi = 0;
        bool all = true;
        for (const auto& t : members) {
          const auto r = range.find(t);
          if (r == range.end()) { all = false; break; }
          lo = std::min(lo, r->second.first);
          hi = std::max(hi, r->second.second);
        }
        if (all)
          for (const auto& t : members) range[t] = {lo, hi};
      }
  if (c.strategy->qdq_params)
    for (const auto& [t, p] : c.given)
      if (is_float_activation(fg, t)) plan.params[t] = p;
  if (c.strategy->hybrid) return;
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    if (!plan.int8_ops.count(i)) continue;
    const ir::Operation& op = fg.ops[i];
    const Int8KernelEntry* row = int8_op(op.kind);
    bool ok = true;
    for (std::size_t k = 0; k < op.inputs.size(); ++k) {
      const std::string& t = op.inputs[k];
      if (t.empty() || (row->data_only && k > 0)) continue;
      if (is_float_activation(fg, t) && !plan.params.count(t)) {
        if (auto r = range.find(t); r != range.end()) plan.params[t] = activation_params(r->second.first, r->second.second);
        else ok = false;
      }
      if (is_float_constant(fg, t) && !(weight_slot(fg, op) && k == 1) &&
          !((op.kind == ir::OpKind::Conv || op.kind == ir::OpKind::Gemm || op.kind == ir::OpKind::FullyConnected) && k == 2) &&
          !plan.params.count(t)) {
        auto v = fg.find_tensor(t)->data->as<float>();
        float lo = 0, hi = 0;
        for (float x : v) lo = std::min(lo, x), hi = std::max(hi, x);
        plan.params[t] = activation_params(lo, hi);
      }
    }
    for (const auto& o : op.outputs) {
      if (o.empty() || plan.params.count(o)) continue;
      if (row->output == Int8OutputParams::Fixed) plan.params[o] = runtime::quantized::fixed_output_params(op.kind);
      else if (row->output == Int8OutputParams::SameAsInput && plan.params.count(op.inputs[0])) plan.params[o] = plan.params[op.inputs[0]];
      else if (auto r = range.find(o); r != range.end()) plan.params[o] = activation_params(r->second.first, r->second.second);
      else ok = false;
    }
    if (!ok) {
      // qat: a tensor no QDQ pair describes keeps its op in float.
      plan.int8_ops.erase(i);
      plan.float_reasons[op_label(op, i)] = "no QuantizeLinear/DequantizeLinear pair gives the scale of its input or output";
    }
  }
  if (c.strategy->qdq_params) {
    // Drop params no int8 op needs any more (ops demoted above).
    std::set<std::string> needed;
    for (auto i : plan.int8_ops) {
      for (const auto& t : fg.ops[i].inputs) needed.insert(t);
      for (const auto& t : fg.ops[i].outputs) needed.insert(t);
    }
    for (auto it = plan.params.begin(); it != plan.params.end();) it = needed.count(it->first) ? std::next(it) : plan.params.erase(it);
  }
}

// Weights (and int32 biases: scale = input_scale * weight_scale).
QuantizedWeights quantize_op_weights(const QuantContext& c, std::size_t i) {
  const ir::Graph& fg = c.fg();
  const ir::Operation& op = fg.ops[i];
  const ir::Tensor& w = *fg.find_tensor(op.inputs[1]);
  const ir::QuantParams* forced = nullptr;
  if (auto it = c.given.find(w.name); it != c.given.end()) forced = &it->second;
  return quantize_weights(w.data->as<float>(), w.shape.sizes(), weight_slot(fg, op)->axis, c.per_channel, forced);
}

void plan_weights(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  Plan& plan = c.plan;
  plan.layers.clear();
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    if (!plan.int8_ops.count(i) && !plan.hybrid_ops.count(i)) continue;
    const ir::Operation& op = fg.ops[i];
    const auto slot = weight_slot(fg, op);
    if (!slot) continue;
    LayerPlan l;
    l.op = i;
    l.weight_axis = slot->axis;
    auto q = c.quantized_weights.find(i);
    if (q == c.quantized_weights.end()) q = c.quantized_weights.emplace(i, quantize_op_weights(c, i)).first;
    l.weights = q->second;
    if (plan.int8_ops.count(i) && op.inputs.size() > 2 && !op.inputs[2].empty()) {
      const ir::QuantParams& in = plan.params.at(op.inputs[0]);
      const auto b = fg.find_tensor(op.inputs[2])->data->as<float>();
      l.bias = quantize_bias(b, in.scales[0], l.weights.params);
      if (l.bias->out_of_range > 0 && !c.given.count(op.inputs[1])) {
        // The bias would not fit in int32 at input scale x weight scale (an input range far
        // narrower than the bias): the weight scale of each such channel grows until it
        // does, as TFLite's quantiser does (AdjustWeightsForBiasScale). The weights lose
        // precision there, which the tiny input makes negligible beside the bias.
        ir::QuantParams adjusted = l.weights.params;
        const bool pc = adjusted.scales.size() > 1;
        constexpr double kLimit = 1073741824.0 / 1.01;  // 2^30 with a margin for rounding
        for (std::size_t ch = 0; ch < b.size(); ++ch) {
          float& s = adjusted.scales[pc ? ch : 0];
          const double need = std::abs(static_cast<double>(b[ch])) / (static_cast<double>(in.scales[0]) * kLimit);
          if (need > s) s = static_cast<float>(need);
        }
        const ir::Tensor& w = *fg.find_tensor(op.inputs[1]);
        l.weights = quantize_weights(w.data->as<float>(), w.shape.sizes(), slot->axis, pc, &adjusted);
        l.weights.params.axis = adjusted.axis;
        l.bias = quantize_bias(b, in.scales[0], l.weights.params);
      }
    }
    plan.layers[i] = std::move(l);
  }
}

void choose_parameters(QuantContext& c) {
  const ir::Graph& fg = c.fg();
  Plan& plan = c.plan;
  if (c.strategy->calibrate) {
    for (const auto& t : c.act) {
      auto it = c.observers.find(t);
      if (it == c.observers.end() || it->second.empty())
        throw QuantizationError(t, "was never computed during calibration; check that the samples reach it");
      c.range[t] = it->second.range(c.options.calibration_percentile);
    }
    // An int8 op read only by a Relu/Clip clamps to the activation's range itself
    // (TFLite fuses them): its output takes the activation's (narrower) range.
    for (auto i : plan.int8_ops) {
      const ir::Operation& op = fg.ops[i];
      if (op.kind != ir::OpKind::Relu && op.kind != ir::OpKind::Clip) continue;
      const std::string& x = op.inputs[0];
      const auto p = c.uses->producer(x);
      if (p < 0 || !plan.int8_ops.count(static_cast<std::size_t>(p)) || c.uses->consumers(x).size() != 1) continue;
      if (std::find(fg.outputs.begin(), fg.outputs.end(), x) != fg.outputs.end()) continue;
      const Int8KernelEntry* prow = int8_op(fg.ops[static_cast<std::size_t>(p)].kind);
      if (prow->output != Int8OutputParams::Observed) continue;
      c.range[x] = c.range[op.outputs[0]];
      c.reference_of[x] = op.outputs[0];
    }
  }
  // An op whose int32 bias does not fit at input_scale * weight_scale would clamp
  // it: it stays in float (and the params are chosen again without it).
  for (bool demoted = true; demoted;) {
    demoted = false;
    propagate_scales(c, c.range);
    plan_weights(c);
    for (const auto& [i, l] : plan.layers) {
      if (!l.bias || l.bias->out_of_range == 0) continue;
      plan.int8_ops.erase(i);
      plan.float_reasons[op_label(fg.ops[i], i)] =
          "its bias does not fit in int32 at input scale x weight scale (" + std::to_string(l.bias->out_of_range) +
          " values up to " + std::to_string(static_cast<long long>(l.bias->max_abs_q)) + " steps, the limit 2^30): its input's range is too narrow for its bias";
      demoted = true;
    }
  }
  // Only the tensors the remaining int8 ops need (ops were demoted above, or for qat).
  const std::vector<std::string> still = activation_tensors(c);
  const std::set<std::string> keep(still.begin(), still.end());
  c.act.erase(std::remove_if(c.act.begin(), c.act.end(),
                             [&](const std::string& t) { return !keep.count(t) || !plan.params.count(t); }),
              c.act.end());
}

}  // namespace ec::quantize::detail
