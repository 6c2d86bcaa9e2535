// The item model of the Devices panel: one row per device (physical, configured,
// virtual) with its availability and the reason when it is not available.
// Checked by QAbstractItemModelTester (tests/widgets/tst_devices.cpp).
#pragma once

#include <vector>

#include <QAbstractTableModel>

#include "core/backends/hardware_device.h"

namespace ec::widgets {

class DeviceListModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Columns { Id, Type, Vendor, Name, DiscoveredBy, Virtual, Available, ColumnCount };  // the reason last: it stretches

  explicit DeviceListModel(QObject* parent = nullptr);
  void setDevices(std::vector<ec::devices::HardwareDevice> devices);
  const std::vector<ec::devices::HardwareDevice>& devices() const { return devices_; }
  /// Row of device `id`, or -1.
  int rowForId(const QString& id) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<ec::devices::HardwareDevice> devices_;
};

}  // namespace ec::widgets
