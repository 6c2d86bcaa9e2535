// libedgetpu's C API (edgetpu_c.h) and the TensorFlow Lite C API it plugs into,
// both resolved at run time with dlopen: neither is ever a build dependency.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace ec::backends::coral {

/// The parts of edgetpu_c.h we call (the layout of its public structs).
struct EdgeTpuDevice {
  int type;          // 0 = EDGETPU_APEX_PCI, 1 = EDGETPU_APEX_USB
  const char* path;  // "/dev/apex_0", "/sys/bus/usb/devices/2-1"
};
struct EdgeTpuOption {
  const char* name;
  const char* value;
};

/// A shared library opened with dlopen; closes it when the last user goes.
class SharedLibrary {
 public:
  /// Opens `name` (a soname searched as the dynamic loader does, or a path). Never throws:
  /// `ok()` is false and `error()` says why.
  explicit SharedLibrary(const std::string& name);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;
  bool ok() const { return handle_ != nullptr; }
  const std::string& error() const { return error_; }
  const std::string& name() const { return name_; }
  /// The symbol's address, or nullptr (then `missing` collects its name).
  void* symbol(const char* sym, std::string* missing) const;

 private:
  std::string name_, error_;
  void* handle_ = nullptr;
};

/// libedgetpu's entry points.
struct EdgeTpuApi {
  std::shared_ptr<SharedLibrary> lib;
  EdgeTpuDevice* (*list_devices)(std::size_t* num_devices) = nullptr;
  void (*free_devices)(EdgeTpuDevice* devices) = nullptr;
  void* (*create_delegate)(int type, const char* name, const EdgeTpuOption* options, std::size_t num_options) = nullptr;
  void (*free_delegate)(void* delegate) = nullptr;
  const char* (*version)() = nullptr;
};

/// The Edge TPU runtime's soname.
inline constexpr const char* kLibEdgeTpu = "libedgetpu.so.1";

/// Loads libedgetpu (default: libedgetpu.so.1). Returns nullptr and sets `why`
/// ("libedgetpu.so.1 not found", or which symbols it lacks) when it cannot. Never throws.
std::unique_ptr<EdgeTpuApi> load_edgetpu(std::string* why, const std::string& library = kLibEdgeTpu);

/// "" when libedgetpu.so.1 loads, else the reason (what `edgecompile devices` shows).
std::string libedgetpu_reason();

}  // namespace ec::backends::coral
