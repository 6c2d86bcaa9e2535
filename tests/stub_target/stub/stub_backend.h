// A stub target: the smallest folder that is a whole target (compile, discover,
// open_session), to show that adding a target is adding its folder. Its artefact
// is the graph's IR text form (.stub), its one device a fake "stub-0", and an
// artefact opened on it runs on the CPU runtime. Built only for the tests in this
// folder (CMakeLists.txt): never part of edgecompile or the workbench.
#pragma once

#include <memory>

#include "core/backends/backend.h"

namespace ec::backends {

/// This folder's row of the backend table.
BackendEntry stub_backend_entry();

}  // namespace ec::backends
