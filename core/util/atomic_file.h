// Writing a file so that no half-written file is ever left behind: the bytes go
// to a temporary file next to the target, which is renamed over it only once
// everything is written (the CLI's --output, --report and .npy outputs).
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace ec::util {

/// Writes the concatenation of `parts` to `path` atomically. Throws
/// EdgeCompilerError (kind Io) naming `path` and the reason; on failure the
/// temporary file is removed and an existing `path` is left untouched.
void write_file_atomically(const std::string& path, std::span<const std::string_view> parts);

inline void write_file_atomically(const std::string& path, std::string_view text) {
  write_file_atomically(path, std::span<const std::string_view>(&text, 1));
}

}  // namespace ec::util
