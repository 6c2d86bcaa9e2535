// Internal to core/quantize: the stages of quantize() (quantizer.cpp) and the
// context they pass along. Each stage reads what the stages before it left in
// the QuantContext and adds its own part; the order is quantize()'s:
//
//   check_options      the options against the strategy table and the target
//   prepare            the float graph analysed: QDQ pairs out (qat), the pass
//                      pipeline, non-clamp fused activations split off
//   choose_ops         which ops run in int8 (or hybrid) and why the others stay
//                      float; weights quantised; the int8 kernels probed
//   observe            lanes set up; calibration runs observe the activations (ptq)
//   choose_parameters  activation ranges -> params, int32 biases that do not fit demoted
//   verify_parameters  scales finite and > 0, zero points in int8; range warnings
//   rewrite            the int8 graph built from the plan, validated
//   verify_graph       the int8 graph loaded on the CPU runtime (refused = a bug)
//   report             float and int8 graphs run on the samples: the QuantReport
//   sensitivity        each layer kept in float alone (--sensitivity)
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/algorithms.h"
#include "core/ir/graph.h"
#include "core/quantize/observer.h"
#include "core/quantize/quant_plan.h"
#include "core/quantize/quantizer.h"
#include "core/quantize/strategy.h"
#include "core/runtime/quantized/int8_kernels.h"
#include "core/session/session.h"

namespace ec::quantize::detail {

/// Activation ranges by tensor name: [min, max] of the values params must cover.
using Ranges = std::map<std::string, std::pair<float, float>>;

/// Runs a graph with extra tensors exposed as outputs (calibration, report).
class ExposedRunner {
 public:
  ExposedRunner(const ir::Graph& g, const std::vector<std::string>& expose, int threads);
  std::map<std::string, runtime::Tensor> run(const Sample& s) const;

 private:
  std::unique_ptr<runtime::InferenceSession> session_;
};

/// One lane's sessions (each prepared once) and the sample it works on (sample_lanes.h).
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

/// What the stages pass along. Filled in stage order; a member says which stage sets it.
struct QuantContext {
  QuantContext(const ir::Graph& float_graph, const QuantizeOptions& options, const ProgressFn& progress)
      : float_graph(float_graph), options(options), progress(progress) {}

  // --- given
  const ir::Graph& float_graph;
  const QuantizeOptions& options;
  const ProgressFn& progress;

  // --- check_options
  const StrategyRow* strategy = nullptr;
  bool per_channel = true;        // the options' and the target's
  std::vector<Sample> samples;    // at most num_calibration_samples
  int threads = 1;                // CPU threads (options.threads, 0 = every core)

  // --- prepare
  Plan plan;                                    // plan.graph: the analysed float graph
  std::map<std::string, ir::QuantParams> given; // qat: params of the model's QDQ pairs
  std::optional<ir::UseLists> uses;             // of plan.graph

  // --- choose_ops (plan.int8_ops, hybrid_ops, float_reasons)
  std::map<std::size_t, QuantizedWeights> quantized_weights;  // by op, quantised once

  // --- observe
  std::vector<std::string> act;  // activation tensors that need params, producers' order
  std::map<std::string, CalibrationObserver> observers;
  std::vector<Lane> lanes;
  int lane_threads = 1;

  // --- choose_parameters (plan.params, plan.layers)
  Ranges range;
  /// A tensor whose range was narrowed to a following Relu/Clip's is, in the int8
  /// graph, that activation's output: the report compares it with that.
  std::map<std::string, std::string> reference_of;

  // --- rewrite, verify_graph
  ir::Graph exec;                    // the graph the report runs (Q/DQ at the edges)
  std::vector<std::string> q_names;  // int8 names of `act`

  QuantizeResult result;  // graph from rewrite, report from every stage

  const ir::Graph& fg() const { return plan.graph; }
};

// --- the stages, in order
void check_options(QuantContext& c, const std::vector<Sample>& samples);
void prepare(QuantContext& c);
void choose_ops(QuantContext& c);
void observe(QuantContext& c);
void choose_parameters(QuantContext& c);
void verify_parameters(QuantContext& c);
void rewrite(QuantContext& c);
void verify_graph(QuantContext& c);
void report(QuantContext& c);
void sensitivity(QuantContext& c);

// --- shared by the stages
std::string op_label(const ir::Operation& op, std::size_t i);
/// An op matches --keep-float by name, by type, or by the activation fused into it
/// (--keep-float Sigmoid keeps a Conv with fused_activation SIGMOID in float).
bool matches_keep_float(const ir::Operation& op, const std::vector<std::string>& keep);
/// The runtime's int8 kernel row of kind `k` (one that prepares), or nullptr.
const runtime::quantized::Int8KernelEntry* int8_op(ir::OpKind k);
std::span<const float> floats(const runtime::Tensor& t);
void check_progress(const ProgressFn& progress, const std::string& stage, int done, int total);

/// Activation tensors that need params: data inputs and outputs of int8 ops,
/// in graph order of producers (graph inputs first).
std::vector<std::string> activation_tensors(const QuantContext& c);
/// plan.params from the activation ranges `observed` and the model's own params (qat),
/// in graph order; an op a tensor lacks a range for (qat) is demoted to float.
void propagate_scales(QuantContext& c, const Ranges& observed);
/// Op i's weights quantised (qat: at the model's own params when it gives them).
QuantizedWeights quantize_op_weights(const QuantContext& c, std::size_t i);
/// plan.layers: each int8 or hybrid op's quantised weights and int32 bias.
void plan_weights(QuantContext& c);

/// The lane's float / int8 runner, prepared on first use.
const ExposedRunner& float_runner(QuantContext& c, int lane);
const ExposedRunner& q_runner(QuantContext& c, int lane);
/// Observation split over the steps of run_in_lanes (observe.cpp says how).
void observe_work(QuantContext& c, Lane& ln);
void observe_merge(QuantContext& c, Lane& ln);
void observe_finish(QuantContext& c, Lane& ln);
void absorb_lanes(QuantContext& c);
/// run_in_lanes' progress callback for stage `name` over the samples.
std::function<bool(int)> stage_progress(const QuantContext& c, const std::string& name);

}  // namespace ec::quantize::detail
