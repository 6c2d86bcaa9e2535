// The Keras containers: a .keras zip (config.json, metadata.json, model.weights.h5)
// and a legacy .h5 (root attribute model_config, weights under model_weights/).
// Both are read into memory (bounded by the file's size) and their HDF5 part is
// opened as a file image with libhdf5, whose own error printing is switched off:
// every failure is one FrontendError naming the file and the entry.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace ec::frontends::keras {

/// One weight array as stored (any float or integer type, read as f32).
struct WeightArray {
  std::string where;                // HDF5 path, for messages
  std::vector<std::int64_t> shape;  // as stored (Keras order)
  std::vector<float> values;
};

/// Where a layer's variables may be, in the order the variants lay them out.
struct WeightRef {
  std::string v3_path;                  // Keras 3 .keras: "layers/conv2d" (+ "/vars")
  std::string v2_path;                  // Keras 2.13+ .keras: "_layer_checkpoint_dependencies/<name>"
  std::string legacy_layer;             // legacy .h5: top-level layer group under model_weights/
  std::vector<std::string> legacy_inner;  // names of the nested layers below it (nested models)
};

/// An opened HDF5 image (libhdf5 behind a mutex, its error stack silenced).
class Hdf5Image;

/// A layer's variables in the file.
class WeightStore {
 public:
  WeightStore(std::string path, std::unique_ptr<Hdf5Image> h5, bool legacy);
  ~WeightStore();
  WeightStore(const WeightStore&) = delete;
  WeightStore& operator=(const WeightStore&) = delete;
  /// The layer's variables in Keras's order (kernel, bias, ...); empty when the file
  /// has none for it. `where` receives the group that was read (for messages).
  std::vector<WeightArray> variables(const WeightRef& ref, std::string& where) const;

 private:
  std::vector<WeightArray> numbered_vars(const std::string& group) const;
  std::string path_;
  std::unique_ptr<Hdf5Image> h5_;
  bool legacy_;
};

/// What the frontend needs of a Keras file.
struct KerasFile {
  nlohmann::json model;          // {"class_name": "Sequential"|"Functional"|"Model", "config": {...}}
  std::string keras_version;     // "3.3.3", "2.15.0", "" when not recorded
  std::string variant;           // "keras3 zip", "keras2 zip", "legacy h5"
  std::unique_ptr<WeightStore> weights;
};

/// Reads a .keras zip or a legacy .h5 (chosen by content). Throws FrontendError.
KerasFile read_keras_file(const std::string& path);

/// The same from bytes already in memory (a zip's must also be the file at `path`).
KerasFile read_keras_bytes(const std::string& path, std::string bytes);

/// A model from its two parts: config JSON ({"class_name", "config"}) and an HDF5
/// weights image in either layout (model.weights.h5, or a legacy file with
/// model_weights/). The fuzz target reads this form: a zip's CRC would refuse
/// nearly every mutation of the config before it is parsed.
KerasFile read_keras_parts(const std::string& path, const std::string& config_json, std::string weights_h5);

/// The same with the HDF5 part given as the reader child's stream (keras_hdf5.h,
/// decode_hdf5_stream) instead of an image; an empty `config_json` reads a legacy .h5
/// (model_config from the root attribute). The fuzz target's in-process form.
KerasFile read_keras_stream(const std::string& path, const std::string& config_json, const std::string& stream);

/// Keras's naming.to_snake_case: "Conv2DTranspose" -> "conv2d_transpose",
/// "PReLU" -> "p_re_lu" (the .keras weight groups are named after it).
std::string snake_case(const std::string& class_name);

}  // namespace ec::frontends::keras
