#include "app/workbench/ModelLoader.h"

#include <chrono>

#include <spdlog/spdlog.h>

#include "core/frontends/frontend.h"

namespace ec::workbench {

LoadedModel ModelLoader::load(const QString& path) {
  const std::string file = path.toStdString();
  const auto start = std::chrono::steady_clock::now();
  spdlog::info("opening {}", file);
  std::string format;
  LoadedModel m;
  m.path = path;
  m.graph = ec::ir::freeze(ec::frontends::open_model(file, {}, &format));
  m.summary = ec::report::summarize(*m.graph, file, format);
  const auto ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  spdlog::info("opened {}: {} ops in {} ms", file, m.graph->ops.size(), ms);
  return m;
}

}  // namespace ec::workbench
