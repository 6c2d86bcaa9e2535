// Writes an export file off the GUI thread (File › Export): laying out, rendering or
// serialising a big model takes seconds. Lives on a worker QThread like QuantRunner;
// the window calls run() through a queued connection with an ExportJob and receives
// exactly one of finished / failed / cancelled per request, all queued. The core's
// renderers and writers cannot be interrupted: cancel() makes the runner drop what it
// made instead of writing it, so a cancelled export leaves no file. The file is
// written atomically (core/util/atomic_file.h): a failure leaves nothing behind.
//
// ExportSession owns the worker thread and its runner.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include <QMetaType>
#include <QObject>
#include <QString>

#include "app/workbench/WorkerSession.h"

namespace ec::workbench {

struct ExportJob {
  quint64 id = 0;
  QString path;  ///< the file to write
  /// Makes the file's bytes on the worker thread (may throw the core's errors); sets
  /// `count` to what the success message counts (ops drawn, ops written, rows).
  std::function<std::string(std::size_t* count)> produce;
};

/// What one export wrote.
struct ExportOutcome {
  QString path;
  qint64 bytes = 0;
  std::size_t count = 0;
};
using ExportOutcomePtr = std::shared_ptr<const ExportOutcome>;

class ExportRunner : public QObject {
  Q_OBJECT

 public:
  explicit ExportRunner(QObject* parent = nullptr);
  /// Thread-safe: cancels request `id` (and every earlier one).
  void cancel(quint64 id) { cancel_.cancel(id); }

 public slots:
  void run(const ec::workbench::ExportJob& job);

 signals:
  void finished(quint64 id, ec::workbench::ExportOutcomePtr outcome);
  /// `message` is the core's one-line error.
  void failed(quint64 id, const QString& message);
  void cancelled(quint64 id);

 private:
  JobCancel cancel_;
};

/// Owns the worker thread and its runner (WorkerSession.h).
class ExportSession : public WorkerSession<ExportRunner, ExportJob, ExportOutcomePtr> {
 public:
  explicit ExportSession(QObject* parent = nullptr)
      : WorkerSession(QStringLiteral("ExportRunner"), parent) {}
};

}  // namespace ec::workbench

Q_DECLARE_METATYPE(ec::workbench::ExportJob)
Q_DECLARE_METATYPE(ec::workbench::ExportOutcomePtr)
