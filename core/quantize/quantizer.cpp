// quantize(): analyse -> choose strategy -> insert quant boundaries -> calibrate
// -> propagate scales -> verify -> report (DESIGN.md). The graph rewrites are in
// quant_graph.cpp, the arithmetic in quant_math.cpp, observers in observer.cpp.
#include "core/quantize/quantizer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <set>
#include <thread>

#include "core/errors.h"
#include "core/ir/algorithms.h"
#include "core/ir/validate.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/observer.h"
#include "core/quantize/quant_plan.h"
#include "core/quantize/sample_lanes.h"
#include "core/quantize/strategy.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/session/session.h"
#include "core/runtime/thread_pool.h"

namespace ec::quantize {
namespace {

using detail::Plan;
using Clock = std::chrono::steady_clock;

// What may run in int8, and how an int8 op's output params are chosen, come from
// the CPU runtime's ONE int8 kernel table (runtime/quantized/int8_kernels.h): the
// quantiser keeps no table of its own. Whether a kernel takes a given op (its
// attributes, e.g. a fused activation) is asked of the kernel itself (probe below).
using runtime::quantized::Int8KernelEntry;
using runtime::quantized::Int8OutputParams;
const Int8KernelEntry* int8_op(ir::OpKind k) {
  const Int8KernelEntry* e = runtime::quantized::find_int8_kernel(k);
  return e && e->prepare ? e : nullptr;
}

bool is_float_activation(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  return t && !t->is_constant() && t->dtype == ir::DType::Float32;
}
bool is_float_constant(const ir::Graph& g, const std::string& name) {
  const ir::Tensor* t = g.find_tensor(name);
  return t && t->is_constant() && t->dtype == ir::DType::Float32;
}

std::string op_label(const ir::Operation& op, std::size_t i) {
  return op.name.empty() ? "#" + std::to_string(i) : op.name;
}

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
  if (weighted && !detail::weight_slot(g, op)) return "its weight is not a constant of static shape";
  if (op.kind == ir::OpKind::MatMul && is_float_constant(g, op.inputs[1]) && !detail::weight_slot(g, op))
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

// "HARD_SWISH", "HardSwish" -> "hardswish": an op type and a fused activation's name compare equal.
std::string folded(std::string_view s) {
  std::string r;
  for (char c : s)
    if (c != '_') r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// An op matches --keep-float by name, by type, or by the activation fused into it
// (--keep-float Sigmoid keeps a Conv with fused_activation SIGMOID in float).
bool matches_keep_float(const ir::Operation& op, const std::vector<std::string>& keep) {
  const std::string fused = folded(op.attr_string("fused_activation", "NONE"));
  for (const auto& k : keep)
    if (k == op.name || k == op.op_type || (fused != "none" && folded(k) == fused)) return true;
  return false;
}

// An activation fused into an op that the int8 kernels cannot apply (they apply clamps:
// RELU, RELU6, RELU_N1_TO_1) becomes its own op again, so the op and the activation each
// run in int8 (a squeeze-excite Conv with a fused SIGMOID otherwise stays float whole, and
// with it every op around it). Not for an op --keep-float names by that activation.
void unfuse_non_clamp_activations(ir::Graph& g, const std::vector<std::string>& keep) {
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const std::string act = g.ops[i].attr_string("fused_activation", "NONE");
    const ir::OpKind kind = act == "SIGMOID" ? ir::OpKind::Sigmoid : act == "TANH" ? ir::OpKind::Tanh : ir::OpKind::Unknown;
    if (kind == ir::OpKind::Unknown || g.ops[i].outputs.empty() || matches_keep_float(g.ops[i], keep)) continue;
    const ir::Tensor* y = g.find_tensor(g.ops[i].outputs[0]);
    if (!y) continue;
    ir::Tensor pre = *y;
    pre.name = y->name + "/pre_activation";
    for (int k = 1; g.find_tensor(pre.name); ++k) pre.name = y->name + "/pre_activation_" + std::to_string(k);
    pre.data.reset();
    const std::string pre_name = pre.name;
    g.add_tensor(std::move(pre));
    ir::Operation a;
    a.kind = kind;
    a.op_type = std::string(ir::op_info(kind).name);
    a.name = (g.ops[i].name.empty() ? y->name : g.ops[i].name) + "/activation";
    a.inputs = {pre_name};
    a.outputs = {g.ops[i].outputs[0]};
    g.ops[i].outputs[0] = pre_name;
    g.ops[i].attributes.erase("fused_activation");
    g.ops.insert(g.ops.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(a));
  }
}

void check_progress(const ProgressFn& progress, const std::string& stage, int done, int total) {
  if (progress && !progress(stage, done, total)) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");
}

// Runs a graph with extra tensors exposed as outputs (calibration, report).
class ExposedRunner {
 public:
  ExposedRunner(const ir::Graph& g, const std::vector<std::string>& expose, int threads) {
    ir::Graph copy = g;
    std::set<std::string> have(copy.outputs.begin(), copy.outputs.end());
    const std::set<std::string> inputs(copy.inputs.begin(), copy.inputs.end());
    for (const auto& t : expose)
      if (!inputs.count(t) && copy.find_tensor(t) && !copy.find_tensor(t)->is_constant() && have.insert(t).second)
        copy.outputs.push_back(t);
    // NCHW as written: every exposed activation of a channels-last session would need
    // its own Transpose back (measured: quantize 10% slower).
    runtime::SessionOptions options;
    options.threads = threads;
    options.channels_last = false;
    session_ = std::make_unique<runtime::InferenceSession>(options);
    session_->load(ir::freeze(std::move(copy)));
  }
  std::map<std::string, runtime::Tensor> run(const Sample& s) const {
    auto out = session_->run(s);
    for (const auto& [k, v] : s) out.emplace(k, v);  // inputs read like any tensor
    return out;
  }

 private:
  std::unique_ptr<runtime::InferenceSession> session_;
};

std::span<const float> floats(const runtime::Tensor& t) {
  if (t.dtype() != ir::DType::Float32) return {};
  return t.values<float>();
}

// The real values of a runtime tensor: f32 as is, i8 dequantised with `p`.
std::vector<float> real_values(const runtime::Tensor& t, const ir::QuantParams* p) {
  if (t.dtype() == ir::DType::Float32) {
    auto v = t.values<float>();
    return {v.begin(), v.end()};
  }
  std::vector<float> out;
  if (t.dtype() != ir::DType::Int8 || !p) return out;
  out.resize(static_cast<std::size_t>(t.numel()));
  const std::int8_t* q = t.data<std::int8_t>();
  const float s = p->scales[0];
  const auto zp = static_cast<std::int32_t>(p->zero_points[0]);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = static_cast<float>(q[i] - zp) * s;
  return out;
}

std::int64_t argmax(std::span<const float> v) {
  return v.empty() ? -1 : static_cast<std::int64_t>(std::max_element(v.begin(), v.end()) - v.begin());
}

// Calibration and the report run whole samples on up to this many lanes at once.
// Each lane holds its sessions and one sample's exposed values (float and int8):
// lanes are also capped so that those values stay within kLaneBudget bytes in all.
constexpr int kMaxLanes = 8;
constexpr std::int64_t kLaneBudget = std::int64_t{1} << 30;

// One lane's sessions (each prepared once) and the sample it works on (sample_lanes.h).
struct Lane {
  std::unique_ptr<ExposedRunner> float_runner, q_runner;
  std::map<std::string, runtime::Tensor> f, q;       // the sample's float and int8 values
  std::vector<Extent> extents;                       // per tensor of `act`
  std::vector<float> bin_at;                         // the R each tensor's run is binned at
  std::vector<float> guess;                          // the R `early` was binned at
  std::vector<HistogramBins> bins;                   // the lane's histograms, absorbed at the end
  std::vector<HistogramBins> early;                  // the sample's bins at `guess`
  std::vector<SqnrAccumulator> act_sums, out_sums;  // the sample's own sums
  std::vector<char> act_have, out_have;
  std::vector<int> agree;
};

}  // namespace

QuantizeResult quantize(const ir::Graph& float_graph, const std::vector<Sample>& samples_in,
                        const QuantizeOptions& options, const ProgressFn& progress) {
  // --- options
  const detail::StrategyRow* strategy = detail::find_strategy(options.strategy);
  if (!strategy) {
    std::string names;
    for (const auto& r : detail::strategy_rows()) names += (names.empty() ? "" : ", ") + std::string(r.name);
    throw EdgeCompilerError(ErrorKind::Usage, "unknown quantisation strategy '" + options.strategy + "'; valid strategies: " + names);
  }
  const TargetConstraints& target = options.target;
  if (!target.strategies.empty() &&
      std::find(target.strategies.begin(), target.strategies.end(), options.strategy) == target.strategies.end()) {
    std::string names;
    for (const auto& n : target.strategies) names += (names.empty() ? "" : " or ") + n;
    throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + options.strategy + " does not suit target " + target.target +
                                                  ": " + target.strategy_reason + "; use " + names);
  }
  const bool per_channel = options.per_channel && target.per_channel;
  if (!(options.calibration_percentile > 0 && options.calibration_percentile <= 100))
    throw EdgeCompilerError(ErrorKind::Usage, "--calibration-percentile must be in (0, 100], got " +
                                                  std::to_string(options.calibration_percentile));
  for (const auto& k : options.keep_float) {
    bool found = false;
    for (const auto& op : float_graph.ops) found |= op.name == k || op.op_type == k;
    if (!found)
      throw EdgeCompilerError(ErrorKind::Usage, "--keep-float: the model has no op named or of type '" + k +
                                                    "'; see `edgecompile inspect --dump` for op names");
  }
  std::vector<Sample> samples = samples_in;
  if (options.num_calibration_samples > 0 && static_cast<int>(samples.size()) > options.num_calibration_samples)
    samples.resize(static_cast<std::size_t>(options.num_calibration_samples));
  if (strategy->calibrate && samples.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "--strategy ptq needs calibration samples (--calibration-data)");

  QuantizeResult result;
  QuantReport& report = result.report;
  report.strategy = std::string(strategy->name);
  report.per_channel = per_channel;
  report.calibration_samples = strategy->calibrate ? static_cast<int>(samples.size()) : 0;
  report.calibration_percentile = options.calibration_percentile;

  // --- analyse: QDQ pairs out (qat), then the float pipeline (BatchNorm folded into Conv first).
  Plan plan;
  plan.strategy = report.strategy;
  ir::Graph g = float_graph;
  std::map<std::string, ir::QuantParams> given;
  if (strategy->qdq_params) {
    given = detail::strip_qdq_pairs(g);
    if (given.empty())
      throw EdgeCompilerError(ErrorKind::Quantization,
                              "the model has no QuantizeLinear/DequantizeLinear pairs; --strategy qat needs a model exported "
                              "after quantisation-aware training (use --strategy ptq with --calibration-data otherwise)");
  }
  {
    passes::PassManagerOptions pmo;
    pmo.record_diffs = false;
    passes::PassManager pm =
        passes::make_pipeline(options.pipeline.empty() ? passes::default_pipeline() : options.pipeline, pmo);
    pm.run(g);
  }
  unfuse_non_clamp_activations(g, options.keep_float);
  plan.graph = std::move(g);
  const ir::Graph& fg = plan.graph;
  const ir::UseLists uses(fg);

  // --- choose: which ops run in int8 (or hybrid)
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    const ir::Operation& op = fg.ops[i];
    if (op.inputs.empty() || !is_float_activation(fg, op.inputs[0])) continue;  // not float data
    bool float_out = false;  // Shape/Size read only metadata: not worth a line in the report
    for (const auto& o : op.outputs) float_out |= !o.empty() && is_float_activation(fg, o);
    if (!float_out) continue;
    if (matches_keep_float(op, options.keep_float)) {
      plan.float_reasons[op_label(op, i)] = "--keep-float";
      continue;
    }
    if (std::find(target.keep_float.begin(), target.keep_float.end(), op.op_type) != target.keep_float.end()) {
      plan.float_reasons[op_label(op, i)] = target.keep_float_reason;
      continue;
    }
    if (strategy->hybrid) {
      if (detail::weight_slot(fg, op) && runtime::quantized::has_hybrid_kernel(op.kind) &&
          int8_refusal(fg, op).empty())
        plan.hybrid_ops.insert(i);
      continue;
    }
    const std::string why = int8_refusal(fg, op);
    if (why.empty()) plan.int8_ops.insert(i);
    else plan.float_reasons[op_label(op, i)] = why;
  }

  // Activation tensors that need params: data inputs and outputs of int8 ops,
  // in graph order of producers (graph inputs first).
  auto activation_tensors = [&] {
    std::vector<std::string> act;
    std::set<std::string> seen;
    auto add = [&](const std::string& t) {
      if (!t.empty() && is_float_activation(fg, t) && seen.insert(t).second) act.push_back(t);
    };
    for (const auto& in : fg.inputs)
      for (auto c : uses.consumers(in))
        if (plan.int8_ops.count(c)) add(in);
    for (std::size_t i = 0; i < fg.ops.size(); ++i) {
      if (!plan.int8_ops.count(i)) continue;
      for (const auto& t : fg.ops[i].inputs) add(t);
      for (const auto& t : fg.ops[i].outputs) add(t);
    }
    std::stable_sort(act.begin(), act.end(), [&](const std::string& a, const std::string& b) {
      return uses.producer(a) < uses.producer(b);
    });
    return act;
  };

  using Ranges = std::map<std::string, std::pair<float, float>>;
  // Propagate scales (graph order: an op's inputs have params before its outputs are
  // chosen) from the activation ranges `range` and the model's own params (qat).
  auto propagate = [&](const Ranges& observed) {
    plan.params.clear();
    // A target whose 8-bit Concat takes every input on the output's params (TFLite's
    // quantisation spec, so the Edge TPU): inputs and output share the union of their
    // ranges, as TFLite's converter chooses them (no requantising op in front).
    Ranges range = observed;
    if (target.concat_shares_params)
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
    if (strategy->qdq_params)
      for (const auto& [t, p] : given)
        if (is_float_activation(fg, t)) plan.params[t] = p;
    if (strategy->hybrid) return;
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
        if (is_float_constant(fg, t) && !(detail::weight_slot(fg, op) && k == 1) &&
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
    if (strategy->qdq_params) {
      // Drop params no int8 op needs any more (ops demoted above).
      std::set<std::string> needed;
      for (auto i : plan.int8_ops) {
        for (const auto& t : fg.ops[i].inputs) needed.insert(t);
        for (const auto& t : fg.ops[i].outputs) needed.insert(t);
      }
      for (auto it = plan.params.begin(); it != plan.params.end();) it = needed.count(it->first) ? std::next(it) : plan.params.erase(it);
    }
  };

  // Weights (and int32 biases: scale = input_scale * weight_scale).
  // Each op's weights are quantised once (the loops below plan them again as ops are
  // demoted): all candidates at once on the threads first, each op on its own.
  auto quantize_op_weights = [&](std::size_t i) {
    const ir::Operation& op = fg.ops[i];
    const ir::Tensor& w = *fg.find_tensor(op.inputs[1]);
    const ir::QuantParams* forced = nullptr;
    if (auto it = given.find(w.name); it != given.end()) forced = &it->second;
    return quantize_weights(w.data->as<float>(), w.shape.sizes(), detail::weight_slot(fg, op)->axis, per_channel, forced);
  };
  std::map<std::size_t, QuantizedWeights> quantized_weights;
  const int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  {
    std::vector<std::size_t> weighted;
    for (std::size_t i = 0; i < fg.ops.size(); ++i)
      if ((plan.int8_ops.count(i) || plan.hybrid_ops.count(i)) && detail::weight_slot(fg, fg.ops[i])) weighted.push_back(i);
    std::vector<QuantizedWeights> done(weighted.size());
    runtime::ThreadPool pool(std::min<int>(threads, static_cast<int>(std::max<std::size_t>(weighted.size(), 1))));
    runtime::PoolScope scope(&pool);
    runtime::parallel_for(static_cast<std::int64_t>(weighted.size()), [&](std::int64_t k) {
      done[static_cast<std::size_t>(k)] = quantize_op_weights(weighted[static_cast<std::size_t>(k)]);
    });
    for (std::size_t k = 0; k < weighted.size(); ++k) quantized_weights.emplace(weighted[k], std::move(done[k]));
  }
  auto plan_weights = [&] {
    plan.layers.clear();
    for (std::size_t i = 0; i < fg.ops.size(); ++i) {
      if (!plan.int8_ops.count(i) && !plan.hybrid_ops.count(i)) continue;
      const ir::Operation& op = fg.ops[i];
      const auto slot = detail::weight_slot(fg, op);
      if (!slot) continue;
      detail::LayerPlan l;
      l.op = i;
      l.weight_axis = slot->axis;
      auto q = quantized_weights.find(i);
      if (q == quantized_weights.end()) q = quantized_weights.emplace(i, quantize_op_weights(i)).first;
      l.weights = q->second;
      if (plan.int8_ops.count(i) && op.inputs.size() > 2 && !op.inputs[2].empty()) {
        const ir::QuantParams& in = plan.params.at(op.inputs[0]);
        const auto b = fg.find_tensor(op.inputs[2])->data->as<float>();
        l.bias = quantize_bias(b, in.scales[0], l.weights.params);
        if (l.bias->out_of_range > 0 && !given.count(op.inputs[1])) {
          // The bias would not fit in int32 at input scale x weight scale (an input range far
          // narrower than the bias): the weight scale of each such channel grows until it
          // does, as TFLite's quantiser does (AdjustWeightsForBiasScale). The weights lose
          // precision there, which the tiny input makes negligible beside the bias.
          ir::QuantParams adjusted = l.weights.params;
          const bool pc = adjusted.scales.size() > 1;
          constexpr double kLimit = 1073741824.0 / 1.01;  // 2^30 with a margin for rounding
          for (std::size_t c = 0; c < b.size(); ++c) {
            float& s = adjusted.scales[pc ? c : 0];
            const double need = std::abs(static_cast<double>(b[c])) / (static_cast<double>(in.scales[0]) * kLimit);
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
  };

  // --- probe: ask the runtime's int8 kernels about every op chosen so far, with
  // placeholder activation params ([-1, 1]), exactly as a session load prepares
  // them. An op a kernel refuses (an attribute it does not take, e.g. a fused
  // SIGMOID) stays in float with the kernel's reason; its neighbours then read it
  // through Quantize/Dequantize boundaries. Repeat until every kernel takes its op.
  {
    std::map<std::string, std::size_t> by_name;
    for (std::size_t i = 0; i < fg.ops.size(); ++i)
      if (!fg.ops[i].name.empty()) by_name.emplace(fg.ops[i].name, i);
    for (bool demoted = true; demoted;) {
      demoted = false;
      Ranges placeholder;
      if (strategy->calibrate)
        for (const auto& t : activation_tensors()) placeholder[t] = {-1.f, 1.f};
      propagate(placeholder);
      plan_weights();
      const ir::Graph probe = detail::build_int8_graph(plan, false);
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

  std::vector<std::string> act = activation_tensors();

  // --- calibrate (ptq): observers on every activation tensor that needs params.
  // Whole samples run at once on "lanes" (sample_lanes.h), one sample per lane on
  // sessions of their own (whole runs scale better than the ops inside one run):
  // a lane runs the float graph and takes each tensor's min/max; in sample order,
  // each observer counts the run and says the range R to bin it at; the lane then
  // bins it at that R into histograms of its own, absorbed when all are done. The
  // observers end exactly as observing the samples one by one would leave them.
  std::int64_t sample_bytes = 0;  // one sample's exposed float values (static shapes; int8 ones are 1/4 of it)
  for (const auto& t : act)
    if (const ir::Tensor* x = fg.find_tensor(t))
      sample_bytes += x->shape.num_elements().value_or(0) * static_cast<std::int64_t>(sizeof(float));
  const int max_lanes = static_cast<int>(
      std::clamp<std::int64_t>(kLaneBudget / std::max<std::int64_t>(1, 2 * sample_bytes), 1, kMaxLanes));
  const int lanes = std::clamp(threads, 1, std::max(1, std::min(max_lanes, static_cast<int>(samples.size()))));
  const int lane_threads = std::max(1, threads / lanes);
  std::map<std::string, CalibrationObserver> observers;
  for (const auto& t : act) observers[t];
  std::vector<Lane> lane(static_cast<std::size_t>(lanes));
  auto float_runner = [&](int l) -> const ExposedRunner& {
    auto& r = lane[static_cast<std::size_t>(l)].float_runner;
    if (!r) r = std::make_unique<ExposedRunner>(fg, act, lane_threads);
    return *r;
  };
  // Observation split over the steps of run_in_lanes (the tensors of `act` in order).
  // The lane bins each tensor right after its min/max, while the values are still
  // in cache, at the R the observer will most likely return (the lane's own R grown
  // by this run); finish keeps those bins when merge returned that R (R rarely grows
  // after the first samples) and bins again at the right one otherwise.
  auto observe_work = [&](Lane& ln) {
    ln.extents.assign(act.size(), Extent{});
    ln.guess.assign(act.size(), -1.f);
    ln.bins.resize(act.size());
    ln.early.resize(act.size());
    for (std::size_t k = 0; k < act.size(); ++k) {
      auto it = ln.f.find(act[k]);
      if (it == ln.f.end()) continue;
      const auto values = floats(it->second);
      const Extent e = ln.extents[k] = CalibrationObserver::extent(values);
      if (!e.finite || e.count == 0) continue;
      ln.guess[k] = CalibrationObserver::grown_range(ln.bins[k].half_range(), e);
      ln.early[k].reset();
      ln.early[k].add(values, ln.guess[k]);
    }
  };
  auto observe_merge = [&](Lane& ln) {
    for (std::size_t k = 0; k < act.size(); ++k)
      if (!ln.extents[k].finite)
        throw QuantizationError(act[k], "calibration produced NaN or infinite values; check the calibration data and the model");
    ln.bin_at.resize(act.size());
    for (std::size_t k = 0; k < act.size(); ++k) ln.bin_at[k] = observers.at(act[k]).add_extent(ln.extents[k]);
  };
  auto observe_finish = [&](Lane& ln) {
    for (std::size_t k = 0; k < act.size(); ++k) {
      auto it = ln.f.find(act[k]);
      if (it == ln.f.end()) continue;
      if (ln.guess[k] == ln.bin_at[k]) ln.bins[k].absorb(ln.early[k]);
      else ln.bins[k].add(floats(it->second), ln.bin_at[k]);
    }
  };
  auto absorb_lanes = [&] {
    for (auto& ln : lane) {
      for (std::size_t k = 0; k < ln.bins.size() && k < act.size(); ++k) observers.at(act[k]).absorb(ln.bins[k]);
      ln.bins.clear();
    }
  };
  auto stage = [&](const std::string& name) {
    return [&progress, name, total = static_cast<int>(samples.size())](int done) {
      return !progress || progress(name, done, total);
    };
  };
  const auto t0 = Clock::now();
  if (strategy->calibrate) {
    detail::SampleSteps steps;
    steps.work = [&](int l, std::size_t s) {
      Lane& ln = lane[static_cast<std::size_t>(l)];
      ln.f = float_runner(l).run(samples[s]);
      observe_work(ln);
    };
    steps.merge = [&](int l, std::size_t) { observe_merge(lane[static_cast<std::size_t>(l)]); };
    steps.finish = [&](int l, std::size_t) {
      Lane& ln = lane[static_cast<std::size_t>(l)];
      observe_finish(ln);
      ln.f.clear();
    };
    detail::run_in_lanes(samples.size(), lanes, steps, stage("calibrate"));
    absorb_lanes();
    report.calibration_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  }

  // --- propagate scales
  Ranges range;
  // A tensor whose range was narrowed to a following Relu/Clip's is, in the int8
  // graph, that activation's output: the report compares it with that.
  std::map<std::string, std::string> reference_of;
  if (strategy->calibrate) {
    for (const auto& t : act) {
      auto it = observers.find(t);
      if (it == observers.end() || it->second.empty())
        throw QuantizationError(t, "was never computed during calibration; check that the samples reach it");
      range[t] = it->second.range(options.calibration_percentile);
    }
    // An int8 op read only by a Relu/Clip clamps to the activation's range itself
    // (TFLite fuses them): its output takes the activation's (narrower) range.
    for (auto i : plan.int8_ops) {
      const ir::Operation& op = fg.ops[i];
      if (op.kind != ir::OpKind::Relu && op.kind != ir::OpKind::Clip) continue;
      const std::string& x = op.inputs[0];
      const auto p = uses.producer(x);
      if (p < 0 || !plan.int8_ops.count(static_cast<std::size_t>(p)) || uses.consumers(x).size() != 1) continue;
      if (std::find(fg.outputs.begin(), fg.outputs.end(), x) != fg.outputs.end()) continue;
      const Int8KernelEntry* prow = int8_op(fg.ops[static_cast<std::size_t>(p)].kind);
      if (prow->output != Int8OutputParams::Observed) continue;
      range[x] = range[op.outputs[0]];
      reference_of[x] = op.outputs[0];
    }
  }
  // An op whose int32 bias does not fit at input_scale * weight_scale would clamp
  // it: it stays in float (and the params are chosen again without it).
  for (bool demoted = true; demoted;) {
    demoted = false;
    propagate(range);
    plan_weights();
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
  {
    const std::vector<std::string> still = activation_tensors();
    const std::set<std::string> keep(still.begin(), still.end());
    act.erase(std::remove_if(act.begin(), act.end(),
                             [&](const std::string& t) { return !keep.count(t) || !plan.params.count(t); }),
              act.end());
  }

  // --- verify
  for (const auto& [t, p] : plan.params) {
    for (float s : p.scales)
      if (!(std::isfinite(s) && s > 0)) throw QuantizationError(t, "scale " + std::to_string(s) + " is not finite and > 0");
    for (auto z : p.zero_points)
      if (z < -128 || z > 127) throw QuantizationError(t, "zero point " + std::to_string(z) + " is outside int8");
    const auto [lo, hi] = represented_range(p);
    if (hi - lo > 1e4f)
      report.warnings.push_back("tensor '" + t + "': range [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                "] is very wide (scale " + std::to_string(p.scales[0]) +
                                "); small values lose precision: try --calibration-percentile 99.99");
  }
  for (const auto& [i, l] : plan.layers) {
    for (float s : l.weights.params.scales)
      if (!(std::isfinite(s) && s > 0)) throw QuantizationError(fg.ops[i].inputs[1], "weight scale is not finite and > 0");
    if (!per_channel && l.weights.channel_sqnr_db.size() > 1) {
      const auto [mn, mx] = std::minmax_element(l.weights.channel_sqnr_db.begin(), l.weights.channel_sqnr_db.end());
      if (*mx - *mn > 20)
        report.warnings.push_back("op '" + fg.ops[i].name + "': weight channels differ widely in range (channel SQNR " +
                                  std::to_string(static_cast<int>(*mn)) + ".." + std::to_string(static_cast<int>(*mx)) +
                                  " dB); per-channel weights (--per-channel) would help");
    }
  }
  result.graph = detail::build_int8_graph(plan, options.int8_io);
  for (const auto& issue : ir::validate(result.graph))
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      throw QuantizationError(issue.tensor.empty() ? issue.op : issue.tensor,
                              "the quantised graph is invalid: " + issue.message + " (a bug; please report it)");

  // --- load the int8 graph on the CPU runtime, as `edgecompile run` will: a graph
  // the runtime refuses is never returned (the probe above should have made it so).
  // The report's figures come from running this graph, never from a simulation.
  std::vector<std::string> q_names;
  for (const auto& t : act) q_names.push_back(detail::int8_name(plan, t));
  ir::Graph exec;
  auto q_runner = [&](int l) -> const ExposedRunner& {
    auto& r = lane[static_cast<std::size_t>(l)].q_runner;
    if (!r) r = std::make_unique<ExposedRunner>(exec, q_names, lane_threads);
    return *r;
  };
  try {
    if (options.int8_io) ExposedRunner check(result.graph, {}, options.threads);
    exec = options.int8_io ? detail::build_int8_graph(plan, false) : result.graph;
    q_runner(0);  // each lane prepares its session once; this one before any run, to refuse here
  } catch (const EdgeCompilerError& e) {
    throw QuantizationError(e.what(), std::string("the CPU runtime cannot run the quantised graph: ") + e.what() +
                                          " (a bug; please report it; --keep-float OP keeps the op in float meanwhile)");
  }
  // The float graph and the int8 graph run on each sample in the lanes, which also
  // take the sample's own SQNR sums per tensor; the sums are added in sample order
  // (the same double additions as one sample at a time).
  std::map<std::string, SqnrAccumulator> tensor_acc;
  std::vector<SqnrAccumulator> act_acc(act.size());
  std::vector<char> act_measured(act.size(), 0);
  std::vector<SqnrAccumulator> out_acc(fg.outputs.size());
  std::vector<int> agree(fg.outputs.size(), 0);
  if (!samples.empty()) {
    detail::SampleSteps steps;
    steps.work = [&](int l, std::size_t s) {
      Lane& ln = lane[static_cast<std::size_t>(l)];
      ln.q = q_runner(l).run(samples[s]);
      ln.f = float_runner(l).run(samples[s]);
      const auto& f = ln.f;
      const auto& q = ln.q;
      if (!strategy->calibrate) observe_work(ln);
      ln.act_sums.assign(act.size(), SqnrAccumulator{});
      ln.act_have.assign(act.size(), 0);
      for (std::size_t k = 0; k < act.size(); ++k) {
        auto ref = reference_of.find(act[k]);
        auto a = f.find(ref == reference_of.end() ? act[k] : ref->second), b = q.find(q_names[k]);
        if (a == f.end() || b == q.end()) continue;
        const auto p = plan.params.find(act[k]);
        const ir::QuantParams* qp = p == plan.params.end() ? nullptr : &p->second;
        if (b->second.dtype() == ir::DType::Int8 && qp)  // dequantised on the fly, no float copy
          ln.act_sums[k].add_dequantized(floats(a->second), b->second.values<std::int8_t>(), qp->scales[0],
                                         static_cast<std::int32_t>(qp->zero_points[0]));
        else
          ln.act_sums[k].add(floats(a->second), real_values(b->second, qp));
        ln.act_have[k] = 1;
      }
      ln.out_sums.assign(fg.outputs.size(), SqnrAccumulator{});
      ln.out_have.assign(fg.outputs.size(), 0);
      ln.agree.assign(fg.outputs.size(), 0);
      for (std::size_t o = 0; o < fg.outputs.size(); ++o) {
        auto a = f.find(fg.outputs[o]), b = q.find(fg.outputs[o]);
        if (a == f.end() || b == q.end()) continue;
        ln.out_sums[o].add(floats(a->second), floats(b->second));
        ln.out_have[o] = 1;
        ln.agree[o] = argmax(floats(a->second)) == argmax(floats(b->second));
      }
      ln.q.clear();
      if (strategy->calibrate) ln.f.clear();
    };
    steps.merge = [&](int l, std::size_t) {
      Lane& ln = lane[static_cast<std::size_t>(l)];
      if (!strategy->calibrate) observe_merge(ln);
      for (std::size_t k = 0; k < act.size(); ++k)
        if (ln.act_have[k]) {
          act_acc[k].merge(ln.act_sums[k]);
          act_measured[k] = 1;
        }
      for (std::size_t o = 0; o < fg.outputs.size(); ++o)
        if (ln.out_have[o]) {
          out_acc[o].merge(ln.out_sums[o]);
          agree[o] += ln.agree[o];
        }
    };
    steps.finish = [&](int l, std::size_t) {
      Lane& ln = lane[static_cast<std::size_t>(l)];
      if (!strategy->calibrate) observe_finish(ln);
      ln.f.clear();
    };
    detail::run_in_lanes(samples.size(), lanes, steps, stage("report"));
    if (!strategy->calibrate) absorb_lanes();
  }
  for (std::size_t k = 0; k < act.size(); ++k)
    if (act_measured[k]) tensor_acc[act[k]] = act_acc[k];
  report.measured_samples = static_cast<int>(samples.size());
  report.data_source = options.data_source;
  // A figure that was not measured is never reported as one.
  const double not_measured = std::numeric_limits<double>::quiet_NaN();

  // Tensors
  for (const auto& t : act) {
    TensorReport r;
    r.tensor = t;
    const auto p = uses.producer(t);
    r.producer = p >= 0 ? op_label(fg.ops[static_cast<std::size_t>(p)], static_cast<std::size_t>(p)) : "";
    if (auto it = plan.params.find(t); it != plan.params.end()) r.params = it->second;
    const auto [lo, hi] = represented_range(r.params);
    r.range_min = lo;
    r.range_max = hi;
    if (auto it = observers.find(t); it != observers.end() && !it->second.empty()) {
      const CalibrationObserver& ob = it->second;
      r.float_min = ob.min();
      r.float_max = ob.max();
      auto ref = reference_of.find(t);
      const CalibrationObserver& clip_ob = ref == reference_of.end() ? ob : observers.at(ref->second);
      // Values within half a step of the ends round to them: not clipped.
      const float half = 0.5f * r.params.scales.at(0);
      r.clip_fraction = clip_ob.clip_fraction(lo - half, hi + half);
      r.hist_min = ob.min();
      r.hist_max = ob.max();
      r.histogram = ob.histogram(ob.min(), ob.max(), 64);
    }
    const auto acc = tensor_acc.find(t);
    r.sqnr_db = acc != tensor_acc.end() ? acc->second.db() : not_measured;
    report.tensors.push_back(std::move(r));
  }
  // Layers
  for (const auto& [i, l] : plan.layers) {
    const ir::Operation& op = fg.ops[i];
    LayerReport r;
    r.op = op_label(op, i);
    r.op_type = op.op_type;
    r.weight = op.inputs[1];
    r.per_channel = l.weights.params.scales.size() > 1;
    r.channel_sqnr_db = l.weights.channel_sqnr_db;
    r.channel_max_abs_error = l.weights.channel_max_abs_error;
    r.weight_sqnr_db = l.weights.sqnr_db;
    r.weight_params = l.weights.params;
    r.hybrid = plan.hybrid_ops.count(i) > 0;
    const auto acc = tensor_acc.find(op.outputs[0]);
    r.output_sqnr_db = acc != tensor_acc.end() ? acc->second.db() : not_measured;
    report.layers.push_back(std::move(r));
  }
  for (std::size_t i = 0; i < fg.ops.size(); ++i) {
    const auto it = plan.float_reasons.find(op_label(fg.ops[i], i));
    if (it != plan.float_reasons.end()) report.float_ops.push_back({it->first, fg.ops[i].op_type, it->second});
  }
  for (std::size_t o = 0; o < fg.outputs.size(); ++o) {
    ModelReport m;
    m.output = fg.outputs[o];
    if (!samples.empty()) {
      m.sqnr_db = out_acc[o].db();
      m.max_abs_error = out_acc[o].max_abs_error;
      m.top1_agreement = static_cast<double>(agree[o]) / static_cast<double>(samples.size());
    }
    report.outputs.push_back(m);
  }

  // --- sensitivity: each layer kept in float alone, on a few samples
  if (options.sensitivity && !samples.empty() && !plan.layers.empty()) {
    const std::size_t n = std::min<std::size_t>(samples.size(), 8);
    std::vector<std::map<std::string, runtime::Tensor>> reference(n);  // float outputs, computed once
    for (std::size_t s = 0; s < n; ++s) {
      const auto f = float_runner(0).run(samples[s]);
      for (const auto& o : fg.outputs) reference[s].emplace(o, f.at(o));
    }
    auto output_sqnr = [&](const ir::Graph& graph) {
      ExposedRunner r(graph, {}, options.threads);
      std::vector<SqnrAccumulator> acc(fg.outputs.size());
      for (std::size_t s = 0; s < n; ++s) {
        const auto& f = reference[s];
        const auto q = r.run(samples[s]);
        for (std::size_t o = 0; o < fg.outputs.size(); ++o)
          acc[o].add(floats(f.at(fg.outputs[o])), floats(q.at(fg.outputs[o])));
      }
      double sum = 0;
      for (const auto& a : acc) sum += a.db();
      return acc.empty() ? 0.0 : sum / static_cast<double>(acc.size());
    };
    // Each variant is the int8 graph with one more op kept in float.
    auto variant = [&](std::optional<std::size_t> keep) {
      if (!keep) return detail::build_int8_graph(plan, false);
      Plan p = plan;
      p.int8_ops.erase(*keep);
      p.hybrid_ops.erase(*keep);
      p.layers.erase(*keep);
      return detail::build_int8_graph(p, false);
    };
    const double base = output_sqnr(variant(std::nullopt));
    int done = 0;
    const int total = static_cast<int>(plan.layers.size());
    for (auto& lr : report.layers) {
      check_progress(progress, "sensitivity", done++, total);
      std::size_t idx = 0;
      for (const auto& [i, l] : plan.layers)
        if (op_label(fg.ops[i], i) == lr.op) idx = i;
      lr.sensitivity_gain_db = output_sqnr(variant(idx)) - base;
    }
    check_progress(progress, "sensitivity", total, total);
  }
  return result;
}

}  // namespace ec::quantize
