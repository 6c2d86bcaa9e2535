// A stand-in libedgetpu.so.1 with libedgetpu's C API symbols, for the coral
// target's tests: it lists as many Edge TPUs as $EC_FAKE_EDGETPU_DEVICES says
// (default 0) and creates no delegate. It exercises our dlopen/dlsym path and
// every error after it; it runs no model.
#include <cstddef>
#include <cstdlib>

extern "C" {
struct edgetpu_device {
  int type;
  const char* path;
};
static edgetpu_device g_devices[1] = {{1, "/sys/bus/usb/devices/fake-1"}};

edgetpu_device* edgetpu_list_devices(std::size_t* num_devices) {
  const char* n = std::getenv("EC_FAKE_EDGETPU_DEVICES");
  *num_devices = n && std::atoi(n) > 0 ? 1 : 0;
  return *num_devices ? g_devices : nullptr;
}
void edgetpu_free_devices(edgetpu_device*) {}
void* edgetpu_create_delegate(int, const char*, const void*, std::size_t) { return nullptr; }
void edgetpu_free_delegate(void*) {}
const char* edgetpu_version() { return "fake libedgetpu for edgecompiler tests"; }
}
