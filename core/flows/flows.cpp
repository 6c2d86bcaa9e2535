#include "core/flows/flows.h"

#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "core/backends/backend_registry.h"
#include "core/backends/onnx/onnx_writer.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/passes/pass_registry.h"
#include "core/quantize/report_json.h"
#include "core/report/compile_report.h"
#include "core/report/model_summary.h"
#include "core/util/atomic_file.h"

namespace ec::flows {

namespace {
// The graph as *.onnx (core/backends/onnx) or IR text, serialised in full before
// anything is written: an op ONNX cannot express leaves no file.
void write_graph(const ir::Graph& g, const std::string& path) {
  const bool onnx = path.size() >= 5 && path.compare(path.size() - 5, 5, ".onnx") == 0;
  util::write_file_atomically(path, onnx ? backends::onnx_export::save_onnx(g) : ir::print(g));
}
}  // namespace
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The model's graph: the one given, else the file opened into `storage`.
const ir::Graph& graph_of(const ModelRef& model, ir::Graph& storage) {
  if (model.graph) return *model.graph;
  storage = frontends::open_model(model.path);
  return storage;
}

// "ptq, qat, dynamic" (the strategy table's names), and whether `name` is one of them.
bool known_strategy(const std::string& name, std::string& names) {
  bool known = false;
  for (const auto& e : quantize::strategy_table()) {
    known |= e.name == name;
    names += (names.empty() ? "" : ", ") + std::string(e.name);
  }
  return known;
}

}  // namespace

std::string CalibrationSource::label() const {
  if (!path.empty()) return path;
  return arrays.empty() ? std::string() : "calibration_data (array)";
}

std::vector<quantize::Sample> CalibrationSource::samples(const ir::Graph& g,
                                                         int max_samples) const {
  if (!path.empty()) return quantize::load_calibration_data(path, g, max_samples);
  return quantize::calibration_samples(arrays, g, max_samples);
}

// ---- compile ----------------------------------------------------------------------

CompileOutcome compile(const ModelRef& model, const CompileOptions& o,
                       const quantize::ProgressFn& progress) {
  if (model.path.empty() && !model.graph)
    throw EdgeCompilerError(ErrorKind::Usage, "compile needs a MODEL");
  if (o.num_segments < 1)
    throw EdgeCompilerError(ErrorKind::Usage, "--num-segments must be at least 1");
  if (o.num_calibration_samples < 1)
    throw EdgeCompilerError(ErrorKind::Usage, "--num-calibration-samples must be at least 1");
  if (!(o.calibration_percentile > 0 && o.calibration_percentile <= 100))
    throw EdgeCompilerError(ErrorKind::Usage,
                            "--calibration-percentile must be above 0 and at most 100");
  // What the backends take beyond the strategies, from their capabilities: --quantize
  // modes of their own, and options of their own (--precision, ...).
  const auto table = backends::backend_table();
  std::vector<backends::Capabilities> caps;
  for (const auto& e : table) caps.push_back(e.factory()->capabilities());
  auto takers = [&](auto&& takes) {  // "a, b" of the backends for which takes(caps) holds
    std::string names;
    for (std::size_t i = 0; i < table.size(); ++i)
      if (takes(caps[i])) names += (names.empty() ? "" : ", ") + std::string(table[i].name);
    return names;
  };
  auto has = [](const std::vector<std::string>& v, const std::string& x) { return std::find(v.begin(), v.end(), x) != v.end(); };
  const std::string mode_takers = takers([&](const backends::Capabilities& c) { return has(c.quantize_modes, o.quantize); });
  const bool own_mode = !o.quantize.empty() && !mode_takers.empty();
  if (!o.quantize.empty() && o.quantize != "none" && !own_mode) {
    std::string names;
    if (!known_strategy(o.quantize, names)) {
      std::string modes;
      for (std::size_t i = 0; i < table.size(); ++i)
        for (const auto& m : caps[i].quantize_modes) modes += ", " + m + " (" + std::string(table[i].name) + ")";
      throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + o.quantize + ": valid: " + names + modes + ", none");
    }
  }
  // auto: the attached device's backend (device discovery), else the backend writing the
  // artefact the output names, else cpu; the one resolver is backends::resolve_target
  const auto choice = devices::choose_target(
      o.target, o.output);  // unknown target: one line listing the known ones
  const auto resolved = backends::resolve_backend(choice.target);
  const backends::Capabilities mine = resolved.backend->capabilities();
  // options of a backend's own: given to one that does not take them is a usage error
  const std::vector<std::pair<std::string, std::string>> own = {
      {"precision", o.precision}, {"compute_units", o.compute_units}, {"deployment_target", o.deployment_target}};
  bool foreign = own_mode && !has(mine.quantize_modes, o.quantize);
  for (const auto& [key, value] : own) foreign |= !value.empty() && !has(mine.options, key);
  if (foreign) {
    const std::string who = takers([&](const backends::Capabilities& c) {
      return has(c.options, "precision") || has(c.options, "compute_units") || has(c.options, "deployment_target") ||
             !c.quantize_modes.empty();
    });
    std::string modes;
    for (const auto& c : caps)
      for (const auto& m : c.quantize_modes) modes += " and --quantize " + m;
    throw EdgeCompilerError(ErrorKind::Usage, std::string("--precision, --compute-units, --deployment-target") +
                                                  (modes.empty() ? "" : modes) + " apply to --target " +
                                                  (who.empty() ? std::string("(none built)") : who) + " only");
  }
  if (!mine.quantize.empty() && !o.quantize.empty() && !has(mine.quantize, o.quantize)) {
    std::string takes;
    for (std::size_t i = 0; i < mine.quantize.size(); ++i)
      takes += (i == 0 ? "" : i + 1 == mine.quantize.size() ? " or " : ", ") + mine.quantize[i];
    throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + o.quantize + ": the " + resolved.backend->name() +
                                                  " backend takes " + takes +
                                                  (mine.quantize_note.empty() ? "" : " (" + mine.quantize_note + ")"));
  }
  const std::string artefact = mine.artefact;
  if (!o.output.empty() && !artefact.empty() && !ends_with(o.output, artefact))
    throw EdgeCompilerError(
        ErrorKind::Usage,
        "--output " + o.output + ": the " + resolved.backend->name() + " artefact is " +
            (mine.artefact_kind.empty() ? "a " + artefact + " file" : mine.artefact_kind) + "; name it *" + artefact);
  report::CompileRequest request;
  request.model = model.path;
  request.target = choice.target;
  request.target_reason = choice.reason;
  request.quantize = own_mode ? "none" : o.quantize;  // a mode of the backend's own: no quantiser
  if (own_mode) request.quantize_label = o.quantize;
  request.calibration_percentile = o.calibration_percentile;
  request.num_calibration_samples = o.num_calibration_samples;
  request.num_segments = o.num_segments;
  request.output_path = o.output;
  bool takes_own = own_mode;
  for (const auto& [key, value] : own)
    if (has(mine.options, key)) {
      request.options[key] = value;
      takes_own = true;
    }
  if (own_mode) request.options["quantize"] = o.quantize;
  if (takes_own) {
    backends::CompileConfig check;
    check.options = request.options;
    (void)resolved.backend->partition(
        ir::Graph{}, check);  // validates the options (usage errors) before any work
  }
  check_writable(o.output, "--output");

  ir::Graph storage;
  const ir::Graph& g = graph_of(model, storage);
  CompileOutcome out;
  out.strategy = report::resolve_strategy(request, g, *resolved.backend);
  if (out.strategy == "ptq" && !report::is_quantised(g) && o.calibration.empty())
    throw EdgeCompilerError(
        ErrorKind::Usage,
        (o.target == "auto" ? "--target auto chose " + resolved.backend->name() + ", so "
                            : std::string()) +
            "--quantize ptq needs --calibration-data FILE.npy (or a directory of NAME.npy); "
            "or --quantize none for an already quantised model");
  if (!o.calibration.empty() && out.strategy != "none") {
    request.samples = o.calibration.samples(g, o.num_calibration_samples);
    request.data_source = o.calibration.label();
  }
  out.run = report::compile_model(g, request, progress);
  out.report = report::to_json(out.run.report);
  out.options = nlohmann::json{{"target", o.target},
                               {"quantize", out.strategy},
                               {"calibration_data", o.calibration.label()},
                               {"num_calibration_samples", o.num_calibration_samples},
                               {"calibration_percentile", o.calibration_percentile},
                               {"num_segments", o.num_segments},
                               {"output", o.output}};
  return out;
}

void check_artefact_written(const CompileOptions& o, const report::CompileReport& rep) {
  if (!o.output.empty() && rep.output.empty())
    throw BackendError(
        rep.backend,
        "--output " + o.output + " not written: " +
            (rep.notes.empty() ? std::string("the backend wrote no artefact") : rep.notes.front()));
}

// ---- quantize ---------------------------------------------------------------------

QuantizeOutcome quantize(const ModelRef& model, const QuantizeOptions& o,
                         const quantize::ProgressFn& progress) {
  if (model.path.empty() && !model.graph)
    throw EdgeCompilerError(ErrorKind::Usage, "quantize needs a MODEL");
  require_eir_output(o.output);
  // Bad requests are usage errors, checked before any work.
  quantize::QuantizeOptions qo = o.options;
  std::string names;
  if (!known_strategy(qo.strategy, names))
    throw EdgeCompilerError(ErrorKind::Usage,
                            "unknown strategy '" + qo.strategy + "'; valid strategies: " + names);
  if (qo.strategy == "ptq" && o.calibration.empty())
    throw EdgeCompilerError(
        ErrorKind::Usage,
        "--strategy ptq needs --calibration-data FILE.npy (or a directory of NAME.npy)");
  if (qo.num_calibration_samples < 1)
    throw EdgeCompilerError(ErrorKind::Usage, "--num-calibration-samples must be at least 1");

  ir::Graph storage;
  const ir::Graph& g = graph_of(model, storage);
  std::vector<quantize::Sample> samples;
  if (!o.calibration.empty()) samples = o.calibration.samples(g, qo.num_calibration_samples);
  if (!samples.empty())
    qo.data_source = o.calibration.label() + " (" + std::to_string(samples.size()) +
                     (samples.size() == 1 ? " sample)" : " samples)");
  QuantizeOutcome out;
  try {
    out.result = quantize::quantize(g, samples, qo, progress);
  } catch (const EdgeCompilerError& e) {
    if (e.kind() != ErrorKind::Usage || std::string(e.what()) == "cancelled") throw;
    // A bad keep-float name or percentile refuses the request (not a usage error of the command
    // line).
    throw EdgeCompilerError(ErrorKind::Quantization, e.what(), e.detail());
  }
  if (!o.output.empty()) write_graph(out.result.graph, o.output);
  out.report = quantize::to_json(out.result.report);
  out.report["model"] = model.path;
  out.report["output"] = o.output.empty() ? nlohmann::json() : nlohmann::json(o.output);
  return out;
}

// ---- optimize ---------------------------------------------------------------------

OptimizeOutcome optimize(const ModelRef& model,
                         const std::optional<std::vector<std::string>>& pass_list, bool diffs,
                         const std::string& output) {
  if (model.path.empty() && !model.graph)
    throw EdgeCompilerError(ErrorKind::Usage, "optimize needs a MODEL (or --list)");
  require_eir_output(output);
  OptimizeOutcome out;
  out.pipeline = pass_list ? *pass_list : passes::default_pipeline();
  if (out.pipeline.empty())
    throw EdgeCompilerError(ErrorKind::Usage,
                            "--passes names no pass; valid passes: " + passes::pass_names());
  for (const auto& n : out.pipeline)
    if (!passes::find_pass(n))
      throw EdgeCompilerError(ErrorKind::Usage,
                              "unknown pass '" + n + "'; valid passes: " + passes::pass_names());

  out.graph = model.graph ? *model.graph : frontends::open_model(model.path);
  passes::PassManagerOptions pmo;
  pmo.record_diffs = diffs;
  passes::PassManager pm = passes::make_pipeline(out.pipeline, pmo);
  out.report = pm.run(out.graph);
  if (!output.empty()) write_graph(out.graph, output);
  out.json = passes::to_json(out.report);
  out.json["model"] = model.path;
  out.json["pipeline"] = out.pipeline;
  out.json["output"] = output.empty() ? nlohmann::json() : nlohmann::json(output);
  if (!diffs)
    for (auto& p : out.json["passes"]) p.erase("diff");
  return out;
}

// ---- inspect, devices, IR text ----------------------------------------------------

nlohmann::json inspect_json(const ir::Graph& g, const std::string& model,
                            const std::string& format) {
  auto j = report::to_json(report::summarize(g, model, format));
  // A compiled artefact (an *_edgetpu.tflite) also shows the split its compiler recorded.
  if (const auto artefact = report::report_of_artefact(g, model))
    j["compiled_split"] = report::to_json(*artefact);
  return j;
}

DeviceList list_devices(const std::string& config_path, bool keep_going) {
  DeviceList list;
  list.config_path = config_path.empty() ? devices::devices_config_path() : config_path;
  try {
    list.config = devices::load_devices_config(list.config_path);
  } catch (const EdgeCompilerError& e) {
    if (!keep_going) throw;
    list.config_error = e.what();
  }
  list.found = devices::discover_devices({.include_virtual = true, .config = &list.config});
  return list;
}

nlohmann::json to_json(const DeviceList& list) {
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : list.found.devices) {
    const auto a = d.is_available();
    devices.push_back({{"id", d.id},
                       {"type", devices::device_type_name(d.type)},
                       {"vendor", d.vendor},
                       {"name", d.name},
                       {"available", a.available},
                       {"reason", a.reason},
                       {"discovered_by", d.discovered_by()},
                       {"is_virtual", d.is_virtual()},
                       {"metadata", d.metadata}});
  }
  return {{"devices", devices}, {"notes", list.found.notes}, {"config", list.config_path}};
}

void require_eir_output(const std::string& path, const std::string& flag) {
  if (path.empty() || ends_with(path, ".eir") || ends_with(path, ".onnx")) return;
  throw EdgeCompilerError(ErrorKind::Usage,
                          flag + " " + path +
                              ": the output is the IR text form (*.eir) or ONNX (*.onnx); "
                              "name the file so (for .tflite use convert or compile)");
}

void write_ir(const ir::Graph& g, const std::string& path, const std::string& flag) {
  require_eir_output(path, flag);
  check_writable(path, flag);
  write_graph(g, path);
}

std::string serialise_model(const ir::Graph& g, const std::string& path,
                            const backends::tflite::TfliteWriteOptions& tflite, std::size_t* ops,
                            const std::string& flag) {
  if (ops) *ops = g.ops.size();
  if (ends_with(path, ".onnx")) return backends::onnx_export::save_onnx(g);
  if (ends_with(path, ".eir")) return ir::print(g);
  if (ends_with(path, ".tflite")) {
    const ir::Graph prepared = backends::tflite::prepare_for_tflite(g, tflite);
    if (ops) *ops = prepared.ops.size();
    return backends::tflite::save_tflite(prepared, tflite);
  }
  throw EdgeCompilerError(ErrorKind::Usage,
                          flag + " " + path + ": name the model *.onnx, *.tflite or *.eir");
}

void check_writable(const std::string& path, const std::string& flag) {
  if (path.empty()) return;
  const auto parent = std::filesystem::absolute(path).parent_path();
  std::error_code ec;
  if (!std::filesystem::is_directory(parent, ec))
    throw EdgeCompilerError(
        ErrorKind::Io, flag + " " + path + ": directory " + parent.string() + " does not exist");
  if (::access(parent.c_str(), W_OK) != 0)
    throw EdgeCompilerError(
        ErrorKind::Io, flag + " " + path + ": directory " + parent.string() + " is not writable");
}

}  // namespace ec::flows
