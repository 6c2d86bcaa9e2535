// The HDF5 part of a Keras file, read whole by libhdf5 in a child process.
//
// Why a child: libhdf5 1.10 crashes (SIGSEGV in H5F__accum_read) and loops for ever
// (H5HG global heap, H5C cache) on damaged files; fuzz_keras finds both within a minute.
// So the bytes are parsed in a fork()ed child that walks every object (H5Ovisit) and
// sends back the groups, the string attributes and the numeric datasets
// (as f32, bounded by the file's size); the parent reads that stream with a deadline.
// A child that crashes, hangs or overruns a bound is one FrontendError.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ec::frontends::keras {

struct Hdf5Object {
  bool group = false;
  std::vector<std::int64_t> shape;  // datasets
  std::vector<float> values;        // datasets of a float or integer type
  std::string unreadable;           // why a dataset's values are missing (its type, its size)
  std::map<std::string, std::vector<std::string>> attrs;  // string attributes
};

/// Objects by path: "/" is the root group, others "a/b" (no leading slash).
using Hdf5Snapshot = std::map<std::string, Hdf5Object>;

/// Reads `bytes` (an HDF5 file image). Throws FrontendError(path, what + " ...").
Hdf5Snapshot snapshot_hdf5(const std::string& path, const std::string& what, const std::string& bytes);

/// The child's stream decoded (what snapshot_hdf5 does with it): tags 'G' path (a group),
/// 'D' path rank dims 'V' count floats | 'U' why (a dataset), 'A' path name count strings
/// (string attributes), 'E' message (the child's error), 'Z' (the end); u64 little-endian,
/// strings as u64 length + bytes. `finished` says whether 'Z' was reached. Throws
/// FrontendError on a damaged stream. fuzz_keras feeds it directly (in process, at the
/// speed of our own code; libhdf5 itself is fuzzed through the child by the other forms).
Hdf5Snapshot decode_hdf5_stream(const std::string& path, const std::string& what, const std::string& stream,
                                bool& finished);

}  // namespace ec::frontends::keras
