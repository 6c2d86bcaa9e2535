#include "widgets/GraphView.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QElapsedTimer>
#include <QEventLoop>
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
#include <QThread>
#include <QToolTip>
#include <QTimer>
#include <QWheelEvent>

#include "widgets/GraphLayoutWorker.h"
#include "widgets/OpFormat.h"
#include "core/layout/compound_layout.h"

namespace ec::widgets {
namespace {

using ec::layout::Scene;

constexpr double kMargin = GraphLayoutWorker::kMargin;  // scene units around the graph
constexpr double kMaxZoom = 4.0;
constexpr double kTextZoom = 0.33;    // below: boxes without text
constexpr double kDetailZoom = 0.8;   // from here: attributes and shapes
constexpr int kMinimapSize = 180;     // device pixels, longest side
constexpr int kFirstViewBlocks = 40;  // groups expanded on open, up to this many boxes
constexpr double kBoxPadX = GraphLayoutWorker::kBoxPadX, kBoxPadY = GraphLayoutWorker::kBoxPadY;

QString qs(const std::string& s) { return QString::fromStdString(s); }

const QColor kGroupFill(0xd5, 0xde, 0xea);
const QColor kGroupBorder(0x6e, 0x80, 0x98);
const QColor kSelection(0xff, 0x8c, 0x00);
const QColor kNoValue(0xe4, 0xe4, 0xe4);

}  // namespace

/// The strip above the viewport that holds the overlays' legends: outside the
/// canvas, so a legend never hides a node however the graph is panned.
class GraphLegendStrip : public QWidget {
 public:
  explicit GraphLegendStrip(GraphView* view) : QWidget(view), view_(view) {
    setObjectName(QStringLiteral("graphLegend"));
  }

 protected:
  void paintEvent(QPaintEvent*) override {
    QPainter p(this);
    view_->paintLegends(p, rect());
  }

 private:
  GraphView* view_;
};

namespace {
/// One entry of a legend strip: a text, optionally after a colour swatch, or the
/// value scale (min, gradient, max).
struct LegendItem {
  QString text;
  QColor swatch;
  bool scale = false;
  bool title = false;
};
constexpr double kLegendSpacing = 16, kLegendPad = 6, kSwatch = 12, kScaleBar = 120;

double legendItemWidth(const LegendItem& item, const QFont& font, const QString& lo,
                       const QString& hi) {
  const QFontMetricsF fm(font);
  if (item.scale) return fm.horizontalAdvance(lo) + 6 + kScaleBar + 6 + fm.horizontalAdvance(hi);
  QFont bold = font;
  bold.setBold(item.title);  // a title is painted bold: measure it so
  return (item.swatch.isValid() ? kSwatch + 5 : 0) + QFontMetricsF(bold).horizontalAdvance(item.text) + 1;
}
}  // namespace

GraphView::GraphView(QWidget* parent)
    : QAbstractScrollArea(parent), latest_(std::make_shared<std::atomic<quint64>>(0)) {
  setObjectName(QStringLiteral("graphView"));
  setFocusPolicy(Qt::StrongFocus);
  setFrameShape(QFrame::NoFrame);
  viewport()->setAttribute(Qt::WA_OpaquePaintEvent);
  viewport()->setAttribute(Qt::WA_AcceptTouchEvents);
  viewport()->grabGesture(Qt::PinchGesture);
  viewport()->setMouseTracking(false);
  horizontalScrollBar()->setSingleStep(40);
  verticalScrollBar()->setSingleStep(40);
  updateColors();
  legendStrip_ = new GraphLegendStrip(this);
  legendStrip_->hide();
  retranslateUi();

  static const int registered =
      qRegisterMetaType<std::shared_ptr<const GraphLayoutSnapshot>>(
          "std::shared_ptr<const ec::widgets::GraphLayoutSnapshot>");
  Q_UNUSED(registered);
  layoutThread_ = new QThread(this);
  layoutThread_->setObjectName(QStringLiteral("GraphLayout"));
  worker_ = new GraphLayoutWorker(latest_);
  worker_->moveToThread(layoutThread_);
  connect(layoutThread_, &QThread::finished, worker_, &QObject::deleteLater);
  connect(worker_, &GraphLayoutWorker::finished, this, &GraphView::onLayoutFinished,
          Qt::QueuedConnection);
  layoutThread_->start();
}

GraphView::~GraphView() {
  // Queued requests are skipped; one already running finishes (layout is not interruptible).
  latest_->store(std::numeric_limits<quint64>::max(), std::memory_order_release);
  layoutThread_->quit();
  layoutThread_->wait();
}

bool GraphView::current() const { return graph_ && snap_ && snap_->graph == graph_; }

bool GraphView::isLayoutPending() const {
  return graph_ && (!snap_ || snap_->generation != generation_);
}

bool GraphView::waitForLayout(int timeoutMs) {
  if (!isLayoutPending()) return true;
  QEventLoop loop;
  QTimer timeout;
  timeout.setSingleShot(true);
  connect(&timeout, &QTimer::timeout, &loop, &QEventLoop::quit);
  const auto connection = connect(this, &GraphView::layoutChanged, &loop, [this, &loop] {
    if (!isLayoutPending()) loop.quit();
  });
  timeout.start(timeoutMs);
  loop.exec();
  disconnect(connection);
  return !isLayoutPending();
}

double GraphView::lastLayoutMs() const { return snap_ ? snap_->workerMs : 0; }

double GraphView::lastTextMeasureMs() const { return snap_ ? snap_->measureMs : 0; }

std::size_t GraphView::lastLayoutGroups() const { return snap_ ? snap_->groupsLaidOut : 0; }

void GraphView::setGraph(ec::ir::FrozenGraph graph) {
  graph_ = std::move(graph);
  selectedOp_ = -1;
  values_.clear();
  groupValues_.clear();
  highlights_.clear();
  opToolTips_.clear();
  groupHighlights_.clear();
  highlightLegend_.clear();
  noValueLabel_.clear();
  updateLegendStrip();
  expanded_.clear();
  opCount_ = graph_ ? graph_->ops.size() : 0;
  openingView_ = true;
  revealSelection_ = pendingFit_ = false;
  pendingZoom_.reset();
  pendingCentre_.reset();
  anchorGroup_ = -1;
  if (!graph_) {
    ++generation_;
    latest_->store(generation_, std::memory_order_release);
    snap_.reset();
    minimap_ = QImage();
    updateScrollBars();
    viewport()->update();
    emit layoutChanged();
    return;
  }
  // The previous graph stays on screen (without selection or overlays) until this one is laid out.
  requestLayout(true);
}

void GraphView::requestLayout(bool openingView) {
  GraphLayoutRequest request;
  request.generation = ++generation_;
  request.graph = graph_;
  request.font = font();
  if (!openingView) request.expanded = expanded_;
  request.firstViewBlocks = kFirstViewBlocks;
  latest_->store(generation_, std::memory_order_release);
  QMetaObject::invokeMethod(
      worker_, [worker = worker_, request = std::move(request)] { worker->run(request); },
      Qt::QueuedConnection);
  viewport()->update();  // the "Laying out…" badge
}

void GraphView::onLayoutFinished(std::shared_ptr<const GraphLayoutSnapshot> snapshot) {
  if (!snapshot || snapshot->generation != generation_ || snapshot->graph != graph_) {
    return;  // stale: the graph or the expansion changed since it was asked for
  }
  const bool sameGraph = current();
  // Keep a clicked group where it was on screen.
  QPointF anchorScene;
  const bool anchored = sameGraph && anchorGroup_ > 0 &&
                        snap_->scene.node_of_group[std::size_t(anchorGroup_)] >= 0;
  // The old snapshot is freed on the worker: a big scene's grid is ~10^5 small vectors.
  if (snap_) {
    QMetaObject::invokeMethod(worker_, [old = std::move(snap_)] {}, Qt::QueuedConnection);
  }
  snap_ = std::move(snapshot);
  expanded_ = snap_->expanded;
  if (!sameGraph) updateGroupOverlays();
  rebuildMinimap();
  updateScrollBars();
  const QSizeF vs = viewport()->size();
  if (openingView_) {
    openingView_ = false;
    if (pendingFit_ || pendingZoom_ || pendingCentre_) {
      if (pendingZoom_) setZoom(*pendingZoom_);
      if (pendingCentre_) centerOn(*pendingCentre_);
      if (pendingFit_) fitToWindow();
    } else {
      // Opening view: the whole graph fitted to the window (at most 100%); a big one at
      // the smallest readable zoom, its top, centred horizontally.
      const double fit = std::min(vs.width() / (snap_->scene.width + 2 * kMargin),
                                  vs.height() / (snap_->scene.height + 2 * kMargin));
      scale_ = std::clamp(fit, kMinFitZoom, 1.0);
      updateScrollBars();
      horizontalScrollBar()->setValue((horizontalScrollBar()->maximum()) / 2);
      verticalScrollBar()->setValue(0);
    }
  } else if (anchored && snap_->scene.node_of_group[std::size_t(anchorGroup_)] >= 0) {
    const auto& b =
        snap_->scene.nodes[std::size_t(snap_->scene.node_of_group[std::size_t(anchorGroup_)])].box;
    anchorScene = QPointF(b.cx(), b.y);
    const QPointF now = mapFromScene(anchorScene);
    horizontalScrollBar()->setValue(horizontalScrollBar()->value() + int(now.x() - anchorView_.x()));
    verticalScrollBar()->setValue(verticalScrollBar()->value() + int(now.y() - anchorView_.y()));
  } else if (pendingFit_) {
    fitToWindow();
  }
  pendingFit_ = false;
  pendingZoom_.reset();
  pendingCentre_.reset();
  anchorGroup_ = -1;
  if (revealSelection_ && selectedOp_ >= 0) {
    if (reveal(selectedOp_)) {
      requestLayout(false);  // still hidden: one more round, then scroll to it
    } else {
      revealSelection_ = false;
      ensureVisible(selectedOp_);
    }
  }
  viewport()->update();
  emit layoutChanged();
}

int GraphView::opItemCount() const {
  if (!current()) return 0;
  int count = 0;
  for (std::size_t i = 0; i < opCount_; ++i) count += snap_->scene.node_of_item[i] >= 0 ? 1 : 0;
  return count;
}

int GraphView::blockCount() const {
  if (!current()) return 0;
  return int(std::count_if(snap_->scene.nodes.begin(), snap_->scene.nodes.end(),
                           [](const auto& n) { return n.kind != Scene::Kind::GroupFrame; }));
}

int GraphView::groupCount() const { return current() ? int(snap_->tree->groups.size()) : 0; }

QString GraphView::groupLabel(int group) const {
  if (!current() || group < 0 || std::size_t(group) >= snap_->tree->groups.size()) return {};
  return qs(snap_->tree->groups[std::size_t(group)].label);
}

bool GraphView::isGroupExpanded(int group) const {
  return current() && group >= 0 && std::size_t(group) < expanded_.size() &&
         expanded_[std::size_t(group)];
}

void GraphView::setGroupExpanded(int group, bool expanded) {
  if (!current() || group <= 0 || std::size_t(group) >= expanded_.size()) return;
  if (bool(expanded_[std::size_t(group)]) == expanded) return;
  expanded_[std::size_t(group)] = expanded ? 1 : 0;
  // Keep the clicked group where it is on screen once the new layout arrives.
  const int node = snap_->scene.node_of_group[std::size_t(group)];
  anchorGroup_ = node >= 0 ? group : -1;
  if (node >= 0) {
    const auto& b = snap_->scene.nodes[std::size_t(node)].box;
    anchorView_ = mapFromScene(QPointF(b.cx(), b.y));
  }
  requestLayout(false);
}

void GraphView::expandAll() {
  if (!current()) return;
  std::fill(expanded_.begin(), expanded_.end(), char(1));
  requestLayout(false);
}

void GraphView::collapseAll() {
  if (!current()) return;
  std::fill(expanded_.begin(), expanded_.end(), char(0));
  if (!expanded_.empty()) expanded_[0] = 1;  // the root
  requestLayout(false);
}

bool GraphView::reveal(int op) {
  if (!current()) return false;
  const auto& tree = *snap_->tree;
  bool changed = false;
  for (int g = tree.group_of[std::size_t(op)]; g > 0; g = tree.groups[std::size_t(g)].parent) {
    if (!expanded_[std::size_t(g)]) {
      expanded_[std::size_t(g)] = 1;
      changed = true;
    }
  }
  return changed;
}

int GraphView::visibleHolder(int item) const {
  const auto& tree = *snap_->tree;
  int holder = -1 - item;
  for (int g = tree.group_of[std::size_t(item)]; g > 0; g = tree.groups[std::size_t(g)].parent) {
    if (!snap_->expanded[std::size_t(g)]) holder = g;
  }
  return holder;
}

QRectF GraphView::opRect(int op) const {
  if (!current() || op < 0 || std::size_t(op) >= opCount_) return {};
  const int node = snap_->scene.node_of_item[std::size_t(op)];
  if (node < 0) return {};
  const auto& b = snap_->scene.nodes[std::size_t(node)].box;
  return QRectF(b.x, b.y, b.w, b.h);
}

void GraphView::ensureVisible(int op) {
  const QRectF r = opRect(op);
  if (r.isNull()) return;
  if (scale_ < 0.6) setZoom(0.8);
  const QRectF visible(mapToScene(QPointF(0, 0)),
                       mapToScene(QPointF(viewport()->rect().bottomRight())));
  if (!visible.contains(r)) centerOn(r.center());
}

void GraphView::selectOp(int op) {
  if (!graph_ || op < -1 || op >= int(opCount_)) return;
  const bool changed = op != selectedOp_;
  selectedOp_ = op;
  revealSelection_ = false;
  if (op >= 0) {
    if (!current()) {
      revealSelection_ = true;  // once the graph is laid out
    } else if (reveal(op)) {
      revealSelection_ = true;
      requestLayout(false);
    } else if (isLayoutPending()) {
      revealSelection_ = true;  // the layout on its way may move it
    } else {
      ensureVisible(op);
    }
  }
  viewport()->update();
  if (changed) emit opSelected(op);
}

// --- geometry ---------------------------------------------------------------

void GraphView::updateScrollBars() {
  const double w = snap_ ? (snap_->scene.width + 2 * kMargin) * scale_ : 0;
  const double h = snap_ ? (snap_->scene.height + 2 * kMargin) * scale_ : 0;
  const QSize vs = viewport()->size();
  horizontalScrollBar()->setRange(0, std::max(0, int(std::ceil(w - vs.width()))));
  verticalScrollBar()->setRange(0, std::max(0, int(std::ceil(h - vs.height()))));
  horizontalScrollBar()->setPageStep(vs.width());
  verticalScrollBar()->setPageStep(vs.height());
}

QPointF GraphView::mapFromScene(QPointF p) const {
  const double w = snap_ ? (snap_->scene.width + 2 * kMargin) * scale_ : 0;
  const double h = snap_ ? (snap_->scene.height + 2 * kMargin) * scale_ : 0;
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
  if (!current() && pendingCentre_) return *pendingCentre_;
  return mapToScene(QPointF(viewport()->width() / 2.0, viewport()->height() / 2.0));
}

void GraphView::centerOn(QPointF p) {
  if (graph_ && !current()) {  // the graph is not laid out yet: when it is
    pendingCentre_ = p;
    return;
  }
  horizontalScrollBar()->setValue(int((p.x() + kMargin) * scale_ - viewport()->width() / 2.0));
  verticalScrollBar()->setValue(int((p.y() + kMargin) * scale_ - viewport()->height() / 2.0));
  viewport()->update();
}

double GraphView::zoom() const {
  if (!current() && pendingZoom_) return *pendingZoom_;
  return scale_;
}

void GraphView::setZoom(double zoom, QPointF anchor) {
  if (graph_ && !current()) {  // the graph is not laid out yet: when it is
    pendingZoom_ = zoom;
    return;
  }
  if (!snap_) return;
  const QSizeF vs = viewport()->size();
  const double fit = std::min(vs.width() / (snap_->scene.width + 2 * kMargin),
                              vs.height() / (snap_->scene.height + 2 * kMargin));
  zoom = std::clamp(zoom, std::min(0.1, fit * 0.8), kMaxZoom);
  if (anchor.isNull()) anchor = QPointF(vs.width() / 2, vs.height() / 2);
  const QPointF sceneAnchor = mapToScene(anchor);
  scale_ = zoom;
  updateScrollBars();
  horizontalScrollBar()->setValue(int((sceneAnchor.x() + kMargin) * scale_ - anchor.x()));
  verticalScrollBar()->setValue(int((sceneAnchor.y() + kMargin) * scale_ - anchor.y()));
  viewport()->update();
  emit zoomChanged(scale_);
}

void GraphView::zoomIn() { setZoom(scale_ * 1.25); }
void GraphView::zoomOut() { setZoom(scale_ / 1.25); }

void GraphView::fitToWindow() {
  if (isLayoutPending()) pendingFit_ = true;  // fit again once the new layout is in
  if (!current()) return;
  const QSizeF vs = viewport()->size();
  const double fit = std::min(vs.width() / (snap_->scene.width + 2 * kMargin),
                              vs.height() / (snap_->scene.height + 2 * kMargin));
  if (fit >= kMinFitZoom) {
    setZoom(std::min(fit, 1.0));
    centerOn(QPointF(snap_->scene.width / 2, snap_->scene.height / 2));
    return;
  }
  setZoom(kMinFitZoom);  // too big to read whole: its top, centred horizontally
  horizontalScrollBar()->setValue(horizontalScrollBar()->maximum() / 2);
  verticalScrollBar()->setValue(0);
}

QRectF GraphView::minimapRect() const {
  if (minimap_.isNull()) return {};
  const QSizeF s = minimap_.deviceIndependentSize();
  return QRectF(viewport()->width() - s.width() - 12, viewport()->height() - s.height() - 12,
                s.width(), s.height());
}

int GraphView::nodeAt(QPointF viewPoint) const {
  if (!snap_) return -1;
  const QPointF p = mapToScene(viewPoint);
  std::vector<int> nodes;
  snap_->grid.query(QRectF(p, QSizeF(0.1, 0.1)), &nodes, nullptr);
  const double header = ec::layout::CompoundOptions{}.group_header;
  for (auto it = nodes.rbegin(); it != nodes.rend(); ++it) {  // innermost first
    const auto& n = snap_->scene.nodes[std::size_t(*it)];
    QRectF r(n.box.x, n.box.y, n.box.w, n.box.h);
    if (n.kind == Scene::Kind::GroupFrame) r.setHeight(header);
    if (r.contains(p)) return *it;
  }
  return -1;
}

// --- painting ---------------------------------------------------------------

QColor GraphView::valueColor(double v) const {
  if (!std::isfinite(v)) return kNoValue;
  const double t = valueMax_ > valueMin_ ? (v - valueMin_) / (valueMax_ - valueMin_) : 0.5;
  return viridis(t);
}

QColor GraphView::fillFor(int node) const {
  const auto& n = snap_->scene.nodes[std::size_t(node)];
  if (n.kind == Scene::Kind::CollapsedGroup) {
    if (std::size_t(n.id) < groupHighlights_.size() &&
        groupHighlights_[std::size_t(n.id)].isValid())
      return groupHighlights_[std::size_t(n.id)];
    return groupValues_.empty() ? kGroupFill : valueColor(groupValues_[std::size_t(n.id)]);
  }
  if (!current()) return snap_->texts->fill[std::size_t(n.id)];  // overlays are for graph_
  if (!highlights_.empty() && std::size_t(n.id) < opCount_) {
    const QColor& c = highlights_[std::size_t(n.id)];
    return c.isValid() ? c : kNoValue;
  }
  if (!values_.empty() && std::size_t(n.id) < opCount_)
    return valueColor(values_[std::size_t(n.id)]);
  return snap_->texts->fill[std::size_t(n.id)];
}

void GraphView::paintScene(QPainter& p, const QRectF& rect) {
  std::vector<int> nodes, edges;
  snap_->grid.query(rect, &nodes, &edges);
  const bool text = scale_ >= kTextZoom;
  const bool detail = scale_ >= kDetailZoom;
  const bool smooth = scale_ >= 0.5;
  p.setRenderHint(QPainter::Antialiasing, smooth);

  auto paintEdges = [&] {
    QPen edgePen(colors_.edge, scale_ >= 1 ? 1.4 : 1.0);
    edgePen.setCosmetic(true);
    p.setPen(edgePen);
    p.setBrush(Qt::NoBrush);
    std::vector<QPointF> poly;
    const bool arrows = scale_ >= 0.3;
    QPainterPath arrowHeads;
    for (int e : edges) {
      const auto& pts = snap_->scene.edges[std::size_t(e)].points;
      poly.clear();
      for (const auto& pt : pts) poly.emplace_back(pt.x, pt.y);
      p.drawPolyline(poly.data(), int(poly.size()));
      if (arrows && poly.size() >= 2 && !snap_->scene.edges[std::size_t(e)].continues) {
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
    if (arrows) p.fillPath(arrowHeads, colors_.edge);
  };
  auto paintFrameLabels = [&] {
    p.setFont(snap_->texts->groupFont);
    const QFontMetricsF fm(snap_->texts->groupFont);
    for (int ni : nodes) {
      const auto& n = snap_->scene.nodes[std::size_t(ni)];
      if (n.kind != Scene::Kind::GroupFrame) continue;
      const QString label =
          QStringLiteral("− ") + qs((*snap_->tree).groups[std::size_t(n.id)].label);
      const QRectF at(n.box.x + 6, n.box.y + 3,
                      std::min(fm.horizontalAdvance(label) + 4, n.box.w - 12), snap_->texts->titleHeight);
      p.fillRect(at, colors_.frameFill);
      p.setPen(colors_.label);
      p.drawText(at.adjusted(2, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter | Qt::TextSingleLine,
                 label);
    }
  };
  QPen border(QColor(0x55, 0x5d, 0x68), 1);
  border.setCosmetic(true);
  QPen frameBorder(colors_.frameBorder, 1);
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
      const auto& n = snap_->scene.nodes[std::size_t(ni)];
      if ((n.kind == Scene::Kind::GroupFrame) != (pass == 0)) continue;
      const QRectF r(n.box.x, n.box.y, n.box.w, n.box.h);
      switch (n.kind) {
        case Scene::Kind::GroupFrame: {
          p.setPen(frameBorder);
          p.setBrush(colors_.frameFill);
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
            const auto& g = (*snap_->tree).groups[std::size_t(n.id)];
            p.setPen(!groupValues_.empty() &&
                             valueColor(groupValues_[std::size_t(n.id)]).lightnessF() < 0.45
                         ? Qt::white
                         : Qt::black);
            p.setFont(snap_->texts->titleFont);
            const QRectF inner = r.adjusted(kBoxPadX, kBoxPadY, -kBoxPadX, -kBoxPadY);
            p.drawText(QRectF(inner.left(), inner.top(), inner.width(), snap_->texts->titleHeight),
                       Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine,
                       QStringLiteral("+ ") + qs(g.label));
            p.setFont(snap_->texts->bodyFont);
            p.drawText(QRectF(inner.left(), inner.top() + snap_->texts->titleHeight, inner.width(),
                              snap_->texts->bodyHeight),
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
          p.setFont(snap_->texts->titleFont);
          // Zoomed out, the title alone, centred in the box; zoomed in, every line.
          const double lineTop = detail ? y : r.center().y() - snap_->texts->titleHeight / 2;
          p.drawText(QRectF(inner.left(), lineTop, inner.width(), snap_->texts->titleHeight),
                     Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, snap_->texts->title[id]);
          if (!detail) break;
          y += snap_->texts->titleHeight;
          p.setFont(snap_->texts->bodyFont);
          for (const QString* line : {&snap_->texts->detail[id], &snap_->texts->shape[id]}) {
            if (line->isEmpty()) continue;
            p.drawText(QRectF(inner.left(), y, inner.width(), snap_->texts->bodyHeight),
                       Qt::AlignHCenter | Qt::AlignVCenter | Qt::TextSingleLine, *line);
            y += snap_->texts->bodyHeight;
          }
          break;
        }
      }
    }
  }

  // Selection: the op's box, or the collapsed group holding it.
  if (selectedOp_ >= 0 && current()) {
    const int holder = visibleHolder(selectedOp_);
    const int node = holder < 0 ? snap_->scene.node_of_item[std::size_t(selectedOp_)]
                                : snap_->scene.node_of_group[std::size_t(holder)];
    if (node >= 0) {
      const auto& b = snap_->scene.nodes[std::size_t(node)].box;
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
    p.setPen(colors_.overlayBorder);
    p.setBrush(colors_.overlayFill);
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
}

void GraphView::rebuildMinimap() {
  minimap_ = QImage();
  if (!snap_ || snap_->scene.nodes.empty()) return;
  const double w = snap_->scene.width + 2 * kMargin, h = snap_->scene.height + 2 * kMargin;
  minimapScale_ = std::min(kMinimapSize / w, kMinimapSize / h);
  const QSize size(std::max(8, int(w * minimapScale_)), std::max(8, int(h * minimapScale_)));
  const qreal dpr = devicePixelRatioF();
  minimap_ = QImage(size * dpr, QImage::Format_ARGB32_Premultiplied);
  minimap_.setDevicePixelRatio(dpr);
  minimap_.fill(colors_.overlayFill);
  QPainter p(&minimap_);
  p.scale(minimapScale_, minimapScale_);
  p.translate(kMargin, kMargin);
  for (std::size_t i = 0; i < snap_->scene.nodes.size(); ++i) {
    const auto& n = snap_->scene.nodes[i];
    const QRectF r(n.box.x, n.box.y, std::max(n.box.w, 1 / minimapScale_),
                   std::max(n.box.h, 1 / minimapScale_));
    if (n.kind == Scene::Kind::GroupFrame) {
      p.fillRect(r, colors_.frameFill.darker(105));
    } else {
      p.fillRect(
          r, n.kind == Scene::Kind::CollapsedGroup ? kGroupBorder : fillFor(int(i)).darker(130));
    }
  }
}

void GraphView::paintFrame(QPainter& p, const QRect& target, bool minimap) {
  p.fillRect(target, colors_.background);
  if (snap_) {
    const QPointF origin = mapFromScene(QPointF(0, 0));
    p.save();
    p.translate(origin);
    p.scale(scale_, scale_);
    const QRectF visible(mapToScene(QPointF(0, 0)),
                         mapToScene(QPointF(target.width(), target.height())));
    paintScene(p, visible);
    p.restore();
    if (minimap) paintOverlays(p);
  }
  if (isLayoutPending()) {
    // What is shown is out of date (or nothing yet): say that the new layout is coming.
    const QString text = tr("Laying out…");
    const QFontMetricsF fm(font());
    const QSizeF size(fm.horizontalAdvance(text) + 24, fm.height() + 12);
    const QRectF badge = snap_ ? QRectF(QPointF(target.width() - size.width() - 12, 12), size)
                               : QRectF(QPointF((target.width() - size.width()) / 2,
                                                (target.height() - size.height()) / 2),
                                        size);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(colors_.overlayBorder);
    p.setBrush(colors_.overlayFill);
    p.drawRoundedRect(badge, 4, 4);
    p.setPen(colors_.overlayText);
    p.drawText(badge, Qt::AlignCenter, text);
  }
}

void GraphView::paintEvent(QPaintEvent*) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(viewport());
  paintFrame(p, viewport()->rect());
  lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
  if (current() && !isLayoutPending()) emit framePainted();
}

void GraphView::renderViewport(QImage& image) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(&image);
  paintFrame(p, image.rect());
  lastPaintMs_ = double(timer.nsecsElapsed()) / 1e6;
}

QImage GraphView::renderVisibleArea() {
  const QSize size = viewport()->size();
  const int legend = legendStrip_->isHidden() ? 0 : legendHeight(size.width());
  QImage image(size.width(), size.height() + legend, QImage::Format_ARGB32_Premultiplied);
  image.fill(colors_.background);
  QPainter p(&image);
  if (legend > 0) paintLegends(p, QRect(0, 0, size.width(), legend));
  p.translate(0, legend);
  paintFrame(p, QRect(QPoint(0, 0), size), false);
  return image;
}

GraphView::OverlayPicture GraphView::overlayPicture() const {
  OverlayPicture out;
  if (!current() || (values_.empty() && highlights_.empty())) return out;
  out.fill.resize(opCount_);
  if (!highlights_.empty()) {
    for (std::size_t i = 0; i < opCount_ && i < highlights_.size(); ++i)
      out.fill[i] = highlights_[i].isValid() ? highlights_[i] : kNoValue;
    out.legend = highlightLegend_;
    return out;
  }
  for (std::size_t i = 0; i < opCount_ && i < values_.size(); ++i) out.fill[i] = valueColor(values_[i]);
  out.title = valueLabel_;
  for (int step = 0; step <= 4; ++step) {
    const double v = valueMin_ + (valueMax_ - valueMin_) * step / 4.0;
    out.legend.emplace_back(QString::number(v, 'g', 4), valueColor(v));
  }
  if (!noValueLabel_.isEmpty() &&
      std::any_of(values_.begin(), values_.end(), [](double v) { return !std::isfinite(v); }))
    out.legend.emplace_back(noValueLabel_, kNoValue);
  return out;
}

void GraphView::visibleNodes(std::vector<int>* items, std::vector<int>* groups) const {
  if (items) items->clear();
  if (groups) groups->clear();
  if (!current()) return;
  const QRectF visible(mapToScene(QPointF(0, 0)),
                       mapToScene(QPointF(viewport()->width(), viewport()->height())));
  std::vector<int> nodes, edges;
  snap_->grid.query(visible, &nodes, &edges);
  for (int n : nodes) {
    const auto& node = snap_->scene.nodes[std::size_t(n)];
    const QRectF box(node.box.x, node.box.y, node.box.w, node.box.h);
    if (!box.intersects(visible)) continue;
    if (node.kind == Scene::Kind::Item && items) items->push_back(node.id);
    if (node.kind == Scene::Kind::CollapsedGroup && groups) groups->push_back(node.id);
  }
}

// --- values -------------------------------------------------------------------

void GraphView::updateGroupOverlays() {
  // Per group: the mean of its ops' values, the colour of its first highlighted op.
  groupValues_.clear();
  groupHighlights_.clear();
  if (!current()) return;  // recomputed when the graph's layout arrives
  const auto& tree = *snap_->tree;
  if (!values_.empty()) {
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
  if (!highlights_.empty()) {
    groupHighlights_.resize(tree.groups.size());
    for (std::size_t i = 0; i < opCount_; ++i) {
      if (!highlights_[i].isValid()) continue;
      for (int g = tree.group_of[i]; g > 0; g = tree.groups[std::size_t(g)].parent) {
        if (!groupHighlights_[std::size_t(g)].isValid())
          groupHighlights_[std::size_t(g)] = highlights_[i];
      }
    }
  }
}

void GraphView::setOpValues(std::vector<double> values, const QString& label,
                            const QString& noValueLabel) {
  values.resize(opCount_, std::numeric_limits<double>::quiet_NaN());
  values_ = std::move(values);
  valueLabel_ = label;
  noValueLabel_ = noValueLabel;
  valueMin_ = std::numeric_limits<double>::max();
  valueMax_ = std::numeric_limits<double>::lowest();
  for (double v : values_) {
    if (!std::isfinite(v)) continue;
    valueMin_ = std::min(valueMin_, v);
    valueMax_ = std::max(valueMax_, v);
  }
  if (valueMin_ > valueMax_) valueMin_ = valueMax_ = 0;
  updateGroupOverlays();
  if (snap_) rebuildMinimap();
  updateLegendStrip();
  viewport()->update();
}

void GraphView::clearOpValues() {
  values_.clear();
  valueLabel_.clear();
  noValueLabel_.clear();
  updateGroupOverlays();
  if (snap_) rebuildMinimap();
  updateLegendStrip();
  viewport()->update();
}

void GraphView::setOpHighlights(std::vector<QColor> colors,
                                std::vector<std::pair<QString, QColor>> legend) {
  highlights_ = std::move(colors);
  if (!highlights_.empty()) highlights_.resize(opCount_);
  highlightLegend_ = std::move(legend);
  updateGroupOverlays();
  if (snap_) rebuildMinimap();
  updateLegendStrip();
  viewport()->update();
}

// --- interaction ----------------------------------------------------------------

void GraphView::resizeEvent(QResizeEvent* event) {
  QAbstractScrollArea::resizeEvent(event);
  updateLegendStrip();
  updateScrollBars();
}

void GraphView::mouseDoubleClickEvent(QMouseEvent* event) {
  // The background (not a box, not the minimap): fit the graph to the window.
  if (event->button() == Qt::LeftButton && !minimapRect().contains(event->position()) &&
      nodeAt(event->position()) < 0) {
    fitToWindow();
    return;
  }
  QAbstractScrollArea::mouseDoubleClickEvent(event);
}

// --- colours and legends ---------------------------------------------------------

void GraphView::updateColors() {
  // Qt 6.4 has no QStyleHints::colorScheme(): the desktop's choice arrives as the
  // palette, so a dark Base means a dark canvas.
  const QPalette& pal = palette();
  const bool dark = pal.color(QPalette::Base).lightness() < 128;
  if (dark) {
    colors_ = {QColor(0x24, 0x27, 0x2b), QColor(0x9a, 0xa3, 0xad), QColor(0x30, 0x34, 0x3a),
               QColor(0x55, 0x5e, 0x6a), QColor(0xd0, 0xd6, 0xde), QColor(0x2c, 0x30, 0x35, 240),
               QColor(0x60, 0x68, 0x72), QColor(0xe6, 0xe9, 0xed)};
  } else {
    colors_ = {QColor(0xfb, 0xfb, 0xfc), QColor(0x7a, 0x82, 0x8c), QColor(0xf1, 0xf3, 0xf6),
               QColor(0xb4, 0xbc, 0xc8), QColor(0x45, 0x50, 0x60), QColor(255, 255, 255, 235),
               QColor(0x99, 0xa0, 0xaa), QColor(0x20, 0x24, 0x2a)};
  }
}

namespace {
std::vector<LegendItem> legendItemsOf(bool hasValues, const QString& valueLabel,
                                      bool anyNoValue, const QString& noValueLabel,
                                      const std::vector<std::pair<QString, QColor>>& highlight,
                                      bool hasHighlights, QColor noValueColor) {
  std::vector<LegendItem> items;
  if (hasValues) {
    items.push_back({valueLabel, {}, false, true});
    items.push_back({{}, {}, true, false});
    if (anyNoValue && !noValueLabel.isEmpty()) items.push_back({noValueLabel, noValueColor});
  }
  if (hasHighlights) {
    for (const auto& [label, color] : highlight) items.push_back({label, color});
  }
  return items;
}
}  // namespace

QStringList GraphView::legendTexts() const {
  QStringList texts;
  const bool anyNoValue =
      std::any_of(values_.begin(), values_.end(), [](double v) { return !std::isfinite(v); });
  for (const auto& item : legendItemsOf(!values_.empty(), valueLabel_, anyNoValue, noValueLabel_,
                                        highlightLegend_, !highlights_.empty(), kNoValue)) {
    if (item.scale) {
      texts << QString::number(valueMin_, 'g', 4) << QString::number(valueMax_, 'g', 4);
    } else {
      texts << item.text;
    }
  }
  return texts;
}

QRect GraphView::legendGeometry() const {
  return legendStrip_->isHidden() ? QRect() : legendStrip_->geometry();
}

int GraphView::legendHeight(int width) const {
  const bool anyNoValue =
      std::any_of(values_.begin(), values_.end(), [](double v) { return !std::isfinite(v); });
  const auto items = legendItemsOf(!values_.empty(), valueLabel_, anyNoValue, noValueLabel_,
                                   highlightLegend_, !highlights_.empty(), kNoValue);
  if (items.empty()) return 0;
  const QFontMetricsF fm(font());
  const QString lo = QString::number(valueMin_, 'g', 4), hi = QString::number(valueMax_, 'g', 4);
  int rows = 1;
  double x = kLegendPad;
  for (const auto& item : items) {
    const double w = legendItemWidth(item, font(), lo, hi);
    if (x > kLegendPad && x + w > width - kLegendPad) {
      ++rows;
      x = kLegendPad;
    }
    x += w + kLegendSpacing;
  }
  return int(std::ceil(rows * (fm.height() + 6) + 2 * kLegendPad - 6));
}

void GraphView::paintLegends(QPainter& p, const QRect& rect) {
  p.fillRect(rect, QColor(colors_.overlayFill.rgb()));
  p.setPen(colors_.overlayBorder);
  p.drawLine(rect.bottomLeft(), rect.bottomRight());
  const bool anyNoValue =
      std::any_of(values_.begin(), values_.end(), [](double v) { return !std::isfinite(v); });
  const auto items = legendItemsOf(!values_.empty(), valueLabel_, anyNoValue, noValueLabel_,
                                   highlightLegend_, !highlights_.empty(), kNoValue);
  const QFontMetricsF fm(font());
  const QString lo = QString::number(valueMin_, 'g', 4), hi = QString::number(valueMax_, 'g', 4);
  const double rowHeight = fm.height() + 6;
  double x = kLegendPad, y = kLegendPad;
  p.setRenderHint(QPainter::Antialiasing, false);
  for (const auto& item : items) {
    const double w = legendItemWidth(item, font(), lo, hi);
    if (x > kLegendPad && x + w > rect.width() - kLegendPad) {
      x = kLegendPad;
      y += rowHeight;
    }
    const QRectF line(x, y, w, fm.height());
    p.setPen(colors_.overlayText);
    if (item.scale) {
      p.drawText(QRectF(x, y, fm.horizontalAdvance(lo), fm.height()), Qt::AlignVCenter, lo);
      const QRectF bar(x + fm.horizontalAdvance(lo) + 6, y + fm.height() / 2 - 5, kScaleBar, 10);
      QLinearGradient gradient(bar.topLeft(), bar.topRight());
      for (int i = 0; i <= 4; ++i)
        gradient.setColorAt(i / 4.0, valueColor(valueMin_ + (valueMax_ - valueMin_) * i / 4.0));
      p.fillRect(bar, gradient);
      p.drawText(QRectF(bar.right() + 6, y, fm.horizontalAdvance(hi) + 1, fm.height()),
                 Qt::AlignVCenter, hi);
    } else {
      double tx = x;
      if (item.swatch.isValid()) {
        p.setPen(item.swatch.darker(140));
        p.setBrush(item.swatch);
        p.drawRect(QRectF(x, y + fm.height() / 2 - kSwatch / 2, kSwatch, kSwatch));
        tx += kSwatch + 5;
        p.setPen(colors_.overlayText);
      }
      QFont f = font();
      f.setBold(item.title);
      p.setFont(f);
      p.drawText(QRectF(tx, line.top(), w + 2, fm.height()), Qt::AlignVCenter, item.text);
      p.setFont(font());
    }
    x += w + kLegendSpacing;
  }
}

void GraphView::updateLegendStrip() {
  const int h = legendHeight(width());
  if (h == 0) {
    legendStrip_->hide();
    setViewportMargins(0, 0, 0, 0);
    return;
  }
  setViewportMargins(0, h, 0, 0);
  legendStrip_->setGeometry(0, 0, width(), h);
  legendStrip_->show();
  legendStrip_->update();
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
  if (!click || !current()) return;  // the previous graph's boxes are not this graph's ops
  const int node = nodeAt(event->position());
  if (node < 0 || node != pressedNode_) {
    if (node < 0) selectOp(-1);
    return;
  }
  const auto& n = snap_->scene.nodes[std::size_t(node)];
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

void GraphView::retranslateUi() {
  setToolTip(
      tr("Drag to pan, wheel, pinch or +/− to zoom, 0 or a double-click on the background to "
         "fit. Click a block to expand it, its header to collapse it.\n"
         "On an op: k kernel · s stride · pad top/left/bottom/right · g groups · d dilation."));
}

void GraphView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    retranslateUi();
    viewport()->update();  // painted texts ("Laying out…", "%1 ops")
  } else if (event->type() == QEvent::PaletteChange ||
             event->type() == QEvent::ApplicationPaletteChange) {
    updateColors();  // the desktop switched between light and dark
    if (snap_) rebuildMinimap();
    viewport()->update();
    legendStrip_->update();
  } else if (event->type() == QEvent::FontChange) {
    updateLegendStrip();
  }
  QAbstractScrollArea::changeEvent(event);
}

void GraphView::setOpToolTips(std::vector<QString> tips) { opToolTips_ = std::move(tips); }

QString GraphView::opToolTipAt(QPointF viewPoint) const {
  if (!current()) return {};
  const int node = nodeAt(viewPoint);
  if (node < 0) return {};
  const auto& n = snap_->scene.nodes[std::size_t(node)];
  if (n.kind != Scene::Kind::Item || std::size_t(n.id) >= opCount_) return {};
  if (std::size_t(n.id) < opToolTips_.size() && !opToolTips_[std::size_t(n.id)].isEmpty())
    return opToolTips_[std::size_t(n.id)];
  // The attributes on the box, spelled out (what "k", "s", "pad"... mean).
  const auto& op = graph_->ops[std::size_t(n.id)];
  const QString attributes = keyAttributesToolTip(op);
  if (attributes.isEmpty()) return {};
  return QString::fromStdString(op.name) + QLatin1Char('\n') + attributes;
}

bool GraphView::viewportEvent(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* he = static_cast<QHelpEvent*>(event);
    const QString tip = opToolTipAt(he->pos());
    if (!tip.isEmpty()) {
      QToolTip::showText(he->globalPos(), tip, viewport());
      return true;
    }
  } else if (event->type() == QEvent::Gesture) {
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
    switch (ne->gestureType()) {
      case Qt::ZoomNativeGesture:  // value: the change of scale since the last event
        setZoom(scale_ * (1 + ne->value()), ne->position());
        event->accept();
        return true;
      case Qt::BeginNativeGesture:
      case Qt::EndNativeGesture:
        event->accept();
        return true;
      default:
        break;
    }
  }
  return QAbstractScrollArea::viewportEvent(event);
}

}  // namespace ec::widgets
