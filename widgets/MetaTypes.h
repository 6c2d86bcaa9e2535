// Core value types that travel through queued signals between the loader
// thread and the views. Declared once here; call registerCoreMetaTypes() before
// the first queued connection that carries them.
#pragma once

#include <memory>

#include <QMetaType>

#include "core/ir/graph.h"
#include "core/passes/pass_manager.h"
#include "core/report/model_summary.h"

Q_DECLARE_METATYPE(ec::ir::FrozenGraph)
Q_DECLARE_METATYPE(ec::report::ModelSummary)
Q_DECLARE_METATYPE(std::shared_ptr<const ec::passes::PipelineReport>)

namespace ec::widgets {

/// Registers the core types above with Qt's meta-type system (idempotent).
inline void registerCoreMetaTypes() {
  qRegisterMetaType<ec::ir::FrozenGraph>("ec::ir::FrozenGraph");
  qRegisterMetaType<ec::report::ModelSummary>("ec::report::ModelSummary");
  qRegisterMetaType<std::shared_ptr<const ec::passes::PipelineReport>>(
      "std::shared_ptr<const ec::passes::PipelineReport>");
}

}  // namespace ec::widgets
