#include "core/frontends/torchscript/torchscript_frontend.h"

#include <filesystem>
#include <string_view>

#include "core/errors.h"
#include "core/frontends/zip_archive.h"

namespace ec::frontends {
namespace {

class TorchScriptFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "torchscript"; }
  std::string_view summary() const override { return "PyTorch TorchScript (.pt)"; }
  float match(std::span<const std::byte> head, const std::string& path) const override {
    const std::string_view h(reinterpret_cast<const char*>(head.data()), head.size());
    const auto ext = std::filesystem::path(path).extension();
    const bool torch_ext = ext == ".pt" || ext == ".pth" || ext == ".torchscript";
    if (torch_ext && (ZipArchive::looks_like_zip(h) || (!h.empty() && h[0] == '\x80'))) return 1.0f;
    return 0.0f;
  }
  ir::Graph open(const std::string& path, const OpenOptions&) const override {
    throw FrontendError(path, "the TorchScript reader is not written yet");
  }
};

}  // namespace

std::unique_ptr<Frontend> make_torchscript_frontend() { return std::make_unique<TorchScriptFrontend>(); }

}  // namespace ec::frontends
