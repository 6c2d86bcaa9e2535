// File › Export (issue 41): every export of the workbench, triggered as the menu
// does with a target path instead of the dialog, checked by reading the files back
// (the SVG parses with one node per op, the PNG is the expected size and not blank,
// the HTML references nothing outside itself, models re-import with the same op
// counts, CSVs hold the header and one record per row) and failures leave no file.
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMenu>
#include <QMenuBar>
#include <QRegularExpression>
#include <QScreen>
#include <QSet>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <QXmlStreamReader>

#include "app/workbench/ExportController.h"
#include "app/workbench/MainWindow.h"
#include "core/flows/flows.h"
#include "core/frontends/frontend.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/TableCsv.h"

using ec::workbench::ExportController;
using ec::workbench::GraphArea;
using ec::workbench::MainWindow;

namespace {

constexpr int kTimeoutMs = 240000;

bool openSample(MainWindow& window) {
  QSignalSpy shown(&window, &MainWindow::modelShown);
  window.openFile(QStringLiteral(EC_SAMPLE_MODEL));
  if (!shown.wait(kTimeoutMs)) return false;
  return window.graphView()->waitForLayout(kTimeoutMs);
}

/// Runs one export and waits for its outcome; true when it wrote the file.
bool waitExported(ExportController& ex, const std::function<void()>& start, QString* failure = nullptr) {
  QSignalSpy ok(&ex, &ExportController::exported);
  QSignalSpy failed(&ex, &ExportController::exportFailed);
  start();
  QElapsedTimer clock;
  clock.start();
  while (ok.isEmpty() && failed.isEmpty() && clock.elapsed() < kTimeoutMs) QTest::qWait(20);
  if (failure && !failed.isEmpty()) *failure = failed.first().at(0).toString();
  return !ok.isEmpty();
}

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

/// <g class="op"> elements (or "group"); -1 when the document does not parse.
int countSvg(const QString& path, const QString& cls) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return -1;
  QXmlStreamReader xml(&f);
  int n = 0;
  while (!xml.atEnd()) {
    xml.readNext();
    if (xml.isStartElement() && xml.name() == QLatin1String("g") &&
        xml.attributes().value(QLatin1String("class")) == cls)
      ++n;
  }
  return xml.hasError() ? -1 : n;
}

/// Records of an RFC 4180 file (quoted fields may hold line breaks).
QList<QStringList> parseCsv(const QString& text) {
  QList<QStringList> rows;
  QStringList row;
  QString field;
  bool quoted = false;
  for (qsizetype i = 0; i < text.size(); ++i) {
    const QChar c = text[i];
    if (quoted) {
      if (c == QLatin1Char('"') && i + 1 < text.size() && text[i + 1] == QLatin1Char('"')) field += c, ++i;
      else if (c == QLatin1Char('"')) quoted = false;
      else field += c;
    } else if (c == QLatin1Char('"')) {
      quoted = true;
    } else if (c == QLatin1Char(',')) {
      row << field, field.clear();
    } else if (c == QLatin1Char('\r') && i + 1 < text.size() && text[i + 1] == QLatin1Char('\n')) {
      row << field, field.clear();
      rows << row, row.clear();
      ++i;
    } else {
      field += c;
    }
  }
  if (!field.isEmpty() || !row.isEmpty()) rows << (row << field);
  return rows;
}

bool nonBlank(const QImage& image) {
  QSet<QRgb> colours;
  for (int y = 0; y < image.height(); y += 3)
    for (int x = 0; x < image.width(); x += 3) colours.insert(image.pixel(x, y));
  return colours.size() > 8;
}

}  // namespace

class ExportTests : public QObject {
  Q_OBJECT

 private slots:
  void csvQuotesAsRfc4180() {
    QCOMPARE(ec::widgets::csvField(QStringLiteral("Conv")), QStringLiteral("Conv"));
    QCOMPARE(ec::widgets::csvField(QStringLiteral("a,b")), QStringLiteral("\"a,b\""));
    QCOMPARE(ec::widgets::csvField(QStringLiteral("say \"hi\"")), QStringLiteral("\"say \"\"hi\"\"\""));
    QCOMPARE(ec::widgets::csvField(QStringLiteral("two\nlines")), QStringLiteral("\"two\nlines\""));
    QCOMPARE(ec::widgets::csvField(QStringLiteral(" pad")), QStringLiteral("\" pad\""));
  }

  void actionsNeedAModel() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    ExportController* ex = window.exporter();
    QVERIFY(ex);
    ex->updateActions();
    for (const char* name : {"exportSvgWholeAction", "exportSvgVisibleAction", "exportPngWholeAction",
                             "exportPngVisibleAction", "exportHtmlAction", "exportOnnxAction", "exportTfliteAction",
                             "exportEirAction"}) {
      QAction* a = ex->menu()->findChild<QAction*>(QLatin1String(name));
      if (!a) a = window.findChild<QAction*>(QLatin1String(name));
      QVERIFY2(a, name);
      QVERIFY2(!a->isEnabled(), name);
    }
    QVERIFY(openSample(window));
    ex->updateActions();
    QVERIFY(window.findChild<QAction*>(QStringLiteral("exportHtmlAction"))->isEnabled());
    QVERIFY(window.findChild<QAction*>(QStringLiteral("exportOnnxAction"))->isEnabled());
  }

  void exportsEveryFormat() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    window.resize(1280, 800);
    window.show();
    QVERIFY(openSample(window));
    ExportController& ex = *window.exporter();
    const auto graph = window.graphView()->graph();
    const int ops = int(graph->ops.size());
    window.graphView()->expandAll();
    QVERIFY(window.graphView()->waitForLayout(kTimeoutMs));
    QCOMPARE(window.graphView()->opItemCount(), ops);

    // The menu's own action, with the dialog replaced: the path is all it asks.
    const QString svg = dir.filePath(QStringLiteral("whole.svg"));
    ex.setPathChooser([&](const QString&, const QString& suggested, const QString&) {
      if (!suggested.endsWith(QLatin1String(".svg"))) return QString();
      return svg;
    });
    QAction* svgWhole = window.findChild<QAction*>(QStringLiteral("exportSvgWholeAction"));
    QVERIFY(waitExported(ex, [&] { svgWhole->trigger(); }));
    QCOMPARE(countSvg(svg, QStringLiteral("op")), ops);
    QCOMPARE(countSvg(svg, QStringLiteral("legend")), 1);

    // Visible area: the view fitted shows some ops; the SVG holds those, no more.
    window.graphView()->setZoom(1.0);
    window.graphView()->centerOn(window.graphView()->opRect(0).center());
    QCoreApplication::processEvents();
    std::vector<int> items, groups;
    window.graphView()->visibleNodes(&items, &groups);
    const int visibleOps = int(std::count_if(items.begin(), items.end(), [&](int i) { return i < ops; }));
    QVERIFY(visibleOps > 0);
    const QString svgVisible = dir.filePath(QStringLiteral("visible.svg"));
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(svgVisible, GraphArea::Visible); }));
    QCOMPARE(countSvg(svgVisible, QStringLiteral("op")), visibleOps);

    // PNG of the whole graph: the drawing's own size, not blank.
    const QString png = dir.filePath(QStringLiteral("whole.png"));
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(png, GraphArea::Whole); }));
    QImage image(png);
    QVERIFY(!image.isNull());
    {
      QFile f(svg);
      QVERIFY(f.open(QIODevice::ReadOnly));
      const QString head = QString::fromUtf8(f.read(400));
      const auto m = QRegularExpression(QStringLiteral("width=\"([0-9.]+)\" height=\"([0-9.]+)\"")).match(head);
      QVERIFY(m.hasMatch());
      QCOMPARE(image.width(), int(std::min(m.captured(1).toDouble(), 8192.0)));
      QVERIFY(std::abs(image.height() - image.width() * m.captured(2).toDouble() / m.captured(1).toDouble()) <= 1.0);
    }
    QVERIFY(nonBlank(image));

    // PNG of the visible area: the viewport's pixels (and the legend strip when shown).
    const QString pngVisible = dir.filePath(QStringLiteral("visible.png"));
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(pngVisible, GraphArea::Visible); }));
    QImage shot(pngVisible);
    QCOMPARE(shot.width(), window.graphView()->viewport()->width());
    QCOMPARE(shot.height(), window.graphView()->viewport()->height() + window.graphView()->legendGeometry().height());
    QVERIFY(nonBlank(shot));

    // HTML report: self-contained, with the model's op count.
    const QString html = dir.filePath(QStringLiteral("report.html"));
    QVERIFY(waitExported(ex, [&] { ex.exportHtmlReport(html); }));
    const QString page = QString::fromUtf8(readAll(html));
    QVERIFY(page.size() > 1000);
    // Every URL in it is the SVG namespace name (as tests/render/check_html_report.py allows).
    QString urls = page;
    urls.remove(QStringLiteral("http://www.w3.org/2000/svg"));
    QVERIFY(!urls.contains(QLatin1String("http:")));
    QVERIFY(!urls.contains(QLatin1String("https:")));
    QVERIFY(!urls.contains(QLatin1String("file:")));
    QVERIFY(!page.contains(QRegularExpression(QStringLiteral("src\\s*=\\s*[\"'](?!data:)"))));
    QVERIFY(!page.contains(QRegularExpression(QStringLiteral("<link[^>]+href"))));
    QVERIFY(!page.contains(QRegularExpression(QStringLiteral("href\\s*=\\s*[\"'](?!#|data:)"))));
    QVERIFY(page.contains(QStringLiteral("\"ops\":%1").arg(ops)));

    // Models: the bytes `edgecompile convert` writes (flows::serialise_model), re-imported
    // through the frontend registry. ONNX and EIR keep the IR's ops one for one; TFLite is
    // legalised first (NHWC, fusions) and its reader expands some builtins, so its count is
    // that of the legalised graph read back, checked in core/backends/tflite/test.
    for (const char* suffix : {".onnx", ".tflite", ".eir"}) {
      const QString path = dir.filePath(QStringLiteral("model") + QLatin1String(suffix));
      QVERIFY2(waitExported(ex, [&] { ex.exportModel(path); }), suffix);
      QCOMPARE(readAll(path).toStdString(), ec::flows::serialise_model(*graph, path.toStdString()));
      const ec::ir::Graph back = ec::frontends::open_model(path.toStdString());
      QCOMPARE(back.inputs.size(), graph->inputs.size());
      QCOMPARE(back.outputs.size(), graph->outputs.size());
      if (QLatin1String(suffix) == QLatin1String(".tflite")) QVERIFY(back.ops.size() >= 10);
      else QCOMPARE(back.ops.size(), graph->ops.size());
    }

    // Tables: the Operations list, then every table that has rows.
    auto* opsDock = window.findChild<QDockWidget*>(QStringLiteral("operationsDock"));
    QVERIFY(opsDock);
    auto* opsView = opsDock->findChild<QAbstractItemView*>();
    QVERIFY(opsView && opsView->model());
    const QString csv = dir.filePath(QStringLiteral("ops.csv"));
    QVERIFY(ex.exportTable(opsView, csv));
    const auto records = parseCsv(QString::fromUtf8(readAll(csv)));
    QCOMPARE(records.size(), 1 + ops);
    QCOMPARE(records.first().first(), opsView->model()->headerData(0, Qt::Horizontal).toString());
    opsView->setFocus();
    // the focus widget counts once the window is active (later on a loaded machine)
    QTRY_COMPARE(ex.currentTable(), opsView);
    int tables = 0;
    for (QAbstractItemView* view : window.findChildren<QAbstractItemView*>()) {
      if (!view->model() || view->model()->rowCount() == 0 || view->contextMenuPolicy() != Qt::CustomContextMenu) continue;
      const QString path = dir.filePath(QStringLiteral("table%1.csv").arg(tables++));
      QVERIFY(ex.exportTable(view, path));
      const auto rows = parseCsv(QString::fromUtf8(readAll(path)));
      QCOMPARE(rows.size(), 1 + ec::widgets::csvRowCount(*view->model()));
      QCOMPARE(rows.first().size(), view->model()->columnCount());
    }
    QVERIFY(tables >= 3);  // operations, summary, properties at least
  }

  void passesTableAfterOptimize() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    QVERIFY(openSample(window));
    QSignalSpy optimized(&window, &MainWindow::optimized);
    window.optimize();
    QVERIFY(optimized.wait(kTimeoutMs));
    auto* passesDock = window.findChild<QDockWidget*>(QStringLiteral("passesDock"));
    QVERIFY(passesDock);
    int written = 0;
    for (QAbstractItemView* view : passesDock->findChildren<QAbstractItemView*>()) {
      if (!view->model() || view->model()->rowCount() == 0) continue;
      const QString path = dir.filePath(QStringLiteral("passes%1.csv").arg(written++));
      QVERIFY(window.exporter()->exportTable(view, path));
      QCOMPARE(parseCsv(QString::fromUtf8(readAll(path))).size(), 1 + ec::widgets::csvRowCount(*view->model()));
    }
    QVERIFY(written >= 1);
  }

  void failuresLeaveNoFile() {
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    QVERIFY(openSample(window));
    ExportController& ex = *window.exporter();
    // A folder that does not exist, and a "folder" that is a file (root may write anywhere else).
    QFile plain(dir.filePath(QStringLiteral("plain")));
    QVERIFY(plain.open(QIODevice::WriteOnly));
    plain.close();
    for (const QString& target : {dir.filePath(QStringLiteral("missing/x")), dir.filePath(QStringLiteral("plain/x"))}) {
      for (const char* suffix : {".svg", ".png", ".html", ".onnx", ".tflite", ".eir", ".csv"}) {
        const QString path = target + QLatin1String(suffix);
        QString failure;
        bool ok = false;
        const QString s = QLatin1String(suffix);
        if (s == QLatin1String(".svg") || s == QLatin1String(".png"))
          ok = waitExported(ex, [&] { ex.exportGraph(path, GraphArea::Whole); }, &failure);
        else if (s == QLatin1String(".html"))
          ok = waitExported(ex, [&] { ex.exportHtmlReport(path); }, &failure);
        else if (s == QLatin1String(".csv"))
          ok = waitExported(ex, [&] { ex.exportTable(window.findChild<QDockWidget*>(QStringLiteral("operationsDock"))->findChild<QAbstractItemView*>(), path); }, &failure);
        else
          ok = waitExported(ex, [&] { ex.exportModel(path); }, &failure);
        QVERIFY2(!ok, qPrintable(path));
        QVERIFY2(!failure.isEmpty() && !failure.contains(QLatin1Char('\n')), qPrintable(failure));
        QCOMPARE(window.messageBar()->text(), failure);
        QVERIFY(!QFileInfo::exists(path));
      }
    }
    // A name no format has.
    QString failure;
    QVERIFY(!waitExported(ex, [&] { ex.exportModel(dir.filePath(QStringLiteral("m.pb"))); }, &failure));
    QVERIFY(failure.contains(QLatin1String(".onnx")));
    QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("m.pb"))));
    // Nothing but what the test made was left in the folder.
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::NoDotAndDotDot | QDir::Hidden).size(), 2);  // wb.ini, plain
  }

  // With EC_EXPORT_MENU_SHOT=out.png (under xvfb-run): File › Export open, the screen grabbed.
  void menuScreenshot() {
    const QString out = qEnvironmentVariable("EC_EXPORT_MENU_SHOT");
    if (out.isEmpty()) QSKIP("EC_EXPORT_MENU_SHOT not set");
    QTemporaryDir dir;
    QSettings settings(dir.filePath(QStringLiteral("wb.ini")), QSettings::IniFormat);
    MainWindow window(settings);
    window.resize(1280, 800);
    window.move(0, 0);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(openSample(window));
    QTest::qWait(500);
    QMenu* file = window.findChild<QMenu*>(QStringLiteral("fileMenu"));
    QVERIFY(file);
    QMenu* exportMenu = window.exporter()->menu();
    file->popup(window.mapToGlobal(window.menuBar()->actionGeometry(file->menuAction()).bottomLeft()));
    QTest::qWait(300);
    file->setActiveAction(exportMenu->menuAction());
    exportMenu->popup(file->mapToGlobal(file->actionGeometry(exportMenu->menuAction()).topRight()));
    QTest::qWait(300);
    QMenu* pngMenu = nullptr;
    for (QAction* a : exportMenu->actions())
      if (a->menu() && a->menu()->findChild<QAction*>(QStringLiteral("exportPngWholeAction"))) pngMenu = a->menu();
    if (!pngMenu)
      for (QMenu* m : exportMenu->findChildren<QMenu*>())
        if (m->actions().contains(window.findChild<QAction*>(QStringLiteral("exportPngWholeAction")))) pngMenu = m;
    QVERIFY(pngMenu);
    exportMenu->setActiveAction(pngMenu->menuAction());
    pngMenu->popup(exportMenu->mapToGlobal(exportMenu->actionGeometry(pngMenu->menuAction()).topRight()));
    QTest::qWait(600);
    QVERIFY(QGuiApplication::primaryScreen()->grabWindow(0).save(out));
    pngMenu->hide(), exportMenu->hide(), file->hide();
    // And pictures with an overlay shown (the quantisation's SQNR), beside the screenshot.
    QSignalSpy quantized(&window, &MainWindow::quantized);
    window.quantize();
    QVERIFY(quantized.wait(kTimeoutMs));
    QVERIFY(window.graphView()->waitForLayout(kTimeoutMs));
    QTest::qWait(300);
    ExportController& ex = *window.exporter();
    const QString stem = out.chopped(4);
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(stem + QStringLiteral("_whole.png"), GraphArea::Whole); }));
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(stem + QStringLiteral("_visible.png"), GraphArea::Visible); }));
    QVERIFY(waitExported(ex, [&] { ex.exportGraph(stem + QStringLiteral("_visible.svg"), GraphArea::Visible); }));
    QVERIFY(waitExported(ex, [&] { ex.exportHtmlReport(stem + QStringLiteral(".html")); }));
  }
};

QTEST_MAIN(ExportTests)
#include "tst_export.moc"
