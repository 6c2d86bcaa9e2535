#include "core/backends/coral/coral_backend.h"
#include "core/backends/coral/coral_target.h"

#include <cstdio>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <unistd.h>

#include "core/backends/coral/compiler_log.h"
#include "core/backends/coral/op_rules.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/backends/units.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"

namespace ec::backends::coral {
namespace {

// A unit's members after the main op are its fused activation, or (FullyConnected)
// the flattening Reshape the TFLite reader put before it.
bool has_fused_activation(const ir::Graph& g, const std::vector<std::size_t>& unit) {
  return std::any_of(unit.begin() + 1, unit.end(), [&](std::size_t i) { return g.ops[i].kind != ir::OpKind::Reshape; });
}

UnitView view_of(const ir::Graph& g, const std::vector<std::size_t>& unit) {
  const auto& op = g.ops[unit.front()];
  return UnitView{g, op, tflite_op_name(g, op), has_fused_activation(g, unit)};
}

bool is_leading_quantize(const ir::Graph& g, const ir::Operation& op) {
  if (op.kind != ir::OpKind::QuantizeLinear || op.inputs.empty()) return false;
  const auto* x = g.find_tensor(op.inputs[0]);
  return x && x->dtype == ir::DType::Float32 &&
         std::find(g.inputs.begin(), g.inputs.end(), op.inputs[0]) != g.inputs.end();
}

// Where a tensor may be consumed: a Target op reading it must sit in segment >= level.
struct Level {
  int level = 0;
  bool from_cpu = false;
  std::string blocked_by;  // the unsupported op that raised the level
};

}  // namespace

std::unique_ptr<Backend> make_coral_backend() { return std::make_unique<CoralBackend>(); }

CoralBackend::CoralBackend() { register_builtin_overrides(*this); }

Availability CoralBackend::is_available() const noexcept {
  try {
    std::string why;
    std::string msg = "compiles for a virtual Edge TPU (no device needed); ";
    const auto compiler = find_edgetpu_compiler();
    msg += compiler.empty() ? "edgetpu_compiler not on PATH: partition predicted" : "edgetpu_compiler at " + compiler;
    if (!tflite_writer_available(&why)) msg += "; " + why;
    return {true, msg};
  } catch (const std::exception& e) {
    return {false, e.what()};
  } catch (...) {
    return {false, "unknown error while probing the Edge TPU toolchain"};
  }
}

Capabilities CoralBackend::capabilities() const {
  Capabilities c;
  c.dtypes = {"i8", "u8", "i32 (bias)"};
  c.options = {"num_segments", "output", "report"};
  c.compiles = tflite_writer_available();
  c.artefact = ".tflite";
  c.runs_artefacts = true;
  c.device_noun = "Coral device";
  c.artefact_kind = "a TensorFlow Lite file";
  c.target_label = "TPU";
  return c;
}

std::unique_ptr<runtime::targets::TargetSession> CoralBackend::open_session(const std::string& artefact,
                                                                            ir::FrozenGraph graph, int threads) const {
  return open_coral_target(artefact, std::move(graph), {.threads = threads});
}

std::vector<std::string> CoralBackend::pipeline() const {
  auto p = Backend::pipeline();
  std::erase(p, std::string("FuseLayerNorm"));
  // the Edge TPU runs batch 1: the rewrites below that need static shapes (1-D ops as 2-D,
  // 3-D convolutions over frames) then apply to models exported with a dynamic batch too
  p.insert(p.begin(), "PinBatch");
  // ops without a TFLite builtin become ops with one before quantisation, so they are
  // calibrated and can map (an unrolled GRU's FULLY_CONNECTED, LOGISTIC, TANH, MUL, ADD)
  // float-only TFLite ops (sequence LSTM, CONV_3D) first become ops TFLite has in int8
  p.insert(std::find(p.begin(), p.end(), std::string("DeadCodeElimination")), "LegaliseTfliteInt8");
  p.insert(std::find(p.begin(), p.end(), std::string("DeadCodeElimination")), "LegaliseTflite");
  // only the three innermost dims may be > 1: data movement over unit dims (an unrolled
  // recurrent layer's [T, 1, 1, H] outputs) without them, chained Reshapes joined
  p.insert(std::find(p.begin(), p.end(), std::string("DeadCodeElimination")), "CompactUnitDims");
  p.insert(std::find(p.begin(), p.end(), std::string("DeadCodeElimination")), "Cleanup");
  return p;
}

quantize::TargetConstraints CoralBackend::quant_constraints() const {
  quantize::TargetConstraints c;
  c.target = name();
  c.requires_int8 = true;
  c.strategies = {"ptq", "qat"};
  c.strategy_reason =
      "it quantises only the weights and keeps activations in float, and the Edge TPU runs only 8-bit tensors "
      "(coral.ai/docs/edgetpu/models-intro: \"Tensor parameters are quantized\")";
  c.concat_shares_params = true;  // TFLite's int8 CONCATENATION: inputs on the output's params
  c.per_channel = true;  // per-channel int8 conv weights map (the compiled mobilenet in testdata/edgetpu has them)
  return c;
}

OpSupport CoralBackend::supports_op(const ir::Graph& graph, std::size_t index) const {
  for (const auto& unit : group_units(graph)) {
    if (std::find(unit.begin(), unit.end(), index) == unit.end()) continue;
    if (unit.front() != index) return {true, std::string(kMapped), "fused into its producer's unit", ""};
    const RuleVerdict v = check_unit(view_of(graph, unit));
    return {v.mapped, v.status, v.reason, v.rule};
  }
  return {false, std::string(kNotSupported), "no op at index " + std::to_string(index), ""};
}

void CoralBackend::legalise(ir::Graph& graph) const {
  passes::pin_batch(graph);
  // the graph partitioned is the graph written: TFLite's form (NHWC, fused activations)
  if (graph.metadata.count("tflite.schema_version") == 0)
    graph = tflite::prepare_for_tflite(std::move(graph), edgetpu_write_options());
}

std::optional<Partition> CoralBackend::partition_of_artefact(const ir::Graph& graph) const {
  constexpr std::string_view kExecutable = "tflite::edgetpu-custom-op";
  bool compiled = false;
  for (const auto& op : graph.ops) compiled |= op.op_type == kExecutable;
  if (!compiled) return std::nullopt;
  Partition p;
  p.backend = name();
  std::string first_cpu;  // the first op the compiler left on the CPU before a later segment
  for (const auto& unit : group_units(graph)) {
    const auto& op = graph.ops[unit.front()];
    PartitionRow r = row_for_unit(graph, unit);
    if (op.op_type == kExecutable) {
      r.target_op = "edgetpu-custom-op";
      r.placement = Placement::Target;
      r.cause = PlacementCause::Supported;
      r.status = std::string(kMapped);
      r.segment = p.segments++;
      const std::int64_t bytes = op.attr_int("executable_bytes", 0);
      r.reason = "Edge TPU segment " + std::to_string(r.segment) + ": the ops edgetpu_compiler mapped, compiled into one executable" +
                 (bytes > 0 ? " of " + std::to_string(bytes) + " bytes" : std::string());
      r.reason_message = bytes > 0 ? message("coral.artefact.segment_bytes", {std::to_string(r.segment), std::to_string(bytes)}, r.reason)
                                   : message("coral.artefact.segment", {std::to_string(r.segment)}, r.reason);
      r.rule = "artefact.edgetpu_custom_op";
      p.rows.push_back(std::move(r));
      continue;
    }
    const UnitView u = view_of(graph, unit);
    r.target_op = u.tflite_op;
    r.placement = Placement::Cpu;
    const RuleVerdict v = check_unit(u);
    r.rule = v.rule;
    if (is_leading_quantize(graph, op)) {
      r.cause = PlacementCause::LeadingQuantize;
      r.status = v.status;
      r.reason = "left on the CPU by edgetpu_compiler: a float->int8 QUANTIZE at the input stays on the CPU without splitting the model";
      r.reason_message = message("coral.artefact.leading_quantize", {}, r.reason);
    } else if (!v.mapped) {
      r.cause = PlacementCause::Unsupported;
      r.status = v.status;
      r.reason = "left on the CPU by edgetpu_compiler; by our rules: " + v.reason;
      r.reason_message = wrap("coral.artefact.unsupported", v.message, r.reason);
      if (first_cpu.empty()) first_cpu = op.name;
    } else {
      r.cause = PlacementCause::AfterUnsupported;
      r.status = std::string(kMoreThanOneSubgraph);
      r.blocked_by = first_cpu;
      r.reason = "left on the CPU by edgetpu_compiler although our rules map it" +
                 (first_cpu.empty() ? std::string(": a limitation the rules do not capture")
                                    : "; it follows '" + first_cpu + "', the first op on the CPU (one segment by default)");
      r.reason_message = first_cpu.empty() ? message("coral.artefact.cpu_unexplained", {}, r.reason)
                                           : message("coral.artefact.after_unsupported", {first_cpu}, r.reason);
      r.rule = "partition.one_segment";
    }
    p.rows.push_back(std::move(r));
  }
  return p;
}

Partition CoralBackend::partition(const ir::Graph& graph, const CompileConfig& config) const {
  const int max_segments = std::max(1, config.num_segments);
  Partition p;
  p.backend = name();
  std::map<std::string, Level> levels;  // by tensor name (absent = graph input / constant: level 0)
  std::set<int> used_segments;
  auto level_of = [&](const std::string& t) { auto it = levels.find(t); return it == levels.end() ? Level{} : it->second; };

  for (const auto& unit : group_units(graph)) {
    const auto& op = graph.ops[unit.front()];
    PartitionRow r = row_for_unit(graph, unit);
    const UnitView u = view_of(graph, unit);
    r.target_op = u.tflite_op;
    std::set<std::string> internal;
    for (auto i : unit)
      for (const auto& o : graph.ops[i].outputs) internal.insert(o);
    // segment this unit needs (Target) and the level its outputs get (Cpu)
    int need = 0, cpu_out = 0;
    std::string blocker;
    for (auto i : unit)
      for (const auto& in : graph.ops[i].inputs) {
        if (in.empty() || internal.count(in)) continue;
        const Level l = level_of(in);
        if (l.level > need) { need = l.level; blocker = l.blocked_by; }
        const int c = l.from_cpu ? l.level : l.level + 1;
        cpu_out = std::max(cpu_out, c);
      }
    const RuleVerdict v = check_unit(u);
    Level out;
    if (is_leading_quantize(graph, op)) {
      r.placement = Placement::Cpu;
      r.cause = PlacementCause::LeadingQuantize;
      r.status = v.status;
      r.reason = v.reason + "; it stays on the CPU without splitting the model";
      r.reason_message = wrap("coral.leading_quantize", v.message, r.reason);
      r.rule = v.rule;
      out = Level{0, false, {}};
    } else if (!v.mapped) {
      r.placement = Placement::Cpu;
      r.cause = PlacementCause::Unsupported;
      r.status = v.status;
      r.reason = v.reason;
      r.reason_message = wrap("coral.unsupported", v.message, r.reason);
      r.rule = v.rule;
      out = Level{cpu_out, true, blocker.empty() ? op.name : blocker};
    } else if (need >= max_segments) {
      r.placement = Placement::Cpu;
      r.cause = PlacementCause::AfterUnsupported;
      r.status = std::string(kMoreThanOneSubgraph);
      r.blocked_by = blocker;
      r.reason = "supported itself, but it reads the result of '" + blocker + "', which runs on the CPU; " +
                 (max_segments == 1 ? std::string("the compiler maps one Edge TPU segment by default, and everything after the first unsupported op goes to the CPU")
                                    : "the " + std::to_string(max_segments) + " Edge TPU segments allowed are used up") +
                 "; make '" + blocker + "' map (or replace it) or allow more segments (--num-segments)";
      r.reason_message = max_segments == 1
                             ? message("coral.after_unsupported", {blocker}, r.reason)
                             : message("coral.after_unsupported_segments", {blocker, std::to_string(max_segments)}, r.reason);
      r.rule = "partition.one_segment";
      out = Level{cpu_out, true, blocker};
    } else {
      r.placement = Placement::Target;
      r.cause = PlacementCause::Supported;
      r.status = std::string(kMapped);
      r.segment = need;
      r.reason = "every rule holds (segment " + std::to_string(need) + ")";
      r.reason_message = message("coral.supported", {std::to_string(need)}, r.reason);
      used_segments.insert(need);
      out = Level{need, false, {}};
    }
    for (auto i : unit)
      for (const auto& o : graph.ops[i].outputs)
        if (!o.empty()) levels[o] = out;
    p.rows.push_back(std::move(r));
  }
  // segment ids dense from 0
  std::map<int, int> dense;
  for (int s : used_segments) dense.emplace(s, static_cast<int>(dense.size()));
  for (auto& r : p.rows)
    if (r.segment >= 0) r.segment = dense[r.segment];
  p.segments = static_cast<int>(dense.size());
  return p;
}

CompileResult CoralBackend::compile(const ir::Graph& input, const CompileConfig& config) {
  CompileResult res;
  res.backend = name();
  ir::Graph g = input;
  try {
    legalise(g);
  } catch (const std::exception& e) {  // partition the graph as it is, and say why
    g = input;
    passes::pin_batch(g);
    res.notes.push_back(std::string("not legalised for TFLite (partitioned as given): ") + e.what());
  }

  // 1. Units the Edge TPU does not take on their own: try the registered overrides,
  //    last op first so that earlier indices stay valid while ops are replaced.
  std::map<std::string, std::vector<TimelineEntry>> attempts;  // by unit name
  std::set<std::string> overridden;                             // unit names replaced by an override
  {
    const Partition first = partition(g, config);
    for (auto it = first.rows.rbegin(); it != first.rows.rend(); ++it) {
      const PartitionRow& row = *it;
      if (row.cause != PlacementCause::Unsupported) continue;
      auto& log = attempts[row.name];
      const auto tc = std::chrono::steady_clock::now();
      const OpSupport s = supports_op(g, row.op_index);
      log.push_back({row.name, "target_compile", false, s.status + ": " + s.reason, ms_since(tc)});
      const auto found = overrides_.find(row.op_type);
      bool replaced = false;
      if (found != overrides_.end())
        for (const auto& o : found->second) {
          const auto t0 = std::chrono::steady_clock::now();
          try {
            int lsb = 0;
            ir::Graph rewritten = apply_checked_override(g, row.op_index, o, &lsb);
            // every op the rewrite made must map on its own
            const std::size_t added = rewritten.ops.size() + 1 - g.ops.size();
            for (std::size_t k = 0; k < added; ++k) {
              const OpSupport s = supports_op(rewritten, row.op_index + k);
              if (!s.supported)
                throw BackendError("coral", "override " + o.name + " made op '" + rewritten.ops[row.op_index + k].name +
                                                "' which does not map: " + s.status + ": " + s.reason);
            }
            g = std::move(rewritten);
            log.push_back({row.name, "override", true,
                           o.summary + " (" + std::to_string(added) + " ops; " +
                               (o.exact ? std::string("exact by construction: the same arithmetic, data movement only")
                                        : "int8 result within " + std::to_string(lsb) + " LSB of the original on the check data") +
                               ")",
                           ms_since(t0)});
            overridden.insert(row.name);
            replaced = true;
            break;
          } catch (const std::exception& e) {
            log.push_back({row.name, "override", false, o.name + ": " + e.what(), ms_since(t0)});
          }
        }
      if (!replaced) log.push_back({row.name, "cpu_eager", true, "runs on the CPU as TFLite's builtin kernel", 0});
    }
  }

  // 2. The final partition, and the timeline in graph order.
  res.partition = partition(g, config);
  std::set<std::string> emitted;
  for (auto& r : res.partition.rows) {
    const std::string base = r.name.substr(0, r.name.find("/override/"));
    if (overridden.count(base)) {
      r.override_name = base;
      if (r.placement == Placement::Target) r.cause = PlacementCause::Override;
    }
    // the unit's own attempts first, then the ops its override made
    auto it = attempts.find(base);
    if (it != attempts.end() && emitted.insert(base).second)
      for (auto& e : it->second) res.timeline.push_back(e);
    if (it != attempts.end() && r.name == base) {
      if (r.placement == Placement::Cpu && overridden.count(base))  // mapped alone, but after a CPU op
        res.timeline.push_back({r.name, "cpu_eager", true, r.status + ": " + r.reason, 0});
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const OpSupport s = supports_op(g, r.op_index);  // the prediction, timed as this unit's compile attempt
    const double ms = ms_since(t0);
    switch (r.cause) {
      case PlacementCause::Supported:
      case PlacementCause::Override:
        res.timeline.push_back({r.name, "target_compile", true, r.status + " (segment " + std::to_string(r.segment) + ")", ms});
        break;
      default:
        res.timeline.push_back({r.name, "target_compile", false, r.status + ": " + r.reason, ms});
        res.timeline.push_back({r.name, "cpu_eager", true, "runs on the CPU as TFLite's builtin kernel", 0});
    }
    (void)s;
  }
  res.ops_on_target = res.partition.ops_on_target();
  res.ops_fallback = res.partition.ops_on_cpu();
  res.estimate = estimate_performance(g, res.partition);
  res.verified_by = "predicted";

  // 3. The artefact, last.
  if (!config.output_path.empty()) {
    std::string why;
    if (!tflite_writer_available(&why)) {
      res.notes.push_back("no file written: " + why);
    } else {
      try {
        write_edgetpu_tflite(g, res.partition, config.output_path);
        res.output_path = config.output_path;
        recount_from_file(res, g, config);
        verify_with_compiler(res);
      } catch (const std::exception& e) {
        res.notes.push_back(std::string("no file written: ") + e.what());
      }
    }
  }
  return res;
}

void CoralBackend::recount_from_file(CompileResult& res, const ir::Graph& g, const CompileConfig& config) const {
  ir::Graph written;
  try {
    written = frontends::open_model(res.output_path);
  } catch (const std::exception& e) {
    res.notes.push_back(std::string("counts are the graph's: the written file could not be read back: ") + e.what());
    return;
  }
  passes::pin_batch(written);
  Partition file = partition(written, config);
  // the file's own operator count, as its reader tallied it ("CONV_2D 15, RESHAPE 1, ...")
  int operators = 0;
  if (auto it = written.metadata.find("tflite.ops_by_type"); it != written.metadata.end()) {
    std::istringstream entries(it->second);
    for (std::string entry; std::getline(entries, entry, ',');)
      if (const auto space = entry.find_last_of(' '); space != std::string::npos)
        operators += std::atoi(entry.c_str() + space + 1);
  }
  if (operators != static_cast<int>(file.rows.size()))
    res.notes.push_back("the written file holds " + std::to_string(operators) + " operators but reads back as " +
                        std::to_string(file.rows.size()) + " units: the counts are the units'");
  // name each row as the IR unit that wrote the same tensor (the writer keeps tensor names)
  std::map<std::string, const PartitionRow*> ir_row;
  for (const auto& r : res.partition.rows)
    for (auto m : r.members)
      for (const auto& o : g.ops[m].outputs) ir_row.emplace(o, &r);
  std::map<std::string, std::string> renamed;
  std::set<std::string> seen;
  int added = 0;
  for (auto& r : file.rows) {
    const PartitionRow* from = nullptr;
    for (auto m : r.members)
      for (const auto& o : written.ops[m].outputs)
        if (auto it = ir_row.find(o); !from && it != ir_row.end() && !seen.count(it->second->name)) from = it->second;
    if (!from) {  // an op the writer made (an explicit PAD, a TRANSPOSE before a RESHAPE...): placed like any other
      ++added;
      r.reason += "; written by the TFLite writer (the graph has no op of its own for it)";
      r.reason_message = wrap("coral.writer_made", r.reason_message, r.reason);
      const bool mapped = r.placement == Placement::Target;
      res.timeline.push_back({r.name, "target_compile", mapped,
                              mapped ? r.status + " (segment " + std::to_string(r.segment) + ")" : r.status + ": " + r.reason, 0});
      if (!mapped) res.timeline.push_back({r.name, "cpu_eager", true, "runs on the CPU as TFLite's builtin kernel", 0});
      continue;
    }
    seen.insert(from->name);
    renamed[r.name] = from->name;
    r.name = from->name;
    r.override_name = from->override_name;
    if (!r.override_name.empty() && r.placement == Placement::Target) r.cause = PlacementCause::Override;
    if (r.placement != from->placement)
      res.notes.push_back("'" + r.name + "' is placed " + (r.placement == Placement::Target ? "on the Edge TPU" : "on the CPU") +
                          " as written (" + r.target_op + "), unlike in the graph before writing");
  }
  for (auto& r : file.rows)
    if (auto it = renamed.find(r.blocked_by); it != renamed.end()) r.blocked_by = it->second;
  const int dropped = static_cast<int>(res.partition.rows.size() - seen.size());
  if (added || dropped)
    res.notes.push_back("the written file has " + std::to_string(file.rows.size()) + " ops where the graph had " +
                        std::to_string(res.partition.rows.size()) + " units (" + std::to_string(added) +
                        " written as extra ops, " + std::to_string(dropped) + " folded into others): counts are the file's");
  res.partition = std::move(file);
  res.ops_on_target = res.partition.ops_on_target();
  res.ops_fallback = res.partition.ops_on_cpu();
  res.counted_in = "the written file's operators (" + res.output_path + ": " + std::to_string(operators) + ")";
}

void CoralBackend::verify_with_compiler(CompileResult& res) const {
  const std::string compiler = find_edgetpu_compiler();
  if (compiler.empty()) return;  // predicted
  const auto t0 = std::chrono::steady_clock::now();
  try {
    const auto dir = std::filesystem::temp_directory_path() / ("edgecompile_edgetpu_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string text = run_edgetpu_compiler(compiler, res.output_path, dir.string());
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    const CompilerLog log = parse_compiler_log(text);
    res.verified_by = "edgetpu_compiler " + (log.version.empty() ? std::string("(version not printed)") : log.version);
    // compare the Operator / Count / Status table with ours
    std::map<std::pair<std::string, std::string>, int> ours, theirs;
    for (const auto& r : res.partition.rows) ++ours[{r.target_op, r.status}];
    for (const auto& r : log.rows) theirs[{r.op, r.status}] += r.count;
    for (const auto& [k, n] : theirs)
      if (ours[k] != n)
        res.notes.push_back("prediction and edgetpu_compiler disagree on " + k.first + " '" + k.second + "': predicted " +
                            std::to_string(ours[k]) + ", compiler " + std::to_string(n));
    for (const auto& [k, n] : ours)
      if (n && !theirs.count(k))
        res.notes.push_back("prediction and edgetpu_compiler disagree on " + k.first + " '" + k.second + "': predicted " +
                            std::to_string(n) + ", compiler 0");
    res.timeline.push_back({"model", "edgetpu_compiler", true, res.verified_by, ms_since(t0)});
  } catch (const std::exception& e) {
    res.timeline.push_back({"model", "edgetpu_compiler", false, e.what(), ms_since(t0)});
    res.notes.push_back(std::string("not verified: ") + e.what());
  }
}

namespace {
std::string size_str(std::int64_t bytes) {  // as edgetpu_compiler prints sizes: 80.00KiB
  char buf[64];
  const double b = static_cast<double>(bytes);
  if (b >= 1024.0 * 1024.0) std::snprintf(buf, sizeof buf, "%.2fMiB", b / (1024.0 * 1024.0));
  else if (b >= 1024.0) std::snprintf(buf, sizeof buf, "%.2fKiB", b / 1024.0);
  else std::snprintf(buf, sizeof buf, "%.2fB", b);
  return buf;
}
}  // namespace

ResultText CoralBackend::describe(const CompileResult& result) const {
  const auto& e = result.estimate;
  const auto& p = result.partition;
  return {{"On-chip memory used for caching model parameters: " + size_str(e.on_chip_parameter_bytes) + " (estimate)",
           "On-chip memory remaining for caching model parameters: " + size_str(e.on_chip_remaining_bytes) + " (estimate)",
           "Off-chip memory used for streaming uncached model parameters: " + size_str(e.off_chip_parameter_bytes) +
               " (estimate)",
           "Number of Edge TPU subgraphs: " + std::to_string(p.segments)},
          {"Number of operations that will run on Edge TPU: " + std::to_string(p.ops_on_target()),
           "Number of operations that will run on CPU: " + std::to_string(p.ops_on_cpu())}};
}

PerfEstimate CoralBackend::estimate_performance(const ir::Graph& graph) const {
  return estimate_performance(graph, partition(graph));
}

}  // namespace ec::backends::coral

namespace ec::backends {

BackendEntry coral_backend_entry() {
  return {"coral", "Google Coral Edge TPU: int8/uint8 .tflite, edgetpu_compiler's partition rules", &make_coral_backend};
}

}  // namespace ec::backends
