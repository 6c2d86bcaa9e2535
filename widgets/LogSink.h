// A spdlog sink that forwards every message to a LogModel on the GUI thread.
// spdlog calls sink_it_ on whatever thread logs (the loader thread, a pass
// worker); the entry crosses to the model through a queued signal, so the
// model is only ever touched on its own thread.
#pragma once

#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <QObject>

#include "widgets/LogModel.h"

namespace ec::widgets {

/// The sink's signal source. It never receives events, so it may be destroyed
/// on whichever thread drops the sink's last reference.
class LogEmitter : public QObject {
  Q_OBJECT

 signals:
  void entryLogged(const ec::widgets::LogEntry& entry);
};

class LogSink final : public spdlog::sinks::base_sink<std::mutex> {
 public:
  LogSink();
  ~LogSink() override;

  /// Creates a sink whose messages are appended to `model` (queued). The sink
  /// may outlive the model: messages logged after the model is gone are dropped.
  static std::shared_ptr<LogSink> connectedTo(LogModel* model);

  const LogEmitter* emitter() const { return emitter_.get(); }

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override;
  void flush_() override {}

 private:
  std::unique_ptr<LogEmitter> emitter_;
};

/// Maps a spdlog level onto the panel's levels (`off` maps to Critical).
LogLevel toLogLevel(spdlog::level::level_enum level);

}  // namespace ec::widgets
