// Coral PCIe / M.2 accelerators: the gasket/apex driver's /dev/apex_N nodes and
// their sysfs entries (/sys/class/apex/apex_N).
#pragma once

#include <string>
#include <vector>

#include "core/backends/hardware_device.h"

namespace ec::backends::coral {
using devices::HardwareDevice;

/// The reason for an errno from opening /dev/apex_N ("" for 0).
std::string apex_open_reason(int err, const std::string& node);

/// Every /dev/apex_N under `dev_root`, with the PCI ids and driver status read from
/// `sys_root`/class/apex/apex_N when present. `libedgetpu_reason` is "" when libedgetpu
/// loads. Never throws. The roots are parameters so tests run on a recorded tree.
std::vector<HardwareDevice> discover_coral_pcie(const std::string& libedgetpu_reason, const std::string& dev_root = "/dev",
                                                const std::string& sys_root = "/sys");

}  // namespace ec::backends::coral
