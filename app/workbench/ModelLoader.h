// The work of opening a model file (File › Open), run on the window's loading
// JobRunner (JobRunner.h): the frontend registry opens it and the summary is made,
// both off the GUI thread. The core's open_model() cannot be interrupted: a load
// the window no longer waits for (cancelled, superseded) runs to completion and its
// result is dropped.
#pragma once

#include <QString>

#include "core/ir/graph.h"
#include "core/report/model_summary.h"

namespace ec::workbench {

/// What one load produced: immutable, handed to every view.
struct LoadedModel {
  QString path;
  ec::ir::FrozenGraph graph;
  ec::report::ModelSummary summary;
};

struct ModelLoader {
  /// Opens `path` with the frontend registry and summarises it (worker thread; throws
  /// the core's EdgeCompilerError, whose what() is its one-line message).
  static LoadedModel load(const QString& path);
};

}  // namespace ec::workbench
