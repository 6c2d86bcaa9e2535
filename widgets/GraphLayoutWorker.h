// The graph view's layout, off the GUI thread. GraphView posts a request (the
// graph and which groups are expanded) to a GraphLayoutWorker living on its
// own QThread; the worker measures the texts with the view's fonts (once per
// graph), lays out what changed (ec::layout::CompoundLayout keeps its per-group
// cache between requests), indexes the scene for painting, and hands back an
// immutable GraphLayoutSnapshot through a queued signal. Requests carry a
// generation number; one that is already superseded when the worker reaches it
// is skipped, and the view drops results that are no longer the latest.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include <QColor>
#include <QFont>
#include <QMetaType>
#include <QObject>
#include <QRectF>
#include <QString>

#include "core/ir/graph.h"
#include "core/layout/compound_layout.h"
#include "core/layout/ir_input.h"

namespace ec::widgets {

/// Per-item strings and fills of one graph, measured once with the view's fonts.
struct GraphTexts {
  QFont titleFont, bodyFont, groupFont;
  double titleHeight = 14, bodyHeight = 12;
  std::vector<QString> title, detail, shape;  ///< per layout item
  std::vector<QColor> fill;                   ///< per layout item
  ec::layout::IrItems ranges;
};

/// Uniform grid over a scene: which nodes and edge segments meet each cell.
struct SceneGrid {
  double margin = 40;
  double cell = 256;
  int cols = 1, rows = 1;
  std::vector<std::vector<int>> nodes, edges;
  // Query scratch (GUI thread only, once the snapshot is handed over).
  mutable std::vector<unsigned> nodeStamp, edgeStamp;
  mutable unsigned stamp = 0;

  void build(const ec::layout::Scene& s, double margin);
  /// Node and edge indices whose cells meet `rect`, each once; nodes sorted (paint order).
  void query(const QRectF& rect, std::vector<int>* outNodes, std::vector<int>* outEdges) const;

 private:
  void range(double x0, double y0, double x1, double y1, int& c0, int& r0, int& c1, int& r1) const;
  void insert(std::vector<std::vector<int>>& cells, double x0, double y0, double x1, double y1,
              int id);
};

/// One finished layout: everything a frame needs, immutable once handed over.
struct GraphLayoutSnapshot {
  quint64 generation = 0;
  ec::ir::FrozenGraph graph;
  std::shared_ptr<const GraphTexts> texts;            ///< shared by every snapshot of a graph
  std::shared_ptr<const ec::layout::ScopeTree> tree;  ///< likewise
  std::vector<char> expanded;                         ///< per group, as laid out
  ec::layout::Scene scene;
  SceneGrid grid;
  double workerMs = 0;            ///< time the worker spent on this request
  double measureMs = 0;           ///< of which measuring texts (0 after the first)
  std::size_t groupsLaidOut = 0;  ///< group layouts recomputed (the rest came from the cache)
};

struct GraphLayoutRequest {
  quint64 generation = 0;
  ec::ir::FrozenGraph graph;
  QFont font;                 ///< the view's font; titles bold, details smaller
  std::vector<char> expanded;  ///< per group; empty = the opening view (biggest groups first)
  std::size_t firstViewBlocks = 40;
};

class GraphLayoutWorker : public QObject {
  Q_OBJECT

 public:
  /// `latest` is the generation of the newest request posted (written by the view).
  explicit GraphLayoutWorker(std::shared_ptr<std::atomic<quint64>> latest,
                             QObject* parent = nullptr);
  ~GraphLayoutWorker() override;

  /// Runs on the worker's thread (post it with a queued call).
  void run(GraphLayoutRequest request);

  /// Box padding and margins shared with the painter.
  static constexpr double kBoxPadX = 8, kBoxPadY = 5, kMargin = 40;

 signals:
  void finished(std::shared_ptr<const ec::widgets::GraphLayoutSnapshot> snapshot);

 private:
  void prepare(const GraphLayoutRequest& request, double* measureMs);

  std::shared_ptr<std::atomic<quint64>> latest_;
  ec::ir::FrozenGraph graph_;
  QFont font_;
  std::unique_ptr<ec::layout::CompoundLayout> layout_;
  std::shared_ptr<const GraphTexts> texts_;
  std::shared_ptr<const ec::layout::ScopeTree> tree_;
};

}  // namespace ec::widgets

Q_DECLARE_METATYPE(std::shared_ptr<const ec::widgets::GraphLayoutSnapshot>)
