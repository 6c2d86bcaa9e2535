#include "core/quantize/calibration_data.h"

#include <filesystem>
#include <random>
#include <set>

#include "core/errors.h"
#include "core/util/npy.h"

namespace ec::quantize {
namespace {

[[noreturn]] void fail(const std::string& file, const std::string& why) {
  throw EdgeCompilerError(ErrorKind::Io, file + ": " + why);
}

std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string r = "[";
  for (std::size_t k = 0; k < s.size(); ++k) r += (k ? "," : "") + std::to_string(s[k]);
  return r + "]";
}

// The per-sample shape of input `t` (batch of one): static dims as declared, the
// first dim 1, other dynamic dims taken from the file.
std::vector<std::int64_t> check_sample_shape(const std::string& file, const ir::Tensor& t,
                                             const std::vector<std::int64_t>& file_shape) {
  std::vector<std::int64_t> sample(file_shape.begin() + 1, file_shape.end());
  if (!t.shape.rank_known) return sample;
  const std::size_t rank = t.shape.rank();
  const std::string want = std::string(ir::dtype_name(t.dtype)) + t.shape.to_string();
  // (N, d1.. dk): the sample drops the batch axis; an input of rank r needs k = r - 1
  // (leading batch dim) or k = r (no batch dim in the model: the sample is reshaped).
  if (rank >= 1 && sample.size() == rank - 1) {
    std::vector<std::int64_t> full{1};
    full.insert(full.end(), sample.begin(), sample.end());
    sample = full;
  } else if (sample.size() != rank) {
    fail(file, "samples are " + shape_text({file_shape.begin() + 1, file_shape.end()}) + " but input '" + t.name +
                   "' is " + want + "; give an array of shape (N, ...) with the input's shape after the batch dim");
  }
  for (std::size_t d = 0; d < rank; ++d) {
    const auto& dim = t.shape.dims[d];
    if (!dim.is_static()) continue;  // a dynamic dim takes the file's size (1 when prepended)
    if (dim.is_static() && dim.value != sample[d])
      fail(file, "samples are " + shape_text({file_shape.begin() + 1, file_shape.end()}) + " but input '" + t.name +
                     "' is " + want + "; give an array of shape (N, ...) with the input's shape after the batch dim");
  }
  return sample;
}

}  // namespace

std::vector<Sample> load_calibration_data(const std::string& path, const ir::Graph& g, int max_samples) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(path, ec)) fail(path, "no such file or directory; give calibration data as a .npy file (N samples on axis 0) or a directory of NAME.npy files");
  std::vector<std::pair<std::string, std::string>> files;  // input name -> file
  if (fs::is_directory(path, ec)) {
    std::set<std::string> names;
    for (const auto& in : g.inputs) {
      const std::string f = (fs::path(path) / (in + ".npy")).string();
      if (!fs::exists(f, ec)) fail(f, "missing: the model's input '" + in + "' needs calibration samples in this file");
      files.emplace_back(in, f);
    }
  } else {
    if (g.inputs.size() != 1)
      fail(path, "the model has " + std::to_string(g.inputs.size()) +
                     " inputs; give a directory with one NAME.npy per input");
    files.emplace_back(g.inputs[0], path);
  }
  std::vector<Sample> samples;
  std::int64_t n = -1;
  std::string first_file;
  for (const auto& [name, file] : files) {
    const ir::Tensor* t = g.find_tensor(name);
    util::NpyArray a;
    try {
      a = util::read_npy(file);
    } catch (const EdgeCompilerError& e) {
      if (std::string(e.what()).find("'|O'") != std::string::npos)
        fail(file, "holds a ragged object array (samples of different shapes); save one (N, ...) float32 array, "
                   "e.g. np.stack(samples).astype(np.float32)");
      throw;
    }
    const ir::DType want = t && t->dtype != ir::DType::Undefined ? t->dtype : ir::DType::Float32;
    if (a.dtype != want)
      fail(file, "holds " + std::string(ir::dtype_name(a.dtype)) + " values but input '" + name + "' is " +
                     std::string(ir::dtype_name(want)) + "; save it with that dtype (e.g. x.astype(np.float32))");
    if (a.shape.empty() || a.shape[0] < 1)
      fail(file, "holds no samples; give an array of shape (N, ...) with N >= 1");
    if (n >= 0 && a.shape[0] != n)
      fail(file, "holds " + std::to_string(a.shape[0]) + " samples but " + first_file + " holds " + std::to_string(n) +
                     "; every input needs the same number of samples");
    if (n < 0) n = a.shape[0], first_file = file;
    const std::vector<std::int64_t> shape = t ? check_sample_shape(file, *t, a.shape)
                                              : std::vector<std::int64_t>(a.shape.begin() + 1, a.shape.end());
    const std::int64_t count = max_samples > 0 ? std::min<std::int64_t>(n, max_samples) : n;
    if (samples.empty()) samples.resize(static_cast<std::size_t>(count));
    const std::size_t bytes = a.data.size() / static_cast<std::size_t>(a.shape[0]);
    for (std::int64_t i = 0; i < count; ++i) {
      runtime::Tensor x = runtime::Tensor::from_constant(a.dtype, shape, a.data.slice(static_cast<std::size_t>(i) * bytes, bytes));
      samples[static_cast<std::size_t>(i)].emplace(name, std::move(x));
    }
  }
  return samples;
}

std::vector<Sample> random_samples(const ir::Graph& g, int n, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<Sample> out(static_cast<std::size_t>(std::max(n, 0)));
  for (auto& s : out)
    for (const auto& name : g.inputs) {
      const ir::Tensor* t = g.find_tensor(name);
      std::vector<std::int64_t> shape;
      if (t && t->shape.rank_known)
        for (const auto& d : t->shape.dims) shape.push_back(d.is_static() ? d.value : 1);
      runtime::Tensor x(ir::DType::Float32, shape);
      float* p = x.mutable_data<float>();
      for (std::int64_t i = 0; i < x.numel(); ++i) p[i] = dist(rng);
      s.emplace(name, std::move(x));
    }
  return out;
}

}  // namespace ec::quantize
