// The Metal backend: compiles an IR graph to a Core ML ML Program package
// (.mlpackage) for Apple silicon, and predicts op by op whether Core ML runs
// it on the Neural Engine, the GPU or the CPU, and why (compute_units.cpp).
// See README.md (what it targets, op coverage, rules and sources, known issues).
#pragma once

#include <memory>
#include <string>

#include "core/backends/backend.h"
#include "core/backends/metal/compute_units.h"
#include "core/backends/metal/lower.h"

namespace ec::backends::metal {

/// The options of one compile, parsed from CompileConfig::options
/// (precision fp16|fp32, compute_units, deployment_target, weights none|int8).
struct MetalOptions {
  bool fp16 = true;
  AllowedUnits units = AllowedUnits::All;
  const DeploymentTarget* target = nullptr;
  bool weights_int8 = false;
  /// Throws EdgeCompilerError (Usage) naming the option and the valid values.
  static MetalOptions from(const CompileConfig& c);
  LowerOptions lower() const { return {fp16, target, weights_int8}; }
};

class MetalBackend final : public Backend {
 public:
  MetalBackend();  // registers the built-in overrides
  std::string name() const override { return "metal"; }
  Availability is_available() const noexcept override;
  Capabilities capabilities() const override;
  OpSupport supports_op(const ir::Graph& graph, std::size_t index) const override;
  /// Batch 1 (pin_batch), then the passes that leave the shapes static and the
  /// ops in the forms the lowering maps: Cleanup, ConstantFolding, CSE,
  /// FuseLayerNorm, DeadCodeElimination; shapes inferred.
  void legalise(ir::Graph& graph) const override;
  Partition partition(const ir::Graph& graph, const CompileConfig& config = {}) const override;
  /// Writes config.output_path (.mlpackage) when given. An op with no MIL form
  /// that no override replaces refuses the compile (UnsupportedOpError naming it).
  CompileResult compile(const ir::Graph& graph, const CompileConfig& config) override;
  PerfEstimate estimate_performance(const ir::Graph& graph) const override;
  /// One virtual Apple Neural Engine per row of virtual_ane_devices(): "ane-virtual-m1", ...
  std::vector<devices::HardwareDevice> virtual_devices() const override;
  PerfEstimate estimate_for_device(const ir::Graph& graph, const std::string& device_id) const override;
  PerfEstimate estimate_performance(const ir::Graph& graph, const Partition& p, const AneDevice& device) const;
  /// The compute units predicted per op: Neural Engine, GPU, CPU.
  ResultText describe(const CompileResult& result) const override;
};

/// Registers HardSwish -> x * sigmoid_hard(x, 1/6, 1/2) (HardSigmoid in the IR).
void register_builtin_overrides(Backend& backend);

std::unique_ptr<Backend> make_metal_backend();

}  // namespace ec::backends::metal

namespace ec::backends {
using metal::make_metal_backend;
/// This folder's row of the backend table.
BackendEntry metal_backend_entry();
}
