// `edgecompile quantize`: float model -> int8 graph (docs/QUANTISATION.md) and a
// QuantReport. Prints the model's output SQNR, the worst tensors and layers, the
// ops left in float; --json prints the whole report (docs/quantize-json.md),
// --report writes it to a file, --output writes the int8 graph's IR text
// atomically. Bad input: one line naming the file/tensor/op, exit 1, no output.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/evidence.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/text_util.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/quantize/calibration_data.h"
#include "core/quantize/quantizer.h"
#include "core/quantize/report_json.h"
#include "core/util/atomic_file.h"

namespace ec::cli {
namespace {

struct QuantizeCliOptions {
  std::string model;
  flows::QuantizeOptions flow;  // strategy, samples, percentile, int8 I/O, sensitivity, threads, --output
  bool per_channel = false, per_tensor = false;
  std::string keep_float;
  std::string report_path;
  std::string html;  // --html: the single-file report (app/cli/commands/evidence.h)
  bool json = false;
};

// Progress on stderr when it is a terminal (never in pipes or logs): one bar per
// stage, rewritten in place at most once a percent, cleared when the stage ends:
//   calibrate   [##############----------------]  47/100
quantize::ProgressFn make_progress() {
  if (!isatty(STDERR_FILENO)) return {};
  return [last = -1](const std::string& stage, int done, int total) mutable {
    constexpr int kWidth = 30;
    const int filled = total > 0 ? static_cast<int>(static_cast<long long>(kWidth) * done / total) : kWidth;
    const int percent = total > 0 ? static_cast<int>(100LL * done / total) : 100;
    if (percent == last && done != total && done != 0) return true;
    last = percent;
    std::string line = "\r" + stage + std::string(stage.size() < 12 ? 12 - stage.size() : 1, ' ') + "[" +
                       std::string(static_cast<std::size_t>(filled), '#') +
                       std::string(static_cast<std::size_t>(kWidth - filled), '-') + "] " + std::to_string(done) + "/" +
                       std::to_string(total);
    std::cerr << line << std::flush;
    if (done == total) {
      std::cerr << "\r" << std::string(line.size(), ' ') << "\r" << std::flush;
      last = -1;
    }
    return true;
  };
}

void print_report(const quantize::QuantReport& r, const std::string& model) {
  std::cout << model << ": " << r.strategy << ", weights " << (r.per_channel ? "per channel" : "per tensor");
  if (r.calibration_samples)
    std::cout << ", " << r.calibration_samples << " calibration samples ("
              << (r.calibration_percentile >= 100 ? std::string("min/max") : fixed(r.calibration_percentile, 3) + " percentile")
              << ", " << fixed(r.calibration_seconds, 2) << " s)";
  std::cout << '\n';
  if (!r.data_source.empty()) std::cout << "  data: " << r.data_source << '\n';
  // Figures measured by running the int8 graph on the CPU runtime; none is invented.
  for (const auto& o : r.outputs) {
    if (!o.measured()) {
      std::cout << "  output " << o.output
                << ": SQNR not measured (no data; give --calibration-data to measure it)\n";
      continue;
    }
    std::cout << "  output " << o.output << ": SQNR " << fixed(*o.sqnr_db, 2) << " dB, max abs error "
              << *o.max_abs_error << ", top-1 agreement " << fixed(100 * *o.top1_agreement, 1) << "% (int8 graph run on "
              << r.measured_samples << (r.measured_samples == 1 ? " sample" : " samples") << ")\n";
  }
  std::cout << "  " << r.tensors.size() << " tensors int8, " << r.layers.size() << " layers with int8 weights, "
            << r.float_ops.size() << (r.float_ops.size() == 1 ? " op" : " ops") << " in float\n";
  std::vector<const quantize::TensorReport*> worst;
  for (const auto& t : r.tensors)
    if (!std::isnan(t.sqnr_db)) worst.push_back(&t);
  std::sort(worst.begin(), worst.end(), [](auto* a, auto* b) { return a->sqnr_db < b->sqnr_db; });
  if (!worst.empty()) {
    std::cout << "  lowest tensor SQNR:\n";
    for (std::size_t k = 0; k < worst.size() && k < 5; ++k)
      std::cout << "    " << std::setw(7) << fixed(worst[k]->sqnr_db, 2) << " dB  " << worst[k]->tensor << "  scale "
                << worst[k]->params.scales.at(0) << " zp " << worst[k]->params.zero_points.at(0) << ", clipped "
                << fixed(100 * worst[k]->clip_fraction, 3) << "%\n";
  }
  std::vector<const quantize::LayerReport*> sens;
  for (const auto& l : r.layers)
    if (l.sensitivity_gain_db) sens.push_back(&l);
  std::sort(sens.begin(), sens.end(), [](auto* a, auto* b) { return *a->sensitivity_gain_db > *b->sensitivity_gain_db; });
  if (!sens.empty()) {
    std::cout << "  sensitivity (output SQNR gained by keeping one layer in float):\n";
    for (std::size_t k = 0; k < sens.size() && k < 10; ++k)
      std::cout << "    " << std::setw(7) << fixed(*sens[k]->sensitivity_gain_db, 2) << " dB  " << sens[k]->op << '\n';
  }
  for (const auto& f : r.float_ops) std::cout << "  float: " << f.op << " (" << f.op_type << "): " << f.reason << '\n';
  for (const auto& w : r.warnings) std::cout << "  warning: " << w << '\n';
}

int run_quantize(const QuantizeCliOptions& o) {
  if (o.model.empty()) throw EdgeCompilerError(ErrorKind::Usage, "quantize needs a MODEL");
  if (o.per_channel && o.per_tensor) throw EdgeCompilerError(ErrorKind::Usage, "--per-channel and --per-tensor exclude each other");
  flows::QuantizeOptions q = o.flow;
  q.options.per_channel = !o.per_tensor;
  q.options.keep_float = split_list(o.keep_float);
  check_html_output(o.html);
  const auto out = flows::quantize({o.model}, q, make_progress());
  const auto& j = out.report;
  if (!o.report_path.empty()) util::write_file_atomically(o.report_path, j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  if (!o.html.empty()) {
    render::Evidence ev;
    ev.quant = j;
    ev.quant_path = "quantize";
    write_html_report(o.html, o.model, ev, o.json ? std::cerr : std::cout);
  }
  if (o.json) {
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  print_report(out.result.report, o.model);
  if (!q.output.empty()) std::cout << "wrote " << q.output << '\n';
  if (!o.report_path.empty()) std::cout << "wrote " << o.report_path << '\n';
  return 0;
}

}  // namespace

Command add_quantize_command(CLI::App& app) {
  auto o = std::make_shared<QuantizeCliOptions>();
  auto* cmd = app.add_subcommand("quantize", "Quantise a model to int8 and report where precision is lost");
  cmd->add_option("model", o->model, model_help());
  cmd->add_option("--strategy", o->flow.options.strategy, "ptq (calibrate), qat (use the model's QDQ scales) or dynamic (weights only)");
  cmd->add_option("--calibration-data", o->flow.calibration.path,
                  "Samples: a .npy of shape (N, ...) for a single-input model, or a directory of NAME.npy per input");
  cmd->add_option("--num-calibration-samples", o->flow.options.num_calibration_samples, "Use at most this many samples (default 100)")
      ->check(whole_number_at_least(1));
  cmd->add_option("--calibration-percentile", o->flow.options.calibration_percentile,
                  "Activation range: this percentile of |x| (default 100 = min/max)")
      ->check(number_in(0, 100, "a percentile above 0 and at most 100"));
  cmd->add_flag("--per-channel", o->per_channel, "Weights per output channel (the default)");
  cmd->add_flag("--per-tensor", o->per_tensor, "Weights per tensor");
  cmd->add_option("--keep-float", o->keep_float, "Comma-separated op names or op types to leave in float");
  cmd->add_flag("--int8-io", o->flow.options.int8_io, "Graph inputs and outputs in int8 (no Quantize/Dequantize at the edges)");
  cmd->add_flag("--sensitivity", o->flow.options.sensitivity, "Rank layers by the output SQNR gained when each alone stays float");
  cmd->add_option("--report", o->report_path, "Write the report as JSON here");
  cmd->add_option("--html", o->html, "Also write a single-file HTML report (graph coloured by SQNR, per-layer and per-channel charts)");
  cmd->add_flag("--json", o->json, "Print the report as JSON (docs/quantize-json.md)");
  cmd->add_option("--output", o->flow.output, "Write the quantised graph here: IR text (.eir) or ONNX with QuantizeLinear/DequantizeLinear pairs (.onnx)");
  add_threads_option(cmd, o->flow.options.threads, "CPU threads for calibration");
  return {cmd, [o] { return run_quantize(*o); }};
}

}  // namespace ec::cli
