// The TensorFlow SavedModel frontend: a folder with saved_model.pb and variables/
// (match and open; the import is savedmodel_import.cpp, the op table
// savedmodel_ops.cpp, the checkpoint reader checkpoint_reader.cpp).
#include "core/frontends/savedmodel/savedmodel_frontend.h"

#include <filesystem>
#include <string_view>

#include "core/errors.h"
#include "core/frontends/savedmodel/savedmodel_import.h"
#include "core/util/safe_file.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;
constexpr std::uint64_t kMaxGraphBytes = std::uint64_t{1} << 30;

class SavedModelFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "savedmodel"; }
  std::string_view summary() const override { return "TensorFlow SavedModel folders"; }
  float match(std::span<const std::byte>, const std::string& path) const override {
    std::error_code ec;
    if (fs::is_directory(path, ec)) return fs::exists(fs::path(path) / "saved_model.pb", ec) ? 1.0f : 0.0f;
    return fs::path(path).filename() == "saved_model.pb" ? 1.0f : 0.0f;
  }
  ir::Graph open(const std::string& path, const OpenOptions& opts) const override {
    std::error_code ec;
    // The folder, or saved_model.pb inside it.
    const fs::path dir = fs::is_directory(path, ec) ? fs::path(path) : fs::path(path).parent_path();
    const std::string folder = dir.empty() ? std::string(".") : dir.string();
    const std::string pb = (dir / "saved_model.pb").string();
    std::string bytes;
    try {
      bytes = util::read_regular_file(pb, kMaxGraphBytes, pb);
    } catch (const EdgeCompilerError& e) {
      throw FrontendError(folder, std::string("cannot read saved_model.pb: ") + e.what(), "savedmodel");
    }
    return savedmodel::load_savedmodel(bytes, folder, opts);
  }
};

}  // namespace

std::unique_ptr<Frontend> make_savedmodel_frontend() { return std::make_unique<SavedModelFrontend>(); }

}  // namespace ec::frontends
