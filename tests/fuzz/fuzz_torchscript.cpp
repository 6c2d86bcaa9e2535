// libFuzzer target: the TorchScript frontend's checks before libtorch sees a file (zip
// listing with libzip, torch.save pickles and state dicts, missing code/ or
// constants.pkl). libtorch's own loader is uninstrumented and runs in the plugin; it
// is exercised from the CLI by mutated archives (docs/RELIABILITY.md).
#include "core/frontends/torchscript/torchscript_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ec::fuzz::scratch_dir() / "fuzz.pt";
  ec::fuzz::write_file(path, std::string_view(reinterpret_cast<const char*>(data), size));
  ec::fuzz::guarded([&] { ec::frontends::check_torchscript_archive(path.string()); });
  return 0;
}
