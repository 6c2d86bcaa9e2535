// Test driver for fault injection on the devices.json writer (the workbench's Devices
// panel saves through save_devices_config; the CLI only reads the file):
//   ec_save_devices_config IN.json OUT.json
// reads IN and writes it to OUT as the Devices panel does; errors as the CLI gives them
// (one line naming the file, exit 1).
#include <cstdio>
#include <exception>

#include "core/devices/provider_config.h"
#include "core/errors.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s IN.json OUT.json\n", argv[0]);
    return 2;
  }
  try {
    ec::devices::save_devices_config(ec::devices::load_devices_config(argv[1]), argv[2]);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ec_save_devices_config: error: %s\n", e.what());
    return 1;
  }
}
