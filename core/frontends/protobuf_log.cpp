#include "core/frontends/protobuf_log.h"

#include <mutex>
#include <string>

#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

namespace ec::frontends {
namespace {

void to_debug_log(google::protobuf::LogLevel level, const char* filename, int line, const std::string& message) {
  // FATAL still aborts inside libprotobuf after the handler: say it where it is seen.
  if (level == google::protobuf::LOGLEVEL_FATAL) {
    spdlog::error("libprotobuf ({}:{}): {}", filename, line, message);
    return;
  }
  spdlog::debug("libprotobuf ({}:{}): {}", filename, line, message);
}

}  // namespace

void route_protobuf_log_to_debug() {
  static std::once_flag once;
  std::call_once(once, [] { google::protobuf::SetLogHandler(&to_debug_log); });
}

}  // namespace ec::frontends
