#include "core/frontends/savedmodel/savedmodel_frontend.h"

#include <filesystem>
#include <string_view>

#include "core/errors.h"

namespace ec::frontends {
namespace {

class SavedModelFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "savedmodel"; }
  std::string_view summary() const override { return "TensorFlow SavedModel folders"; }
  float match(std::span<const std::byte>, const std::string& path) const override {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) return fs::exists(fs::path(path) / "saved_model.pb", ec) ? 1.0f : 0.0f;
    return fs::path(path).filename() == "saved_model.pb" ? 1.0f : 0.0f;
  }
  ir::Graph open(const std::string& path, const OpenOptions&) const override {
    throw FrontendError(path, "the SavedModel reader is not written yet");
  }
};

}  // namespace

std::unique_ptr<Frontend> make_savedmodel_frontend() { return std::make_unique<SavedModelFrontend>(); }

}  // namespace ec::frontends
