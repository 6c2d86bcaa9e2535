// How a device is reached: a typed ProviderConfig per device, overridable per
// component (compiler, profiler, invoker), and the devices.json file the CLI and
// the workbench share.
//
// Resolution order (resolve_provider_config), weakest first:
//   1. the built-in defaults below (type "local", port 22, remote dir /tmp/edgecompile, ...);
//   2. the device's "provider" object;
//   3. the component's entry under the device's "components" (only the fields it sets).
// An empty remote command means the component's default (default_remote_command).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/backends/hardware_device.h"

namespace ec::devices {

struct ProviderConfig {
  std::string type = "local";          // a key of the component's provider table ("local", "ssh", any user string)
  std::string host;                    // ssh: host name or address
  int port = 22;
  std::string user;                    // ssh: remote user ("" = ssh's default)
  std::string key;                     // ssh: identity file ("" = ssh's default keys)
  std::string remote_dir = "/tmp/edgecompile";  // ssh: where artefacts are copied
  std::string remote_command;          // ssh: {artefact} {remote_dir} {iterations} {warmup} {threads} {output} {target} are replaced
  std::vector<std::string> ssh_options;  // ssh: extra "-o" options ("ConnectTimeout=5", ...)
  int timeout_s = 600;                 // every step of a provider run
  bool operator==(const ProviderConfig&) const = default;
};

/// A component's override: only the fields it sets replace the device's.
struct ProviderOverride {
  std::optional<std::string> type, host, user, key, remote_dir, remote_command;
  std::optional<int> port, timeout_s;
  std::optional<std::vector<std::string>> ssh_options;
  bool operator==(const ProviderOverride&) const = default;
};

/// The components that have providers, in a fixed order.
inline constexpr std::string_view kComponents[] = {"compiler", "profiler", "invoker"};

/// One device's entry in devices.json. An id that discovery does not find is a device
/// of its own (a remote board reached over ssh), described by name/type/vendor.
struct DeviceConfig {
  std::string id;
  std::string name;                    // for devices only in the file
  DeviceType type = DeviceType::TPU;
  std::string vendor;
  ProviderConfig provider;
  std::map<std::string, ProviderOverride> components;  // "compiler", "profiler", "invoker"
  bool operator==(const DeviceConfig&) const = default;
};

/// The device's config for one component, in the documented order.
ProviderConfig resolve_provider_config(const DeviceConfig& device, std::string_view component);

struct DevicesConfig {
  int version = 1;
  std::vector<DeviceConfig> devices;
  const DeviceConfig* find(const std::string& id) const;
  DeviceConfig* find(const std::string& id);
  bool operator==(const DevicesConfig&) const = default;
};

/// $EC_DEVICES_CONFIG when set (tests), else $XDG_CONFIG_HOME/edgecompiler/devices.json,
/// else ~/.config/edgecompiler/devices.json.
std::string devices_config_path();

/// Reads the file; a missing file is an empty config. Throws EdgeCompilerError (kind Io)
/// naming the file and what is wrong (bad JSON, a field of the wrong type, an unknown
/// version) and never changes the file.
DevicesConfig load_devices_config(const std::string& path);
/// Writes atomically (core/util/atomic_file.h), creating the folder.
void save_devices_config(const DevicesConfig& config, const std::string& path);

/// JSON text of a config (what save writes) and its parser (what load reads).
std::string devices_config_to_json(const DevicesConfig& config);
DevicesConfig devices_config_from_json(std::string_view text, const std::string& path_for_errors);

DeviceType device_type_from_name(std::string_view name, bool* ok = nullptr);

}  // namespace ec::devices
