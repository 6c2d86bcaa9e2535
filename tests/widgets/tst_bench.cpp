// Qt Test suite for the Benchmark and Run History panels (issue 16): a real
// benchmark of the sample model on the worker thread (the panel's requests served by
// the workbench's BenchController, which runs the bench and record flows), every chart's series
// checked against the Stats it shows, Cancel, the run recorded and compared,
// and the workbench colouring the graph by per-op time (QT_QPA_PLATFORM=offscreen).
#include <cmath>
#include <memory>
#include <set>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QDockWidget>
#include <QTabWidget>
#include <QFile>
#include <QFileInfo>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QtCharts/QBarSet>
#include <QtCharts/QLineSeries>

#include "app/workbench/BenchController.h"
#include "app/workbench/MainWindow.h"
#include "core/frontends/frontend.h"
#include "widgets/GraphView.h"
#include "widgets/bench/BenchmarkPanel.h"
#include "widgets/bench/RunHistoryPanel.h"

using ec::widgets::BenchmarkPanel;
using ec::widgets::RunHistoryPanel;
using ec::workbench::BenchController;
using ec::workbench::MainWindow;

namespace {
constexpr int kTimeoutMs = 120000;

void saveScreenshot(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR");
  if (!dir.isEmpty()) w.grab().save(dir + QLatin1Char('/') + name);
}

/// Picks `code` in View › Language of `window`.
bool switchLanguage(MainWindow& window, const char* code) {
  for (QAction* a : window.findChildren<QAction*>())
    if (a->data().toString() == QLatin1String(code)) {
      a->trigger();
      return true;
    }
  return false;
}
}  // namespace

class BenchTests : public QObject {
  Q_OBJECT

 private slots:
  void init() {
    dir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(dir_->isValid());
    db_ = dir_->filePath(QStringLiteral("runs.db"));
  }
  void cleanup() { dir_.reset(); }

  void panelRunsABenchmarkAndChartsIt() {
    BenchmarkPanel panel;
    BenchController controller(&panel);
    panel.resize(700, 600);
    panel.show();
    panel.setRunsDatabase(db_);
    panel.setModelPath(QStringLiteral(EC_SAMPLE_MODEL));
    panel.setIterations(25);
    panel.setWarmup(2);
    panel.setThreads(1);
    QSignalSpy finished(&panel, &BenchmarkPanel::finished);
    QSignalSpy failed(&panel, &BenchmarkPanel::failed);
    QVERIFY(panel.start());
    QVERIFY(panel.isRunning());
    QVERIFY(!panel.start());  // one at a time
    QVERIFY2(finished.wait(kTimeoutMs), failed.isEmpty() ? "timeout" : qPrintable(failed.first().at(0).toString()));
    const auto stats = panel.stats();
    QVERIFY(stats);
    QCOMPARE(stats->iterations, 25);
    QCOMPARE(panel.progressBar()->value(), 1 + 2 + 25);
    QVERIFY(panel.runId() > 0);

    // Latency per run: one point per timed run, the recorded latencies.
    const auto points = panel.latencyChart()->latencySeries()->points();
    QCOMPARE(points.size(), 25);
    for (int i = 0; i < 25; ++i) {
      QCOMPARE(points[i].x(), double(i + 1));
      QCOMPARE(points[i].y(), stats->latencies_ms[std::size_t(i)]);
    }
    QCOMPARE(panel.latencyChart()->meanSeries()->at(0).y(), stats->mean_ms);

    // Histogram: every run in a bin; p50/p95/p99 lines at their values.
    int total = 0;
    for (int c : panel.histogram()->counts()) total += c;
    QCOMPARE(total, 25);
    QVERIFY(panel.histogram()->outline()->count() == 2 * int(panel.histogram()->counts().size()));
    const double marks[] = {stats->p50_ms, stats->p95_ms, stats->p99_ms};
    for (int i = 0; i < ec::widgets::LatencyHistogram::kMarkers; ++i) {
      QCOMPARE(panel.histogram()->marker(i)->count(), 2);
      QCOMPARE(panel.histogram()->marker(i)->at(0).x(), marks[i]);
    }
    QVERIFY(panel.histogram()->marker(0)->name().startsWith(QStringLiteral("p50")));

    // Per-op time: the slowest ops, slowest last (top of a horizontal bar chart).
    QBarSet* bars = panel.opTimeChart()->barSet();
    const auto top = ec::runtime::top_ops(*stats, 15);
    QCOMPARE(bars->count(), int(top.size()));
    QVERIFY(bars->count() > 3);
    QCOMPARE(bars->at(bars->count() - 1), top.front().ms);
    QVERIFY(panel.opTimeChart()->ops().last().contains(QString::fromStdString(top.front().name).right(20)));

    // Every figure listed.
    QCOMPARE(panel.figures()->topLevelItemCount(), 17);
    for (int tab = 0; tab < 4; ++tab) {
      auto* tabs = panel.findChild<QTabWidget*>();
      tabs->setCurrentIndex(tab);
      QTest::qWait(50);
      saveScreenshot(panel, QStringLiteral("bench_tab%1.png").arg(tab));
    }

    // The graph colouring: names of the sample's ops get their time.
    const auto graph = ec::frontends::open_model(EC_SAMPLE_MODEL);
    const auto values = ec::widgets::opTimeValues(*stats, graph);
    QCOMPARE(values.size(), graph.ops.size());
    int finite = 0;
    for (double v : values) finite += std::isfinite(v);
    // The only profiled ops the model does not have are the Transposes the runtime
    // put at the edges of its channels-last region.
    std::set<std::string> names;
    for (const auto& op : graph.ops) names.insert(op.name);
    int inserted = 0;
    for (const auto& e : stats->op_profile)
      if (!names.count(e.name) && !(names.count(e.name.substr(0, e.name.find(" + "))) &&
                                    e.name.find(" + ") != std::string::npos &&
                                    names.count(e.name.substr(e.name.find(" + ") + 3)))) {  // a pair run together
        QCOMPARE(e.op_type, std::string("Transpose"));
        QVERIFY(e.name.rfind("LayoutTransform/", 0) == 0);
        ++inserted;
      }
    QVERIFY(inserted <= 2);
    QVERIFY(finite >= int(stats->op_profile.size()) - inserted - 1);
  }

  void panelCancels() {
    BenchmarkPanel panel;
    BenchController controller(&panel);
    panel.setRecord(false);
    panel.setModelPath(QStringLiteral(EC_SAMPLE_MODEL));
    panel.setIterations(1000000);
    panel.setWarmup(0);
    panel.setThreads(1);
    QSignalSpy cancelled(&panel, &BenchmarkPanel::cancelled);
    QSignalSpy finished(&panel, &BenchmarkPanel::finished);
    QVERIFY(panel.start());
    QTRY_VERIFY_WITH_TIMEOUT(panel.progressBar()->value() > 3, kTimeoutMs);
    panel.cancel();
    QVERIFY(cancelled.wait(kTimeoutMs));
    QVERIFY(finished.isEmpty());
    QVERIFY(!panel.isRunning());
    QVERIFY(!panel.stats());
  }

  void historyListsAndComparesRuns() {
    BenchmarkPanel panel;
    BenchController controller(&panel);
    panel.setRunsDatabase(db_);
    panel.setModelPath(QStringLiteral(EC_SAMPLE_MODEL));
    panel.setIterations(20);
    panel.setThreads(1);
    QSignalSpy finished(&panel, &BenchmarkPanel::finished);
    qint64 ids[2] = {0, 0};
    for (auto& id : ids) {
      QVERIFY(panel.start());
      QVERIFY(finished.wait(kTimeoutMs));
      id = panel.runId();
    }
    RunHistoryPanel history;
    history.setDatabase(db_);
    QAbstractItemModelTester runsTester(history.runsModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(history.runsModel()->rowCount(), 2);
    QCOMPARE(history.runsModel()->run(0).id, ids[1]);  // newest first
    QVERIFY(history.statusText().contains(db_));
    QVERIFY(history.compare(ids[0], ids[1]));
    QAbstractItemModelTester cmpTester(history.compareModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(history.compareModel()->rowCount() >= 12);
    QCOMPARE(history.barSetA()->count(), 5);
    QCOMPARE(history.barSetA()->at(0), history.runsModel()->run(1).stats->mean_ms);
    QCOMPARE(history.barSetB()->at(4), history.runsModel()->run(0).stats->p99_ms);
    QVERIFY(!history.compare(ids[0], 999999));
    history.resize(900, 700);
    history.show();
    QTest::qWait(50);
    saveScreenshot(history, QStringLiteral("history_compare.png"));

    // A damaged database: one line in the panel naming the file, the file untouched.
    const QString bad = dir_->filePath(QStringLiteral("bad.db"));
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(8192, 'x'));
    }
    history.setDatabase(bad);
    QCOMPARE(history.runsModel()->rowCount(), 0);
    QVERIFY(history.statusText().contains(bad));
    QVERIFY(!history.statusText().contains(QLatin1Char('\n')));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readAll(), QByteArray(8192, 'x'));
  }

  void windowColoursTheGraphByOpTime() {
    QSettings settings(dir_->filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    window.resize(1280, 800);
    window.show();
    QSignalSpy shown(&window, &MainWindow::modelShown);
    window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
    QVERIFY(shown.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout());
    BenchmarkPanel* panel = window.benchmarkPanel();
    QVERIFY(panel);
    QCOMPARE(panel->modelPath(), QFileInfo(QStringLiteral(EC_SAMPLE_MODEL)).absoluteFilePath());
    panel->setRunsDatabase(db_);
    panel->setIterations(10);
    panel->setThreads(1);
    QSignalSpy benchmarked(&window, &MainWindow::benchmarked);
    QVERIFY(panel->start());
    QVERIFY(benchmarked.wait(kTimeoutMs));
    QVERIFY(window.graphView()->hasOpValues());
    QVERIFY(window.runHistoryPanel());
    saveScreenshot(window, QStringLiteral("bench_window.png"));

    // Every text follows View › Language.
    auto* historyDock = window.findChild<QDockWidget*>(QStringLiteral("runHistoryDock"));
    QVERIFY(historyDock);
    QCOMPARE(historyDock->windowTitle(), QStringLiteral("Run History"));
    QCOMPARE(panel->figures()->headerItem()->text(0), QStringLiteral("Figure"));
    QVERIFY(switchLanguage(window, "de"));
    QTRY_COMPARE(historyDock->windowTitle(), QStringLiteral("Laufverlauf"));
    QTRY_COMPARE(panel->figures()->headerItem()->text(0), QStringLiteral("Kennzahl"));
    QCOMPARE(panel->histogram()->marker(0)->name().left(3), QStringLiteral("p50"));
    QVERIFY(switchLanguage(window, "en"));
    QTRY_COMPARE(historyDock->windowTitle(), QStringLiteral("Run History"));
  }

 private:
  std::unique_ptr<QTemporaryDir> dir_;
  QString db_;
};

QTEST_MAIN(BenchTests)
#include "tst_bench.moc"
