// libFuzzer target: the SavedModel frontend's checkpoint reader (an SSTable index and
// its tensor bundle). The input is split at "@@DATA@@" (in the dictionary) into
// variables.index and variables.data-00000-of-00001; every entry (up to 64) is then
// read as a tensor and as a scalar string.
#include "core/frontends/savedmodel/checkpoint_reader.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto parts = ec::fuzz::split_at_markers({reinterpret_cast<const char*>(data), size}, {"@@DATA@@"});
  const std::string_view index = parts[0], bytes = parts[1];
  const auto prefix = ec::fuzz::scratch_dir() / "variables";
  ec::fuzz::write_file(prefix.string() + ".data-00000-of-00001", bytes);
  ec::fuzz::guarded([&] {
    const ec::frontends::savedmodel::CheckpointReader r(prefix.string(), index);
    int n = 0;
    for (const auto& key : r.keys()) {
      if (++n > 64) break;
      ec::fuzz::guarded([&] { r.tensor(key); });
      ec::fuzz::guarded([&] { r.string_scalar(key); });
    }
  });
  return 0;
}
