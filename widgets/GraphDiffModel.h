// The changes between two graph snapshots (an ec::passes::GraphDiff), one row
// per op: removed ops first (in the before graph's order), then added ops,
// then changed ops (both in the after graph's order). Changed rows say what
// changed (attributes, inputs, outputs) with the before and after values.
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>
#include <QStringList>

#include "core/passes/graph_diff.h"
#include "widgets/ItemRoles.h"

namespace ec::widgets {

class GraphDiffModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Change, Name, Type, Details, Before, After, ColumnCount };
  enum class Kind { Removed, Added, Changed };
  enum Roles {
    /// int(Kind) of the row.
    ChangeKindRole = TensorNameRole + 32,
    /// Index of the op in the before snapshot, or -1 (added ops).
    BeforeOpRole,
    /// Index of the op in the after snapshot, or -1 (removed ops).
    AfterOpRole,
    /// The op's name (in the snapshot where the row's TargetOpRole points).
    OpNameRole,
  };

  explicit GraphDiffModel(QObject* parent = nullptr);

  /// Shows `diff` (null: empty model).
  void setDiff(std::shared_ptr<const ec::passes::GraphDiff> diff);
  const std::shared_ptr<const ec::passes::GraphDiff>& diff() const { return diff_; }

  /// Highlight colour of a kind of change, shared by the table and the graph view.
  static QColor colorFor(Kind kind);
  /// Translated name of a kind ("removed").
  static QString kindName(Kind kind);

  Kind kindAt(int row) const { return rows_[std::size_t(row)].kind; }
  /// Row whose KeyRole is `key` ("removed:/stem/bn/BatchNormalization"), or -1.
  int rowForKey(const QString& key) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    Kind kind;
    const ec::passes::OpRef* before = nullptr;  // removed, changed
    const ec::passes::OpRef* after = nullptr;   // added, changed
    const ec::passes::OpChange* change = nullptr;
    QString key, details, beforeText, afterText;
  };
  const ec::passes::OpRef& target(const Row& row) const;
  QString toolTip(const Row& row) const;

  std::shared_ptr<const ec::passes::GraphDiff> diff_;
  std::vector<Row> rows_;
};

}  // namespace ec::widgets
