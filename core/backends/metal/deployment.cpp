#include "core/backends/metal/deployment.h"

#include <array>

#include "core/errors.h"

namespace ec::backends::metal {
namespace {

// spec 7 = iOS16/macOS13 (CoreML6), 8 = iOS17/macOS14 (CoreML7), 9 = iOS18/macOS15 (CoreML8).
constexpr std::array<DeploymentTarget, 6> kTargets{{
    {"macOS13", 7, "CoreML6", 16},
    {"macOS14", 8, "CoreML7", 17},
    {"macOS15", 9, "CoreML8", 18},
    {"iOS16", 7, "CoreML6", 16},
    {"iOS17", 8, "CoreML7", 17},
    {"iOS18", 9, "CoreML8", 18},
}};

}  // namespace

std::span<const DeploymentTarget> deployment_targets() { return kTargets; }

std::string deployment_target_names() {
  std::string s;
  for (const auto& t : kTargets) s += (s.empty() ? "" : ", ") + std::string(t.name);
  return s;
}

const DeploymentTarget& find_deployment_target(const std::string& name) {
  for (const auto& t : kTargets)
    if (t.name == name) return t;
  throw EdgeCompilerError(ErrorKind::Usage,
                          "--deployment-target " + name + ": unknown; known: " + deployment_target_names());
}

}  // namespace ec::backends::metal
