// The identity of a model file in the run history: SHA-256 of its bytes
// (Nettle's implementation, Debian's nettle-dev).
#pragma once

#include <string>

namespace ec::history {

/// Lower-case hex SHA-256 of the file's bytes; for a model folder (a SavedModel, an
/// .mlpackage), of its regular files in path order, each as its relative path, a NUL,
/// its size (8 bytes, little-endian) and its bytes. Throws EdgeCompilerError (Io) naming the file.
std::string sha256_file(const std::string& path);
/// Lower-case hex SHA-256 of `bytes`.
std::string sha256_hex(const std::string& bytes);

}  // namespace ec::history
