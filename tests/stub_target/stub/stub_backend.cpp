#include "tests/stub_target/stub/stub_backend.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/backends/units.h"
#include "core/errors.h"
#include "core/ir/text_format.h"
#include "core/session/session.h"

namespace ec::backends {
namespace {

// Runs the artefact (IR text) on the CPU runtime, as a device's runtime would run it.
class StubSession final : public runtime::targets::TargetSession {
 public:
  StubSession(ir::FrozenGraph graph, int threads) : session_({threads}) { session_.load(std::move(graph)); }
  std::string name() const override { return "stub"; }
  std::map<std::string, runtime::Tensor> run(const std::map<std::string, runtime::Tensor>& inputs) override {
    if (!open_) throw BackendError("stub", "session closed");
    return session_.run(inputs);
  }
  void close() noexcept override { open_ = false; }

 private:
  runtime::InferenceSession session_;
  bool open_ = true;
};

class StubBackend final : public Backend {
 public:
  std::string name() const override { return "stub"; }
  Availability is_available() const noexcept override { return {true, "the stub target needs nothing"}; }
  Capabilities capabilities() const override {
    Capabilities c;
    c.dtypes = {"f32", "i8"};
    c.options = {"output"};
    c.compiles = true;
    c.artefact = ".stub";
    c.runs_artefacts = true;
    c.device_noun = "stub device";
    return c;
  }
  // Every op but Softmax "maps", so the partition has both placements.
  OpSupport supports_op(const ir::Graph& graph, std::size_t index) const override {
    const auto& op = graph.ops.at(index);
    if (op.op_type == "Softmax") return {false, "Not on the stub", "the stub leaves Softmax on the CPU", "stub.softmax"};
    return {true, "Mapped to the stub", "every other op maps", "stub.any"};
  }
  Partition partition(const ir::Graph& graph, const CompileConfig& = {}) const override {
    Partition p;
    p.backend = name();
    for (const auto& unit : group_units(graph)) {
      PartitionRow r = row_for_unit(graph, unit);
      const OpSupport s = supports_op(graph, unit.front());
      r.target_op = r.op_type;
      r.placement = s.supported ? Placement::Target : Placement::Cpu;
      r.cause = s.supported ? PlacementCause::Supported : PlacementCause::Unsupported;
      r.status = s.status;
      r.reason = s.reason;
      r.rule = s.rule;
      r.segment = s.supported ? 0 : -1;
      p.rows.push_back(std::move(r));
    }
    p.segments = p.ops_on_target() > 0 ? 1 : 0;
    return p;
  }
  // The artefact: the graph's IR text form, written to a temporary file and renamed.
  CompileResult compile(const ir::Graph& graph, const CompileConfig& config) override {
    CompileResult res;
    res.backend = name();
    res.partition = partition(graph, config);
    for (const auto& r : res.partition.rows)
      res.timeline.push_back({r.name, r.placement == Placement::Target ? "target_compile" : "cpu_eager", true, r.reason, 0.0});
    res.ops_on_target = res.partition.ops_on_target();
    res.ops_fallback = res.partition.ops_on_cpu();
    res.estimate = estimate_performance(graph);
    res.verified_by = "predicted";
    if (!config.output_path.empty()) {
      const std::string tmp = config.output_path + ".tmp";
      {
        std::ofstream out(tmp, std::ios::binary);
        out << ir::print(graph);
        if (!out) throw BackendError("stub", "cannot write " + config.output_path);
      }
      std::filesystem::rename(tmp, config.output_path);
      res.output_path = config.output_path;
    }
    return res;
  }
  PerfEstimate estimate_performance(const ir::Graph& graph) const override {
    PerfEstimate e;
    e.latency_ms = e.target_ms = 0.001 * static_cast<double>(graph.ops.size());
    e.model = "stub: 1 us per op";
    return e;
  }
  // One fake device; EC_STUB_DEVICE_UNAVAILABLE makes it unavailable (with that reason).
  Discovered discover(const DiscoveryContext&) const noexcept override {
    Discovered r;
    devices::HardwareDevice d;
    d.type = devices::DeviceType::NPU;
    d.vendor = "Stub";
    d.id = "stub-0";
    d.name = "Stub Accelerator";
    d.metadata = {{devices::kDiscoveredBy, "stub probe"}, {devices::kIsVirtual, "false"}, {devices::kBackend, name()}};
    const char* off = std::getenv("EC_STUB_DEVICE_UNAVAILABLE");
    d.availability = off && *off ? devices::DeviceAvailability{false, off} : devices::DeviceAvailability{true, ""};
    r.devices.push_back(std::move(d));
    r.notes.push_back("stub probe: 1 stub device");
    return r;
  }
  std::unique_ptr<runtime::targets::TargetSession> open_session(const std::string& artefact, ir::FrozenGraph graph,
                                                                int threads) const override {
    if (!artefact.ends_with(".stub")) throw BackendError("stub", artefact + " is not a .stub artefact");
    return std::make_unique<StubSession>(std::move(graph), threads);
  }
};

std::unique_ptr<Backend> make_stub_backend() { return std::make_unique<StubBackend>(); }

}  // namespace

BackendEntry stub_backend_entry() {
  return {"stub", "Stub target (tests): IR text artefact, one fake device, runs on the CPU runtime",
          &make_stub_backend};
}

}  // namespace ec::backends
