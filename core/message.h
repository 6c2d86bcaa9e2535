// A message for the user as an id with arguments, beside its English text.
//
// The core has no translations (and no Qt): what it says to a user (a pass's
// statistics, why an op runs where it runs) it says as a stable id and the values
// that fill it, next to the English sentence the CLI and the JSON print. A face that
// speaks other languages (the workbench) looks the id up in its own translated
// table and fills in the arguments; an id it does not know falls back to `text`.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ec {

struct Message {
  /// Stable and dotted, by producer: "pass.CSE.ops_merged", "coral.after_unsupported".
  /// Never changes its meaning or its arguments; a new wording gets a new id.
  std::string id;
  /// The values the text is made of, in order (a translation's %1, %2, ...).
  std::vector<std::string> args;
  /// The English sentence (CLI, JSON, logs).
  std::string text;

  bool empty() const { return id.empty(); }
};

/// A message: `id`, its arguments and its English `text`.
inline Message message(std::string id, std::vector<std::string> args, std::string text) {
  return Message{std::move(id), std::move(args), std::move(text)};
}

/// A message that says `inner` within a sentence of its own (`id`'s text has one
/// place for it): the arguments are inner's id, then inner's arguments.
inline Message wrap(std::string id, const Message& inner, std::string text) {
  std::vector<std::string> args{inner.id};
  args.insert(args.end(), inner.args.begin(), inner.args.end());
  return Message{std::move(id), std::move(args), std::move(text)};
}

}  // namespace ec
