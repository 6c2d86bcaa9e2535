// Serialises an ML Program: Model.proto bytes (the project's .proto subset of
// Core ML's published format, core/frontends/coreml/proto) plus weight.bin, and
// the .mlpackage folder around them (Manifest.json, Data/com.apple.CoreML/...).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/backends/metal/mil_program.h"

namespace ec::backends::metal {

struct SerializedModel {
  std::string model;                  // Model.proto bytes (model.mlmodel)
  std::vector<std::uint8_t> weights;  // weight.bin (header only when no blob)
  int blobs = 0;
};

/// Checks the program (check_program), then encodes it. Constants of 10 or more
/// elements of dtype fp16/fp32/int8/uint8 (from spec 9 also int32) go to
/// weight.bin as blobs (coremltools backend/mil/load.py); the rest are immediate values.
SerializedModel serialize_program(const MilProgram& p);

/// Writes PATH.mlpackage: into a temporary folder beside it, renamed into place
/// only when every file is written (an existing package is replaced only then).
/// Throws EdgeCompilerError (Io) naming the path and the reason; nothing
/// half-written is left behind.
void write_mlpackage(const MilProgram& p, const std::string& path);

}  // namespace ec::backends::metal
