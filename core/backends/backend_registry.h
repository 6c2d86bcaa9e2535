// ONE table of backends ({name, summary, factory}) and the resolution of a
// target string ("coral", "cpu", "auto") to a backend.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backends/backend.h"

namespace ec::backends {

struct BackendEntry {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Backend> (*factory)();
};

/// Every backend built into this binary, in table order (coral only with EC_BUILD_CORAL).
std::vector<BackendEntry> backend_table();

struct Resolved {
  std::unique_ptr<Backend> backend;
  std::string target;  // what was asked ("auto", ...)
  std::string reason;  // why this backend (e.g. auto -> cpu: no Coral device attached)
};

/// Resolves a target string. "auto" is resolved by device discovery above this
/// layer (devices::choose_target: coral when a Coral accelerator is attached and
/// available, else cpu); reaching here it is cpu, saying so. Throws BackendError
/// listing the known targets for anything else.
Resolved resolve_backend(const std::string& target);

}  // namespace ec::backends
