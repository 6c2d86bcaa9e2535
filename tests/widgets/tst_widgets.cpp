// Tests of ecwidgets' models and of the workbench window driving the real core.
// Every model is checked by QAbstractItemModelTester.
#include <atomic>
#include <memory>
#include <thread>

#include <spdlog/logger.h>
#include <cmath>

#include <QAbstractItemModelTester>
#include <QImage>
#include <QTreeView>
#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileInfo>
#include <QMimeData>
#include <QRandomGenerator>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QLineEdit>
#include <QMenu>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QWheelEvent>
#include <QLineF>
#include <QTimer>
#include <QUrl>

#include "app/workbench/MainWindow.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "core/ir/dtype.h"
#include "core/ir/graph.h"
#include "core/report/model_summary.h"
#include "widgets/ItemRoles.h"
#include "widgets/LogModel.h"
#include "widgets/LogSink.h"
#include "widgets/MessageBar.h"
#include "widgets/GraphSearch.h"
#include "widgets/GraphView.h"
#include "widgets/ModelSummaryModel.h"
#include "widgets/SummaryPanel.h"
#include "widgets/OperationListModel.h"
#include "widgets/PropertiesModel.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/SearchBar.h"

using ec::widgets::LogEntry;
using ec::widgets::LogLevel;
using ec::widgets::LogModel;
using ec::widgets::ModelSummaryModel;
using ec::widgets::OperationListModel;
using ec::widgets::PropertiesModel;
using ec::workbench::MainWindow;

namespace {

constexpr int kLoadTimeoutMs = 60000;

QString qs(const std::string& s) { return QString::fromStdString(s); }

ec::report::ModelSummary makeSummary() {
  ec::report::ModelSummary s;
  s.path = "/models/tiny.onnx";
  s.format = "onnx";
  s.name = "tiny";
  s.producer = "pytorch 1.13.0";
  s.opset = "ai.onnx:13";
  s.ir_version = "8";
  s.inputs = {{"input", "f32", ec::ir::Shape::of({1, 3, 32, 32})}};
  s.outputs = {{"logits", "f32", ec::ir::Shape::of({1, 10})},
               {"features", "f32", ec::ir::Shape::of({1, 64})}};
  s.op_count = 5;
  s.ops_by_type = {{"Conv", 2}, {"Relu", 2}, {"Gemm", 1}};
  s.parameter_count = 1234567;
  s.parameter_bytes = 4 * 1234567;
  s.macs = 2500000;
  s.macs_by_type = {{"Conv", 2000000}, {"Gemm", 500000}};
  s.flops = 5000000;
  s.macs_unknown_ops = {"/fc/Gemm"};
  s.unknown_ops = {{"custom::Swish", 1}};
  s.validation_warnings = {"tensor 'x' has no producer"};
  return s;
}

QString valueOf(const ModelSummaryModel& model, const QString& key) {
  const int row = model.rowForKey(key);
  if (row < 0) return QStringLiteral("<no row %1>").arg(key);
  return model.index(row, ModelSummaryModel::Value).data().toString();
}

QString propertyOf(const ModelSummaryModel& model, const QString& key) {
  const int row = model.rowForKey(key);
  if (row < 0) return QStringLiteral("<no row %1>").arg(key);
  return model.index(row, ModelSummaryModel::Property).data().toString();
}

/// A conv with constant weights feeding a relu feeding two consumers.
ec::ir::FrozenGraph makeSmallGraph() {
  using namespace ec::ir;
  Graph g;
  g.name = "small";
  auto add = [&g](const std::string& name, Shape shape) {
    Tensor t;
    t.name = name;
    t.dtype = DType::Float32;
    t.shape = std::move(shape);
    return &g.add_tensor(t);
  };
  add("x", Shape::of({1, 2, 4, 4}));
  Tensor* w = add("w", Shape::of({2, 2, 1, 1}));
  const float weights[] = {-1.0f, 0.0f, 1.0f, 2.0f};
  w->data = ConstantData::copy_of(weights, sizeof(weights));
  add("y", Shape::of({1, 2, 4, 4}));
  add("z", Shape::of({1, 2, 4, 4}));
  add("out1", Shape::of({1, 2, 4, 4}));
  add("out2", Shape::of({1, 2, 4, 4}));
  Operation conv;
  conv.name = "/block/conv/Conv";
  conv.kind = OpKind::Conv;
  conv.op_type = "Conv";
  conv.inputs = {"x", "w"};
  conv.outputs = {"y"};
  conv.attributes["kernel_shape"] = std::vector<std::int64_t>{1, 1};
  Operation relu;
  relu.name = "/block/Relu";
  relu.kind = OpKind::Relu;
  relu.op_type = "Relu";
  relu.inputs = {"y"};
  relu.outputs = {"z"};
  Operation neg = relu;
  neg.name = "/head/Neg";
  neg.kind = OpKind::Unknown;
  neg.op_type = "custom::Neg";
  neg.inputs = {"z"};
  neg.outputs = {"out1"};
  Operation abs = neg;
  abs.name = "/head/Abs";
  abs.outputs = {"out2"};
  g.ops = {conv, relu, neg, abs};
  g.inputs = {"x"};
  g.outputs = {"out1", "out2"};
  return freeze(std::move(g));
}

/// A chain of `n` Relu ops in scopes /s<k>/b<j>/ (20 ops a block, 10 blocks a stage).
ec::ir::FrozenGraph makeScopedChain(int n) {
  using namespace ec::ir;
  Graph g;
  g.name = "chain";
  auto tensor = [&g](int i) {
    Tensor t;
    t.name = "t" + std::to_string(i);
    t.dtype = DType::Float32;
    t.shape = Shape::of({1, 8});
    g.add_tensor(t);
    return t.name;
  };
  g.inputs = {tensor(0)};
  for (int i = 0; i < n; ++i) {
    Operation op;
    op.name = "/s" + std::to_string(i / 200) + "/b" + std::to_string(i / 20) + "/Relu_" +
              std::to_string(i);
    op.kind = OpKind::Relu;
    op.op_type = "Relu";
    op.inputs = {"t" + std::to_string(i)};
    op.outputs = {tensor(i + 1)};
    g.ops.push_back(std::move(op));
  }
  g.outputs = {"t" + std::to_string(n)};
  return freeze(std::move(g));
}

QString propertyValue(const PropertiesModel& model, const QString& key) {
  const int row = model.rowForKey(key);
  if (row < 0) return QStringLiteral("<no row %1>").arg(key);
  return model.index(row, PropertiesModel::Value).data().toString();
}

/// Opens the sample model in `window` and waits until it is shown.
bool openSample(MainWindow& window) {
  QSignalSpy shown(&window, &MainWindow::modelShown);
  window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
  return shown.wait(kLoadTimeoutMs);
}

/// Saves an image of `w` into $EC_TEST_SCREENSHOT_DIR when set, for reviewing the UI.
void saveScreenshot(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR");
  if (!dir.isEmpty()) w.grab().save(dir + QLatin1Char('/') + name);
}

/// Picks `code` in View › Language of `window`.
void switchLanguage(MainWindow& window, const char* code) {
  for (QAction* a : window.findChildren<QAction*>()) {
    if (a->data().toString() == QLatin1String(code)) {
      a->trigger();
      return;
    }
  }
  QFAIL("no such language action");
}

/// The one-line error the core gives for `path`, or empty if it opens.
QString coreErrorFor(const QString& path) {
  try {
    ec::frontends::open_model(path.toStdString());
  } catch (const std::exception& e) {
    return qs(e.what());
  }
  return {};
}

}  // namespace

class WidgetTests : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    settingsDir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(settingsDir_->isValid());
    settings_ = std::make_unique<QSettings>(settingsDir_->filePath(QStringLiteral("wb.ini")),
                                            QSettings::IniFormat);
  }
  void cleanup() {
    settings_.reset();
    settingsDir_.reset();
  }

  // --- ModelSummaryModel -------------------------------------------------
  void summaryModelPassesModelTester() {
    ModelSummaryModel model(makeSummary());
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.columnCount(), 2);
    QVERIFY(model.rowCount() > 10);
    QCOMPARE(model.headerData(ModelSummaryModel::Property, Qt::Horizontal).toString(),
             QStringLiteral("Property"));
  }

  void summaryModelRowsShowEveryField() {
    ModelSummaryModel model(makeSummary());
    QCOMPARE(valueOf(model, QStringLiteral("name")), QStringLiteral("tiny"));
    QCOMPARE(valueOf(model, QStringLiteral("format")), QStringLiteral("onnx"));
    QCOMPARE(valueOf(model, QStringLiteral("path")), QStringLiteral("tiny.onnx"));
    QCOMPARE(valueOf(model, QStringLiteral("producer")), QStringLiteral("pytorch 1.13.0"));
    QCOMPARE(valueOf(model, QStringLiteral("opset")), QStringLiteral("ai.onnx:13"));
    QCOMPARE(valueOf(model, QStringLiteral("ir_version")), QStringLiteral("8"));
    QCOMPARE(valueOf(model, QStringLiteral("quantization")), QStringLiteral("none (float)"));
    QCOMPARE(propertyOf(model, QStringLiteral("input.0")), QStringLiteral("input"));
    QCOMPARE(valueOf(model, QStringLiteral("input.0")), QStringLiteral("f32 [1,3,32,32]"));
    QCOMPARE(propertyOf(model, QStringLiteral("output.1")), QStringLiteral("features"));
    QCOMPARE(valueOf(model, QStringLiteral("op_count")), QStringLiteral("5"));
    QCOMPARE(valueOf(model, QStringLiteral("ops.Conv")), QStringLiteral("2"));
    QCOMPARE(valueOf(model, QStringLiteral("ops.Gemm")), QStringLiteral("1"));
    QCOMPARE(valueOf(model, QStringLiteral("unknown_ops.custom::Swish")), QStringLiteral("1"));
    QVERIFY(model.rowForKey(QStringLiteral("macs_unknown_ops")) >= 0);
    QVERIFY(model.rowForKey(QStringLiteral("warning.0")) >= 0);
    // Large counts are shortened for display; the exact figure sorts and tooltips.
    const QModelIndex params =
        model.index(model.rowForKey(QStringLiteral("parameter_count")), ModelSummaryModel::Value);
    QCOMPARE(params.data(ec::widgets::SortRole).toLongLong(), 1234567LL);
    QVERIFY(params.data().toString().endsWith(QLatin1String(" M")));
    QCOMPARE(model.index(0, 0).data(ec::widgets::KeyRole).toString(), QStringLiteral("model"));
  }

  void summaryModelOmitsEmptySections() {
    ec::report::ModelSummary s = makeSummary();
    s.unknown_ops.clear();
    s.validation_warnings.clear();
    s.macs_unknown_ops.clear();
    ModelSummaryModel model(s);
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowForKey(QStringLiteral("unknown_ops")), -1);
    QCOMPARE(model.rowForKey(QStringLiteral("warnings")), -1);
    QCOMPARE(model.rowForKey(QStringLiteral("macs_unknown_ops")), -1);
    ModelSummaryModel empty(ec::report::ModelSummary{});
    QAbstractItemModelTester emptyTester(&empty,
                                         QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(valueOf(empty, QStringLiteral("name")), QStringLiteral("—"));
  }

  // --- OperationListModel ------------------------------------------------
  void operationListModelPassesModelTester() {
    ec::ir::Graph g;
    g.name = "g";
    ec::ir::Tensor x;
    x.name = "x";
    x.dtype = ec::ir::DType::Float32;
    x.shape = ec::ir::Shape::of({1, 4});
    g.add_tensor(x);
    ec::ir::Tensor y = x;
    y.name = "y";
    g.add_tensor(y);
    ec::ir::Operation op;
    op.name = "relu0";
    op.kind = ec::ir::OpKind::Unknown;
    op.op_type = "custom::Thing";
    op.inputs = {"x", ""};
    op.outputs = {"y"};
    g.ops.push_back(op);
    g.inputs = {"x"};
    g.outputs = {"y"};

    OperationListModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setGraph(ec::ir::freeze(g));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.index(0, OperationListModel::Name).data().toString(), QStringLiteral("relu0"));
    QCOMPARE(model.index(0, OperationListModel::Type).data().toString(),
             QStringLiteral("custom::Thing"));
    QCOMPARE(model.index(0, OperationListModel::Inputs).data().toString(), QStringLiteral("x"));
    QCOMPARE(model.index(0, OperationListModel::Outputs).data().toString(), QStringLiteral("y"));
    QCOMPARE(model.index(0, OperationListModel::OutputTypes).data().toString(),
             QStringLiteral("f32[1,4]"));
    QCOMPARE(model.index(0, OperationListModel::Inputs).data(Qt::ToolTipRole).toString(),
             QStringLiteral("x: f32[1,4]"));
    model.setGraph(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  // --- PropertiesModel, search, GraphView ---------------------------------
  void propertiesModelDescribesAnOp() {
    PropertiesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setGraph(makeSmallGraph());
    model.showOp(0);
    QCOMPARE(propertyValue(model, QStringLiteral("name")), QStringLiteral("/block/conv/Conv"));
    QCOMPARE(propertyValue(model, QStringLiteral("type")), QStringLiteral("Conv"));
    QCOMPARE(propertyValue(model, QStringLiteral("category")), QStringLiteral("convolution"));
    QCOMPARE(propertyValue(model, QStringLiteral("attr.kernel_shape")), QStringLiteral("[1,1]"));
    QCOMPARE(propertyValue(model, QStringLiteral("input.0")), QStringLiteral("x"));
    QCOMPARE(propertyValue(model, QStringLiteral("input.0.type")), QStringLiteral("f32[1,2,4,4]"));
    QCOMPARE(propertyValue(model, QStringLiteral("input.0.producer")), QStringLiteral("graph input"));
    QCOMPARE(propertyValue(model, QStringLiteral("input.1.producer")), QStringLiteral("constant"));
    QCOMPARE(propertyValue(model, QStringLiteral("input.1.stats")),
             QStringLiteral("min -1 · max 2 · mean 0.5 · std 1.118"));
    QCOMPARE(propertyValue(model, QStringLiteral("output.0.consumer.0")), QStringLiteral("/block/Relu"));
    QCOMPARE(model.index(model.rowForKey(QStringLiteral("output.0.consumer.0")), 1)
                 .data(ec::widgets::TargetOpRole)
                 .toInt(),
             1);
    QVERIFY(model.isHeading(model.rowForKey(QStringLiteral("attributes"))));

    model.showOp(1);  // relu: produced by the conv, consumed twice
    QCOMPARE(model.index(model.rowForKey(QStringLiteral("input.0.producer")), 1)
                 .data(ec::widgets::TargetOpRole)
                 .toInt(),
             0);
    QCOMPARE(propertyValue(model, QStringLiteral("output.0.consumer.1")), QStringLiteral("/head/Abs"));
    QCOMPARE(model.rowForKey(QStringLiteral("attributes")), -1);
    model.showOp(3);
    QCOMPARE(propertyValue(model, QStringLiteral("output.0.consumers")), QStringLiteral("graph output"));
    model.showOp(-1);
    QCOMPARE(model.rowCount(), 0);
    model.setGraph(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void findOpsMatchesNamesTypesAndTensors() {
    const auto g = makeSmallGraph();
    QCOMPARE(ec::widgets::findOps(*g, QStringLiteral("relu")), (std::vector<int>{1}));
    QCOMPARE(ec::widgets::findOps(*g, QStringLiteral("/head/")), (std::vector<int>{2, 3}));
    QCOMPARE(ec::widgets::findOps(*g, QStringLiteral("custom::")), (std::vector<int>{2, 3}));
    QCOMPARE(ec::widgets::findOps(*g, QStringLiteral("out2")), (std::vector<int>{3}));
    QCOMPARE(ec::widgets::findOps(*g, QStringLiteral("z")), (std::vector<int>{1, 2, 3}));
    QVERIFY(ec::widgets::findOps(*g, QStringLiteral("  ")).empty());
  }

  void graphViewGroupsAndPaints() {
    ec::widgets::GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setGraph(makeSmallGraph());
    QVERIFY(view.isLayoutPending());  // laid out on the worker thread
    QCOMPARE(view.groupCount(), 0);
    QVERIFY(view.waitForLayout());
    // "block" and "head" are groups (two ops each).
    QCOMPARE(view.groupCount(), 3);
    QCOMPARE(view.groupLabel(1), QStringLiteral("block"));
    view.collapseAll();
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.opItemCount(), 0);
    QCOMPARE(view.blockCount(), 2 + 1 + 2);  // two groups, an input, two outputs
    view.setGroupExpanded(1, true);
    QVERIFY(view.isGroupExpanded(1));  // asked for at once, laid out in the background
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.opItemCount(), 2);
    view.expandAll();
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.opItemCount(), 4);
    QSignalSpy selected(&view, &ec::widgets::GraphView::opSelected);
    view.collapseAll();
    QVERIFY(view.waitForLayout());
    view.selectOp(3);  // reveals its group
    QCOMPARE(selected.count(), 1);
    QVERIFY(view.isGroupExpanded(2));
    QVERIFY(view.waitForLayout());
    QVERIFY(!view.opRect(3).isNull());

    view.expandAll();
    QVERIFY(view.waitForLayout());
    view.setOpValues({0.0, 1.0, std::nan(""), 4.0}, QStringLiteral("error"));
    QVERIFY(view.hasOpValues());
    for (double zoom : {0.1, 0.5, 1.5}) {
      view.setZoom(zoom);
      QImage image(view.viewport()->size(), QImage::Format_ARGB32_Premultiplied);
      view.renderViewport(image);
      QVERIFY(view.lastPaintMs() >= 0);
    }
    saveScreenshot(view, QStringLiteral("value_overlay.png"));
    view.clearOpValues();
    QVERIFY(!view.hasOpValues());
    view.setGraph(nullptr);
    QCOMPARE(view.opItemCount(), 0);
  }

  void graphViewLaysOutOffTheGuiThread() {
    ec::widgets::GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const auto big = makeScopedChain(6000);
    QSignalSpy changed(&view, &ec::widgets::GraphView::layoutChanged);
    QSignalSpy painted(&view, &ec::widgets::GraphView::framePainted);
    view.setGraph(big);
    QVERIFY(view.isLayoutPending());
    view.viewport()->repaint();  // "Laying out…": not a frame of the graph
    QCOMPARE(painted.count(), 0);
    // The GUI thread keeps turning while the worker lays out.
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, [&ticks] { ++ticks; });
    ticker.start(0);
    QVERIFY(view.waitForLayout());
    ticker.stop();
    QVERIFY2(ticks > 0, "the event loop did not run during the layout");
    QCOMPARE(changed.count(), 1);
    QVERIFY(view.blockCount() > 0 && view.blockCount() <= 45);
    // The update layoutChanged schedules may already have painted the graph while
    // waitForLayout turned the event loop (load-dependent): at most that one frame.
    const int before = int(painted.count());
    QVERIFY(before <= 1);
    view.viewport()->repaint();
    QCOMPARE(int(painted.count()), before + 1);

    // Stale results are dropped: only the last graph and the last expansion are shown.
    changed.clear();
    view.setGraph(makeSmallGraph());
    view.setGraph(big);
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.graph(), big);
    QCOMPARE(changed.count(), 1);
    QCOMPARE(view.groupLabel(1), QStringLiteral("s0"));
    view.collapseAll();
    QVERIFY(view.waitForLayout());
    const int collapsedBlocks = view.blockCount();
    changed.clear();
    view.setGroupExpanded(1, true);
    view.setGroupExpanded(1, false);
    QVERIFY(view.waitForLayout());
    QCOMPARE(changed.count(), 1);
    QVERIFY(!view.isGroupExpanded(1));
    QCOMPARE(view.blockCount(), collapsedBlocks);

    // Expanding a group lays out that group and its ancestors only; a group laid out
    // before comes from the cache.
    QCOMPARE(view.groupLabel(2), QStringLiteral("b0"));
    view.setGroupExpanded(1, true);
    QVERIFY(view.waitForLayout());
    QVERIFY(view.lastLayoutGroups() <= 2);  // s0 (unless cached) and the root
    view.setGroupExpanded(2, true);
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.lastLayoutGroups(), std::size_t(3));  // b0, s0, root
    QCOMPARE(view.opItemCount(), 20);
    view.setGroupExpanded(2, false);
    QVERIFY(view.waitForLayout());
    view.setGroupExpanded(2, true);
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.lastLayoutGroups(), std::size_t(2));  // b0 cached

    // Zoom and centre asked for before the layout arrives are applied when it does.
    view.setGraph(makeSmallGraph());
    view.setZoom(1.5);
    QCOMPARE(view.zoom(), 1.5);
    QVERIFY(view.waitForLayout());
    QCOMPARE(view.zoom(), 1.5);
    view.setGraph(nullptr);
    QVERIFY(!view.isLayoutPending());
  }

  void graphViewZoomsWithPinchWheelAndKeys() {
    ec::widgets::GraphView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setGraph(makeScopedChain(400));
    QVERIFY(view.waitForLayout());
    view.setZoom(1.0);
    const QPointF at(400, 300);
    // A touchpad pinch (macOS, Wayland and X11 with libinput deliver these).
    QNativeGestureEvent begin(Qt::BeginNativeGesture, QPointingDevice::primaryPointingDevice(), 2,
                              at, at, view.viewport()->mapToGlobal(at), 0, {});
    QCoreApplication::sendEvent(view.viewport(), &begin);
    QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2,
                              at, at, view.viewport()->mapToGlobal(at), 0.5, {});
    const QPointF sceneAt = view.mapToScene(at);
    QVERIFY(QCoreApplication::sendEvent(view.viewport(), &pinch));
    QVERIFY(pinch.isAccepted());
    QCOMPARE(view.zoom(), 1.5);
    // The point under the fingers stays put.
    QVERIFY(QLineF(view.mapFromScene(sceneAt), at).length() < 2);
    QNativeGestureEvent pinchIn(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2,
                                at, at, view.viewport()->mapToGlobal(at), -0.2, {});
    QCoreApplication::sendEvent(view.viewport(), &pinchIn);
    QCOMPARE(view.zoom(), 1.5 * 0.8);
    // Wheel and keys.
    const double before = view.zoom();
    QWheelEvent wheel(at, view.viewport()->mapToGlobal(at), {}, QPoint(0, 120), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QCoreApplication::sendEvent(view.viewport(), &wheel);
    QVERIFY(view.zoom() > before);
    const double afterWheel = view.zoom();
    QTest::keyClick(&view, Qt::Key_Minus);
    QVERIFY(view.zoom() < afterWheel);
    QTest::keyClick(&view, Qt::Key_Plus);
    QCOMPARE(view.zoom(), afterWheel);
  }

  void mainWindowGraphShowsEveryOp() {
    if (!QFileInfo::exists(QStringLiteral(EC_SAMPLE_MODEL))) QSKIP("sample model not built");
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSample(window));
    ec::widgets::GraphView* view = window.graphView();
    QVERIFY(view->isVisible());
    QVERIFY(view->waitForLayout());
    QVERIFY(view->blockCount() > 0);
    QVERIFY(view->blockCount() <= 45);  // a first view of a few dozen blocks at most
    view->expandAll();
    QVERIFY(view->waitForLayout());
    QCOMPARE(qint64(view->opItemCount()), qint64(window.graph()->ops.size()));
    view->collapseAll();
    QVERIFY(view->waitForLayout());
    QVERIFY(view->opItemCount() < int(window.graph()->ops.size()));
    view->expandAll();
    QVERIFY(view->waitForLayout());
    saveScreenshot(window, QStringLiteral("graph_expanded.png"));
  }

  void clickingAnOpShowsItsProperties() {
    if (!QFileInfo::exists(QStringLiteral(EC_SAMPLE_MODEL))) QSKIP("sample model not built");
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSample(window));
    ec::widgets::GraphView* view = window.graphView();
    QVERIFY(view->waitForLayout());
    view->expandAll();
    QVERIFY(view->waitForLayout());
    view->setZoom(1.0);
    // The first Conv of the model, clicked where it is drawn.
    const auto& ops = window.graph()->ops;
    const int conv = int(std::find_if(ops.begin(), ops.end(),
                                      [](const auto& op) { return op.op_type == "Conv"; }) -
                         ops.begin());
    QVERIFY(conv < int(ops.size()));
    view->centerOn(view->opRect(conv).center());
    const QPoint at = view->mapFromScene(view->opRect(conv).center()).toPoint();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
    QCOMPARE(view->selectedOp(), conv);

    PropertiesModel* props = window.propertiesPanel()->model();
    QAbstractItemModelTester tester(props, QAbstractItemModelTester::FailureReportingMode::QtTest);
    const auto& op = ops[std::size_t(conv)];
    QCOMPARE(propertyValue(*props, QStringLiteral("type")), QStringLiteral("Conv"));
    QCOMPARE(propertyValue(*props, QStringLiteral("name")), qs(op.name));
    QCOMPARE(propertyValue(*props, QStringLiteral("input.0")), qs(op.inputs[0]));
    QCOMPARE(propertyValue(*props, QStringLiteral("input.1")), qs(op.inputs[1]));
    QVERIFY(props->rowForKey(QStringLiteral("input.1.stats")) >= 0);  // weights are constant
    QCOMPARE(window.propertiesPanel()->histogramTensor(), qs(op.inputs[1]));
    QCOMPARE(propertyValue(*props, QStringLiteral("output.0")), qs(op.outputs[0]));
    for (const auto& [name, value] : op.attributes) {
      QVERIFY(props->rowForKey(QStringLiteral("attr.") + qs(name)) >= 0);
    }
    saveScreenshot(window, QStringLiteral("op_selected.png"));

    // A consumer row jumps to that op.
    const int row = props->rowForKey(QStringLiteral("output.0.consumer.0"));
    QVERIFY(row >= 0);
    const int consumer = props->index(row, 1).data(ec::widgets::TargetOpRole).toInt();
    auto* tree = window.propertiesPanel()->findChild<QTreeView*>(QStringLiteral("propertiesView"));
    QVERIFY(tree);
    tree->scrollTo(props->index(row, 1));
    const QRect cell = tree->visualRect(props->index(row, 1));
    QVERIFY(tree->viewport()->rect().contains(cell.center()));
    QTest::mouseClick(tree->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(view->selectedOp(), consumer);
    QCOMPARE(props->op(), consumer);
  }

  void searchMovesTheSelection() {
    if (!QFileInfo::exists(QStringLiteral(EC_SAMPLE_MODEL))) QSKIP("sample model not built");
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSample(window));
    ec::widgets::SearchBar* bar = window.searchBar();
    QVERIFY(bar->isHidden());
    QTest::keyClick(&window, Qt::Key_F, Qt::ControlModifier);
    QVERIFY(bar->isVisible());
    const std::vector<int> convs = ec::widgets::findOps(*window.graph(), QStringLiteral("conv"));
    QVERIFY(convs.size() >= 2);
    bar->setText(QStringLiteral("conv"));
    QCOMPARE(bar->matches(), convs);
    QCOMPARE(window.graphView()->selectedOp(), convs[0]);
    QCOMPARE(window.propertiesPanel()->model()->op(), convs[0]);
    bar->findNext();
    QCOMPARE(window.graphView()->selectedOp(), convs[1]);
    QVERIFY(window.graphView()->waitForLayout());
    QVERIFY(!window.graphView()->opRect(convs[1]).isNull());  // its group was expanded
    bar->findPrevious();
    bar->findPrevious();  // wraps to the last match
    QCOMPARE(window.graphView()->selectedOp(), convs.back());
    QTest::keyClick(&window, Qt::Key_F3);
    QCOMPARE(window.graphView()->selectedOp(), convs[0]);
    bar->setText(QStringLiteral("no-such-op"));
    QVERIFY(bar->matches().empty());
  }

  // --- LogModel and LogSink ----------------------------------------------
  void logModelPassesModelTester() {
    LogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setMaxEntries(3);
    for (int i = 0; i < 5; ++i) {
      model.append(LogEntry{QDateTime::currentDateTime(), LogLevel::Info, QString(),
                            QStringLiteral("line %1").arg(i)});
    }
    QCOMPARE(model.rowCount(), 3);  // oldest dropped
    QCOMPARE(model.index(0, LogModel::Message).data().toString(), QStringLiteral("line 2"));
    model.append(LogEntry{QDateTime::currentDateTime(), LogLevel::Error, QStringLiteral("core"),
                          QStringLiteral("boom")});
    QCOMPARE(model.index(2, LogModel::Message).data().toString(), QStringLiteral("[core] boom"));
    QCOMPARE(model.index(2, LogModel::Level).data().toString(), QStringLiteral("Error"));
    model.setMaxEntries(1);
    QCOMPARE(model.rowCount(), 1);
    model.clear();
    QCOMPARE(model.rowCount(), 0);
  }

  void logSinkDeliversFromOtherThreads() {
    LogModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    auto sink = ec::widgets::LogSink::connectedTo(&model);
    auto logger = std::make_shared<spdlog::logger>("worker", sink);
    logger->set_level(spdlog::level::trace);
    constexpr int kThreads = 4, kPerThread = 50;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&logger, t] {
        for (int i = 0; i < kPerThread; ++i) logger->warn("thread {} message {}", t, i);
      });
    }
    for (auto& th : threads) th.join();
    QCOMPARE(model.rowCount(), 0);  // queued: nothing arrives before the event loop runs
    QTRY_COMPARE(model.rowCount(), kThreads * kPerThread);
    QCOMPARE(model.entry(0).level, LogLevel::Warning);
    QCOMPARE(model.entry(0).logger, QStringLiteral("worker"));
    QVERIFY(model.entry(0).message.startsWith(QLatin1String("thread ")));
  }

  void logSinkOutlivesModel() {
    auto sink = std::shared_ptr<ec::widgets::LogSink>();
    {
      LogModel model;
      sink = ec::widgets::LogSink::connectedTo(&model);
    }
    spdlog::logger logger("late", sink);
    logger.info("nobody listens");  // must not crash
    QCoreApplication::processEvents();
  }

  // --- MainWindow ----------------------------------------------------------
  void mainWindowShowsModelSummary() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built (target sample_model)");
    const ec::report::ModelSummary expected =
        ec::report::summarize(ec::frontends::open_model(path.toStdString()), path.toStdString());

    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openFile(path);
    QVERIFY(window.isLoading());
    QVERIFY(shown.wait(kLoadTimeoutMs));
    QCOMPARE(failed.count(), 0);
    QVERIFY(!window.isLoading());

    const ModelSummaryModel* model = window.summaryModel();
    QVERIFY(model);
    QAbstractItemModelTester tester(const_cast<ModelSummaryModel*>(model),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(valueOf(*model, QStringLiteral("format")), qs(expected.format));
    QCOMPARE(valueOf(*model, QStringLiteral("op_count")), QString::number(expected.op_count));
    QCOMPARE(model->index(model->rowForKey(QStringLiteral("parameter_count")), 1)
                 .data(ec::widgets::SortRole)
                 .toLongLong(),
             qlonglong(expected.parameter_count));
    QCOMPARE(model->index(model->rowForKey(QStringLiteral("macs")), 1)
                 .data(ec::widgets::SortRole)
                 .toLongLong(),
             qlonglong(expected.macs));
    for (std::size_t i = 0; i < expected.inputs.size(); ++i) {
      const QString key = QStringLiteral("input.") + QString::number(i);
      QCOMPARE(propertyOf(*model, key), qs(expected.inputs[i].name));
      QCOMPARE(valueOf(*model, key), qs(expected.inputs[i].dtype) + QLatin1Char(' ') +
                                         qs(expected.inputs[i].shape.to_string()));
    }
    for (const auto& [type, count] : expected.ops_by_type) {
      QCOMPARE(valueOf(*model, QStringLiteral("ops.") + qs(type)), QString::number(count));
    }
    QVERIFY(window.graph());
    QCOMPARE(qint64(window.graph()->ops.size()), qint64(expected.op_count));
    QVERIFY(window.messageBar()->isHidden());
    QVERIFY(window.windowTitle().contains(QFileInfo(path).fileName()));
    QCOMPARE(window.recentFiles(), QStringList{QFileInfo(path).absoluteFilePath()});
    // Recent files live in the QSettings passed in, so a new window sees them.
    MainWindow second(*settings_);
    QCOMPARE(second.recentFiles(), QStringList{QFileInfo(path).absoluteFilePath()});
  }

  void mainWindowShowsCoreErrorForBrokenFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("broken.onnx"));
    {
      QFile f(path);
      QVERIFY(f.open(QIODevice::WriteOnly));
      QRandomGenerator rng(1234);
      QByteArray bytes(4096, Qt::Uninitialized);
      for (char& c : bytes) c = char(rng.bounded(256));
      f.write(bytes);
    }
    const QString expected = coreErrorFor(path);
    QVERIFY2(!expected.isEmpty(), "the core opened random bytes");

    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.messageBar()->isHidden());
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    window.openFile(path);
    QVERIFY(failed.wait(kLoadTimeoutMs));
    QCOMPARE(failed.first().first().toString(), expected);
    QVERIFY(window.messageBar()->isVisible());
    QCOMPARE(window.messageBar()->text(), expected);
    saveScreenshot(window, QStringLiteral("broken_file.png"));
    QVERIFY(!expected.contains(QLatin1Char('\n')));  // one line
    QVERIFY(window.recentFiles().isEmpty());         // failures are not remembered
  }

  void mainWindowReportsMissingFile() {
    MainWindow window(*settings_);
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    const QString path = settingsDir_->filePath(QStringLiteral("does-not-exist.onnx"));
    window.openFile(path);
    QVERIFY(failed.wait(kLoadTimeoutMs));
    QCOMPARE(window.messageBar()->text(), coreErrorFor(path));
  }

  void cancelIgnoresTheRunningLoad() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built (target sample_model)");
    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(path);
    window.cancelLoad();
    QVERIFY(!window.isLoading());
    // The loader runs requests in order, so once the second load is shown the
    // first (cancelled) result has already arrived and been ignored.
    window.openFile(path);
    QVERIFY(shown.wait(kLoadTimeoutMs));
    QTest::qWait(50);
    QCOMPARE(shown.count(), 1);
  }

  void viewMenuTogglesDocksAndSavesLanguage() {
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* summaryDock = window.findChild<QDockWidget*>(QStringLiteral("summaryDock"));
    auto* logDock = window.findChild<QDockWidget*>(QStringLiteral("logDock"));
    QVERIFY(summaryDock && logDock);
    for (const char* name : {"propertiesDock", "operationsDock"}) {
      QVERIFY(window.findChild<QDockWidget*>(QLatin1String(name)));
    }
    QVERIFY(summaryDock->isVisible());
    summaryDock->toggleViewAction()->trigger();
    QVERIFY(!summaryDock->isVisible());

    QSignalSpy chosen(&window, &MainWindow::languageChosen);
    QAction* deutsch = nullptr;
    for (QAction* a : window.findChildren<QAction*>()) {
      if (a->data().toString() == QLatin1String("de")) deutsch = a;
    }
    QVERIFY(deutsch);
    deutsch->trigger();
    QCOMPARE(chosen.count(), 1);
    QCOMPARE(settings_->value(QStringLiteral("ui/language")).toString(), QStringLiteral("de"));
    switchLanguage(window, "en");
  }

  void languageSwitchesLive() {
    QVERIFY(QFile::exists(QStringLiteral(":/i18n/edgecompiler_de.qm")));
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* file = window.findChild<QMenu*>(QStringLiteral("fileMenu"));
    auto* propertiesDock = window.findChild<QDockWidget*>(QStringLiteral("propertiesDock"));
    QVERIFY(file && propertiesDock);
    QCOMPARE(file->title(), QStringLiteral("&File"));
    QCOMPARE(propertiesDock->windowTitle(), QStringLiteral("Properties"));
    auto* searchField = window.findChild<QLineEdit*>(QStringLiteral("searchField"));
    QVERIFY(searchField);
    const QString englishPlaceholder = searchField->placeholderText();
    // The summary's rows are built from tr() texts too: they follow the switch.
    const bool sample = QFileInfo::exists(QStringLiteral(EC_SAMPLE_MODEL));
    auto* summary = window.findChild<ec::widgets::SummaryPanel*>();
    QVERIFY(summary);
    auto summaryLabel = [summary](const char* key) {
      const auto* m = summary->model();
      const int row = m ? m->rowForKey(QString::fromLatin1(key)) : -1;
      return row < 0 ? QString() : m->index(row, ec::widgets::ModelSummaryModel::Property).data().toString();
    };
    if (sample) {
      QVERIFY(openSample(window));
      QCOMPARE(summaryLabel("path"), QStringLiteral("File"));
    }

    switchLanguage(window, "de");
    // QEvent::LanguageChange is posted: every widget retranslates when it arrives.
    QTRY_COMPARE(file->title(), QStringLiteral("&Datei"));
    QCOMPARE(propertiesDock->windowTitle(), QStringLiteral("Eigenschaften"));
    QVERIFY(searchField->placeholderText() != englishPlaceholder);
    if (sample) QTRY_COMPARE(summaryLabel("path"), QStringLiteral("Datei"));
    saveScreenshot(window, QStringLiteral("language_de.png"));

    switchLanguage(window, "en");
    QTRY_COMPARE(file->title(), QStringLiteral("&File"));
    QCOMPARE(propertiesDock->windowTitle(), QStringLiteral("Properties"));
    QCOMPARE(searchField->placeholderText(), englishPlaceholder);
    if (sample) QTRY_COMPARE(summaryLabel("path"), QStringLiteral("File"));
  }

  void droppingAFileOpensIt() {
    const QString path = QStringLiteral(EC_SAMPLE_MODEL);
    if (!QFileInfo::exists(path)) QSKIP("sample model not built (target sample_model)");
    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(path)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(shown.wait(kLoadTimeoutMs));
    QCOMPARE(shown.first().first().toString(), QFileInfo(path).absoluteFilePath());
  }

 private:
  std::unique_ptr<QTemporaryDir> settingsDir_;
  std::unique_ptr<QSettings> settings_;
};

QTEST_MAIN(WidgetTests)
#include "tst_widgets.moc"
