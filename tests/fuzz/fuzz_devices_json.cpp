// libFuzzer target: devices.json (the device and provider configuration), parsed and,
// when accepted, written back and parsed again (the round trip must hold).
#include <cstdlib>

#include "core/devices/provider_config.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  ec::fuzz::guarded([&] {
    const auto config = ec::devices::devices_config_from_json(text, "devices.json");
    const std::string again = ec::devices::devices_config_to_json(config);
    if (ec::devices::devices_config_to_json(ec::devices::devices_config_from_json(again, "again.json")) != again)
      std::abort();  // what we write must read back the same
  });
  return 0;
}
