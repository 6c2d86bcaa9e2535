// Serves the Benchmark panel's requests (widgets/bench/BenchmarkPanel.h): runs the
// bench flow (core/flows/bench.h) on a JobRunner and records the run with the record
// flow (core/flows/record.h), the way `edgecompile bench` does; progress, Cancel and the
// outcome go back to the panel on the GUI thread.
#pragma once

#include <QObject>
#include <QString>

#include "app/workbench/JobRunner.h"

namespace ec::widgets {
class BenchmarkPanel;
struct BenchmarkRequest;
}  // namespace ec::widgets

namespace ec::workbench {

class BenchController : public QObject {
  Q_OBJECT

 public:
  /// Serves `panel` (which must outlive this controller: make it the panel's child or a
  /// sibling destroyed first).
  explicit BenchController(ec::widgets::BenchmarkPanel* panel, QObject* parent = nullptr);

  bool isRunning() const { return jobs_->isRunning(); }

 public slots:
  void run(const ec::widgets::BenchmarkRequest& request);
  void cancel() { jobs_->cancel(); }

 private:
  ec::widgets::BenchmarkPanel* panel_;
  JobRunner* jobs_;
};

}  // namespace ec::workbench
