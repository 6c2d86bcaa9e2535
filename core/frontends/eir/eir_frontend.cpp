#include "core/frontends/eir/eir_frontend.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string_view>

#include "core/errors.h"
#include "core/util/safe_file.h"
#include "core/ir/text_format.h"
#include "core/ir/validate.h"

namespace ec::frontends {
namespace {

bool starts_with_graph(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
    } else if (s.substr(i, 2) == "//") {
      const auto nl = s.find('\n', i);
      if (nl == std::string_view::npos) return false;
      i = nl + 1;
    } else {
      break;
    }
  }
  return s.substr(i, 7) == "graph \"";
}

}  // namespace

float EirFrontend::match(std::span<const std::byte> head, const std::string& path) const {
  const std::string_view text(reinterpret_cast<const char*>(head.data()), head.size());
  const bool ext = std::filesystem::path(path).extension() == ".eir";
  if (starts_with_graph(text)) return ext ? 1.0f : 0.9f;
  return ext ? 0.3f : 0.0f;
}

ir::Graph EirFrontend::open(const std::string& path, const OpenOptions& opts) const {
  const std::string text = util::read_regular_file(path, util::kMaxReadBytes, path);
  ir::Graph g;
  try {
    g = ir::parse(text);
  } catch (const GraphError& e) {
    throw FrontendError(path, e.what(), "eir");
  }
  for (const auto& issue : ir::validate(g)) {
    if (issue.severity == ir::ValidationIssue::Severity::Error)
      throw FrontendError(path, "invalid graph: " + ir::to_string(issue), "eir");
  }
  if (!opts.allow_unknown_ops)
    for (const auto& op : g.ops)
      if (!op.is_known())
        throw UnsupportedOpError(op.op_type, "edgecompiler's IR", "", path);
  return g;
}

std::unique_ptr<Frontend> make_eir_frontend() { return std::make_unique<EirFrontend>(); }

}  // namespace ec::frontends
