// Graph-view paint benchmark (Qt, offscreen): for a generated network of N ops
// (default 10,000) measures time to first paint (setGraph() until the worker's
// layout has arrived and the first frame of the opening view is painted),
// expanding every group, the longest the GUI thread went without turning its
// event loop meanwhile (layout runs on GraphView's worker thread), and the time
// per frame at several zoom levels, painting into a 1280x800 QImage. For comparison it paints the same
// boxes and edges with a QGraphicsView (rect, text and path items).
//
//   QT_QPA_PLATFORM=offscreen graph_view_bench [OPS | MODEL.onnx] [--flat] [--no-qgraphicsview]
//
// --flat gives the ops names without scopes (ONNX style): no groups, one level.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <QApplication>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QTimer>

#include "bench/synthetic_graph.h"
#include "core/frontends/frontend.h"
#include "core/ir/graph.h"
#include "core/ir/op_table.h"
#include "widgets/GraphView.h"
#include "core/layout/compound_layout.h"
#include "core/layout/ir_input.h"

namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Op types for the unscoped variant (names carry no scope there).
const char* const kTypes[] = {"Conv", "BatchNormalization", "Relu", "Add", "MatMul", "Softmax"};

// The synthetic network as an IR graph: op type from the last name component.
ec::ir::FrozenGraph syntheticGraph(int ops, bool scoped) {
  const ec::layout::CompoundInput in = ec::bench::synthetic_network(ops, scoped);
  ec::ir::Graph g;
  g.name = "synthetic";
  std::vector<std::vector<int>> preds(in.items.size());
  for (const auto& [a, b] : in.edges) preds[std::size_t(b)].push_back(a);
  auto tensor = [&g](int i) {
    const std::string name = "t" + std::to_string(i);
    ec::ir::Tensor t;
    t.name = name;
    t.dtype = ec::ir::DType::Float32;
    t.shape = ec::ir::Shape::of({1, 64, 56, 56});
    g.add_tensor(t);
    return name;
  };
  for (std::size_t i = 0; i < in.items.size(); ++i) {
    std::string name = in.items[i].name;
    if (!scoped && i > 0 && i + 1 < in.items.size()) {
      name = "op_" + std::to_string(i) + "/" + kTypes[i % 6];
    }
    if (name.empty()) {
      if (i == 0) {
        g.inputs.push_back(tensor(0));
      } else {
        g.outputs.push_back("t" + std::to_string(preds[i].front()));
      }
      continue;
    }
    ec::ir::Operation op;
    op.name = name;
    std::string type = name.substr(name.rfind('/') + 1);
    if (const auto u = type.find('_'); u != std::string::npos) type.resize(u);
    op.op_type = type;
    op.kind = ec::ir::op_kind_from_name(type).value_or(ec::ir::OpKind::Unknown);
    if (type == "Conv") {
      op.attributes["kernel_shape"] = std::vector<std::int64_t>{3, 3};
      op.attributes["strides"] = std::vector<std::int64_t>{1, 1};
    }
    for (int p : preds[i]) op.inputs.push_back("t" + std::to_string(p));
    op.outputs.push_back(tensor(int(i)));
    g.ops.push_back(std::move(op));
  }
  return ec::ir::freeze(std::move(g));
}

struct FrameStats {
  double mean = 0, max = 0;
};

template <typename Paint>
FrameStats frames(int count, Paint&& paint) {
  FrameStats s;
  for (int i = 0; i < count; ++i) {
    const double t = nowMs();
    paint();
    const double d = nowMs() - t;
    s.mean += d / count;
    s.max = std::max(s.max, d);
  }
  return s;
}

/// Waits for the view's layout, timing the event loop's turns meanwhile: total
/// wait and the longest gap between two turns (the worst the GUI thread stalled).
struct Wait {
  double totalMs = 0, worstStallMs = 0;
};
Wait waitForLayout(ec::widgets::GraphView& view, double since) {
  Wait w;
  double last = since;
  QTimer ticker;
  QObject::connect(&ticker, &QTimer::timeout, [&] {
    const double t = nowMs();
    w.worstStallMs = std::max(w.worstStallMs, t - last);
    last = t;
  });
  ticker.start(0);
  view.waitForLayout();
  ticker.stop();
  const double t = nowMs();
  w.worstStallMs = std::max(w.worstStallMs, t - last);
  w.totalMs = t - since;
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  int ops = 10000;
  bool compare = true, scoped = true;
  std::string model;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--flat") == 0) {
      scoped = false;
    } else if (std::strcmp(argv[i], "--no-qgraphicsview") == 0) {
      compare = false;
    } else if (std::string(argv[i]).ends_with(".onnx")) {
      model = argv[i];
    } else {
      ops = std::atoi(argv[i]);
    }
  }
  // A model file instead: also saves its opening view and the fully expanded graph
  // to /tmp/graph_view_bench_{first,expanded}.png for review.
  const ec::ir::FrozenGraph graph = model.empty()
                                        ? syntheticGraph(ops, scoped)
                                        : ec::ir::freeze(ec::frontends::open_model(model));
  const QSize size(1280, 800);
  QImage image(size, QImage::Format_ARGB32_Premultiplied);

  ec::widgets::GraphView view;
  view.resize(size);
  view.setAttribute(Qt::WA_DontShowOnScreen);
  view.show();
  const QSize vs = view.viewport()->size();
  image = QImage(vs, QImage::Format_ARGB32_Premultiplied);

  double t = nowMs();
  view.setGraph(graph);
  const double setGraphMs = nowMs() - t;
  const Wait opened = waitForLayout(view, t);
  const double t1 = nowMs();
  view.renderViewport(image);
  const double firstFrameMs = nowMs() - t1;
  std::printf("graph: %zu ops, viewport %dx%d\n", graph->ops.size(), vs.width(), vs.height());
  std::printf(
      "time to first paint: %.1f ms (layout ready after %.1f ms: worker %.1f ms of which texts "
      "%.1f ms; first frame %.1f ms; %d blocks)\n",
      opened.totalMs + firstFrameMs, opened.totalMs, view.lastLayoutMs(), view.lastTextMeasureMs(),
      firstFrameMs, view.blockCount());
  std::printf("  GUI thread: setGraph() returned after %.2f ms; longest stall while laying out "
              "%.1f ms\n",
              setGraphMs, opened.worstStallMs);

  if (!model.empty()) image.save(QStringLiteral("/tmp/graph_view_bench_first.png"));
  t = nowMs();
  view.expandAll();
  const double expandCallMs = nowMs() - t;
  const Wait expanded = waitForLayout(view, t);
  std::printf("expand all groups: %.1f ms until laid out (worker %.1f ms, %zu group layouts; %d "
              "op boxes); expandAll() returned after %.2f ms, longest GUI stall %.1f ms\n",
              expanded.totalMs, view.lastLayoutMs(), view.lastLayoutGroups(), view.opItemCount(),
              expandCallMs, expanded.worstStallMs);
  if (!model.empty()) {
    view.setZoom(0.7);
    view.centerOn(
        QPointF(view.mapToScene(QPointF(vs.width() / 2.0, 0)).x(), vs.height() / 1.4 / 2));
    QImage expandedImage(vs, QImage::Format_ARGB32_Premultiplied);
    view.renderViewport(expandedImage);
    expandedImage.save(QStringLiteral("/tmp/graph_view_bench_expanded.png"));
  }

  view.fitToWindow();
  const double fit = view.zoom();
  std::printf("\n%-28s %12s %12s\n", "custom-painted GraphView", "mean ms", "max ms");
  const std::vector<std::pair<std::string, double>> zooms = {
      {"fit (" + std::to_string(fit).substr(0, 6) + ")", fit},
      {"0.05", 0.05},
      {"0.2", 0.2},
      {"0.5 (text)", 0.5},
      {"1.0 (detail)", 1.0},
      {"2.0", 2.0}};
  for (const auto& [label, zoom] : zooms) {
    view.setZoom(zoom);
    view.centerOn(view.mapToScene(QPointF(vs.width() / 2.0, vs.height() / 2.0)));
    const FrameStats s = frames(10, [&] { view.renderViewport(image); });
    std::printf("  zoom %-22s %12.2f %12.2f\n", label.c_str(), s.mean, s.max);
  }
  image.save(QStringLiteral("/tmp/graph_view_bench.png"));

  if (!compare) return 0;
  // The same picture as QGraphicsView items.
  ec::layout::CompoundLayout layout(ec::layout::make_compound_input(*graph));
  layout.expand_all();
  const ec::layout::Scene& scene = layout.layout();
  t = nowMs();
  QGraphicsScene gs;
  gs.setItemIndexMethod(QGraphicsScene::BspTreeIndex);
  for (const auto& e : scene.edges) {
    QPainterPath path;
    path.moveTo(e.points.front().x, e.points.front().y);
    for (std::size_t i = 1; i < e.points.size(); ++i) path.lineTo(e.points[i].x, e.points[i].y);
    gs.addPath(path, QPen(Qt::gray, 0));
  }
  for (const auto& n : scene.nodes) {
    auto* rect = gs.addRect(n.box.x, n.box.y, n.box.w, n.box.h, QPen(Qt::darkGray, 0),
                            QBrush(QColor(0x9c, 0xc3, 0xe6)));
    if (n.kind == ec::layout::Scene::Kind::Item && std::size_t(n.id) < graph->ops.size()) {
      auto* text = new QGraphicsSimpleTextItem(
          QString::fromStdString(graph->ops[std::size_t(n.id)].op_type), rect);
      text->setPos(n.box.x + 8, n.box.y + 5);
    }
  }
  std::printf("\nQGraphicsScene build: %.1f ms (%d items)\n", nowMs() - t, int(gs.items().size()));
  QGraphicsView gv(&gs);
  gv.resize(vs);
  gv.setAttribute(Qt::WA_DontShowOnScreen);
  gv.show();
  std::printf("%-28s %12s %12s\n", "QGraphicsView", "mean ms", "max ms");
  for (const auto& [label, zoom] : zooms) {
    gv.resetTransform();
    gv.scale(zoom, zoom);
    gv.centerOn(scene.width / 2, scene.height / 2);
    const FrameStats s = frames(3, [&] {
      QPainter p(&image);
      gv.render(&p);
    });
    std::printf("  zoom %-22s %12.2f %12.2f\n", label.c_str(), s.mean, s.max);
  }
  return 0;
}
