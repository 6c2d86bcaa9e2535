// libFuzzer target: the .npy reader (header, dtype, shape, data size).
#include "core/util/npy.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ec::fuzz::scratch_dir() / "input.npy";
  ec::fuzz::write_file(path, {reinterpret_cast<const char*>(data), size});
  ec::fuzz::guarded([&] { ec::util::read_npy(path.string()); });
  return 0;
}
