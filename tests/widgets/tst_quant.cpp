// Tests of the Quantisation panel (widgets/quant) against QuantReports built
// here, and of the workbench's quantisation (Tools › Quantise…) on the sample model.
// Every item model is checked by QAbstractItemModelTester.
#include <cmath>
#include <fstream>
#include <memory>

#include <QAbstractItemModelTester>
#include <QDockWidget>
#include <QEvent>
#include <QImage>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTabWidget>
#include <QTreeView>

#include "app/workbench/MainWindow.h"
#include "app/workbench/QuantRunner.h"
#include "core/ir/graph.h"
#include "core/ir/text_format.h"
#include "core/util/npy.h"
#include "core/quantize/quant_report.h"
#include "widgets/GraphView.h"
#include "widgets/ItemRoles.h"
#include "widgets/quant/ChannelHeatmap.h"
#include "widgets/quant/QuantFormat.h"
#include "widgets/quant/QuantLayerModel.h"
#include "widgets/quant/QuantPanel.h"
#include "widgets/quant/QuantTensorModel.h"
#include "widgets/quant/SqnrChart.h"
#include "widgets/quant/TensorHistogram.h"

using ec::widgets::ChannelHeatmap;
using ec::widgets::QuantLayerModel;
using ec::widgets::QuantPanel;
using ec::widgets::QuantReportPtr;
using ec::widgets::QuantTensorModel;
using ec::workbench::MainWindow;

namespace {

constexpr int kTimeoutMs = 120000;

ec::quantize::TensorReport tensor(const std::string& name, const std::string& producer, float lo,
                                  float hi, double sqnr) {
  ec::quantize::TensorReport t;
  t.tensor = name;
  t.producer = producer;
  t.float_min = lo;
  t.float_max = hi;
  t.range_min = lo * 0.9f;
  t.range_max = hi * 0.9f;
  t.params.scales = {(t.range_max - t.range_min) / 255.0f};
  t.params.zero_points = {-128};
  t.clip_fraction = 0.002;
  t.sqnr_db = sqnr;
  t.hist_min = lo;
  t.hist_max = hi;
  t.histogram = {1, 4, 20, 80, 200, 80, 20, 4, 1, 0};
  return t;
}

ec::quantize::LayerReport layer(const std::string& op, const std::string& type, int channels,
                                double base, double output) {
  ec::quantize::LayerReport l;
  l.op = op;
  l.op_type = type;
  l.weight = op + ".weight";
  for (int c = 0; c < channels; ++c) {
    l.channel_sqnr_db.push_back(base + c);
    l.channel_max_abs_error.push_back(0.01f * float(c + 1));
  }
  l.weight_sqnr_db = base + 2;
  l.output_sqnr_db = output;
  return l;
}

/// conv1 (4 channels) -> relu -> conv2 (8 channels) -> softmax (float) -> fc (3 channels).
QuantReportPtr makeReport() {
  auto r = std::make_shared<ec::quantize::QuantReport>();
  r->strategy = "ptq";
  r->calibration_samples = 32;
  r->calibration_seconds = 0.5;
  r->tensors = {tensor("x_q", "", -1, 1, 45), tensor("c1", "conv1", -2, 6, 38),
                tensor("r1", "relu1", 0, 6, 37), tensor("c2", "conv2", -5, 9, 29.5),
                tensor("y", "fc", -3, 3, 21)};
  r->layers = {layer("conv1", "Conv", 4, 30, 38), layer("conv2", "Conv", 8, 20, 29.5),
               layer("fc", "FullyConnected", 3, 40, 21)};
  r->layers[1].sensitivity_gain_db = 4.5;
  r->float_ops = {{"softmax", "Softmax", "no int8 kernel"}};
  r->outputs = {{"y", 21.0, 0.05f, 0.97}};
  r->warnings = {"tensor c2 has a wide range"};
  return r;
}

/// A float graph with the report's ops (no tensors needed for the views).
ec::ir::FrozenGraph makeGraph() {
  ec::ir::Graph g;
  g.name = "quant";
  auto add = [&g](const std::string& name, const std::string& type, const std::string& in,
                  const std::string& out) {
    ec::ir::Operation op;
    op.name = name;
    op.op_type = type;
    op.inputs = {in};
    op.outputs = {out};
    g.ops.push_back(op);
  };
  add("conv1", "Conv", "x", "c1");
  add("relu1", "Relu", "c1", "r1");
  add("conv2", "Conv", "r1", "c2");
  add("softmax", "Softmax", "c2", "s");
  add("fc", "FullyConnected", "s", "y");
  return ec::ir::freeze(std::move(g));
}

int rowWithKey(const QAbstractItemModel& model, const QString& key) {
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.index(r, 0).data(ec::widgets::KeyRole).toString() == key) return r;
  }
  return -1;
}

}  // namespace

class QuantTests : public QObject {
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

  // --- models ---------------------------------------------------------------
  void layerModelRowsFromReport() {
    QuantLayerModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setReport(makeReport(), makeGraph());
    // Three layers and the float op, in graph order.
    QCOMPARE(model.rowCount(), 4);
    QCOMPARE(model.opAt(0), QStringLiteral("conv1"));
    QCOMPARE(model.opAt(1), QStringLiteral("conv2"));
    QCOMPARE(model.opAt(2), QStringLiteral("softmax"));
    QCOMPARE(model.opAt(3), QStringLiteral("fc"));
    const int conv2 = model.rowForOp(QStringLiteral("conv2"));
    QCOMPARE(model.index(conv2, QuantLayerModel::Type).data().toString(), QStringLiteral("Conv"));
    QCOMPARE(model.index(conv2, QuantLayerModel::OutputSqnr).data().toString(), QStringLiteral("29.5 dB"));
    QCOMPARE(model.index(conv2, QuantLayerModel::WeightSqnr).data().toString(), QStringLiteral("22.0 dB"));
    QCOMPARE(model.index(conv2, QuantLayerModel::WorstChannel).data().toString(),
             QStringLiteral("20.0 dB (#0)"));
    QCOMPARE(model.index(conv2, QuantLayerModel::Channels).data().toInt(), 8);
    QCOMPARE(model.index(conv2, QuantLayerModel::Sensitivity).data().toString(), QStringLiteral("4.5 dB"));
    QCOMPARE(model.index(conv2, QuantLayerModel::OutputSqnr).data(ec::widgets::SortRole).toDouble(), 29.5);
    QCOMPARE(model.index(conv2, 0).data(ec::widgets::KeyRole).toString(), QStringLiteral("conv2"));
    QCOMPARE(model.index(conv2, 0).data(ec::widgets::TargetOpRole).toInt(), 2);
    QCOMPARE(model.index(conv2, QuantLayerModel::KeepFloat).data(Qt::CheckStateRole).toInt(),
             int(Qt::Unchecked));
    const int softmax = model.rowForOp(QStringLiteral("softmax"));
    QVERIFY(model.index(softmax, QuantLayerModel::Status).data().toString().contains(
        QStringLiteral("no int8 kernel")));
    // Not the user's choice: nothing to toggle.
    QVERIFY(!(model.flags(model.index(softmax, QuantLayerModel::KeepFloat)) & Qt::ItemIsUserCheckable));
    QVERIFY(!model.index(softmax, QuantLayerModel::KeepFloat).data(Qt::CheckStateRole).isValid());
    model.setReport(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void tensorModelRowsFromReport() {
    QuantTensorModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(makeReport(), makeGraph());
    QCOMPARE(model.rowCount(), 5);
    const int c2 = model.rowForTensor(QStringLiteral("c2"));
    QCOMPARE(c2, 3);
    QCOMPARE(model.rowForProducer(QStringLiteral("conv2")), 3);
    QCOMPARE(model.index(c2, QuantTensorModel::Producer).data().toString(), QStringLiteral("conv2"));
    QCOMPARE(model.index(c2, QuantTensorModel::FloatRange).data().toString(), QStringLiteral("[-5, 9]"));
    QCOMPARE(model.index(c2, QuantTensorModel::ClipRange).data().toString(), QStringLiteral("[-4.5, 8.1]"));
    QCOMPARE(model.index(c2, QuantTensorModel::ZeroPoint).data().toLongLong(), -128);
    QCOMPARE(model.index(c2, QuantTensorModel::Sqnr).data().toString(), QStringLiteral("29.5 dB"));
    QCOMPARE(model.index(c2, 0).data(ec::widgets::TensorNameRole).toString(), QStringLiteral("c2"));
    QCOMPARE(model.index(c2, 0).data(ec::widgets::TargetOpRole).toInt(), 2);
    QCOMPARE(rowWithKey(model, QStringLiteral("y")), 4);
    // The graph input has no producer and links nowhere.
    QVERIFY(!model.index(0, 0).data(ec::widgets::TargetOpRole).isValid());
  }

  void keepFloatTogglesReachTheOptions() {
    QuantPanel panel;
    panel.setReport(makeReport(), makeGraph());
    QuantLayerModel* model = panel.layerModel();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy changed(model, &QuantLayerModel::keepFloatChanged);
    const QModelIndex conv2 = model->index(model->rowForOp(QStringLiteral("conv2")), QuantLayerModel::KeepFloat);
    QVERIFY(model->flags(conv2) & Qt::ItemIsUserCheckable);
    QVERIFY(model->setData(conv2, Qt::Checked, Qt::CheckStateRole));
    QCOMPARE(changed.count(), 1);
    QCOMPARE(conv2.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    auto options = panel.options();
    QCOMPARE(options.keep_float.size(), std::size_t(1));
    QCOMPARE(options.keep_float.front(), std::string("conv2"));
    QCOMPARE(options.num_calibration_samples, QuantPanel::kRandomSamples);
    // A re-quantised report (conv2 now in float) keeps the mark, and it can be undone.
    auto next = std::make_shared<ec::quantize::QuantReport>(*makeReport());
    next->layers.erase(next->layers.begin() + 1);
    next->float_ops.push_back({"conv2", "Conv", "--keep-float"});
    panel.setReport(next, makeGraph());
    const QModelIndex kept = model->index(model->rowForOp(QStringLiteral("conv2")), QuantLayerModel::KeepFloat);
    QVERIFY(kept.isValid());
    QCOMPARE(kept.data(Qt::CheckStateRole).toInt(), int(Qt::Checked));
    QVERIFY(model->setData(kept, Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(panel.options().keep_float.empty());
    // Clicking the check box in the view toggles it too.
    QTreeView* view = panel.layerView();
    panel.resize(1000, 400);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const QModelIndex fc = model->index(model->rowForOp(QStringLiteral("fc")), QuantLayerModel::KeepFloat);
    view->scrollTo(fc);
    const QRect cell = view->visualRect(fc);
    QVERIFY(cell.isValid());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(cell.left() + 10, cell.center().y()));
    QCOMPARE(panel.keepFloat(), QStringList{QStringLiteral("fc")});
    QCOMPARE(panel.options().keep_float, std::vector<std::string>{"fc"});
  }

  // --- heatmap, chart, histogram ---------------------------------------------
  void heatmapCellLookup() {
    ChannelHeatmap heatmap;
    heatmap.resize(500, 240);
    heatmap.setReport(makeReport());
    QCOMPARE(heatmap.rowCount(), 3);
    QCOMPARE(heatmap.channelCount(1), 8);
    QCOMPARE(heatmap.rowOp(1), QStringLiteral("conv2"));
    QCOMPARE(heatmap.scaleMin(), 20.0);  // conv2 channel 0
    QCOMPARE(heatmap.scaleMax(), 42.0);  // fc channel 2
    const QImage image = heatmap.grab().toImage();
    for (int row = 0; row < heatmap.rowCount(); ++row) {
      for (int c = 0; c < heatmap.channelCount(row); ++c) {
        const QRect r = heatmap.cellRect(row, c);
        QVERIFY2(heatmap.plotRect().contains(r), qPrintable(QStringLiteral("row %1 channel %2").arg(row).arg(c)));
        const ChannelHeatmap::Cell cell = heatmap.cellAt(r.center());
        QCOMPARE(cell.row, row);
        QCOMPARE(cell.channel, c);
        QCOMPARE(cell.value, makeReport()->layers[std::size_t(row)].channel_sqnr_db[std::size_t(c)]);
        // The pixel in the middle of the cell has the cell's colour.
        const QColor painted = image.pixelColor(r.center() * image.devicePixelRatio());
        const QColor expected = heatmap.colorFor(cell.value);
        QVERIFY2(std::abs(painted.red() - expected.red()) <= 2 &&
                     std::abs(painted.green() - expected.green()) <= 2 &&
                     std::abs(painted.blue() - expected.blue()) <= 2,
                 qPrintable(QStringLiteral("row %1 channel %2: %3 vs %4")
                                .arg(row).arg(c).arg(painted.name(), expected.name())));
      }
    }
    QVERIFY(!heatmap.cellAt(QPoint(1, 1)).valid());
    // Worse is darker on both metrics.
    QVERIFY(heatmap.colorFor(20).lightness() < heatmap.colorFor(42).lightness());
    heatmap.setMetric(ChannelHeatmap::Metric::MaxAbsError);
    QCOMPARE(heatmap.value(1, 7), double(0.08f));
    QVERIFY(heatmap.colorFor(0.08).lightness() < heatmap.colorFor(0.01).lightness());
  }

  void clickingABarSelectsTheLayerEverywhere() {
    QuantPanel panel;
    panel.resize(1100, 420);
    panel.setReport(makeReport(), makeGraph());
    QSignalSpy activated(&panel, &QuantPanel::opActivated);
    QCOMPARE(panel.chart()->barCount(), 3);
    QCOMPARE(panel.chart()->barOp(1), QStringLiteral("conv2"));
    QCOMPARE(panel.chart()->barValue(1), 29.5);
    panel.chart()->clickBar(1);
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toString(), QStringLiteral("conv2"));
    QCOMPARE(panel.selectedOp(), QStringLiteral("conv2"));
    QCOMPARE(panel.layerView()->currentIndex().row(), panel.layerModel()->rowForOp(QStringLiteral("conv2")));
    QCOMPARE(panel.heatmap()->selectedRow(), 1);
    QCOMPARE(panel.histogram()->tensor(), QStringLiteral("c2"));
    QCOMPARE(activated.count(), 0);  // selecting the other views did not echo
  }

  void clickingAHeatmapRowSelectsTheLayer() {
    QuantPanel panel;
    panel.resize(1100, 420);
    panel.setReport(makeReport(), makeGraph());
    panel.tabs()->setCurrentIndex(1);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy activated(&panel, &QuantPanel::opActivated);
    ChannelHeatmap* heatmap = panel.heatmap();
    QTest::mouseClick(heatmap, Qt::LeftButton, {}, heatmap->cellRect(2, 1).center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toString(), QStringLiteral("fc"));
    QCOMPARE(panel.chart()->selectedBar(), 2);
    QCOMPARE(heatmap->selectedRow(), 2);
  }

  void clickingATableRowSelectsTheLayer() {
    QuantPanel panel;
    panel.resize(1100, 420);
    panel.setReport(makeReport(), makeGraph());
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy activated(&panel, &QuantPanel::opActivated);
    QTreeView* view = panel.layerView();
    const QModelIndex conv1 = panel.layerModel()->index(0, QuantLayerModel::Op);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(conv1).center());
    QVERIFY(activated.count() >= 1);
    QCOMPARE(activated.last().at(0).toString(), QStringLiteral("conv1"));
    QCOMPARE(panel.chart()->selectedBar(), 0);
    // A tensor row selects its producer.
    activated.clear();
    panel.tabs()->setCurrentIndex(2);
    panel.tensorView()->setCurrentIndex(panel.tensorModel()->index(4, 0));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.takeFirst().at(0).toString(), QStringLiteral("fc"));
    QCOMPARE(panel.histogram()->tensor(), QStringLiteral("y"));
  }

  void selectOpFromOutsideHighlightsWithoutEcho() {
    QuantPanel panel;
    panel.setReport(makeReport(), makeGraph());
    QSignalSpy activated(&panel, &QuantPanel::opActivated);
    panel.selectOp(QStringLiteral("fc"));
    QCOMPARE(panel.chart()->selectedBar(), 2);
    QCOMPARE(panel.heatmap()->selectedRow(), 2);
    QCOMPARE(panel.layerView()->currentIndex().row(), panel.layerModel()->rowForOp(QStringLiteral("fc")));
    QCOMPARE(panel.histogram()->tensor(), QStringLiteral("y"));
    // An op with no layer (relu1) clears the layer highlight but shows its tensor.
    panel.selectOp(QStringLiteral("relu1"));
    QCOMPARE(panel.chart()->selectedBar(), -1);
    QCOMPARE(panel.heatmap()->selectedRow(), -1);
    QCOMPARE(panel.histogram()->tensor(), QStringLiteral("r1"));
    QCOMPARE(activated.count(), 0);
  }

  void histogramMarksTheClipRange() {
    ec::widgets::TensorHistogram histogram;
    histogram.resize(400, 220);
    histogram.setReport(makeReport());
    histogram.setTensor(QStringLiteral("c2"));
    QVERIFY(histogram.tensorReport());
    // The axis spans the observed values and the clipping range.
    QVERIFY(histogram.axisMin() <= -5 && histogram.axisMax() >= 9);
    const double x0 = histogram.xForValue(-4.5), x1 = histogram.xForValue(8.1);
    QVERIFY(histogram.plotRect().left() < x0 && x0 < x1 && x1 < histogram.plotRect().right());
    const QRect plot = histogram.plotRect();
    QCOMPARE(histogram.binAt(QPoint(int(histogram.xForValue(-4.9)), plot.center().y())), 0);
    QCOMPARE(histogram.binAt(QPoint(int(histogram.xForValue(8.9)), plot.center().y())), 9);
    // The clip lines are drawn in the clip colour.
    const QImage image = histogram.grab().toImage();
    const QColor line = image.pixelColor(QPoint(int(std::lround(x0)), plot.top() + 2));
    QVERIFY2(line.red() > 150 && line.green() < 120, qPrintable(line.name()));
    histogram.setTensor(QStringLiteral("nope"));
    QVERIFY(!histogram.tensorReport());
  }

  void graphValuesFollowTheReport() {
    const auto report = makeReport();
    const auto graph = makeGraph();
    const std::vector<double> values = ec::widgets::opSqnrValues(*report, *graph);
    QCOMPARE(values.size(), std::size_t(5));
    QCOMPARE(values[0], 38.0);
    QCOMPARE(values[1], 37.0);
    QCOMPARE(values[2], 29.5);
    QVERIFY(std::isnan(values[3]));  // softmax: in float, no tensor report
    QCOMPARE(values[4], 21.0);
    QCOMPARE(ec::widgets::formatDb(std::numeric_limits<double>::infinity()), QStringLiteral("∞ dB"));
  }

  void panelRetranslatesOnLanguageChange() {
    QuantPanel panel;
    QSignalSpy retranslated(&panel, &QuantPanel::retranslated);
    QEvent change(QEvent::LanguageChange);
    QCoreApplication::sendEvent(&panel, &change);
    QCOMPARE(retranslated.count(), 1);
    QVERIFY(!panel.requantizeButton()->text().isEmpty());
    QVERIFY(panel.calibrationLabel()->text().contains(QString::number(QuantPanel::kRandomSamples)));
    panel.setCalibrationFile(QStringLiteral("/data/calib.npy"));
    QVERIFY(panel.calibrationLabel()->text().contains(QStringLiteral("calib.npy")));
  }

  // --- the workbench --------------------------------------------------------
  void windowQuantisesAndSharesTheSelection() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout());

    QSignalSpy quantized(&window, &MainWindow::quantized);
    QSignalSpy failed(&window, &MainWindow::quantizeFailed);
    window.quantize();
    QVERIFY(window.isQuantizing());
    QVERIFY(window.quantPanel()->isRunning());
    QVERIFY2(quantized.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    QuantPanel* panel = window.quantPanel();
    QVERIFY(panel->report());
    QVERIFY(!panel->isRunning());
    QVERIFY(panel->summaryLabel()->text().contains(QStringLiteral("32")));
    QVERIFY(panel->layerModel()->rowCount() > 0);
    QAbstractItemModelTester layers(panel->layerModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester tensors(panel->tensorModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window.graphView()->hasOpValues());
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("quantDock"));
    QVERIFY(dock && dock->isVisible());

    // For reviewing the UI: each tab of the panel (EC_TEST_SCREENSHOT_DIR).
    if (const QString dir = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
      for (int tab = 0; tab < panel->tabs()->count(); ++tab) {
        panel->tabs()->setCurrentIndex(tab);
        QTest::qWait(50);
        window.grab().save(dir + QStringLiteral("/quant_tab%1.png").arg(tab));
      }
      panel->tabs()->setCurrentIndex(0);
    }

    // A bar selects its op in the graph.
    QVERIFY(panel->chart()->barCount() > 0);
    panel->chart()->clickBar(0);
    const int op = window.graphView()->selectedOp();
    QVERIFY(op >= 0);
    QCOMPARE(QString::fromStdString(window.graphView()->graph()->ops[std::size_t(op)].name),
             panel->chart()->barOp(0));
    // Selecting an op in the graph highlights it in the panel.
    const QString last = panel->chart()->barOp(panel->chart()->barCount() - 1);
    for (std::size_t i = 0; i < window.graphView()->graph()->ops.size(); ++i) {
      if (QString::fromStdString(window.graphView()->graph()->ops[i].name) == last) {
        window.graphView()->selectOp(int(i));
        break;
      }
    }
    QCOMPARE(panel->selectedOp(), last);
    QCOMPARE(panel->chart()->selectedBar(), panel->chart()->barCount() - 1);

    // Keep the first layer in float and re-quantise from the panel.
    const QString first = panel->chart()->barOp(0);
    panel->layerModel()->setKeepFloat(first, true);
    QTest::mouseClick(panel->requantizeButton(), Qt::LeftButton);
    QVERIFY(quantized.wait(kTimeoutMs));
    QVERIFY(panel->report()->find_layer(first.toStdString()) == nullptr);
    bool inFloat = false;
    for (const auto& f : panel->report()->float_ops) inFloat |= QString::fromStdString(f.op) == first;
    QVERIFY(inFloat);

    // The quantised graph can be shown instead, still coloured.
    panel->setGraphMode(QuantPanel::GraphMode::Quantised);
    QVERIFY(window.graphView()->graph() != nullptr);
    QVERIFY(window.graphView()->hasOpValues());
  }

  void calibrationFromANpyFile() {
    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    // (N, C, H, W) float32 for the sample model's one input, image f32[batch,3,64,64].
    const QString path = settingsDir_->filePath(QStringLiteral("calib.npy"));
    std::vector<float> values(4 * 3 * 64 * 64);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = float(i % 97) / 97.0f - 0.5f;
    ec::util::write_npy(path.toStdString(), ec::ir::DType::Float32, {4, 3, 64, 64}, values.data());
    QuantPanel* panel = window.quantPanel();
    panel->setCalibrationFile(path);
    QVERIFY(panel->calibrationLabel()->text().contains(QStringLiteral("calib.npy")));
    QSignalSpy quantized(&window, &MainWindow::quantized);
    QSignalSpy failed(&window, &MainWindow::quantizeFailed);
    window.quantize();
    QVERIFY2(quantized.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    QCOMPARE(panel->report()->calibration_samples, 4);
    QVERIFY2(panel->summaryLabel()->text().contains(QStringLiteral("calib.npy (4 sample")),
             qPrintable(panel->summaryLabel()->text()));

    // A file of the wrong shape: the core's one-line error, in the panel and the message bar.
    const QString bad = settingsDir_->filePath(QStringLiteral("bad.npy"));
    ec::util::write_npy(bad.toStdString(), ec::ir::DType::Float32, {2, 5}, values.data());
    panel->setCalibrationFile(bad);
    window.quantize();
    QVERIFY(failed.wait(kTimeoutMs));
    QVERIFY2(failed.first().at(0).toString().contains(QStringLiteral("bad.npy")),
             qPrintable(failed.first().at(0).toString()));
    QVERIFY(panel->summaryLabel()->text().contains(QStringLiteral("bad.npy")));
    QVERIFY(!window.isQuantizing());
  }

  // Issue 13 (5): a text model (int64 token ids into an embedding table) quantises
  // with random calibration data of the input's dtype, ids within the table's rows,
  // and the panel says where the samples came from.
  void integerInputsGetTokenIdCalibration() {
    ec::ir::Graph g;
    g.name = "tiny_text";
    auto tensor = [&](const std::string& name, ec::ir::DType dt, std::vector<std::int64_t> shape) -> ec::ir::Tensor& {
      ec::ir::Tensor t;
      t.name = name;
      t.dtype = dt;
      t.shape = ec::ir::Shape::of(shape);
      return g.add_tensor(t);
    };
    auto constant = [&](const std::string& name, std::vector<std::int64_t> shape, std::size_t n) {
      std::vector<float> v(n);
      for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(float(i) * 0.37f);
      tensor(name, ec::ir::DType::Float32, shape).data = ec::ir::ConstantData::copy_of(v.data(), n * sizeof(float));
    };
    auto op = [&](ec::ir::OpKind k, const std::string& name, std::vector<std::string> in, std::vector<std::string> out) {
      ec::ir::Operation o;
      o.kind = k;
      o.op_type = std::string(ec::ir::op_info(k).name);
      o.name = name;
      o.inputs = std::move(in);
      o.outputs = std::move(out);
      g.ops.push_back(o);
      return &g.ops.back();
    };
    tensor("tokens", ec::ir::DType::Int64, {1, 8});
    g.inputs = {"tokens"};
    constant("table", {50, 4}, 200);
    constant("w", {32, 3}, 96);
    constant("b", {3}, 3);
    op(ec::ir::OpKind::Gather, "embed", {"table", "tokens"}, {"e"});
    tensor("e", ec::ir::DType::Float32, {1, 8, 4});
    op(ec::ir::OpKind::Flatten, "flatten", {"e"}, {"f"})->attributes["axis"] = std::int64_t{1};
    tensor("f", ec::ir::DType::Float32, {1, 32});
    op(ec::ir::OpKind::Gemm, "fc", {"f", "w", "b"}, {"y"});
    tensor("y", ec::ir::DType::Float32, {1, 3});
    g.outputs = {"y"};
    const QString path = settingsDir_->filePath(QStringLiteral("tiny_text.eir"));
    {
      std::ofstream f(path.toStdString());
      f << ec::ir::print(g);
    }

    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(path);
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy quantized(&window, &MainWindow::quantized);
    QSignalSpy failed(&window, &MainWindow::quantizeFailed);
    window.quantize();
    QVERIFY2(quantized.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    QuantPanel* panel = window.quantPanel();
    QVERIFY(panel->report());
    QVERIFY(panel->report()->find_layer("fc") != nullptr);
    const QString summary = panel->summaryLabel()->text();
    QVERIFY2(summary.contains(QStringLiteral("token ids")) && summary.contains(QStringLiteral("[0, 50)")) &&
                 summary.contains(QStringLiteral("table")),
             qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("SQNR")) && !summary.contains(QStringLiteral("not measured")),
             qPrintable(summary));
  }

  void cancelStopsAQuantisation() {
    MainWindow window(*settings_);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy quantized(&window, &MainWindow::quantized);
    window.quantize();
    QVERIFY(window.isQuantizing());
    QTest::mouseClick(window.quantPanel()->cancelButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!window.isQuantizing(), kTimeoutMs);
    // Either it was cancelled, or it had already finished when Cancel arrived.
    QVERIFY(quantized.count() == 0 ? window.quantPanel()->summaryLabel()->text().contains(QStringLiteral("Cancelled"))
                                   : true);
  }

 private:
  std::unique_ptr<QTemporaryDir> settingsDir_;
  std::unique_ptr<QSettings> settings_;
};

QTEST_MAIN(QuantTests)
#include "tst_quant.moc"
