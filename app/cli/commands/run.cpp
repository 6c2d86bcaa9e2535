// `edgecompile run`: runs a model on the CPU runtime with .npy inputs and
// writes each output as NAME.npy (atomically: temp file, then rename).
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/npy_inputs.h"
#include "core/compare/dump.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/session/session.h"
#include "core/util/npy.h"

namespace ec::cli {
namespace {

struct RunOptions {
  std::string model;
  std::vector<std::string> inputs;  // NAME=FILE.npy
  std::string output_dir = ".";
  int threads = 0;
  bool int8_nchw = false;
  std::string dump_dir;      // --dump-intermediates
  std::string dump_pattern;  // --dump-intermediates-only
};

// Output names may hold '/' or ':' (e.g. "/head/Gemm_output_0"): keep file names flat.
std::string file_name_for(const std::string& tensor) {
  std::string s;
  for (char c : tensor) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_') ? c : '_';
  while (!s.empty() && s.front() == '.') s.erase(s.begin());
  return s.empty() ? "output" : s;
}

int run_model(const RunOptions& o) {
  runtime::SessionOptions options;
  options.threads = o.threads;
  options.int8_channels_last = !o.int8_nchw;
  runtime::InferenceSession session(options);
  session.load(o.model);
  std::map<std::string, runtime::Tensor> feeds = read_npy_inputs(o.inputs);
  if (o.inputs.empty()) {
    feeds = session.random_inputs(0);
    std::string list;
    for (const auto& [name, t] : feeds) list += (list.empty() ? "" : ", ") + name + " " + t.type_string();
    std::cerr << "edgecompile: no --input given: feeding deterministic random data (seed 0, dynamic dims = 1)"
              << (list.empty() ? std::string() : ": " + list) << '\n';
  }
  std::map<std::string, runtime::Tensor> outputs;
  if (!o.dump_dir.empty()) {
    // The model's own graph op for op (no fusion, no layout change), every tensor written.
    frontends::OpenOptions open;
    open.allow_unknown_ops = true;
    const auto graph = ir::freeze(frontends::open_model(o.model, open));
    const auto dumped = compare::dump_intermediates(graph, feeds, {o.dump_dir, o.dump_pattern, o.threads}, &outputs);
    std::cout << dumped.size() << " intermediate tensors -> " << o.dump_dir << " (index.json)\n";
  } else {
    outputs = session.run(feeds);
  }
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(o.output_dir, ec);
  if (ec || !fs::is_directory(o.output_dir))
    throw EdgeCompilerError(ErrorKind::Io, o.output_dir + ": cannot create the output directory");
  for (const auto& info : session.outputs()) {
    const runtime::Tensor& t = outputs.at(info.name);
    const std::string path = (fs::path(o.output_dir) / (file_name_for(info.name) + ".npy")).string();
    util::write_npy(path, t.dtype(), t.shape(), t.raw());
    std::cout << info.name << ": " << t.type_string() << " -> " << path << '\n';
  }
  return 0;
}

}  // namespace

Command add_run_command(CLI::App& app) {
  auto o = std::make_shared<RunOptions>();
  auto* cmd = app.add_subcommand("run", "Run a model on the CPU runtime; write each output as NAME.npy");
  cmd->add_option("model", o->model, model_help())->required();
  cmd->add_option("--input", o->inputs,
                  "NAME=FILE.npy, once per model input (without any: deterministic random data)");
  cmd->add_option("--output-dir", o->output_dir, "Directory for the NAME.npy outputs (default: .)");
  add_threads_option(cmd, o->threads);
  add_int8_nchw_flag(cmd, o->int8_nchw);
  cmd->add_option("--dump-intermediates", o->dump_dir,
                  "Also write every intermediate tensor here as NAME.npy (names made file-safe; index.json maps "
                  "each file to its tensor, op and quantisation)");
  cmd->add_option("--dump-intermediates-only", o->dump_pattern,
                  "With --dump-intermediates: only tensors whose name, op name or op type matches PATTERN "
                  "(a glob, or a substring)")
      ->needs("--dump-intermediates");
  return {cmd, [o] { return run_model(*o); }};
}

}  // namespace ec::cli
