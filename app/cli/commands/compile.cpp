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
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/evidence.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/record.h"
#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/report/compile_report.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct CompileCliOptions {
  std::string model;
  flows::CompileOptions flow;  // target, quantisation, calibration, segments, --output, metal's options
  std::string report_path;
  std::string html;  // --html: the single-file report (app/cli/commands/evidence.h)
  bool json = false;
  RecordOptions record;
};

int run_compile(const CompileCliOptions& o) {
  const flows::CompileOptions& c = o.flow;
  check_writable(o.report_path, "--report");
  check_html_output(o.html);
  const auto out = flows::compile({o.model}, c);
  const auto& rep = out.run.report;
  const std::string text = out.report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!o.report_path.empty()) util::write_file_atomically(o.report_path, text + "\n");
  if (o.json) std::cout << text << '\n';
  else std::cout << report::to_text(rep);
  flows::check_artefact_written(c, rep);
  if (!o.html.empty()) {
    render::Evidence ev;
    ev.compile = out.report;
    ev.compile_path = "compile";
    write_html_report(o.html, o.model, ev, o.json ? std::cerr : std::cout);
  }
  auto rec = flows::new_run_record("compile", o.model);
  rec.target = rep.backend;
  rec.options_json = out.options.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  rec.report_json = out.report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  record_run(o.record, std::move(rec));
  return 0;
}

// The help texts the backend table writes (a new target needs no line here).
struct TargetHelp {
  std::string target, quantize, output;
  std::map<std::string, std::string> takers;  // option key -> "a, b": the backends taking it
};

TargetHelp target_help() {
  TargetHelp h;
  std::string names, devices, artefacts, reference, modes, float_default, outputs;
  auto add = [](std::string& list, const std::string& item) { list += (list.empty() ? "" : ", ") + item; };
  for (const auto& e : backends::backend_table()) {
    const std::string name(e.name);
    const auto caps = e.factory()->capabilities();
    add(names, name);
    if (e.reference) reference = name;
    if (!caps.device_noun.empty()) add(devices, name + " when a " + caps.device_noun + " is attached");
    if (caps.compiles && !caps.artefact.empty()) {
      add(artefacts, caps.artefact + " " + name);
      add(outputs, caps.artefact + " for " + name);
    }
    for (const auto& m : caps.quantize_modes) modes += ", " + m + " (" + name + ")";
    if (caps.float_by_default) float_default += " or " + name;
    for (const auto& key : caps.options) add(h.takers[key], name);
  }
  h.target = names + " or auto (" + (devices.empty() ? "" : devices + ", else ") +
             (artefacts.empty() ? "" : "the backend writing the --output file type: " + artefacts + "; else ") + reference + ")";
  h.quantize = "ptq, qat, dynamic" + modes + " or none (default: none for a quantised model" + float_default + ", else ptq)";
  h.output = "Write the artefact here (" + outputs + ")";
  return h;
}

}  // namespace

Command add_compile_command(CLI::App& app) {
  const TargetHelp help = target_help();
  auto takers = [&](const std::string& key) {
    const auto it = help.takers.find(key);
    return it == help.takers.end() ? std::string("(no target built takes it)") : it->second;
  };
  auto o = std::make_shared<CompileCliOptions>();
  auto* cmd = app.add_subcommand("compile", "Compile a model for a target and show what runs where, and why");
  cmd->add_option("model", o->model, model_help());
  cmd->add_option("--target", o->flow.target, help.target);
  cmd->add_option("--quantize", o->flow.quantize, help.quantize);
  cmd->add_option("--calibration-data", o->flow.calibration.path, "Calibration samples (.npy, or a directory of NAME.npy)");
  cmd->add_option("--num-calibration-samples", o->flow.num_calibration_samples, "Use at most this many samples (default 100)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--calibration-percentile", o->flow.calibration_percentile, "Activation range percentile (default 100 = min/max)")
      ->check(number_in(0, 100, "a percentile above 0 and at most 100"));
  cmd->add_option("--num-segments", o->flow.num_segments, "Edge TPU segments allowed (default 1, as edgetpu_compiler)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--precision", o->flow.precision, takers("precision") + ": fp16 (default) or fp32 compute; inputs and outputs stay fp32");
  cmd->add_option("--compute-units", o->flow.compute_units, takers("compute_units") + ": all (default), cpu_and_ne, cpu_and_gpu or cpu_only");
  cmd->add_option("--deployment-target", o->flow.deployment_target,
                  takers("deployment_target") + ": macOS13 (default), macOS14, macOS15, iOS16, iOS17 or iOS18 (spec version and MIL opset)");
  cmd->add_option("--output", o->flow.output, help.output);
  cmd->add_option("--report", o->report_path, "Write the CompileReport as JSON here");
  cmd->add_option("--html", o->html, "Also write a single-file HTML report (graph with placement, partition, timeline)");
  cmd->add_flag("--json", o->json, "Print the CompileReport as JSON (docs/compile-json.md)");
  add_record_options(cmd, o->record);
  return {cmd, [o] { return run_compile(*o); }};
}

}  // namespace ec::cli
