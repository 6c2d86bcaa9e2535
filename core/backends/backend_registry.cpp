#include "core/backends/backend_registry.h"

#include "core/backends/cpu/cpu_backend.h"
#include "core/errors.h"
#ifdef EC_HAVE_CORAL
#include "core/backends/coral/coral_backend.h"
#endif
#ifdef EC_HAVE_METAL
#include "core/backends/metal/metal_backend.h"
#endif

namespace ec::backends {

std::vector<BackendEntry> backend_table() {
  return {
#ifdef EC_HAVE_CORAL
      {"coral", "Google Coral Edge TPU: int8/uint8 .tflite, edgetpu_compiler's partition rules", &make_coral_backend},
#endif
#ifdef EC_HAVE_METAL
      {"metal", "Apple silicon through Core ML: .mlpackage (ML Program), Neural Engine / GPU / CPU predicted per op", &make_metal_backend},
#endif
      {"cpu", "Host CPU (reference): every op on the CPU runtime", &make_cpu_backend},
  };
}

Resolved resolve_backend(const std::string& target) {
  const auto table = backend_table();
  std::string known;
  for (const auto& e : table) {
    if (e.name == target) return {e.factory(), target, "requested with --target " + target};
    known += std::string(e.name) + ", ";
  }
  if (target == "auto") {
    // Device discovery sits above this layer: callers that can discover devices
    // resolve "auto" first (devices::choose_target); here it is the host CPU.
    return {make_cpu_backend(), target, "auto: no device discovery in this caller, so cpu"};
  }
  throw BackendError(target, "unknown target; known targets: " + known + "auto");
}

}  // namespace ec::backends
