#include "widgets/GraphView.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QElapsedTimer>
#include <QFontMetricsF>
#include <QGestureEvent>
#include <QKeyEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QNativeGestureEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPinchGesture>
#include <QScrollBar>
#include <QWheelEvent>

#include "widgets/OpFormat.h"
#include "widgets/layout/compound_layout.h"
#include "widgets/layout/ir_input.h"

namespace ec::widgets {
namespace {

using ec::layout::Scene;

constexpr double kMargin = 40;  // scene units around the graph
constexpr double kMaxZoom = 4.0;
constexpr double kTextZoom = 0.33;    // below: boxes without text
constexpr double kDetailZoom = 0.8;   // from here: attributes and shapes
constexpr int kMinimapSize = 180;     // device pixels, longest side
constexpr int kFirstViewBlocks = 40;  // groups expanded on open, up to this many boxes
constexpr double kBoxPadX = 8, kBoxPadY = 5;

QString qs(const std::string& s) { return QString::fromStdString(s); }

const QColor kBackground(0xfb, 0xfb, 0xfc);
const QColor kEdge(0x7a, 0x82, 0x8c);
const QColor kFrameFill(0xf1, 0xf3, 0xf6);
const QColor kFrameBorder(0xb4, 0xbc, 0xc8);
const QColor kGroupFill(0xd5, 0xde, 0xea);
const QColor kGroupBorder(0x6e, 0x80, 0x98);
const QColor kIoFill(0x3c, 0x4a, 0x5e);
const QColor kSelection(0xff, 0x8c, 0x00);
const QColor kNoValue(0xe4, 0xe4, 0xe4);

}  // namespace

struct GraphView::Texts {
  QFont titleFont, bodyFont, groupFont;
  double titleHeight = 14, bodyHeight = 12;
  std::vector<QString> title, detail, shape;  // per layout item
  std::vector<QColor> fill;                   // per layout item
  ec::layout::IrItems ranges;
};

struct GraphView::Grid {
  double cell = 256;
  int cols = 1, rows = 1;
  std::vector<std::vector<int>> nodes, edges;
  mutable std::vector<unsigned> nodeStamp, edgeStamp;
  mutable unsigned stamp = 0;

  void build(const Scene& s) {
    const double w = s.width + 2 * kMargin, h = s.height + 2 * kMargin;
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
  void range(double x0, double y0, double x1, double y1, int& c0, int& r0, int& c1, int& r1) const {
    c0 = std::clamp(int((x0 + kMargin) / cell), 0, cols - 1);
    c1 = std::clamp(int((x1 + kMargin) / cell), 0, cols - 1);
    r0 = std::clamp(int((y0 + kMargin) / cell), 0, rows - 1);
    r1 = std::clamp(int((y1 + kMargin) / cell), 0, rows - 1);
  }
  void insert(std::vector<std::vector<int>>& cells, double x0, double y0, double x1, double y1,
              int id) {
    int c0, r0, c1, r1;
    range(x0, y0, x1, y1, c0, r0, c1, r1);
    for (int r = r0; r <= r1; ++r) {
      for (int c = c0; c <= c1; ++c) {
        auto& v = cells[std::size_t(r) * std::size_t(cols) + std::size_t(c)];
        if (v.empty() || v.back() != id) v.push_back(id);
      }
    }
  }
  /// Node and edge indices whose cells meet `rect`, each once, sorted (paint order).
  void query(const QRectF& rect, std::vector<int>* outNodes, std::vector<int>* outEdges) const {
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
};

GraphView::GraphView(QWidget* parent)
    : QAbstractScrollArea(parent), grid_(std::make_unique<Grid>()) {
  setObjectName(QStringLiteral("graphView"));
  setFocusPolicy(Qt::StrongFocus);
  setFrameShape(QFrame::NoFrame);
  viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
  viewport()->grabGesture(Qt::PinchGesture);
  viewport()->setMouseTracking(false);
  horizontalScrollBar()->setSingleStep(40);
  verticalScrollBar()->setSingleStep(40);
  setToolTip(
      tr("Drag to pan, wheel or +/− to zoom, 0 to fit. Click a block to expand it, "
         "its header to collapse it."));
}

GraphView::~GraphView() = default;

void GraphView::setGraph(ec::ir::FrozenGraph graph) {
  graph_ = std::move(graph);
  selectedOp_ = -1;
  values_.clear();
  groupValues_.clear();
  highlights_.clear();
  groupHighlights_.clear();
  highlightLegend_.clear();
  scene_ = nullptr;
  layout_.reset();
  texts_.reset();
  opCount_ = graph_ ? graph_->ops.size() : 0;
  if (!graph_) {
    grid_->build(Scene{});
    minimap_ = QImage();
    updateScrollBars();
    viewport()->update();
    emit layoutChanged();
    return;
  }

  // Texts and box sizes with the real fonts.
  auto texts = std::make_unique<Texts>();
  texts->titleFont = font();
  texts->titleFont.setBold(true);
  texts->bodyFont = font();
  texts->bodyFont.setPointSizeF(font().pointSizeF() * 0.85);
  texts->groupFont = texts->titleFont;
  const QFontMetricsF titleFm(texts->titleFont), bodyFm(texts->bodyFont);
  texts->titleHeight = titleFm.height();
  texts->bodyHeight = bodyFm.height();

  ec::layout::CompoundInput input = ec::layout::make_compound_input(*graph_, &texts->ranges);
  const std::size_t n = input.items.size();
  texts->title.resize(n);
  texts->detail.resize(n);
  texts->shape.resize(n);
  texts->fill.resize(n);
  const double maxText = 264;
  for (std::size_t i = 0; i < n; ++i) {
    QString title, detail, shape;
    QColor fill = kIoFill;
    if (i < opCount_) {
      const auto& op = graph_->ops[i];
      title = qs(op.op_type);
      detail = keyAttributesText(op);
      QStringList shapes;
      for (const auto& out : op.outputs) {
        if (!out.empty()) shapes << tensorTypeText(graph_->find_tensor(out));
      }
      shape = shapes.join(QStringLiteral(", "));
      fill = categoryColor(categoryOf(op));
    } else {
      const bool isInput = i < texts->ranges.first_output();
      const std::string& name = isInput ? graph_->inputs[i - texts->ranges.first_input()]
                                        : graph_->outputs[i - texts->ranges.first_output()];
      title = qs(name);
      shape = tensorTypeText(graph_->find_tensor(name));
    }
    double w = titleFm.horizontalAdvance(title);
    if (!detail.isEmpty()) {
      detail = bodyFm.elidedText(detail, Qt::ElideRight, maxText);
      w = std::max(w, bodyFm.horizontalAdvance(detail));
    }
    if (!shape.isEmpty()) {
      shape = bodyFm.elidedText(shape, Qt::ElideRight, maxText);
      w = std::max(w, bodyFm.horizontalAdvance(shape));
    }
    title = titleFm.elidedText(title, Qt::ElideMiddle, maxText);
    input.items[i].w = std::clamp(std::ceil(w) + 2 * kBoxPadX, 64.0, maxText + 2 * kBoxPadX);
    input.items[i].h =
        std::ceil(2 * kBoxPadY + texts->titleHeight + (detail.isEmpty() ? 0 : texts->bodyHeight) +
                  (shape.isEmpty() ? 0 : texts->bodyHeight));
    texts->title[i] = std::move(title);
    texts->detail[i] = std::move(detail);
    texts->shape[i] = std::move(shape);
    texts->fill[i] = fill;
  }
  texts_ = std::move(texts);

  ec::layout::CompoundOptions options;
  options.char_width = titleFm.averageCharWidth() * 1.1;
  options.collapsed_height = std::ceil(2 * kBoxPadY + texts_->titleHeight + texts_->bodyHeight);
  layout_ = std::make_unique<ec::layout::CompoundLayout>(std::move(input), options);
  layout_->expand_to_budget(kFirstViewBlocks);
  relayout();

  // First view: the top of the graph, readable, centred horizontally.
  const QSizeF vs = viewport()->size();
  const double fit = std::min(vs.width() / (scene_->width + 2 * kMargin),
                              vs.height() / (scene_->height + 2 * kMargin));
  scale_ = std::clamp(fit, 0.85, 1.0);
  updateScrollBars();
  horizontalScrollBar()->setValue((horizontalScrollBar()->maximum()) / 2);
  verticalScrollBar()->setValue(0);
  viewport()->update();
}

void GraphView::relayout(int anchorGroup) {
  if (!layout_) return;
  // Keep a clicked group where it was on screen.
  QPointF anchorView, anchorScene;
  const bool anchored =
      anchorGroup > 0 && scene_ && scene_->node_of_group[std::size_t(anchorGroup)] >= 0;
  if (anchored) {
    const auto& b = scene_->nodes[std::size_t(scene_->node_of_group[std::size_t(anchorGroup)])].box;
    anchorView = mapFromScene(QPointF(b.cx(), b.y));
  }
  QElapsedTimer timer;
  timer.start();
  scene_ = &layout_->layout();
  rebuildIndex();
  lastLayoutMs_ = double(timer.nsecsElapsed()) / 1e6;
  updateScrollBars();
  if (anchored && scene_->node_of_group[std::size_t(anchorGroup)] >= 0) {
    const auto& b = scene_->nodes[std::size_t(scene_->node_of_group[std::size_t(anchorGroup)])].box;
    anchorScene = QPointF(b.cx(), b.y);
    const QPointF now = mapFromScene(anchorScene);
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(now.x() - anchorView.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(now.y() - anchorView.y()));
  }
  if (!values_.empty()) setOpValues(std::move(values_), valueLabel_);
  viewport()->update();
  emit layoutChanged();
}

void GraphView::rebuildIndex() {
  grid_->build(*scene_);
  rebuildMinimap();
}

int GraphView::opItemCount() const {
  if (!scene_) return 0;
  int count = 0;
  for (std::size_t i = 0; i < opCount_; ++i) count += scene_->node_of_item[i] >= 0 ? 1 : 0;
  return count;
}

int GraphView::blockCount() const {
  if (!scene_) return 0;
  return int(std::count_if(scene_->nodes.begin(), scene_->nodes.end(),
                           [](const auto& n) { return n.kind != Scene::Kind::GroupFrame; }));
}

int GraphView::groupCount() const { return layout_ ? int(layout_->group_count()) : 0; }

QString GraphView::groupLabel(int group) const {
  if (!layout_ || group < 0 || std::size_t(group) >= layout_->group_count()) return {};
  return qs(layout_->tree().groups[std::size_t(group)].label);
}

bool GraphView::isGroupExpanded(int group) const {
  return layout_ && group >= 0 && std::size_t(group) < layout_->group_count() &&
         layout_->expanded(group);
}

void GraphView::setGroupExpanded(int group, bool expanded) {
  if (!layout_ || group <= 0 || std::size_t(group) >= layout_->group_count()) return;
  if (layout_->expanded(group) == expanded) return;
  layout_->set_expanded(group, expanded);
  relayout(group);
}

void GraphView::expandAll() {
  if (!layout_) return;
  layout_->expand_all();
  relayout();
}

void GraphView::collapseAll() {
  if (!layout_) return;
  layout_->collapse_all();
  relayout();
}

QRectF GraphView::opRect(int op) const {
  if (!scene_ || op < 0 || std::size_t(op) >= opCount_) return {};
  const int node = scene_->node_of_item[std::size_t(op)];
  if (node < 0) return {};
  const auto& b = scene_->nodes[std::size_t(node)].box;
  return QRectF(b.x, b.y, b.w, b.h);
}

void GraphView::selectOp(int op) {
  if (!layout_ || op < -1 || op >= int(opCount_)) return;
  if (op >= 0 && layout_->reveal(op)) relayout();
  const bool changed = op != selectedOp_;
  selectedOp_ = op;
  if (op >= 0) {
    const QRectF r = opRect(op);
    if (scale_ < 0.6) setZoom(0.8);
    const QRectF visible(mapToScene(QPointF(0, 0)),
                         mapToScene(QPointF(viewport()->rect().bottomRight())));
    if (!visible.contains(r)) centerOn(r.center());
  }
  viewport()->update();
  if (changed) emit opSelected(op);
}

// --- geometry ---------------------------------------------------------------

void GraphView::updateScrollBars() {
  const double w = scene_ ? (scene_->width + 2 * kMargin) * scale_ : 0;
  const double h = scene_ ? (scene_->height + 2 * kMargin) * scale_ : 0;
  const QSize vs = viewport()->size();
  horizontalScrollBar()->setRange(0, std::max(0, int(std::ceil(w - vs.width()))));
  verticalScrollBar()->setRange(0, std::max(0, int(std::ceil(h - vs.height()))));
  horizontalScrollBar()->setPageStep(vs.width());
  verticalScrollBar()->setPageStep(vs.height());
}

QPointF GraphView::mapFromScene(QPointF p) const {
  const double w = scene_ ? (scene_->width + 2 * kMargin) * scale_ : 0;
  const double h = scene_ ? (scene_->height + 2 * kMargin) * scale_ : 0;
  const QSize vs = viewport()->size();
  const double ox = w < vs.width() ? (vs.width() - w) / 2 : -horizontalScrollBar()->value();
  const double oy = h < vs.height() ? (vs.height() - h) / 2 : -verticalScrollBar()->value();
  return {ox + (p.x() + kMargin) * scale_, oy + (p.y() + kMargin) * scale_};
}

QPointF GraphView::mapToScene(QPointF v) const {
  const QPointF origin = mapFromScene(QPointF(0, 0));
  return {(v.x() - origin.x()) / scale_, (v.y() - origin.y()) / scale_};
}

QPointF GraphView::viewCenter() const {
  return mapToScene(QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void GraphView::centerOn(QPointF p) {
  horizontalScrollBar()->setValue(int((p.x() + kMargin) * scale_ - viewport()->width() / 2.0));
  verticalScrollBar()->setValue(int((p.y() + kMargin) * scale_ - viewport()->height() / 2.0));
  viewport()->update();
}

void GraphView::setZoom(double zoom, QPointF anchor) {
  if (!scene_) return;
  const QSizeF vs = viewport()->size();
  const double fit = std::min(vs.width() / (scene_->width + 2 * kMargin),
                              vs.height() / (scene_->height + 2 * kMargin));
  zoom = std::clamp(zoom, std::min(0.1, fit * 0.8), kMaxZoom);
  if (anchor.isNull()) anchor = QPointF(vs.width() / 2, vs.height() / 2);
  const QPointF sceneAnchor = mapToScene(anchor);
  scale_ = zoom;
  updateScrollBars();
  horizontalScrollBar()->setValue(int((sceneAnchor.x() + kMargin) * scale_ - anchor.x()));
  verticalScrollBar()->setValue(int((sceneAnchor.y() + kMargin) * scale_ - anchor.y()));
  viewport()->update();
}

void GraphView::zoomIn() { setZoom(scale_ * 1.25); }
void GraphView::zoomOut() { setZoom(scale_ / 1.25); }

void GraphView::fitToWindow() {
  if (!scene_) return;
  const QSizeF vs = viewport()->size();
  const double fit = std::min(vs.width() / (scene_->width + 2 * kMargin),
                              vs.height() / (scene_->height + 2 * kMargin));
  setZoom(std::min(fit, 1.0));
  centerOn(QPointF(scene_->width / 2, scene_->height / 2));
}

QRectF GraphView::minimapRect() const {
  if (minimap_.isNull()) return {};
  const QSizeF s = minimap_.deviceIndependentSize();
  return QRectF(viewport()->width() - s.width() - 12, viewport()->height() - s.height() - 12,
                s.width(), s.height());
}

int GraphView::nodeAt(QPointF viewPoint) const {
  if (!scene_) return -1;
  const QPointF p = mapToScene(viewPoint);
  std::vector<int> nodes;
  grid_->query(QRectF(p, QSizeF(0.1, 0.1)), &nodes, nullptr);
  const double header = ec::layout::CompoundOptions{}.group_header;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {  // innermost first
    const auto& n = scene_->nodes[std::size_t(*it)];
    QRectF r(n.box.x, n.box.y, n.box.w, n.box.h);
    if (n.kind == Scene::Kind::GroupFrame) r.setHeight(header);
    if (r.contains(p)) return *it;
  }
  return -1;
}

// --- painting ---------------------------------------------------------------

QColor GraphView::valueColor(double v) const {
  // Viridis, five stops: dark blue (low) to yellow (high).
  static const QColor kStops[] = {QColor(0x44, 0x01, 0x54), QColor(0x3b, 0x52, 0x8b),
                                  QColor(0x21, 0x91, 0x8c), QColor(0x5e, 0xc9, 0x62),
                                  QColor(0xfd, 0xe7, 0x25)};
  if (!std::isfinite(v)) return kNoValue;
  double t = valueMax_ > valueMin_ ? (v - valueMin_) / (valueMax_ - valueMin_) : 0.5;
  t = std::clamp(t, 0.0, 1.0) * 4;
  const int i = std::min(3, int(t));
  const double f = t - i;
  const QColor& a = kStops[i];
  const QColor& b = kStops[i + 1];
  return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                          float(a.greenF() + (b.greenF() - a.greenF()) * f),
                          float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor GraphView::fillFor(int node) const {
  const auto& n = scene_->nodes[std::size_t(node)];
  if (n.kind == Scene::Kind::CollapsedGroup) {
    if (std::size_t(n.id) < groupHighlights_.size() &&
        groupHighlights_[std::size_t(n.id)].isValid())
      return groupHighlights_[std::size_t(n.id)];
    return groupValues_.empty() ? kGroupFill : valueColor(groupValues_[std::size_t(n.id)]);
  }
  if (!highlights_.empty() && std::size_t(n.id) < opCount_) {
    const QColor& c = highlights_[std::size_t(n.id)];
    return c.isValid() ? c : kNoValue;
  }
  if (!values_.empty() && std::size_t(n.id) < opCount_)
    return valueColor(values_[std::size_t(n.id)]);
  return texts_->fill[std::size_t(n.id)];
}

void GraphView::paintScene(QPainter& p, const QRectF& rect) {
  std::vector<int> nodes, edges;
  grid_->query(rect, &nodes, &edges);
  const bool text = scale_ >= kTextZoom;
  const bool detail = scale_ >= kDetailZoom;
  const bool smooth = scale_ >= 0.5;
  p.setRenderHint(QPainter::Antialiasing, smooth);

  auto paintEdges = [&] {
    QPen edgePen(kEdge, scale_ >= 1 ? 1.4 : 1.0);
    edgePen.setCosmetic(true);
    p.setPen(edgePen);
    p.setBrush(Qt::NoBrush);
    std::vector<QPointF> poly;
    const bool arrows = scale_ >= 0.3;
    QPainterPath arrowHeads;
    for (int e : edges) {
      const auto& pts = scene_->edges[std::size_t(e)].points;
      poly.clear();
      for (const auto& pt : pts) poly.emplace_back(pt.x, pt.y);
      p.drawPolyline(poly.data(), int(poly.size()));
      if (arrows && poly.size() >= 2 && !scene_->edges[std::size_t(e)].continues) {
        const QPointF tip = poly.back();
        const QPointF from = poly[poly.size() - 2];
        const double len = std::hypot(tip.x() - from.x(), tip.y() - from.y());
        if (len > 0) {
          const QPointF d((tip.x() - from.x()) / len, (tip.y() - from.y()) / len);
          const QPointF n(-d.y(), d.x());
          const QPointF base = tip - d * 7;
          arrowHeads.moveTo(tip);
          arrowHeads.lineTo(base + n * 3.5);
          arrowHeads.lineTo(base - n * 3.5);
          arrowHeads.closeSubpath();
        }
      }
    }
    if (arrows) p.fillPath(arrowHeads, kEdge);
  };
  auto paintFrameLabels = [&] {
    p.setFont(texts_->groupFont);
    const QFontMetricsF fm(texts_->groupFont);
    for (int ni : nodes) {
      const auto& n = scene_->nodes[std::size_t(ni)];
      if (n.kind != Scene::Kind::GroupFrame) continue;
      const QString label =
          QStringLiteral("− ") + qs(layout_->tree().groups[std::size_t(n.id)].label);
      const QRectF at(n.box.x + 6, n.box.y + 3,
                      std::min(fm.horizontalAdvance(label) + 4, n.box.w - 12), texts_->titleHeight);
      p.fillRect(at, kFrameFill);
      p.setPen(QColor(0x45, 0x50, 0x60));
      p.drawText(at.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                 label);
    }
  };
  QPen border(QColor(0x55, 0x5d, 0x68), 1);
  border.setCosmetic(true);
  QPen frameBorder(kFrameBorder, 1);
  frameBorder.setCosmetic(true);
  QPen groupBorder(kGroupBorder, 1.5);
  groupBorder.setCosmetic(true);
  const QString groupOps = tr("%1 ops");
  // Frames of expanded groups, then the edges, then boxes on top.
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 1) {
      paintEdges();
      if (text) paintFrameLabels();
    }
    for (int ni : nodes) {
      const auto& n = scene_->nodes[std::size_t(ni)];
      if ((n.kind == Scene::Kind::GroupFrame) != (pass == 0)) continue;
      const QRectF r(n.box.x, n.box.y, n.box.w, n.box.h);
      switch (n.kind) {
        case Scene::Kind::GroupFrame: {
          p.setPen(frameBorder);
          p.setBrush(kFrameFill);
          if (smooth) {
            p.drawRoundedRect(r, 6, 6);
          } else {
            p.drawRect(r);
          }
          break;  // its label comes after the edges, which may cross the header
        }
        case Scene::Kind::CollapsedGroup: {
          p.setPen(groupBorder);
          p.setBrush(fillFor(ni));
          if (smooth) {
            p.drawRoundedRect(r, 6, 6);
            // A second edge behind: a stack of ops.
            p.setBrush(Qt::NoBrush);
            p.drawLine(QPointF(r.left() + 6, r.bottom() + 3),
                       QPointF(r.right() - 6, r.bottom() + 3));
          } else {
            p.drawRect(r);
          }
          if (text) {
            const auto& g = layout_->tree().groups[std::size_t(n.id)];
            p.setPen(!groupValues_.empty() &&
                             valueColor(groupValues_[std::size_t(n.id)]).lightnessF() < 0.45
                         ? Qt::white
                         : Qt::black);
            p.setFont(texts_->titleFont);
            const QRectF inner = r.adjusted(kBoxPadX, kBoxPadY, -kBoxPadX, -kBoxPadY);
            p.drawText(QRectF(inner.left(), inner.top(), inner.width(), texts_->titleHeight),
                       Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine,
                       QStringLiteral("+ ") + qs(g.label));
            p.setFont(texts_->bodyFont);
            p.drawText(QRectF(inner.left(), inner.top() + texts_->titleHeight, inner.width(),
                              texts_->bodyHeight),
                       Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine,
                       groupOps.arg(g.item_count));
          }
          break;
        }
        case Scene::Kind::Item: {
          const std::size_t id = std::size_t(n.id);
          const bool isOp = id < opCount_;
          const QColor fill = fillFor(ni);
          p.setPen(border);
          p.setBrush(fill);
          if (!smooth) {
            p.drawRect(r);
          } else if (isOp) {
            p.drawRoundedRect(r, 4, 4);
          } else {
            p.drawRoundedRect(r, r.height() / 2, r.height() / 2);
          }
          if (!text) break;
          p.setPen(!isOp || fill.lightnessF() < 0.45 ? Qt::white : Qt::black);
          const QRectF inner = r.adjusted(kBoxPadX, kBoxPadY, -kBoxPadX, -kBoxPadY);
          double y = inner.top();
          p.setFont(texts_->titleFont);
          // Zoomed out, the title alone, centred in the box; zoomed in, every line.
          const double lineTop = detail ? y : r.center().y() - texts_->titleHeight / 2;
          p.drawText(QRectF(inner.left(), lineTop, inner.width(), texts_->titleHeight),
                     Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, texts_->title[id]);
          if (!detail) break;
          y += texts_->titleHeight;
          p.setFont(texts_->bodyFont);
          for (const QString* line : {&texts_->detail[id], &texts_->shape[id]}) {
            if (line->isEmpty()) continue;
            p.drawText(QRectF(inner.left(), y, inner.width(), texts_->bodyHeight),
                       Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, *line);
            y += texts_->bodyHeight;
          }
          break;
        }
      }
    }
  }

  // Selection: the op's box, or the collapsed group holding it.
  if (selectedOp_ >= 0) {
    const int holder = layout_->visible_holder(selectedOp_);
    const int node = holder < 0 ? scene_->node_of_item[std::size_t(selectedOp_)]
                                : scene_->node_of_group[std::size_t(holder)];
    if (node >= 0) {
      const auto& b = scene_->nodes[std::size_t(node)].box;
      QPen sel(kSelection, 3);
      sel.setCosmetic(true);
      p.setPen(sel);
      p.setBrush(Qt::NoBrush);
      p.drawRoundedRect(QRectF(b.x, b.y, b.w, b.h).adjusted(-3, -3, 3, 3), 5, 5);
    }
  }
}

void GraphView::paintOverlays(QPainter& p) {
  p.setRenderHint(QPainter::Antialiasing, true);
  // Minimap with the visible area.
  if (!minimap_.isNull()) {
    const QRectF mr = minimapRect();
    p.setPen(QColor(0x99, 0xa0, 0xaa));
    p.setBrush(Qt::white);
    p.drawRect(mr.adjusted(-1, -1, 1, 1));
    p.drawImage(mr.topLeft(), minimap_);
    const QPointF a = mapToScene(QPointF(0, 0));
    const QPointF b = mapToScene(QPointF(viewport()->width(), viewport()->height()));
    QRectF view(mr.left() + (a.x() + kMargin) * minimapScale_,
                mr.top() + (a.y() + kMargin) * minimapScale_, (b.x() - a.x()) * minimapScale_,
                (b.y() - a.y()) * minimapScale_);
    view = view.intersected(mr);
    p.setPen(QPen(kSelection, 1.5));
    p.setBrush(QColor(255, 140, 0, 40));
    p.drawRect(view.isEmpty() ? QRectF(view.topLeft(), QSizeF(2, 2)) : view);
  }
  // Legend of the value overlay.
  if (!values_.empty()) {
    const QFontMetricsF fm(font());
    const QRectF box(12, 12, 220, 20 + fm.height() * 2);
    p.setPen(QColor(0x99, 0xa0, 0xaa));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(box, 4, 4);
    p.setPen(Qt::black);
    p.drawText(QRectF(box.left() + 8, box.top() + 4, box.width() - 16, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, valueLabel_);
    const QRectF bar(box.left() + 8, box.top() + 6 + fm.height(), box.width() - 16, 10);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 4; ++i) {
      gradient.setColorAt(i / 4.0, valueColor(valueMin_ + (valueMax_ - valueMin_) * i / 4.0));
    }
    p.fillRect(bar, gradient);
    const QRectF labels(bar.left(), bar.bottom() + 2, bar.width(), fm.height());
    p.drawText(labels, Qt::AlignLeft | Qt::AlignVCenter, QString::number(valueMin_, 'g', 4));
    p.drawText(labels, Qt::AlignRight | Qt::AlignVCenter, QString::number(valueMax_, 'g', 4));
  }
  // Legend of the highlight (below the value legend when both are shown).
  if (!highlights_.empty() && !highlightLegend_.empty()) {
    const QFontMetricsF fm(font());
    double width = 0;
    for (const auto& entry : highlightLegend_)
      width = std::max(width, fm.horizontalAdvance(entry.first));
    const double top = values_.empty() ? 12 : 12 + 28 + fm.height() * 2;
    const QRectF box(12, top, width + 40, 8 + fm.height() * double(highlightLegend_.size()));
    p.setPen(QColor(0x99, 0xa0, 0xaa));
    p.setBrush(QColor(255, 255, 255, 235));
    p.drawRoundedRect(box, 4, 4);
    double y = box.top() + 4;
    for (const auto& [label, color] : highlightLegend_) {
      p.setPen(color.darker(130));
      p.setBrush(color);
      p.drawRect(QRectF(box.left() + 8, y + fm.height() / 2 - 6, 12, 12));
      p.setPen(Qt::black);
      p.drawText(QRectF(box.left() + 28, y, width + 8, fm.height()),
                 Qt::AlignLeft | Qt::AlignVCenter, label);
      y += fm.height();
    }
  }
}

void GraphView::rebuildMinimap() {
  minimap_ = QImage();
  if (!scene_ || scene_->nodes.empty()) return;
  const double w = scene_->width + 2 * kMargin, h = scene_->height + 2 * kMargin;
  minimapScale_ = std::min(kMinimapSize / w, kMinimapSize / h);
  const QSize size(std::max(8, int(w * minimapScale_)), std::max(8, int(h * minimapScale_)));
  const qreal dpr = devicePixelRatioF();
  minimap_ = QImage(size * dpr, QImage::Format_ARGB32_Premultiplied);
  minimap_.setDevicePixelRatio(dpr);
  minimap_.fill(QColor(255, 255, 255, 225));
  QPainter p(&minimap_);
  p.scale(minimapScale_, minimapScale_);
  p.translate(kMargin, kMargin);
  for (std::size_t i = 0; i < scene_->nodes.size(); ++i) {
    const auto& n = scene_->nodes[i];
    const QRectF r(n.box.x, n.box.y, std::max(n.box.w, 1 / minimapScale_),
                   std::max(n.box.h, 1 / minimapScale_));
    if (n.kind == Scene::Kind::GroupFrame) {
      p.fillRect(r, kFrameFill.darker(105));
    } else {
      p.fillRect(
          r, n.kind == Scene::Kind::CollapsedGroup ? kGroupBorder : fillFor(int(i)).darker(130));
    }
  }
}

void GraphView::paintEvent(QPaintEvent*) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(viewport());
  p.fillRect(viewport()->rect(), kBackground);
  if (!scene_) return;
  const QPointF origin = mapFromScene(QPointF(0, 0));
  p.save();
  p.translate(origin);
  p.scale(scale_, scale_);
  const QRectF visible(mapToScene(QPointF(0, 0)),
                       mapToScene(QPointF(viewport()->width(), viewport()->height())));
  paintScene(p, visible);
  p.restore();
  paintOverlays(p);
  lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
  emit framePainted();
}

void GraphView::renderViewport(QImage& image) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(&image);
  p.fillRect(image.rect(), kBackground);
  if (!scene_) return;
  const QPointF origin = mapFromScene(QPointF(0, 0));
  p.save();
  p.translate(origin);
  p.scale(scale_, scale_);
  const QRectF visible(mapToScene(QPointF(0, 0)),
                       mapToScene(QPointF(image.width(), image.height())));
  paintScene(p, visible);
  p.restore();
  paintOverlays(p);
  lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

// --- values -------------------------------------------------------------------

void GraphView::setOpValues(std::vector<double> values, const QString& label) {
  values.resize(opCount_, std::numeric_limits<double>::quiet_NaN());
  values_ = std::move(values);
  valueLabel_ = label;
  valueMin_ = std::numeric_limits<double>::max();
  valueMax_ = std::numeric_limits<double>::lowest();
  for (double v : values_) {
    if (!std::isfinite(v)) continue;
    valueMin_ = std::min(valueMin_, v);
    valueMax_ = std::max(valueMax_, v);
  }
  if (valueMin_ > valueMax_) valueMin_ = valueMax_ = 0;
  groupValues_.clear();
  if (layout_) {
    const auto& tree = layout_->tree();
    std::vector<double> sum(tree.groups.size(), 0.0);
    std::vector<int> count(tree.groups.size(), 0);
    for (std::size_t i = 0; i < opCount_; ++i) {
      if (!std::isfinite(values_[i])) continue;
      for (int g = tree.group_of[i]; g > 0; g = tree.groups[std::size_t(g)].parent) {
        sum[std::size_t(g)] += values_[i];
        ++count[std::size_t(g)];
      }
    }
    groupValues_.resize(tree.groups.size());
    for (std::size_t g = 0; g < tree.groups.size(); ++g) {
      groupValues_[g] = count[g] ? sum[g] / count[g] : std::numeric_limits<double>::quiet_NaN();
    }
  }
  if (scene_) rebuildMinimap();
  viewport()->update();
}

void GraphView::clearOpValues() {
  values_.clear();
  groupValues_.clear();
  valueLabel_.clear();
  if (scene_) rebuildMinimap();
  viewport()->update();
}

void GraphView::setOpHighlights(std::vector<QColor> colors,
                                std::vector<std::pair<QString, QColor>> legend) {
  highlights_ = std::move(colors);
  if (!highlights_.empty()) highlights_.resize(opCount_);
  highlightLegend_ = std::move(legend);
  groupHighlights_.clear();
  if (layout_ && !highlights_.empty()) {
    const auto& tree = layout_->tree();
    groupHighlights_.resize(tree.groups.size());
    for (std::size_t i = 0; i < opCount_; ++i) {
      if (!highlights_[i].isValid()) continue;
      for (int g = tree.group_of[i]; g > 0; g = tree.groups[std::size_t(g)].parent) {
        if (!groupHighlights_[std::size_t(g)].isValid())
          groupHighlights_[std::size_t(g)] = highlights_[i];
      }
    }
  }
  if (scene_) rebuildMinimap();
  viewport()->update();
}

// --- interaction ----------------------------------------------------------------

void GraphView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateScrollBars();
}

void GraphView::scrollContentsBy(int, int) { viewport()->update(); }

void GraphView::wheelEvent(QWheelEvent* event) {
  if (event->modifiers() & Qt::ShiftModifier) {  // Shift+wheel scrolls
    QAbstractScrollArea::wheelEvent(event);
    return;
  }
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0) return;
  setZoom(scale_ * std::pow(1.2, steps), event->position());
  event->accept();
}

void GraphView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return;
  const QPointF pos = event->position();
  if (minimapRect().contains(pos)) {
    minimapDrag_ = true;
    const QRectF mr = minimapRect();
    centerOn(QPointF((pos.x() - mr.left()) / minimapScale_ - kMargin,
                     (pos.y() - mr.top()) / minimapScale_ - kMargin));
    return;
  }
  dragging_ = true;
  dragStart_ = lastDrag_ = event->position().toPoint();
  pressedNode_ = nodeAt(pos);
}

void GraphView::mouseMoveEvent(QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (minimapDrag_) {
    const QRectF mr = minimapRect();
    centerOn(QPointF((pos.x() - mr.left()) / minimapScale_ - kMargin,
                     (pos.y() - mr.top()) / minimapScale_ - kMargin));
    return;
  }
  if (!dragging_) return;
  if ((pos - dragStart_).manhattanLength() > 4) viewport()->setCursor(Qt::ClosedHandCursor);
  const QPoint delta = pos - lastDrag_;
  lastDrag_ = pos;
  horizontalScrollBar()->setValue(horizontalScrollBar()->value() - delta.x());
  verticalScrollBar()->setValue(verticalScrollBar()->value() - delta.y());
}

void GraphView::mouseReleaseEvent(QMouseEvent* event) {
  if (minimapDrag_) {
    minimapDrag_ = false;
    return;
  }
  if (!dragging_ || event->button() != Qt::LeftButton) return;
  dragging_ = false;
  viewport()->unsetCursor();
  const bool click = (event->position().toPoint() - dragStart_).manhattanLength() <= 4;
  if (!click || !scene_) return;
  const int node = nodeAt(event->position());
  if (node < 0 || node != pressedNode_) {
    if (node < 0) selectOp(-1);
    return;
  }
  const auto& n = scene_->nodes[std::size_t(node)];
  switch (n.kind) {
    case Scene::Kind::CollapsedGroup:
      setGroupExpanded(n.id, true);
      break;
    case Scene::Kind::GroupFrame:
      setGroupExpanded(n.id, false);
      break;
    case Scene::Kind::Item:
      if (std::size_t(n.id) < opCount_) selectOp(n.id);
      break;
  }
}

void GraphView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomIn();
      return;
    case Qt::Key_Minus:
      zoomOut();
      return;
    case Qt::Key_0:
      fitToWindow();
      return;
    case Qt::Key_Escape:
      selectOp(-1);
      return;
    default:
      QAbstractScrollArea::keyPressEvent(event);
  }
}

bool GraphView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::Gesture) {
    auto* ge = static_cast<QGestureEvent*>(event);
    if (auto* pinch = static_cast<QPinchGesture*>(ge->gesture(Qt::PinchGesture))) {
      if (pinch->changeFlags() & QPinchGesture::ScaleFactorChanged) {
        setZoom(scale_ * pinch->scaleFactor(),
                viewport()->mapFromGlobal(pinch->centerPoint().toPoint()));
      }
      ge->accept(pinch);
      return true;
    }
  } else if (event->type() == QEvent::NativeGesture) {
    auto* ne = static_cast<QNativeGestureEvent*>(event);
    if (ne->gestureType() == Qt::ZoomNativeGesture) {
      setZoom(scale_ * (1 + ne->value()), ne->position());
      return true;
    }
  }
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace ec::widgets
