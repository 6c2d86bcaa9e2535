// Shared by the libFuzzer targets (tests/fuzz): a scratch folder per process for the
// readers that take a path, and the rule for what counts as a finding.
//
// A reader may refuse any input with EdgeCompilerError (or bad_alloc for an input that
// asks for more memory than it may have): that is the contract. A crash, a sanitizer
// report, a timeout or a leak is a finding, and so, with EC_FUZZ_STRICT=1, is any other
// exception escaping a reader (the CLI reports those as internal errors, exit 70).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <new>
#include <string>
#include <string_view>
#include <vector>

#include "core/errors.h"

namespace ec::fuzz {

/// A folder of this process's own (in /dev/shm when there is one), made once.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    std::string base = std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : "/tmp";
    std::string templ = base + "/ec-fuzz-XXXXXX";
    if (!::mkdtemp(templ.data())) std::abort();
    return std::filesystem::path(templ);
  }();
  return dir;
}

inline void write_file(const std::filesystem::path& p, std::string_view bytes) {
  std::filesystem::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

/// One fuzz input holding several files: `in` cut at each marker, each searched after
/// the one before it. Returns markers.size() + 1 parts; a missing marker's part is empty.
inline std::vector<std::string_view> split_at_markers(std::string_view in, std::initializer_list<std::string_view> markers) {
  std::vector<std::size_t> pos;
  std::size_t from = 0;
  for (const auto m : markers) {
    pos.push_back(in.find(m, from));
    if (pos.back() != std::string_view::npos) from = pos.back() + m.size();
  }
  const auto next_found = [&](std::size_t k) {  // the first marker found at or after k
    for (; k < pos.size(); ++k)
      if (pos[k] != std::string_view::npos) return pos[k];
    return std::string_view::npos;
  };
  std::vector<std::string_view> parts{in.substr(0, next_found(0))};
  std::size_t k = 0;
  for (const auto m : markers) {
    if (pos[k] == std::string_view::npos) {
      parts.emplace_back();
    } else {
      const std::size_t begin = pos[k] + m.size(), end = next_found(k + 1);
      parts.push_back(in.substr(begin, end == std::string_view::npos ? end : end - begin));
    }
    ++k;
  }
  return parts;
}

/// Runs one reader call under the contract above.
template <class F>
void guarded(F&& f) {
  try {
    f();
  } catch (const EdgeCompilerError&) {
  } catch (const std::bad_alloc&) {
  } catch (const std::exception& e) {
    static const bool strict = std::getenv("EC_FUZZ_STRICT") && *std::getenv("EC_FUZZ_STRICT") == '1';
    if (strict) {
      std::fprintf(stderr, "ec-fuzz: an exception outside the error contract: %s\n", e.what());
      std::abort();
    }
  }
}

}  // namespace ec::fuzz
