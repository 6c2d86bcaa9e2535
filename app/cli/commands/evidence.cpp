#include "app/cli/commands/evidence.h"

#include <iostream>

#include "app/cli/commands/record.h"
#include "core/errors.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/history/run_store.h"
#include "core/render/html_report.h"
#include "core/util/atomic_file.h"
#include "core/util/json_text.h"

namespace ec::cli {

void add_evidence_options(CLI::App* cmd, EvidenceOptions& o) {
  cmd->add_option("--compile-report", o.compile_report, "A CompileReport (compile --report R.json): placement overlay, partition, timeline");
  cmd->add_option("--quant-report", o.quant_report, "A QuantReport (quantize --report Q.json): SQNR overlay and charts");
  auto* bench = cmd->add_option("--bench", o.bench, "A benchmark (bench --json > B.json): latency overlay, statistics, histogram");
  cmd->add_option("--run", o.run, "A bench or compile run of the history (edgecompile runs list)")->excludes(bench);
  add_runs_db_option(cmd, o.runs_db);
}

render::Evidence load_evidence(const ir::Graph& g, const EvidenceOptions& o) {
  render::Evidence e;
  if (!o.compile_report.empty()) {
    e.compile = render::read_report(o.compile_report, "--compile-report");
    e.compile_path = o.compile_report;
    render::check_report_matches(g, *e.compile, o.compile_report, "compile");
  }
  if (!o.quant_report.empty()) {
    e.quant = render::read_report(o.quant_report, "--quant-report");
    e.quant_path = o.quant_report;
    render::check_report_matches(g, *e.quant, o.quant_report, "quantisation");
  }
  if (!o.bench.empty()) {
    e.bench = render::read_report(o.bench, "--bench");
    e.bench_path = o.bench;
    render::check_report_matches(g, *e.bench, o.bench, "benchmark");
  }
  if (o.run != 0) {
    history::RunStore store(flows::runs_db_path(o.runs_db), history::RunStore::Access::ReadOnly);
    auto r = store.get(o.run);
    const std::string label = "run " + std::to_string(o.run);
    if (!r) throw EdgeCompilerError(ErrorKind::Input, "--run " + std::to_string(o.run) + ": no such run in " + store.path());
    nlohmann::json j = util::parse_json(r->report_json, label);
    if (r->kind == "compile") {
      if (!e.compile) {
        render::check_report_matches(g, j, label, "compile");
        e.compile = std::move(j);
        e.compile_path = label;
      }
    } else {
      render::check_report_matches(g, j, label, "benchmark");
      e.bench = std::move(j);
      e.bench_path = label;
    }
  }
  return e;
}

void check_html_output(const std::string& path) {
  if (path.empty()) return;
  const bool html = (path.size() >= 5 && path.compare(path.size() - 5, 5, ".html") == 0) ||
                    (path.size() >= 4 && path.compare(path.size() - 4, 4, ".htm") == 0);
  if (!html) throw EdgeCompilerError(ErrorKind::Usage, "--html " + path + ": name the report *.html");
  flows::check_writable(path, "--html");
}

void write_html_report(const std::string& path, const ir::Graph& g, const std::string& model_path,
                       const render::Evidence& evidence, std::ostream& say) {
  render::HtmlReportOptions ro;
  ro.model_path = model_path;
  const std::string html = render::make_html_report(g, evidence, ro);
  util::write_file_atomically(path, html);
  say << "wrote " << path << " (" << html.size() << " bytes, " << g.ops.size() << " ops)\n";
}

void write_html_report(const std::string& path, const std::string& model, const render::Evidence& evidence,
                       std::ostream& say) {
  const ir::Graph g = frontends::open_model(model);
  write_html_report(path, g, model, evidence, say);
}

}  // namespace ec::cli
