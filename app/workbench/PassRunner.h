// Runs an optimisation pipeline off the GUI thread. Lives on a worker QThread;
// the window calls run() through a queued connection with the loaded (frozen)
// graph and receives exactly one of finished / failed per request, also queued.
// The worker copies the frozen graph into a mutable one; the report keeps every
// pass's before/after graph as frozen snapshots for the Passes panel.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "core/ir/graph.h"
#include "core/passes/pass_manager.h"
#include "widgets/MetaTypes.h"

namespace ec::workbench {

class PassRunner : public QObject {
  Q_OBJECT

 public:
  explicit PassRunner(QObject* parent = nullptr);

 public slots:
  /// Runs the default pipeline on a copy of `graph`.
  void run(quint64 requestId, ec::ir::FrozenGraph graph);

 signals:
  void finished(quint64 requestId, std::shared_ptr<const ec::passes::PipelineReport> report);
  /// `message` is the core's one-line error (e.g. a pass left an invalid graph).
  void failed(quint64 requestId, const QString& message);
};

}  // namespace ec::workbench
