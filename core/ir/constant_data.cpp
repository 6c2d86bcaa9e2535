#include "core/ir/constant_data.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace ec::ir {

ConstantData ConstantData::from_string(std::string bytes) {
  auto owner = std::make_shared<const std::string>(std::move(bytes));
  return ConstantData(owner, reinterpret_cast<const std::byte*>(owner->data()), owner->size());
}

ConstantData ConstantData::from_vector(std::vector<std::byte> bytes) {
  auto owner = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  return ConstantData(owner, owner->data(), owner->size());
}

ConstantData ConstantData::copy_of(const void* data, std::size_t size) {
  const auto* p = static_cast<const std::byte*>(data);
  return from_vector(std::vector<std::byte>(p, p + size));
}

namespace {

// Owns one read-only mapping; unmapped when the last ConstantData viewing it goes.
struct Mapping {
  void* base = MAP_FAILED;
  std::size_t length = 0;
  ~Mapping() {
    if (base != MAP_FAILED) ::munmap(base, length);
  }
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw std::runtime_error(path + ": " + what);
}

}  // namespace

ConstantData ConstantData::map_file(const std::string& path, std::size_t offset,
                                    std::size_t length) {
  // O_NONBLOCK: a FIFO put in the file's place must not block the open.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) fail(path, std::error_code(errno, std::generic_category()).message());
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    fail(path, "is not a regular file");
  }
  const auto file_size = static_cast<std::size_t>(st.st_size);
  if (offset > file_size || length > file_size - offset) {
    ::close(fd);
    fail(path, "range [" + std::to_string(offset) + ", +" + std::to_string(length) +
                   ") is past the end of the file (" + std::to_string(file_size) + " bytes)");
  }
  if (length == 0) {
    ::close(fd);
    return ConstantData();
  }
  // mmap offsets must be page aligned: map from the page boundary below `offset`.
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t aligned = offset - offset % page;
  auto mapping = std::make_shared<Mapping>();
  mapping->length = length + (offset - aligned);
  mapping->base = ::mmap(nullptr, mapping->length, PROT_READ, MAP_PRIVATE, fd,
                         static_cast<off_t>(aligned));
  ::close(fd);
  if (mapping->base == MAP_FAILED) fail(path, "mmap failed");
  const auto* data = static_cast<const std::byte*>(mapping->base) + (offset - aligned);
  return ConstantData(mapping, data, length);
}

}  // namespace ec::ir
