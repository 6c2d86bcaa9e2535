// `edgecompile compare A B`: runs both models on the same inputs and compares every matched
// intermediate tensor (core/compare); `--passes` compares each stage of A's pass pipeline
// with the stage before it. The logic is core's; this file parses and prints.
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/npy_inputs.h"
#include "app/cli/commands/options.h"
#include "core/compare/compare.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_registry.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct CompareCliOptions {
  std::string a, b;
  std::vector<std::string> inputs;
  int samples = 0;  // 0: one random sample, or every sample of --input FILE.npy/DIR
  bool json = false;
  std::string html;
  bool passes = false;
  std::string pipeline;  // comma-separated; "" = the default pipeline
  int threads = 0;
  double jump_db = 6;
  std::string fp16;  // a | b | both | none; "" = from the models
};

ir::FrozenGraph open(const std::string& path) {
  frontends::OpenOptions open;
  open.allow_unknown_ops = true;  // the runtime refuses them with its own message
  return ir::freeze(frontends::open_model(path, open));
}

std::vector<compare::Sample> samples_of(const ir::Graph& a, const CompareCliOptions& o) {
  std::vector<std::string> named, paths;
  for (const auto& s : o.inputs) (s.find('=') != std::string::npos ? named : paths).push_back(s);
  if (!named.empty() && !paths.empty())
    throw EdgeCompilerError(ErrorKind::Usage,
                            "--input: give NAME=FILE.npy for every input, or one FILE.npy / DIR of samples, not both");
  return compare::samples_for(a, paths, o.samples, named.empty() ? std::map<std::string, runtime::Tensor>{}
                                                                 : read_npy_inputs(named));
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) v.push_back(item);
  return v;
}

int run_compare(const CompareCliOptions& o) {
  if (!o.passes && o.b.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "compare: give two models (A B), or one with --passes");
  if (!o.html.empty()) check_writable(o.html, "--html");
  compare::CompareOptions co;
  co.threads = o.threads;
  co.jump_db = o.jump_db;
  if (!o.fp16.empty()) {
    co.fp16_a = o.fp16 == "a" || o.fp16 == "both";
    co.fp16_b = o.fp16 == "b" || o.fp16 == "both";
  }
  const ir::FrozenGraph a = open(o.a);
  const auto samples = samples_of(*a, o);
  nlohmann::json out;
  bool printed = false;
  if (o.passes) {
    const auto pipeline = o.pipeline.empty() ? passes::default_pipeline() : split(o.pipeline);
    compare::PassesResult pr = compare::compare_passes(*a, pipeline, samples, co);
    pr.model = o.a;
    if (o.json) out["passes"] = compare::to_json(pr);
    else std::cout << compare::to_text(pr);
    printed = true;
  }
  if (!o.b.empty()) {
    const ir::FrozenGraph b = open(o.b);
    compare::CompareResult r = compare::compare_models(a, b, samples, co);
    r.model_a = o.a;
    r.model_b = o.b;
    if (!o.html.empty()) util::write_file_atomically(o.html, compare::to_html(r));
    if (o.json) {
      out["compare"] = compare::to_json(r);
    } else {
      if (printed) std::cout << '\n';
      std::cout << compare::to_text(r);
    }
  }
  // Said last: a refused comparison is one line.
  if (o.inputs.empty())
    std::cerr << "edgecompile: no --input given: compared on " << samples.size()
              << (samples.size() == 1 ? " sample" : " samples") << " of deterministic random data (seed 0)\n";
  if (o.json) std::cout << (o.passes && o.b.empty() ? out["passes"] : o.passes ? out : out["compare"]).dump(2) << '\n';
  return 0;
}

}  // namespace

Command add_compare_command(CLI::App& app) {
  auto o = std::make_shared<CompareCliOptions>();
  auto* cmd = app.add_subcommand(
      "compare", "Run two models on the same inputs and compare every intermediate tensor: where the numbers go wrong");
  cmd->add_option("a", o->a, "Reference model, e.g. the float ONNX model (" + frontends::supported_extensions() + ")")
      ->required();
  cmd->add_option("b", o->b, "Model compared with it: its compiled .tflite, its int8 .eir, its .mlpackage (fp16 compute simulated), another version");
  cmd->add_option("--input", o->inputs,
                  "NAME=FILE.npy per input of A (one sample), or one FILE.npy / DIR of NAME.npy with N samples on "
                  "axis 0; without: random data (seed 0)");
  cmd->add_option("--samples", o->samples, "How many samples to compare on (default: one random sample, or every sample of --input FILE.npy/DIR)")
      ->check(whole_number_at_least(1));
  cmd->add_flag("--json", o->json, "Print the comparison as JSON");
  cmd->add_option("--html", o->html, "Also write the table as an HTML page here");
  cmd->add_flag("--passes", o->passes,
                "Compare every stage of A's pass pipeline with the stage before it; name a pass that changes "
                "numerics beyond float noise");
  cmd->add_option("--pipeline", o->pipeline, "With --passes: comma-separated passes (default: the default pipeline)");
  cmd->add_option("--jump-db", o->jump_db,
                  "A tensor diverges when its SQNR falls this many dB below its inputs' (default 6)")
      ->check(number_in(0, 200, "a number of dB in (0, 200]"));
  cmd->add_option("--fp16", o->fp16,
                  "Run A, B, both or none with fp16 compute simulated (every float tensor rounded to half); "
                  "default: a Core ML package typed fp16 (the Core ML writer's default) is, others are not")
      ->check(CLI::IsMember({"a", "b", "both", "none"}));
  add_threads_option(cmd, o->threads);
  return {cmd, [o] { return run_compare(*o); }};
}

}  // namespace ec::cli
