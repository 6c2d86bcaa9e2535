// Frontends turn a model file into an IR Graph. Each exposes `match` (extension
// and magic bytes -> confidence) and `open`. The registry (one explicit table
// in frontend_registry.cpp) tries candidates by confidence and, when none can
// open a file, throws ONE FrontendError listing what each tried.
#pragma once

#include <cstddef>
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
};

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

}  // namespace ec::frontends
