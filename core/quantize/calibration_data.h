// Calibration samples from .npy files, or from a fixed-seed generator.
// A single-input model takes one file, (N, ...) with the input's shape after
// the batch dim; a model with several inputs takes a directory of NAME.npy
// files (one per graph input, N samples on axis 0 in each).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"
#include "core/util/npy.h"

namespace ec::quantize {

/// Reads at most `max_samples` samples (all when <= 0) for `g`'s float inputs.
/// Throws EdgeCompilerError (kind Io) with one line naming the file and the
/// input when a file is missing, unreadable, ragged, of the wrong dtype or shape.
std::vector<Sample> load_calibration_data(const std::string& path, const ir::Graph& g, int max_samples = 0);

/// Calibration samples already in memory (a NumPy array handed to the Python API):
/// N samples on axis 0 for one graph input.
struct CalibrationArray {
  std::string input;   // the graph input; "" = the model's only input
  std::string source;  // what messages call it ("calibration_data['x']", a file name)
  util::NpyArray array;
};

/// The samples of `arrays` (one per graph input), checked as load_calibration_data()
/// checks files (dtype, shape after the batch axis, equal counts), at most
/// `max_samples` (all when <= 0). The samples alias the arrays' bytes (no copy).
/// Errors are one line naming the source and the input, of kind `kind`.
std::vector<Sample> calibration_samples(const std::vector<CalibrationArray>& arrays, const ir::Graph& g,
                                        int max_samples = 0, ErrorKind kind = ErrorKind::Input);

/// How random calibration values are drawn for one graph input.
struct RandomInputRange {
  enum class Kind {
    Float,         // floating-point input: uniform in [lo, hi)
    TableIndex,    // integer input indexing a constant table (Gather / Embedding): ids uniform in [0, rows)
    SmallInteger,  // other integer or bool input: uniform in [lo, hi) (a small, safe range: 0 or 1)
  };
  std::string input;
  ir::DType dtype = ir::DType::Float32;
  Kind kind = Kind::Float;
  double lo = 0, hi = 0;  // [lo, hi); integer kinds: whole numbers
  std::string table;      // TableIndex: the constant table the input indexes
};

/// The range random_samples() draws each of `g`'s inputs from: floats in [lo, hi);
/// integer inputs that index a constant table (Gather(table, input), possibly
/// through Cast/Reshape/Squeeze/Unsqueeze/Flatten/Identity) in [0, rows of the
/// table on the gathered axis); other integer and bool inputs in {0, 1}.
std::vector<RandomInputRange> random_input_ranges(const ir::Graph& g, float lo = -1.f, float hi = 1.f);

/// One line saying where random samples come from, e.g. "32 random samples (seed 0):
/// input 'tokens' i64 token ids uniform in [0, 1000) (rows of 'embedding.weight')".
std::string describe_random_samples(const ir::Graph& g, int n, std::uint64_t seed, float lo = -1.f, float hi = 1.f);

/// `n` samples for `g`'s inputs, each of the input's dtype, drawn as
/// random_input_ranges() says from a fixed seed (dynamic dims become 1).
std::vector<Sample> random_samples(const ir::Graph& g, int n, std::uint64_t seed = 0, float lo = -1.f,
                                   float hi = 1.f);

}  // namespace ec::quantize
