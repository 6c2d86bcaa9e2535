// `edgecompile inspect`: a model's summary (text or JSON) or its IR text form.
#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <string>

#include "app/cli/commands/commands.h"
#include "app/cli/commands/options.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "core/ir/text_format.h"
#include "core/report/compile_flow.h"
#include "core/report/model_summary.h"

namespace ec::cli {
namespace {

struct InspectOptions {
  std::string model;
  bool json = false;
  bool dump = false;
  bool dump_full = false;
  bool strict = false;
};

int inspect(const InspectOptions& o) {
  frontends::OpenOptions open;
  open.allow_unknown_ops = !o.strict;
  std::string format;
  const ir::Graph g = frontends::open_model(o.model, open, &format);
  if (o.dump || o.dump_full) {
    ir::PrintOptions p;
    if (!o.dump_full) p.elide_constants_above = 64;
    std::cout << ir::print(g, p);
    return 0;
  }
  if (o.json) {
    std::cout << flows::inspect_json(g, o.model, format).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  } else {
    std::cout << report::to_text(report::summarize(g, o.model, format));
    // A compiled artefact (an *_edgetpu.tflite) also shows the split its compiler recorded.
    const auto artefact = report::report_of_artefact(g, o.model);
    if (artefact) std::cout << "\nCompiled split recorded in the file:\n" << report::to_text(*artefact);
  }
  return 0;
}

}  // namespace

Command add_inspect_command(CLI::App& app) {
  auto o = std::make_shared<InspectOptions>();
  auto* cmd = app.add_subcommand("inspect", "Summarise a model: I/O, ops, parameters, MACs");
  cmd->add_option("model", o->model, model_help())->required();
  cmd->add_flag("--json", o->json, "Print the summary as JSON (docs/inspect-json.md)");
  auto* dump = cmd->add_flag("--dump", o->dump,
                             "Print the IR's text form (constants over 64 bytes elided)");
  cmd->add_flag("--dump-full", o->dump_full,
                "Print the IR's full text form, constants included (parses back)")
      ->excludes(dump);
  cmd->add_flag("--strict", o->strict,
                "Refuse ops the IR does not know instead of listing them");
  return {cmd, [o] { return inspect(*o); }};
}

}  // namespace ec::cli
