// The one way the workbench runs work off the GUI thread (model load, passes,
// quantise, compile, compare, export, device discovery, benchmark).
//
// A JobRunner owns one worker QThread. start() numbers the request, runs the work
// function on the worker with a JobContext (progress, "was I cancelled?"), and hands
// exactly one of done / failed / cancelled back ON THE GUI THREAD through the
// handlers given with the request; progress reports arrive there too. Only the
// latest request is awaited: starting another, or forget(), supersedes it, and
// whatever a superseded request still reports is dropped. cancel() (any request up
// to the current one) is answered at the work's next progress call: the context then
// says false and the work stops by throwing, which reaches `cancelled`. The
// destructor cancels, lets the running work end and joins the thread, so no handler
// runs after the runner is gone.
#pragma once

#include <atomic>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include <QObject>
#include <QString>
#include <QThread>

namespace ec::workbench {

/// What a work function sees of its request (worker thread).
class JobContext {
 public:
  JobContext(quint64 id, const std::atomic<quint64>* cancelledUpTo,
             std::function<void(const QString&, int, int)> report)
      : id_(id), cancelledUpTo_(cancelledUpTo), report_(std::move(report)) {}
  quint64 id() const { return id_; }
  bool cancelled() const { return cancelledUpTo_->load() >= id_; }
  /// Reports progress (delivered on the GUI thread); false when the request was
  /// cancelled: the work should stop (the core's progress callbacks return this).
  bool progress(const QString& stage, int done, int total) const {
    if (cancelled()) return false;
    report_(stage, done, total);
    return true;
  }

 private:
  quint64 id_;
  const std::atomic<quint64>* cancelledUpTo_;
  std::function<void(const QString&, int, int)> report_;
};

/// What a request's outcome is handed to (all on the GUI thread; any may be empty).
template <typename Result>
struct JobHandlers {
  std::function<void(Result)> done;
  /// The work's one-line error (an EdgeCompilerError's what(), else the exception's).
  std::function<void(const QString&)> failed;
  std::function<void()> cancelled;
  std::function<void(const QString& stage, int done, int total)> progress;
};

class JobRunner : public QObject {
  Q_OBJECT

 public:
  JobRunner(const QString& threadName, QObject* parent);
  /// stop().
  ~JobRunner() override;
  /// Cancels every request, lets the running work end and joins the worker thread;
  /// nothing is delivered afterwards and nothing more runs (the window's destructor
  /// stops every runner before the log sink goes).
  void stop();

  /// Runs `work` on the worker; returns the request's id (0 after stop()).
  template <typename Result>
  quint64 start(std::function<Result(const JobContext&)> work, JobHandlers<Result> handlers) {
    if (stopped_) return 0;
    const quint64 id = ++last_;
    current_ = id;
    auto h = std::make_shared<JobHandlers<Result>>(std::move(handlers));
    post([this, id, h, work = std::move(work)] {
      JobContext ctx(id, &cancelledUpTo_, [this, id, h](const QString& stage, int done, int total) {
        if (h->progress) deliver(id, false, [h, stage, done, total] { h->progress(stage, done, total); });
      });
      try {
        auto result = std::make_shared<Result>(work(ctx));
        if (ctx.cancelled() && cancelDropsResult_) {
          deliver(id, true, [h] {
            if (h->cancelled) h->cancelled();
          });
          return;
        }
        deliver(id, true, [h, result] {
          if (h->done) h->done(std::move(*result));
        });
      } catch (...) {
        const bool wasCancelled = ctx.cancelled();
        const QString message = wasCancelled ? QString() : describe(std::current_exception());
        deliver(id, true, [h, wasCancelled, message] {
          if (wasCancelled) {
            if (h->cancelled) h->cancelled();
          } else if (h->failed) {
            h->failed(message);
          }
        });
      }
    });
    return id;
  }

  /// Cancels the awaited request (and every earlier one); its `cancelled` still arrives.
  void cancel();
  /// Forgets the awaited request: whatever it still reports is dropped (a new model).
  void forget();
  bool isRunning() const { return current_ != 0; }
  /// The request whose outcome is awaited (0: none).
  quint64 current() const { return current_; }
  /// A result that arrives for a cancelled request is dropped and `cancelled` called
  /// (work that cannot stop mid-way, e.g. an export that must not write). Default on.
  void setCancelDropsResult(bool on) { cancelDropsResult_ = on; }

  /// One line for the exception `e` (logged as an error).
  static QString describe(std::exception_ptr e);

 private:
  void post(std::function<void()> fn);
  /// Runs `fn` on the GUI thread if request `id` is still awaited; `last` ends it
  /// (any thread: queued to this object, which outlives its worker).
  void deliver(quint64 id, bool last, std::function<void()> fn);

  QThread* thread_ = nullptr;
  QObject* worker_ = nullptr;
  quint64 last_ = 0;
  quint64 current_ = 0;
  std::atomic<quint64> cancelledUpTo_{0};
  bool cancelDropsResult_ = true;
  bool stopped_ = false;
};

}  // namespace ec::workbench
