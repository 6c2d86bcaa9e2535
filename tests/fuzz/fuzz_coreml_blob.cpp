// libFuzzer target: Core ML's weight file (blob storage v2): every record from the
// header on, and one record at an offset taken from the input's first 8 bytes.
#include <cstring>
#include <span>
#include <stdexcept>

#include "core/frontends/coreml/weight_file.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::uint8_t> file(data, size);
  // read_blob/read_all_blobs refuse with std::runtime_error by contract (the frontend wraps it).
  try {
    ec::coreml::read_all_blobs(file);
  } catch (const std::runtime_error&) {
  }
  if (size >= 8) {
    std::uint64_t offset = 0;
    std::memcpy(&offset, data, 8);
    try {
      const auto r = ec::coreml::read_blob(file, offset);
      volatile std::uint8_t sink = 0;  // the record's data must be readable
      for (std::uint64_t i = 0; i < r.size; i += 4096) sink = sink ^ data[r.data_offset + i];
    } catch (const std::runtime_error&) {
    }
  }
  return 0;
}
