// Stages check_options and prepare (stages.h): the options checked, the float
// graph analysed.
#include <algorithm>
#include <thread>

#include "core/errors.h"
#include "core/ir/activation.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/stages/stages.h"

namespace ec::quantize::detail {
namespace {

// "HARD_SWISH", "HardSwish" -> "hardswish": an op type and a fused activation's name compare equal.
std::string folded(std::string_view s) {
  std::string r;
  for (char c : s)
    if (c != '_') r += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return r;
}

// An activation fused into an op that the int8 kernels cannot apply (they apply clamps:
// RELU, RELU6, RELU_N1_TO_1) becomes its own op again, so the op and the activation each
// run in int8 (a squeeze-excite Conv with a fused SIGMOID otherwise stays float whole, and
// with it every op around it). Not for an op --keep-float names by that activation.
void unfuse_non_clamp_activations(ir::Graph& g, const std::vector<std::string>& keep) {
  for (std::size_t i = 0; i < g.ops.size(); ++i) {
    const ir::Activation act = ir::fused_activation(g.ops[i]);
    const ir::OpKind kind = act == ir::Activation::Sigmoid ? ir::OpKind::Sigmoid
                            : act == ir::Activation::Tanh  ? ir::OpKind::Tanh
                                                           : ir::OpKind::Unknown;
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
    ir::clear_fused_activation(g.ops[i]);
    g.ops.insert(g.ops.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(a));
  }
}

}  // namespace

bool matches_keep_float(const ir::Operation& op, const std::vector<std::string>& keep) {
  const ir::Activation act = ir::fused_activation(op);
  const std::string fused = folded(ir::activation_name(act));
  for (const auto& k : keep)
    if (k == op.name || k == op.op_type || (act != ir::Activation::None && folded(k) == fused)) return true;
  return false;
}

void check_options(QuantContext& c, const std::vector<Sample>& samples_in) {
  const QuantizeOptions& options = c.options;
  c.strategy = find_strategy(options.strategy);
  if (!c.strategy) {
    std::string names;
    for (const auto& r : strategy_rows()) names += (names.empty() ? "" : ", ") + std::string(r.name);
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
  c.per_channel = options.per_channel && target.per_channel;
  if (!(options.calibration_percentile > 0 && options.calibration_percentile <= 100))
    throw EdgeCompilerError(ErrorKind::Usage, "--calibration-percentile must be in (0, 100], got " +
                                                  std::to_string(options.calibration_percentile));
  for (const auto& k : options.keep_float) {
    bool found = false;
    for (const auto& op : c.float_graph.ops) found |= op.name == k || op.op_type == k;
    if (!found)
      throw EdgeCompilerError(ErrorKind::Usage, "--keep-float: the model has no op named or of type '" + k +
                                                    "'; see `edgecompile inspect --dump` for op names");
  }
  c.samples = samples_in;
  if (options.num_calibration_samples > 0 && static_cast<int>(c.samples.size()) > options.num_calibration_samples)
    c.samples.resize(static_cast<std::size_t>(options.num_calibration_samples));
  if (c.strategy->calibrate && c.samples.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "--strategy ptq needs calibration samples (--calibration-data)");
  c.threads = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

  QuantReport& report = c.result.report;
  report.strategy = std::string(c.strategy->name);
  report.per_channel = c.per_channel;
  report.calibration_samples = c.strategy->calibrate ? static_cast<int>(c.samples.size()) : 0;
  report.calibration_percentile = options.calibration_percentile;
}

// QDQ pairs out (qat), then the float pipeline (BatchNorm folded into Conv first).
void prepare(QuantContext& c) {
  c.plan.strategy = c.result.report.strategy;
  ir::Graph g = c.float_graph;
  if (c.strategy->qdq_params) {
    c.given = strip_qdq_pairs(g);
    if (c.given.empty())
      throw EdgeCompilerError(ErrorKind::Quantization,
                              "the model has no QuantizeLinear/DequantizeLinear pairs; --strategy qat needs a model exported "
                              "after quantisation-aware training (use --strategy ptq with --calibration-data otherwise)");
  }
  {
    passes::PassManagerOptions pmo;
    pmo.record_diffs = false;
    passes::PassManager pm =
        passes::make_pipeline(c.options.pipeline.empty() ? passes::default_pipeline() : c.options.pipeline, pmo);
    pm.run(g);
  }
  unfuse_non_clamp_activations(g, c.options.keep_float);
  c.plan.graph = std::move(g);
  c.uses.emplace(c.plan.graph);
}

}  // namespace ec::quantize::detail
