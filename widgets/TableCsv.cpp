#include "widgets/TableCsv.h"

#include <algorithm>
#include <functional>

#include <QAbstractItemModel>
#include <QCoreApplication>
#include <QHeaderView>
#include <QSaveFile>
#include <QTableView>
#include <QTreeView>

namespace ec::widgets {
namespace {

bool columnHidden(const QAbstractItemView* view, int column) {
  if (const auto* tree = qobject_cast<const QTreeView*>(view)) return tree->isColumnHidden(column);
  if (const auto* table = qobject_cast<const QTableView*>(view)) return table->isColumnHidden(column);
  return false;
}

// The columns written, in the order the view shows them (a moved header section moves them).
QList<int> columnsOf(const QAbstractItemModel& model, const QAbstractItemView* view) {
  QList<int> columns;
  for (int c = 0; c < model.columnCount(); ++c) {
    if (!columnHidden(view, c)) columns << c;
  }
  const QHeaderView* header = nullptr;
  if (const auto* tree = qobject_cast<const QTreeView*>(view)) header = tree->header();
  if (const auto* table = qobject_cast<const QTableView*>(view)) header = table->horizontalHeader();
  if (header && header->count() == model.columnCount()) {
    std::stable_sort(columns.begin(), columns.end(),
                     [header](int a, int b) { return header->visualIndex(a) < header->visualIndex(b); });
  }
  return columns;
}

void forEachRow(const QAbstractItemModel& model, const QModelIndex& parent,
                const std::function<void(int, const QModelIndex&)>& row) {
  for (int r = 0; r < model.rowCount(parent); ++r) {
    row(r, parent);
    const QModelIndex first = model.index(r, 0, parent);
    if (model.hasChildren(first)) forEachRow(model, first, row);
  }
}

}  // namespace

QString csvField(const QString& text) {
  const bool quote = text.contains(QLatin1Char(',')) || text.contains(QLatin1Char('"')) ||
                     text.contains(QLatin1Char('\n')) || text.contains(QLatin1Char('\r')) ||
                     (!text.isEmpty() && (text.front().isSpace() || text.back().isSpace()));
  if (!quote) return text;
  QString doubled = text;
  doubled.replace(QLatin1Char('"'), QLatin1String("\"\""));
  return QLatin1Char('"') + doubled + QLatin1Char('"');
}

QString tableToCsv(const QAbstractItemModel& model, const QAbstractItemView* view) {
  const QList<int> columns = columnsOf(model, view);
  const QLatin1String eol("\r\n");
  QString out;
  QStringList fields;
  for (int c : columns) fields << csvField(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
  out += fields.join(QLatin1Char(',')) + eol;
  forEachRow(model, QModelIndex(), [&](int r, const QModelIndex& parent) {
    fields.clear();
    for (int c : columns) fields << csvField(model.index(r, c, parent).data(Qt::DisplayRole).toString());
    out += fields.join(QLatin1Char(',')) + eol;
  });
  return out;
}

int csvRowCount(const QAbstractItemModel& model) {
  int rows = 0;
  forEachRow(model, QModelIndex(), [&rows](int, const QModelIndex&) { ++rows; });
  return rows;
}

bool writeTableCsv(const QAbstractItemView& view, const QString& path, QString* error) {
  const QAbstractItemModel* model = view.model();
  if (!model) {
    if (error) *error = QCoreApplication::translate("ec::widgets::TableCsv", "%1: the table has no data").arg(path);
    return false;
  }
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return false;
  }
  file.write(tableToCsv(*model, &view).toUtf8());
  if (!file.commit()) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

}  // namespace ec::widgets
