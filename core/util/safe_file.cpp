#include "core/util/safe_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "core/ir/excerpt.h"

namespace ec::util {
namespace fs = std::filesystem;
namespace {

[[noreturn]] void refuse(std::string_view what, const std::string& reason) {
  throw EdgeCompilerError(ErrorKind::Io, std::string(what) + ": " + reason);
}

const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "is a directory, not a file";
  if (S_ISFIFO(m)) return "is a FIFO, not a regular file";
  if (S_ISCHR(m) || S_ISBLK(m)) return "is a device, not a regular file";
  if (S_ISSOCK(m)) return "is a socket, not a regular file";
  if (S_ISLNK(m)) return "is a symbolic link (not followed here)";
  return "is not a regular file";
}

}  // namespace

int open_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what, std::uint64_t& size,
                      bool follow_symlinks) {
  int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY;
  if (!follow_symlinks) flags |= O_NOFOLLOW;
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) {
    const int err = errno;
    if (err == ENOENT) refuse(what, "no such file");
    if (err == ELOOP && !follow_symlinks) refuse(what, "is a symbolic link (not followed here)");
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) refuse(what, kind_of(st.st_mode));
    refuse(what, std::string("cannot be opened (") + std::strerror(err) + ")");
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const mode_t m = st.st_mode;
    ::close(fd);
    refuse(what, kind_of(m));
  }
  size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    ::close(fd);
    refuse(what, "is " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                     " bytes this file may have");
  }
  return fd;
}

std::string read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what,
                              bool follow_symlinks) {
  std::uint64_t size = 0;
  const int fd = open_regular_file(path, max_bytes, what, size, follow_symlinks);
  std::string bytes;
  try {
    bytes.resize(static_cast<std::size_t>(size));
  } catch (...) {
    ::close(fd);
    throw;
  }
  std::size_t got = 0;
  while (got < bytes.size()) {
    const ssize_t n = ::read(fd, bytes.data() + got, bytes.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      refuse(what, std::string("read failed (") + std::strerror(err) + ")");
    }
    if (n == 0) break;  // the file shrank meanwhile: what was there
    got += static_cast<std::size_t>(n);
  }
  ::close(fd);
  bytes.resize(got);
  return bytes;
}

void require_relative(const std::string& rel) {
  const std::string name = "'" + excerpt(rel) + "'";
  if (rel.empty()) refuse(name, "an empty path");
  if (rel.find('\0') != std::string::npos) refuse(name, "a path with a NUL byte");
  const fs::path r(rel);
  if (r.is_absolute() || r.has_root_name() || r.has_root_directory())
    refuse(name, "is an absolute path; only paths inside the package are read");
  for (const auto& part : r)
    if (part == "..") refuse(name, "escapes the package ('..' is not allowed)");
}

fs::path resolve_inside(const fs::path& root, const std::string& rel) {
  require_relative(rel);
  const std::string name = "'" + excerpt(rel) + "'";
  const fs::path r(rel);
  std::error_code ec;
  const fs::path real_root = fs::canonical(root, ec);
  if (ec) refuse("'" + excerpt(root.string()) + "'", "cannot be resolved (" + ec.message() + ")");
  // Every component on the way, the last one included, with symlinks resolved: it must
  // stay inside the root (a symlink to elsewhere in the package is fine).
  const fs::path real = fs::weakly_canonical(root / r, ec);
  if (ec) refuse(name, "cannot be resolved (" + ec.message() + ")");
  const auto [root_end, at] = std::mismatch(real_root.begin(), real_root.end(), real.begin(), real.end());
  if (root_end != real_root.end() || at == real.end())
    refuse(name, "resolves (through a symbolic link) to outside the package; refused");
  return real;
}

std::string read_file_inside(const fs::path& root, const std::string& rel, std::uint64_t max_bytes) {
  const fs::path real = resolve_inside(root, rel);
  return read_regular_file(real.string(), max_bytes, "'" + excerpt(rel) + "'", false);
}

}  // namespace ec::util
