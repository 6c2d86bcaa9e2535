// The activation tensors a QuantReport quantised, one row each: tensor,
// producer, observed float range, clipping range, scale / zero point, share
// clipped and SQNR. Reads an immutable report; never a graph it could change.
#pragma once

#include <QAbstractTableModel>
#include <QHash>

#include "core/ir/graph.h"
#include "widgets/quant/QuantFormat.h"

namespace ec::widgets {

class QuantTensorModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Tensor, Producer, FloatRange, ClipRange, Scale, ZeroPoint, Clipped, Sqnr, ColumnCount };

  explicit QuantTensorModel(QObject* parent = nullptr);

  /// Shows `report` (null: empty). `graph` (optional), the float graph it was
  /// made from, gives TargetOpRole (the producer's op index).
  void setReport(QuantReportPtr report, ec::ir::FrozenGraph graph = {});
  const QuantReportPtr& report() const { return report_; }

  /// Row of tensor `name`, or -1.
  int rowForTensor(const QString& name) const;
  /// First row whose tensor op `opName` produces, or -1.
  int rowForProducer(const QString& opName) const;
  /// The tensor report of row `row`, or null.
  const ec::quantize::TensorReport* tensorAt(int row) const;

  /// Re-reads translated texts (on QEvent::LanguageChange).
  void retranslate();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QuantReportPtr report_;
  ec::ir::FrozenGraph graph_;
  QHash<QString, int> rowOf_;
  QHash<QString, int> rowOfProducer_;
  QHash<QString, int> opIndex_;
};

}  // namespace ec::widgets
