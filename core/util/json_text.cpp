#include "core/util/json_text.h"

#include <algorithm>

#include "core/errors.h"
#include "core/ir/excerpt.h"

namespace ec::util {

namespace {

// The depth of the deepest array/object in `text` (strings skipped), stopping early
// once it passes `limit`: O(n), no recursion.
int nesting_depth(std::string_view text, int limit) {
  int depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') --depth;
  }
  return deepest;
}

// nlohmann's what() without its "[json.exception.x.y] " prefix, cut short.
std::string reason_of(const nlohmann::json::exception& e) {
  std::string w = e.what();
  if (const auto at = w.find("] "); w.rfind("[json.exception", 0) == 0 && at != std::string::npos) w.erase(0, at + 2);
  return excerpt(w, 160);
}

}  // namespace

bool json_too_deep(std::string_view text, int max_depth) { return nesting_depth(text, max_depth) > max_depth; }

nlohmann::json parse_json(std::string_view text, std::string_view what, int max_depth) {
  if (nesting_depth(text, max_depth) > max_depth)
    throw EdgeCompilerError(ErrorKind::Io, std::string(what) + ": not JSON this tool reads: nested deeper than " +
                                               std::to_string(max_depth) + " levels");
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::out_of_range& e) {
    throw EdgeCompilerError(ErrorKind::Io, std::string(what) + ": not JSON this tool reads: " + reason_of(e));
  } catch (const nlohmann::json::exception& e) {
    throw EdgeCompilerError(ErrorKind::Io, std::string(what) + ": not JSON: " + reason_of(e));
  }
}

std::string dump_json(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string json_excerpt(const nlohmann::json& j) { return excerpt(dump_json(j)); }

}  // namespace ec::util
