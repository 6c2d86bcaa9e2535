// `edgecompile compile MODEL --target coral|metal|cpu|auto`: frontend -> quantiser ->
// backend. Prints the partition in the shape edgetpu_compiler users know
// (ops on the Edge TPU vs the CPU, segments, Operator / Count / Status) and
// every CPU op's reason (metal: Neural Engine / GPU / CPU per op, predicted, and
// the reason for every op off the Neural Engine; --precision, --compute-units,
// --deployment-target, --quantize weights-int8|ptq); --json prints the CompileReport (docs/compile-json.md),
// --report writes it, --output writes the artefact. Also reached by the seed
// form `edgecompile MODEL --target coral --output OUT.tflite` (main.cpp).
// Bad input: one line, exit 1 (usage: exit 2), nothing written.
#include <iostream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/record.h"
#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/devices/discovery.h"
#include "core/report/compile_flow.h"
#include "core/report/compile_report.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct CompileCliOptions {
  std::string model;
  std::string target = "auto";
  std::string quantize;  // "" = none for a quantised model, else ptq
  std::string calibration_data;
  int num_samples = 100;
  double percentile = 100;
  int num_segments = 1;
  std::string output, report_path;
  bool json = false;
  RecordOptions record;
  // metal (Core ML): empty = the backend's default
  std::string precision, compute_units, deployment_target;
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_compile(const CompileCliOptions& o) {
  if (o.model.empty()) throw EdgeCompilerError(ErrorKind::Usage, "compile needs a MODEL");
  if (o.num_segments < 1) throw EdgeCompilerError(ErrorKind::Usage, "--num-segments must be at least 1");
  const bool metal_weights = o.quantize == "weights-int8";
  if (!o.quantize.empty() && o.quantize != "none" && !metal_weights) {
    bool known = false;
    std::string names;
    for (const auto& e : quantize::strategy_table()) {
      known |= e.name == o.quantize;
      names += std::string(e.name) + ", ";
    }
    if (!known) throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + o.quantize + ": valid: " + names + "weights-int8 (metal), none");
  }
  // auto: the attached device's backend (device discovery), else the backend writing the
  // artefact --output names, else cpu; the one resolver is backends::resolve_target
  const auto choice = devices::choose_target(o.target, o.output);  // unknown target: one line listing the known ones
  const auto resolved = backends::resolve_backend(choice.target);
  const bool metal = resolved.backend->name() == "metal";
  if (!metal && (!o.precision.empty() || !o.compute_units.empty() || !o.deployment_target.empty() || metal_weights))
    throw EdgeCompilerError(ErrorKind::Usage, "--precision, --compute-units, --deployment-target and --quantize weights-int8 "
                                              "apply to --target metal only");
  if (metal && !o.quantize.empty() && o.quantize != "none" && o.quantize != "ptq" && !metal_weights)
    throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + o.quantize + ": the metal backend takes none, weights-int8 "
                                              "or ptq (int8 activations, --deployment-target iOS17/macOS14 or later)");
  const std::string artefact = resolved.backend->capabilities().artefact;
  if (!o.output.empty() && !artefact.empty() && !ends_with(o.output, artefact))
    throw EdgeCompilerError(ErrorKind::Usage, "--output " + o.output + ": the " + resolved.backend->name() + " artefact is " +
                                                  (artefact == ".tflite" ? "a TensorFlow Lite file" : "a Core ML package") +
                                                  "; name it *" + artefact);
  report::CompileRequest request;
  request.model = o.model;
  request.target = choice.target;
  request.target_reason = choice.reason;
  request.quantize = metal_weights ? "none" : o.quantize;
  if (metal_weights) request.quantize_label = "weights-int8";
  request.calibration_percentile = o.percentile;
  request.num_calibration_samples = o.num_samples;
  request.num_segments = o.num_segments;
  request.output_path = o.output;
  if (metal) {
    request.options = {{"precision", o.precision}, {"compute_units", o.compute_units},
                       {"deployment_target", o.deployment_target}, {"weights", metal_weights ? "int8" : ""}};
    backends::CompileConfig check;
    check.options = request.options;
    (void)resolved.backend->partition(ir::Graph{}, check);  // validates the options (usage errors, exit 2) before any work
  }
  check_writable(o.output, "--output");
  check_writable(o.report_path, "--report");

  const ir::Graph g = frontends::open_model(o.model);
  const std::string strategy = report::resolve_strategy(request, g, *resolved.backend);
  if (strategy == "ptq" && !report::is_quantised(g) && o.calibration_data.empty())
    throw EdgeCompilerError(ErrorKind::Usage, (o.target == "auto" ? "--target auto chose " + resolved.backend->name() + ", so " : std::string()) +
                                                  "--quantize ptq needs --calibration-data FILE.npy (or a directory of NAME.npy); "
                                                  "or --quantize none for an already quantised model");
  if (!o.calibration_data.empty() && strategy != "none") {
    request.samples = quantize::load_calibration_data(o.calibration_data, g, o.num_samples);
    request.data_source = o.calibration_data;
  }
  const auto rep = report::compile_model(g, request).report;
  const auto j = report::to_json(rep);
  if (!o.report_path.empty()) util::write_file_atomically(o.report_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (o.json) std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  else std::cout << report::to_text(rep);
  if (!o.output.empty() && rep.output.empty())
    throw BackendError(rep.backend, "--output " + o.output + " not written: " +
                                        (rep.notes.empty() ? std::string("the backend wrote no artefact") : rep.notes.front()));
  auto rec = make_record("compile", o.model);
  rec.target = rep.backend;
  rec.options_json = nlohmann::json{{"target", o.target}, {"quantize", strategy}, {"calibration_data", o.calibration_data},
                                    {"num_calibration_samples", o.num_samples}, {"calibration_percentile", o.percentile},
                                    {"num_segments", o.num_segments}, {"output", o.output}}.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  rec.report_json = j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  record_run(o.record, std::move(rec));
  return 0;
}

}  // namespace

Command add_compile_command(CLI::App& app) {
  auto o = std::make_shared<CompileCliOptions>();
  auto* cmd = app.add_subcommand("compile", "Compile a model for a target and show what runs where, and why");
  cmd->add_option("model", o->model, model_help());
  cmd->add_option("--target", o->target, "coral, metal, cpu or auto (coral when a Coral device is attached, else the backend writing the --output file type: .tflite coral, .mlpackage metal; else cpu)");
  cmd->add_option("--quantize", o->quantize,
                  "ptq, qat, dynamic, weights-int8 (metal) or none (default: none for a quantised model or metal, else ptq)");
  cmd->add_option("--calibration-data", o->calibration_data, "Calibration samples (.npy, or a directory of NAME.npy)");
  cmd->add_option("--num-calibration-samples", o->num_samples, "Use at most this many samples (default 100)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--calibration-percentile", o->percentile, "Activation range percentile (default 100 = min/max)")
      ->check(number_in(0, 100, "a percentile above 0 and at most 100"));
  cmd->add_option("--num-segments", o->num_segments, "Edge TPU segments allowed (default 1, as edgetpu_compiler)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--precision", o->precision, "metal: fp16 (default) or fp32 compute; inputs and outputs stay fp32");
  cmd->add_option("--compute-units", o->compute_units, "metal: all (default), cpu_and_ne, cpu_and_gpu or cpu_only");
  cmd->add_option("--deployment-target", o->deployment_target,
                  "metal: macOS13 (default), macOS14, macOS15, iOS16, iOS17 or iOS18 (spec version and MIL opset)");
  cmd->add_option("--output", o->output, "Write the artefact here (.tflite for coral, .mlpackage for metal)");
  cmd->add_option("--report", o->report_path, "Write the CompileReport as JSON here");
  cmd->add_flag("--json", o->json, "Print the CompileReport as JSON (docs/compile-json.md)");
  add_record_options(cmd, o->record);
  return {cmd, [o] { return run_compile(*o); }};
}

}  // namespace ec::cli
