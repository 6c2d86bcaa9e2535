// The IR graph, laid out top to bottom in layers (ec::layout), painted by hand.
//
// A custom-painted QAbstractScrollArea rather than a QGraphicsView: the scene is
// a flat array of boxes and polylines in a uniform grid, so a frame touches only
// the cells in view, and level of detail is a branch in the paint loop instead
// of per-item state (see widgets/README.md for the measurements).
//
// Ops are grouped by name scope into collapsible groups; a model opens with a
// few dozen blocks and clicking a block expands it (only that group and its
// ancestors are laid out again). Pan by dragging, zoom with the wheel, a pinch
// or +/-; a minimap shows where the view is. setOpValues() colours ops on a
// heat scale with a legend (quantisation error, latency, partition...).
//
// Layout runs on a worker thread (GraphLayoutWorker): setGraph() and expanding
// or collapsing groups return at once, the view keeps painting what it has with
// a "Laying out…" badge, and the finished layout arrives as an immutable
// snapshot through a queued signal. A result that is no longer the latest
// request (the graph or the expansion changed meanwhile) is dropped. Queries
// about the layout (opRect(), blockCount()...) answer for the layout shown;
// isLayoutPending() says whether a newer one is on its way.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include <QAbstractScrollArea>
#include <QColor>
#include <QImage>
#include <QString>
#include <QStringList>

#include "core/ir/graph.h"

class QThread;

namespace ec::widgets {

struct GraphLayoutSnapshot;
class GraphLayoutWorker;

class GraphView : public QAbstractScrollArea {
  Q_OBJECT

 public:
  explicit GraphView(QWidget* parent = nullptr);
  ~GraphView() override;

  /// Shows `graph` (null clears): lays it out in the background with its biggest
  /// groups expanded up to a few dozen blocks, then shows the top of it (or the zoom
  /// and centre set meanwhile with setZoom()/centerOn()).
  void setGraph(ec::ir::FrozenGraph graph);
  const ec::ir::FrozenGraph& graph() const { return graph_; }

  /// True while a layout of the current graph or expansion has been asked for and
  /// has not arrived yet.
  bool isLayoutPending() const;
  /// Runs the event loop until no layout is pending (tests, benchmarks); false on timeout.
  bool waitForLayout(int timeoutMs = 60000);

  /// Op boxes currently laid out (ops inside collapsed groups are not).
  int opItemCount() const;
  /// Boxes drawn at the top of the hierarchy: ops, collapsed groups, inputs, outputs.
  int blockCount() const;
  int groupCount() const;
  /// The scope label ("features.3") and number of ops of group `group` (0 = root).
  QString groupLabel(int group) const;
  /// Whether `group` is (or, with a layout pending, is about to be) expanded.
  bool isGroupExpanded(int group) const;
  void setGroupExpanded(int group, bool expanded);
  void expandAll();
  void collapseAll();

  /// Selected op (index into Graph::ops), or -1.
  int selectedOp() const { return selectedOp_; }
  /// Selects `op`, expanding its groups if needed, and scrolls it into view.
  void selectOp(int op);
  /// Scene rectangle of op `op`'s box, or null when it is inside a collapsed group.
  QRectF opRect(int op) const;

  double zoom() const;
  /// Sets the zoom, keeping the scene point under `anchor` (viewport coordinates) in place;
  /// a null anchor means the viewport's centre.
  void setZoom(double zoom, QPointF anchor = {});
  void zoomIn();
  void zoomOut();
  /// Fits the whole graph in the viewport (never above 100%); also a double-click on
  /// the background. Below kMinFitZoom a big graph would be unreadable: its top is shown
  /// at that zoom instead, centred horizontally.
  void fitToWindow();
  /// The smallest zoom fitToWindow() and the opening view go down to.
  static constexpr double kMinFitZoom = 0.5;
  /// Scene point shown at the viewport's centre.
  QPointF viewCenter() const;
  /// Viewport point of a scene point and back.
  QPointF mapFromScene(QPointF scenePoint) const;
  QPointF mapToScene(QPointF viewPoint) const;
  void centerOn(QPointF scenePoint);

  /// Colours ops by `values` (one per op; NaN = no value) on a heat scale with a
  /// legend titled `label` (the scale from its minimum to its maximum, and
  /// `noValueLabel` beside the grey of ops without a value when there are any).
  /// Groups show the mean of their ops.
  void setOpValues(std::vector<double> values, const QString& label,
                   const QString& noValueLabel = {});
  void clearOpValues();
  bool hasOpValues() const { return !values_.empty(); }

  /// Categorical highlight (e.g. a pass diff's added, removed and changed ops): op i is
  /// filled with `colors[i]` where valid, the other ops are greyed, and a collapsed group
  /// takes the colour of its first highlighted op. `legend` (label, colour) is listed in a
  /// corner box. Empty `colors` clears. setGraph() clears it too.
  void setOpHighlights(std::vector<QColor> colors,
                       std::vector<std::pair<QString, QColor>> legend = {});
  bool hasOpHighlights() const { return !highlights_.empty(); }

  /// Per-op hover texts (one per op; "" = none, the view's own tooltip shows):
  /// e.g. why a compiled op runs on the CPU. setGraph() clears them.
  void setOpToolTips(std::vector<QString> tips);
  /// The hover text of the op under viewport point `viewPoint` ("" when none).
  QString opToolTipAt(QPointF viewPoint) const;

  /// Every text of the legends shown (overlay titles, scale ends, categories), in order.
  QStringList legendTexts() const;
  /// Where the legends are, in this widget's coordinates: a strip above the viewport,
  /// so they never cover a node (empty when no overlay is shown).
  QRect legendGeometry() const;

  /// Paints the current view into `image` (benchmarks and tests; offscreen-safe).
  void renderViewport(QImage& image);
  /// What is on screen as a picture (File › Export): the legend strip, when an overlay
  /// shows one, above the viewport's graph; no minimap, no scroll bars.
  QImage renderVisibleArea();

  /// The overlay as painted, for pictures of the graph drawn elsewhere (core/render):
  /// each op's fill (all invalid when no overlay is shown), the legend as swatches (a
  /// value scale as five steps from its minimum to its maximum) and its title.
  struct OverlayPicture {
    std::vector<QColor> fill;
    std::vector<std::pair<QString, QColor>> legend;
    QString title;
  };
  OverlayPicture overlayPicture() const;
  /// The layout items (ops first, then graph inputs and outputs) and collapsed groups
  /// with a box at least partly in the viewport now (nothing before the first layout).
  void visibleNodes(std::vector<int>* items, std::vector<int>* groups) const;
  /// Time the last paint took, in milliseconds.
  double lastPaintMs() const { return lastPaintMs_; }
  /// Time the worker spent on the layout shown (texts measured, laid out, indexed), ms.
  double lastLayoutMs() const;
  /// Of lastLayoutMs(), the time measuring texts with the fonts (once per graph; else 0).
  double lastTextMeasureMs() const;
  /// Group layouts the worker recomputed for the layout shown (the others were cached).
  std::size_t lastLayoutGroups() const;

 signals:
  /// The user (or selectOp) selected op `op`; -1 = selection cleared.
  void opSelected(int op);
  /// A new layout is shown (model laid out, group expanded or collapsed).
  void layoutChanged();
  /// A frame showing the current graph's finished layout was painted.
  void framePainted();
  /// The user changed the zoom (wheel, keys, pinch, fit); not sent for the opening view.
  void zoomChanged(double zoom);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void scrollContentsBy(int dx, int dy) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool viewportEvent(QEvent* event) override;
  void changeEvent(QEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;

 private:
  friend class GraphLegendStrip;
  /// Colours of the canvas, from the palette (light or dark desktop).
  struct SceneColors {
    QColor background, edge, frameFill, frameBorder, label, overlayFill, overlayBorder, overlayText;
  };
  void updateColors();
  /// Lays the legends out for `width` pixels; returns the strip's height (0: none).
  int legendHeight(int width) const;
  void paintLegends(QPainter& p, const QRect& rect);
  void updateLegendStrip();
  void retranslateUi();
  /// Whether the layout shown is of the current graph (maybe not of its latest expansion).
  bool current() const;
  void requestLayout(bool openingView);
  void onLayoutFinished(std::shared_ptr<const GraphLayoutSnapshot> snapshot);
  /// Expands every group holding op `op` in the requested expansion; true if one was collapsed.
  bool reveal(int op);
  /// The collapsed group showing item `item` in the layout shown, or -1 - item when visible.
  int visibleHolder(int item) const;
  void ensureVisible(int op);
  void updateGroupOverlays();
  void updateScrollBars();
  void rebuildMinimap();
  QRectF minimapRect() const;
  /// Scene node under a viewport point; frames count only by their header.
  int nodeAt(QPointF viewPoint) const;
  void paintScene(QPainter& p, const QRectF& sceneRect);
  void paintOverlays(QPainter& p);
  void paintFrame(QPainter& p, const QRect& target, bool minimap = true);
  QColor valueColor(double v) const;
  QColor fillFor(int node) const;

  ec::ir::FrozenGraph graph_;
  std::shared_ptr<const GraphLayoutSnapshot> snap_;  // the layout shown
  std::vector<char> expanded_;                       // expansion asked for (current() only)
  std::size_t opCount_ = 0;
  int selectedOp_ = -1;

  QThread* layoutThread_ = nullptr;
  GraphLayoutWorker* worker_ = nullptr;
  std::shared_ptr<std::atomic<quint64>> latest_;  // newest generation requested
  quint64 generation_ = 0;
  // Applied when the next layout arrives.
  bool openingView_ = false;   // first layout of a graph: place the opening view
  bool revealSelection_ = false;
  bool pendingFit_ = false;
  std::optional<double> pendingZoom_;
  std::optional<QPointF> pendingCentre_;
  int anchorGroup_ = -1;  // keep this group's box where it was on screen
  QPointF anchorView_;

  double scale_ = 1.0;
  QPoint dragStart_;
  QPoint lastDrag_;
  int pressedNode_ = -1;
  bool dragging_ = false;
  bool minimapDrag_ = false;

  std::vector<double> values_;
  std::vector<double> groupValues_;
  double valueMin_ = 0, valueMax_ = 1;
  QString valueLabel_;

  std::vector<QColor> highlights_;       // setOpHighlights(): per op, invalid = none
  std::vector<QString> opToolTips_;      // setOpToolTips(): per op, "" = none
  std::vector<QColor> groupHighlights_;  // per group
  std::vector<std::pair<QString, QColor>> highlightLegend_;

  SceneColors colors_;
  QWidget* legendStrip_ = nullptr;
  QString noValueLabel_;

  QImage minimap_;
  double minimapScale_ = 1;
  double lastPaintMs_ = 0;
};

}  // namespace ec::widgets
