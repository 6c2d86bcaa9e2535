// `--input NAME=FILE.npy` handling shared by `run` and `bench`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/runtime/tensor.h"

namespace ec::cli {

/// Reads each NAME=FILE.npy spec into a tensor named NAME. Throws
/// EdgeCompilerError (Usage) for a malformed spec or a name given twice, and
/// the .npy reader's error for a file it cannot read.
std::map<std::string, runtime::Tensor> read_npy_inputs(const std::vector<std::string>& specs);

}  // namespace ec::cli
