// `edgecompile report MODEL [--compile-report R.json] [--quant-report Q.json]
//  [--bench B.json | --run ID] --html out.html`: one self-contained HTML file with the
// model summary, the graph and its overlays, the partition, timeline, quantisation
// and benchmark views (core/render/html_report.h).
#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/evidence.h"
#include "core/frontends/frontend.h"

namespace ec::cli {
namespace {

struct ReportOptions {
  std::string model, html;
  EvidenceOptions evidence;
};

int run_report(const ReportOptions& o) {
  check_html_output(o.html);
  const ir::Graph g = frontends::open_model(o.model);
  const render::Evidence ev = load_evidence(g, o.evidence);
  write_html_report(o.html, g, o.model, ev, std::cout);
  return 0;
}

}  // namespace

Command add_report_command(CLI::App& app) {
  auto o = std::make_shared<ReportOptions>();
  auto* cmd = app.add_subcommand("report", "Write a single-file HTML report of a model and what the compiler did");
  cmd->add_option("model", o->model, "Model file")->required();
  cmd->add_option("--html", o->html, "The HTML file to write")->required();
  add_evidence_options(cmd, o->evidence);
  return {cmd, [o] { return run_report(*o); }};
}

}  // namespace ec::cli
