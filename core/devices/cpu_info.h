// The host CPU: model, cores and ISA features, from /proc/cpuinfo (x86-64 and
// aarch64 layouts) and, on x86, the cpuid instruction.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/backends/hardware_device.h"

namespace ec::devices {

struct CpuInfo {
  std::string arch;            // "x86_64", "aarch64"
  std::string vendor;          // "AMD", "Intel", "ARM", ...
  std::string model;           // "AMD EPYC 7B13", "Cortex-A72"
  int logical_cores = 0;       // "processor" entries
  int physical_cores = 0;      // distinct (physical id, core id) pairs; = logical when not given
  std::vector<std::string> isa;  // features that matter for inference, in a fixed order
};

/// Parses the text of /proc/cpuinfo. `arch` is "x86_64" or "aarch64" (the layouts differ).
/// ISA names: AVX2, FMA, AVX-512F, AVX-512BW, AVX-512 VNNI, AVX-VNNI, AVX-512 BF16,
/// AMX-TILE, AMX-INT8, AMX-BF16 (x86); NEON, dotprod, i8mm, SVE, SVE2, bf16, fp16 (ARM).
CpuInfo parse_proc_cpuinfo(std::string_view text, std::string_view arch);

/// The same ISA names as the CPU reports them through cpuid (x86-64 only; empty elsewhere).
/// AVX/AVX-512/AMX features count only when the OS enables their register state (xgetbv).
std::vector<std::string> cpuid_isa_features();
/// The brand string from cpuid leaves 0x80000002-4 (x86-64; "" elsewhere).
std::string cpuid_brand();

/// The host CPU as a device (id "host-cpu"; DiscoveredBy "cpuid" on x86, "sysfs" elsewhere).
/// Never throws: an unreadable /proc/cpuinfo leaves fields empty.
HardwareDevice host_cpu_device();

}  // namespace ec::devices
