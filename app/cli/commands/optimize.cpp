// `edgecompile optimize`: runs the default pipeline (or --passes) and prints,
// per pass, its time, its statistics and with --diff the ops it added, removed
// and changed. --json prints the whole report (docs/optimize-json.md);
// --output writes the optimised IR text atomically (temp file, then rename).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "app/cli/commands/text_util.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/passes/pass_manager.h"
#include "core/util/atomic_file.h"
#include "core/passes/pass_registry.h"

namespace ec::cli {
namespace {

struct OptimizeOptions {
  std::string model;
  std::string passes;  // comma-separated; empty = default pipeline
  bool diff = false;
  bool json = false;
  bool list = false;
  std::string output;
};

std::string op_line(const passes::OpRef& r) {
  std::string s;
  for (std::size_t k = 0; k < r.outputs.size(); ++k) s += (k ? ", %" : "%") + r.outputs[k];
  s += (r.outputs.empty() ? "() = " : " = ") + r.op_type + "(";
  for (std::size_t k = 0; k < r.inputs.size(); ++k) s += (k ? ", %" : "%") + r.inputs[k];
  s += ")";
  if (!r.name.empty()) s += " @\"" + r.name + "\"";
  return s;
}

std::string names(const std::vector<std::string>& v) {
  std::string s = "(";
  for (std::size_t k = 0; k < v.size(); ++k) s += (k ? ", %" : "%") + v[k];
  return s + ")";
}

void print_diff(const passes::GraphDiff& d) {
  for (const auto& r : d.removed) std::cout << "      - " << op_line(r) << '\n';
  for (const auto& r : d.added) std::cout << "      + " << op_line(r) << '\n';
  for (const auto& c : d.changed) {
    std::cout << "      ~ " << op_line(c.after) << '\n';
    for (const auto& a : c.attributes)
      std::cout << "          " << a.key << ": "
                << (a.before ? passes::format_attribute(*a.before) : std::string("(absent)")) << " -> "
                << (a.after ? passes::format_attribute(*a.after) : std::string("(absent)")) << '\n';
    if (c.inputs_changed)
      std::cout << "          inputs: " << names(c.before.inputs) << " -> " << names(c.after.inputs) << '\n';
    if (c.outputs_changed)
      std::cout << "          outputs: " << names(c.before.outputs) << " -> " << names(c.after.outputs) << '\n';
    if (c.before.op_type != c.after.op_type)
      std::cout << "          op: " << c.before.op_type << " -> " << c.after.op_type << '\n';
  }
  auto consts = [](const char* what, const std::vector<std::string>& v) {
    if (v.empty()) return;
    std::cout << "      constants " << what << ": " << v.size();
    for (std::size_t k = 0; k < v.size() && k < 8; ++k) std::cout << (k ? ", %" : " (%") << v[k];
    std::cout << (v.size() > 8 ? ", ...)" : ")") << '\n';
  };
  consts("added", d.constants_added);
  consts("removed", d.constants_removed);
  consts("changed", d.constants_changed);
}

int list_passes() {
  std::size_t width = 0;
  for (const auto& e : passes::pass_table()) width = std::max(width, e.name.size());
  const auto pipeline = passes::default_pipeline();
  for (const auto& e : passes::pass_table())
    std::cout << std::left << std::setw(static_cast<int>(width + 2)) << e.name << e.summary << '\n';
  std::cout << "\ndefault pipeline: ";
  for (std::size_t k = 0; k < pipeline.size(); ++k) std::cout << (k ? ", " : "") << pipeline[k];
  std::cout << '\n';
  if (!passes::runtime_supports_fused_activation())
    std::cout << "(FuseActivation is left out: the CPU runtime does not honour fused_activation yet)\n";
  return 0;
}

int run_optimize(const OptimizeOptions& o) {
  if (o.list) return list_passes();
  if (o.model.empty())
    throw EdgeCompilerError(ErrorKind::Usage, "optimize needs a MODEL (or --list)");
  const auto out = flows::optimize({o.model}, o.passes.empty() ? std::nullopt : std::optional(split_list(o.passes)),
                                   o.diff || o.json, o.output);
  const auto& report = out.report;
  if (o.json) {
    nlohmann::json j = out.json;
    if (!o.diff)
      for (auto& p : j["passes"]) p.erase("diff");
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  const auto before = static_cast<double>(report.ops_before), after = static_cast<double>(report.ops_after);
  std::cout << o.model << ": " << report.ops_before << " ops -> " << report.ops_after << " ops";
  if (report.ops_before)
    std::cout << " (" << (after <= before ? "-" : "+") << fixed(100.0 * std::abs(before - after) / before, 1) << "%)";
  std::cout << " in " << fixed(report.milliseconds, 2) << " ms\n";
  for (const auto& p : report.passes) {
    std::cout << "  " << std::left << std::setw(32) << p.pass << std::right << std::setw(9)
              << fixed(p.milliseconds, 2) << " ms  " << p.ops_before << " -> " << p.ops_after << " ops\n";
    bool any = false;
    for (const auto& s : p.statistics)
      if (s.value) std::cout << "      " << s.value << ' ' << s.label << '\n', any = true;
    if (!any) std::cout << "      (no change)\n";
    for (const auto& d : p.diagnostics)
      std::cout << "      " << (d.severity == passes::Diagnostic::Severity::Warning ? "warning: " : "note: ")
                << (d.op.empty() ? "" : d.op + ": ") << d.message << '\n';
    if (o.diff) print_diff(p.diff);
  }
  if (!o.output.empty()) std::cout << "wrote " << o.output << '\n';
  return 0;
}

}  // namespace

Command add_optimize_command(CLI::App& app) {
  auto o = std::make_shared<OptimizeOptions>();
  auto* cmd = app.add_subcommand("optimize", "Run optimisation passes and show what each changed");
  cmd->add_option("model", o->model, model_help());
  cmd->add_option("--passes", o->passes, "Comma-separated passes to run in order (default: the default pipeline)");
  cmd->add_flag("--diff", o->diff, "Show the ops each pass added, removed and changed");
  cmd->add_flag("--json", o->json, "Print the report as JSON (docs/optimize-json.md)");
  cmd->add_option("--output", o->output, "Write the optimised graph here: IR text (.eir) or ONNX (.onnx)");
  cmd->add_flag("--list", o->list, "List every pass with its summary, and the default pipeline");
  return {cmd, [o] { return run_optimize(*o); }};
}

}  // namespace ec::cli
