// A target runtime behind InferenceSession: runs a compiled artefact somewhere
// other than the CPU runtime (load(path, target); see session.h).
#pragma once

#include <map>
#include <memory>
#include <string>

#include "core/ir/graph.h"
#include "core/runtime/tensor.h"

namespace ec::runtime::targets {

class TargetSession {
 public:
  virtual ~TargetSession() = default;
  virtual std::string name() const = 0;
  /// Runs the artefact on the graph inputs (named as `graph` declares them).
  virtual std::map<std::string, Tensor> run(const std::map<std::string, Tensor>& inputs) = 0;
  /// Releases the device (idempotent; never throws).
  virtual void close() noexcept = 0;
};

struct CoralTargetOptions {
  std::string edgetpu_library = "libedgetpu.so.1";
  /// The TensorFlow Lite C library that hosts the Edge TPU delegate and runs the CPU ops.
  std::string tflite_library = "libtensorflowlite_c.so";
  int threads = 1;
};

/// Opens a .tflite compiled for the Edge TPU on the first Edge TPU libedgetpu lists.
/// `graph` is the artefact as our frontend read it (for the input and output names and types).
/// Throws BackendError("coral", why) when the file, libedgetpu, a device or the TFLite C
/// library is missing; never crashes.
std::unique_ptr<TargetSession> open_coral_target(const std::string& path, ir::FrozenGraph graph,
                                                 const CoralTargetOptions& options = {});

}  // namespace ec::runtime::targets
