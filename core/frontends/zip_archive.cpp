#include "core/frontends/zip_archive.h"

#include <zip.h>

#include <algorithm>

#include "core/errors.h"
#include "core/ir/excerpt.h"

namespace ec::frontends {

ZipArchive::ZipArchive(const std::string& path) : path_(path) {
  int err = 0;
  archive_ = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &err);
  if (!archive_) {
    zip_error_t ze;
    zip_error_init_with_code(&ze, err);
    const std::string why = zip_error_strerror(&ze);
    zip_error_fini(&ze);
    throw FrontendError(path, "is not a readable zip archive (" + why + "); the file may be truncated or corrupt");
  }
  const zip_int64_t n = zip_get_num_entries(archive_, 0);
  constexpr zip_int64_t kMaxEntries = 1'000'000;
  if (n < 0 || n > kMaxEntries) {
    zip_discard(archive_);
    archive_ = nullptr;
    throw FrontendError(path, "zip archive declares " + std::to_string(n) + " entries; refused");
  }
  names_.reserve(static_cast<std::size_t>(n));
  for (zip_int64_t i = 0; i < n; ++i) {
    const char* name = zip_get_name(archive_, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_RAW);
    names_.emplace_back(name ? name : "");
  }
}

ZipArchive::~ZipArchive() {
  if (archive_) zip_discard(archive_);
}

bool ZipArchive::contains(std::string_view name) const {
  return std::find(names_.begin(), names_.end(), name) != names_.end();
}

std::uint64_t ZipArchive::size_of(const std::string& name) const {
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat(archive_, name.c_str(), ZIP_FL_ENC_RAW, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw FrontendError(path_, "zip archive has no entry '" + bounded_message(name, 80) + "'");
  return st.size;
}

std::string ZipArchive::read(const std::string& name, std::uint64_t max_bytes) const {
  const std::uint64_t size = size_of(name);
  const std::string shown = bounded_message(name, 80);
  if (size > max_bytes)
    throw FrontendError(path_, "zip entry '" + shown + "' declares " + std::to_string(size) +
                                   " bytes, more than the " + std::to_string(max_bytes) + " allowed for it");
  zip_file_t* f = zip_fopen(archive_, name.c_str(), ZIP_FL_ENC_RAW);
  if (!f) throw FrontendError(path_, "zip entry '" + shown + "' cannot be opened (" + zip_strerror(archive_) + ")");
  std::string out(static_cast<std::size_t>(size), '\0');
  std::uint64_t got = 0;
  while (got < size) {
    const zip_int64_t r = zip_fread(f, out.data() + got, size - got);
    if (r <= 0) break;
    got += static_cast<std::uint64_t>(r);
  }
  // One more read: the end of the stream, where libzip checks the CRC.
  char extra = 0;
  const zip_int64_t tail = got == size ? zip_fread(f, &extra, 1) : -1;
  std::string why = tail < 0 ? zip_file_strerror(f) : "";
  zip_fclose(f);
  if (got != size || tail != 0)
    throw FrontendError(path_, "zip entry '" + shown + "' is truncated or corrupt" + (why.empty() ? "" : " (" + why + ")"));
  return out;
}

bool ZipArchive::looks_like_zip(std::string_view head) { return head.substr(0, 4) == std::string_view("PK\3\4", 4); }

}  // namespace ec::frontends
