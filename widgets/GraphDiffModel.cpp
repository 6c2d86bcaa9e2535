#include "widgets/GraphDiffModel.h"

#include <algorithm>

#include <QBrush>

namespace ec::widgets {
namespace {
using ec::passes::OpRef;

QString qs(const std::string& s) { return QString::fromStdString(s); }

/// Names in `a` that are not in `b`, in `a`'s order ("" = optional input left out).
QStringList missingFrom(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  QStringList out;
  for (const auto& name : a) {
    if (!name.empty() && std::find(b.begin(), b.end(), name) == b.end()) out << qs(name);
  }
  return out;
}

QString tensorList(const std::vector<std::string>& names) {
  QStringList parts;
  for (const auto& n : names) parts << (n.empty() ? QStringLiteral("–") : qs(n));
  return parts.join(QStringLiteral(", "));
}
}  // namespace

GraphDiffModel::GraphDiffModel(QObject* parent) : QAbstractTableModel(parent) {}

QColor GraphDiffModel::colorFor(Kind kind) {
  switch (kind) {
    case Kind::Removed:
      return QColor(0xf2, 0x9c, 0x9c);
    case Kind::Added:
      return QColor(0x98, 0xdc, 0xa4);
    case Kind::Changed:
      return QColor(0xfa, 0xd0, 0x72);
  }
  return {};
}

QString GraphDiffModel::kindName(Kind kind) {
  switch (kind) {
    case Kind::Removed:
      return tr("removed");
    case Kind::Added:
      return tr("added");
    case Kind::Changed:
      return tr("changed");
  }
  return {};
}

void GraphDiffModel::setDiff(std::shared_ptr<const ec::passes::GraphDiff> diff) {
  beginResetModel();
  diff_ = std::move(diff);
  rows_.clear();
  if (diff_) {
    rows_.reserve(diff_->removed.size() + diff_->added.size() + diff_->changed.size());
    auto key = [](const char* kind, const OpRef& op) -> QString {
      return QLatin1String(kind) % QLatin1Char(':') %
             (op.name.empty() ? QLatin1Char('#') % QString::number(op.index) : qs(op.name));
    };
    for (const OpRef& op : diff_->removed) {
      rows_.push_back({Kind::Removed, &op, nullptr, nullptr, key("removed", op), {}, {}, {}});
    }
    for (const OpRef& op : diff_->added) {
      rows_.push_back({Kind::Added, nullptr, &op, nullptr, key("added", op), {}, {}, {}});
    }
    for (const ec::passes::OpChange& c : diff_->changed) {
      Row row{Kind::Changed, &c.before, &c.after, &c, key("changed", c.after), {}, {}, {}};
      QStringList what, before, after;
      if (c.before.op_type != c.after.op_type) {
        what << tr("type");
        before << qs(c.before.op_type);
        after << qs(c.after.op_type);
      }
      for (const auto& a : c.attributes) {
        what << qs(a.key);
        const QString absent = tr("(absent)");
        before << qs(a.key) % QStringLiteral(": ") %
                      (a.before ? qs(ec::passes::format_attribute(*a.before)) : absent);
        after << qs(a.key) % QStringLiteral(": ") %
                     (a.after ? qs(ec::passes::format_attribute(*a.after)) : absent);
      }
      // Inputs and outputs: only the names that differ.
      auto tensors = [&](bool changed, const QString& label, const std::vector<std::string>& b,
                         const std::vector<std::string>& a) {
        if (!changed) return;
        what << label;
        const QStringList gone = missingFrom(b, a), added = missingFrom(a, b);
        if (!gone.isEmpty()) before << label % QStringLiteral(": ") % gone.join(QStringLiteral(", "));
        if (!added.isEmpty()) after << label % QStringLiteral(": ") % added.join(QStringLiteral(", "));
      };
      tensors(c.inputs_changed, tr("inputs"), c.before.inputs, c.after.inputs);
      tensors(c.outputs_changed, tr("outputs"), c.before.outputs, c.after.outputs);
      row.details = what.join(QStringLiteral(", "));
      row.beforeText = before.join(QStringLiteral("; "));
      row.afterText = after.join(QStringLiteral("; "));
      rows_.push_back(std::move(row));
    }
  }
  endResetModel();
}

int GraphDiffModel::rowForKey(const QString& key) const {
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i].key == key) return int(i);
  }
  return -1;
}

int GraphDiffModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int GraphDiffModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

const OpRef& GraphDiffModel::target(const Row& row) const {
  return row.after ? *row.after : *row.before;
}

QString GraphDiffModel::toolTip(const Row& row) const {
  QStringList lines;
  auto describe = [&](const QString& label, const OpRef& op) {
    lines << label % QStringLiteral(": ") % qs(op.name) % QStringLiteral(" (") % qs(op.op_type) %
                 QLatin1Char(')');
    lines << QStringLiteral("  ") % tr("inputs: %1").arg(tensorList(op.inputs));
    lines << QStringLiteral("  ") % tr("outputs: %1").arg(tensorList(op.outputs));
  };
  if (row.before) describe(tr("before"), *row.before);
  if (row.after) describe(tr("after"), *row.after);
  if (row.change) {
    for (const auto& a : row.change->attributes) {
      const QString absent = tr("(absent)");
      lines << qs(a.key) % QStringLiteral(": ") %
                   (a.before ? qs(ec::passes::format_attribute(*a.before)) : absent) %
                   QStringLiteral(" → ") %
                   (a.after ? qs(ec::passes::format_attribute(*a.after)) : absent);
    }
  }
  return lines.join(QLatin1Char('\n'));
}

QVariant GraphDiffModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const Row& row = rows_[std::size_t(index.row())];
  const OpRef& op = target(row);
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Change:
          return kindName(row.kind);
        case Name:
          return qs(op.name);
        case Type:
          return row.before && row.after && row.before->op_type != row.after->op_type
                     ? qs(row.before->op_type) % QStringLiteral(" → ") % qs(row.after->op_type)
                     : qs(op.op_type);
        case Details:
          return row.details;
        case Before:
          return row.beforeText;
        case After:
          return row.afterText;
        default:
          return {};
      }
    case Qt::ToolTipRole:
      return toolTip(row);
    case Qt::DecorationRole:
      return index.column() == Change ? QVariant(colorFor(row.kind)) : QVariant();
    case KeyRole:
      return row.key;
    case SortRole:
      return index.column() == Change ? QVariant(int(row.kind)) : data(index, Qt::DisplayRole);
    case TargetOpRole:
      return int(op.index);
    case ChangeKindRole:
      return int(row.kind);
    case BeforeOpRole:
      return row.before ? int(row.before->index) : -1;
    case AfterOpRole:
      return row.after ? int(row.after->index) : -1;
    case OpNameRole:
      return qs(op.name);
    default:
      return {};
  }
}

QVariant GraphDiffModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Change:
      return tr("Change");
    case Name:
      return tr("Op");
    case Type:
      return tr("Type");
    case Details:
      return tr("What changed");
    case Before:
      return tr("Before");
    case After:
      return tr("After");
    default:
      return {};
  }
}

}  // namespace ec::widgets
