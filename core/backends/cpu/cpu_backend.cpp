#include "core/backends/cpu/cpu_backend.h"

#include <chrono>

#include "core/backends/units.h"
#include "core/ir/op_cost.h"
#include "core/runtime/kernel_registry.h"
#include "core/runtime/quantized/int8_kernels.h"

namespace ec::backends {

std::unique_ptr<Backend> make_cpu_backend() { return std::make_unique<CpuBackend>(); }

BackendEntry cpu_backend_entry() {
  return {"cpu", "Host CPU (reference): every op on the CPU runtime", &make_cpu_backend, /*reference=*/true};
}

// MobileNet v1 (569 M MACs) takes 53 ms on the desktop CPU of coral.ai's benchmark
// table (the Edge TPU research notes §4): ~10.7 G MAC/s. Used for ops left on the CPU.
double host_cpu_macs_per_second() { return 569e6 / 53e-3; }

Capabilities CpuBackend::capabilities() const {
  Capabilities c;
  c.dtypes = {"f32", "i8", "u8", "i32", "i64"};
  return c;
}

OpSupport CpuBackend::supports_op(const ir::Graph& graph, std::size_t index) const {
  const auto& op = graph.ops.at(index);
  if (op.kind == ir::OpKind::Unknown)
    return {false, "Operation not supported", "the CPU runtime has no kernel for '" + op.op_type + "'", "cpu.kernel"};
  if (runtime::quantized::is_int8_op(op, graph) && !runtime::quantized::has_int8_kernel(op.kind) &&
      !runtime::find_kernel(op.kind))
    return {false, "Operation not supported", "no int8 or float kernel for " + op.op_type, "cpu.kernel"};
  if (!runtime::find_kernel(op.kind) && !runtime::quantized::has_int8_kernel(op.kind))
    return {false, "Operation not supported", "the CPU runtime has no kernel for " + op.op_type, "cpu.kernel"};
  return {true, "Runs on the CPU", "CPU runtime kernel", "cpu.kernel"};
}

Partition CpuBackend::partition(const ir::Graph& graph, const CompileConfig&) const {
  Partition p;
  p.backend = name();
  p.segments = graph.ops.empty() ? 0 : 1;
  for (const auto& unit : group_units(graph)) {
    const auto& op = graph.ops[unit.front()];
    PartitionRow r = row_for_unit(graph, unit);
    r.target_op = tflite_op_name(graph, op);
    const OpSupport s = supports_op(graph, unit.front());
    r.placement = s.supported ? Placement::Target : Placement::Cpu;
    r.cause = s.supported ? PlacementCause::Supported : PlacementCause::Unsupported;
    r.status = s.status;
    r.reason = s.reason;
    r.rule = s.rule;
    r.segment = s.supported ? 0 : -1;
    p.rows.push_back(std::move(r));
  }
  return p;
}

PerfEstimate CpuBackend::estimate_performance(const ir::Graph& graph) const {
  PerfEstimate e;
  for (const auto& op : graph.ops) e.cpu_macs += ir::estimate_cost(graph, op).macs;
  e.cpu_ms = static_cast<double>(e.cpu_macs) / host_cpu_macs_per_second() * 1e3;
  e.latency_ms = e.cpu_ms;
  e.model = "estimate: MACs / 10.7 GMAC/s (MobileNet v1 at 53 ms on the desktop CPU of Google's Edge TPU benchmark table)";
  return e;
}

CompileResult CpuBackend::compile(const ir::Graph& graph, const CompileConfig& config) {
  CompileResult res;
  res.backend = name();
  res.partition = partition(graph, config);
  for (const auto& r : res.partition.rows) {
    const auto t0 = std::chrono::steady_clock::now();
    res.timeline.push_back({r.name, "cpu_eager", r.placement == Placement::Target, r.reason, ms_since(t0)});
  }
  res.ops_on_target = res.partition.ops_on_target();
  res.ops_fallback = res.partition.ops_on_cpu();
  res.estimate = estimate_performance(graph);
  res.verified_by = "predicted";
  if (!config.output_path.empty())
    res.notes.push_back("the cpu backend writes no artefact: run the model itself with `edgecompile run`");
  return res;
}

}  // namespace ec::backends
