#include "core/backends/coral/edgetpu_library.h"

#include <dlfcn.h>

namespace ec::backends::coral {

SharedLibrary::SharedLibrary(const std::string& name) : name_(name) {
  handle_ = dlopen(name.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* e = dlerror();
    error_ = e ? e : "dlopen failed";
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const char* sym, std::string* missing) const {
  void* p = handle_ ? dlsym(handle_, sym) : nullptr;
  if (!p && missing) *missing += (missing->empty() ? "" : ", ") + std::string(sym);
  return p;
}

std::unique_ptr<EdgeTpuApi> load_edgetpu(std::string* why, const std::string& library) {
  auto lib = std::make_shared<SharedLibrary>(library);
  if (!lib->ok()) {
    // dlopen's text names the file and "cannot open shared object file": say it the way users search for it.
    if (why) *why = library + " not found (install the Edge TPU runtime, package libedgetpu1-std from Coral's apt repository)";
    return nullptr;
  }
  auto api = std::make_unique<EdgeTpuApi>();
  std::string missing;
  api->list_devices = reinterpret_cast<decltype(api->list_devices)>(lib->symbol("edgetpu_list_devices", &missing));
  api->free_devices = reinterpret_cast<decltype(api->free_devices)>(lib->symbol("edgetpu_free_devices", &missing));
  api->create_delegate = reinterpret_cast<decltype(api->create_delegate)>(lib->symbol("edgetpu_create_delegate", &missing));
  api->free_delegate = reinterpret_cast<decltype(api->free_delegate)>(lib->symbol("edgetpu_free_delegate", &missing));
  api->version = reinterpret_cast<decltype(api->version)>(lib->symbol("edgetpu_version", nullptr));
  if (!missing.empty()) {
    if (why) *why = library + " lacks " + missing + " (not libedgetpu's C API?)";
    return nullptr;
  }
  api->lib = std::move(lib);
  return api;
}

std::string libedgetpu_reason() {
  std::string why;
  try {
    return load_edgetpu(&why) ? std::string() : why;
  } catch (...) {
    return "libedgetpu.so.1 could not be loaded";
  }
}

}  // namespace ec::backends::coral
