#include "core/devices/discovery.h"

#include <unordered_set>

#include "core/backends/backend_registry.h"
#include "core/devices/apex.h"
#include "core/devices/cpu_info.h"
#include "core/devices/usb.h"
#ifdef EC_HAVE_CORAL
#include "core/backends/coral/edgetpu_library.h"
#endif

namespace ec::devices {

const HardwareDevice* Discovery::find(const std::string& id) const {
  for (const auto& d : devices)
    if (d.id == id) return &d;
  return nullptr;
}

std::string Discovery::ids() const {
  std::string s;
  for (const auto& d : devices) s += (s.empty() ? "" : ", ") + d.id;
  return s;
}

std::vector<HardwareDevice> backend_virtual_devices() {
  std::vector<HardwareDevice> out;
  for (const auto& entry : backends::backend_table()) {
    try {
      for (auto& d : entry.factory()->virtual_devices()) out.push_back(std::move(d));
    } catch (...) {
      // a backend that cannot be created offers no virtual device
    }
  }
  return out;
}

Discovery discover_devices(const DiscoveryOptions& options) {
  Discovery r;
  r.devices.push_back(host_cpu_device());
#ifdef EC_HAVE_CORAL
  const std::string libedgetpu = backends::coral::libedgetpu_reason();
#else
  const std::string libedgetpu = "this build has no Coral backend (EC_BUILD_CORAL=OFF)";
#endif
  auto usb = discover_coral_usb(libedgetpu);
  if (!usb.note.empty()) r.notes.push_back(usb.note);
  for (auto& d : usb.corals) r.devices.push_back(std::move(d));
  auto pcie = discover_coral_pcie(libedgetpu, options.dev_root, options.sys_root);
  if (pcie.empty()) r.notes.push_back("no Coral PCIe/M.2 card found (no " + options.dev_root + "/apex_*)");
  for (auto& d : pcie) r.devices.push_back(std::move(d));
  if (options.config) {
    for (auto& d : r.devices)
      if (const auto* c = options.config->find(d.id)) d.metadata["Provider"] = c->provider.type;
    std::unordered_set<std::string> ids;  // found so far: one lookup per listed device, not a scan
    for (const auto& d : r.devices) ids.insert(d.id);
    for (const auto& c : options.config->devices) {
      if (!ids.insert(c.id).second) continue;
      HardwareDevice d;
      d.type = c.type;
      d.vendor = c.vendor.empty() ? "unknown" : c.vendor;
      d.id = c.id;
      d.name = c.name.empty() ? c.id : c.name;
      d.metadata = {{kDiscoveredBy, "config"}, {kIsVirtual, "false"}, {"Provider", c.provider.type}};
      if (c.provider.type == "local") {
        d.availability = {false, "listed in devices.json but not found on this machine"};
      } else {
        if (!c.provider.host.empty())
          d.metadata["Remote"] = (c.provider.user.empty() ? "" : c.provider.user + "@") + c.provider.host + ":" +
                                 std::to_string(c.provider.port);
        d.availability = c.provider.host.empty() && c.provider.type == "ssh"
                             ? DeviceAvailability{false, "ssh provider without a host: set one in devices.json"}
                             : DeviceAvailability{true, ""};
      }
      r.devices.push_back(std::move(d));
    }
  }
  if (options.include_virtual) {
    std::unordered_set<std::string> ids;
    for (const auto& d : r.devices) ids.insert(d.id);
    for (auto& d : backend_virtual_devices())
      if (ids.insert(d.id).second) r.devices.push_back(std::move(d));
  }
  return r;
}

backends::AutoContext auto_context(const Discovery& discovery, const std::string& output_path) {
  backends::AutoContext c;
  c.output_path = output_path;
  std::string unavailable;
  for (const auto& d : discovery.devices) {
    if (d.is_virtual() || d.type != DeviceType::TPU) continue;
    if (d.is_available().available) {
      c.device_target = "coral";
      c.device_reason = d.name + " (" + d.id + ") is attached and available";
      return c;
    }
    if (unavailable.empty()) unavailable = d.id + ": " + d.is_available().reason;
  }
  c.device_reason = unavailable.empty() ? "no Coral device attached" : "the Coral device is not usable (" + unavailable + ")";
  for (const auto& n : discovery.notes) c.device_reason += "; " + n;
  return c;
}

TargetChoice choose_target(const std::string& target, const Discovery& discovery, const std::string& output_path) {
  return backends::resolve_target(target, auto_context(discovery, output_path));
}

TargetChoice choose_target(const std::string& target, const std::string& output_path) {
  if (target != "auto") return backends::resolve_target(target);
  DiscoveryOptions o;
  o.include_virtual = false;
  return choose_target(target, discover_devices(o), output_path);
}

}  // namespace ec::devices
