// The backend contract (the design notes, "Backend"): a backend takes an IR
// graph (usually quantised by core/quantize, or read from a .tflite) and says
// op by op what runs on its target and what falls back to the host CPU, and why.
//
// Every placement decision lives in a side table (Partition) keyed by op index
// and name; nothing is written into the IR. compile() partitions, records every
// attempt of every unit in the backend timeline, and only at its end calls a
// writer to produce the artefact.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backends/hardware_device.h"
#include "core/ir/graph.h"
#include "core/message.h"
#include "core/quantize/quantizer.h"
#include "core/session/target_session.h"

namespace ec::backends {

/// Answer of Backend::supports_op for one op in its graph.
struct OpSupport {
  bool supported = false;
  std::string status;  // the target compiler's own status string ("Mapped to Edge TPU", ...)
  std::string reason;  // our specific reason: which rule, attribute, shape or dtype failed, and the fix
  std::string rule;    // id of the rule that decided (a row of the backend's rule table), or ""
};

enum class Placement : std::uint8_t { Target, Cpu };

/// Why an op is where it is.
enum class PlacementCause : std::uint8_t {
  Supported,         // mapped to the target
  Unsupported,       // the op itself breaks a rule
  AfterUnsupported,  // supported, but placed after an unsupported op (segment limit)
  LeadingQuantize,   // float->int8 QUANTIZE at the input: stays on the CPU without splitting the model
  Override,          // replaced by a registered rewrite that maps
};
const char* placement_cause_name(PlacementCause c);

/// One row of the side table: one unit (a model op; a fused activation the
/// reader split off belongs to its producer's unit).
struct PartitionRow {
  std::size_t op_index = 0;            // index in graph.ops of the unit's main op
  std::vector<std::size_t> members;    // every graph.ops index in this unit (main op first)
  std::string name;                    // op name
  std::string op_type;                 // IR op type
  std::string target_op;               // the op as the target format names it (CONV_2D, ...)
  Placement placement = Placement::Cpu;
  PlacementCause cause = PlacementCause::Unsupported;
  std::string status;                  // compiler status string
  std::string reason;                  // our reason
  Message reason_message;              // the reason as a message id with arguments (translated by the workbench)
  std::string rule;                    // rule id that decided
  int segment = -1;                    // target segment index, -1 on the CPU
  std::string blocked_by;              // AfterUnsupported: the unsupported op it follows
  std::string override_name;           // Override: the rewrite used
  std::string unit;                    // compute unit on a target with several ("ANE", "GPU", "CPU"; metal), else ""
};

/// A row for `unit` (graph.ops indices, main op first): index, members, name and type set.
PartitionRow row_for_unit(const ir::Graph& graph, const std::vector<std::size_t>& unit);

struct Partition {
  std::string backend;
  std::vector<PartitionRow> rows;  // in graph order
  int segments = 0;                // target segments
  int ops_on_target() const;
  int ops_on_cpu() const;
  const PartitionRow* find(const std::string& op_name) const;
};

/// One attempt at placing a unit (DESIGN.md "Fallback timeline").
struct TimelineEntry {
  std::string unit;   // op name
  std::string stage;  // "target_compile", "override", "cpu_eager"
  bool ok = false;
  std::string reason; // exception text when it failed, else what happened
  double duration_ms = 0;
};

/// What a backend offers.
struct Capabilities {
  std::vector<std::string> dtypes;   // tensor dtypes it maps ("i8", "u8", ...)
  std::vector<std::string> options;  // compile options it honours
  bool compiles = false;             // writes an artefact (false: reference/estimate only)
  std::string artefact;              // ".tflite", ...
  bool runs_artefacts = false;       // opens its artefact on an attached device (open_session)
  /// What a person calls one of its attached devices ("Coral device"; the reasons
  /// "auto" gives: "no Coral device attached"); "" when it discovers none.
  std::string device_noun;
  /// What its artefact is, for messages ("a TensorFlow Lite file"); "" when it writes none.
  std::string artefact_kind;
  /// What a picture of the partition calls an op placed on the target ("TPU"); "" = the name.
  std::string target_label;
  /// The --quantize values it takes when it restricts them (metal: none, weights-int8,
  /// ptq); empty = every strategy, and none. `quantize_note` says why, for the error.
  std::vector<std::string> quantize;
  std::string quantize_note;
  /// Its own --quantize modes that are no quantiser strategy (metal: weights-int8): the
  /// quantiser does not run, and compile() gets the mode as CompileConfig::options["quantize"].
  std::vector<std::string> quantize_modes;
  /// A float model is compiled as it is unless --quantize asks (metal: Core ML float);
  /// false: the faces quantise a float model post-training by default.
  bool float_by_default = false;
};

/// The lines of the text report (`edgecompile compile`) about one result, in the
/// target's own words (Backend::describe).
struct ResultText {
  std::vector<std::string> memory;     // after the output model: memory used, segments ("Number of Edge TPU subgraphs: 1")
  std::vector<std::string> placement;  // where the ops run ("Number of operations that will run on Edge TPU: 12")
};

/// Where discover() looks: the roots are parameters so tests run on a recorded tree.
struct DiscoveryContext {
  std::string dev_root = "/dev";
  std::string sys_root = "/sys";
};

/// What one backend's discover() found.
struct Discovered {
  std::vector<devices::HardwareDevice> devices;  // physical, each with metadata "Backend" = the backend's name
  std::vector<std::string> notes;                // what it looked for and did not find ("no Coral found (3 USB devices seen)")
};

struct CompileConfig {
  std::string output_path;  // where the artefact goes ("" = no artefact: partition + estimate only)
  int num_segments = 1;     // target segments allowed (Edge TPU: 1 = the compiler's default)
  /// Backend-specific options by name (metal: precision, compute_units, deployment_target, weights).
  std::map<std::string, std::string> options;
};

/// An estimate of one inference; works with no hardware attached. Every figure is an estimate.
struct PerfEstimate {
  double latency_ms = 0;            // total
  double target_ms = 0;             // on the accelerator
  double cpu_ms = 0;                // ops left on the host CPU
  double transfer_ms = 0;           // parameters streamed + activations in/out
  std::int64_t on_chip_parameter_bytes = 0;   // parameters cached in on-chip memory
  std::int64_t on_chip_remaining_bytes = 0;
  std::int64_t off_chip_parameter_bytes = 0;  // parameters streamed per inference
  std::int64_t target_macs = 0, cpu_macs = 0;
  std::string model;                // how it was estimated, with its sources
};

struct CompileResult {
  std::string output_path;  // "" when nothing was written
  int ops_on_target = 0;
  int ops_fallback = 0;
  std::string backend;
  Partition partition;
  std::vector<TimelineEntry> timeline;
  PerfEstimate estimate;
  std::vector<std::string> notes;   // e.g. why no artefact was written
  std::string verified_by;          // "predicted", or "edgetpu_compiler VERSION"
  /// What the partition's rows and counts are: "the written file's operators
  /// (PATH: N)" when the backend read its artefact back, else "" (the report then
  /// says they are the graph's ops).
  std::string counted_in;
};

/// A hand-written rewrite of one unsupported op into ops the target supports.
/// `rewrite` replaces graph.ops[index] in place by its expansion (it may add
/// tensors); it throws when it cannot (the reason goes to the timeline).
struct Override {
  std::string name;     // "hard_swish_as_relu6", ...
  std::string summary;  // "HARD_SWISH as x * relu6(x + 3) / 6"
  std::function<void(ir::Graph& graph, std::size_t index)> rewrite;
  /// The check's bound: the rewritten int8 result at most this many LSB from the op's.
  int max_lsb = 1;
  /// Data movement only (the same arithmetic per output): exact by construction, not checked numerically.
  bool exact = false;
};

/// Availability: never throws.
struct Availability {
  bool available = false;
  std::string reason;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  /// Never throws: false with a reason (missing compiler, no device...).
  virtual Availability is_available() const noexcept = 0;
  virtual Capabilities capabilities() const = 0;
  /// Whether `graph.ops[index]` maps to the target on its own (no segment rule).
  virtual OpSupport supports_op(const ir::Graph& graph, std::size_t index) const = 0;
  /// The passes run on a float graph before quantisation and partitioning, in
  /// order (pass registry names). Default: passes::default_pipeline(), the CPU's.
  virtual std::vector<std::string> pipeline() const;
  /// What the quantiser must honour for this target (default: nothing).
  virtual quantize::TargetConstraints quant_constraints() const { return {}; }
  /// When `graph` is an artefact of this target opened as a model (an
  /// *_edgetpu.tflite, say), the split the artefact itself records, each op on
  /// the CPU with our reason; else nullopt (the default).
  virtual std::optional<Partition> partition_of_artefact(const ir::Graph& graph) const {
    (void)graph;
    return std::nullopt;
  }
  /// Rewrites the graph into the form the target takes (optional: default none).
  virtual void legalise(ir::Graph& graph) const { (void)graph; }
  /// Which ops run on the target, which on the CPU, and why.
  virtual Partition partition(const ir::Graph& graph, const CompileConfig& config = {}) const = 0;
  /// Partition, try overrides, record the timeline, estimate, write the artefact.
  /// A failure in one unit falls back; it never aborts the compile. Throws
  /// BackendError only when the artefact itself cannot be produced.
  virtual CompileResult compile(const ir::Graph& graph, const CompileConfig& config) = 0;
  /// Works with no hardware attached.
  virtual PerfEstimate estimate_performance(const ir::Graph& graph) const = 0;
  /// Virtual devices this backend offers for off-target compilation and estimates
  /// (DiscoveredBy "backend NAME", IsVirtual; core/devices lists them). (optional)
  virtual std::vector<devices::HardwareDevice> virtual_devices() const { return {}; }
  /// The target's devices attached to this machine (USB, PCIe, ...), each with metadata
  /// "Backend" = name() (what bench --device and "auto" run it with), and notes on what
  /// was looked for and not found. Never throws: a probe that fails says why in a note.
  /// (optional: default none)
  virtual Discovered discover(const DiscoveryContext& context) const noexcept {
    (void)context;
    return {};
  }
  /// Opens `artefact` (a file compile() wrote; `graph` as the frontends read it) on an
  /// attached device, `threads` for the ops it runs on the host (optional: backends whose
  /// capabilities().runs_artefacts is false throw BackendError).
  virtual std::unique_ptr<runtime::targets::TargetSession> open_session(const std::string& artefact,
                                                                        ir::FrozenGraph graph, int threads) const;
  /// The text report's lines about `result` (optional: default "Number of operations
  /// that will run on NAME: N").
  virtual ResultText describe(const CompileResult& result) const;
  /// The estimate for one of virtual_devices() (by id). (optional: default estimate_performance)
  virtual PerfEstimate estimate_for_device(const ir::Graph& graph, const std::string& device_id) const {
    (void)device_id;
    return estimate_performance(graph);
  }
  /// Registers a rewrite for ops of `unit_kind` (IR op type, e.g. "HardSwish"). (optional)
  virtual void register_override(const std::string& unit_kind, Override rewrite) {
    overrides_[unit_kind].push_back(std::move(rewrite));
  }
  const std::map<std::string, std::vector<Override>>& overrides() const { return overrides_; }

 protected:
  std::map<std::string, std::vector<Override>> overrides_;
};

/// One row of the backend table (backend_registry.h). Each target folder
/// core/backends/<name>/ declares `BackendEntry <name>_backend_entry();` in its
/// <name>_backend.h; the build writes the table from those folders
/// (core/backends/backend_table.cmake), so no other file names a target.
struct BackendEntry {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Backend> (*factory)();
  /// The reference every other backend is compared with, and what "auto" falls back
  /// to (cpu): listed last, loads a model on the session's own runtime. Exactly one.
  bool reference = false;
};

/// Milliseconds since `start` (timeline durations).
inline double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace ec::backends
