// `edgecompile devices [--json]`: every device edgecompile knows (core/devices),
// with its availability and, when it is not available, why.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <iostream>
#include <memory>

#include "app/cli/commands/commands.h"
#include "core/devices/discovery.h"
#include "core/flows/flows.h"

namespace ec::cli {
namespace {

int list_devices(bool json) {
  const auto list = flows::list_devices();
  if (json) {
    std::cout << flows::to_json(list).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
  }
  const auto& found = list.found;
  // Columns sized to their contents; the availability column goes last (it holds the reasons).
  std::vector<std::vector<std::string>> rows = {{"ID", "TYPE", "VENDOR", "NAME", "DISCOVERED BY", "VIRTUAL", "AVAILABLE"}};
  for (const auto& d : found.devices) {
    const auto a = d.is_available();
    rows.push_back({d.id, devices::device_type_name(d.type), d.vendor, d.name, d.discovered_by(), d.is_virtual() ? "yes" : "no",
                    a.available ? "yes" : "no: " + a.reason});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  for (const auto& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c)
      line += c + 1 == r.size() ? r[c] : r[c] + std::string(width[c] - r[c].size() + 2, ' ');
    std::cout << line << '\n';
  }
  for (const auto& d : found.devices)
    if (d.type == devices::DeviceType::CPU && !d.is_virtual())
      std::cout << d.id << ": " << d.meta("LogicalCores") << " logical / " << d.meta("PhysicalCores")
                << " physical cores, ISA " << (d.meta("ISA").empty() ? "(none of note)" : d.meta("ISA")) << '\n';
  for (const auto& n : found.notes) std::cout << "note: " << n << '\n';
  std::cout << "config: " << list.config_path << " (" << list.config.devices.size() << " device"
            << (list.config.devices.size() == 1 ? "" : "s")
            << " configured)\n";
  return 0;
}

}  // namespace

Command add_devices_command(CLI::App& app) {
  auto json = std::make_shared<bool>(false);
  auto* cmd = app.add_subcommand("devices",
                                 "List hardware devices (host CPU, the accelerators each backend discovers, virtual "
                                 "devices of the backends, devices in devices.json) and whether each is available");
  cmd->add_flag("--json", *json, "Print the list as JSON");
  return {cmd, [json] { return list_devices(*json); }};
}

}  // namespace ec::cli
