// Job bookkeeping shared by the workbench's background runners (QuantRunner,
// CompileRunner, ...):
// - JobCancel: thread-safe "cancel request `id` and every earlier one", asked by
//   the runner between steps on its worker thread;
// - WorkerSession<Runner, Job, OutcomePtr>: owns the worker QThread and its runner,
//   numbers the jobs, knows the request whose result is awaited (so a result of a
//   forgotten request, e.g. for a model no longer shown, is dropped) and keeps the
//   last outcome. The runner has `void run(const Job&)` and `void cancel(quint64)`.
#pragma once

#include <atomic>

#include <QObject>
#include <QString>
#include <QThread>

namespace ec::workbench {

class JobCancel {
 public:
  /// Cancels request `id` and every earlier one (any thread).
  void cancel(quint64 id) {
    quint64 seen = upTo_.load();
    while (seen < id && !upTo_.compare_exchange_weak(seen, id)) {
    }
  }
  bool isCancelled(quint64 id) const { return upTo_.load() >= id; }

 private:
  std::atomic<quint64> upTo_{0};
};

template <typename Runner, typename Job, typename OutcomePtr>
class WorkerSession : public QObject {
 public:
  WorkerSession(const QString& threadName, QObject* parent) : QObject(parent) {
    thread_ = new QThread(this);
    thread_->setObjectName(threadName);
    runner_ = new Runner;
    runner_->moveToThread(thread_);
    QObject::connect(thread_, &QThread::finished, runner_, &QObject::deleteLater);
    thread_->start();
  }
  /// Cancels a running job and waits for the worker thread to end.
  ~WorkerSession() override {
    runner_->cancel(last_);
    thread_->quit();
    thread_->wait();
  }

  Runner* runner() const { return runner_; }
  /// Starts `job` (its id is assigned here) and returns the id.
  quint64 start(Job job) {
    job.id = ++last_;
    current_ = job.id;
    QMetaObject::invokeMethod(
        runner_, [runner = runner_, job = std::move(job)] { runner->run(job); }, Qt::QueuedConnection);
    return current_;
  }
  /// Cancels the running job, if any; its cancelled() still arrives.
  void cancel() {
    if (current_) runner_->cancel(current_);
  }
  /// Forgets the running job: its result will be ignored (a new model was loaded).
  void forget() {
    cancel();
    current_ = 0;
  }
  bool isRunning() const { return current_ != 0; }
  /// The request whose result is awaited (0: none).
  quint64 current() const { return current_; }
  /// Marks request `id` done (called when its result arrived); false if it was not current.
  bool finish(quint64 id) {
    if (id == 0 || id != current_) return false;
    current_ = 0;
    return true;
  }

  /// The last successful run (null before the first).
  OutcomePtr outcome;

 private:
  QThread* thread_ = nullptr;
  Runner* runner_ = nullptr;
  quint64 last_ = 0;
  quint64 current_ = 0;
};

}  // namespace ec::workbench
