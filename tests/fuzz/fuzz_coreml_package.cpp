// libFuzzer target: the Core ML frontend on a whole .mlpackage. The input is split at
// the markers "@@MODEL@@" and "@@WEIGHTS@@" (in the dictionary) into Manifest.json,
// Data/com.apple.CoreML/model.mlmodel and Data/com.apple.CoreML/weights/weight.bin of
// a package written into the scratch folder.
#include "core/frontends/coreml/coreml_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ec::fuzz::split_at_markers({reinterpret_cast<const char*>(data), size}, {"@@MODEL@@", "@@WEIGHTS@@"});
  const std::string_view manifest = parts[0], model = parts[1], weights = parts[2];
  const auto pkg = ec::fuzz::scratch_dir() / "fuzz.mlpackage";
  ec::fuzz::write_file(pkg / "Manifest.json", manifest);
  ec::fuzz::write_file(pkg / "Data/com.apple.CoreML/model.mlmodel", model);
  ec::fuzz::write_file(pkg / "Data/com.apple.CoreML/weights/weight.bin", weights);
  static const auto fe = ec::frontends::make_coreml_frontend();
  ec::fuzz::guarded([&] { fe->open(pkg.string(), {}); });
  return 0;
}
