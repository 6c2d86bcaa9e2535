// Every device edgecompile knows: the host CPU, the devices each backend discovers
// (Backend::discover: its USB, PCIe... accelerators), each backend's virtual devices,
// and the devices only devices.json names.
#pragma once

#include <string>
#include <vector>

#include "core/backends/backend_registry.h"
#include "core/backends/hardware_device.h"
#include "core/devices/provider_config.h"

namespace ec::devices {

struct DiscoveryOptions {
  bool include_virtual = true;
  const DevicesConfig* config = nullptr;  // devices.json (adds its remote devices; "Provider" metadata)
  std::string dev_root = "/dev", sys_root = "/sys";
};

struct Discovery {
  std::vector<HardwareDevice> devices;  // physical first (host CPU, then each backend's in table order), then configured, then virtual
  std::vector<std::string> notes;       // "no Coral found (3 USB devices seen)", ...
  const HardwareDevice* find(const std::string& id) const;
  /// "host-cpu, coral-virtual-usb, ..." (what an unknown --device lists).
  std::string ids() const;
};

/// Never throws: a probe that fails leaves its devices out and says why in `notes`.
Discovery discover_devices(const DiscoveryOptions& options = {});

/// What the attached devices say about "auto" (backends::AutoContext's device
/// fields): the backend of the first attached, available device a backend discovered
/// (metadata "Backend"), else no device decides, and the reason says which device was
/// seen and why it is not usable, in the backends' words (Capabilities::device_noun).
backends::AutoContext auto_context(const Discovery& discovery, const std::string& output_path = {});

/// A --target as the devices and --output decide it, through the one resolver
/// (backends::resolve_target): "auto" becomes the attached device's backend,
/// else the backend writing the artefact `output_path` names, else "cpu" (the
/// reason says which and why); any other target is returned as given (reason empty).
using backends::TargetChoice;
TargetChoice choose_target(const std::string& target, const Discovery& discovery, const std::string& output_path = {});
/// The same after discovering the physical devices (none is discovered for a named target).
TargetChoice choose_target(const std::string& target, const std::string& output_path = {});

/// Every backend's virtual_devices(), in the backend table's order.
std::vector<HardwareDevice> backend_virtual_devices();

}  // namespace ec::devices
