// The Coral Edge TPU's target runtime: a .tflite compiled for the Edge TPU run on the
// first Edge TPU libedgetpu lists, through the TensorFlow Lite C library (both
// dlopen()ed; edgetpu_library.h). CoralBackend::open_session opens it.
#pragma once

#include <memory>
#include <string>

#include "core/ir/graph.h"
#include "core/session/target_session.h"

namespace ec::backends::coral {

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
std::unique_ptr<runtime::targets::TargetSession> open_coral_target(const std::string& path, ir::FrozenGraph graph,
                                                                   const CoralTargetOptions& options = {});

}  // namespace ec::backends::coral
