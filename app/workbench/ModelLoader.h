// Opens model files off the GUI thread. Lives on a worker QThread; the window
// calls load() through a queued connection and receives exactly one of
// modelLoaded / loadFailed per request, also queued.
//
// Cancelling: the core's open_model() is not interruptible yet, so a running
// load always runs to completion. The window cancels by forgetting the
// request id and ignoring the result that arrives for it.
#pragma once

#include <QObject>
#include <QString>

#include "core/ir/graph.h"
#include "core/report/model_summary.h"
#include "widgets/MetaTypes.h"

namespace ec::workbench {

class ModelLoader : public QObject {
  Q_OBJECT

 public:
  explicit ModelLoader(QObject* parent = nullptr);

 public slots:
  /// Opens `path` with the frontend registry and summarises it.
  void load(quint64 requestId, const QString& path);

 signals:
  void modelLoaded(quint64 requestId, const QString& path, ec::ir::FrozenGraph graph,
                   const ec::report::ModelSummary& summary);
  /// `message` is the core's one-line error.
  void loadFailed(quint64 requestId, const QString& path, const QString& message);
};

}  // namespace ec::workbench
