// Calibration samples from .npy files, or from a fixed-seed generator.
// A single-input model takes one file, (N, ...) with the input's shape after
// the batch dim; a model with several inputs takes a directory of NAME.npy
// files (one per graph input, N samples on axis 0 in each).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"

namespace ec::quantize {

/// Reads at most `max_samples` samples (all when <= 0) for `g`'s float inputs.
/// Throws EdgeCompilerError (kind Io) with one line naming the file and the
/// input when a file is missing, unreadable, ragged, of the wrong dtype or shape.
std::vector<Sample> load_calibration_data(const std::string& path, const ir::Graph& g, int max_samples = 0);

/// `n` samples for `g`'s inputs, uniform in [lo, hi), from a fixed seed
/// (dynamic dims become 1). For tests and benchmarks.
std::vector<Sample> random_samples(const ir::Graph& g, int n, std::uint64_t seed = 0, float lo = -1.f,
                                   float hi = 1.f);

}  // namespace ec::quantize
