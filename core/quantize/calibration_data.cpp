#include "core/quantize/calibration_data.h"

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <sstream>

#include "core/errors.h"
#include "core/util/npy.h"

namespace ec::quantize {
namespace {

[[noreturn]] void fail(const std::string& file, const std::string& why, ErrorKind kind = ErrorKind::Io) {
  throw EdgeCompilerError(kind, file + ": " + why);
}

std::string shape_text(const std::vector<std::int64_t>& s) {
  std::string r = "[";
  for (std::size_t k = 0; k < s.size(); ++k) r += (k ? "," : "") + std::to_string(s[k]);
  return r + "]";
}

// The per-sample shape of input `t` (batch of one): static dims as declared, the
// first dim 1, other dynamic dims taken from the file.
std::vector<std::int64_t> check_sample_shape(const std::string& file, const ir::Tensor& t,
                                             const std::vector<std::int64_t>& file_shape, ErrorKind kind) {
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
                   "' is " + want + "; give an array of shape (N, ...) with the input's shape after the batch dim", kind);
  }
  for (std::size_t d = 0; d < rank; ++d) {
    const auto& dim = t.shape.dims[d];
    if (!dim.is_static()) continue;  // a dynamic dim takes the file's size (1 when prepended)
    if (dim.is_static() && dim.value != sample[d])
      fail(file, "samples are " + shape_text({file_shape.begin() + 1, file_shape.end()}) + " but input '" + t.name +
                     "' is " + want + "; give an array of shape (N, ...) with the input's shape after the batch dim", kind);
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
  std::vector<CalibrationArray> arrays;
  for (const auto& [name, file] : files) {
    CalibrationArray a{name, file, {}};
    try {
      a.array = util::read_npy(file);
    } catch (const EdgeCompilerError& e) {
      if (std::string(e.what()).find("'|O'") != std::string::npos)
        fail(file, "holds a ragged object array (samples of different shapes); save one (N, ...) float32 array, "
                   "e.g. np.stack(samples).astype(np.float32)");
      throw;
    }
    arrays.push_back(std::move(a));
  }
  return calibration_samples(arrays, g, max_samples, ErrorKind::Io);
}

std::vector<Sample> calibration_samples(const std::vector<CalibrationArray>& arrays, const ir::Graph& g,
                                        int max_samples, ErrorKind kind) {
  std::vector<Sample> samples;
  std::int64_t n = -1;
  std::string first_file;
  for (const auto& given : arrays) {
    std::string name = given.input;
    const std::string& file = given.source;
    if (name.empty()) {
      if (g.inputs.size() != 1)
        fail(file, "the model has " + std::to_string(g.inputs.size()) +
                       " inputs; give the samples of each input by name", kind);
      name = g.inputs[0];
    } else if (std::find(g.inputs.begin(), g.inputs.end(), name) == g.inputs.end()) {
      std::string known;
      for (const auto& in : g.inputs) known += (known.empty() ? "" : ", ") + in;
      fail(file, "the model has no input '" + name + "' (its inputs: " + known + ")", kind);
    }
    if (std::count_if(arrays.begin(), arrays.end(), [&](const CalibrationArray& o) { return o.input == name; }) > 1)
      fail(file, "input '" + name + "' is given more than once", kind);
    const ir::Tensor* t = g.find_tensor(name);
    const util::NpyArray& a = given.array;
    const ir::DType want = t && t->dtype != ir::DType::Undefined ? t->dtype : ir::DType::Float32;
    if (a.dtype != want)
      fail(file, "holds " + std::string(ir::dtype_name(a.dtype)) + " values but input '" + name + "' is " +
                     std::string(ir::dtype_name(want)) + "; save it with that dtype (e.g. x.astype(np.float32))", kind);
    if (a.shape.empty() || a.shape[0] < 1)
      fail(file, "holds no samples; give an array of shape (N, ...) with N >= 1", kind);
    if (n >= 0 && a.shape[0] != n)
      fail(file, "holds " + std::to_string(a.shape[0]) + " samples but " + first_file + " holds " + std::to_string(n) +
                     "; every input needs the same number of samples", kind);
    if (n < 0) n = a.shape[0], first_file = file;
    const std::vector<std::int64_t> shape = t ? check_sample_shape(file, *t, a.shape, kind)
                                              : std::vector<std::int64_t>(a.shape.begin() + 1, a.shape.end());
    const std::int64_t count = max_samples > 0 ? std::min<std::int64_t>(n, max_samples) : n;
    if (samples.empty()) samples.resize(static_cast<std::size_t>(count));
    const std::size_t bytes = a.data.size() / static_cast<std::size_t>(a.shape[0]);
    for (std::int64_t i = 0; i < count; ++i) {
      runtime::Tensor x = runtime::Tensor::from_constant(a.dtype, shape, a.data.slice(static_cast<std::size_t>(i) * bytes, bytes));
      samples[static_cast<std::size_t>(i)].emplace(name, std::move(x));
    }
  }
  for (const auto& in : g.inputs)
    if (std::none_of(arrays.begin(), arrays.end(), [&](const CalibrationArray& a) { return a.input == in || a.input.empty(); }))
      throw EdgeCompilerError(kind, "calibration data: the model's input '" + in + "' has no samples; give one array per input");
  return samples;
}

namespace {

bool passes_values_through(ir::OpKind k) {
  return k == ir::OpKind::Cast || k == ir::OpKind::Reshape || k == ir::OpKind::Squeeze || k == ir::OpKind::Unsqueeze ||
         k == ir::OpKind::Flatten || k == ir::OpKind::Identity;
}

// The smallest row count of a constant table that `name` (or a value-preserving
// view of it) indexes through Gather, with the table's name; 0 when none.
std::pair<std::int64_t, std::string> indexed_rows(const ir::Graph& g, const std::string& name, int depth = 0) {
  std::pair<std::int64_t, std::string> best{0, {}};
  if (depth > 4) return best;
  for (const auto& op : g.ops) {
    std::pair<std::int64_t, std::string> r{0, {}};
    if (op.kind == ir::OpKind::Gather && op.inputs.size() > 1 && op.inputs[1] == name) {
      const ir::Tensor* table = g.find_tensor(op.inputs[0]);
      if (!table || !table->is_constant() || !table->shape.rank_known || table->shape.rank() == 0) continue;
      std::int64_t axis = op.attr_int("axis", 0);
      const auto rank = static_cast<std::int64_t>(table->shape.rank());
      if (axis < 0) axis += rank;
      if (axis < 0 || axis >= rank || !table->shape.dims[static_cast<std::size_t>(axis)].is_static()) continue;
      r = {table->shape.dims[static_cast<std::size_t>(axis)].value, table->name};
    } else if (passes_values_through(op.kind) && !op.inputs.empty() && op.inputs[0] == name && !op.outputs.empty()) {
      r = indexed_rows(g, op.outputs[0], depth + 1);
    }
    if (r.first > 0 && (best.first == 0 || r.first < best.first)) best = r;
  }
  return best;
}

template <typename T>
void fill_integers(runtime::Tensor& x, std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  std::uniform_int_distribution<std::int64_t> dist(lo, hi - 1);
  T* p = x.mutable_data<T>();
  for (std::int64_t i = 0; i < x.numel(); ++i) p[i] = static_cast<T>(dist(rng));
}

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

}  // namespace

std::vector<RandomInputRange> random_input_ranges(const ir::Graph& g, float lo, float hi) {
  std::vector<RandomInputRange> out;
  for (const auto& name : g.inputs) {
    const ir::Tensor* t = g.find_tensor(name);
    RandomInputRange r;
    r.input = name;
    r.dtype = t && t->dtype != ir::DType::Undefined ? t->dtype : ir::DType::Float32;
    if (r.dtype == ir::DType::Bool || ir::dtype_is_integer(r.dtype)) {
      const auto [rows, table] = indexed_rows(g, name);
      if (rows > 0) {
        r.kind = RandomInputRange::Kind::TableIndex;
        r.lo = 0, r.hi = static_cast<double>(rows);
        r.table = table;
      } else {
        r.kind = RandomInputRange::Kind::SmallInteger;
        r.lo = 0, r.hi = 2;
      }
    } else {
      r.kind = RandomInputRange::Kind::Float;
      r.lo = lo, r.hi = hi;
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::string describe_random_samples(const ir::Graph& g, int n, std::uint64_t seed, float lo, float hi) {
  std::string s = std::to_string(n) + (n == 1 ? " random sample" : " random samples") + " (seed " +
                  std::to_string(seed) + ")";
  std::string sep = ": ";
  for (const auto& r : random_input_ranges(g, lo, hi)) {
    s += sep + "input '" + r.input + "' " + std::string(ir::dtype_name(r.dtype)) + " ";
    sep = "; ";
    switch (r.kind) {
      case RandomInputRange::Kind::Float: s += "uniform in [" + number(r.lo) + ", " + number(r.hi) + ")"; break;
      case RandomInputRange::Kind::TableIndex:
        s += "ids uniform in [0, " + number(r.hi) + ") (the rows of '" + r.table + "', which it indexes)";
        break;
      case RandomInputRange::Kind::SmallInteger: s += "uniform in {0, 1} (an integer input; no table found to size it)"; break;
    }
  }
  return s;
}

std::vector<Sample> random_samples(const ir::Graph& g, int n, std::uint64_t seed, float lo, float hi) {
  std::mt19937_64 rng(seed);
  const std::vector<RandomInputRange> ranges = random_input_ranges(g, lo, hi);
  std::vector<Sample> out(static_cast<std::size_t>(std::max(n, 0)));
  for (auto& s : out)
    for (const auto& r : ranges) {
      const ir::Tensor* t = g.find_tensor(r.input);
      std::vector<std::int64_t> shape;
      if (t && t->shape.rank_known)
        for (const auto& d : t->shape.dims) shape.push_back(d.is_static() ? d.value : 1);
      runtime::Tensor x(r.dtype, shape);
      const auto ilo = static_cast<std::int64_t>(r.lo), ihi = static_cast<std::int64_t>(r.hi);
      switch (r.dtype) {
        case ir::DType::Float32: {
          std::uniform_real_distribution<float> dist(static_cast<float>(r.lo), static_cast<float>(r.hi));
          float* p = x.mutable_data<float>();
          for (std::int64_t i = 0; i < x.numel(); ++i) p[i] = dist(rng);
          break;
        }
        case ir::DType::Float64: {
          std::uniform_real_distribution<double> dist(r.lo, r.hi);
          double* p = x.mutable_data<double>();
          for (std::int64_t i = 0; i < x.numel(); ++i) p[i] = dist(rng);
          break;
        }
        case ir::DType::Int8: fill_integers<std::int8_t>(x, rng, ilo, std::min<std::int64_t>(ihi, 128)); break;
        case ir::DType::Int16: fill_integers<std::int16_t>(x, rng, ilo, std::min<std::int64_t>(ihi, 32768)); break;
        case ir::DType::Int32: fill_integers<std::int32_t>(x, rng, ilo, std::min<std::int64_t>(ihi, std::int64_t{1} << 31)); break;
        case ir::DType::Int64: fill_integers<std::int64_t>(x, rng, ilo, ihi); break;
        case ir::DType::UInt8: fill_integers<std::uint8_t>(x, rng, ilo, std::min<std::int64_t>(ihi, 256)); break;
        case ir::DType::UInt16: fill_integers<std::uint16_t>(x, rng, ilo, std::min<std::int64_t>(ihi, 65536)); break;
        case ir::DType::UInt32: fill_integers<std::uint32_t>(x, rng, ilo, std::min<std::int64_t>(ihi, std::int64_t{1} << 32)); break;
        case ir::DType::UInt64: fill_integers<std::uint64_t>(x, rng, ilo, ihi); break;
        case ir::DType::Bool: fill_integers<std::uint8_t>(x, rng, 0, 2); break;
        default:
          throw EdgeCompilerError(ErrorKind::Usage, "input '" + r.input + "' is " + std::string(ir::dtype_name(r.dtype)) +
                                                        "; random calibration data cannot be drawn for it: give --calibration-data");
      }
      s.emplace(r.input, std::move(x));
    }
  return out;
}

}  // namespace ec::quantize
