#include "widgets/OperationListModel.h"

#include <QBrush>
#include <QColor>
#include <QStringList>

#include "core/ir/dtype.h"
#include "core/ir/shape.h"
#include "widgets/ItemRoles.h"

namespace ec::widgets {
namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

OperationListModel::OperationListModel(QObject* parent) : QAbstractTableModel(parent) {}

void OperationListModel::setGraph(ec::ir::FrozenGraph graph) {
  beginResetModel();
  graph_ = std::move(graph);
  endResetModel();
}

int OperationListModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() || !graph_) return 0;
  return int(graph_->ops.size());
}

int OperationListModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QString OperationListModel::tensorList(const std::vector<std::string>& names,
                                       TensorText what) const {
  QStringList parts;
  for (const auto& name : names) {
    if (name.empty()) continue;  // optional input/output left out
    const ec::ir::Tensor* t = graph_->find_tensor(name);
    const QString type = t ? QLatin1String(ec::ir::dtype_name(t->dtype)) % qs(t->shape.to_string())
                           : QStringLiteral("?");
    switch (what) {
      case TensorText::Name:
        parts << qs(name);
        break;
      case TensorText::Type:
        parts << type;
        break;
      case TensorText::NameAndType:
        parts << qs(name) % QStringLiteral(": ") % type;
        break;
    }
  }
  return parts.join(what == TensorText::NameAndType ? QStringLiteral("\n") : QStringLiteral(", "));
}

QVariant OperationListModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) {
    return {};
  }
  const ec::ir::Operation& op = graph_->ops[std::size_t(index.row())];
  switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
      switch (index.column()) {
        case Index:
          return index.row();
        case Name:
          return qs(op.name);
        case Type:
          return qs(op.op_type);
        case OutputTypes:
          return role == Qt::ToolTipRole ? tensorList(op.outputs, TensorText::NameAndType)
                                         : tensorList(op.outputs, TensorText::Type);
        case Inputs:
          return role == Qt::ToolTipRole ? tensorList(op.inputs, TensorText::NameAndType)
                                         : tensorList(op.inputs, TensorText::Name);
        case Outputs:
          return role == Qt::ToolTipRole ? tensorList(op.outputs, TensorText::NameAndType)
                                         : tensorList(op.outputs, TensorText::Name);
        default:
          return {};
      }
    case KeyRole:
      return op.name.empty() ? QString::number(index.row()) : qs(op.name);
    case SortRole:
      return index.column() == Index ? QVariant(index.row()) : data(index, Qt::DisplayRole);
    case Qt::ForegroundRole:
      // Ops the IR does not know cannot be compiled: make them stand out.
      if (!op.is_known() && index.column() == Type) return QBrush(QColor(0xb0, 0x5a, 0x00));
      return {};
    default:
      return {};
  }
}

QVariant OperationListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Index:
      return tr("#");
    case Name:
      return tr("Name");
    case Type:
      return tr("Type");
    case OutputTypes:
      return tr("Output type");
    case Inputs:
      return tr("Inputs");
    case Outputs:
      return tr("Outputs");
    default:
      return {};
  }
}

}  // namespace ec::widgets
