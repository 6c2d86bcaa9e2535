// Structured errors of the core library. Every user-facing failure is one of
// these: a one-line actionable message(), plus optional detail() for --verbose.
// Programmer errors are assertions, not exceptions of this family.
#pragma once

#include <stdexcept>
#include <string>

namespace ec {

/// Usage: the request itself is wrong, decidable without reading any file (the CLI
/// exits 2). Input: data given to a model does not fit it (wrong name, dtype, shape).
/// Every other kind refuses an input file or model (exit 1).
enum class ErrorKind { Frontend, UnsupportedOp, Quantization, Backend, Graph, Io, Usage, Input };

/// Base of every error the core reports to users.
class EdgeCompilerError : public std::runtime_error {
 public:
  EdgeCompilerError(ErrorKind kind, std::string message, std::string detail = {})
      : std::runtime_error(std::move(message)), kind_(kind), detail_(std::move(detail)) {}
  ErrorKind kind() const noexcept { return kind_; }
  /// Longer explanation shown with --verbose (may be empty).
  const std::string& detail() const noexcept { return detail_; }

 private:
  ErrorKind kind_;
  std::string detail_;
};

/// A model file that no frontend could open, or that a frontend rejected.
class FrontendError : public EdgeCompilerError {
 public:
  FrontendError(std::string path, std::string reason, std::string format_hint = {},
                std::string detail = {})
      : EdgeCompilerError(ErrorKind::Frontend, path + ": " + reason, std::move(detail)),
        path_(std::move(path)), reason_(std::move(reason)), format_hint_(std::move(format_hint)) {}
  const std::string& path() const noexcept { return path_; }
  const std::string& reason() const noexcept { return reason_; }
  const std::string& format_hint() const noexcept { return format_hint_; }

 private:
  std::string path_, reason_, format_hint_;
};

/// An op a frontend or backend cannot handle.
class UnsupportedOpError : public EdgeCompilerError {
 public:
  UnsupportedOpError(std::string op_type, std::string backend, std::string suggestion,
                     std::string where = {})
      : EdgeCompilerError(ErrorKind::UnsupportedOp,
                          (where.empty() ? std::string() : where + ": ") + "op '" + op_type +
                              "' is not supported by " + backend +
                              (suggestion.empty() ? std::string() : "; " + suggestion)),
        op_type_(std::move(op_type)), backend_(std::move(backend)),
        suggestion_(std::move(suggestion)) {}
  const std::string& op_type() const noexcept { return op_type_; }
  const std::string& backend() const noexcept { return backend_; }
  const std::string& suggestion() const noexcept { return suggestion_; }

 private:
  std::string op_type_, backend_, suggestion_;
};

/// Quantisation failed for a tensor.
class QuantizationError : public EdgeCompilerError {
 public:
  QuantizationError(std::string tensor, std::string reason)
      : EdgeCompilerError(ErrorKind::Quantization, "tensor '" + tensor + "': " + reason),
        tensor_(std::move(tensor)), reason_(std::move(reason)) {}
  const std::string& tensor() const noexcept { return tensor_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string tensor_, reason_;
};

/// A backend could not compile for its target.
class BackendError : public EdgeCompilerError {
 public:
  BackendError(std::string target, std::string reason)
      : EdgeCompilerError(ErrorKind::Backend, target + ": " + reason),
        target_(std::move(target)), reason_(std::move(reason)) {}
  const std::string& target() const noexcept { return target_; }
  const std::string& reason() const noexcept { return reason_; }

 private:
  std::string target_, reason_;
};

/// An IR graph that breaks the IR's invariants (cycle, dangling tensor, bad text form).
class GraphError : public EdgeCompilerError {
 public:
  explicit GraphError(std::string message, std::string detail = {})
      : EdgeCompilerError(ErrorKind::Graph, std::move(message), std::move(detail)) {}
};

}  // namespace ec
