// edgecompiler Workbench.
//
//   edgecompiler-workbench [MODEL] [--optimize] [--quantize] [--compile TARGET] [--bench N] [--screenshot OUT.png]
//
// --optimize runs the default pass pipeline once MODEL is shown (Model › Optimize);
// with --screenshot the image is then taken once the Passes panel shows the result.
// --quantize quantises MODEL (after --optimize's passes, if given) with the default
// random calibration (Tools › Quantise…); with --screenshot the image is taken once
// the Quantisation panel shows the report and the graph is coloured by SQNR.
// --compile TARGET compiles MODEL for TARGET (coral, cpu; Model › Compile for Target…),
// after --optimize's passes if given, quantising a float model post-training with random
// calibration; with --screenshot the image is taken once the Partition panel shows the
// report and the graph is coloured TPU / CPU.
// --bench N times the model on the host CPU with N runs after the other steps (Tools ›
// Benchmark…, Run; the run is recorded); with --screenshot the image is taken once the
// Benchmark panel shows the statistics.
// --panel NAME shows and raises that panel's dock before the screenshot (passes, quant,
// partition, timeline, benchmark, runHistory, devices, log...; the dock "<NAME>Dock").
// --screenshot-report OUT.json writes what the screenshot cannot show by itself
// (LayoutCheck.h: the graph's share of the window, elided titles, columns narrower
// than their headers, legend texts) when the screenshot is taken.
// With --screenshot the window opens MODEL, waits until it is laid out and the
// graph view has painted it, saves an image of the window to OUT.png and exits 0; if the model
// cannot be opened it prints the core's one-line error to stderr and exits 1.
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <spdlog/sinks/sink.h>
#include <spdlog/spdlog.h>
#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QFile>
#include <QJsonDocument>
#include <QPixmap>
#include <QSettings>
#include <QSize>
#include <QTimer>

#include "app/workbench/Language.h"
#include "app/workbench/LayoutCheck.h"
#include "app/workbench/MainWindow.h"
#include "widgets/GraphView.h"
#include "core/backends/backend_registry.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"

#include "ec_version.h"

namespace {

// Screenshots must never hang a CI job: give up after this long.
constexpr int kScreenshotTimeoutMs = 5 * 60 * 1000;

void printError(const QString& message) {
  std::fprintf(stderr, "%s\n", message.toLocal8Bit().constData());
}

// Where Qt would find no screen: no platform chosen and no X11 or Wayland display.
// Qt aborts in that case (exit 134), so the check comes before QApplication exists.
bool displayAvailable() {
  for (const char* var : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"}) {
    const char* value = std::getenv(var);
    if (value && *value) return true;
  }
  return false;
}

void setApplicationNames() {
  QCoreApplication::setOrganizationName(QStringLiteral("edgecompiler"));
  QCoreApplication::setApplicationName(QStringLiteral("edgecompiler-workbench"));
  QCoreApplication::setApplicationVersion(QStringLiteral(EC_VERSION_LINE));
}

struct Options {
  QString model;
  QString screenshotPath;
  bool optimize = false;
  bool quantize = false;
  QString compileTarget;  // --compile TARGET ("" = no compile)
  int benchIterations = 0;  // --bench N (0 = no benchmark)
  QString panel;          // --panel NAME: the dock shown in front for the screenshot
  QString reportPath;     // --screenshot-report FILE
  QSize windowSize{1280, 800};  // --window-size WxH (screenshots)
};

// Parses the command line; --help, --version and argument errors end the process here
// (QCommandLineParser::process), before any window system is needed.
Options parseCommandLine(const QCoreApplication& app) {
  QCommandLineParser parser;
  parser.setApplicationDescription(
      QCoreApplication::translate("main", "Model-compilation workbench for edge AI."));
  parser.addHelpOption();
  parser.addVersionOption();
  parser.addPositionalArgument(QStringLiteral("model"),
                               QCoreApplication::translate("main", "Model file to open."),
                               QStringLiteral("[MODEL]"));
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QCoreApplication::translate("main",
                                  "Open MODEL, save an image of the window to <file> and exit."),
      QStringLiteral("file"));
  parser.addOption(screenshot);
  const QCommandLineOption optimize(
      QStringLiteral("optimize"),
      QCoreApplication::translate("main",
                                  "Run the default optimisation passes once MODEL is open."));
  parser.addOption(optimize);
  const QCommandLineOption quantize(
      QStringLiteral("quantize"),
      QCoreApplication::translate(
          "main", "Quantise MODEL to int8 once it is open (random calibration samples)."));
  parser.addOption(quantize);
  QStringList targets;  // the backend table's names: a new target needs no line here
  for (const auto& entry : ec::backends::backend_table())
    targets << QString::fromUtf8(entry.name.data(), qsizetype(entry.name.size()));
  const QCommandLineOption compile(
      QStringLiteral("compile"),
      QCoreApplication::translate(
          "main", "Compile MODEL for <target> (%1) once it is open (after the passes of "
                  "--optimize if given) and show the partition.")
          .arg(targets.join(QStringLiteral(", "))),
      QStringLiteral("target"));
  parser.addOption(compile);
  const QCommandLineOption bench(
      QStringLiteral("bench"),
      QCoreApplication::translate("main", "Time MODEL on the host CPU with <n> runs once it is open (after the other "
                                          "steps asked for) and show the Benchmark panel."),
      QStringLiteral("n"));
  parser.addOption(bench);
  const QCommandLineOption inputShape(
      QStringLiteral("input-shape"),
      QCoreApplication::translate("main", "An input's shape where the model does not record it (TorchScript): "
                                          "NAME=1,3,224,224; repeat per input."),
      QStringLiteral("NAME=DIMS"));
  parser.addOption(inputShape);
  const QCommandLineOption panel(
      QStringLiteral("panel"),
      QCoreApplication::translate("main", "Show the panel <name> (passes, quant, partition, timeline, "
                                          "benchmark, runHistory, devices) in front for the screenshot."),
      QStringLiteral("name"));
  parser.addOption(panel);
  const QCommandLineOption report(
      QStringLiteral("screenshot-report"),
      QCoreApplication::translate("main", "With --screenshot: also write the layout's measurements to <file> (JSON)."),
      QStringLiteral("file"));
  parser.addOption(report);
  const QCommandLineOption windowSize(
      QStringLiteral("window-size"),
      QCoreApplication::translate("main", "With --screenshot: the window's size, WIDTHxHEIGHT (default 1280x800)."),
      QStringLiteral("WxH"));
  parser.addOption(windowSize);
  parser.process(app);
  try {
    ec::frontends::ModelHints hints;
    for (const QString& s : parser.values(inputShape)) ec::frontends::parse_input_shape(s.toStdString(), hints);
    ec::frontends::set_default_model_hints(std::move(hints));
  } catch (const ec::EdgeCompilerError& e) {
    printError(QString::fromStdString(e.what()));
    std::exit(2);
  }

  const QStringList positional = parser.positionalArguments();
  if (positional.size() > 1) {
    printError(QCoreApplication::translate("main", "Only one model file can be opened."));
    std::exit(2);
  }
  int benchIterations = 0;
  if (parser.isSet(bench)) {
    bool ok = false;
    benchIterations = parser.value(bench).toInt(&ok);
    if (!ok || benchIterations < 1) {
      printError(QCoreApplication::translate("main", "--bench takes a number of runs, e.g. --bench 50."));
      std::exit(2);
    }
  }
  QSize size(1280, 800);
  if (parser.isSet(windowSize)) {
    const QStringList wh = parser.value(windowSize).split(QLatin1Char('x'));
    const int w = wh.value(0).toInt(), h = wh.size() == 2 ? wh[1].toInt() : 0;
    if (w < 320 || h < 240) {
      printError(QCoreApplication::translate("main", "--window-size takes WIDTHxHEIGHT, e.g. 1920x1080."));
      std::exit(2);
    }
    size = QSize(w, h);
  }
  return {positional.value(0), parser.value(screenshot), parser.isSet(optimize),   parser.isSet(quantize),
          parser.value(compile),   benchIterations,           parser.value(panel), parser.value(report),
          size};
}

}  // namespace

int main(int argc, char* argv[]) {
  Options options;
  {
    // A window-system-free application for the command line alone.
    QCoreApplication core(argc, argv);
    setApplicationNames();
    QSettings settings;
    ec::workbench::installTranslators(core, ec::workbench::chosenLanguage(settings));
    options = parseCommandLine(core);
    if (!displayAvailable()) {
      printError(QCoreApplication::translate(
          "main",
          "edgecompiler-workbench: no display (DISPLAY and WAYLAND_DISPLAY are unset): run it "
          "under xvfb-run -a, set QT_QPA_PLATFORM=offscreen for --screenshot, or use the CLI "
          "(edgecompile inspect MODEL)."));
      return 1;
    }
  }

  QApplication app(argc, argv);
  setApplicationNames();
  QApplication::setApplicationDisplayName(QStringLiteral("edgecompiler Workbench"));

  // The log panel shows the core's debug messages (which frontend was tried,
  // what shape inference did); the terminal keeps to info and above.
  for (const auto& sink : spdlog::default_logger()->sinks()) sink->set_level(spdlog::level::info);
  spdlog::set_level(spdlog::level::debug);

  QSettings settings;
  ec::workbench::installTranslators(app, ec::workbench::chosenLanguage(settings));

  const QString model = options.model;
  const QString screenshotPath = options.screenshotPath;
  // Scripted runs print nothing but the one-line error (the log panel still gets everything).
  if (!screenshotPath.isEmpty()) {
    for (const auto& sink : spdlog::default_logger()->sinks()) sink->set_level(spdlog::level::off);
  }

  ec::workbench::MainWindow window(settings);
  // Screenshots have one size whatever geometry the user saved.
  if (!screenshotPath.isEmpty()) {
    window.resize(options.windowSize);
    window.applyDefaultDockSizes();  // for this size (a saved layout is not used for screenshots)
  }
  window.show();
  // The steps asked for run in this order, each when the one before it has finished:
  // open -> --optimize -> --quantize -> --compile -> --bench (-> the screenshot).
  using W = ec::workbench::MainWindow;
  const bool optimizeAfterLoad = options.optimize, quantizeAfterLoad = options.quantize;
  const QString compileTarget = options.compileTarget;
  const bool compileAfterLoad = !compileTarget.isEmpty();
  const int benchIterations = options.benchIterations;
  const bool benchAfterLoad = benchIterations > 0;
  // Connects `then` to the end of the last step before it that was asked for (steps:
  // optimize, quantize, compile, bench; `upTo` of them are before it).
  auto afterStepsBefore = [&window, steps = std::array<bool, 4>{optimizeAfterLoad, quantizeAfterLoad, compileAfterLoad,
                                                                  benchAfterLoad}](int upTo, auto then) {
    const std::array<void (W::*)(), 4> ends{&W::optimized, &W::quantized, &W::compiled, nullptr};
    for (int k = upTo - 1; k >= 0; --k) {
      if (!steps[static_cast<std::size_t>(k)]) continue;
      if (k == 3) QObject::connect(&window, &W::benchmarked, &window, then);
      else QObject::connect(&window, ends[static_cast<std::size_t>(k)], &window, then);
      return;
    }
    QObject::connect(&window, &W::modelShown, &window, then);
  };
  if (optimizeAfterLoad) afterStepsBefore(0, [&window] { window.optimize(); });
  if (quantizeAfterLoad) afterStepsBefore(1, [&window] { window.quantize(); });
  if (compileAfterLoad) afterStepsBefore(2, [&window, compileTarget] { window.compileFor(compileTarget); });
  if (benchAfterLoad) afterStepsBefore(3, [&window, benchIterations] { window.benchmark(benchIterations); });

  if (!screenshotPath.isEmpty()) {
    const QString panel = options.panel, reportPath = options.reportPath;
    auto grabAndQuit = [&window, screenshotPath, panel, reportPath] {
      if (!panel.isEmpty()) {
        if (auto* dock = window.findChild<QDockWidget*>(panel + QStringLiteral("Dock"))) {
          dock->show();
          dock->raise();
          window.resizeDocks({dock}, {window.height() * 2 / 5}, Qt::Vertical);  // as the Tools menu does
        }
      }
      // Let the layout settle after the views were filled.
      QTimer::singleShot(300, &window, [&window, screenshotPath, reportPath] {
        if (!reportPath.isEmpty()) {
          QFile out(reportPath);
          if (!out.open(QIODevice::WriteOnly) ||
              out.write(QJsonDocument(ec::workbench::layoutReport(window)).toJson()) < 0) {
            printError(QCoreApplication::translate("main", "Cannot write the report to %1").arg(reportPath));
            QCoreApplication::exit(1);
            return;
          }
        }
        if (!window.grab().save(screenshotPath)) {
          printError(QCoreApplication::translate("main", "Cannot write the screenshot to %1")
                         .arg(screenshotPath));
          QCoreApplication::exit(1);
          return;
        }
        QCoreApplication::exit(0);
      });
    };
    // After modelShown (or optimized) the graph is laid out on GraphView's worker thread;
    // framePainted comes only for a frame of the finished layout: grab after it.
    auto grabAfterPaint = [&window, grabAndQuit] {
          auto connection = std::make_shared<QMetaObject::Connection>();
          *connection = QObject::connect(window.graphView(), &ec::widgets::GraphView::framePainted,
                                         &window, [connection, grabAndQuit] {
                                           QObject::disconnect(*connection);
                                           grabAndQuit();
                                         });
          window.graphView()->viewport()->update();
        };
    afterStepsBefore(4, grabAfterPaint);  // after the last step asked for (or the model shown)
    auto quitWith = [](const QString& message) {
      printError(message);
      QCoreApplication::exit(1);
    };
    if (optimizeAfterLoad) QObject::connect(&window, &W::optimizeFailed, &window, quitWith);
    if (quantizeAfterLoad) QObject::connect(&window, &W::quantizeFailed, &window, quitWith);
    if (compileAfterLoad) QObject::connect(&window, &W::compileFailed, &window, quitWith);
    if (benchAfterLoad) QObject::connect(&window, &W::benchmarkFailed, &window, quitWith);
    QObject::connect(&window, &ec::workbench::MainWindow::loadFailed, &window,
                     [](const QString& message) {
                       printError(message);
                       QCoreApplication::exit(1);
                     });
    QTimer::singleShot(kScreenshotTimeoutMs, &window, [] {
      printError(QCoreApplication::translate("main", "Timed out waiting for the model to load."));
      QCoreApplication::exit(1);
    });
    if (model.isEmpty()) grabAndQuit();
  }
  if (!model.isEmpty()) window.openFile(model);

  return app.exec();
}
