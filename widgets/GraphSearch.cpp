#include "widgets/GraphSearch.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace ec::widgets {
namespace {
// ASCII case folding is enough: IR names are identifiers and paths.
bool containsFolded(const std::string& haystack, const std::string& needle) {
  const auto it =
      std::search(haystack.begin(), haystack.end(), needle.begin(), needle.end(),
                  [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
  return it != haystack.end();
}
}  // namespace

std::vector<int> findOps(const ec::ir::Graph& graph, const QString& text) {
  std::vector<int> found;
  std::string needle = text.trimmed().toStdString();
  if (needle.empty()) return found;
  std::transform(needle.begin(), needle.end(), needle.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  for (std::size_t i = 0; i < graph.ops.size(); ++i) {
    const auto& op = graph.ops[i];
    bool hit = containsFolded(op.name, needle) || containsFolded(op.op_type, needle);
    for (const auto& t : op.inputs) hit = hit || containsFolded(t, needle);
    for (const auto& t : op.outputs) hit = hit || containsFolded(t, needle);
    if (hit) found.push_back(int(i));
  }
  return found;
}

}  // namespace ec::widgets
