// libFuzzer target: the run-history database opener as the read commands use it
// (read-only), then every run listed and run 1 read in full.
#include "core/history/run_store.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ec::fuzz::scratch_dir() / "runs.db";
  ec::fuzz::write_file(path, {reinterpret_cast<const char*>(data), size});
  ec::fuzz::guarded([&] {
    const ec::history::RunStore store(path.string(), ec::history::RunStore::Access::ReadOnly);
    (void)store.list(0, true);
    (void)store.get(1);
  });
  return 0;
}
