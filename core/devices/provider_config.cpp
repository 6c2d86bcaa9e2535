#include "core/devices/provider_config.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_set>

#include "core/errors.h"
#include "core/ir/excerpt.h"
#include "core/util/atomic_file.h"
#include "core/util/json_text.h"
#include "core/util/safe_file.h"

namespace ec::devices {
using nlohmann::json;

ProviderConfig resolve_provider_config(const DeviceConfig& device, std::string_view component) {
  ProviderConfig c = device.provider;  // 1 + 2: the defaults, as the device overrides them
  auto it = device.components.find(std::string(component));
  if (it == device.components.end()) return c;
  const ProviderOverride& o = it->second;  // 3: the component's own fields
  if (o.type) c.type = *o.type;
  if (o.host) c.host = *o.host;
  if (o.port) c.port = *o.port;
  if (o.user) c.user = *o.user;
  if (o.key) c.key = *o.key;
  if (o.remote_dir) c.remote_dir = *o.remote_dir;
  if (o.remote_command) c.remote_command = *o.remote_command;
  if (o.ssh_options) c.ssh_options = *o.ssh_options;
  if (o.timeout_s) c.timeout_s = *o.timeout_s;
  return c;
}

const DeviceConfig* DevicesConfig::find(const std::string& id) const {
  for (const auto& d : devices)
    if (d.id == id) return &d;
  return nullptr;
}
DeviceConfig* DevicesConfig::find(const std::string& id) {
  for (auto& d : devices)
    if (d.id == id) return &d;
  return nullptr;
}

std::string devices_config_path() {
  if (const char* p = std::getenv("EC_DEVICES_CONFIG"); p && *p) return p;
  std::filesystem::path base;
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x)
    base = x;
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = std::filesystem::path(h) / ".config";
  else
    base = ".";
  return (base / "edgecompiler" / "devices.json").string();
}

DeviceType device_type_from_name(std::string_view name, bool* ok) {
  if (ok) *ok = true;
  for (auto t : {DeviceType::CPU, DeviceType::GPU, DeviceType::NPU, DeviceType::TPU})
    if (name == device_type_name(t)) return t;
  if (ok) *ok = false;
  return DeviceType::TPU;
}

namespace {

// The fields of ProviderConfig and ProviderOverride, in ONE list so both directions stay in step.
json provider_to_json(const ProviderConfig& c) {
  json j = {{"type", c.type}, {"port", c.port}, {"remote_dir", c.remote_dir}, {"timeout_s", c.timeout_s}};
  if (!c.host.empty()) j["host"] = c.host;
  if (!c.user.empty()) j["user"] = c.user;
  if (!c.key.empty()) j["key"] = c.key;
  if (!c.remote_command.empty()) j["remote_command"] = c.remote_command;
  if (!c.ssh_options.empty()) j["ssh_options"] = c.ssh_options;
  return j;
}

json override_to_json(const ProviderOverride& o) {
  json j = json::object();
  if (o.type) j["type"] = *o.type;
  if (o.host) j["host"] = *o.host;
  if (o.port) j["port"] = *o.port;
  if (o.user) j["user"] = *o.user;
  if (o.key) j["key"] = *o.key;
  if (o.remote_dir) j["remote_dir"] = *o.remote_dir;
  if (o.remote_command) j["remote_command"] = *o.remote_command;
  if (o.ssh_options) j["ssh_options"] = *o.ssh_options;
  if (o.timeout_s) j["timeout_s"] = *o.timeout_s;
  return j;
}

struct Reader {
  const std::string& path;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw EdgeCompilerError(ErrorKind::Io, path + ": " + where + ": " + what + " (fix or delete the file)");
  }
  template <class T>
  std::optional<T> get(const json& obj, const char* key, const std::string& where) const {
    auto it = obj.find(key);
    if (it == obj.end()) return std::nullopt;
    if constexpr (std::is_same_v<T, int>) {  // 1.5, true and 2^32+1 are not whole numbers in int's range
      const bool whole = it->is_number_integer() &&
                         (it->is_number_unsigned() ? it->template get<std::uint64_t>() <= INT_MAX
                                                   : it->template get<std::int64_t>() >= INT_MIN &&
                                                         it->template get<std::int64_t>() <= INT_MAX);
      if (!whole) fail(where + "." + key, "expected a whole number, got " + util::json_excerpt(*it));
    }
    try {
      return it->get<T>();
    } catch (const json::exception&) {
      fail(where + "." + key, std::string("expected ") +
                                  (std::is_same_v<T, int> ? "a whole number"
                                   : std::is_same_v<T, std::string> ? "a string"
                                                                    : "a list of strings") +
                                  ", got " + util::json_excerpt(*it));
    }
  }
  void check_keys(const json& obj, std::initializer_list<const char*> known, const std::string& where) const {
    if (!obj.is_object()) fail(where, "expected an object, got " + util::json_excerpt(obj));
    for (const auto& [k, v] : obj.items()) {
      bool ok = false;
      for (const char* n : known) ok |= k == n;
      if (!ok) fail(where, "unknown field '" + excerpt(k) + "'");
    }
  }
  ProviderOverride override_from(const json& j, const std::string& where) const {
    check_keys(j, {"type", "host", "port", "user", "key", "remote_dir", "remote_command", "ssh_options", "timeout_s"}, where);
    ProviderOverride o;
    o.type = get<std::string>(j, "type", where);
    o.host = get<std::string>(j, "host", where);
    o.port = get<int>(j, "port", where);
    o.user = get<std::string>(j, "user", where);
    o.key = get<std::string>(j, "key", where);
    o.remote_dir = get<std::string>(j, "remote_dir", where);
    o.remote_command = get<std::string>(j, "remote_command", where);
    o.ssh_options = get<std::vector<std::string>>(j, "ssh_options", where);
    o.timeout_s = get<int>(j, "timeout_s", where);
    if (o.port && (*o.port < 1 || *o.port > 65535)) fail(where + ".port", "must be 1..65535, got " + std::to_string(*o.port));
    if (o.timeout_s && *o.timeout_s < 1) fail(where + ".timeout_s", "must be at least 1");
    return o;
  }
};

}  // namespace

std::string devices_config_to_json(const DevicesConfig& config) {
  json devs = json::array();
  for (const auto& d : config.devices) {
    json j = {{"id", d.id}, {"provider", provider_to_json(d.provider)}};
    if (!d.name.empty()) j["name"] = d.name;
    if (!d.vendor.empty()) j["vendor"] = d.vendor;
    j["type"] = device_type_name(d.type);
    if (!d.components.empty()) {
      json c = json::object();
      for (const auto& [name, o] : d.components) c[name] = override_to_json(o);
      j["components"] = c;
    }
    devs.push_back(j);
  }
  return json{{"version", config.version}, {"devices", devs}}.dump(2) + "\n";
}

DevicesConfig devices_config_from_json(std::string_view text, const std::string& path) {
  Reader r{path};
  json root;
  try {
    root = util::parse_json(text, "JSON");
  } catch (const EdgeCompilerError& e) {
    r.fail(std::string(e.what()).substr(6), "the file cannot be read as devices.json");
  }
  r.check_keys(root, {"version", "devices"}, "top level");
  DevicesConfig config;
  config.version = r.get<int>(root, "version", "top level").value_or(1);
  if (config.version != 1) r.fail("version", "this edgecompile reads version 1, the file is version " + std::to_string(config.version));
  auto devs = root.find("devices");
  if (devs == root.end()) return config;
  if (!devs->is_array()) r.fail("devices", "expected a list");
  std::unordered_set<std::string> ids;  // the duplicate check in O(n), not a scan per device
  for (std::size_t i = 0; i < devs->size(); ++i) {
    const json& j = (*devs)[i];
    const std::string where = "devices[" + std::to_string(i) + "]";
    r.check_keys(j, {"id", "name", "type", "vendor", "provider", "components"}, where);
    DeviceConfig d;
    d.id = r.get<std::string>(j, "id", where).value_or("");
    if (d.id.empty()) r.fail(where, "needs an \"id\"");
    if (!ids.insert(d.id).second) r.fail(where, "device '" + excerpt(d.id) + "' is listed twice");
    d.name = r.get<std::string>(j, "name", where).value_or("");
    d.vendor = r.get<std::string>(j, "vendor", where).value_or("");
    if (auto t = r.get<std::string>(j, "type", where)) {
      bool ok = false;
      d.type = device_type_from_name(*t, &ok);
      if (!ok) r.fail(where + ".type", "must be CPU, GPU, NPU or TPU, got '" + excerpt(*t) + "'");
    }
    if (auto p = j.find("provider"); p != j.end()) {
      const ProviderOverride o = r.override_from(*p, where + ".provider");
      DeviceConfig tmp;
      tmp.components["_"] = o;
      d.provider = resolve_provider_config(tmp, "_");  // the defaults, with the file's fields over them
    }
    if (auto c = j.find("components"); c != j.end()) {
      if (!c->is_object()) r.fail(where + ".components", "expected an object");
      for (const auto& [name, o] : c->items()) {
        bool known = false;
        for (auto k : kComponents) known |= name == k;
        if (!known) r.fail(where + ".components", "unknown component '" + excerpt(name) + "' (known: compiler, profiler, invoker)");
        d.components[name] = r.override_from(o, where + ".components." + name);
      }
    }
    config.devices.push_back(std::move(d));
  }
  return config;
}

DevicesConfig load_devices_config(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec) && !std::filesystem::is_symlink(path, ec)) return {};
  // A FIFO or /dev/zero in its place is refused at once; 64 MiB is far more than any
  // list of devices needs.
  return devices_config_from_json(util::read_regular_file(path, std::uint64_t{64} << 20, path), path);
}

void save_devices_config(const DevicesConfig& config, const std::string& path) {
  const auto dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) throw EdgeCompilerError(ErrorKind::Io, dir.string() + ": cannot create the config folder: " + ec.message());
  util::write_file_atomically(path, devices_config_to_json(config));
}

}  // namespace ec::devices
