#include "core/backends/coral/coral_pcie.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ec::backends::coral {
using namespace ec::devices;
namespace fs = std::filesystem;

namespace {
std::string read_line(const fs::path& p) {
  std::ifstream f(p);
  std::string s;
  std::getline(f, s);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}
}  // namespace

std::string apex_open_reason(int err, const std::string& node) {
  if (err == 0) return {};
  if (err == EACCES || err == EPERM)
    return "permission denied on " + node + ": add a udev rule giving your group access (core/devices/README.md)";
  if (err == EBUSY) return "device busy: another process holds " + node;
  return "cannot open " + node + ": " + std::strerror(err);
}

std::vector<HardwareDevice> discover_coral_pcie(const std::string& libedgetpu_reason, const std::string& dev_root,
                                                const std::string& sys_root) {
  std::vector<HardwareDevice> out;
  try {
    std::error_code ec;
    std::vector<std::string> nodes;
    for (const auto& e : fs::directory_iterator(dev_root, ec)) {
      const auto name = e.path().filename().string();
      if (name.rfind("apex_", 0) == 0) nodes.push_back(name);
    }
    std::sort(nodes.begin(), nodes.end());
    for (const auto& name : nodes) {
      const std::string node = (fs::path(dev_root) / name).string();
      HardwareDevice d;
      d.type = DeviceType::TPU;
      d.vendor = "Google";
      d.id = "coral-pcie-" + name.substr(5);
      d.name = "Coral PCIe/M.2 Accelerator (Edge TPU)";
      d.metadata = {{kDiscoveredBy, "sysfs"}, {kIsVirtual, "false"}, {"Node", node}};
      const fs::path sys = fs::path(sys_root) / "class" / "apex" / name;
      if (fs::exists(sys, ec)) {
        const auto vendor = read_line(sys / "device" / "vendor"), device = read_line(sys / "device" / "device");
        if (!vendor.empty()) d.metadata["PciId"] = vendor + ":" + device;
        if (const auto status = read_line(sys / "status"); !status.empty()) d.metadata["DriverStatus"] = status;
        if (const auto temp = read_line(sys / "temp"); !temp.empty()) d.metadata["TemperatureMilliC"] = temp;
      }
      const int fd = ::open(node.c_str(), O_RDWR | O_CLOEXEC);
      const int err = fd < 0 ? errno : 0;
      if (fd >= 0) ::close(fd);
      std::string reason = apex_open_reason(err, node);
      if (reason.empty()) reason = libedgetpu_reason;
      d.availability = {reason.empty(), reason};
      out.push_back(std::move(d));
    }
  } catch (...) {
    // Never throws: an unreadable /dev lists no PCIe accelerator.
  }
  return out;
}

}  // namespace ec::backends::coral
