// The passes that ran in an optimisation pipeline, one row each: position,
// name, time, op count before -> after, and the statistics the pass reported.
// Reads an immutable PipelineReport (the one `edgecompile optimize --json`
// prints); never a mutable graph.
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QStringList>

#include "core/passes/pass_manager.h"

namespace ec::widgets {

class PassListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Index, Pass, Time, Ops, Statistics, ColumnCount };

  explicit PassListModel(QObject* parent = nullptr);

  /// Shows `report` (null: empty model).
  void setReport(std::shared_ptr<const ec::passes::PipelineReport> report);
  const std::shared_ptr<const ec::passes::PipelineReport>& report() const { return report_; }

  /// Row whose KeyRole is `key` ("OpFusion", "ConstantFolding#2" for a pass's second run), or -1.
  int rowForKey(const QString& key) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QString statisticsText(const ec::passes::PassRecord& r) const;
  QString toolTip(const ec::passes::PassRecord& r) const;

  std::shared_ptr<const ec::passes::PipelineReport> report_;
  QStringList keys_;
};

}  // namespace ec::widgets
