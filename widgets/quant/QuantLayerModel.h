// The quantised layers of a QuantReport, one row each, plus the ops left in
// float: op, type, output / weight / worst-channel SQNR, channels, sensitivity,
// and a "keep in float" check box. Reads an immutable report (the one
// `edgecompile quantize --json` prints); the check boxes are the only state it
// owns, and they survive setReport() so a re-quantised report keeps them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <QAbstractTableModel>
#include <QHash>
#include <QSet>
#include <QStringList>

#include "core/ir/graph.h"
#include "widgets/quant/QuantFormat.h"

namespace ec::widgets {

class QuantLayerModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns {
    KeepFloat,
    Op,
    Type,
    OutputSqnr,
    WeightSqnr,
    WorstChannel,
    Channels,
    Sensitivity,
    Status,
    ColumnCount
  };

  explicit QuantLayerModel(QObject* parent = nullptr);

  /// Shows `report` (null: empty). `graph` (optional) is the float graph it was
  /// made from: rows then follow its op order and answer TargetOpRole.
  void setReport(QuantReportPtr report, ec::ir::FrozenGraph graph = {});
  const QuantReportPtr& report() const { return report_; }

  /// Row of op `opName`, or -1.
  int rowForOp(const QString& opName) const;
  /// Op name of row `row` (the KeyRole).
  QString opAt(int row) const;
  /// The layer report of row `row`, or null for an op left in float.
  const ec::quantize::LayerReport* layerAt(int row) const;

  /// Ops the user marked "keep in float", in the order they were marked.
  QStringList keepFloat() const { return keepFloat_; }
  void setKeepFloat(const QStringList& ops);
  void setKeepFloat(const QString& op, bool keep);

  /// Re-reads translated texts (on QEvent::LanguageChange).
  void retranslate();

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 signals:
  /// The keep-float list changed (a check box was toggled).
  void keepFloatChanged(const QStringList& ops);

 private:
  struct Row {
    QString op;
    QString type;
    int opIndex = -1;                                   // in the graph, -1 without one
    const ec::quantize::LayerReport* layer = nullptr;   // null: an op left in float
    const ec::quantize::FloatOp* floatOp = nullptr;
    double worstChannelDb = 0;
    int worstChannel = -1;
  };

  QString toolTip(const Row& r) const;

  QuantReportPtr report_;
  ec::ir::FrozenGraph graph_;
  std::vector<Row> rows_;
  QHash<QString, int> rowOf_;
  QStringList keepFloat_;
};

}  // namespace ec::widgets
