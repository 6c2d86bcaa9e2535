#include "core/backends/metal/metal_backend.h"

#include <cctype>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <set>

#include "core/backends/metal/mlpackage_writer.h"
#include "core/backends/units.h"
#include "core/errors.h"
#include "core/ir/shape_inference.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "core/ir/op_cost.h"

namespace ec::backends::metal {
namespace {

std::string option(const CompileConfig& c, const std::string& key, const std::string& fallback) {
  auto it = c.options.find(key);
  return it == c.options.end() || it->second.empty() ? fallback : it->second;
}

std::string status_of(ComputeUnit u) {
  switch (u) {
    case ComputeUnit::ANE: return "Neural Engine (predicted)";
    case ComputeUnit::GPU: return "GPU (predicted)";
    case ComputeUnit::CPU: return "CPU (predicted)";
  }
  return "";
}

// Assumed sustained fraction of peak, and the GPU/CPU rates: assumptions, stated in the estimate.
constexpr double kAneUtilisation = 0.3;
constexpr double kGpuGflops = 1000;  // ops not on the NE, on the GPU
constexpr double kCpuGflops = 100;   // ops on the CPU

}  // namespace

MetalOptions MetalOptions::from(const CompileConfig& c) {
  MetalOptions o;
  const std::string p = option(c, "precision", "fp16");
  if (p != "fp16" && p != "fp32") throw EdgeCompilerError(ErrorKind::Usage, "--precision " + p + ": valid: fp16, fp32");
  o.fp16 = p == "fp16";
  o.units = allowed_units_from_name(option(c, "compute_units", "all"));
  o.target = &find_deployment_target(option(c, "deployment_target", std::string(deployment_targets().front().name)));
  // --quantize weights-int8 (Capabilities::quantize_modes) arrives as options["quantize"]
  const std::string w = option(c, "quantize", "") == "weights-int8" ? std::string("int8") : option(c, "weights", "none");
  if (w != "none" && w != "int8") throw EdgeCompilerError(ErrorKind::Usage, "weights " + w + ": valid: none, int8");
  o.weights_int8 = w == "int8";
  return o;
}

std::unique_ptr<Backend> make_metal_backend() { return std::make_unique<MetalBackend>(); }

MetalBackend::MetalBackend() { register_builtin_overrides(*this); }

Availability MetalBackend::is_available() const noexcept {
  return {true, "writes Core ML ML Program packages (.mlpackage) with no Mac attached; compute units are predicted"};
}

Capabilities MetalBackend::capabilities() const {
  Capabilities c;
  c.dtypes = {"f16", "f32", "i8 (weights)"};
  c.options = {"precision", "compute_units", "deployment_target", "quantize", "output", "report"};
  c.compiles = true;
  c.artefact = ".mlpackage";
  c.artefact_kind = "a Core ML package";
  c.quantize = {"none", "weights-int8", "ptq"};
  c.quantize_note = "int8 activations, --deployment-target iOS17/macOS14 or later";
  c.quantize_modes = {"weights-int8"};
  c.float_by_default = true;
  return c;
}

ResultText MetalBackend::describe(const CompileResult& result) const {
  int ane = 0, gpu = 0, cpu = 0;
  for (const auto& row : result.partition.rows) (row.unit == "ANE" ? ane : row.unit == "GPU" ? gpu : cpu)++;
  return {{}, {"Compute units (prediction): Neural Engine " + std::to_string(ane) + ", GPU " + std::to_string(gpu) + ", CPU " +
               std::to_string(cpu)}};
}

OpSupport MetalBackend::supports_op(const ir::Graph& graph, std::size_t index) const {
  try {
    const std::string mil = mil_form(graph, graph.ops[index]);
    return {true, "Core ML op " + mil, "lowers to MIL " + mil, "mil." + mil};
  } catch (const std::exception& e) {
    return {false, "No MIL form", e.what(), "mil.no_form"};
  }
}

void MetalBackend::legalise(ir::Graph& graph) const {
  passes::pin_batch(graph);
  ir::infer_shapes(graph);
  passes::PassManagerOptions po;
  po.record_diffs = false;
  passes::PassManager pm(po);
  for (const char* p : {"Cleanup", "ConstantFolding", "CommonSubexpressionElimination", "ConstantFolding", "Cleanup",
                        "FuseLayerNorm", "DeadCodeElimination"})
    pm.add(std::string(p));
  pm.run(graph);
}

Partition MetalBackend::partition(const ir::Graph& graph, const CompileConfig& config) const {
  const MetalOptions mo = MetalOptions::from(config);
  const UnitOptions uo{mo.fp16, mo.units, mo.target ? mo.target->ios : deployment_targets().front().ios};
  Partition p;
  p.backend = name();
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    PartitionRow r;
    r.op_index = i;
    r.members = {i};
    r.name = op.name;
    r.op_type = op.op_type;
    std::string mil;
    std::string why;
    try {
      mil = mil_form(graph, op, mo.lower());
    } catch (const UnsupportedOpError& e) {
      why = e.suggestion();
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (mil.empty()) {
      r.placement = Placement::Cpu;
      r.cause = PlacementCause::Unsupported;
      r.status = "No MIL form";
      r.reason = why;
      r.rule = "mil.no_form";
      r.target_op = op.op_type;
      p.rows.push_back(std::move(r));
      continue;
    }
    r.target_op = mil;
    const UnitChoice c = predict_unit(graph, i, mil, uo);
    r.unit = compute_unit_name(c.unit);
    r.status = status_of(c.unit);
    r.placement = c.unit == ComputeUnit::CPU ? Placement::Cpu : Placement::Target;
    r.cause = c.unit == ComputeUnit::ANE ? PlacementCause::Supported : PlacementCause::Unsupported;
    r.rule = c.rule.empty() ? "ane.all_rules_hold" : c.rule;
    r.reason = c.unit == ComputeUnit::ANE ? "no rule moves it off the Neural Engine (prediction)" : c.reason;
    r.segment = r.placement == Placement::Target ? 0 : -1;
    p.rows.push_back(std::move(r));
  }
  p.segments = p.ops_on_target() > 0 ? 1 : 0;
  return p;
}

CompileResult MetalBackend::compile(const ir::Graph& input, const CompileConfig& config) {
  const MetalOptions mo = MetalOptions::from(config);  // usage errors first
  CompileResult res;
  res.backend = name();
  ir::Graph g = input;
  legalise(g);

  // 1. Ops with no MIL form: the registered overrides, last op first so that
  //    earlier indices stay valid; then CPU eager, which Core ML cannot do for
  //    an op it has no form of.
  std::map<std::string, std::vector<TimelineEntry>> attempts;
  std::set<std::string> overridden;
  std::string refused, refused_type, refused_reason;
  {
    const Partition first = partition(g, config);
    for (auto it = first.rows.rbegin(); it != first.rows.rend(); ++it) {
      if (it->rule != "mil.no_form") continue;
      auto& log = attempts[it->name];
      log.push_back({it->name, "target_compile", false, "Core ML lowering: " + it->reason, 0});
      bool replaced = false;
      if (auto found = overrides_.find(it->op_type); found != overrides_.end())
        for (const auto& o : found->second) {
          const auto t0 = std::chrono::steady_clock::now();
          try {
            ir::Graph h = g;
            o.rewrite(h, it->op_index);
            ir::infer_shapes(h);
            const std::size_t added = h.ops.size() + 1 - g.ops.size();
            for (std::size_t k = 0; k < added; ++k) (void)mil_form(h, h.ops[it->op_index + k], mo.lower());
            g = std::move(h);
            log.push_back({it->name, "override", true, o.summary + " (" + std::to_string(added) + " ops, each with a MIL form)", ms_since(t0)});
            overridden.insert(it->name);
            replaced = true;
            break;
          } catch (const std::exception& e) {
            log.push_back({it->name, "override", false, o.name + ": " + e.what(), ms_since(t0)});
          }
        }
      if (!replaced) {
        log.push_back({it->name, "cpu_eager", false,
                       "Core ML has no CPU kernel for an op outside the MIL opset; nothing can run it", 0});
        refused = it->name;
        refused_type = it->op_type;
        refused_reason = it->reason;
      }
    }
  }

  // 2. The final partition and the timeline in graph order.
  res.partition = partition(g, config);
  std::set<std::string> emitted;
  for (auto& r : res.partition.rows) {
    const std::string base = r.name.substr(0, r.name.find("/override/"));
    if (overridden.count(base)) r.override_name = base;
    if (auto it = attempts.find(base); it != attempts.end()) {
      if (emitted.insert(base).second)
        for (auto& e : it->second) res.timeline.push_back(e);
      if (r.name == base) continue;
    }
    if (r.rule == "mil.no_form") continue;
    const auto t0 = std::chrono::steady_clock::now();
    const OpSupport s = supports_op(g, r.op_index);
    res.timeline.push_back({r.name, "target_compile", s.supported,
                            "Core ML lowering: " + r.target_op + "; " + r.status + (r.unit == "ANE" ? "" : ": " + r.reason), ms_since(t0)});
    if (r.unit == "CPU") res.timeline.push_back({r.name, "cpu_eager", true, "Core ML runs the MIL op on the CPU (prediction)", 0});
  }
  res.ops_on_target = res.partition.ops_on_target();
  res.ops_fallback = res.partition.ops_on_cpu();
  const auto devices = virtual_ane_devices();
  res.estimate = estimate_performance(g, res.partition, devices.front());
  std::string per_device = "estimated latency on virtual Neural Engine devices (estimate):";
  for (const auto& d : devices) {
    const PerfEstimate e = estimate_performance(g, res.partition, d);
    char line[200];
    std::snprintf(line, sizeof line, "%s %s (%.1f TOPS) %.3f ms", &d == &devices.front() ? "" : ";", std::string(d.name).c_str(), d.tops, e.latency_ms);
    per_device += line;
  }
  res.notes.push_back(per_device);
  res.verified_by = "predicted";
  res.notes.push_back("compute units are a prediction (rules in core/backends/metal/README.md); Core ML decides on the device");

  if (!refused.empty()) {
    const std::string msg = "op '" + refused + "' (" + refused_type + ") has no Core ML MIL form and no override replaces it";
    if (!config.output_path.empty())
      throw UnsupportedOpError(refused_type, "the metal backend (Core ML)", refused_reason + "; no override replaces it",
                               "op '" + refused + "'");
    res.notes.push_back(msg);
    return res;
  }

  // 3. The artefact, last.
  if (!config.output_path.empty()) {
    const auto t0 = std::chrono::steady_clock::now();
    LoweredProgram lp = lower_graph(g, mo.lower());
    write_mlpackage(lp.program, config.output_path);
    res.output_path = config.output_path;
    res.timeline.push_back({"model", "mlpackage", true,
                            "wrote " + config.output_path + " (spec " + std::to_string(lp.program.spec_version) + ", opset " +
                                lp.program.opset + ", " + std::to_string(lp.program.ops.size()) + " MIL ops)",
                            ms_since(t0)});
  }
  return res;
}

PerfEstimate MetalBackend::estimate_performance(const ir::Graph& graph) const {
  return estimate_performance(graph, partition(graph), virtual_ane_devices().front());
}

namespace {
// "M1" -> "ane-virtual-m1", "A17 Pro" -> "ane-virtual-a17-pro"
std::string ane_device_id(std::string_view name) {
  std::string id = "ane-virtual-";
  for (char c : name) id += c == ' ' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return id;
}
}  // namespace

std::vector<devices::HardwareDevice> MetalBackend::virtual_devices() const {
  std::vector<devices::HardwareDevice> out;
  for (const auto& d : virtual_ane_devices()) {
    auto dev = devices::make_virtual_device(devices::DeviceType::NPU, "Apple", ane_device_id(d.name),
                                            "Virtual Apple Neural Engine (" + std::string(d.name) + ")", name());
    dev.metadata["PeakTOPS"] = std::to_string(d.tops);
    dev.metadata["Source"] = std::string(d.source);
    out.push_back(std::move(dev));
  }
  return out;
}

PerfEstimate MetalBackend::estimate_for_device(const ir::Graph& graph, const std::string& device_id) const {
  for (const auto& d : virtual_ane_devices())
    if (ane_device_id(d.name) == device_id) return estimate_performance(graph, partition(graph), d);
  return estimate_performance(graph);
}

PerfEstimate MetalBackend::estimate_performance(const ir::Graph& g, const Partition& p, const AneDevice& d) const {
  PerfEstimate e;
  for (const auto& r : p.rows) {
    const auto c = ir::estimate_cost(g, g.ops[r.op_index]);
    const double ops = 2.0 * static_cast<double>(c.macs) + static_cast<double>(c.flops);
    if (r.unit == "ANE") {
      e.target_ms += ops / (d.tops * 1e12 * kAneUtilisation) * 1e3;
      e.target_macs += c.macs;
    } else if (r.unit == "GPU") {
      e.target_ms += ops / (kGpuGflops * 1e9) * 1e3;
      e.target_macs += c.macs;
    } else {
      e.cpu_ms += ops / (kCpuGflops * 1e9) * 1e3;
      e.cpu_macs += c.macs;
    }
  }
  e.latency_ms = e.target_ms + e.cpu_ms;
  char m[400];
  std::snprintf(m, sizeof m,
                "estimate for a virtual %s: Neural Engine ops at %.0f%% of its published %.1f TOPS (%s), GPU ops at an "
                "assumed %.0f GFLOP/s, CPU ops at an assumed %.0f GFLOP/s; 2 ops per MAC (core/ir/op_cost)",
                std::string(d.name).c_str(), kAneUtilisation * 100, d.tops, std::string(d.source).c_str(), kGpuGflops, kCpuGflops);
  e.model = m;
  return e;
}

void register_builtin_overrides(Backend& backend) {
  backend.register_override(
      "HardSwish",
      {"hard_swish_as_sigmoid_hard", "HardSwish as x * sigmoid_hard(x, alpha 1/6, beta 1/2)",
       [](ir::Graph& g, std::size_t index) {
         ir::Operation op = g.ops[index];
         const auto* x = g.find_tensor(op.inputs.at(0));
         if (!x) throw std::runtime_error("input has no tensor");
         ir::Tensor gate = *x;
         gate.name = op.outputs.at(0) + "/override/gate";
         gate.data.reset();
         g.add_tensor(gate);
         ir::Operation hs;
         hs.name = op.name + "/override/hard_sigmoid";
         hs.kind = ir::OpKind::HardSigmoid;
         hs.op_type = "HardSigmoid";
         hs.inputs = {op.inputs[0]};
         hs.outputs = {gate.name};
         hs.attributes["alpha"] = 1.0 / 6.0;
         hs.attributes["beta"] = 0.5;
         ir::Operation mul;
         mul.name = op.name;
         mul.kind = ir::OpKind::Mul;
         mul.op_type = "Mul";
         mul.inputs = {op.inputs[0], gate.name};
         mul.outputs = op.outputs;
         g.ops[index] = std::move(mul);
         g.ops.insert(g.ops.begin() + static_cast<std::ptrdiff_t>(index), std::move(hs));
       }});
}

}  // namespace ec::backends::metal

namespace ec::backends {

BackendEntry metal_backend_entry() {
  return {"metal", "Apple silicon through Core ML: .mlpackage (ML Program), Neural Engine / GPU / CPU predicted per op",
          &make_metal_backend};
}

}  // namespace ec::backends
