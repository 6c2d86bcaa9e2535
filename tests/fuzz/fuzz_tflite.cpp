// libFuzzer target: the TFLite frontend (flatbuffers verifier, then every index and
// size check) from memory.
#include <memory>

#include "core/frontends/tflite/tflite_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto bytes = std::make_shared<const std::string>(reinterpret_cast<const char*>(data), size);
  ec::fuzz::guarded([&] { ec::frontends::load_tflite(bytes, "fuzz.tflite", {}); });
  return 0;
}
