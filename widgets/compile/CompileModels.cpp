#include "widgets/compile/CompileModels.h"

#include <QBrush>

#include "widgets/CoreMessages.h"
#include "widgets/ItemRoles.h"

namespace ec::widgets {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QColor targetColor() { return QColor(0x4c, 0xaf, 0x50); }
QColor cpuColor() { return QColor(0xe5, 0x39, 0x35); }
QColor afterUnsupportedColor() { return QColor(0xff, 0xa7, 0x26); }
QColor gpuColor() { return QColor(0x42, 0xa5, 0xf5); }

QColor partitionColor(const ec::backends::PartitionRow& row) {
  using ec::backends::Placement;
  using ec::backends::PlacementCause;
  if (row.unit == "GPU") return gpuColor();
  if (row.placement == Placement::Target) return targetColor();
  if (row.cause == PlacementCause::AfterUnsupported) return afterUnsupportedColor();
  return cpuColor();
}

// ---- PartitionOpModel ----

PartitionOpModel::PartitionOpModel(QObject* parent) : QAbstractTableModel(parent) {}

void PartitionOpModel::setReport(CompileReportPtr report) {
  beginResetModel();
  report_ = std::move(report);
  endResetModel();
}

int PartitionOpModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !report_ ? 0 : int(report_->result.partition.rows.size());
}

int PartitionOpModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

int PartitionOpModel::rowForOp(const QString& name) const {
  if (!report_) return -1;
  const std::string wanted = name.toStdString();
  const auto& rows = report_->result.partition.rows;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].name == wanted) return int(i);
  }
  return -1;
}

QString PartitionOpModel::opAt(int row) const {
  if (!report_ || row < 0 || row >= rowCount()) return {};
  return qs(report_->result.partition.rows[std::size_t(row)].name);
}

QString PartitionOpModel::placementText(const ec::backends::PartitionRow& row) {
  using Cause = ec::backends::PlacementCause;
  if (row.unit == "ANE") return tr("Neural Engine");  // metal: the compute unit predicted
  if (row.unit == "GPU") return tr("GPU");
  if (row.unit == "CPU") return tr("CPU");
  if (row.placement == ec::backends::Placement::Target) return tr("TPU");
  if (row.cause == Cause::AfterUnsupported) return tr("CPU (after unsupported)");
  return tr("CPU");
}

QString PartitionOpModel::reasonText(const ec::backends::PartitionRow& row) {
  if (row.reason.empty()) return qs(row.status);
  // The backend's reason in the UI language (message id and arguments), else its English text.
  const QString reason = coreMessageText(row.reason_message, qs(row.reason));
  if (!row.blocked_by.empty()) {
    return tr("%1\n(placed after the unsupported op “%2”)").arg(reason, qs(row.blocked_by));
  }
  return reason;
}

QString PartitionOpModel::hoverText(const ec::backends::PartitionRow& row) {
  return tr("%1 — %2: %3\n%4").arg(qs(row.name), placementText(row), qs(row.status), reasonText(row));
}

std::vector<std::pair<QString, QString>> PartitionOpModel::details(const ec::backends::PartitionRow& row) {
  std::vector<std::pair<QString, QString>> d{{tr("Placement"), placementText(row)}, {tr("Status"), qs(row.status)},
                                             {tr("Reason"), coreMessageText(row.reason_message, qs(row.reason))}};
  if (!row.target_op.empty()) d.emplace_back(tr("Target op"), qs(row.target_op));
  if (!row.rule.empty()) d.emplace_back(tr("Rule"), qs(row.rule));
  if (row.segment >= 0) d.emplace_back(tr("Segment"), QString::number(row.segment));
  if (!row.blocked_by.empty()) d.emplace_back(tr("After"), qs(row.blocked_by));
  if (!row.override_name.empty()) d.emplace_back(tr("Override"), qs(row.override_name));
  return d;
}

QVariant PartitionOpModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) || !report_) {
    return {};
  }
  const auto& row = report_->result.partition.rows[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Name: return qs(row.name);
        case Type: return row.target_op.empty() ? qs(row.op_type) : qs(row.target_op);
        case Placement: return placementText(row);
        case Status: return qs(row.status);
        case Reason: return coreMessageText(row.reason_message, qs(row.reason));
        default: return {};
      }
    case Qt::ToolTipRole: return reasonText(row);
    case Qt::DecorationRole:
      if (index.column() == Placement) return partitionColor(row);
      return {};
    case KeyRole: return qs(row.name);
    case SortRole:
      return index.column() == Name ? QVariant(int(index.row())) : data(index, Qt::DisplayRole);
    case TargetOpRole: return qulonglong(row.op_index);
    default: return {};
  }
}

QVariant PartitionOpModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Name: return tr("Name");
    case Type: return tr("Type");
    case Placement: return tr("Placement");
    case Status: return tr("Status");
    case Reason: return tr("Reason");
    default: return {};
  }
}

// ---- PartitionStatusModel ----

PartitionStatusModel::PartitionStatusModel(QObject* parent) : QAbstractTableModel(parent) {}

void PartitionStatusModel::setReport(CompileReportPtr report) {
  beginResetModel();
  rows_ = report ? report->status_table() : std::vector<ec::report::StatusRow>{};
  endResetModel();
}

int PartitionStatusModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int PartitionStatusModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionStatusModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& row = rows_[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Operator: return qs(row.op);
        case Count: return row.count;
        case Status: return qs(row.status);
        default: return {};
      }
    case KeyRole: return QString(qs(row.op) + QLatin1Char('/') + qs(row.status));
    case SortRole: return data(index, Qt::DisplayRole);
    default: return {};
  }
}

QVariant PartitionStatusModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Operator: return tr("Operator");
    case Count: return tr("Count");
    case Status: return tr("Status");
    default: return {};
  }
}

// ---- TimelineModel ----

TimelineModel::TimelineModel(QObject* parent) : QAbstractTableModel(parent) {}

void TimelineModel::setReport(CompileReportPtr report) {
  beginResetModel();
  report_ = std::move(report);
  rebuild();
  endResetModel();
}

void TimelineModel::setFailuresOnly(bool failuresOnly) {
  if (failuresOnly == failuresOnly_) return;
  beginResetModel();
  failuresOnly_ = failuresOnly;
  rebuild();
  endResetModel();
}

void TimelineModel::rebuild() {
  rows_.clear();
  if (!report_) return;
  for (const auto& e : report_->result.timeline) {
    if (!failuresOnly_ || !e.ok) rows_.push_back(&e);
  }
}

QString TimelineModel::unitAt(int row) const {
  if (row < 0 || row >= int(rows_.size())) return {};
  return qs(rows_[std::size_t(row)]->unit);
}

int TimelineModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int TimelineModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant TimelineModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& e = *rows_[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Unit: return qs(e.unit);
        case Stage: return qs(e.stage);
        case Ok: return e.ok ? tr("ok") : tr("failed");
        case Reason: return qs(e.reason);
        case Duration: return QString::number(e.duration_ms, 'f', 3);
        default: return {};
      }
    case Qt::ToolTipRole: return qs(e.reason);
    case Qt::BackgroundRole:
      if (!e.ok) return QBrush(QColor(0xff, 0xcd, 0xd2));
      return {};
    case Qt::ForegroundRole:
      if (!e.ok) return QBrush(QColor(0x7f, 0x00, 0x00));
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == Duration) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    case KeyRole: return QString(qs(e.unit) + QLatin1Char('/') + qs(e.stage));
    case SortRole:
      return index.column() == Duration ? QVariant(e.duration_ms) : data(index, Qt::DisplayRole);
    default: return {};
  }
}

QVariant TimelineModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Unit: return tr("Unit");
    case Stage: return tr("Stage");
    case Ok: return tr("Result");
    case Reason: return tr("Reason");
    case Duration: return tr("Duration (ms)");
    default: return {};
  }
}

}  // namespace ec::widgets
