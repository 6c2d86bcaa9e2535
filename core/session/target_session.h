// A target runtime behind InferenceSession: runs a compiled artefact somewhere other
// than the CPU runtime. Each backend that runs its artefacts on a device opens one
// (Backend::open_session, core/backends/<name>/); the session only holds it
// (InferenceSession::load_target). Nothing in this layer names a target.
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

}  // namespace ec::runtime::targets
