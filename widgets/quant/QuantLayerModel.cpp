#include "widgets/quant/QuantLayerModel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QBrush>
#include <QColor>

#include "widgets/ItemRoles.h"

namespace ec::widgets {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QuantLayerModel::QuantLayerModel(QObject* parent) : QAbstractTableModel(parent) {}

void QuantLayerModel::setReport(QuantReportPtr report, ec::ir::FrozenGraph graph) {
  beginResetModel();
  report_ = std::move(report);
  graph_ = std::move(graph);
  rows_.clear();
  rowOf_.clear();
  if (report_) {
    QHash<QString, int> opIndex;
    if (graph_) {
      for (std::size_t i = 0; i < graph_->ops.size(); ++i) opIndex.insert(qs(graph_->ops[i].name), int(i));
    }
    for (const auto& l : report_->layers) {
      Row r;
      r.op = qs(l.op);
      r.type = qs(l.op_type);
      r.layer = &l;
      r.worstChannelDb = std::numeric_limits<double>::quiet_NaN();
      for (std::size_t c = 0; c < l.channel_sqnr_db.size(); ++c) {
        if (r.worstChannel < 0 || l.channel_sqnr_db[c] < r.worstChannelDb) {
          r.worstChannelDb = l.channel_sqnr_db[c];
          r.worstChannel = int(c);
        }
      }
      rows_.push_back(r);
    }
    for (const auto& f : report_->float_ops) {
      const QString op = qs(f.op);
      if (std::any_of(rows_.begin(), rows_.end(), [&](const Row& r) { return r.op == op; })) continue;
      Row r;
      r.op = op;
      r.type = qs(f.op_type);
      r.floatOp = &f;
      r.worstChannelDb = std::numeric_limits<double>::quiet_NaN();
      rows_.push_back(r);
    }
    for (Row& r : rows_) r.opIndex = opIndex.value(r.op, -1);
    // Graph order where the graph is known (layers and float ops interleave).
    if (graph_) {
      std::stable_sort(rows_.begin(), rows_.end(), [](const Row& a, const Row& b) {
        const int ia = a.opIndex < 0 ? std::numeric_limits<int>::max() : a.opIndex;
        const int ib = b.opIndex < 0 ? std::numeric_limits<int>::max() : b.opIndex;
        return ia < ib;
      });
    }
    for (std::size_t i = 0; i < rows_.size(); ++i) rowOf_.insert(rows_[i].op, int(i));
  }
  endResetModel();
}

int QuantLayerModel::rowForOp(const QString& opName) const { return rowOf_.value(opName, -1); }

QString QuantLayerModel::opAt(int row) const {
  return row >= 0 && row < int(rows_.size()) ? rows_[std::size_t(row)].op : QString();
}

const ec::quantize::LayerReport* QuantLayerModel::layerAt(int row) const {
  return row >= 0 && row < int(rows_.size()) ? rows_[std::size_t(row)].layer : nullptr;
}

void QuantLayerModel::setKeepFloat(const QStringList& ops) {
  keepFloat_.clear();
  for (const QString& op : ops) {
    if (!keepFloat_.contains(op)) keepFloat_ << op;
  }
  if (!rows_.empty()) {
    emit dataChanged(index(0, KeepFloat), index(rowCount() - 1, KeepFloat), {Qt::CheckStateRole});
  }
  emit keepFloatChanged(keepFloat_);
}

void QuantLayerModel::setKeepFloat(const QString& op, bool keep) {
  if (keep == keepFloat_.contains(op)) return;
  if (keep) {
    keepFloat_ << op;
  } else {
    keepFloat_.removeAll(op);
  }
  const int row = rowForOp(op);
  if (row >= 0) emit dataChanged(index(row, KeepFloat), index(row, Status));
  emit keepFloatChanged(keepFloat_);
}

void QuantLayerModel::retranslate() {
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
  if (!rows_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int QuantLayerModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int QuantLayerModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

Qt::ItemFlags QuantLayerModel::flags(const QModelIndex& index) const {
  if (!index.isValid() ||
      !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return Qt::NoItemFlags;
  }
  Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemNeverHasChildren;
  const Row& r = rows_[std::size_t(index.row())];
  // Quantised layers can be kept in float; an op the user kept in float can be
  // given back. Ops in float for want of an int8 kernel have nothing to toggle.
  if (index.column() == KeepFloat && (r.layer || keepFloat_.contains(r.op))) {
    f |= Qt::ItemIsUserCheckable;
  }
  return f;
}

QString QuantLayerModel::toolTip(const Row& r) const {
  QStringList lines;
  lines << r.op % QStringLiteral(" (") % r.type % QLatin1Char(')');
  if (r.layer) {
    const auto& l = *r.layer;
    lines << tr("weights: %1, %2").arg(qs(l.weight), l.per_channel ? tr("per channel") : tr("per tensor"));
    lines << tr("output SQNR: %1").arg(formatDb(l.output_sqnr_db));
    lines << tr("weight SQNR: %1").arg(formatDb(l.weight_sqnr_db));
    if (r.worstChannel >= 0) {
      lines << tr("worst channel: %1 (%2)").arg(r.worstChannel).arg(formatDb(r.worstChannelDb));
    }
    if (l.sensitivity_gain_db) {
      lines << tr("kept in float, the model's SQNR would gain %1").arg(formatDb(*l.sensitivity_gain_db));
    }
  }
  if (r.floatOp) lines << tr("in float: %1").arg(qs(r.floatOp->reason));
  if (keepFloat_.contains(r.op)) lines << tr("marked to stay in float at the next run");
  return lines.join(QLatin1Char('\n'));
}

QVariant QuantLayerModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() ||
      !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const Row& r = rows_[std::size_t(index.row())];
  const auto* l = r.layer;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Op:
          return r.op;
        case Type:
          return r.type;
        case OutputSqnr:
          return l ? formatDb(l->output_sqnr_db) : QString();
        case WeightSqnr:
          return l ? formatDb(l->weight_sqnr_db) : QString();
        case WorstChannel:
          return r.worstChannel >= 0
                     ? QString(formatDb(r.worstChannelDb) % QStringLiteral(" (#") %
                               QString::number(r.worstChannel) % QLatin1Char(')'))
                     : QString();
        case Channels:
          return l ? QVariant(int(l->channel_sqnr_db.size())) : QVariant();
        case Sensitivity:
          return l && l->sensitivity_gain_db ? formatDb(*l->sensitivity_gain_db) : QString();
        case Status:
          if (r.floatOp) return tr("float: %1").arg(qs(r.floatOp->reason));
          return keepFloat_.contains(r.op) ? tr("int8 → float at next run") : tr("int8");
        default:
          return {};
      }
    case Qt::CheckStateRole:
      if (index.column() != KeepFloat) return {};
      if (!r.layer && !keepFloat_.contains(r.op)) return {};
      return keepFloat_.contains(r.op) ? Qt::Checked : Qt::Unchecked;
    case Qt::ToolTipRole:
      if (index.column() == KeepFloat) return tr("Keep %1 in float when re-quantising").arg(r.op);
      return toolTip(r);
    case Qt::TextAlignmentRole:
      switch (index.column()) {
        case OutputSqnr:
        case WeightSqnr:
        case WorstChannel:
        case Channels:
        case Sensitivity:
          return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
        default:
          return {};
      }
    case Qt::ForegroundRole:
      if (r.floatOp) return QBrush(QColor(0x80, 0x80, 0x80));
      return {};
    case KeyRole:
      return r.op;
    case TargetOpRole:
      return r.opIndex >= 0 ? QVariant(r.opIndex) : QVariant();
    case TensorNameRole:
      return l ? QVariant(qs(l->weight)) : QVariant();
    case SortRole:
      switch (index.column()) {
        case KeepFloat:
          return keepFloat_.contains(r.op) ? 1 : 0;
        case OutputSqnr:
          return l ? l->output_sqnr_db : nan;
        case WeightSqnr:
          return l ? l->weight_sqnr_db : nan;
        case WorstChannel:
          return r.worstChannelDb;
        case Channels:
          return l ? int(l->channel_sqnr_db.size()) : 0;
        case Sensitivity:
          return l && l->sensitivity_gain_db ? *l->sensitivity_gain_db : nan;
        default:
          return data(index, Qt::DisplayRole);
      }
    default:
      return {};
  }
}

bool QuantLayerModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::CheckStateRole || index.column() != KeepFloat ||
      !(flags(index) & Qt::ItemIsUserCheckable)) {
    return false;
  }
  const bool keep = value.toInt() == Qt::Checked;
  setKeepFloat(rows_[std::size_t(index.row())].op, keep);
  return true;
}

QVariant QuantLayerModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case KeepFloat:
        return tr("Keep in float: checked ops stay in float when the model is re-quantised");
      case OutputSqnr:
        return tr("Signal-to-quantisation-noise ratio of the op's output: int8 execution vs float");
      case WeightSqnr:
        return tr("SQNR of the int8 weights against the float weights");
      case WorstChannel:
        return tr("The output channel whose weights lost the most");
      case Sensitivity:
        return tr("Model SQNR gained when only this op is kept in float");
      default:
        return {};
    }
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case KeepFloat:
      return tr("Float");
    case Op:
      return tr("Op");
    case Type:
      return tr("Type");
    case OutputSqnr:
      return tr("Output SQNR");
    case WeightSqnr:
      return tr("Weight SQNR");
    case WorstChannel:
      return tr("Worst channel");
    case Channels:
      return tr("Channels");
    case Sensitivity:
      return tr("Sensitivity");
    case Status:
      return tr("Status");
    default:
      return {};
  }
}

}  // namespace ec::widgets
