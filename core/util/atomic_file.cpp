#include "core/util/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <random>

#include "core/errors.h"

namespace ec::util {
namespace {

namespace fs = std::filesystem;

// Writes every part to `fd`; false on the first failed write (ENOSPC, EIO, ...).
bool write_all(int fd, std::span<const std::string_view> parts) {
  for (std::string_view part : parts) {
    while (!part.empty()) {
      const ssize_t n = ::write(fd, part.data(), part.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return false;
      part.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  return true;
}

}  // namespace

void write_file_atomically(const std::string& path, std::span<const std::string_view> parts) {
  const fs::path dir = fs::path(path).parent_path().empty() ? fs::path(".") : fs::path(path).parent_path();
  std::random_device rd;
  const std::string tmp = path + ".tmp-" + std::to_string(rd());
  // An unnamed file in the target's folder (O_TMPFILE): a process killed while writing
  // leaves nothing behind; it gets a name only once complete, then is renamed over the
  // target. Where the file system has no O_TMPFILE, a named temporary file instead.
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
  const bool unnamed = fd >= 0;
  if (!unnamed) fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) throw EdgeCompilerError(ErrorKind::Io, path + ": cannot be written; check the directory");
  std::error_code ec;
  const bool written = write_all(fd, parts);
  bool named = !unnamed;
  if (written && unnamed) {
    const std::string proc = "/proc/self/fd/" + std::to_string(fd);
    named = ::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, tmp.c_str(), AT_SYMLINK_FOLLOW) == 0;
  }
  ::close(fd);
  if (!written || !named) {
    if (!unnamed) fs::remove(tmp, ec);
    throw EdgeCompilerError(ErrorKind::Io, path + (written ? ": cannot be written; check the directory"
                                                           : ": write failed (disk full?)"));
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ec2;
    fs::remove(tmp, ec2);
    throw EdgeCompilerError(ErrorKind::Io, path + ": cannot be replaced (" + ec.message() + ")");
  }
}

}  // namespace ec::util
