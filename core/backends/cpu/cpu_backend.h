// The cpu backend: the reference every other backend is compared with. Every op
// runs on the host CPU runtime (core/runtime); there is no artefact to write.
#pragma once

#include <memory>

#include "core/backends/backend.h"

namespace ec::backends {

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }
  Availability is_available() const noexcept override { return {true, "the host CPU is always there"}; }
  Capabilities capabilities() const override;
  OpSupport supports_op(const ir::Graph& graph, std::size_t index) const override;
  Partition partition(const ir::Graph& graph, const CompileConfig& config = {}) const override;
  CompileResult compile(const ir::Graph& graph, const CompileConfig& config) override;
  PerfEstimate estimate_performance(const ir::Graph& graph) const override;
};

std::unique_ptr<Backend> make_cpu_backend();
/// This folder's row of the backend table (the reference).
BackendEntry cpu_backend_entry();

/// Host CPU throughput assumed by estimates (MACs per second), with its source.
double host_cpu_macs_per_second();

}  // namespace ec::backends
