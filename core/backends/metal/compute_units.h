// Compute-unit prediction for Core ML: per op the unit it is expected on
// (Neural Engine, GPU or CPU) and, for every op not on the Neural Engine, the
// rule that moved it, from ONE rule table (compute_units.cpp) whose rows cite
// their public sources (README.md). A prediction: Core ML decides on the device.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "core/ir/graph.h"

namespace ec::backends::metal {

enum class ComputeUnit { ANE, GPU, CPU };
const char* compute_unit_name(ComputeUnit u);  // "ANE", "GPU", "CPU"

/// MLComputeUnits the model is compiled for (--compute-units).
enum class AllowedUnits { All, CpuAndNE, CpuAndGPU, CpuOnly };
/// "all", "cpu_and_ne", "cpu_and_gpu", "cpu_only"; throws EdgeCompilerError (Usage) listing them.
AllowedUnits allowed_units_from_name(const std::string& s);

struct UnitRule {
  std::string_view id;       // "ane.precision_fp32", ...
  std::string_view summary;  // what the rule says
  std::string_view source;   // where it comes from
};
/// Every rule, in the order they are checked.
std::span<const UnitRule> unit_rules();

struct UnitChoice {
  ComputeUnit unit = ComputeUnit::ANE;
  std::string rule;    // "" when on the ANE
  std::string reason;  // why not on the ANE (names the rule's fact and the op's detail)
};

struct UnitOptions {
  bool fp16 = true;
  AllowedUnits allowed = AllowedUnits::All;
  int ios = 16;  // deployment target's iOS version (some placements changed with the OS)
};

/// The unit `graph.ops[index]` (lowered to `mil_ops`) is expected on.
UnitChoice predict_unit(const ir::Graph& graph, std::size_t index, const std::string& mil_ops, const UnitOptions& o);

/// Virtual Apple Neural Engine devices: name and published peak TOPS (int8/fp16
/// figures as Apple announced them). ONE table; the estimate reads it.
struct AneDevice {
  std::string_view name;
  double tops;
  std::string_view source;
};
std::span<const AneDevice> virtual_ane_devices();

}  // namespace ec::backends::metal
