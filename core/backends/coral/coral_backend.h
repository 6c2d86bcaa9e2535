// The Coral Edge TPU backend: predicts, op by op, what Google's edgetpu_compiler
// maps to the Edge TPU and what it leaves on the CPU, with the compiler's own
// status strings and our specific reason; tries registered overrides before
// falling back; estimates latency and on-chip memory for a virtual Edge TPU.
// See README.md (op coverage, rules and their sources, known issues).
#pragma once

#include <memory>
#include <span>
#include <string>

#include "core/backends/backend.h"
#include "core/backends/tflite/tflite_writer.h"

namespace ec::backends::coral {

class CoralBackend final : public Backend {
 public:
  CoralBackend();  // registers the built-in overrides (overrides.cpp)
  std::string name() const override { return "coral"; }
  /// Compiling for the Edge TPU needs no device; says whether edgetpu_compiler
  /// is on PATH (then compile() verifies with it) and whether the writer exists.
  Availability is_available() const noexcept override;
  Capabilities capabilities() const override;
  /// A compiled .tflite on the first Edge TPU (coral_target.h).
  std::unique_ptr<runtime::targets::TargetSession> open_session(const std::string& artefact, ir::FrozenGraph graph,
                                                                int threads) const override;
  OpSupport supports_op(const ir::Graph& graph, std::size_t index) const override;
  /// The Edge TPU runs batch 1 with static sizes: a dynamic leading dim of a graph
  /// input (e.g. "batch") becomes 1 wherever that named dim appears.
  /// A graph not read from .tflite is also brought to TFLite's form (NHWC, fused
  /// activations; core/backends/tflite prepare_for_tflite), so the graph partitioned
  /// is the graph written.
  /// The CPU pipeline without FuseLayerNorm: the Edge TPU has no layer-norm op,
  /// while MEAN, SUB, MUL and ADD of the decomposed form can map.
  std::vector<std::string> pipeline() const override;
  /// ptq or qat only (dynamic keeps activations float); per-channel int8 weights.
  quantize::TargetConstraints quant_constraints() const override;
  /// An *_edgetpu.tflite: each edgetpu-custom-op is one Edge TPU segment (its ops
  /// were mapped), every other op was left on the CPU; our rules give the reason.
  std::optional<Partition> partition_of_artefact(const ir::Graph& graph) const override;
  void legalise(ir::Graph& graph) const override;
  Partition partition(const ir::Graph& graph, const CompileConfig& config = {}) const override;
  CompileResult compile(const ir::Graph& graph, const CompileConfig& config) override;
  PerfEstimate estimate_performance(const ir::Graph& graph) const override;
  /// With edgetpu_compiler on PATH: runs it on the written .tflite, parses its log,
  /// sets verified_by = "edgetpu_compiler VERSION" and notes every (op, status) count
  /// where prediction and compiler disagree. A failure is a timeline entry, not an abort.
  void verify_with_compiler(CompileResult& result) const;
  /// Makes the result's partition (rows, counts, status table) the written file's:
  /// reads `result.output_path` back and partitions it by the same rules (what
  /// edgetpu_compiler reads), rows named as the IR unit that wrote the same tensor.
  /// `graph` is the graph the IR rows index; sets `counted_in`.
  void recount_from_file(CompileResult& result, const ir::Graph& graph, const CompileConfig& config) const;
  /// The estimate for a given partition (ops on the CPU timed on the host), over a link
  /// of edgetpu_links() ("usb" by default).
  PerfEstimate estimate_performance(const ir::Graph& graph, const Partition& p, const std::string& link = "usb") const;
  /// A virtual Edge TPU per link: coral-virtual-usb, coral-virtual-pcie.
  std::vector<devices::HardwareDevice> virtual_devices() const override;
  /// Coral USB Accelerators through libusb (coral_usb.h) and PCIe/M.2 cards through
  /// /dev/apex_* and sysfs (coral_pcie.h); each availability names libedgetpu when it
  /// does not load (coral_discovery.cpp).
  Discovered discover(const DiscoveryContext& context) const noexcept override;
  /// edgetpu_compiler's summary: on-chip / off-chip parameter memory, Edge TPU
  /// subgraphs, operations on the Edge TPU and on the CPU.
  ResultText describe(const CompileResult& result) const override;
  PerfEstimate estimate_for_device(const ir::Graph& graph, const std::string& device_id) const override;
};

/// How an Edge TPU is attached: the bandwidth parameters stream over (perf_model.cpp).
struct EdgeTpuLink {
  const char* id;             // "usb", "pcie"
  const char* name;           // "USB 3 (USB Accelerator)"
  double bytes_per_second;    // effective host <-> Edge TPU bandwidth
};
/// ONE table of links the perf model knows.
std::span<const EdgeTpuLink> edgetpu_links();

/// Registers HARD_SWISH -> x * relu6(x + 3) / 6 and LEAKY_RELU -> max(x, alpha * x).
void register_builtin_overrides(Backend& backend);

/// Replaces graph.ops[index] by `o`'s rewrite on a copy and checks on the CPU
/// runtime that its int8 outputs stay within 1 LSB of the original op's on
/// random data (every int8 value of the input, then random tensors). Returns
/// the rewritten graph; throws (with the reason) when the rewrite or the check fails.
ir::Graph apply_checked_override(const ir::Graph& graph, std::size_t index, const Override& o, int* max_lsb = nullptr);

/// The TFLite writer's options for the Edge TPU (NHWC input).
tflite::TfliteWriteOptions edgetpu_write_options();
/// Writes the .tflite artefact. Throws BackendError when it cannot.
void write_edgetpu_tflite(const ir::Graph& graph, const Partition& p, const std::string& path);
/// False when this build has no .tflite writer (issue 14); `why` says so.
bool tflite_writer_available(std::string* why = nullptr);

std::unique_ptr<Backend> make_coral_backend();

}  // namespace ec::backends::coral

namespace ec::backends {
using coral::make_coral_backend;
/// This folder's row of the backend table.
BackendEntry coral_backend_entry();
}
