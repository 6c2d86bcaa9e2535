#include "widgets/LogSink.h"

namespace ec::widgets {

LogSink::LogSink() : emitter_(std::make_unique<LogEmitter>()) {
  qRegisterMetaType<ec::widgets::LogEntry>("ec::widgets::LogEntry");
}

LogSink::~LogSink() = default;

std::shared_ptr<LogSink> LogSink::connectedTo(LogModel* model) {
  auto sink = std::make_shared<LogSink>();
  // Queued even from the GUI thread: the model never changes in the middle of
  // a caller that is itself reacting to a model signal.
  QObject::connect(sink->emitter_.get(), &LogEmitter::entryLogged, model, &LogModel::append,
                   Qt::QueuedConnection);
  return sink;
}

LogLevel toLogLevel(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace:
      return LogLevel::Trace;
    case spdlog::level::debug:
      return LogLevel::Debug;
    case spdlog::level::info:
      return LogLevel::Info;
    case spdlog::level::warn:
      return LogLevel::Warning;
    case spdlog::level::err:
      return LogLevel::Error;
    case spdlog::level::critical:
    case spdlog::level::off:
    case spdlog::level::n_levels:
      return LogLevel::Critical;
  }
  return LogLevel::Critical;
}

void LogSink::sink_it_(const spdlog::details::log_msg& msg) {
  LogEntry entry;
  entry.time = QDateTime::fromMSecsSinceEpoch(
      std::chrono::duration_cast<std::chrono::milliseconds>(msg.time.time_since_epoch()).count());
  entry.level = toLogLevel(msg.level);
  entry.logger = QString::fromUtf8(msg.logger_name.data(), qsizetype(msg.logger_name.size()));
  entry.message = QString::fromUtf8(msg.payload.data(), qsizetype(msg.payload.size()));
  emit emitter_->entryLogged(entry);
}

}  // namespace ec::widgets
