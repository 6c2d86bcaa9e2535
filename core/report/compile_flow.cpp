#include "core/report/compile_flow.h"

#include <algorithm>

#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"

namespace ec::report {

bool is_quantised(const ir::Graph& g) {
  for (const auto& op : g.ops)
    for (const auto& o : op.outputs)
      if (const auto* t = g.find_tensor(o); t && t->quant && (t->dtype == ir::DType::Int8 || t->dtype == ir::DType::UInt8))
        return true;
  return false;
}

std::string resolve_strategy(const CompileRequest& r, const ir::Graph& g, const backends::Backend& backend) {
  if (!r.quantize.empty()) return r.quantize;
  return !is_quantised(g) && backend.quant_constraints().requires_int8 ? "ptq" : "none";
}

CompileRun compile_model(const ir::Graph& graph, const CompileRequest& r, const quantize::ProgressFn& progress) {
  backends::AutoContext context;  // "auto" reaching here: no device decided it, the artefact may
  context.output_path = r.output_path;
  auto resolved = backends::resolve_backend(r.target, context);  // unknown target: one line listing the known ones
  backends::Backend& backend = *resolved.backend;
  const quantize::TargetConstraints constraints = backend.quant_constraints();
  const bool quantised = is_quantised(graph);

  CompileRun run;
  run.strategy = resolve_strategy(r, graph, backend);
  if (run.strategy != "none") {
    if (quantised)
      throw EdgeCompilerError(ErrorKind::Quantization,
                              r.model + " is already quantised; use --quantize none to keep its parameters");
    quantize::QuantizeOptions qo;
    qo.strategy = run.strategy;
    qo.calibration_percentile = r.calibration_percentile;
    qo.num_calibration_samples = r.num_calibration_samples;
    qo.data_source = r.data_source;
    qo.threads = r.threads;
    qo.pipeline = backend.pipeline();
    qo.target = constraints;
    run.graph = quantize::quantize(graph, r.samples, qo, progress).graph;
  } else if (!quantised && constraints.requires_int8) {
    throw EdgeCompilerError(ErrorKind::Quantization,
                            r.model + " is not quantised (float tensors) and --quantize none keeps it so; target " +
                                backend.name() + " needs 8-bit tensors: use --quantize " + constraints.strategies.front() +
                                " --calibration-data FILE.npy");
  } else if (!quantised) {
    // A float graph compiled as it is still gets the target's passes.
    run.graph = graph;
    passes::PassManagerOptions pmo;
    pmo.record_diffs = false;
    passes::make_pipeline(backend.pipeline(), pmo).run(run.graph);
  } else {
    run.graph = graph;  // quantised parameters are kept exactly as given
  }
  if (progress && !progress("partition", 0, 1)) throw EdgeCompilerError(ErrorKind::Usage, "cancelled");

  backends::CompileConfig cfg;
  cfg.output_path = r.output_path;
  cfg.num_segments = r.num_segments;
  cfg.options = r.options;
  auto result = backend.compile(run.graph, cfg);
  if (progress) progress("partition", 1, 1);
  run.report = make_compile_report(r.model, r.target, r.target_reason.empty() ? resolved.reason : r.target_reason,
                                   r.quantize_label.empty() ? run.strategy : r.quantize_label, std::move(result));
  return run;
}

std::optional<CompileReport> report_of_artefact(const ir::Graph& graph, const std::string& model) {
  for (const auto& entry : backends::backend_table()) {
    const auto backend = entry.factory();
    auto partition = backend->partition_of_artefact(graph);
    if (!partition) continue;
    backends::CompileResult result;
    result.backend = backend->name();
    result.ops_on_target = partition->ops_on_target();
    result.ops_fallback = partition->ops_on_cpu();
    result.partition = std::move(*partition);
    result.verified_by = "the compiled artefact itself";
    result.notes.push_back(model + " is a compiled " + result.backend +
                           " artefact: the split is the one its compiler recorded; CPU reasons are our rules'");
    const std::string target = result.backend;
    return make_compile_report(model, target, "read from the artefact", "none", std::move(result));
  }
  return std::nullopt;
}

}  // namespace ec::report
