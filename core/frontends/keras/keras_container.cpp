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
#include "core/frontends/keras/keras_hdf5.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <regex>

#include "core/errors.h"
#include "core/frontends/zip_archive.h"
#include "core/ir/excerpt.h"
#include "core/util/json_text.h"
#include "core/util/safe_file.h"

namespace ec::frontends::keras {
namespace {

constexpr std::uint64_t kMaxJsonBytes = std::uint64_t{64} << 20;  // config.json, model_config
constexpr std::size_t kMaxListEntries = 1'000'000;  // layer_names, weight_names

std::string shown(const std::string& s) { return excerpt(s, 80); }

}  // namespace

// The HDF5 part as read by snapshot_hdf5 (keras_hdf5.h): libhdf5 never runs in this process.
class Hdf5Image {
 public:
  Hdf5Image(const std::string& path, const std::string& what, std::string bytes)
      : path_(path), what_(what), snap_(snapshot_hdf5(path, what, bytes)) {}
  Hdf5Image(const std::string& path, const std::string& what, Hdf5Snapshot snap)
      : path_(path), what_(what), snap_(std::move(snap)) {}

  [[noreturn]] void fail(const std::string& why) const { throw FrontendError(path_, what_ + " " + why, "keras"); }

  bool exists(const std::string& path) const { return snap_.count(path.empty() ? "/" : path) > 0; }
  bool is_group(const std::string& path) const {
    const auto it = snap_.find(path.empty() ? "/" : path);
    return it != snap_.end() && it->second.group;
  }
  /// Names of the members of group `path`.
  std::vector<std::string> children(const std::string& path) const {
    std::vector<std::string> out;
    const std::string prefix = path.empty() || path == "/" ? "" : path + "/";
    for (auto it = snap_.lower_bound(prefix); it != snap_.end() && it->first.compare(0, prefix.size(), prefix) == 0; ++it) {
      const std::string rest = it->first.substr(prefix.size());
      if (!rest.empty() && rest != "/" && rest.find('/') == std::string::npos) out.push_back(rest);
    }
    return out;
  }
  /// The string(s) of attribute `attr` on object `obj` ("/" = root); nullopt when absent.
  std::optional<std::vector<std::string>> strings(const std::string& obj, const std::string& attr) const {
    const auto it = snap_.find(obj.empty() ? "/" : obj);
    if (it == snap_.end()) return std::nullopt;
    const auto a = it->second.attrs.find(attr);
    if (a == it->second.attrs.end()) return std::nullopt;
    return a->second;
  }
  /// Dataset `path` as f32.
  WeightArray read(const std::string& path) const {
    const std::string where = "dataset '" + shown(path) + "'";
    const auto it = snap_.find(path);
    if (it == snap_.end()) fail(where + " is missing");
    if (it->second.group) fail(where + " is a group, not a dataset");
    if (!it->second.unreadable.empty()) fail(where + " " + it->second.unreadable);
    return {path, it->second.shape, it->second.values};
  }

 private:
  std::string path_, what_;
  Hdf5Snapshot snap_;
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

KerasFile read_h5(const std::string& path, std::unique_ptr<Hdf5Image> h5) {
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
  return read_h5(path, std::make_unique<Hdf5Image>(path, "HDF5 file", std::move(bytes)));
}

namespace {

KerasFile read_parts(const std::string& path, const std::string& config_json, std::unique_ptr<Hdf5Image> h5) {
  KerasFile k;
  if (config_json.size() > kMaxJsonBytes) throw FrontendError(path, "config is larger than 64 MiB", "keras");
  k.model = parse(path, config_json, "config.json");
  const bool legacy = h5->is_group("model_weights");
  k.variant = legacy ? "legacy h5" : h5->exists("_layer_checkpoint_dependencies") ? "keras2 zip" : "keras3 zip";
  k.weights = std::make_unique<WeightStore>(path, std::move(h5), legacy);
  return k;
}

}  // namespace

KerasFile read_keras_parts(const std::string& path, const std::string& config_json, std::string weights_h5) {
  return read_parts(path, config_json, std::make_unique<Hdf5Image>(path, "weights", std::move(weights_h5)));
}

KerasFile read_keras_stream(const std::string& path, const std::string& config_json, const std::string& stream) {
  bool finished = false;
  auto snap = decode_hdf5_stream(path, config_json.empty() ? "HDF5 file" : "weights", stream, finished);
  if (!finished) throw FrontendError(path, "weights stream ends early", "keras");
  auto h5 = std::make_unique<Hdf5Image>(path, config_json.empty() ? "HDF5 file" : "weights", std::move(snap));
  return config_json.empty() ? read_h5(path, std::move(h5)) : read_parts(path, config_json, std::move(h5));
}

KerasFile read_keras_file(const std::string& path) {
  std::uint64_t size = 0;
  const int fd = util::open_regular_file(path, util::kMaxReadBytes, path, size);
  char head[4] = {};
  const ssize_t got = ::read(fd, head, sizeof head);
  ::close(fd);
  if (size == 0 || got <= 0) throw FrontendError(path, "file is empty (0 bytes); it is not a model", "keras");
  if (ZipArchive::looks_like_zip(std::string_view(head, static_cast<std::size_t>(got)))) return read_zip(path, size);
  return read_h5(path, std::make_unique<Hdf5Image>(path, "HDF5 file",
                                                   util::read_regular_file(path, util::kMaxReadBytes, path)));
}

}  // namespace ec::frontends::keras
