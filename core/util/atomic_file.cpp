#include "core/util/atomic_file.h"

#include <filesystem>
#include <fstream>
#include <random>

#include "core/errors.h"

namespace ec::util {

void write_file_atomically(const std::string& path, std::span<const std::string_view> parts) {
  namespace fs = std::filesystem;
  std::random_device rd;
  const std::string tmp = path + ".tmp-" + std::to_string(rd());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw EdgeCompilerError(ErrorKind::Io, path + ": cannot be written; check the directory");
    for (std::string_view part : parts) out.write(part.data(), static_cast<std::streamsize>(part.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw EdgeCompilerError(ErrorKind::Io, path + ": write failed (disk full?)");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw EdgeCompilerError(ErrorKind::Io, path + ": cannot be replaced (" + ec.message() + ")");
  }
}

}  // namespace ec::util
