// edgecompile: the headless face of edgecompiler. Core only, no Qt.
//
// Exit codes: 0 success, 1 the input was refused (bad model, unsupported op,
// bad input data), 2 usage error, 70 internal error (a bug: please report it).
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "app/cli/commands/commands.h"
#include "core/errors.h"
#include "ec_version.h"
#include "core/frontends/frontend.h"
#include "core/ir/excerpt.h"

namespace {

constexpr int kExitRefused = 1;
constexpr int kExitUsage = 2;
constexpr int kExitInternal = 70;

// The last guard on what reaches the terminal: one line, printable, bounded.
std::string one_line(std::string_view msg) { return ec::bounded_message(msg, 200); }

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"edgecompile: compile trained models for edge accelerators and see what the "
               "compiler did"};
  app.set_version_flag("--version", std::string("edgecompile " EC_VERSION_LINE));
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "Log detail to stderr, and explain errors at length");
  // What a model file may not record, for every subcommand that opens one.
  std::vector<std::string> input_shapes;
  std::string signature;
  app.add_option("--input-shape", input_shapes,
                 "An input's shape (and dtype) where the model file does not record it (TorchScript, Keras): "
                 "NAME=1,3,224,224, or 1,3,224,224 for the first input, :int64 for an integer input; repeat per input")
      ->type_name("NAME=DIMS");
  app.add_option("--signature", signature, "SavedModel: the signature to import (default serving_default)");

  // The subcommand table: one entry per file in app/cli/commands/.
  const std::vector<ec::cli::Command> commands{
      ec::cli::add_inspect_command(app),
      ec::cli::add_run_command(app),
      ec::cli::add_bench_command(app),
      ec::cli::add_optimize_command(app),
      ec::cli::add_quantize_command(app),
      ec::cli::add_convert_command(app),
      ec::cli::add_compile_command(app),
      ec::cli::add_devices_command(app),
      ec::cli::add_compare_command(app),
      ec::cli::add_draw_command(app),
      ec::cli::add_report_command(app),
      ec::cli::add_runs_command(app),
      ec::cli::add_completion_command(app),
      ec::cli::add_manpage_command(app),
  };

  // The seed form `edgecompile MODEL --target coral --output OUT.tflite` is `compile`.
  std::vector<std::string> args(argv, argv + argc);
  if (args.size() > 1 && !args[1].empty() && args[1][0] != '-') {
    bool is_command = false;
    for (const auto& c : commands) is_command |= c.app->get_name() == args[1];
    if (!is_command) args.insert(args.begin() + 1, "compile");
  }
  std::vector<char*> argv2;
  for (auto& a : args) argv2.push_back(a.data());
  for (const auto& c : commands) c.app->fallthrough();  // --input-shape and --signature after the subcommand

  try {
    app.parse(static_cast<int>(argv2.size()), argv2.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // Point at the help of the subcommand the user was typing, when there is one.
    std::string help = "edgecompile --help";
    for (const auto& c : commands)
      if (c.app->parsed()) help = "edgecompile " + c.app->get_name() + " --help";
    std::cerr << "edgecompile: " << e.what() << " (run '" << help << "')\n";
    return kExitUsage;
  }

  auto logger = spdlog::stderr_color_mt("edgecompile");
  logger->set_pattern("edgecompile: %l: %v");
  spdlog::set_default_logger(logger);
  spdlog::set_level(verbose ? spdlog::level::debug : spdlog::level::warn);

  try {
    ec::frontends::ModelHints hints;
    for (const auto& s : input_shapes) ec::frontends::parse_input_shape(s, hints);
    hints.signature = signature;
    ec::frontends::set_default_model_hints(std::move(hints));
    for (const auto& c : commands)
      if (c.app->parsed()) return c.run();
  } catch (const ec::EdgeCompilerError& e) {
    std::cerr << "edgecompile: error: " << one_line(e.what()) << '\n';
    if (verbose && !e.detail().empty()) std::cerr << e.detail() << '\n';
    return e.kind() == ec::ErrorKind::Usage ? kExitUsage : kExitRefused;
  } catch (const std::bad_alloc&) {
    std::cerr << "edgecompile: error: out of memory while processing the model\n";
    return kExitRefused;
  } catch (const std::exception& e) {
    std::cerr << "edgecompile: internal error: " << one_line(e.what())
              << " (this is a bug; please report it with the model)\n";
    return kExitInternal;
  }
  return kExitUsage;
}
