#include "core/backends/backend_registry.h"

#include <algorithm>

#include "core/errors.h"
#include "core/frontends/frontend.h"

namespace ec::backends {

BackendEntry reference_backend() {
  for (const auto& e : backend_table())
    if (e.reference) return e;
  throw BackendError("backends", "no reference backend in the table (a build without the reference folder)");
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
  const std::string reference(reference_backend().name);
  return {reference, why + ", so " + reference};
}

Resolved resolve_backend(const std::string& target, const AutoContext& context) {
  const bool named = target != "auto";
  const TargetChoice choice = resolve_target(target, context);
  for (const auto& e : backend_table())
    if (e.name == choice.target)
      return {e.factory(), target, named ? "requested with --target " + target : choice.reason};
  return {reference_backend().factory(), target, choice.reason};
}

void load_on_target(runtime::InferenceSession& session, const std::string& path, const std::string& target) {
  const std::string reference(reference_backend().name);
  if (target == reference) {  // the session's own runtime
    session.close();
    session.load(path);
    return;
  }
  std::string known = reference;
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
