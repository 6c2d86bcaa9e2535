// A read-only view of a zip archive (Debian's libzip), shared by the frontends
// whose formats are zips: TorchScript archives and .keras files. Bounded: an
// entry is read only when its declared size is within the caller's limit, and
// the bytes read must match it (libzip checks the CRC at the end).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct zip;

namespace ec::frontends {

class ZipArchive {
 public:
  /// Opens `path`; throws FrontendError(path, ...) when it is not a readable zip.
  explicit ZipArchive(const std::string& path);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::vector<std::string>& names() const { return names_; }
  bool contains(std::string_view name) const;
  /// The uncompressed size the archive declares for `name`; throws when absent.
  std::uint64_t size_of(const std::string& name) const;
  /// Reads one entry whole; throws FrontendError when absent, larger than
  /// `max_bytes`, truncated or corrupt.
  std::string read(const std::string& name, std::uint64_t max_bytes) const;

  /// True when the file starts with a zip local-file header ("PK\3\4").
  static bool looks_like_zip(std::string_view head);

 private:
  std::string path_;
  ::zip* archive_ = nullptr;
  std::vector<std::string> names_;
};

}  // namespace ec::frontends
