// The workbench a user keeps open all day (issue 44): the graph gets the room,
// tables and titles fit in English and German, legends are complete, core
// messages are translated, and the habits of desktop apps (recent files,
// drag-and-drop, settings restored, reset layout, shortcuts, title, palette).
#include <cmath>
#include <memory>

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QFileInfo>
#include <QHeaderView>
#include <QImage>
#include <QMimeData>
#include <QPalette>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeView>
#include <QTest>
#include <QUrl>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>

#include "app/workbench/LayoutCheck.h"
#include "app/workbench/Language.h"
#include "app/workbench/MainWindow.h"
#include "core/backends/coral/coral_backend.h"
#include "core/frontends/frontend.h"
#include "core/passes/pass_manager.h"
#include "core/passes/pass_registry.h"
#include "widgets/CoreMessages.h"
#include "widgets/GraphView.h"
#include "widgets/OpFormat.h"
#include "widgets/PassesPanel.h"

using ec::workbench::MainWindow;

namespace {

constexpr int kLoadTimeoutMs = 60000;
constexpr int kWorkTimeoutMs = 240000;

QString sample() { return QStringLiteral(EC_SAMPLE_MODEL); }

bool openAndLayOut(MainWindow& window, const QString& path) {
  QSignalSpy shown(&window, &MainWindow::modelShown);
  window.openFile(path);
  if (!shown.wait(kLoadTimeoutMs)) return false;
  return window.graphView()->waitForLayout(kLoadTimeoutMs);
}

/// Picks `code` in View › Language and waits until the window speaks it.
void switchLanguage(MainWindow& window, const char* code) {
  for (QAction* a : window.findChildren<QAction*>()) {
    if (a->data().toString() == QLatin1String(code)) {
      a->trigger();
      QCoreApplication::processEvents();  // QEvent::LanguageChange is posted
      QCoreApplication::processEvents();
      return;
    }
  }
  QFAIL("no such language action");
}

void saveScreenshot(QWidget& w, const QString& name) {
  const QString dir = qEnvironmentVariable("EC_TEST_SCREENSHOT_DIR");
  if (!dir.isEmpty()) w.grab().save(dir + QLatin1Char('/') + name);
}

QDockWidget* dock(MainWindow& window, const char* name) {
  return window.findChild<QDockWidget*>(QLatin1String(name));
}

}  // namespace

class HabitTests : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    // Never the user's real settings, history or device list.
    QStandardPaths::setTestModeEnabled(true);
    scratch_ = std::make_unique<QTemporaryDir>();
    QVERIFY(scratch_->isValid());
    for (const char* var : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"})
      qputenv(var, scratch_->filePath(QString::fromLatin1(var)).toLocal8Bit());
    if (!QFileInfo::exists(sample())) QSKIP("sample model not built (target sample_model)");
  }
  void init() {
    settingsDir_ = std::make_unique<QTemporaryDir>();
    QVERIFY(settingsDir_->isValid());
    settings_ = std::make_unique<QSettings>(settingsDir_->filePath(QStringLiteral("wb.ini")),
                                            QSettings::IniFormat);
  }
  void cleanup() {
    if (QCoreApplication::instance()) ec::workbench::installTranslators(*QCoreApplication::instance(), QStringLiteral("en"));
    settings_.reset();
    settingsDir_.reset();
  }

  // --- the graph gets the room -------------------------------------------------
  void graphGetsTheRoomOnOpen_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("de") << QStringLiteral("de");
  }
  void graphGetsTheRoomOnOpen() {
    QFETCH(QString, language);
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.applyDefaultDockSizes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    switchLanguage(window, language.toLatin1().constData());
    QVERIFY(openAndLayOut(window, sample()));
    QTest::qWait(50);
    const double share = ec::workbench::graphShare(window);
    QVERIFY2(share >= 0.60, qPrintable(QStringLiteral("graph share %1").arg(share)));
    // Panels without content are hidden; the log is a few lines.
    QVERIFY(!dock(window, "passesDock")->isVisible());
    QVERIFY(!dock(window, "quantDock")->isVisible());
    QVERIFY(!dock(window, "partitionDock")->isVisible());
    QVERIFY(dock(window, "logDock")->height() < window.height() / 5);
    // Fitted: at most 100%, at least the readable minimum, the top of the graph in view.
    auto* view = window.graphView();
    QVERIFY(view->zoom() <= 1.0 && view->zoom() >= ec::widgets::GraphView::kMinFitZoom);
    const QPointF topLeft = view->mapFromScene(QPointF(0, 0));
    QVERIFY2(topLeft.y() >= 0, "the top of the graph is in view");
    QVERIFY2(ec::workbench::elidedTitles(window).isEmpty(),
             qPrintable(ec::workbench::elidedTitles(window).join(QStringLiteral(", "))));
    QVERIFY2(ec::workbench::narrowColumns(window).isEmpty(),
             qPrintable(ec::workbench::narrowColumns(window).join(QStringLiteral(", "))));
    saveScreenshot(window, QStringLiteral("habits_open_%1.png").arg(language));
  }

  void doubleClickOnTheBackgroundFits() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndLayOut(window, sample()));
    auto* view = window.graphView();
    const double fitted = view->zoom();
    view->setZoom(3.0);
    QCOMPARE(view->zoom(), 3.0);
    // A point of the viewport outside every box: its corner, away from the minimap.
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
    QVERIFY(std::abs(view->zoom() - fitted) < 1e-6);
  }

  // --- titles and columns fit in English and German ------------------------------
  void everyTitleAndColumnFits_data() {
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("de") << QStringLiteral("de");
  }
  void everyTitleAndColumnFits() {
    QFETCH(QString, language);
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.applyDefaultDockSizes();
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    switchLanguage(window, language.toLatin1().constData());
    QVERIFY(openAndLayOut(window, sample()));
    // Every panel shown, as after a day's work: their tabs share the bottom area. Each
    // one in front in turn (a panel behind a tab is not laid out).
    const auto docks = window.findChildren<QDockWidget*>();
    for (QDockWidget* d : docks) d->show();
    for (QDockWidget* d : docks) {
      d->raise();
      QTest::qWait(50);
      const QStringList elided = ec::workbench::elidedTitles(window);
      QVERIFY2(elided.isEmpty(), qPrintable(d->objectName() + QStringLiteral(": ") + elided.join(QStringLiteral(", "))));
      const QStringList narrow = ec::workbench::narrowColumns(window);
      QVERIFY2(narrow.isEmpty(), qPrintable(d->objectName() + QStringLiteral(": ") + narrow.join(QStringLiteral(", "))));
    }
    saveScreenshot(window, QStringLiteral("habits_all_panels_%1.png").arg(language));
  }

  void longValuesElideInTheMiddleWithTooltip() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndLayOut(window, sample()));
    auto* view = window.findChild<QTreeView*>(QStringLiteral("summaryView"));
    QVERIFY(view && view->model());
    QCOMPARE(view->textElideMode(), Qt::ElideMiddle);
    // The property column fits its longest label.
    QVERIFY(view->columnWidth(0) >= view->header()->sectionSizeHint(0));
  }

  // --- legends -----------------------------------------------------------------
  void legendsAreCompleteAndBesideTheCanvas() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndLayOut(window, sample()));
    auto* view = window.graphView();
    QVERIFY(view->legendTexts().isEmpty());
    QVERIFY(view->legendGeometry().isNull());

    // Passes: added, removed and changed, whichever side is shown.
    QSignalSpy optimized(&window, &MainWindow::optimized);
    window.optimize();
    QVERIFY(optimized.wait(kWorkTimeoutMs));
    QTRY_VERIFY(!view->legendTexts().isEmpty());
    const QString passes = view->legendTexts().join(QLatin1Char('|'));
    for (const char* kind : {"added", "removed", "changed"})
      QVERIFY2(passes.contains(QLatin1String(kind)), qPrintable(passes));
    QVERIFY(!view->legendGeometry().intersects(view->viewport()->geometry()));
    QVERIFY(window.windowTitle().contains(QStringLiteral("optimised")));

    // Partition: TPU, CPU (unsupported), CPU after the first unsupported op.
    QSignalSpy compiled(&window, &MainWindow::compiled);
    window.compileFor(QStringLiteral("coral"));
    QVERIFY(compiled.wait(kWorkTimeoutMs));
    const QStringList partition = view->legendTexts();
    QVERIFY2(partition.size() == 3, qPrintable(partition.join(QLatin1Char('|'))));
    QCOMPARE(partition[0], QStringLiteral("TPU"));
    QVERIFY(partition[1].contains(QStringLiteral("unsupported")));
    QVERIFY(partition[2].contains(QStringLiteral("after the first unsupported")));
    QVERIFY(!view->legendGeometry().intersects(view->viewport()->geometry()));
    QVERIFY(window.windowTitle().contains(QStringLiteral("compiled for coral")));
    saveScreenshot(window, QStringLiteral("habits_partition_legend.png"));

    // SQNR scale: title, both ends, and the grey of ops left in float.
    QSignalSpy quantized(&window, &MainWindow::quantized);
    window.quantize();
    QVERIFY(quantized.wait(kWorkTimeoutMs));
    const QStringList sqnr = view->legendTexts();
    QVERIFY2(sqnr.size() >= 3, qPrintable(sqnr.join(QLatin1Char('|'))));
    QVERIFY(sqnr[0].contains(QStringLiteral("SQNR")));
    bool ok1 = false, ok2 = false;
    sqnr[1].toDouble(&ok1);
    sqnr[2].toDouble(&ok2);
    QVERIFY(ok1 && ok2);
    QVERIFY(!view->legendGeometry().intersects(view->viewport()->geometry()));
    QVERIFY(window.windowTitle().contains(QStringLiteral("quantised")));
  }

  void latencyLegendHasItsScale() {
    ec::widgets::GraphView view;
    view.resize(800, 600);
    ec::ir::FrozenGraph graph = std::make_shared<const ec::ir::Graph>(ec::frontends::open_model(sample().toStdString()));
    view.setGraph(graph);
    QVERIFY(view.waitForLayout());
    std::vector<double> ms(graph->ops.size(), std::nan(""));
    ms[0] = 0.5;
    if (ms.size() > 1) ms[1] = 2.0;
    view.setOpValues(ms, QStringLiteral("ms per op"), QStringLiteral("not timed"));
    const QStringList texts = view.legendTexts();
    QCOMPARE(texts.value(0), QStringLiteral("ms per op"));
    QCOMPARE(texts.value(1), QStringLiteral("0.5"));
    QCOMPARE(texts.value(2), QStringLiteral("2"));
    QCOMPARE(texts.value(3), QStringLiteral("not timed"));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    QVERIFY(view.legendGeometry().height() > 0);
    QVERIFY(!view.legendGeometry().intersects(view.viewport()->geometry()));
  }

  // --- op labels and core messages ------------------------------------------------
  void opLabelsFollowTheOnnxConventions() {
    ec::ir::Operation conv;
    conv.op_type = "Conv";
    conv.attributes["kernel_shape"] = std::vector<std::int64_t>{3, 3};
    conv.attributes["strides"] = std::vector<std::int64_t>{2, 2};
    conv.attributes["pads"] = std::vector<std::int64_t>{0, 0, 1, 1};
    conv.attributes["group"] = std::int64_t{32};
    conv.attributes["dilations"] = std::vector<std::int64_t>{1, 1};
    QCOMPARE(ec::widgets::keyAttributesText(conv), QStringLiteral("k 3×3 · s 2 · pad 0/0/1/1 · g 32"));
    conv.attributes["pads"] = std::vector<std::int64_t>{1, 1, 1, 1};
    conv.attributes["dilations"] = std::vector<std::int64_t>{2, 2};
    QCOMPARE(ec::widgets::keyAttributesText(conv), QStringLiteral("k 3×3 · s 2 · pad 1 · g 32 · d 2"));
    const QString tip = ec::widgets::keyAttributesToolTip(conv);
    QVERIFY(tip.contains(QStringLiteral("top 1, left 1, bottom 1, right 1")));
    QVERIFY(tip.contains(QStringLiteral("groups 32")));
    QVERIFY(tip.contains(QStringLiteral("dilation 2×2")));
  }

  void passStatisticsAndReasonsSpeakTheUiLanguage() {
    // Every statistic of every registered pass has a text.
    for (const auto& entry : ec::passes::pass_table()) {
      auto pass = entry.make();
      for (const auto& spec : pass->statistics()) {
        const std::string id = "pass." + std::string(pass->name()) + "." + std::string(spec.key);
        QVERIFY2(ec::widgets::hasCoreMessageText(id), id.c_str());
      }
    }
    const ec::passes::StatisticValue merged{"constants_merged", "duplicate constants merged", 12};
    QCOMPARE(ec::widgets::statisticText("CommonSubexpressionElimination", merged),
             QStringLiteral("12 duplicate constants merged"));
    QVERIFY(ec::workbench::installTranslators(*QCoreApplication::instance(), QStringLiteral("de")));
    const QString german = ec::widgets::statisticText("CommonSubexpressionElimination", merged);
    QVERIFY2(german.startsWith(QStringLiteral("12 ")) && german.contains(QStringLiteral("Konstanten")),
             qPrintable(german));

    // Every reason of a real Edge TPU partition has an id the workbench translates.
    ec::ir::Graph graph = ec::frontends::open_model(sample().toStdString());
    ec::backends::coral::CoralBackend coral;
    coral.legalise(graph);
    const auto partition = coral.partition(graph, {});
    QVERIFY(!partition.rows.empty());
    for (const auto& row : partition.rows) {
      QVERIFY2(!row.reason_message.empty(), row.name.c_str());
      QVERIFY2(ec::widgets::hasCoreMessageText(row.reason_message.id), row.reason_message.id.c_str());
      const QString text = ec::widgets::coreMessageText(row.reason_message);
      QVERIFY(!text.isEmpty());
      QVERIFY2(text != QString::fromStdString(row.reason), qPrintable(text));  // German, not the English reason
    }
  }

  // --- habits ----------------------------------------------------------------------
  void recentFilesInMenuAndOnTheWelcomePage() {
    {
      MainWindow window(*settings_);
      QVERIFY(window.welcomePage());
      QVERIFY(window.findChildren<QPushButton*>(QStringLiteral("welcomeRecentFile")).isEmpty());
      QVERIFY(openAndLayOut(window, sample()));
      QCOMPARE(window.recentFiles().value(0), QFileInfo(sample()).absoluteFilePath());
    }
    MainWindow window(*settings_);  // a new session: same settings
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.welcomePage()->isVisible());
    bool inMenu = false;
    for (QAction* a : window.findChildren<QAction*>()) inMenu |= a->toolTip() == QFileInfo(sample()).absoluteFilePath();
    QVERIFY(inMenu);
    const auto buttons = window.findChildren<QPushButton*>(QStringLiteral("welcomeRecentFile"));
    QCOMPARE(buttons.size(), 1);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    buttons.first()->click();
    QVERIFY(shown.wait(kLoadTimeoutMs));
    QVERIFY(!window.welcomePage()->isVisible());
  }

  void welcomePageOpensTheSample() {
    MainWindow window(*settings_);
    window.setSampleModel(sample());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* button = window.findChild<QPushButton*>(QStringLiteral("welcomeSample"));
    QVERIFY(button && button->isVisible());
    QSignalSpy shown(&window, &MainWindow::modelShown);
    button->click();
    QVERIFY(shown.wait(kLoadTimeoutMs));
    QCOMPARE(shown.first().first().toString(), QFileInfo(sample()).absoluteFilePath());
    QVERIFY(window.windowTitle().startsWith(QFileInfo(sample()).fileName()));
  }

  void droppingAModelFileOrPackageFolderOpensIt() {
    MainWindow window(*settings_);
    // A model file.
    {
      QSignalSpy shown(&window, &MainWindow::modelShown);
      QMimeData mime;
      mime.setUrls({QUrl::fromLocalFile(sample())});
      QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(&window, &enter);
      QVERIFY(enter.isAccepted());
      QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
      QCoreApplication::sendEvent(&window, &drop);
      QVERIFY(shown.wait(kLoadTimeoutMs));
    }
    // A .mlpackage folder goes to the core as a folder: this one is broken on purpose,
    // so the core's own one-line error about it is what the window shows.
    const QString package = QStringLiteral(EC_SOURCE_DIR "/tests/data/fuzz-repro-3/coreml-manifest-path-escape-leak/abs.mlpackage");
    QVERIFY(QFileInfo(package).isDir());
    QSignalSpy failed(&window, &MainWindow::loadFailed);
    QSignalSpy shown(&window, &MainWindow::modelShown);
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(package)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&window, &drop);
    QVERIFY(window.isLoading());
    QTRY_VERIFY_WITH_TIMEOUT(failed.count() + shown.count() == 1, kLoadTimeoutMs);
    if (failed.count()) QVERIFY(!failed.first().first().toString().isEmpty());  // the core's reason
  }

  void settingsAreRestored() {
    QByteArray geometry;
    double zoom = 0;
    {
      MainWindow window(*settings_);
      window.resize(1100, 700);
      window.show();
      QVERIFY(QTest::qWaitForWindowExposed(&window));
      QVERIFY(openAndLayOut(window, sample()));
      dock(window, "logDock")->hide();
      dock(window, "passesDock")->show();
      window.graphView()->setZoom(1.7);
      zoom = window.graphView()->zoom();
      window.close();  // saves geometry and dock state
    }
    QVERIFY(settings_->contains(QStringLiteral("mainWindow/geometry")));
    MainWindow window(*settings_);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QCOMPARE(window.size(), QSize(1100, 700));
    QVERIFY(!dock(window, "logDock")->isVisible());
    QVERIFY(dock(window, "passesDock")->isVisible());
    // The zoom chosen on this model comes back with it.
    QVERIFY(openAndLayOut(window, sample()));
    QTRY_VERIFY(std::abs(window.graphView()->zoom() - zoom) < 1e-6);
  }

  void resetLayoutPutsThePanelsBack() {
    MainWindow window(*settings_);
    window.resize(1280, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* summary = dock(window, "summaryDock");
    auto* passes = dock(window, "passesDock");
    auto* log = dock(window, "logDock");
    summary->hide();
    passes->show();
    window.removeDockWidget(log);
    window.addDockWidget(Qt::LeftDockWidgetArea, log);
    log->show();
    window.close();
    QVERIFY(settings_->contains(QStringLiteral("mainWindow/state")));
    window.show();
    QAction* reset = window.findChild<QAction*>(QStringLiteral("resetLayoutAction"));
    QVERIFY(reset);
    reset->trigger();
    QTest::qWait(50);
    QVERIFY(summary->isVisible());
    QVERIFY(!passes->isVisible());
    QCOMPARE(window.dockWidgetArea(log), Qt::BottomDockWidgetArea);
    QVERIFY(!settings_->contains(QStringLiteral("mainWindow/state")));
  }

  void keyboardShortcutsAreListed() {
    MainWindow window(*settings_);
    std::unique_ptr<QDialog> dialog(window.keyboardShortcutsDialog());
    auto* table = dialog->findChild<QTableWidget*>(QStringLiteral("shortcutsTable"));
    QVERIFY(table);
    QStringList keys;
    for (int r = 0; r < table->rowCount(); ++r) keys << table->item(r, 1)->text();
    for (const QKeySequence& k : {QKeySequence(QKeySequence::Open), QKeySequence(QKeySequence::Find),
                                  QKeySequence(Qt::CTRL | Qt::Key_0)}) {
      QVERIFY2(keys.contains(k.toString(QKeySequence::NativeText)), qPrintable(k.toString()));
    }
    QVERIFY(table->rowCount() >= 10);
  }

  void darkPaletteGivesADarkCanvasAndCharts() {
    MainWindow window(*settings_);
    window.resize(1000, 700);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openAndLayOut(window, sample()));
    auto* view = window.graphView();
    auto backgroundLightness = [view] {
      QImage image(view->viewport()->size(), QImage::Format_ARGB32);
      view->renderViewport(image);
      return QColor(image.pixel(2, 2)).lightness();
    };
    QVERIFY(backgroundLightness() > 200);
    const QPalette light = QApplication::palette();
    QPalette dark = light;
    dark.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x20));
    dark.setColor(QPalette::Text, Qt::white);
    dark.setColor(QPalette::WindowText, Qt::white);
    // Every chart (Quantisation, Benchmark, Run History) follows too: Qt Charts
    // paint with a theme of their own unless told.
    const QList<QChartView*> charts = window.findChildren<QChartView*>();
    QVERIFY(charts.size() >= 4);
    auto chartsAre = [&charts](bool darkExpected) {
      for (QChartView* c : charts) {
        const int bg = c->chart()->backgroundBrush().color().lightness();
        if (darkExpected != (bg < 80)) return false;
        for (QAbstractAxis* axis : c->chart()->axes())
          if (darkExpected != (axis->labelsColor().lightness() > 180)) return false;
      }
      return true;
    };
    QVERIFY(chartsAre(false));
    QApplication::setPalette(dark);  // what the desktop does when it switches to dark
    QTRY_VERIFY(backgroundLightness() < 80);
    QTRY_VERIFY(chartsAre(true));
    saveScreenshot(window, QStringLiteral("dark_window.png"));
    for (QChartView* c : charts) {
      c->resize(480, 300);
      saveScreenshot(*c, QStringLiteral("dark_%1.png").arg(QLatin1String(c->metaObject()->className())).remove(QLatin1String("::")));
    }
    QApplication::setPalette(light);
    QTRY_VERIFY(backgroundLightness() > 200);
    QTRY_VERIFY(chartsAre(false));
  }

 private:
  std::unique_ptr<QTemporaryDir> scratch_;
  std::unique_ptr<QTemporaryDir> settingsDir_;
  std::unique_ptr<QSettings> settings_;
};

QTEST_MAIN(HabitTests)
#include "tst_habits.moc"
