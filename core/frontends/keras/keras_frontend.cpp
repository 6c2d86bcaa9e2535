// The Keras frontend: match (.keras zip / .h5 HDF5 signature) and open
// (keras_container.cpp reads the file, keras_model.cpp walks the config, the
// layer table in keras_layers.cpp maps each layer).
#include "core/frontends/keras/keras_frontend.h"

#include <filesystem>
#include <string_view>

#include "core/errors.h"
#include "core/frontends/keras/keras_container.h"
#include "core/frontends/keras/keras_model.h"
#include "core/frontends/zip_archive.h"

namespace ec::frontends {
namespace {

class KerasFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "keras"; }
  std::string_view summary() const override { return "Keras models (.keras, .h5)"; }
  float match(std::span<const std::byte> head, const std::string& path) const override {
    const std::string_view h(reinterpret_cast<const char*>(head.data()), head.size());
    const auto ext = std::filesystem::path(path).extension();
    if (ext == ".keras" && ZipArchive::looks_like_zip(h)) return 1.0f;
    if ((ext == ".h5" || ext == ".hdf5") && h.substr(0, 8) == std::string_view("\x89HDF\r\n\x1a\n", 8)) return 1.0f;
    return 0.0f;
  }
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override {
    keras::KerasFile file = keras::read_keras_file(path);
    return keras::load_keras(path, file, opts);
  }
};

}  // namespace

std::unique_ptr<Frontend> make_keras_frontend() { return std::make_unique<KerasFrontend>(); }

}  // namespace ec::frontends
