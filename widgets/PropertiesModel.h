// A two-column (Property, Value) table describing one op of a frozen graph: its
// name, type and category, its attributes, and every input and output tensor
// with dtype and shape, producer and consumers (rows that link to another op
// answer TargetOpRole) and, for constants, min/max/mean/std.
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/ir/algorithms.h"
#include "core/ir/graph.h"

namespace ec::widgets {

class PropertiesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Property, Value, ColumnCount };

  explicit PropertiesModel(QObject* parent = nullptr);
  ~PropertiesModel() override;

  /// Shows nothing until showOp(); keeps the graph alive.
  void setGraph(ec::ir::FrozenGraph graph);
  const ec::ir::FrozenGraph& graph() const { return graph_; }
  /// Describes op `op` (index into Graph::ops); -1 clears.
  void showOp(int op);
  /// A section of rows shown under `heading` for each op, first after the op's
  /// own rows (e.g. its placement and reason after a compile): one list of
  /// (property, value) per op index; an op with an empty list shows no section.
  /// Empty `perOp` clears; setGraph() clears too.
  using Annotation = std::vector<std::pair<QString, QString>>;
  void setOpAnnotations(QString heading, std::vector<Annotation> perOp);
  int op() const { return op_; }
  /// Row whose KeyRole is `key` ("type", "attr.kernel_shape", "input.1.producer"), or -1.
  int rowForKey(const QString& key) const;
  /// True for section rows ("Attributes", "Inputs") whose label spans the row.
  bool isHeading(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  struct Row {
    QString key, property, value, toolTip;
    bool heading = false;
    int targetOp = -1;
    QString tensor;
    int indent = 0;
  };
  void buildRows();
  void addTensorRows(const QString& prefix, const QString& label, const std::string& name,
                     bool isInput);

  ec::ir::FrozenGraph graph_;
  std::unique_ptr<ec::ir::UseLists> uses_;
  int op_ = -1;
  std::vector<Row> rows_;
  QString annotationHeading_;
  std::vector<Annotation> annotations_;
};

}  // namespace ec::widgets
