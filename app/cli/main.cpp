// edgecompile: the headless face of edgecompiler. Core only, no Qt.
//
// Exit codes: 0 success, 1 the input was refused (bad model, unsupported op),
// 2 usage error, 70 internal error (a bug: please report it).
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <iostream>
#include <string>

#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/report/model_summary.h"

namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 70;

struct InspectOptions {
  std::string model;
  bool json = false;
  bool dump = false;
  bool dump_full = false;
  bool strict = false;
};

int run_inspect(const InspectOptions& o) {
  ec::frontends::OpenOptions open;
  open.allow_unknown_ops = !o.strict;
  const ec::ir::Graph g = ec::frontends::open_model(o.model, open);
  if (o.dump || o.dump_full) {
    ec::ir::PrintOptions p;
    if (!o.dump_full) p.elide_constants_above = 64;
    std::cout << ec::ir::print(g, p);
    return 0;
  }
  const auto summary = ec::report::summarize(g, o.model);
  if (o.json)
    std::cout << ec::report::to_json(summary).dump(2) << '\n';
  else
    std::cout << ec::report::to_text(summary);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"edgecompile: compile trained models for edge accelerators and see what the "
               "compiler did"};
  app.set_version_flag("--version", std::string("edgecompile 0.1.0"));
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log detail to stderr, and explain errors at length");

  InspectOptions inspect;
  auto* cmd = app.add_subcommand("inspect", "Summarise a model: I/O, ops, parameters, MACs");
  cmd->add_option("model", inspect.model, "Model file (.onnx)")->required();
  cmd->add_flag("--json", inspect.json, "Print the summary as JSON (docs/inspect-json.md)");
  cmd->add_flag("--dump", inspect.dump,
                "Print the IR's text form (constants over 64 bytes elided)");
  cmd->add_flag("--dump-full", inspect.dump_full,
                "Print the IR's full text form, constants included (parses back)");
  cmd->add_flag("--strict", inspect.strict, "Refuse ops the IR does not know instead of listing them");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "edgecompile: " << e.what() << " (run 'edgecompile --help')\n";
    return kExitUsage;
  }

  auto logger = spdlog::stderr_color_mt("edgecompile");
  logger->set_pattern("edgecompile: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);

  try {
    if (app.got_subcommand(cmd)) return run_inspect(inspect);
  } catch (const ec::EdgeCompilerError& e) {
    std::cerr << "edgecompile: error: " << e.what() << '\n';
    if (verbose && !e.detail().empty()) std::cerr << e.detail() << '\n';
    return kExitRefused;
  } catch (const std::bad_alloc&) {
    std::cerr << "edgecompile: error: out of memory while processing the model\n";
    return kExitRefused;
  } catch (const std::exception& e) {
    std::cerr << "edgecompile: internal error: " << e.what()
              << " (this is a bug; please report it with the model)\n";
    return kExitInternal;
  }
  return kExitUsage;
}
