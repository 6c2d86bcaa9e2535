// The Coral devices attached to this machine: USB Accelerators (libusb) and PCIe/M.2
// cards (/dev/apex_*), each said unavailable with the first thing to fix.
#include "core/backends/coral/coral_backend.h"
#include "core/backends/coral/coral_pcie.h"
#include "core/backends/coral/coral_usb.h"
#include "core/backends/coral/edgetpu_library.h"

namespace ec::backends::coral {

Discovered CoralBackend::discover(const DiscoveryContext& context) const noexcept {
  Discovered r;
  try {
    const std::string libedgetpu = libedgetpu_reason();
    auto usb = discover_coral_usb(libedgetpu);
    if (!usb.note.empty()) r.notes.push_back(usb.note);
    for (auto& d : usb.corals) r.devices.push_back(std::move(d));
    auto pcie = discover_coral_pcie(libedgetpu, context.dev_root, context.sys_root);
    if (pcie.empty()) r.notes.push_back("no Coral PCIe/M.2 card found (no " + context.dev_root + "/apex_*)");
    for (auto& d : pcie) r.devices.push_back(std::move(d));
    for (auto& d : r.devices) d.metadata[devices::kBackend] = name();
  } catch (const std::exception& e) {
    r.notes.push_back(std::string("Coral discovery failed: ") + e.what());
  } catch (...) {
    r.notes.push_back("Coral discovery failed");
  }
  return r;
}

}  // namespace ec::backends::coral
