// Any table of the workbench as CSV (File › Export › Current Table as CSV…, and a
// table's context menu): the texts a view shows, one header row, RFC 4180 quoting.
#pragma once

#include <QString>

class QAbstractItemModel;
class QAbstractItemView;

namespace ec::widgets {

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
/// leading/trailing blanks, with quotes doubled.
QString csvField(const QString& text);

/// `model` as CSV: a header row of its horizontal headers, then every row's display
/// texts (a tree's children right after their parent, depth first), CRLF line ends.
/// With `view`, in the view's order (a sorting proxy is the view's model) and without
/// the columns the view hides.
QString tableToCsv(const QAbstractItemModel& model, const QAbstractItemView* view = nullptr);

/// The rows tableToCsv() writes (every row of a tree, depth first).
int csvRowCount(const QAbstractItemModel& model);

/// Writes tableToCsv() of `view`'s model to `path` (UTF-8) through a temporary file
/// renamed at the end, so a failure leaves no half-written file; false and `error`
/// (one line naming the file) when it cannot be written.
bool writeTableCsv(const QAbstractItemView& view, const QString& path, QString* error);

}  // namespace ec::widgets
