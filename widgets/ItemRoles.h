// Item-data roles shared by every ecwidgets model, so views, proxies and tests
// can ask any model the same questions.
#pragma once

#include <Qt>

namespace ec::widgets {

enum ItemRole : int {
  /// Untranslated, stable identifier of a row ("op_count", "input.0"): tests
  /// and scripts look rows up by key, never by their (translated) label.
  KeyRole = Qt::UserRole + 1,
  /// Value to sort by (a number where the display text is formatted).
  SortRole,
  /// Index (into Graph::ops) of the op a row links to: activating the row jumps
  /// there. Invalid for rows that link nowhere.
  TargetOpRole,
  /// Name of the tensor a row is about (for rows describing a tensor).
  TensorNameRole,
};

}  // namespace ec::widgets
