// libFuzzer target: the ONNX frontend (protobuf parse, the checks before libonnx,
// the version converter, shape inference, import) on one file.
#include "core/frontends/onnx/onnx_frontend.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = ec::fuzz::scratch_dir() / "model.onnx";
  ec::fuzz::write_file(path, {reinterpret_cast<const char*>(data), size});
  static const auto fe = ec::frontends::make_onnx_frontend();
  ec::fuzz::guarded([&] { fe->open(path.string(), {}); });
  return 0;
}
