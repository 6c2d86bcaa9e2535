#include "widgets/devices/DeviceModels.h"

#include <QBrush>
#include <QColor>

namespace ec::widgets {

DeviceListModel::DeviceListModel(QObject* parent) : QAbstractTableModel(parent) {}

void DeviceListModel::setDevices(std::vector<ec::devices::HardwareDevice> devices) {
  beginResetModel();
  devices_ = std::move(devices);
  endResetModel();
}

int DeviceListModel::rowForId(const QString& id) const {
  for (std::size_t i = 0; i < devices_.size(); ++i)
    if (QString::fromStdString(devices_[i].id) == id) return static_cast<int>(i);
  return -1;
}

int DeviceListModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(devices_.size());
}

int DeviceListModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DeviceListModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& d = devices_[static_cast<std::size_t>(index.row())];
  const auto a = d.is_available();
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Id: return QString::fromStdString(d.id);
      case Type: return QString::fromLatin1(ec::devices::device_type_name(d.type));
      case Vendor: return QString::fromStdString(d.vendor);
      case Name: return QString::fromStdString(d.name);
      case DiscoveredBy: return QString::fromStdString(d.discovered_by());
      case Virtual: return d.is_virtual() ? tr("virtual") : tr("physical");
      case Available:
        // The reason comes from the core in English: a one-line, searchable message.
        return a.available ? tr("available") : tr("not available: %1").arg(QString::fromStdString(a.reason));
    }
  }
  if (role == Qt::ToolTipRole) {
    if (index.column() == Available && !a.available) return QString::fromStdString(a.reason);  // the full reason
    QString tip;
    for (const auto& [k, v] : d.metadata) tip += QString::fromStdString(k) + QStringLiteral(": ") + QString::fromStdString(v) + QLatin1Char('\n');
    return tip.trimmed();
  }
  if (role == Qt::ForegroundRole && index.column() == Available)
    return QBrush(a.available ? QColor(0x2e, 0x7d, 0x32) : QColor(0x9e, 0x9e, 0x9e));
  return {};
}

QVariant DeviceListModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("Id");
    case Type: return tr("Type");
    case Vendor: return tr("Vendor");
    case Name: return tr("Name");
    case DiscoveredBy: return tr("Discovered by");
    case Virtual: return tr("Kind");
    case Available: return tr("Availability");
  }
  return {};
}

}  // namespace ec::widgets
