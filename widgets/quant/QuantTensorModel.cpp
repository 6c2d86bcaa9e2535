#include "widgets/quant/QuantTensorModel.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include "widgets/ItemRoles.h"

namespace ec::widgets {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }

QString range(float lo, float hi) {
  return QLatin1Char('[') % formatFloat(lo) % QStringLiteral(", ") % formatFloat(hi) %
         QLatin1Char(']');
}
}  // namespace

QuantTensorModel::QuantTensorModel(QObject* parent) : QAbstractTableModel(parent) {}

void QuantTensorModel::setReport(QuantReportPtr report, ec::ir::FrozenGraph graph) {
  beginResetModel();
  report_ = std::move(report);
  graph_ = std::move(graph);
  rowOf_.clear();
  rowOfProducer_.clear();
  opIndex_.clear();
  if (graph_) {
    for (std::size_t i = 0; i < graph_->ops.size(); ++i) opIndex_.insert(qs(graph_->ops[i].name), int(i));
  }
  if (report_) {
    for (std::size_t i = 0; i < report_->tensors.size(); ++i) {
      const auto& t = report_->tensors[i];
      rowOf_.insert(qs(t.tensor), int(i));
      if (!t.producer.empty() && !rowOfProducer_.contains(qs(t.producer))) {
        rowOfProducer_.insert(qs(t.producer), int(i));
      }
    }
  }
  endResetModel();
}

int QuantTensorModel::rowForTensor(const QString& name) const { return rowOf_.value(name, -1); }

int QuantTensorModel::rowForProducer(const QString& opName) const {
  return rowOfProducer_.value(opName, -1);
}

const ec::quantize::TensorReport* QuantTensorModel::tensorAt(int row) const {
  if (!report_ || row < 0 || row >= int(report_->tensors.size())) return nullptr;
  return &report_->tensors[std::size_t(row)];
}

void QuantTensorModel::retranslate() {
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
  if (rowCount() > 0) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int QuantTensorModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !report_) return 0;
  return int(report_->tensors.size());
}

int QuantTensorModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant QuantTensorModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() ||
      !checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const auto& t = report_->tensors[std::size_t(index.row())];
  const double scale = t.params.scales.empty() ? 0.0 : double(t.params.scales.front());
  const qlonglong zp = t.params.zero_points.empty() ? 0 : qlonglong(t.params.zero_points.front());
  switch (role) {
    case Qt::DisplayRole:
      switch (index.column()) {
        case Tensor:
          return qs(t.tensor);
        case Producer:
          return t.producer.empty() ? tr("(graph input)") : qs(t.producer);
        case FloatRange:
          return range(t.float_min, t.float_max);
        case ClipRange:
          return range(t.range_min, t.range_max);
        case Scale:
          return formatFloat(scale);
        case ZeroPoint:
          return zp;
        case Clipped:
          return QString(QString::number(t.clip_fraction * 100.0, 'f', t.clip_fraction < 0.01 ? 3 : 1) %
                         QLatin1Char('%'));
        case Sqnr:
          return formatDb(t.sqnr_db);
        default:
          return {};
      }
    case Qt::ToolTipRole:
      return QStringList{qs(t.tensor),
                         tr("observed: %1").arg(range(t.float_min, t.float_max)),
                         tr("clipping range: %1").arg(range(t.range_min, t.range_max)),
                         tr("scale %1, zero point %2").arg(formatFloat(scale)).arg(zp),
                         tr("SQNR: %1").arg(formatDb(t.sqnr_db))}
          .join(QLatin1Char('\n'));
    case Qt::TextAlignmentRole:
      if (index.column() >= Scale) {
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
      }
      return {};
    case KeyRole:
    case TensorNameRole:
      return qs(t.tensor);
    case TargetOpRole: {
      const int op = opIndex_.value(qs(t.producer), -1);
      return op >= 0 ? QVariant(op) : QVariant();
    }
    case SortRole:
      switch (index.column()) {
        case FloatRange:
          return double(t.float_max) - double(t.float_min);
        case ClipRange:
          return double(t.range_max) - double(t.range_min);
        case Scale:
          return scale;
        case ZeroPoint:
          return zp;
        case Clipped:
          return t.clip_fraction;
        case Sqnr:
          return t.sqnr_db;
        default:
          return data(index, Qt::DisplayRole);
      }
    default:
      return {};
  }
}

QVariant QuantTensorModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Tensor:
      return tr("Tensor");
    case Producer:
      return tr("Producer");
    case FloatRange:
      return tr("Observed range");
    case ClipRange:
      return tr("Clipping range");
    case Scale:
      return tr("Scale");
    case ZeroPoint:
      return tr("Zero point");
    case Clipped:
      return tr("Clipped");
    case Sqnr:
      return tr("SQNR");
    default:
      return {};
  }
}

}  // namespace ec::widgets
