// libFuzzer target: the IR text form (.eir) parser, then validate() and a print of
// what parsed (the text form must print whatever it accepts).
#include "core/ir/text_format.h"
#include "core/ir/validate.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  ec::fuzz::guarded([&] {
    const auto g = ec::ir::parse(text);
    ec::ir::validate(g);
    (void)ec::ir::print(g);
  });
  return 0;
}
