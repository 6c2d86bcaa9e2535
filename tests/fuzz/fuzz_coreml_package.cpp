// libFuzzer target: the Core ML frontend on a whole .mlpackage. The input is split at
// the markers "@@MODEL@@" and "@@WEIGHTS@@" (in the dictionary) into Manifest.json,
// Data/com.apple.CoreML/model.mlmodel and Data/com.apple.CoreML/weights/weight.bin of
// a package written into the scratch folder.
#include <algorithm>
#include <string_view>

#include "core/frontends/coreml/coreml_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kModel = "@@MODEL@@", kWeights = "@@WEIGHTS@@";
  const auto m = in.find(kModel);
  const auto w = in.find(kWeights, m == std::string_view::npos ? 0 : m + kModel.size());
  const std::string_view manifest = in.substr(0, std::min(m, w));
  const std::string_view model = m == std::string_view::npos ? std::string_view()
                                                               : in.substr(m + kModel.size(), w == std::string_view::npos ? std::string_view::npos : w - m - kModel.size());
  const std::string_view weights = w == std::string_view::npos ? std::string_view() : in.substr(w + kWeights.size());
  const auto pkg = ec::fuzz::scratch_dir() / "fuzz.mlpackage";
  ec::fuzz::write_file(pkg / "Manifest.json", manifest);
  ec::fuzz::write_file(pkg / "Data/com.apple.CoreML/model.mlmodel", model);
  ec::fuzz::write_file(pkg / "Data/com.apple.CoreML/weights/weight.bin", weights);
  static const auto fe = ec::frontends::make_coreml_frontend();
  ec::fuzz::guarded([&] { fe->open(pkg.string(), {}); });
  return 0;
}
