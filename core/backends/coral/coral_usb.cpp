#include "core/backends/coral/coral_usb.h"

#include <libusb-1.0/libusb.h>

#include <cstdio>
#include <memory>

namespace ec::backends::coral {
using namespace ec::devices;

std::optional<UsbDeviceDescriptor> parse_usb_device_descriptor(std::span<const std::uint8_t> b, std::string* error) {
  auto fail = [&](std::string why) -> std::optional<UsbDeviceDescriptor> {
    if (error) *error = std::move(why);
    return std::nullopt;
  };
  if (b.size() < 18) return fail("a USB device descriptor is 18 bytes, got " + std::to_string(b.size()));
  if (b[0] != 18) return fail("bLength is " + std::to_string(b[0]) + ", a device descriptor has 18");
  if (b[1] != 1) return fail("bDescriptorType is " + std::to_string(b[1]) + ", a device descriptor has 1");
  auto u16 = [&](std::size_t i) { return static_cast<std::uint16_t>(b[i] | (b[i + 1] << 8)); };
  UsbDeviceDescriptor d;
  d.bcd_usb = u16(2);
  d.device_class = b[4];
  d.device_subclass = b[5];
  d.device_protocol = b[6];
  d.max_packet_size0 = b[7];
  d.vendor_id = u16(8);
  d.product_id = u16(10);
  d.bcd_device = u16(12);
  d.num_configurations = b[17];
  return d;
}

CoralUsbState classify_coral_usb(std::uint16_t vendor_id, std::uint16_t product_id) {
  if (vendor_id == 0x1a6e && product_id == 0x089a) return CoralUsbState::BeforeFirmware;
  if (vendor_id == 0x18d1 && product_id == 0x9302) return CoralUsbState::Ready;
  return CoralUsbState::NotCoral;
}

namespace {
std::string hex4(std::uint16_t v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04x", v);
  return buf;
}
std::string bcd(std::uint16_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%x.%02x", v >> 8, v & 0xff);
  return buf;
}
std::string usb_node(const UsbLocation& w) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "/dev/bus/usb/%03d/%03d", w.bus, w.address);
  return buf;
}
}  // namespace

HardwareDevice coral_usb_device(const UsbDeviceDescriptor& d, const UsbLocation& where, int open_error,
                                const std::string& libedgetpu_reason) {
  const auto state = classify_coral_usb(d.vendor_id, d.product_id);
  HardwareDevice dev;
  dev.type = DeviceType::TPU;
  dev.vendor = "Google";
  dev.id = "coral-usb-" + (where.ports.empty() ? std::to_string(where.bus) + "-" + std::to_string(where.address) : where.ports);
  dev.name = "Coral USB Accelerator (Edge TPU)";
  dev.metadata = {{kDiscoveredBy, "libusb"},
                  {kIsVirtual, "false"},
                  {"UsbId", hex4(d.vendor_id) + ":" + hex4(d.product_id)},
                  {"Firmware", state == CoralUsbState::Ready ? "loaded" : "not loaded (libedgetpu loads it on first use)"},
                  {"UsbVersion", bcd(d.bcd_usb)},
                  {"Node", usb_node(where)}};
  if (open_error == LIBUSB_ERROR_ACCESS)
    dev.availability = {false, "permission denied on " + usb_node(where) +
                                   ": add a udev rule (core/devices/README.md) and replug the accelerator"};
  else if (open_error == LIBUSB_ERROR_BUSY)
    dev.availability = {false, "device busy: another process holds " + usb_node(where)};
  else if (open_error != 0)
    dev.availability = {false, std::string("cannot open ") + usb_node(where) + ": " + libusb_strerror(static_cast<libusb_error>(open_error))};
  else if (!libedgetpu_reason.empty())
    dev.availability = {false, libedgetpu_reason};
  else
    dev.availability = {true, ""};
  return dev;
}

UsbScan discover_coral_usb(const std::string& libedgetpu_reason) {
  UsbScan scan;
  try {
    libusb_context* raw = nullptr;
    if (const int rc = libusb_init(&raw); rc != 0) {
      scan.note = std::string("no Coral found (libusb cannot scan USB here: ") + libusb_strerror(static_cast<libusb_error>(rc)) + ")";
      return scan;
    }
    std::unique_ptr<libusb_context, void (*)(libusb_context*)> ctx(raw, libusb_exit);
    libusb_device** list = nullptr;
    const ssize_t n = libusb_get_device_list(ctx.get(), &list);
    if (n < 0) {
      scan.note = std::string("no Coral found (libusb cannot list devices: ") + libusb_strerror(static_cast<libusb_error>(n)) + ")";
      return scan;
    }
    std::unique_ptr<libusb_device*, void (*)(libusb_device**)> guard(list, [](libusb_device** l) { libusb_free_device_list(l, 1); });
    scan.usb_devices_seen = static_cast<int>(n);
    for (ssize_t i = 0; i < n; ++i) {
      libusb_device_descriptor desc{};
      if (libusb_get_device_descriptor(list[i], &desc) != 0) continue;
      if (classify_coral_usb(desc.idVendor, desc.idProduct) == CoralUsbState::NotCoral) continue;
      // Re-pack the struct as the wire bytes so one parser decodes both sources.
      std::uint8_t wire[18] = {desc.bLength, desc.bDescriptorType,
                               static_cast<std::uint8_t>(desc.bcdUSB & 0xff), static_cast<std::uint8_t>(desc.bcdUSB >> 8),
                               desc.bDeviceClass, desc.bDeviceSubClass, desc.bDeviceProtocol, desc.bMaxPacketSize0,
                               static_cast<std::uint8_t>(desc.idVendor & 0xff), static_cast<std::uint8_t>(desc.idVendor >> 8),
                               static_cast<std::uint8_t>(desc.idProduct & 0xff), static_cast<std::uint8_t>(desc.idProduct >> 8),
                               static_cast<std::uint8_t>(desc.bcdDevice & 0xff), static_cast<std::uint8_t>(desc.bcdDevice >> 8),
                               desc.iManufacturer, desc.iProduct, desc.iSerialNumber, desc.bNumConfigurations};
      const auto parsed = parse_usb_device_descriptor(wire);
      if (!parsed) continue;
      UsbLocation where{libusb_get_bus_number(list[i]), libusb_get_device_address(list[i]), {}};
      std::uint8_t ports[8];
      const int np = libusb_get_port_numbers(list[i], ports, 8);
      if (np > 0) {
        where.ports = std::to_string(where.bus) + "-";
        for (int k = 0; k < np; ++k) where.ports += (k ? "." : "") + std::to_string(ports[k]);
      }
      libusb_device_handle* h = nullptr;
      const int open_rc = libusb_open(list[i], &h);
      if (h) libusb_close(h);
      scan.corals.push_back(coral_usb_device(*parsed, where, open_rc, libedgetpu_reason));
    }
    if (scan.corals.empty())
      scan.note = "no Coral found (" + std::to_string(scan.usb_devices_seen) + " USB device" +
                  (scan.usb_devices_seen == 1 ? "" : "s") + " seen)";
  } catch (const std::exception& e) {
    scan.note = std::string("no Coral found (USB scan failed: ") + e.what() + ")";
  } catch (...) {
    scan.note = "no Coral found (USB scan failed)";
  }
  return scan;
}

}  // namespace ec::backends::coral
