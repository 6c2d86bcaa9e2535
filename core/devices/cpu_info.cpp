#include "core/devices/cpu_info.h"

#include <fstream>
#include <set>
#include <span>
#include <sstream>
#include <thread>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ec::devices {
namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// ONE table from /proc/cpuinfo flag names to the names we show (x86 "flags", ARM "Features"),
// in the order they are listed.
struct IsaName {
  const char* flag;
  const char* shown;
};
constexpr IsaName kX86Isa[] = {
    {"avx2", "AVX2"},           {"fma", "FMA"},           {"avx512f", "AVX-512F"},   {"avx512bw", "AVX-512BW"},
    {"avx512_vnni", "AVX-512 VNNI"}, {"avx_vnni", "AVX-VNNI"}, {"avx512_bf16", "AVX-512 BF16"},
    {"amx_tile", "AMX-TILE"},   {"amx_int8", "AMX-INT8"}, {"amx_bf16", "AMX-BF16"},
};
constexpr IsaName kArmIsa[] = {
    {"asimd", "NEON"}, {"asimddp", "dotprod"}, {"i8mm", "i8mm"}, {"sve", "SVE"},
    {"sve2", "SVE2"},  {"bf16", "bf16"},       {"asimdhp", "fp16"},
};

// ARM's "CPU implementer" / "CPU part" codes for the cores edge boards carry (Arm's TRMs).
std::string arm_core_name(const std::string& implementer, const std::string& part) {
  if (implementer == "0x41") {
    static const std::pair<const char*, const char*> parts[] = {
        {"0xd03", "Cortex-A53"}, {"0xd04", "Cortex-A35"}, {"0xd05", "Cortex-A55"}, {"0xd07", "Cortex-A57"},
        {"0xd08", "Cortex-A72"}, {"0xd09", "Cortex-A73"}, {"0xd0a", "Cortex-A75"}, {"0xd0b", "Cortex-A76"},
        {"0xd0c", "Neoverse-N1"}, {"0xd0d", "Cortex-A77"}, {"0xd40", "Neoverse-V1"}, {"0xd41", "Cortex-A78"},
        {"0xd46", "Cortex-A510"}, {"0xd47", "Cortex-A710"}, {"0xd49", "Neoverse-N2"}, {"0xd4f", "Neoverse-V2"},
    };
    for (const auto& [p, n] : parts)
      if (part == p) return n;
  }
  return "ARM core (implementer " + implementer + ", part " + part + ")";
}

std::string arm_vendor(const std::string& implementer) {
  if (implementer == "0x41") return "ARM";
  if (implementer == "0x61") return "Apple";
  if (implementer == "0x51") return "Qualcomm";
  if (implementer == "0x48") return "HiSilicon";
  if (implementer == "0xc0") return "Ampere";
  return implementer.empty() ? std::string() : "implementer " + implementer;
}

std::string x86_vendor(const std::string& vendor_id) {
  if (vendor_id == "AuthenticAMD") return "AMD";
  if (vendor_id == "GenuineIntel") return "Intel";
  return vendor_id;
}

std::vector<std::string> shown_isa(const std::set<std::string>& flags, bool arm) {
  std::vector<std::string> out;
  for (const auto& [flag, shown] : arm ? std::span<const IsaName>(kArmIsa) : std::span<const IsaName>(kX86Isa))
    if (flags.count(flag)) out.emplace_back(shown);
  return out;
}

}  // namespace

CpuInfo parse_proc_cpuinfo(std::string_view text, std::string_view arch) {
  CpuInfo info;
  info.arch = std::string(arch);
  const bool arm = arch == "aarch64" || arch == "arm64";
  std::set<std::string> flags;
  std::set<std::pair<std::string, std::string>> cores;  // (physical id, core id)
  std::string physical, implementer, part, board;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(std::string_view(line).substr(0, colon));
    const std::string value = trim(std::string_view(line).substr(colon + 1));
    if (key == "processor") {
      ++info.logical_cores;
    } else if (key == "model name" && info.model.empty()) {
      info.model = value;
    } else if (key == "vendor_id" && info.vendor.empty()) {
      info.vendor = x86_vendor(value);
    } else if (key == "physical id") {
      physical = value;
    } else if (key == "core id") {
      cores.emplace(physical, value);
    } else if (key == "flags" || key == "Features") {
      std::istringstream f(value);
      std::string flag;
      while (f >> flag) flags.insert(flag);
    } else if (key == "CPU implementer" && implementer.empty()) {
      implementer = value;
    } else if (key == "CPU part" && part.empty()) {
      part = value;
    } else if (key == "Model") {
      board = value;  // Raspberry Pi and other boards name themselves at the end
    }
  }
  if (arm) {
    if (info.vendor.empty()) info.vendor = arm_vendor(implementer);
    if (info.model.empty() && !part.empty()) info.model = arm_core_name(implementer, part);
    if (!board.empty()) info.model += (info.model.empty() ? "" : " (") + board + (info.model.empty() ? "" : ")");
  }
  info.physical_cores = cores.empty() ? info.logical_cores : static_cast<int>(cores.size());
  info.isa = shown_isa(flags, arm);
  return info;
}

std::vector<std::string> cpuid_isa_features() {
  std::set<std::string> flags;
#if defined(__x86_64__) || defined(__i386__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return {};
  const bool osxsave = (c >> 27) & 1;
  const bool fma = (c >> 12) & 1;
  unsigned long long xcr0 = 0;
  if (osxsave) {
    unsigned lo = 0, hi = 0;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
  const bool avx_state = (xcr0 & 0x6) == 0x6;            // XMM + YMM
  const bool avx512_state = avx_state && (xcr0 & 0xe0) == 0xe0;  // opmask + ZMM
  const bool amx_state = (xcr0 & 0x60000) == 0x60000;    // XTILECFG + XTILEDATA
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d)) {
    if (avx_state && ((b >> 5) & 1)) flags.insert("avx2");
    if (avx_state && fma) flags.insert("fma");
    if (avx512_state && ((b >> 16) & 1)) flags.insert("avx512f");
    if (avx512_state && ((b >> 30) & 1)) flags.insert("avx512bw");
    if (avx512_state && ((c >> 11) & 1)) flags.insert("avx512_vnni");
    if (amx_state && ((d >> 24) & 1)) flags.insert("amx_tile");
    if (amx_state && ((d >> 25) & 1)) flags.insert("amx_int8");
    if (amx_state && ((d >> 22) & 1)) flags.insert("amx_bf16");
    if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d)) {
      if (avx_state && ((a >> 4) & 1)) flags.insert("avx_vnni");
      if (avx512_state && ((a >> 5) & 1)) flags.insert("avx512_bf16");
    }
  }
#endif
  return shown_isa(flags, false);
}

std::string cpuid_brand() {
#if defined(__x86_64__) || defined(__i386__)
  unsigned regs[12] = {};
  if (__get_cpuid_max(0x80000000u, nullptr) < 0x80000004u) return {};
  for (unsigned i = 0; i < 3; ++i) __get_cpuid(0x80000002u + i, &regs[4 * i], &regs[4 * i + 1], &regs[4 * i + 2], &regs[4 * i + 3]);
  return trim(std::string_view(reinterpret_cast<const char*>(regs), sizeof regs).substr(0, std::string_view(reinterpret_cast<const char*>(regs), sizeof regs).find('\0')));
#else
  return {};
#endif
}

HardwareDevice host_cpu_device() {
  HardwareDevice d;
  d.type = DeviceType::CPU;
  d.id = "host-cpu";
#if defined(__x86_64__)
  const std::string arch = "x86_64";
#elif defined(__aarch64__)
  const std::string arch = "aarch64";
#else
  const std::string arch = "unknown";
#endif
  CpuInfo info;
  try {
    std::ifstream f("/proc/cpuinfo");
    std::stringstream text;
    text << f.rdbuf();
    info = parse_proc_cpuinfo(text.str(), arch);
  } catch (...) {
    info.arch = arch;  // never throws: an unreadable file leaves the fields empty
  }
  if (info.logical_cores == 0) info.logical_cores = info.physical_cores = static_cast<int>(std::thread::hardware_concurrency());
  std::string discovered = "sysfs";
#if defined(__x86_64__) || defined(__i386__)
  // cpuid is the authority on x86: it also checks the OS enables the registers.
  info.isa = cpuid_isa_features();
  if (const auto brand = cpuid_brand(); !brand.empty() && info.model.empty()) info.model = brand;
  discovered = "cpuid";
#endif
  d.vendor = info.vendor.empty() ? "unknown" : info.vendor;
  d.name = info.model.empty() ? "host CPU" : info.model;
  std::string isa;
  for (const auto& f : info.isa) isa += (isa.empty() ? "" : " ") + f;
  d.metadata = {{kDiscoveredBy, discovered},
                {kIsVirtual, "false"},
                {"Architecture", info.arch},
                {"LogicalCores", std::to_string(info.logical_cores)},
                {"PhysicalCores", std::to_string(info.physical_cores)},
                {"ISA", isa}};
  d.availability = {true, ""};
  return d;
}

}  // namespace ec::devices
