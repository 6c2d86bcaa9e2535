// Frontends turn a model file into an IR Graph. Each exposes `match` (extension
// and magic bytes -> confidence) and `open`. The registry (one explicit table
// in frontend_registry.cpp) tries candidates by confidence and, when none can
// open a file, throws ONE FrontendError listing what each tried.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace ec::frontends {

struct OpenOptions {
  /// Keep ops the IR does not know as OpKind::Unknown (inspect wants to list
  /// them); when false, the first unknown op throws UnsupportedOpError.
  bool allow_unknown_ops = true;
  /// Run the format's shape inference to type intermediate tensors.
  bool infer_shapes = true;
  /// Input shapes the file does not record (a scripted TorchScript module, a
  /// Keras model with free dimensions): input name -> dims. The name "" means
  /// the first input. Empty: open_model() takes the process defaults
  /// (set_default_model_hints), then the file's own shapes.
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  /// Input dtypes the file does not record (a TorchScript input of int64 ids): input
  /// name ("" = first) -> IR dtype name ("i64"). From `--input-shape NAME=1,12:int64`.
  std::map<std::string, std::string> input_dtypes;
  /// SavedModel: the signature to import ("" = serving_default).
  std::string signature;
};

/// What a user states about a model beside its file (edgecompile --input-shape,
/// --signature; the workbench's open dialog). open_model() applies them to
/// every open whose OpenOptions leaves them empty.
struct ModelHints {
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  std::map<std::string, std::string> input_dtypes;
  std::string signature;
};
void set_default_model_hints(ModelHints hints);
const ModelHints& default_model_hints();

/// Parses "NAME=1,3,224,224" (or "1,3,224,224" for the first input), optionally with a
/// dtype suffix (":int64", ":int32", ":float32", ":bool"), into `hints`; throws
/// EdgeCompilerError(Usage) naming the text.
void parse_input_shape(const std::string& text, ModelHints& hints);

class Frontend {
 public:
  virtual ~Frontend() = default;
  /// Short name: "onnx", "tflite", ...
  virtual std::string_view name() const = 0;
  /// One-line description for --help and the GUI.
  virtual std::string_view summary() const = 0;
  /// 0 = not this format, 1 = certain. `head` holds the file's first bytes
  /// (up to 4096; fewer for short files); `path` gives the extension.
  virtual float match(std::span<const std::byte> head, const std::string& path) const = 0;
  /// Opens the file; throws FrontendError / UnsupportedOpError with a one-line message.
  virtual ir::Graph open(const std::string& path, const OpenOptions& opts) const = 0;
};

struct FrontendEntry {
  std::string_view name;
  std::string_view summary;
  std::unique_ptr<Frontend> (*make)();
  /// File-name patterns for help texts and open dialogs ("*.pt *.pth").
  std::string_view patterns;
  /// True when a model of this format is a folder (.mlpackage, a SavedModel).
  bool folder;
  /// What the frontend says when it does not recognise a file.
  std::string_view no_match;
};

/// The one registry table.
std::span<const FrontendEntry> frontend_table();

/// Checks the path (exists, is a regular file, readable, non-empty), reads its
/// head, asks every frontend to match, and opens with the best candidate;
/// falls through to the next candidate when one fails. Throws FrontendError.
/// `format`, when given, receives the name of the frontend that opened the file.
ir::Graph open_model(const std::string& path, const OpenOptions& opts = {}, std::string* format = nullptr);

/// The extensions the frontends read, for help texts: ".onnx, .eir".
std::string supported_extensions();

/// Every pattern of every frontend, space-separated, for an open dialog's
/// "Models (...)" filter: "*.onnx *.tflite ...".
std::string model_file_patterns();

}  // namespace ec::frontends
