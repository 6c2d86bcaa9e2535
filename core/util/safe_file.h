// Reading files that may come from a hostile source (a model, a package entry, a
// config, a history database): only regular files, of a bounded size, opened with
// O_NONBLOCK so a FIFO cannot block, and checked with fstat on the descriptor that
// is read (no window between the check and the read). The package variant resolves
// an entry inside a folder and refuses, before anything is opened, an absolute path,
// a '..' component, or a symlink anywhere on the way that leads out of the folder.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace ec::util {

/// 2 GiB: the default bound on one file read whole into memory.
constexpr std::uint64_t kMaxReadBytes = std::uint64_t{1} << 31;

/// The bytes of the regular file `path`. Throws EdgeCompilerError (kind Io) whose
/// message is "`what`: <reason>" for a missing file, a directory, a device, FIFO or
/// socket, a file larger than `max_bytes`, or a read error. With `follow_symlinks`
/// false, a symlink as the last component is refused too (O_NOFOLLOW).
std::string read_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what,
                              bool follow_symlinks = true);

/// Opens the regular file `path` read-only (O_NONBLOCK, O_CLOEXEC) and returns the
/// descriptor, its size in `size`. Same refusals as read_regular_file. The caller closes it.
int open_regular_file(const std::string& path, std::uint64_t max_bytes, std::string_view what,
                      std::uint64_t& size, bool follow_symlinks = true);

/// Refuses (EdgeCompilerError, kind Io, "'`rel`': <reason>") a path written in a
/// manifest that is empty, absolute, or has a '..' component.
void require_relative(const std::string& rel);

/// `root / rel` when it stays inside `root`: `rel` (as written in a manifest) must be
/// relative and free of '..', and the real path (symlinks resolved) must lie inside
/// root's real path. Checks only: nothing is opened. Throws EdgeCompilerError (kind Io)
/// "`rel`: <reason>" with `rel` quoted through excerpt().
std::filesystem::path resolve_inside(const std::filesystem::path& root, const std::string& rel);

/// resolve_inside + read_regular_file of the resolved real path, with O_NOFOLLOW.
std::string read_file_inside(const std::filesystem::path& root, const std::string& rel, std::uint64_t max_bytes);

}  // namespace ec::util
