#include "core/history/model_hash.h"

#include <nettle/sha2.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "core/errors.h"

namespace ec::history {
namespace {

std::string hex(const std::uint8_t* d, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out += digits[d[i] >> 4];
    out += digits[d[i] & 15];
  }
  return out;
}

}  // namespace

std::string sha256_hex(const std::string& bytes) {
  sha256_ctx ctx;
  sha256_init(&ctx);
  sha256_update(&ctx, bytes.size(), reinterpret_cast<const std::uint8_t*>(bytes.data()));
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  return hex(digest, SHA256_DIGEST_SIZE);
}

namespace {

void hash_file_into(sha256_ctx& ctx, const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw EdgeCompilerError(ErrorKind::Io, path + ": cannot read (" + std::strerror(errno) + ")");
  std::vector<char> buf(1 << 16);
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(f.gcount());
    if (n) sha256_update(&ctx, n, reinterpret_cast<const std::uint8_t*>(buf.data()));
  }
  if (f.bad()) throw EdgeCompilerError(ErrorKind::Io, path + ": read error while hashing");
}

}  // namespace

std::string sha256_file(const std::string& path) {
  namespace fs = std::filesystem;
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    constexpr std::size_t kMaxFiles = 100000;
    std::vector<std::string> files;
    for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator(); it.increment(ec))
      if (it->is_regular_file(ec) && !it->is_symlink(ec)) {
        files.push_back(fs::relative(it->path(), path, ec).generic_string());
        if (files.size() > kMaxFiles) throw EdgeCompilerError(ErrorKind::Io, path + ": more than 100000 files to hash");
      }
    if (ec) throw EdgeCompilerError(ErrorKind::Io, path + ": cannot list the folder (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    for (const auto& rel : files) {
      const std::string full = (fs::path(path) / rel).string();
      std::uint8_t size[8];
      std::uint64_t n = fs::file_size(full, ec);
      for (auto& b : size) b = static_cast<std::uint8_t>(n), n >>= 8;
      sha256_update(&ctx, rel.size() + 1, reinterpret_cast<const std::uint8_t*>(rel.c_str()));
      sha256_update(&ctx, sizeof size, size);
      hash_file_into(ctx, full);
    }
  } else {
    hash_file_into(ctx, path);
  }
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  return hex(digest, SHA256_DIGEST_SIZE);
}

}  // namespace ec::history
