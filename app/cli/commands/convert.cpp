// `edgecompile convert MODEL --output OUT.tflite [--nhwc-io] [--int8-io]`:
// any model the IR holds -> a .tflite a TensorFlow Lite interpreter runs
// (core/backends/tflite); `--output OUT.onnx`: the graph as ONNX (core/backends/onnx), both
// through flows::serialise_model, as the workbench's File › Export › Model writes them. The
// file is written atomically and only after the whole graph was serialised, so an op with
// no TFLite form leaves nothing.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands/commands.h"
#include "core/backends/tflite/tflite_writer.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct ConvertOptions {
  std::string model;
  std::string output;
  bool nhwc_io = false;
  bool int8_io = false;
};

int run_convert(const ConvertOptions& o) {
  if (o.output.empty()) throw EdgeCompilerError(ErrorKind::Usage, "convert needs --output OUT.tflite or OUT.onnx");
  const auto ext = std::filesystem::path(o.output).extension();
  if (ext != ".tflite" && ext != ".onnx")
    throw EdgeCompilerError(ErrorKind::Usage, "--output '" + o.output + "' must end in .tflite or .onnx");
  if (ext == ".onnx" && (o.nhwc_io || o.int8_io))
    throw EdgeCompilerError(ErrorKind::Usage, "--nhwc-io and --int8-io are for .tflite outputs");
  backends::tflite::TfliteWriteOptions wo;
  wo.nhwc_io = o.nhwc_io;
  wo.int8_io = o.int8_io;
  std::size_t ops = 0;
  const std::string bytes = flows::serialise_model(frontends::open_model(o.model), o.output, wo, &ops);
  util::write_file_atomically(o.output, bytes);
  std::cout << "wrote " << o.output << " (" << bytes.size() << " bytes, " << ops << " IR ops)\n";
  return 0;
}

}  // namespace

Command add_convert_command(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  auto* cmd = app.add_subcommand("convert", "Write a model as TensorFlow Lite (.tflite) or ONNX (.onnx)");
  cmd->add_option("model", o->model, "Model file (.onnx, .eir, .tflite)")->required();
  cmd->add_option("--output", o->output, "The .tflite or .onnx to write")->required();
  cmd->add_flag("--nhwc-io", o->nhwc_io, "Image inputs in NHWC (no TRANSPOSE at the model's inputs)");
  cmd->add_flag("--int8-io", o->int8_io, "A quantised model keeps int8 inputs and outputs (no QUANTIZE/DEQUANTIZE)");
  return {cmd, [o] { return run_convert(*o); }};
}

}  // namespace ec::cli
