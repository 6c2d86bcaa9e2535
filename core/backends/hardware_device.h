// A hardware device a model can be compiled for or run on (the design notes,
// "Devices and providers"). Plain data, header-only: backends (core/backends)
// create virtual devices without linking the discovery code.
#pragma once

#include <map>
#include <string>

namespace ec::devices {

enum class DeviceType { CPU, GPU, NPU, TPU };

inline const char* device_type_name(DeviceType t) {
  switch (t) {
    case DeviceType::CPU: return "CPU";
    case DeviceType::GPU: return "GPU";
    case DeviceType::NPU: return "NPU";
    case DeviceType::TPU: return "TPU";
  }
  return "?";
}

/// Metadata keys every device carries.
inline constexpr const char* kDiscoveredBy = "DiscoveredBy";  // "libusb", "sysfs", "cpuid", "backend NAME", "config"
inline constexpr const char* kIsVirtual = "IsVirtual";        // "true" / "false"
/// The backend a device belongs to (its virtual devices, and the devices its discover() found).
inline constexpr const char* kBackend = "Backend";

/// The reason every virtual device gives for not being available to run on.
inline constexpr const char* kVirtualReason = "virtual: compile and estimate only";

/// Whether a device can run a model now; when not, why (one line a person can act on).
struct DeviceAvailability {
  bool available = false;
  std::string reason;
};

struct HardwareDevice {
  DeviceType type = DeviceType::CPU;
  std::string vendor;  // "Google", "AMD", ...
  std::string id;      // stable, what `--device ID` takes: "host-cpu", "coral-usb-2-3", "coral-virtual-usb"
  std::string name;    // what a person reads
  std::map<std::string, std::string> metadata;  // DiscoveredBy, IsVirtual, and per-kind details
  DeviceAvailability availability;              // decided at discovery by probes that never throw

  /// Never throws: false with the reason.
  DeviceAvailability is_available() const noexcept { return availability; }
  bool is_virtual() const {
    auto it = metadata.find(kIsVirtual);
    return it != metadata.end() && it->second == "true";
  }
  std::string discovered_by() const {
    auto it = metadata.find(kDiscoveredBy);
    return it == metadata.end() ? std::string() : it->second;
  }
  /// The backend this device belongs to ("" for the host CPU and devices only devices.json names).
  std::string backend() const { return meta(kBackend); }
  std::string meta(const std::string& key) const {
    auto it = metadata.find(key);
    return it == metadata.end() ? std::string() : it->second;
  }
};

/// A virtual device of a backend (DiscoveredBy "backend NAME", IsVirtual, never available to run on).
inline HardwareDevice make_virtual_device(DeviceType type, std::string vendor, std::string id, std::string name,
                                          const std::string& backend) {
  HardwareDevice d;
  d.type = type;
  d.vendor = std::move(vendor);
  d.id = std::move(id);
  d.name = std::move(name);
  d.metadata[kDiscoveredBy] = "backend " + backend;
  d.metadata[kIsVirtual] = "true";
  d.metadata[kBackend] = backend;
  d.availability = {false, kVirtualReason};
  return d;
}

}  // namespace ec::devices
