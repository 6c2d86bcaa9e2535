#include "app/workbench/ModelLoader.h"

#include <chrono>
#include <exception>

#include <spdlog/spdlog.h>

#include "core/errors.h"
#include "core/frontends/frontend.h"

namespace ec::workbench {

ModelLoader::ModelLoader(QObject* parent) : QObject(parent) {
  ec::widgets::registerCoreMetaTypes();
}

void ModelLoader::load(quint64 requestId, const QString& path) {
  const std::string file = path.toStdString();
  const auto start = std::chrono::steady_clock::now();
  spdlog::info("opening {}", file);
  QString error;
  try {
    std::string format;
    ec::ir::FrozenGraph graph = ec::ir::freeze(ec::frontends::open_model(file, {}, &format));
    ec::report::ModelSummary summary = ec::report::summarize(*graph, file, format);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    spdlog::info("opened {}: {} ops in {} ms", file, graph->ops.size(), ms);
    emit modelLoaded(requestId, path, std::move(graph), summary);
    return;
  } catch (const ec::EdgeCompilerError& e) {
    // what() is the core's actionable one-liner; detail() is for the log only.
    error = QString::fromStdString(e.what());
    if (!e.detail().empty()) spdlog::debug("{}", e.detail());
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("%1: unknown error while opening the model").arg(path);
  }
  spdlog::error("{}", error.toStdString());
  emit loadFailed(requestId, path, error);
}

}  // namespace ec::workbench
