// What `draw` and `report` (and `--html` on compile / quantize / bench) read besides
// the model: a CompileReport, a QuantReport, a benchmark (a file, or a run of the
// history), each checked to belong to the model; and the one way the HTML report
// is written.
#pragma once

#include <CLI/CLI.hpp>

#include <cstdint>
#include <ostream>
#include <string>

#include "core/ir/graph.h"
#include "core/render/overlay.h"

namespace ec::cli {

struct EvidenceOptions {
  std::string compile_report, quant_report, bench;
  std::int64_t run = 0;  // --run ID (0: none)
  std::string runs_db;
};

/// --compile-report, --quant-report, --bench and --run (with --runs-db).
void add_evidence_options(CLI::App* cmd, EvidenceOptions& o);

/// Reads and checks the reports (one line naming the file when one is unreadable,
/// not a report, or of another model).
render::Evidence load_evidence(const ir::Graph& g, const EvidenceOptions& o);

/// Refuses (before any work) an --html path not named *.html or in a directory that
/// cannot be written.
void check_html_output(const std::string& path);

/// Writes the HTML report of `g` atomically and says so on `say`.
void write_html_report(const std::string& path, const ir::Graph& g, const std::string& model_path,
                       const render::Evidence& evidence, std::ostream& say);
/// `--html`: the report of `model` (opened again, as the user gave it) with `evidence`.
void write_html_report(const std::string& path, const std::string& model, const render::Evidence& evidence,
                       std::ostream& say);

}  // namespace ec::cli
