#include "app/workbench/JobRunner.h"

#include <spdlog/spdlog.h>
#include <QCoreApplication>

#include "core/errors.h"

namespace ec::workbench {

JobRunner::JobRunner(const QString& threadName, QObject* parent) : QObject(parent) {
  thread_ = new QThread(this);
  thread_->setObjectName(threadName);
  worker_ = new QObject;
  worker_->moveToThread(thread_);
  connect(thread_, &QThread::finished, worker_, &QObject::deleteLater);
  thread_->start();
}

JobRunner::~JobRunner() { stop(); }

void JobRunner::stop() {
  if (stopped_) return;
  stopped_ = true;
  current_ = 0;
  cancelledUpTo_.store(last_);
  thread_->quit();
  thread_->wait();
}

void JobRunner::cancel() {
  quint64 seen = cancelledUpTo_.load();
  while (seen < current_ && !cancelledUpTo_.compare_exchange_weak(seen, current_)) {
  }
}

void JobRunner::forget() {
  cancel();
  current_ = 0;
}

void JobRunner::post(std::function<void()> fn) {
  QMetaObject::invokeMethod(worker_, std::move(fn), Qt::QueuedConnection);
}

void JobRunner::deliver(quint64 id, bool last, std::function<void()> fn) {
  QMetaObject::invokeMethod(
      this,
      [this, id, last, fn = std::move(fn)] {
        if (id == 0 || id != current_) return;  // superseded or forgotten: dropped
        if (last) current_ = 0;
        fn();
      },
      Qt::QueuedConnection);
}

QString JobRunner::describe(std::exception_ptr e) {
  QString message;
  try {
    std::rethrow_exception(e);
  } catch (const ec::EdgeCompilerError& x) {
    // what() is the core's actionable one-liner; detail() is for the log only.
    message = QString::fromStdString(x.what());
    if (!x.detail().empty()) spdlog::debug("{}", x.detail());
  } catch (const std::exception& x) {
    message = QString::fromStdString(x.what());
  } catch (...) {
    message = QCoreApplication::translate("ec::workbench::JobRunner", "unknown error");
  }
  spdlog::error("{}", message.toStdString());
  return message;
}

}  // namespace ec::workbench
