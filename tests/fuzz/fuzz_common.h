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
#include <new>
#include <string>
#include <string_view>

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
