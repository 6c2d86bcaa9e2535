#include "core/devices/discovery.h"

#include <map>
#include <unordered_set>

#include "core/backends/backend_registry.h"
#include "core/devices/cpu_info.h"

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
  // Each backend probes for its own devices (core/backends/<name>/), in the table's order.
  const backends::DiscoveryContext context{options.dev_root, options.sys_root};
  for (const auto& entry : backends::backend_table()) {
    try {
      auto found = entry.factory()->discover(context);
      for (auto& n : found.notes) r.notes.push_back(std::move(n));
      for (auto& d : found.devices) r.devices.push_back(std::move(d));
    } catch (const std::exception& e) {
      r.notes.push_back(std::string(entry.name) + ": device discovery failed: " + e.what());
    } catch (...) {
      r.notes.push_back(std::string(entry.name) + ": device discovery failed");
    }
  }
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
  // What each backend calls its devices, in the table's order ("Coral device").
  std::map<std::string, std::string> noun;
  std::string nouns;
  for (const auto& entry : backends::backend_table()) {
    std::string n;
    try {
      n = entry.factory()->capabilities().device_noun;
    } catch (...) {
      // a backend that cannot be created decides nothing
    }
    if (n.empty()) continue;
    noun[std::string(entry.name)] = n;
    nouns += (nouns.empty() ? "" : " or ") + n;
  }
  // The first attached, usable device a backend discovered decides (the host CPU and
  // devices only devices.json names belong to no backend).
  std::string unavailable;
  for (const auto& d : discovery.devices) {
    const std::string backend = d.backend();
    if (d.is_virtual() || !noun.count(backend)) continue;
    if (d.is_available().available) {
      c.device_target = backend;
      c.device_reason = d.name + " (" + d.id + ") is attached and available";
      return c;
    }
    if (unavailable.empty()) unavailable = "the " + noun[backend] + " is not usable (" + d.id + ": " + d.is_available().reason + ")";
  }
  c.device_reason = !unavailable.empty() ? unavailable : nouns.empty() ? std::string("no device of a backend attached")
                                                                      : "no " + nouns + " attached";
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
