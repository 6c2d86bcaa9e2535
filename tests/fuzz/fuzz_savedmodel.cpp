// libFuzzer target: the SavedModel frontend on a whole folder. The input is split at
// "@@INDEX@@" and "@@DATA@@" (in the dictionary) into saved_model.pb,
// variables/variables.index and variables/variables.data-00000-of-00001 of a folder in
// the scratch directory, opened with the input shapes the seed models need.
#include "core/frontends/savedmodel/savedmodel_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ec::fuzz::split_at_markers({reinterpret_cast<const char*>(data), size}, {"@@INDEX@@", "@@DATA@@"});
  const std::string_view pb = parts[0], index = parts[1], bytes = parts[2];
  const auto dir = ec::fuzz::scratch_dir() / "saved_model";
  ec::fuzz::write_file(dir / "saved_model.pb", pb);
  ec::fuzz::write_file(dir / "variables/variables.index", index);
  ec::fuzz::write_file(dir / "variables/variables.data-00000-of-00001", bytes);
  static const auto fe = ec::frontends::make_savedmodel_frontend();
  ec::frontends::OpenOptions opts;
  opts.input_shapes = {{"x", {2, 1}}, {"input_1", {1, 16, 16, 3}}};
  ec::fuzz::guarded([&] { fe->open(dir.string(), opts); });
  return 0;
}
