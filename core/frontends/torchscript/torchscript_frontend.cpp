#include "core/frontends/torchscript/torchscript_frontend.h"

#include <dlfcn.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <string_view>

#include "core/errors.h"
#include "core/frontends/torchscript/torchscript_plugin_abi.h"
#include "core/frontends/zip_archive.h"

namespace ec::frontends {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kExport =
    "export it with torch.jit.trace(model, example) then torch.jit.save(traced, 'model.pt'), or with "
    "torch.onnx.export";

// Where libec_torchscript.so may be: $EC_TORCHSCRIPT_PLUGIN, else lib/edgecompiler/plugins/ in a
// folder above the program, or above the library holding this code (the Python module):
// bin/../lib/edgecompiler/plugins when installed (not a folder ldconfig reads, so the
// package needs no ldconfig call), BUILD/lib/edgecompiler/plugins in a build tree (no path
// is compiled in, so an installed binary names no build folder).
std::vector<fs::path> plugin_candidates() {
  std::vector<fs::path> out;
  if (const char* env = std::getenv("EC_TORCHSCRIPT_PLUGIN"); env && *env) out.emplace_back(env);
  std::vector<fs::path> anchors;
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) anchors.push_back(exe.parent_path());
  Dl_info info{};
  if (::dladdr(reinterpret_cast<const void*>(&plugin_candidates), &info) && info.dli_fname && *info.dli_fname)
    anchors.push_back(fs::absolute(fs::path(info.dli_fname), ec).parent_path());
  for (const fs::path& anchor : anchors) {
    fs::path dir = anchor;
    for (int up = 0; up < 5 && !dir.empty(); ++up, dir = dir.parent_path()) {
      out.push_back(dir / "lib/edgecompiler/plugins/libec_torchscript.so");
      if (up == 1) out.push_back(dir / "lib/x86_64-linux-gnu/edgecompiler/plugins/libec_torchscript.so");
      if (dir == dir.root_path()) break;
    }
  }
  return out;
}

// Loads the plugin once per process; nullptr + `why` when it cannot be.
EcTorchScriptImportFn load_plugin(std::string& why) {
  static std::once_flag once;
  static EcTorchScriptImportFn fn = nullptr;
  static std::string error;
  std::call_once(once, [] {
    for (const auto& p : plugin_candidates()) {
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) continue;
      void* h = ::dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!h) {
        const char* e = ::dlerror();
        error = "the TorchScript reader " + p.string() + " cannot be loaded (" + (e ? e : "?") +
                "); reinstall libtorch-dev or rebuild edgecompiler";
        return;
      }
      fn = reinterpret_cast<EcTorchScriptImportFn>(::dlsym(h, EC_TORCHSCRIPT_PLUGIN_SYMBOL));
      if (!fn) error = "the TorchScript reader " + p.string() + " is from another version; rebuild edgecompiler";
      return;
    }
    error = "the TorchScript reader was not built (Debian's libtorch-dev was missing when edgecompiler was built); "
            "install it and rebuild, or " + std::string(kExport);
  });
  why = error;
  return fn;
}

bool has_entry_ending(const ZipArchive& z, std::string_view suffix, std::string_view contains = {}) {
  for (const auto& n : z.names())
    if (n.size() >= suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        (contains.empty() || n.find(contains) != std::string::npos))
      return true;
  return false;
}

class TorchScriptFrontend final : public Frontend {
 public:
  std::string_view name() const override { return "torchscript"; }
  std::string_view summary() const override { return "PyTorch TorchScript (.pt)"; }
  float match(std::span<const std::byte> head, const std::string& path) const override {
    const std::string_view h(reinterpret_cast<const char*>(head.data()), head.size());
    const auto ext = fs::path(path).extension();
    const bool torch_ext = ext == ".pt" || ext == ".pth" || ext == ".torchscript";
    if (torch_ext && (ZipArchive::looks_like_zip(h) || (!h.empty() && h[0] == '\x80'))) return 1.0f;
    return 0.0f;
  }

  ir::Graph open(const std::string& path, const OpenOptions& opts) const override {
    check_torchscript_archive(path);
    std::string why;
    const EcTorchScriptImportFn import = load_plugin(why);
    if (!import) throw FrontendError(path, why);
    ir::Graph g;
    std::array<char, 1024> error{};
    const int rc = import(path.c_str(), &opts, &g, error.data(), error.size());
    if (rc != 0) throw FrontendError(path, std::string(error.data()), "torchscript");
    return g;
  }
};

}  // namespace

void check_torchscript_archive(const std::string& path) {
  std::array<char, 4> head{};
  {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw FrontendError(path, "cannot be read; check its permissions");
    const std::size_t n = std::fread(head.data(), 1, head.size(), f);
    std::fclose(f);
    if (n > 0 && head[0] == '\x80')
      throw FrontendError(path, "was saved with torch.save in the legacy pickle format (weights or an eager module), "
                                "not TorchScript; " + std::string(kExport));
  }
  {
    const ZipArchive zip(path);
    const bool has_code = has_entry_ending(zip, ".py", "/code/");
    if (!has_code && has_entry_ending(zip, "/data.pkl"))
      throw FrontendError(path, "was saved with torch.save (a pickled state dict or eager module), not TorchScript; " +
                                    std::string(kExport));
    if (!has_code) throw FrontendError(path, "is a zip but not a TorchScript archive (no code/ folder)");
    if (!has_entry_ending(zip, "/constants.pkl"))
      throw FrontendError(path, "TorchScript archive has no constants.pkl; the file is incomplete: save it again");
  }
}

std::unique_ptr<Frontend> make_torchscript_frontend() { return std::make_unique<TorchScriptFrontend>(); }

}  // namespace ec::frontends
