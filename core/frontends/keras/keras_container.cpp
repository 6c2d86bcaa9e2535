// Reading the Keras containers (see keras_container.h). The layouts follow the
// published savers:
//  - .keras (keras/src/saving/saving_lib.py): a zip with config.json (the model's
//    serialize_keras_object dict), metadata.json ({"keras_version", "date_saved"}) and
//    model.weights.h5, whose groups are the saveables' paths: a Sequential/Functional
//    model's layers are `layers/<snake_case(class)>[_N]` (N counts per class in the
//    model's layer order), a layer's own variables are datasets `vars/0..n-1` in the
//    order Keras created them, an RNN's are its cell's (`.../cell/vars`). Keras 2.13 to
//    2.15 wrote `_layer_checkpoint_dependencies/<layer name>` instead of `layers/...`.
//  - legacy .h5 (keras/src/legacy/saving/legacy_h5_format.py, tf.keras hdf5_format.py):
//    root attribute `model_config` (JSON), `keras_version`; group `model_weights` with
//    attribute `layer_names`, a group per layer with attribute `weight_names` naming
//    the layer's datasets in order. An attribute larger than 64512 bytes is split into
//    `<name>0`, `<name>1`, ...
#include "core/frontends/keras/keras_container.h"

#include <hdf5.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <regex>

#include "core/errors.h"
#include "core/frontends/zip_archive.h"
#include "core/ir/excerpt.h"
#include "core/util/json_text.h"
#include "core/util/safe_file.h"

namespace ec::frontends::keras {
namespace {

constexpr std::uint64_t kMaxJsonBytes = std::uint64_t{64} << 20;  // config.json, model_config
constexpr std::size_t kMaxRank = 8;
constexpr std::size_t kMaxListEntries = 1'000'000;  // layer_names, weight_names

// libhdf5 keeps global state; one caller at a time, its error stack never printed.
std::mutex& h5_mutex() {
  static std::mutex m;
  return m;
}

struct H5Lock {
  std::lock_guard<std::mutex> lock{h5_mutex()};
  H5Lock() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }
};

// An hid_t closed by the matching H5?close when it goes out of scope.
class Hid {
 public:
  Hid(hid_t id, herr_t (*close)(hid_t)) : id_(id), close_(close) {}
  ~Hid() {
    if (id_ >= 0) close_(id_);
  }
  Hid(const Hid&) = delete;
  Hid& operator=(const Hid&) = delete;
  hid_t get() const { return id_; }
  bool ok() const { return id_ >= 0; }

 private:
  hid_t id_;
  herr_t (*close_)(hid_t);
};

std::string shown(const std::string& s) { return excerpt(s, 80); }

}  // namespace

class Hdf5Image {
 public:
  Hdf5Image(const std::string& path, const std::string& what, std::string bytes) : path_(path), what_(what) {
    size_ = bytes.size();
    if (size_ < 8 || std::memcmp(bytes.data(), "\x89HDF\r\n\x1a\n", 8) != 0)
      fail("is not an HDF5 file (no HDF5 signature)");
    H5Lock lock;
    Hid fapl(H5Pcreate(H5P_FILE_ACCESS), &H5Pclose);
    if (!fapl.ok() || H5Pset_fapl_core(fapl.get(), 1 << 16, 0) < 0 ||
        H5Pset_file_image(fapl.get(), bytes.data(), bytes.size()) < 0)
      fail("cannot be handed to libhdf5");
    bytes = std::string();  // the property list holds its own copy
    static std::atomic<unsigned> serial{0};
    const std::string name = "edgecompiler-keras-" + std::to_string(serial++);
    file_ = H5Fopen(name.c_str(), H5F_ACC_RDONLY, fapl.get());
    if (file_ < 0) fail("is damaged or truncated (libhdf5 cannot open it)");
  }
  ~Hdf5Image() {
    if (file_ >= 0) {
      H5Lock lock;
      H5Fclose(file_);
    }
  }
  Hdf5Image(const Hdf5Image&) = delete;
  Hdf5Image& operator=(const Hdf5Image&) = delete;

  [[noreturn]] void fail(const std::string& why) const { throw FrontendError(path_, what_ + " " + why, "keras"); }
  std::uint64_t size() const { return size_; }

  /// True when every component of `path` ("a/b/c") exists (links checked one by one,
  /// as libhdf5 asks).
  bool exists(const std::string& path) const {
    H5Lock lock;
    return exists_locked(path);
  }

  /// True when `path` names a group.
  bool is_group(const std::string& path) const {
    H5Lock lock;
    if (!exists_locked(path)) return false;
    H5O_info_t info;
    if (H5Oget_info_by_name(file_, path.c_str(), &info, H5P_DEFAULT) < 0) return false;
    return info.type == H5O_TYPE_GROUP;
  }

  /// Names of the links in group `path`.
  std::vector<std::string> children(const std::string& path) const {
    H5Lock lock;
    std::vector<std::string> out;
    if (!exists_locked(path)) return out;
    Hid g(H5Gopen2(file_, path.c_str(), H5P_DEFAULT), &H5Gclose);
    if (!g.ok()) return out;
    H5G_info_t info;
    if (H5Gget_info(g.get(), &info) < 0) fail("group '" + shown(path) + "' is damaged");
    if (info.nlinks > kMaxListEntries || info.nlinks > size_)
      fail("group '" + shown(path) + "' declares " + std::to_string(info.nlinks) + " members; refused");
    for (hsize_t i = 0; i < info.nlinks; ++i) {
      const ssize_t n = H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, nullptr, 0, H5P_DEFAULT);
      if (n < 0 || static_cast<std::uint64_t>(n) > size_) fail("group '" + shown(path) + "' has a damaged member name");
      std::string name(static_cast<std::size_t>(n) + 1, '\0');
      if (H5Lget_name_by_idx(g.get(), ".", H5_INDEX_NAME, H5_ITER_INC, i, name.data(), name.size(), H5P_DEFAULT) < 0)
        fail("group '" + shown(path) + "' has a damaged member name");
      name.resize(static_cast<std::size_t>(n));
      out.push_back(std::move(name));
    }
    return out;
  }

  /// The string(s) of attribute `attr` on object `obj` ("/" = root); nullopt when absent.
  std::optional<std::vector<std::string>> strings(const std::string& obj, const std::string& attr) const {
    H5Lock lock;
    if (obj != "/" && !exists_locked(obj)) return std::nullopt;
    if (H5Aexists_by_name(file_, obj.c_str(), attr.c_str(), H5P_DEFAULT) <= 0) return std::nullopt;
    const std::string where = "attribute '" + shown(attr) + "' of '" + shown(obj) + "'";
    Hid a(H5Aopen_by_name(file_, obj.c_str(), attr.c_str(), H5P_DEFAULT, H5P_DEFAULT), &H5Aclose);
    if (!a.ok()) fail(where + " cannot be opened");
    Hid type(H5Aget_type(a.get()), &H5Tclose);
    Hid space(H5Aget_space(a.get()), &H5Sclose);
    if (!type.ok() || !space.ok()) fail(where + " is damaged");
    if (H5Tget_class(type.get()) != H5T_STRING) fail(where + " is not a string");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0 || rank > 1) fail(where + " is not a string or a list of strings");
    hsize_t n = 1;
    if (rank == 1 && H5Sget_simple_extent_dims(space.get(), &n, nullptr) < 0) fail(where + " is damaged");
    if (n > kMaxListEntries || n > size_) fail(where + " declares " + std::to_string(n) + " strings; refused");
    std::vector<std::string> out;
    const htri_t vlen = H5Tis_variable_str(type.get());
    if (vlen < 0) fail(where + " is damaged");
    if (vlen) {
      Hid mem(H5Tcopy(H5T_C_S1), &H5Tclose);
      if (!mem.ok() || H5Tset_size(mem.get(), H5T_VARIABLE) < 0) fail(where + " cannot be read");
      std::vector<char*> ptrs(static_cast<std::size_t>(n), nullptr);
      if (H5Aread(a.get(), mem.get(), ptrs.data()) < 0) fail(where + " cannot be read (damaged)");
      std::uint64_t total = 0;
      for (char* p : ptrs) {
        std::string s = p ? std::string(p, strnlen(p, kMaxJsonBytes)) : std::string();
        total += s.size();
        out.push_back(std::move(s));
      }
      H5Dvlen_reclaim(mem.get(), space.get(), H5P_DEFAULT, ptrs.data());
      if (total > kMaxJsonBytes) fail(where + " is larger than " + std::to_string(kMaxJsonBytes) + " bytes");
      return out;
    }
    const std::size_t each = H5Tget_size(type.get());
    if (each == 0 || each > kMaxJsonBytes || n * each > size_ * 2 + 1024)
      fail(where + " declares " + std::to_string(n) + " strings of " + std::to_string(each) + " bytes; refused");
    Hid mem(H5Tcopy(H5T_C_S1), &H5Tclose);
    if (!mem.ok() || H5Tset_size(mem.get(), each) < 0 || H5Tset_strpad(mem.get(), H5T_STR_NULLPAD) < 0)
      fail(where + " cannot be read");
    std::string buf(static_cast<std::size_t>(n * each), '\0');
    if (H5Aread(a.get(), mem.get(), buf.data()) < 0) fail(where + " cannot be read (damaged)");
    for (hsize_t i = 0; i < n; ++i) {
      std::string s = buf.substr(static_cast<std::size_t>(i * each), each);
      s.resize(strnlen(s.data(), s.size()));
      out.push_back(std::move(s));
    }
    return out;
  }

  /// Dataset `path` as f32 (HDF5 converts any float or integer type).
  WeightArray read(const std::string& path) const {
    H5Lock lock;
    const std::string where = "dataset '" + shown(path) + "'";
    if (!exists_locked(path)) fail(where + " is missing");
    Hid d(H5Dopen2(file_, path.c_str(), H5P_DEFAULT), &H5Dclose);
    if (!d.ok()) fail(where + " cannot be opened (not a dataset, or damaged)");
    Hid type(H5Dget_type(d.get()), &H5Tclose);
    Hid space(H5Dget_space(d.get()), &H5Sclose);
    if (!type.ok() || !space.ok()) fail(where + " is damaged");
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls != H5T_FLOAT && cls != H5T_INTEGER)
      fail(where + " holds neither floats nor integers (bfloat16 and other opaque types are not supported)");
    const std::size_t es = H5Tget_size(type.get());
    if (es == 0 || es > 8) fail(where + " has an element size of " + std::to_string(es) + " bytes");
    const int rank = H5Sget_simple_extent_ndims(space.get());
    if (rank < 0 || static_cast<std::size_t>(rank) > kMaxRank) fail(where + " has rank " + std::to_string(rank));
    std::vector<hsize_t> dims(static_cast<std::size_t>(rank));
    if (rank > 0 && H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr) < 0) fail(where + " is damaged");
    // Every allocation is bounded by the file: stored bytes cannot exceed it, except
    // through a compression filter (allowed up to 1024:1).
    Hid dcpl(H5Dget_create_plist(d.get()), &H5Pclose);
    const int filters = dcpl.ok() ? H5Pget_nfilters(dcpl.get()) : 0;
    const std::uint64_t limit = std::min<std::uint64_t>(filters > 0 ? size_ * 1024 : size_, util::kMaxReadBytes);
    WeightArray w;
    w.where = path;
    std::uint64_t numel = 1;
    for (hsize_t v : dims) {
      if (v != 0 && numel > limit / v) fail(where + " declares more elements than the file can hold");
      numel *= v;
      w.shape.push_back(static_cast<std::int64_t>(v));
    }
    if (numel * es > limit || numel * sizeof(float) > util::kMaxReadBytes)
      fail(where + " declares " + std::to_string(numel * es) + " bytes, more than the file can hold");
    w.values.resize(static_cast<std::size_t>(numel));
    if (numel && H5Dread(d.get(), H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, w.values.data()) < 0)
      fail(where + " cannot be read (truncated or damaged)");
    return w;
  }

 private:
  bool exists_locked(const std::string& path) const {
    if (path.empty() || path == "/") return true;
    std::string prefix;
    std::size_t i = 0;
    while (i <= path.size()) {
      const auto slash = std::min(path.find('/', i), path.size());
      const std::string part = path.substr(i, slash - i);
      if (part.empty()) return false;
      prefix += (prefix.empty() ? "" : "/") + part;
      if (H5Lexists(file_, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      if (H5Oexists_by_name(file_, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      i = slash + 1;
    }
    return true;
  }

  std::string path_, what_;
  std::uint64_t size_ = 0;
  hid_t file_ = -1;
};

WeightStore::WeightStore(std::string path, std::unique_ptr<Hdf5Image> h5, bool legacy)
    : path_(std::move(path)), h5_(std::move(h5)), legacy_(legacy) {}
WeightStore::~WeightStore() = default;

// vars/0, vars/1, ... in numeric order (a gap is an error: Keras writes them densely).
std::vector<WeightArray> WeightStore::numbered_vars(const std::string& group) const {
  std::vector<WeightArray> out;
  const auto names = h5_->children(group);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string n = std::to_string(i);
    if (std::find(names.begin(), names.end(), n) == names.end())
      h5_->fail("group '" + shown(group) + "' has " + std::to_string(names.size()) + " members but no '" + n +
                "' (expected vars 0.." + std::to_string(names.size() - 1) + ")");
    out.push_back(h5_->read(group + "/" + n));
  }
  return out;
}

namespace {
// A legacy list attribute, whole or split into name0, name1, ...
std::vector<std::string> legacy_list(const Hdf5Image& h5, const std::string& obj, const std::string& attr) {
  if (auto v = h5.strings(obj, attr)) return *v;
  std::vector<std::string> all;
  for (int i = 0; i < 100000; ++i) {
    auto part = h5.strings(obj, attr + std::to_string(i));
    if (!part) break;
    all.insert(all.end(), part->begin(), part->end());
    if (all.size() > kMaxListEntries) h5.fail("attribute '" + attr + "' of '" + shown(obj) + "' is too long");
  }
  return all;
}

std::vector<std::string> split_path(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t i = 0;
  while (i <= s.size()) {
    const auto slash = std::min(s.find('/', i), s.size());
    parts.push_back(s.substr(i, slash - i));
    i = slash + 1;
  }
  return parts;
}
}  // namespace

std::vector<WeightArray> WeightStore::variables(const WeightRef& ref, std::string& where) const {
  if (!legacy_) {
    for (const std::string& base : {ref.v3_path, ref.v2_path}) {
      if (base.empty()) continue;
      for (const std::string& group : {base + "/vars", base + "/cell/vars"}) {
        if (!h5_->is_group(group)) continue;
        auto vars = numbered_vars(group);
        if (vars.empty()) continue;
        where = "model.weights.h5 '" + group + "'";
        return vars;
      }
    }
    where = "model.weights.h5 '" + ref.v3_path + "/vars'";
    return {};
  }
  const std::string group = "model_weights/" + ref.legacy_layer;
  where = "'" + group + "'";
  if (ref.legacy_layer.empty() || !h5_->is_group(group)) return {};
  std::vector<std::string> names = legacy_list(*h5_, group, "weight_names");
  if (!ref.legacy_inner.empty()) {
    // A nested model's group lists every inner weight ("conv2d_1/kernel:0" or
    // "model/conv2d_1/kernel"): keep those under the innermost layer's name.
    const std::string& inner = ref.legacy_inner.back();
    std::vector<std::string> kept;
    for (const auto& n : names) {
      const auto parts = split_path(n);
      if (std::find(parts.begin(), parts.end() - 1, inner) != parts.end() - 1) kept.push_back(n);
    }
    names = std::move(kept);
    where += " (weights of '" + inner + "')";
  }
  std::vector<WeightArray> out;
  for (const auto& n : names) out.push_back(h5_->read(group + "/" + n));
  return out;
}

std::string snake_case(const std::string& class_name) {
  std::string s;
  for (char c : class_name)
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') s += c;
  s = std::regex_replace(s, std::regex("(.)([A-Z][a-z]+)"), "$1_$2");
  s = std::regex_replace(s, std::regex("([a-z])([A-Z])"), "$1_$2");
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

namespace {

nlohmann::json parse(const std::string& path, const std::string& text, const std::string& what) {
  try {
    return util::parse_json(text, what);
  } catch (const FrontendError&) {
    throw;
  } catch (const EdgeCompilerError& e) {  // "config.json: not JSON: <reason>"
    throw FrontendError(path, e.what(), "keras");
  }
}

std::string version_of(const nlohmann::json& meta) {
  if (meta.is_object() && meta.contains("keras_version") && meta["keras_version"].is_string())
    return excerpt(meta["keras_version"].get<std::string>(), 40);
  return {};
}

KerasFile read_zip(const std::string& path, std::uint64_t file_size) {
  ZipArchive zip(path);
  KerasFile k;
  if (!zip.contains("config.json"))
    throw FrontendError(path, "zip archive has no config.json; it is not a .keras model (a model saved with "
                              "model.save('m.keras') has one)", "keras");
  k.model = parse(path, zip.read("config.json", std::min(kMaxJsonBytes, file_size * 64 + 4096)), "config.json");
  if (zip.contains("metadata.json"))
    k.keras_version = version_of(parse(path, zip.read("metadata.json", 1 << 20), "metadata.json"));
  if (!zip.contains("model.weights.h5")) {
    if (zip.contains("model.weights.npz"))
      throw FrontendError(path, "weights are stored as model.weights.npz; only model.weights.h5 is supported "
                                "(save with the default weights_format='h5')", "keras");
    throw FrontendError(path, "zip archive has no model.weights.h5", "keras");
  }
  // A stored entry is at most the file; a deflated one is allowed 16:1.
  const std::uint64_t limit = std::min<std::uint64_t>(file_size * 16 + (1 << 20), util::kMaxReadBytes);
  auto h5 = std::make_unique<Hdf5Image>(path, "model.weights.h5", zip.read("model.weights.h5", limit));
  const bool v2 = h5->exists("_layer_checkpoint_dependencies");
  k.variant = v2 ? "keras2 zip" : "keras3 zip";
  k.weights = std::make_unique<WeightStore>(path, std::move(h5), false);
  return k;
}

KerasFile read_h5(const std::string& path, std::string bytes) {
  auto h5 = std::make_unique<Hdf5Image>(path, "HDF5 file", std::move(bytes));
  KerasFile k;
  auto config = h5->strings("/", "model_config");
  if (!config || config->size() != 1) {
    const bool weights_only = h5->exists("layer_names") || h5->strings("/", "layer_names").has_value() ||
                              h5->exists("layers") || h5->exists("vars");
    throw FrontendError(path, std::string("HDF5 file has no 'model_config' attribute: ") +
                                  (weights_only ? "it holds weights only (model.save_weights); "
                                                : "it is not a Keras model; ") +
                                  "save the whole model with model.save('m.keras') or model.save('m.h5')", "keras");
  }
  k.model = parse(path, (*config)[0], "attribute 'model_config'");
  if (auto v = h5->strings("/", "keras_version"); v && v->size() == 1) k.keras_version = excerpt((*v)[0], 40);
  else if (auto w = h5->strings("model_weights", "keras_version"); w && w->size() == 1)
    k.keras_version = excerpt((*w)[0], 40);
  if (!h5->is_group("model_weights"))
    throw FrontendError(path, "HDF5 file has a model_config but no 'model_weights' group; save it with "
                              "model.save('m.h5') (weights included)", "keras");
  k.variant = "legacy h5";
  k.weights = std::make_unique<WeightStore>(path, std::move(h5), true);
  return k;
}

}  // namespace

KerasFile read_keras_bytes(const std::string& path, std::string bytes) {
  // libzip reads from a path: a zip's bytes must be those of `path`.
  if (ZipArchive::looks_like_zip(bytes)) return read_zip(path, bytes.size());
  return read_h5(path, std::move(bytes));
}

KerasFile read_keras_parts(const std::string& path, const std::string& config_json, std::string weights_h5) {
  KerasFile k;
  if (config_json.size() > kMaxJsonBytes) throw FrontendError(path, "config is larger than 64 MiB", "keras");
  k.model = parse(path, config_json, "config.json");
  auto h5 = std::make_unique<Hdf5Image>(path, "weights", std::move(weights_h5));
  const bool legacy = h5->is_group("model_weights");
  k.variant = legacy ? "legacy h5" : h5->exists("_layer_checkpoint_dependencies") ? "keras2 zip" : "keras3 zip";
  k.weights = std::make_unique<WeightStore>(path, std::move(h5), legacy);
  return k;
}

KerasFile read_keras_file(const std::string& path) {
  std::uint64_t size = 0;
  const int fd = util::open_regular_file(path, util::kMaxReadBytes, path, size);
  char head[4] = {};
  const ssize_t got = ::read(fd, head, sizeof head);
  ::close(fd);
  if (size == 0 || got <= 0) throw FrontendError(path, "file is empty (0 bytes); it is not a model", "keras");
  if (ZipArchive::looks_like_zip(std::string_view(head, static_cast<std::size_t>(got)))) return read_zip(path, size);
  return read_h5(path, util::read_regular_file(path, util::kMaxReadBytes, path));
}

}  // namespace ec::frontends::keras
