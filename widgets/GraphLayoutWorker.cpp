#include "widgets/GraphLayoutWorker.h"

#include <algorithm>
#include <cmath>

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QHash>
#include <QStringList>

#include "widgets/OpFormat.h"

namespace ec::widgets {
namespace {
using ec::layout::Scene;

const QColor kIoFill(0x3c, 0x4a, 0x5e);

QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

// --- SceneGrid ----------------------------------------------------------------

void SceneGrid::build(const Scene& s, double m) {
  margin = m;
  const double w = s.width + 2 * margin, h = s.height + 2 * margin;
  cell = std::max(256.0, std::sqrt(w * h / 200000.0));  // at most ~200k cells
  cols = std::max(1, int(std::ceil(w / cell)));
  rows = std::max(1, int(std::ceil(h / cell)));
  nodes.assign(std::size_t(cols) * std::size_t(rows), {});
  edges.assign(nodes.size(), {});
  nodeStamp.assign(s.nodes.size(), 0);
  edgeStamp.assign(s.edges.size(), 0);
  stamp = 0;
  for (std::size_t i = 0; i < s.nodes.size(); ++i) {
    const auto& b = s.nodes[i].box;
    insert(nodes, b.x, b.y, b.right(), b.bottom(), int(i));
  }
  for (std::size_t e = 0; e < s.edges.size(); ++e) {
    const auto& pts = s.edges[e].points;
    for (std::size_t k = 1; k < pts.size(); ++k) {
      insert(edges, std::min(pts[k - 1].x, pts[k].x), std::min(pts[k - 1].y, pts[k].y),
             std::max(pts[k - 1].x, pts[k].x), std::max(pts[k - 1].y, pts[k].y), int(e));
    }
  }
}

void SceneGrid::range(double x0, double y0, double x1, double y1, int& c0, int& r0, int& c1,
                      int& r1) const {
  c0 = std::clamp(int((x0 + margin) / cell), 0, cols - 1);
  c1 = std::clamp(int((x1 + margin) / cell), 0, cols - 1);
  r0 = std::clamp(int((y0 + margin) / cell), 0, rows - 1);
  r1 = std::clamp(int((y1 + margin) / cell), 0, rows - 1);
}

void SceneGrid::insert(std::vector<std::vector<int>>& cells, double x0, double y0, double x1,
                       double y1, int id) {
  int c0, r0, c1, r1;
  range(x0, y0, x1, y1, c0, r0, c1, r1);
  for (int r = r0; r <= r1; ++r) {
    for (int c = c0; c <= c1; ++c) {
      auto& v = cells[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
      if (v.empty() || v.back() != id) v.push_back(id);
    }
  }
}

void SceneGrid::query(const QRectF& rect, std::vector<int>* outNodes,
                      std::vector<int>* outEdges) const {
  if (++stamp == 0) {
    std::fill(nodeStamp.begin(), nodeStamp.end(), 0u);
    std::fill(edgeStamp.begin(), edgeStamp.end(), 0u);
    stamp = 1;
  }
  int c0, r0, c1, r1;
  range(rect.left(), rect.top(), rect.right(), rect.bottom(), c0, r0, c1, r1);
  for (int r = r0; r <= r1; ++r) {
    for (int c = c0; c <= c1; ++c) {
      const std::size_t i = std::size_t(r) * std::size_t(cols) + std::size_t(c);
      if (outNodes) {
        for (int n : nodes[i]) {
          if (nodeStamp[std::size_t(n)] != stamp) {
            nodeStamp[std::size_t(n)] = stamp;
            outNodes->push_back(n);
          }
        }
      }
      if (outEdges) {
        for (int e : edges[i]) {
          if (edgeStamp[std::size_t(e)] != stamp) {
            edgeStamp[std::size_t(e)] = stamp;
            outEdges->push_back(e);
          }
        }
      }
    }
  }
  if (outNodes) std::sort(outNodes->begin(), outNodes->end());
}

// --- GraphLayoutWorker -----------------------------------------------------------

GraphLayoutWorker::GraphLayoutWorker(std::shared_ptr<std::atomic<quint64>> latest,
                                     QObject* parent)
    : QObject(parent), latest_(std::move(latest)) {}

GraphLayoutWorker::~GraphLayoutWorker() = default;

void GraphLayoutWorker::prepare(const GraphLayoutRequest& request, double* measureMs) {
  QElapsedTimer timer;
  timer.start();
  graph_ = request.graph;
  font_ = request.font;
  layout_.reset();
  texts_.reset();
  tree_.reset();
  const ec::ir::Graph& graph = *graph_;
  const std::size_t opCount = graph.ops.size();

  // Texts and box sizes with the real fonts (QFontMetrics works on any thread).
  auto texts = std::make_shared<GraphTexts>();
  texts->titleFont = font_;
  texts->titleFont.setBold(true);
  texts->bodyFont = font_;
  texts->bodyFont.setPointSizeF(font_.pointSizeF() * 0.85);
  texts->groupFont = texts->titleFont;
  const QFontMetricsF titleFm(texts->titleFont), bodyFm(texts->bodyFont);
  texts->titleHeight = titleFm.height();
  texts->bodyHeight = bodyFm.height();

  ec::layout::CompoundInput input = ec::layout::make_compound_input(graph, &texts->ranges);
  const std::size_t n = input.items.size();
  texts->title.resize(n);
  texts->detail.resize(n);
  texts->shape.resize(n);
  texts->fill.resize(n);
  const double maxText = 264;
  // Op types, attributes and shapes repeat a lot: measure (and elide) each distinct text once.
  struct Fitted {
    QString text;
    double width;
  };
  QHash<QString, Fitted> titleWidths, bodyWidths;
  auto fit = [maxText](const QFontMetricsF& fm, QHash<QString, Fitted>& cache, QString& text,
                       Qt::TextElideMode mode) {
    auto it = cache.constFind(text);
    if (it == cache.constEnd()) {
      double width = fm.horizontalAdvance(text);
      QString shown = text;
      if (width > maxText) {
        shown = fm.elidedText(text, mode, maxText);
        width = fm.horizontalAdvance(shown);
      }
      it = cache.insert(text, {shown, width});
    }
    text = it->text;
    return it->width;
  };
  for (std::size_t i = 0; i < n; ++i) {
    QString title, detail, shape;
    QColor fill = kIoFill;
    if (i < opCount) {
      const auto& op = graph.ops[i];
      title = qs(op.op_type);
      detail = keyAttributesText(op);
      QStringList shapes;
      for (const auto& out : op.outputs) {
        if (!out.empty()) shapes << tensorTypeText(graph.find_tensor(out));
      }
      shape = shapes.join(QStringLiteral(", "));
      fill = categoryColor(categoryOf(op));
    } else {
      const bool isInput = i < texts->ranges.first_output();
      const std::string& name = isInput ? graph.inputs[i - texts->ranges.first_input()]
                                        : graph.outputs[i - texts->ranges.first_output()];
      title = qs(name);
      shape = tensorTypeText(graph.find_tensor(name));
    }
    double w = fit(titleFm, titleWidths, title, Qt::ElideMiddle);
    if (!detail.isEmpty()) w = std::max(w, fit(bodyFm, bodyWidths, detail, Qt::ElideRight));
    if (!shape.isEmpty()) w = std::max(w, fit(bodyFm, bodyWidths, shape, Qt::ElideRight));
    input.items[i].w = std::clamp(std::ceil(w) + 2 * kBoxPadX, 64.0, maxText + 2 * kBoxPadX);
    input.items[i].h =
        std::ceil(2 * kBoxPadY + texts->titleHeight + (detail.isEmpty() ? 0 : texts->bodyHeight) +
                  (shape.isEmpty() ? 0 : texts->bodyHeight));
    texts->title[i] = std::move(title);
    texts->detail[i] = std::move(detail);
    texts->shape[i] = std::move(shape);
    texts->fill[i] = fill;
  }
  *measureMs = double(timer.nsecsElapsed()) / 1e6;

  ec::layout::CompoundOptions options;
  options.char_width = titleFm.averageCharWidth() * 1.1;
  options.collapsed_height = std::ceil(2 * kBoxPadY + texts->titleHeight + texts->bodyHeight);
  layout_ = std::make_unique<ec::layout::CompoundLayout>(std::move(input), options);
  tree_ = std::make_shared<const ec::layout::ScopeTree>(layout_->tree());
  texts_ = std::move(texts);
}

void GraphLayoutWorker::run(GraphLayoutRequest request) {
  // A newer request is queued behind this one: it will redo the work anyway.
  if (request.generation < latest_->load(std::memory_order_acquire)) return;
  if (!request.graph) return;
  QElapsedTimer timer;
  timer.start();
  double measureMs = 0;
  if (request.graph != graph_ || request.font != font_ || !layout_) {
    prepare(request, &measureMs);
  }
  if (request.expanded.empty()) {
    layout_->expand_to_budget(request.firstViewBlocks);
  } else if (request.expanded.size() == layout_->group_count()) {
    for (std::size_t g = 1; g < request.expanded.size(); ++g) {
      layout_->set_expanded(int(g), request.expanded[g] != 0);
    }
  }
  auto snapshot = std::make_shared<GraphLayoutSnapshot>();
  snapshot->generation = request.generation;
  snapshot->graph = graph_;
  snapshot->texts = texts_;
  snapshot->tree = tree_;
  snapshot->expanded.resize(layout_->group_count());
  for (std::size_t g = 0; g < layout_->group_count(); ++g) {
    snapshot->expanded[g] = layout_->expanded(int(g)) ? 1 : 0;
  }
  snapshot->scene = layout_->layout();
  snapshot->groupsLaidOut = layout_->last_relayout_count();
  snapshot->grid.build(snapshot->scene, kMargin);
  snapshot->measureMs = measureMs;
  snapshot->workerMs = double(timer.nsecsElapsed()) / 1e6;
  emit finished(std::move(snapshot));
}

}  // namespace ec::widgets
