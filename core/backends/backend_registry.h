// ONE table of backends ({name, summary, factory}) and the resolution of a
// target string (a backend's name, or "auto") to a backend.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/backends/backend.h"
#include "core/session/session.h"

namespace ec::backends {

/// Every backend built into this binary: the target folders' entries by name, the
/// reference last. Defined in the source the build writes from the folders
/// (core/backends/backend_table.cmake; a folder behind EC_BUILD_<NAME>=OFF is left out).
std::vector<BackendEntry> backend_table();

/// The reference backend's entry (BackendEntry::reference: cpu).
BackendEntry reference_backend();

struct Resolved {
  std::unique_ptr<Backend> backend;
  std::string target;  // what was asked ("auto", ...)
  std::string reason;  // why this backend (e.g. auto -> cpu: no Coral device attached)
};

/// What decides "auto", in this order: an attached device (device discovery sits
/// above this layer: devices::auto_context fills the device fields), else the
/// artefact the output path names (the backend whose capabilities().artefact
/// the path ends with: m.tflite -> coral, m.mlpackage -> metal), else the host CPU.
struct AutoContext {
  std::string device_target;  // the backend an attached, usable device decides ("" = no device decides)
  std::string device_reason;  // discovery's words either way ("no Coral device attached; ...")
  std::string output_path;    // the artefact asked for ("" = none)
};

/// A target string as it resolves: the backend's name and why ("" for a target
/// named explicitly). Throws BackendError listing the known targets for an unknown one.
struct TargetChoice {
  std::string target;
  std::string reason;
};
TargetChoice resolve_target(const std::string& target, const AutoContext& context = {});

/// The first backend in the table whose artefact `path` names (its extension,
/// a trailing '/' ignored), or "" when none writes that kind of file.
std::string backend_for_artefact(const std::string& path);

/// Loads `path` into `session` for `target`: "cpu" on the CPU runtime (the session's own
/// load), any other through its backend's open_session (a compiled artefact on an
/// attached device). An unknown target, or one whose backend runs no artefact, is a usage
/// error listing those that do.
void load_on_target(runtime::InferenceSession& session, const std::string& path, const std::string& target);

/// Resolves a target string to a backend: resolve_target, then the factory.
/// "auto" is the one place the automatic choice is made (the CLI's compile, the
/// seed form and the workbench all come here).
Resolved resolve_backend(const std::string& target, const AutoContext& context = {});

}  // namespace ec::backends
