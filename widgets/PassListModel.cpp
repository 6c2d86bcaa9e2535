#include "widgets/PassListModel.h"

#include <map>

#include <QBrush>
#include <QColor>
#include <QLocale>

#include "core/passes/pass_registry.h"
#include "widgets/CoreMessages.h"
#include "widgets/ItemRoles.h"

namespace ec::widgets {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

bool hasError(const ec::passes::PassRecord& r) {
  for (const auto& issue : r.validation) {
    if (issue.severity == ec::ir::ValidationIssue::Severity::Error) return true;
  }
  return false;
}

bool changedNothing(const ec::passes::PassRecord& r) {
  if (r.ops_before != r.ops_after) return false;
  for (const auto& s : r.statistics) {
    if (s.value != 0) return false;
  }
  return r.diff.empty();
}
}  // namespace

PassListModel::PassListModel(QObject* parent) : QAbstractTableModel(parent) {}

void PassListModel::setReport(std::shared_ptr<const ec::passes::PipelineReport> report) {
  beginResetModel();
  report_ = std::move(report);
  keys_.clear();
  if (report_) {
    std::map<std::string, int> runs;
    for (const auto& r : report_->passes) {
      const int n = ++runs[r.pass];
      keys_ << (n == 1 ? qs(r.pass) : qs(r.pass) % QLatin1Char('#') % QString::number(n));
    }
  }
  endResetModel();
}

int PassListModel::rowForKey(const QString& key) const { return int(keys_.indexOf(key)); }

int PassListModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !report_) return 0;
  return int(report_->passes.size());
}

int PassListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString PassListModel::statisticsText(const ec::passes::PassRecord& r) const {
  QStringList parts;
  for (const auto& s : r.statistics) {
    if (s.value != 0) parts << statisticText(r.pass, s);  // in the UI language
  }
  if (hasError(r)) parts.prepend(tr("invalid graph"));
  if (!r.diagnostics.empty()) parts << tr("%n note(s)", nullptr, int(r.diagnostics.size()));
  if (parts.isEmpty()) return changedNothing(r) ? tr("no change") : QString();
  return parts.join(QStringLiteral(", "));
}

QString PassListModel::toolTip(const ec::passes::PassRecord& r) const {
  QStringList lines;
  if (const ec::passes::PassEntry* entry = ec::passes::find_pass(r.pass)) {
    lines << qs(r.pass) % QStringLiteral(": ") % qs(entry->summary);
  } else {
    lines << qs(r.pass);
  }
  for (const auto& s : r.statistics) lines << statisticText(r.pass, s);
  for (const auto& d : r.diagnostics) {
    const QString where = d.op.empty() ? QString() : qs(d.op) % QStringLiteral(": ");
    lines << (d.severity == ec::passes::Diagnostic::Severity::Warning ? tr("warning: ")
                                                                      : tr("note: ")) %
                 where % qs(d.message);
  }
  for (const auto& issue : r.validation) lines << qs(ec::ir::to_string(issue));
  return lines.join(QLatin1Char('\n'));
}

QVariant PassListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const ec::passes::PassRecord& r = report_->passes[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Index:
          return index.row() + 1;
        case Pass:
          return qs(r.pass);
        case Time:
          return QLocale().toString(r.milliseconds, 'f', r.milliseconds < 10 ? 2 : 1);
        case Ops:
          return QString(QString::number(r.ops_before) % QStringLiteral(" → ") %
                         QString::number(r.ops_after));
        case Statistics:
          return statisticsText(r);
        default:
          return {};
      }
    case Qt::ToolTipRole:
      return toolTip(r);
    case Qt::TextAlignmentRole:
      if (index.column() == Index || index.column() == Time || index.column() == Ops) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
      }
      return {};
    case Qt::ForegroundRole:
      if (hasError(r)) return QBrush(QColor(0xb0, 0x20, 0x20));
      // Passes that changed nothing recede; the ones that did something stand out.
      if (changedNothing(r)) return QBrush(QColor(0x80, 0x80, 0x80));
      return {};
    case KeyRole:
      return keys_.value(index.row());
    case SortRole:
      switch (index.column()) {
        case Index:
          return index.row();
        case Time:
          return r.milliseconds;
        case Ops:
          return qlonglong(r.ops_after) - qlonglong(r.ops_before);
        default:
          return data(index, Qt::DisplayRole);
      }
    default:
      return {};
  }
}

QVariant PassListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Index:
      return tr("#");
    case Pass:
      return tr("Pass");
    case Time:
      return tr("Time (ms)");
    case Ops:
      return tr("Ops");
    case Statistics:
      return tr("Statistics");
    default:
      return {};
  }
}

}  // namespace ec::widgets
