// The single-file HTML report (issue 41): the model summary, the graph laid out as
// the workbench lays it out (scenes at several expansion states, so groups expand
// and collapse with real layouts), every overlay the evidence allows, the partition
// table and backend timeline of a CompileReport, the quantisation charts of a
// QuantReport, a benchmark's statistics and histogram. One file: the page's HTML, CSS
// and script (core/render/templates/) and the data inline; nothing is fetched.
#pragma once

#include <string>

#include "core/ir/graph.h"
#include "core/render/overlay.h"

namespace ec::render {

struct HtmlReportOptions {
  std::string model_path;  ///< shown in the summary
  /// Graphs with more ops than this embed two scenes (the first view and everything
  /// expanded) instead of one per nesting depth, to keep the file small.
  std::size_t all_depths_max_ops = 2500;
};

/// The report as one HTML document. Evidence reports must match `g` (checked by the
/// caller with check_report_matches).
std::string make_html_report(const ir::Graph& g, const Evidence& evidence, const HtmlReportOptions& options = {});

}  // namespace ec::render
