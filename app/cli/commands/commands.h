// CLI subcommands, one file each. main.cpp registers them and
// calls the chosen one's `run` inside its error handling (EdgeCompilerError ->
// exit 1 with the one-line message).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace ec::cli {

/// A registered subcommand: `app` for app.got_subcommand(...), `run` returns the exit code.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

/// `edgecompile inspect MODEL [--json] [--dump|--dump-full] [--strict]`
Command add_inspect_command(CLI::App& app);
/// `edgecompile run MODEL [--input NAME=FILE.npy ...] [--output-dir DIR]`
Command add_run_command(CLI::App& app);
/// `edgecompile bench MODEL [--input NAME=FILE.npy ...] [--iterations N] [--warmup W] [--threads T] [--json] [--csv FILE] [--device ID]`
Command add_bench_command(CLI::App& app);
/// `edgecompile optimize MODEL [--passes a,b,c] [--diff] [--json] [--output OUT.eir] | --list`
Command add_optimize_command(CLI::App& app);
/// `edgecompile quantize MODEL --strategy ptq|qat|dynamic [--calibration-data X.npy|DIR] [--json] [--output OUT.eir] ...`
Command add_quantize_command(CLI::App& app);
/// `edgecompile convert MODEL --output OUT.tflite|OUT.onnx [--nhwc-io] [--int8-io]`
Command add_convert_command(CLI::App& app);
/// `edgecompile compile MODEL --target coral|cpu|auto [--quantize ...] [--num-segments K] [--output OUT.tflite] [--report R.json] [--json]`
Command add_compile_command(CLI::App& app);
/// `edgecompile compare A [B] [--input ...] [--samples N] [--json] [--html OUT] [--passes]` (compare.cpp)
Command add_compare_command(CLI::App& app);
/// `edgecompile devices [--json]`
Command add_devices_command(CLI::App& app);
/// `edgecompile draw MODEL --output g.svg|g.png [--overlay ...] [--collapse D] [--scope NAME]`
Command add_draw_command(CLI::App& app);
/// `edgecompile report MODEL [--compile-report R] [--quant-report Q] [--bench B | --run ID] --html out.html`
Command add_report_command(CLI::App& app);

/// `edgecompile runs list|show ID|compare A B [--json] [--runs-db FILE]`
Command add_runs_command(CLI::App& app);
/// `edgecompile completion bash`: a completion script from the command tree.
Command add_completion_command(CLI::App& app);
/// `edgecompile manpage` (not listed): the edgecompile(1) man page from the command tree.
Command add_manpage_command(CLI::App& app);

}  // namespace ec::cli
