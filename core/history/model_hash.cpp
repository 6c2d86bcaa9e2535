#include "core/history/model_hash.h"

#include <nettle/sha2.h>

#include <cerrno>
#include <cstring>
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

std::string sha256_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw EdgeCompilerError(ErrorKind::Io, path + ": cannot read (" + std::strerror(errno) + ")");
  sha256_ctx ctx;
  sha256_init(&ctx);
  std::vector<char> buf(1 << 16);
  while (f) {
    f.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto n = static_cast<std::size_t>(f.gcount());
    if (n) sha256_update(&ctx, n, reinterpret_cast<const std::uint8_t*>(buf.data()));
  }
  if (f.bad()) throw EdgeCompilerError(ErrorKind::Io, path + ": read error while hashing");
  std::uint8_t digest[SHA256_DIGEST_SIZE];
  sha256_digest(&ctx, SHA256_DIGEST_SIZE, digest);
  return hex(digest, SHA256_DIGEST_SIZE);
}

}  // namespace ec::history
