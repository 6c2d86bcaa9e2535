// The graph's operations in topological order, one row each (index, name,
// type, output dtype/shape, input and output tensor names). The stand-in central view until
// the graph view lands; it keeps the frozen graph alive while it shows it.
#pragma once

#include <QAbstractTableModel>

#include "core/ir/graph.h"

namespace ec::widgets {

class OperationListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  /// OutputTypes is "f32[1,16,32,32]" per output: the shape flow at a glance,
  /// without the (often long, generated) output tensor names.
  enum Columns { Index, Name, Type, OutputTypes, Inputs, Outputs, ColumnCount };

  explicit OperationListModel(QObject* parent = nullptr);

  /// Shows `graph` (may be null: empty model).
  void setGraph(ec::ir::FrozenGraph graph);
  const ec::ir::FrozenGraph& graph() const { return graph_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  enum class TensorText { Name, Type, NameAndType };
  QString tensorList(const std::vector<std::string>& names, TensorText what) const;

  ec::ir::FrozenGraph graph_;
};

}  // namespace ec::widgets
