// Finding ops by name, type or tensor name: what the graph view's search bar
// (Ctrl+F) steps through.
#pragma once

#include <vector>

#include <QString>

#include "core/ir/graph.h"

namespace ec::widgets {

/// Indices of the ops whose name, type, or an input or output tensor's name
/// contains `text` (case-insensitive), in graph order. Empty text finds nothing.
std::vector<int> findOps(const ec::ir::Graph& graph, const QString& text);

}  // namespace ec::widgets
