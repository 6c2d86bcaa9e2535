// Discovery: /proc/cpuinfo and USB descriptors parsed from recorded data; the real
// probes (cpuid, libusb, /dev/apex_*) run on this machine; virtual devices of the backends.
#include <gtest/gtest.h>
#include <libusb-1.0/libusb.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/backends/backend_registry.h"
#include "core/devices/test/test_data.h"
#include "core/devices/cpu_info.h"
#include "core/devices/discovery.h"
#ifdef EC_HAVE_CORAL
#include "core/backends/coral/coral_pcie.h"
#include "core/backends/coral/coral_usb.h"
using namespace ec::backends::coral;
#endif

using namespace ec::devices;
namespace fs = std::filesystem;

namespace {
std::string read(const std::string& name) { return read_test_data(name); }
std::vector<std::uint8_t> read_hex(const std::string& name) {
  std::istringstream in(read(name));
  std::vector<std::uint8_t> b;
  unsigned v;
  while (in >> std::hex >> v) b.push_back(static_cast<std::uint8_t>(v));
  return b;
}
bool has(const std::vector<std::string>& v, const std::string& s) { return std::find(v.begin(), v.end(), s) != v.end(); }
}  // namespace

TEST(CpuInfo, RecordedX86EpycWithAvx512) {
  const auto info = parse_proc_cpuinfo(read("cpuinfo_x86_64_amd_epyc.txt"), "x86_64");
  EXPECT_EQ(info.model, "AMD EPYC");
  EXPECT_EQ(info.vendor, "AMD");
  EXPECT_EQ(info.logical_cores, 2);
  EXPECT_EQ(info.physical_cores, 2);
  EXPECT_EQ(info.isa, (std::vector<std::string>{"AVX2", "FMA", "AVX-512F", "AVX-512BW", "AVX-512 VNNI", "AVX-512 BF16"}));
}

TEST(CpuInfo, RecordedRaspberryPi4Aarch64) {
  const auto info = parse_proc_cpuinfo(read("cpuinfo_aarch64_rpi4.txt"), "aarch64");
  EXPECT_EQ(info.model, "Cortex-A72 (Raspberry Pi 4 Model B Rev 1.5)");
  EXPECT_EQ(info.vendor, "ARM");
  EXPECT_EQ(info.logical_cores, 4);
  EXPECT_EQ(info.physical_cores, 4);
  EXPECT_EQ(info.isa, std::vector<std::string>{"NEON"});  // the A72 has no dot product instructions
}

TEST(CpuInfo, ArmDotprodAndI8mmFeatureNames) {
  const auto info = parse_proc_cpuinfo(
      "processor\t: 0\nFeatures\t: fp asimd evtstrm aes crc32 asimdhp cpuid asimdrdm lrcpc dcpop asimddp i8mm bf16\n"
      "CPU implementer\t: 0x41\nCPU part\t: 0xd0b\n",
      "aarch64");
  EXPECT_EQ(info.model, "Cortex-A76");
  EXPECT_EQ(info.isa, (std::vector<std::string>{"NEON", "dotprod", "i8mm", "bf16", "fp16"}));
}

TEST(CpuInfo, HostCpuAlwaysFoundAndCpuidAgreesWithTheKernel) {
  const auto d = host_cpu_device();
  EXPECT_EQ(d.id, "host-cpu");
  EXPECT_EQ(d.type, DeviceType::CPU);
  EXPECT_TRUE(d.is_available().available);
  EXPECT_FALSE(d.is_virtual());
  EXPECT_GE(std::stoi(d.meta("LogicalCores")), 1);
#if defined(__x86_64__)
  EXPECT_EQ(d.discovered_by(), "cpuid");
  // Two independent sources: the cpuid instruction (with xgetbv) and the kernel's flags.
  std::ifstream f("/proc/cpuinfo");
  std::stringstream s;
  s << f.rdbuf();
  EXPECT_EQ(cpuid_isa_features(), parse_proc_cpuinfo(s.str(), "x86_64").isa);
  EXPECT_FALSE(cpuid_brand().empty());
#endif
}

#ifdef EC_HAVE_CORAL  // the Coral probes live in core/backends/coral
TEST(Usb, RecordedDescriptorOfAnotherVendorWithProduct9302IsNotACoral) {
  std::string error;
  const auto d = parse_usb_device_descriptor(read_hex("usb_savitech_262a_9302.hex"), &error);
  ASSERT_TRUE(d) << error;
  EXPECT_EQ(d->vendor_id, 0x262a);
  EXPECT_EQ(d->product_id, 0x9302);
  EXPECT_EQ(d->bcd_usb, 0x0200);
  EXPECT_EQ(d->device_class, 239);
  EXPECT_EQ(d->max_packet_size0, 64);
  EXPECT_EQ(d->bcd_device, 0x0001);
  EXPECT_EQ(classify_coral_usb(d->vendor_id, d->product_id), CoralUsbState::NotCoral);
}

TEST(Usb, CoralBeforeAndAfterFirmwareLoad) {
  const auto before = parse_usb_device_descriptor(read_hex("usb_coral_1a6e_089a.hex"));
  const auto after = parse_usb_device_descriptor(read_hex("usb_coral_18d1_9302.hex"));
  ASSERT_TRUE(before && after);
  EXPECT_EQ(classify_coral_usb(before->vendor_id, before->product_id), CoralUsbState::BeforeFirmware);
  EXPECT_EQ(classify_coral_usb(after->vendor_id, after->product_id), CoralUsbState::Ready);
  const auto dev = coral_usb_device(*after, {2, 3, "2-1"}, 0, "");
  EXPECT_EQ(dev.id, "coral-usb-2-1");
  EXPECT_EQ(dev.type, DeviceType::TPU);
  EXPECT_EQ(dev.discovered_by(), "libusb");
  EXPECT_EQ(dev.meta("UsbId"), "18d1:9302");
  EXPECT_EQ(dev.meta("UsbVersion"), "3.10");
  EXPECT_EQ(dev.meta("Node"), "/dev/bus/usb/002/003");
  EXPECT_TRUE(dev.is_available().available);
  EXPECT_EQ(coral_usb_device(*before, {1, 4, ""}, 0, "").id, "coral-usb-1-4");
}

TEST(Usb, BadDescriptorsAreRefusedWithTheReason) {
  std::string error;
  auto bytes = read_hex("usb_coral_18d1_9302.hex");
  EXPECT_FALSE(parse_usb_device_descriptor(std::span(bytes).first(10), &error));
  EXPECT_EQ(error, "a USB device descriptor is 18 bytes, got 10");
  bytes[1] = 2;  // a configuration descriptor's type
  EXPECT_FALSE(parse_usb_device_descriptor(bytes, &error));
  EXPECT_EQ(error, "bDescriptorType is 2, a device descriptor has 1");
}

TEST(Usb, AvailabilityReasonsNameTheFirstThingToFix) {
  const auto d = *parse_usb_device_descriptor(read_hex("usb_coral_18d1_9302.hex"));
  const std::string lib = "libedgetpu.so.1 not found (install the Edge TPU runtime)";
  auto perm = coral_usb_device(d, {2, 3, ""}, LIBUSB_ERROR_ACCESS, lib).is_available();
  EXPECT_FALSE(perm.available);
  EXPECT_EQ(perm.reason.rfind("permission denied on /dev/bus/usb/002/003: add a udev rule", 0), 0u) << perm.reason;
  auto busy = coral_usb_device(d, {2, 3, ""}, LIBUSB_ERROR_BUSY, lib).is_available();
  EXPECT_EQ(busy.reason.rfind("device busy", 0), 0u) << busy.reason;
  auto missing = coral_usb_device(d, {2, 3, ""}, 0, lib).is_available();
  EXPECT_FALSE(missing.available);
  EXPECT_EQ(missing.reason, lib);
}

TEST(Usb, RealLibusbEnumerationReportsNoCoralCleanly) {
  const auto scan = discover_coral_usb("");
  EXPECT_TRUE(scan.corals.empty()) << "this machine has a Coral: the test expects none";
  EXPECT_EQ(scan.note.rfind("no Coral found", 0), 0u) << scan.note;
}

TEST(Apex, OpenErrorsGiveReasons) {
  EXPECT_EQ(apex_open_reason(0, "/dev/apex_0"), "");
  EXPECT_EQ(apex_open_reason(EACCES, "/dev/apex_0").rfind("permission denied on /dev/apex_0: add a udev rule", 0), 0u);
  EXPECT_EQ(apex_open_reason(EBUSY, "/dev/apex_0"), "device busy: another process holds /dev/apex_0");
}

TEST(Apex, FindsCardsWithTheirSysfsEntries) {
  const fs::path root = fs::temp_directory_path() / ("ec_apex_" + std::to_string(::getpid()));
  fs::create_directories(root / "dev");
  fs::create_directories(root / "sys/class/apex/apex_0/device");
  std::ofstream(root / "dev/apex_0") << "";
  std::ofstream(root / "dev/null_not_apex") << "";
  std::ofstream(root / "sys/class/apex/apex_0/device/vendor") << "0x1ac1\n";
  std::ofstream(root / "sys/class/apex/apex_0/device/device") << "0x089a\n";
  std::ofstream(root / "sys/class/apex/apex_0/status") << "ALIVE\n";
  const auto found = discover_coral_pcie("libedgetpu.so.1 not found", (root / "dev").string(), (root / "sys").string());
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, "coral-pcie-0");
  EXPECT_EQ(found[0].discovered_by(), "sysfs");
  EXPECT_EQ(found[0].meta("PciId"), "0x1ac1:0x089a");
  EXPECT_EQ(found[0].meta("DriverStatus"), "ALIVE");
  EXPECT_EQ(found[0].is_available().reason, "libedgetpu.so.1 not found");
  fs::remove_all(root);
  EXPECT_TRUE(discover_coral_pcie("", "/nonexistent-dev").empty());
}

// discover_devices asks each backend (Backend::discover) with the roots it was given: the
// card the coral folder finds is the coral backend's, and "auto" reads that, not a name.
TEST(Discovery, AsksEachBackendWithTheRootsGiven) {
  const fs::path root = fs::temp_directory_path() / ("ec_apex_roots_" + std::to_string(::getpid()));
  fs::create_directories(root / "dev");
  fs::create_directories(root / "sys/class/apex/apex_3");
  std::ofstream(root / "dev/apex_3") << "";
  std::ofstream(root / "sys/class/apex/apex_3/status") << "ALIVE\n";
  const auto r = discover_devices({.include_virtual = false, .config = nullptr,
                                   .dev_root = (root / "dev").string(), .sys_root = (root / "sys").string()});
  fs::remove_all(root);
  EXPECT_EQ(r.devices.at(0).id, "host-cpu");
  EXPECT_EQ(r.devices.at(0).backend(), "");  // the host CPU belongs to no backend
  const auto* card = r.find("coral-pcie-3");
  ASSERT_TRUE(card) << r.ids();
  EXPECT_EQ(card->backend(), "coral");
  EXPECT_EQ(card->discovered_by(), "sysfs");
  EXPECT_EQ(card->meta("DriverStatus"), "ALIVE");
  for (const auto& n : r.notes) EXPECT_EQ(n.find("PCIe/M.2 card found"), std::string::npos) << n;
  const auto context = auto_context(r);
  if (card->is_available().available) {  // a libedgetpu on this machine: the card decides
    EXPECT_EQ(context.device_target, "coral");
  } else {
    EXPECT_EQ(context.device_target, "");
    EXPECT_EQ(context.device_reason.rfind("the Coral device is not usable (coral-pcie-3: ", 0), 0u) << context.device_reason;
  }
  // an empty /dev: nothing found, and the backend says what it looked for
  const auto none = discover_devices({.include_virtual = false, .config = nullptr, .dev_root = "/nonexistent-dev"});
  bool said = false;
  for (const auto& n : none.notes) said |= n == "no Coral PCIe/M.2 card found (no /nonexistent-dev/apex_*)";
  EXPECT_TRUE(said);
  EXPECT_EQ(auto_context(none).device_reason.rfind("no Coral device attached", 0), 0u) << auto_context(none).device_reason;
}

#endif

TEST(VirtualDevices, CoralOffersUsbAndPcieEdgeTpus) {
  const auto v = backend_virtual_devices();
  std::vector<std::string> ids;
  for (const auto& d : v) {
    ids.push_back(d.id);
    EXPECT_TRUE(d.is_virtual());
    EXPECT_FALSE(d.is_available().available);
    EXPECT_EQ(d.is_available().reason, "virtual: compile and estimate only");
  }
#ifdef EC_HAVE_CORAL
  ASSERT_TRUE(has(ids, "coral-virtual-usb") && has(ids, "coral-virtual-pcie"));
  EXPECT_EQ(v[0].discovered_by(), "backend coral");
  EXPECT_EQ(v[0].type, DeviceType::TPU);
  EXPECT_FALSE(v[0].meta("PerfModel").empty());
#endif
}

TEST(Discovery, ListsHostCpuFirstAndSaysWhatItDidNotFind) {
  DevicesConfig config;
  DeviceConfig board;
  board.id = "rpi-coral";
  board.name = "Raspberry Pi 4 with a Coral";
  board.provider.type = "ssh";
  board.provider.host = "rpi.local";
  board.provider.user = "pi";
  config.devices.push_back(board);
  DeviceConfig cpu;
  cpu.id = "host-cpu";
  config.devices.push_back(cpu);
  const auto r = discover_devices({.include_virtual = true, .config = &config});
  ASSERT_FALSE(r.devices.empty());
  EXPECT_EQ(r.devices[0].id, "host-cpu");
  EXPECT_EQ(r.devices[0].meta("Provider"), "local");
  const auto* remote = r.find("rpi-coral");
  ASSERT_TRUE(remote);
  EXPECT_EQ(remote->discovered_by(), "config");
  EXPECT_EQ(remote->meta("Remote"), "pi@rpi.local:22");
  EXPECT_TRUE(remote->is_available().available);
  EXPECT_NE(r.ids().find("host-cpu, "), std::string::npos);
  bool usb_note = false;
  for (const auto& n : r.notes) usb_note |= n.rfind("no Coral found", 0) == 0;
  EXPECT_TRUE(usb_note);
}

// --target auto: coral only when a Coral accelerator is attached and usable, else cpu, saying why.
TEST(ChooseTarget, AutoFollowsTheAttachedDevices) {
  using namespace ec::devices;
  Discovery none;
  none.devices.push_back(make_virtual_device(DeviceType::TPU, "Google", "coral-virtual-usb", "Virtual Edge TPU", "coral"));
  none.notes.push_back("no Coral found (3 USB devices seen)");
  auto c = choose_target("auto", none);
  EXPECT_EQ(c.target, "cpu");
  EXPECT_NE(c.reason.find("no Coral device attached"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("3 USB devices seen"), std::string::npos) << c.reason;

  Discovery busy = none;
  HardwareDevice usb;
  usb.type = DeviceType::TPU;
  usb.id = "coral-usb-2-3";
  usb.name = "Coral USB Accelerator";
  usb.metadata = {{kDiscoveredBy, "libusb"}, {kIsVirtual, "false"}, {kBackend, "coral"}};
  usb.availability = {false, "permission denied on /dev/bus/usb/002/003: add a udev rule"};
  busy.devices.push_back(usb);
  c = choose_target("auto", busy);
  EXPECT_EQ(c.target, "cpu");
  EXPECT_NE(c.reason.find("udev rule"), std::string::npos) << c.reason;

  Discovery ready = none;
  usb.availability = {true, ""};
  ready.devices.push_back(usb);
  c = choose_target("auto", ready);
  EXPECT_EQ(c.target, "coral");
  EXPECT_NE(c.reason.find("coral-usb-2-3"), std::string::npos) << c.reason;

  EXPECT_EQ(choose_target("metal", ready).target, "metal");  // an explicit target is kept
  EXPECT_TRUE(choose_target("metal", ready).reason.empty());
  // No device decides: the artefact --output names does (each backend's capabilities().artefact).
  c = choose_target("auto", none, "/tmp/m.tflite");
  EXPECT_EQ(c.target, "coral");
  EXPECT_NE(c.reason.find(".tflite file, which the coral backend writes"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("no Coral device attached"), std::string::npos) << c.reason;
  c = choose_target("auto", busy, "m.tflite");
  EXPECT_EQ(c.target, "coral");
  EXPECT_NE(c.reason.find("udev rule"), std::string::npos) << c.reason;
  if (ec::backends::backend_for_artefact("m.mlpackage") == "metal") {
    c = choose_target("auto", none, "out/m.mlpackage/");
    EXPECT_EQ(c.target, "metal") << c.reason;
    // an attached Coral cannot write a Core ML package: the artefact decides, and says so
    c = choose_target("auto", ready, "m.mlpackage");
    EXPECT_EQ(c.target, "metal") << c.reason;
    EXPECT_NE(c.reason.find("coral-usb-2-3"), std::string::npos) << c.reason;
  }
  EXPECT_EQ(choose_target("auto", ready, "m.tflite").target, "coral");
  c = choose_target("auto", none, "m.onnx");  // no backend writes it: cpu, saying so
  EXPECT_EQ(c.target, "cpu");
  EXPECT_NE(c.reason.find("no backend writes .onnx"), std::string::npos) << c.reason;
  EXPECT_EQ(ec::backends::backend_for_artefact("model"), "");
  EXPECT_EQ(ec::backends::backend_for_artefact("dir.v2/model"), "");
  // On this machine (no Coral attached) auto is the CPU, with a reason.
  c = choose_target("auto");
  if (c.target == "cpu") {
    EXPECT_NE(c.reason.find("so cpu"), std::string::npos) << c.reason;
  }
}
