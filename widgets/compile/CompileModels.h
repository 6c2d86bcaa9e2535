// Thin item models over one CompileReport (core/report/compile_report.h), the
// immutable result of Model › Compile for target…: the per-op partition, the
// Operator / Count / Status table and the backend timeline. Each has a Columns
// enum and answers the shared roles of widgets/ItemRoles.h; every one is checked
// by QAbstractItemModelTester (tests/widgets/tst_compile.cpp).
#pragma once

#include <memory>
#include <vector>

#include <QAbstractTableModel>
#include <QColor>

#include "core/report/compile_report.h"

namespace ec::widgets {

using CompileReportPtr = std::shared_ptr<const ec::report::CompileReport>;

/// Colours of the partition overlay (graph and tables): on the target, on the CPU
/// because the op is unsupported, on the CPU only because it follows an unsupported op.
QColor partitionColor(const ec::backends::PartitionRow& row);
QColor targetColor();
QColor cpuColor();
QColor afterUnsupportedColor();
/// Ops a multi-unit target (metal) predicts on its GPU.
QColor gpuColor();

/// One row per unit of the partition, in graph order.
class PartitionOpModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Name, Type, Placement, Status, Reason, ColumnCount };

  explicit PartitionOpModel(QObject* parent = nullptr);
  void setReport(CompileReportPtr report);
  /// "TPU", "CPU", "CPU (after unsupported)".
  static QString placementText(const ec::backends::PartitionRow& row);
  /// The reason, with the op it follows when it is only placed after an unsupported one.
  static QString reasonText(const ec::backends::PartitionRow& row);
  /// Name, placement, status and reason: the graph's hover text of the op.
  static QString hoverText(const ec::backends::PartitionRow& row);
  /// (property, value) rows for the Properties panel: placement, status, reason, rule, segment...
  static std::vector<std::pair<QString, QString>> details(const ec::backends::PartitionRow& row);
  /// Row of op `name`, or -1.
  int rowForOp(const QString& name) const;
  QString opAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  CompileReportPtr report_;
};

/// The Operator / Count / Status table in the shape edgetpu_compiler prints.
class PartitionStatusModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Operator, Count, Status, ColumnCount };

  explicit PartitionStatusModel(QObject* parent = nullptr);
  void setReport(CompileReportPtr report);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<ec::report::StatusRow> rows_;
};

/// Every attempt of every unit, in order; failed attempts highlighted. With
/// failuresOnly, only the failed attempts.
class TimelineModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Unit, Stage, Ok, Duration, Reason, ColumnCount };  // the reason last: it stretches

  explicit TimelineModel(QObject* parent = nullptr);
  void setReport(CompileReportPtr report);
  void setFailuresOnly(bool failuresOnly);
  bool failuresOnly() const { return failuresOnly_; }
  QString unitAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void rebuild();
  CompileReportPtr report_;
  std::vector<const ec::backends::TimelineEntry*> rows_;
  bool failuresOnly_ = false;
};

}  // namespace ec::widgets
