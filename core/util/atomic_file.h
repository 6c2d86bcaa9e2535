// Writing a file so that no half-written file is ever left behind: the bytes go
// to an unnamed temporary file (O_TMPFILE) in the target's folder, which is named
// and renamed over the target only once everything is written (the CLI's --output,
// --report, --csv and .npy outputs, devices.json). A failed write (disk full) or a
// writer killed mid-write leaves the old file as it was and nothing beside it.
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
