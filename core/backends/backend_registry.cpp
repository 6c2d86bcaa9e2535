#include "core/backends/backend_registry.h"

#include <algorithm>

#include "core/backends/cpu/cpu_backend.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
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

namespace {

std::string extension_of(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const auto slash = path.find_last_of('/');
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return {};
  return path.substr(dot);
}

}  // namespace

std::string backend_for_artefact(const std::string& path) {
  const std::string ext = extension_of(path);
  if (ext.empty()) return {};
  for (const auto& e : backend_table())
    if (const auto caps = e.factory()->capabilities(); caps.compiles && caps.artefact == ext) return std::string(e.name);
  return {};
}

TargetChoice resolve_target(const std::string& target, const AutoContext& c) {
  std::string known;
  for (const auto& e : backend_table()) {
    if (e.name == target) return {target, ""};
    known += std::string(e.name) + ", ";
  }
  if (target != "auto") throw BackendError(target, "unknown target; known targets: " + known + "auto");
  const std::string devices = c.device_reason.empty() ? std::string("no device discovery in this caller") : c.device_reason;
  const std::string writer = c.output_path.empty() ? std::string() : backend_for_artefact(c.output_path);
  const std::string ext = extension_of(c.output_path);
  if (!c.device_target.empty()) {
    if (writer.empty() || writer == c.device_target) return {c.device_target, "auto: " + devices};
    // the device's backend cannot write what --output names: the artefact decides
    return {writer, "auto: --output " + c.output_path + " names a " + ext + ", which the " + writer +
                        " backend writes (" + devices + ", but the " + c.device_target + " backend does not write " + ext + ")"};
  }
  if (!writer.empty())
    return {writer, "auto: --output " + c.output_path + " names a " + ext + " file, which the " + writer +
                        " backend writes; no device decides (" + devices + ")"};
  std::string why = "auto: " + devices;
  if (!c.output_path.empty())
    why += ext.empty() ? ", and --output " + c.output_path + " names no artefact type"
                       : ", and no backend writes " + ext + " (--output " + c.output_path + ")";
  return {"cpu", why + ", so cpu"};
}

Resolved resolve_backend(const std::string& target, const AutoContext& context) {
  const bool named = target != "auto";
  const TargetChoice choice = resolve_target(target, context);
  for (const auto& e : backend_table())
    if (e.name == choice.target)
      return {e.factory(), target, named ? "requested with --target " + target : choice.reason};
  return {make_cpu_backend(), target, choice.reason};  // cpu is always built
}

void load_on_target(runtime::InferenceSession& session, const std::string& path, const std::string& target) {
  if (target == "cpu") {
    session.close();
    session.load(path);
    return;
  }
  std::string known = "cpu";
  std::unique_ptr<Backend> backend;
  for (const auto& e : backend_table()) {
    auto b = e.factory();
    if (!b->capabilities().runs_artefacts) continue;
    known += ", " + std::string(e.name);
    if (e.name == target) backend = std::move(b);
  }
  if (!backend) throw EdgeCompilerError(ErrorKind::Usage, "unknown target '" + target + "' (known: " + known + ")");
  frontends::OpenOptions open;
  open.allow_unknown_ops = true;  // an artefact holds the target's own ops (edgetpu-custom-op): read for its I/O
  auto graph = ir::freeze(frontends::open_model(path, open));
  session.load_target(backend->open_session(path, graph, std::max(1, session.threads())), graph);
}

}  // namespace ec::backends
