// JSON from files that may be hostile (devices.json, stored runs, Manifest.json):
// parsed with a nesting bound (checked before the parser runs, so neither the parser
// nor a later dump recurses 100k levels deep), every parser failure turned into one
// short line, and dumped with invalid UTF-8 replaced instead of thrown.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ec::util {

/// Deepest nesting of arrays and objects parse_json accepts.
constexpr int kMaxJsonDepth = 64;

/// Parses `text`. Throws EdgeCompilerError (kind Io) "`what`: not JSON: <reason>" for a
/// syntax error, nesting deeper than `max_depth`, or a number out of range (1e400);
/// the reason quotes at most a short excerpt of the text.
nlohmann::json parse_json(std::string_view text, std::string_view what, int max_depth = kMaxJsonDepth);

/// True when arrays/objects in `text` nest deeper than `max_depth` (strings skipped;
/// O(n), no recursion): such text must not reach the parser or a dump.
bool json_too_deep(std::string_view text, int max_depth = kMaxJsonDepth);

/// j.dump(indent) with invalid UTF-8 replaced by U+FFFD (never throws on strings
/// that came from a file).
std::string dump_json(const nlohmann::json& j, int indent = -1);

/// A JSON value made fit to quote in a message: dumped, then cut by excerpt().
std::string json_excerpt(const nlohmann::json& j);

}  // namespace ec::util
