// ONE table of the Core ML deployment targets this backend writes for: the
// Model.proto specificationVersion and the MIL opset each OS reads
// (coremltools/__init__.py _SPECIFICATION_VERSION_IOS_*, _OPSET; Model.proto).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ec::backends::metal {

struct DeploymentTarget {
  std::string_view name;    // "macOS13", "iOS16", ...
  int spec_version;         // Model.specificationVersion
  std::string_view opset;   // Function.opset: "CoreML6", ...
  int ios;                  // the iOS release of the same Core ML version (16, 17, 18)
};

std::span<const DeploymentTarget> deployment_targets();
/// "macOS13, macOS14, ...": for messages.
std::string deployment_target_names();
/// The row named `name`; throws EdgeCompilerError (Usage) listing the known ones.
const DeploymentTarget& find_deployment_target(const std::string& name);

}  // namespace ec::backends::metal
