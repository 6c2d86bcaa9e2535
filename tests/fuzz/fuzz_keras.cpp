// libFuzzer target: the Keras frontend. Four input forms:
//  - "[CONFIG]@@STREAM@@STREAM": the HDF5 part as the reader child's stream (keras_hdf5.h),
//    decoded and walked in this process: our own code (stream decoder, config walk, layer
//    table, weight matching) at in-process speed; no CONFIG = a legacy .h5's snapshot;
//  - "CONFIG@@WEIGHTS@@H5": a model config (config.json / model_config) and its HDF5
//    weights image, either layout, read from memory (the layer table and the config walk
//    see every mutation: a zip's CRC would refuse them before parsing);
//  - a zip ("PK\3\4"): written to the scratch folder and opened as a .keras file;
//  - anything else: a legacy .h5 image from memory.
#include <string_view>

#include "core/frontends/keras/keras_container.h"
#include "core/frontends/keras/keras_frontend.h"
#include "core/frontends/keras/keras_model.h"
#include "core/frontends/zip_archive.h"
#include "tests/fuzz/fuzz_common.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace keras = ec::frontends::keras;
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kWeights = "@@WEIGHTS@@";
  constexpr std::string_view kStream = "@@STREAM@@";
  static const auto fe = ec::frontends::make_keras_frontend();
  ec::fuzz::guarded([&] {
    if (const auto at = in.find(kStream); at != std::string_view::npos) {
      auto file = keras::read_keras_stream("fuzz.keras", std::string(in.substr(0, at)),
                                           std::string(in.substr(at + kStream.size())));
      keras::load_keras("fuzz.keras", file, {});
    } else if (const auto at = in.find(kWeights); at != std::string_view::npos) {
      auto file = keras::read_keras_parts("fuzz.keras", std::string(in.substr(0, at)),
                                          std::string(in.substr(at + kWeights.size())));
      keras::load_keras("fuzz.keras", file, {});
    } else if (ec::frontends::ZipArchive::looks_like_zip(in)) {
      const auto path = ec::fuzz::scratch_dir() / "fuzz.keras";
      ec::fuzz::write_file(path, in);
      fe->open(path.string(), {});
    } else {
      auto file = keras::read_keras_bytes("fuzz.h5", std::string(in));
      keras::load_keras("fuzz.h5", file, {});
    }
  });
  return 0;
}
