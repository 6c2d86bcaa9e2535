// `edgecompile compile MODEL --target coral|cpu|auto`: frontend -> quantiser ->
// backend. Prints the partition in the shape edgetpu_compiler users know
// (ops on the Edge TPU vs the CPU, segments, Operator / Count / Status) and
// every CPU op's reason; --json prints the CompileReport (docs/compile-json.md),
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
};

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

int run_compile(const CompileCliOptions& o) {
  if (o.model.empty()) throw EdgeCompilerError(ErrorKind::Usage, "compile needs a MODEL");
  if (!o.output.empty() && !ends_with(o.output, ".tflite"))
    throw EdgeCompilerError(ErrorKind::Usage, "--output " + o.output + ": the artefact is a TensorFlow Lite file; name it *.tflite");
  if (o.num_segments < 1) throw EdgeCompilerError(ErrorKind::Usage, "--num-segments must be at least 1");
  if (!o.quantize.empty() && o.quantize != "none") {
    bool known = false;
    std::string names;
    for (const auto& e : quantize::strategy_table()) {
      known |= e.name == o.quantize;
      names += std::string(e.name) + ", ";
    }
    if (!known) throw EdgeCompilerError(ErrorKind::Usage, "--quantize " + o.quantize + ": valid: " + names + "none");
  }
  const auto resolved = backends::resolve_backend(o.target);  // unknown target: one line listing the known ones
  check_writable(o.output, "--output");
  check_writable(o.report_path, "--report");

  const ir::Graph g = frontends::open_model(o.model);
  report::CompileRequest request;
  request.model = o.model;
  request.target = o.target;
  request.quantize = o.quantize;
  request.calibration_percentile = o.percentile;
  request.num_calibration_samples = o.num_samples;
  request.num_segments = o.num_segments;
  request.output_path = o.output;
  const std::string strategy = report::resolve_strategy(request, g, resolved.backend->name());
  if (strategy == "ptq" && !report::is_quantised(g) && o.calibration_data.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "--quantize ptq needs --calibration-data FILE.npy (or a directory of NAME.npy); "
                                              "or --quantize none for an already quantised model");
  if (!o.calibration_data.empty() && strategy != "none") {
    request.samples = quantize::load_calibration_data(o.calibration_data, g, o.num_samples);
    request.data_source = o.calibration_data;
  }
  const auto rep = report::compile_model(g, request).report;
  const auto j = report::to_json(rep);
  if (!o.report_path.empty()) util::write_file_atomically(o.report_path, j.dump(2) + "\n");
  if (o.json) std::cout << j.dump(2) << '\n';
  else std::cout << report::to_text(rep);
  if (!o.output.empty() && rep.output.empty())
    throw BackendError(rep.backend, "--output " + o.output + " not written: " +
                                        (rep.notes.empty() ? std::string("the backend wrote no artefact") : rep.notes.front()));
  auto rec = make_record("compile", o.model);
  rec.target = rep.backend;
  rec.options_json = nlohmann::json{{"target", o.target}, {"quantize", strategy}, {"calibration_data", o.calibration_data},
                                    {"num_calibration_samples", o.num_samples}, {"calibration_percentile", o.percentile},
                                    {"num_segments", o.num_segments}, {"output", o.output}}.dump();
  rec.report_json = j.dump();
  record_run(o.record, std::move(rec));
  return 0;
}

}  // namespace

Command add_compile_command(CLI::App& app) {
  auto o = std::make_shared<CompileCliOptions>();
  auto* cmd = app.add_subcommand("compile", "Compile a model for a target and show what runs where, and why");
  cmd->add_option("model", o->model, model_help());
  cmd->add_option("--target", o->target, "coral, cpu or auto (coral when a Coral device is attached, else cpu)");
  cmd->add_option("--quantize", o->quantize, "ptq, qat, dynamic or none (default: none for a quantised model, else ptq)");
  cmd->add_option("--calibration-data", o->calibration_data, "Calibration samples (.npy, or a directory of NAME.npy)");
  cmd->add_option("--num-calibration-samples", o->num_samples, "Use at most this many samples (default 100)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--calibration-percentile", o->percentile, "Activation range percentile (default 100 = min/max)")
      ->check(number_in(0, 100, "a percentile above 0 and at most 100"));
  cmd->add_option("--num-segments", o->num_segments, "Edge TPU segments allowed (default 1, as edgetpu_compiler)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--output", o->output, "Write the artefact here (.tflite)");
  cmd->add_option("--report", o->report_path, "Write the CompileReport as JSON here");
  cmd->add_flag("--json", o->json, "Print the CompileReport as JSON (docs/compile-json.md)");
  add_record_options(cmd, o->record);
  return {cmd, [o] { return run_compile(*o); }};
}

}  // namespace ec::cli
