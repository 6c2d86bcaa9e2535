#include "app/workbench/BenchController.h"

#include <memory>

#include "core/flows/bench.h"
#include "core/flows/record.h"
#include "widgets/bench/BenchmarkPanel.h"

namespace ec::workbench {
namespace {

/// What one benchmark brings back to the panel.
struct BenchResult {
  ec::widgets::StatsPtr stats;  // null: the device only estimated
  qint64 runId = 0;
  QString recordError, note;
};

}  // namespace

BenchController::BenchController(ec::widgets::BenchmarkPanel* panel, QObject* parent)
    : QObject(parent), panel_(panel), jobs_(new JobRunner(QStringLiteral("benchmark"), this)) {
  connect(panel_, &ec::widgets::BenchmarkPanel::runRequested, this, &BenchController::run);
  connect(panel_, &ec::widgets::BenchmarkPanel::cancelRequested, this, &BenchController::cancel);
}

void BenchController::run(const ec::widgets::BenchmarkRequest& request) {
  ec::flows::BenchOptions o;
  o.model = request.modelPath.toStdString();
  o.device = request.device.toStdString();
  o.iterations = request.iterations;
  o.warmup = request.warmup;
  o.threads = request.threads;
  o.from = "workbench";
  const ec::flows::RecordOptions record{request.runsDb.toStdString(), request.record};
  JobHandlers<BenchResult> h;
  h.progress = [this](const QString&, int done, int total) { panel_->showProgress(done, total); };
  h.done = [this](const BenchResult& r) { panel_->showResult(r.stats, r.runId, r.recordError, r.note); };
  h.failed = [this](const QString& message) { panel_->showFailure(message); };
  h.cancelled = [this] { panel_->showCancelled(); };
  jobs_->start<BenchResult>(
      [o, record](const JobContext& ctx) mutable {
        o.progress = [&ctx](int done, int total) { return ctx.progress({}, done, total); };
        const auto out = ec::flows::bench(o);
        BenchResult r;
        if (out.kind == ec::flows::BenchDevice::Kind::Virtual) {
          r.note = tr("%1 on %2: %3 ms, estimate (not measured)")
                       .arg(QString::fromStdString(out.model), QString::fromStdString(out.device_id))
                       .arg(out.estimate.latency_ms, 0, 'f', 3);
          return r;
        }
        r.stats = std::make_shared<const ec::runtime::Stats>(out.stats);
        if (out.measured_here()) {
          const auto rec = ec::flows::record_run(ec::flows::bench_record(o, out), record);
          r.runId = rec.id;
          r.recordError = QString::fromStdString(rec.error);
        }
        return r;
      },
      std::move(h));
}

}  // namespace ec::workbench
