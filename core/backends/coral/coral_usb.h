// Coral USB Accelerators found through libusb. The accelerator enumerates as
// 1a6e:089a (Global Unichip, before libedgetpu loads its firmware) and as
// 18d1:9302 (Google, after).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/backends/hardware_device.h"

namespace ec::backends::coral {
using devices::HardwareDevice;

/// The 18-byte USB device descriptor (USB 2.0 spec, table 9-8), little-endian fields decoded.
struct UsbDeviceDescriptor {
  std::uint16_t bcd_usb = 0;
  std::uint8_t device_class = 0, device_subclass = 0, device_protocol = 0, max_packet_size0 = 0;
  std::uint16_t vendor_id = 0, product_id = 0, bcd_device = 0;
  std::uint8_t num_configurations = 0;
};

/// Decodes a device descriptor (the first descriptor of sysfs' `descriptors` file, or
/// what libusb_get_device_descriptor reads). Returns nullopt with `error` set when the
/// bytes are not one (too short, bLength != 18, bDescriptorType != 1).
std::optional<UsbDeviceDescriptor> parse_usb_device_descriptor(std::span<const std::uint8_t> bytes,
                                                              std::string* error = nullptr);

enum class CoralUsbState { NotCoral, BeforeFirmware, Ready };
/// 1a6e:089a -> BeforeFirmware, 18d1:9302 -> Ready, anything else NotCoral.
CoralUsbState classify_coral_usb(std::uint16_t vendor_id, std::uint16_t product_id);

/// Where a USB device sits, for its id and for the reasons we give.
struct UsbLocation {
  int bus = 0, address = 0;
  std::string ports;  // "2-3" style port path, "" when unknown
};

/// Turns a USB device that is a Coral into a device entry; `open_error` is libusb's error
/// code from opening it (0 = opened), `libedgetpu_reason` is "" when libedgetpu.so.1 loads.
/// The availability reason names the first thing to fix: permission (a udev rule), busy,
/// then the missing library.
HardwareDevice coral_usb_device(const UsbDeviceDescriptor& d, const UsbLocation& where, int open_error,
                                const std::string& libedgetpu_reason);

/// What a libusb enumeration found.
struct UsbScan {
  std::vector<HardwareDevice> corals;
  int usb_devices_seen = 0;
  std::string note;  // "no Coral found (N USB devices seen)", or why USB could not be scanned
};

/// Enumerates USB devices with libusb and returns every Coral. Never throws: a machine
/// without a USB bus, or where libusb cannot initialise, gives no Coral and says why in `note`.
UsbScan discover_coral_usb(const std::string& libedgetpu_reason);

}  // namespace ec::backends::coral
