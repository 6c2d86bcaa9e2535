// Qt Test suite for the Partition and Backend Timeline panels (issue 15) and the
// workbench's Model › Compile for Target run (QT_QPA_PLATFORM=offscreen).
// Every item model is checked by QAbstractItemModelTester.
#include <memory>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QDockWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include "app/workbench/CompileRunner.h"
#include "app/workbench/MainWindow.h"
#include "widgets/GraphView.h"
#include "widgets/ItemRoles.h"
#include "widgets/compile/CompileModels.h"
#include "widgets/PropertiesModel.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/compile/CompilePanels.h"
#include "widgets/compile/TimelineChart.h"

using ec::widgets::CompileReportPtr;
using ec::widgets::PartitionOpModel;
using ec::widgets::PartitionPanel;
using ec::widgets::PartitionStatusModel;
using ec::widgets::TimelineModel;
using ec::widgets::TimelinePanel;
using ec::workbench::MainWindow;

namespace {
constexpr int kTimeoutMs = 120000;

CompileReportPtr makeReport() {
  using namespace ec::backends;
  CompileResult result;
  result.backend = "coral";
  result.partition.backend = "coral";
  result.partition.segments = 1;
  auto row = [](std::size_t i, const char* name, const char* type, Placement p, PlacementCause c,
                const char* status, const char* reason) {
    PartitionRow r;
    r.op_index = i;
    r.members = {i};
    r.name = name;
    r.op_type = type;
    r.target_op = type;
    r.placement = p;
    r.cause = c;
    r.status = status;
    r.reason = reason;
    r.segment = p == Placement::Target ? 0 : -1;
    return r;
  };
  result.partition.rows = {
      row(0, "conv", "CONV_2D", Placement::Target, PlacementCause::Supported, "Mapped to Edge TPU", ""),
      row(1, "erf", "ERF", Placement::Cpu, PlacementCause::Unsupported, "Operation not supported",
          "ERF is not in the Edge TPU op table"),
      row(2, "fc", "FULLY_CONNECTED", Placement::Cpu, PlacementCause::AfterUnsupported,
          "Operation not supported", "placed after the first unsupported op")};
  result.partition.rows[2].blocked_by = "erf";
  result.timeline = {{"conv", "target_compile", true, "mapped", 0.5},
                     {"erf", "target_compile", false, "ERF is not in the Edge TPU op table", 0.25},
                     {"erf", "cpu_eager", true, "runs on the CPU", 0.1},
                     {"fc", "cpu_eager", true, "after erf", 0.1}};
  return std::make_shared<const ec::report::CompileReport>(
      ec::report::make_compile_report("m.onnx", "coral", "asked for", "ptq", std::move(result)));
}
}  // namespace

class CompileTests : public QObject {
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

  void partitionOpModel() {
    PartitionOpModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setReport(makeReport());
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.columnCount(), int(PartitionOpModel::ColumnCount));
    QCOMPARE(model.rowForOp(QStringLiteral("erf")), 1);
    QCOMPARE(model.index(0, PartitionOpModel::Placement).data().toString(), QStringLiteral("TPU"));
    QCOMPARE(model.index(1, PartitionOpModel::Placement).data().toString(), QStringLiteral("CPU"));
    QVERIFY(model.index(2, PartitionOpModel::Placement).data().toString().contains(QStringLiteral("after")));
    QCOMPARE(model.index(1, PartitionOpModel::Reason).data(Qt::ToolTipRole).toString(),
             QStringLiteral("ERF is not in the Edge TPU op table"));
    QVERIFY(model.index(2, PartitionOpModel::Name).data(Qt::ToolTipRole).toString().contains(QStringLiteral("erf")));
    QCOMPARE(model.index(1, 0).data(ec::widgets::KeyRole).toString(), QStringLiteral("erf"));
    model.setReport({});
    QCOMPARE(model.rowCount(), 0);
  }

  void partitionStatusModel() {
    PartitionStatusModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(makeReport());
    QCOMPARE(model.rowCount(), int(makeReport()->status_table().size()));
    QVERIFY(model.rowCount() >= 2);
    int total = 0;
    for (int r = 0; r < model.rowCount(); ++r) total += model.index(r, PartitionStatusModel::Count).data().toInt();
    QCOMPARE(total, 3);
  }

  void timelineModelFiltersFailures() {
    TimelineModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setReport(makeReport());
    QCOMPARE(model.rowCount(), 4);
    QVERIFY(model.index(1, 0).data(Qt::BackgroundRole).isValid());  // the failed attempt
    QVERIFY(!model.index(0, 0).data(Qt::BackgroundRole).isValid());
    model.setFailuresOnly(true);
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.unitAt(0), QStringLiteral("erf"));
    QCOMPARE(model.index(0, TimelineModel::Ok).data().toString(), QStringLiteral("failed"));
    model.setFailuresOnly(false);
    QCOMPARE(model.rowCount(), 4);
  }

  void panelsShowTheReport() {
    PartitionPanel partition;
    QSignalSpy activated(&partition, &PartitionPanel::opActivated);
    partition.setReport(makeReport());
    QVERIFY(partition.summaryText().contains(QStringLiteral("coral")));
    partition.opView()->setCurrentIndex(partition.opModel()->index(1, 0));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).toString(), QStringLiteral("erf"));
    partition.selectOp(QStringLiteral("fc"));  // no signal
    QCOMPARE(activated.count(), 1);
    QCOMPARE(partition.opView()->currentIndex().row(), 2);

    TimelinePanel timeline;
    timeline.setReport(makeReport());
    QCOMPARE(timeline.model()->rowCount(), 4);
    timeline.failuresOnlyBox()->setChecked(true);
    QCOMPARE(timeline.model()->rowCount(), 1);
  }

  void timelineChartDrawsLanes() {
    ec::widgets::TimelineChart chart;
    chart.setReport(makeReport());
    QCOMPARE(int(chart.lanes().size()), 3);  // conv, erf, fc: one lane per unit, in order
    QCOMPARE(chart.lanes()[1].unit, QStringLiteral("erf"));
    QCOMPARE(int(chart.lanes()[1].attempts.size()), 2);  // target compile failed, then CPU eager
    // The failed attempt is drawn where the user can hover it.
    const ec::backends::TimelineEntry* failed = nullptr;
    for (int y = 0; y < chart.sizeHint().height() && !failed; y += 2) {
      for (int x = 0; x < chart.sizeHint().width() && !failed; x += 4) {
        const auto* e = chart.attemptAt({x, y});
        if (e && !e->ok) failed = e;
      }
    }
    QVERIFY(failed);
    QCOMPARE(QString::fromStdString(failed->reason), QStringLiteral("ERF is not in the Edge TPU op table"));
    QImage image(chart.sizeHint(), QImage::Format_ARGB32);
    chart.render(&image);
    chart.setFailuresOnly(true);
    QCOMPARE(int(chart.lanes().size()), 1);
    QSignalSpy activated(&chart, &ec::widgets::TimelineChart::unitActivated);
    QTest::mouseClick(&chart, Qt::LeftButton, {}, QPoint(10, 10));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().at(0).toString(), QStringLiteral("erf"));
  }

  void opensACompiledEdgeTpuFile() {
    // The file the real edgetpu_compiler wrote: its own split colours the graph.
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QString::fromUtf8(EC_EDGETPU_TESTDATA) + QStringLiteral("/deeplabv3_mnv2_dm05_pascal_quant_edgetpu.tflite"));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout());
    PartitionPanel* panel = window.partitionPanel();
    QVERIFY(panel->report());
    const auto& p = panel->report()->result.partition;
    QCOMPARE(p.segments, 1);
    QCOMPARE(p.ops_on_target(), 1);  // the one edgetpu-custom-op
    QVERIFY(p.ops_on_cpu() > 0);
    for (const auto& row : p.rows) {
      if (row.placement == ec::backends::Placement::Cpu) QVERIFY2(!row.reason.empty(), row.name.c_str());
    }
    QVERIFY(window.graphView()->hasOpHighlights());
    QVERIFY(panel->summaryText().contains(QStringLiteral("compiled file")));
  }

  void windowCompilesForCoral() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout());

    QSignalSpy compiled(&window, &MainWindow::compiled);
    QSignalSpy failed(&window, &MainWindow::compileFailed);
    window.compileFor(QStringLiteral("coral"));
    QVERIFY(window.isCompiling());
    QVERIFY2(compiled.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    QVERIFY(!window.isCompiling());
    PartitionPanel* panel = window.partitionPanel();
    QVERIFY(panel->report());
    QVERIFY(panel->opModel()->rowCount() > 0);
    QAbstractItemModelTester ops(panel->opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester status(panel->statusModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester timeline(window.timelinePanel()->model(),
                                      QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(window.timelinePanel()->model()->rowCount() > 0);
    QVERIFY(window.graphView()->hasOpHighlights());
    auto* dock = window.findChild<QDockWidget*>(QStringLiteral("partitionDock"));
    QVERIFY(dock && dock->isVisible());
    // For reviewing the UI: the Backend Timeline dock (EC_TEST_SCREENSHOT_DIR).
    if (const QString dir = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
      auto* timelineDock = window.findChild<QDockWidget*>(QStringLiteral("timelineDock"));
      QVERIFY(timelineDock);
      timelineDock->raise();
      QTest::qWait(50);
      window.grab().save(dir + QStringLiteral("/compile_timeline.png"));
      dock->raise();
    }

    // A row of the panel selects its op in the graph.
    const QString name = panel->opModel()->opAt(0);
    panel->opView()->setCurrentIndex(panel->opModel()->index(0, 0));
    const int selected = window.graphView()->selectedOp();
    QVERIFY(selected >= 0);
    QCOMPARE(QString::fromStdString(window.graphView()->graph()->ops[std::size_t(selected)].name), name);

    // The Properties panel shows the selected op's placement and reason...
    auto* props = window.propertiesPanel()->model();
    QTRY_VERIFY(props->op() == selected);
    const int heading = props->rowForKey(QStringLiteral("annotation"));
    QVERIFY(heading >= 0);
    QVERIFY(props->index(heading, 0).data().toString().contains(QStringLiteral("coral")));
    const QString placement = props->index(heading + 1, ec::widgets::PropertiesModel::Value).data().toString();
    QVERIFY2(placement == QStringLiteral("TPU") || placement.startsWith(QStringLiteral("CPU")), qPrintable(placement));
    // ...and hovering its box in the graph says the same.
    ec::widgets::GraphView* view = window.graphView();
    QVERIFY(view->waitForLayout());
    const QRectF box = view->opRect(selected);
    QVERIFY(!box.isNull());
    const QString tip = view->opToolTipAt(view->mapFromScene(box.center()));
    QVERIFY2(tip.startsWith(name) && tip.contains(placement), qPrintable(tip));
  }

  // Metal: the Partition panel shows the predicted compute unit per op, the
  // reason for every op off the Neural Engine, and the timeline the attempts.
  void windowCompilesForMetal() {
#ifndef EC_HAVE_METAL
    QSKIP("built without EC_BUILD_METAL");
#endif
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QSignalSpy compiled(&window, &MainWindow::compiled);
    QSignalSpy failed(&window, &MainWindow::compileFailed);
    window.compileFor(QStringLiteral("metal"), QStringLiteral("none"),
                      {QStringLiteral("fp32"), QStringLiteral("all"), QStringLiteral("iOS17")});
    QVERIFY2(compiled.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    PartitionPanel* panel = window.partitionPanel();
    QVERIFY(panel->report());
    QCOMPARE(panel->report()->backend, std::string("metal"));
    // The summary reads by compute unit, not by the Edge TPU's target/segment terms.
    QVERIFY2(panel->summaryText().contains(QStringLiteral("on the GPU")) && !panel->summaryText().contains(QStringLiteral("TPU")),
             qPrintable(panel->summaryText()));
    QAbstractItemModelTester ops(panel->opModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(panel->opModel()->rowCount() > 0);
    for (int r = 0; r < panel->opModel()->rowCount(); ++r) {  // fp32: the GPU, with the precision rule as reason
      QCOMPARE(panel->opModel()->index(r, PartitionOpModel::Placement).data().toString(), QStringLiteral("GPU"));
      QVERIFY(panel->opModel()->index(r, PartitionOpModel::Reason).data().toString().contains(QStringLiteral("fp32")));
    }
    QVERIFY(window.timelinePanel()->model()->rowCount() > 0);
    QVERIFY(window.graphView()->hasOpHighlights());
  }

  void windowCancelsACompile() {
    MainWindow window(*settings_);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    window.compileFor(QStringLiteral("coral"));
    QVERIFY(window.isCompiling());
    auto* progress = window.findChild<QWidget*>(QStringLiteral("compileProgress"));
    QVERIFY(progress);
    QMetaObject::invokeMethod(progress, "cancel");
    QTRY_VERIFY_WITH_TIMEOUT(!window.isCompiling(), kTimeoutMs);
  }

 private:
  std::unique_ptr<QTemporaryDir> settingsDir_;
  std::unique_ptr<QSettings> settings_;
};

QTEST_MAIN(CompileTests)
#include "tst_compile.moc"
