#include "app/workbench/ExportController.h"

#include <optional>

#include <nlohmann/json.hpp>

#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMainWindow>
#include <QMenu>
#include <QProgressDialog>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QTableView>
#include <QTreeView>

#include "app/workbench/ExportRunner.h"
#include "core/flows/flows.h"
#include "core/quantize/report_json.h"
#include "core/render/html_report.h"
#include "core/report/compile_report.h"
#include "core/runtime/stats.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/TableCsv.h"

namespace ec::workbench {
namespace {

const QString kExportDirKey = QStringLiteral("lastExportDir");

bool isTable(const QObject* w) {
  return qobject_cast<const QTreeView*>(w) || qobject_cast<const QTableView*>(w);
}

// A report the window holds, as the JSON the CLI reads, when it belongs to `g`.
void addEvidence(const ec::ir::Graph& g, std::optional<nlohmann::json>& slot, std::string& path,
                 nlohmann::json report, const std::string& label, const std::string& kind) {
  try {
    ec::render::check_report_matches(g, report, label, kind);
    slot = std::move(report);
    path = label;
  } catch (const std::exception&) {
    // A result of another graph (e.g. the float model's quantisation shown beside the
    // compiled graph) stays out of the report rather than failing it.
  }
}

}  // namespace

ExportController::ExportController(QMainWindow* window, ec::widgets::GraphView* view,
                                   ec::widgets::MessageBar* bar, QSettings& settings, Sources sources)
    : QObject(window), window_(window), view_(view), bar_(bar), settings_(settings), sources_(std::move(sources)) {
  jobs_ = new JobRunner(QStringLiteral("ExportRunner"), this);
  jobs_->setCancelDropsResult(false);  // ExportRunner decides: a file once written is a success

  menu_ = new QMenu(window);
  menu_->setObjectName(QStringLiteral("exportMenu"));
  svgMenu_ = menu_->addMenu(QString());
  svgWhole_ = addAction(svgMenu_, "exportSvgWholeAction", [this] { exportGraphInteractive(false, GraphArea::Whole); });
  svgVisible_ = addAction(svgMenu_, "exportSvgVisibleAction", [this] { exportGraphInteractive(false, GraphArea::Visible); });
  pngMenu_ = menu_->addMenu(QString());
  pngWhole_ = addAction(pngMenu_, "exportPngWholeAction", [this] { exportGraphInteractive(true, GraphArea::Whole); });
  pngVisible_ = addAction(pngMenu_, "exportPngVisibleAction", [this] { exportGraphInteractive(true, GraphArea::Visible); });
  html_ = addAction(menu_, "exportHtmlAction", [this] {
    const QString path = askPath(tr("Export HTML Report"), baseName() + QStringLiteral("_report.html"),
                                 tr("HTML report (*.html)"));
    if (!path.isEmpty()) exportHtmlReport(path);
  });
  menu_->addSeparator();
  onnx_ = addAction(menu_, "exportOnnxAction", [this] { exportModelInteractive(QStringLiteral(".onnx"), tr("ONNX model (*.onnx)")); });
  tflite_ = addAction(menu_, "exportTfliteAction",
                      [this] { exportModelInteractive(QStringLiteral(".tflite"), tr("TensorFlow Lite model (*.tflite)")); });
  eir_ = addAction(menu_, "exportEirAction", [this] { exportModelInteractive(QStringLiteral(".eir"), tr("IR text form (*.eir)")); });
  menu_->addSeparator();
  table_ = addAction(menu_, "exportTableAction", [this] { exportTableInteractive(currentTable()); });
  connect(menu_, &QMenu::aboutToShow, this, &ExportController::updateActions);
  // The table Current Table as CSV… means: focus moves to the menu bar when it opens.
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) {
    for (QWidget* w = now; w; w = w->parentWidget()) {
      if (isTable(w)) {
        lastTable_ = static_cast<QAbstractItemView*>(w);
        return;
      }
    }
  });
  retranslate();
  updateActions();
}

ExportController::~ExportController() = default;

void ExportController::closeProgress() {
  updateActions();  // idle again
  if (!progress_) return;
  progress_->reset();  // stops the timer that would show it later
  progress_->hide();
}

QAction* ExportController::addAction(QMenu* menu, const char* objectName, std::function<void()> run) {
  QAction* action = menu->addAction(QString());
  action->setObjectName(QLatin1String(objectName));
  connect(action, &QAction::triggered, this, [run = std::move(run)] { run(); });
  return action;
}

void ExportController::retranslate() {
  menu_->setTitle(tr("&Export"));
  svgMenu_->setTitle(tr("Graph as &SVG"));
  pngMenu_->setTitle(tr("Graph as &PNG"));
  for (QAction* a : {svgWhole_, pngWhole_}) {
    a->setText(tr("&Whole Graph…"));
    a->setStatusTip(tr("Every op as laid out now (expanded groups, overlay and legend as shown)"));
  }
  for (QAction* a : {svgVisible_, pngVisible_}) {
    a->setText(tr("&Visible Area…"));
    a->setStatusTip(tr("What the graph view shows now"));
  }
  html_->setText(tr("&HTML Report…"));
  html_->setStatusTip(tr("One self-contained HTML file: the graph, and the compile, quantisation and benchmark results"));
  onnx_->setText(tr("Model as &ONNX…"));
  tflite_->setText(tr("Model as &TFLite…"));
  eir_->setText(tr("Model as &EIR…"));
  for (QAction* a : {onnx_, tflite_, eir_}) a->setStatusTip(tr("The graph shown (optimised, quantised or compiled) as a model file"));
  table_->setText(tr("Current &Table as CSV…"));
  table_->setStatusTip(tr("The rows of the table last focused, as the panel shows them"));
}

QAbstractItemView* ExportController::currentTable() const {
  for (QWidget* w = QApplication::focusWidget(); w; w = w->parentWidget()) {
    if (isTable(w)) return static_cast<QAbstractItemView*>(w);
  }
  return lastTable_.data();
}

bool ExportController::isBusy() const { return jobs_->isRunning(); }

void ExportController::updateActions() {
  const bool graph = sources_.graph && sources_.graph() != nullptr;
  const bool idle = !isBusy();
  svgMenu_->setEnabled(graph && idle);
  pngMenu_->setEnabled(graph && idle);
  for (QAction* a : {svgWhole_, svgVisible_, pngWhole_, pngVisible_, html_, onnx_, tflite_, eir_})
    a->setEnabled(graph && idle);
  const QAbstractItemView* t = currentTable();
  table_->setEnabled(t && t->model() && t->model()->rowCount() > 0);
}

void ExportController::addTableActions(QAbstractItemView* view) {
  view->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(view, &QWidget::customContextMenuRequested, this, [this, view](const QPoint& at) {
    QMenu menu(view);
    QAction* csv = menu.addAction(tr("Export as CSV…"));
    csv->setEnabled(view->model() && view->model()->rowCount() > 0);
    if (menu.exec(view->viewport()->mapToGlobal(at)) == csv) exportTableInteractive(view);
  });
}

QString ExportController::baseName() const {
  const QString path = sources_.modelPath ? sources_.modelPath() : QString();
  const QString base = QFileInfo(path).completeBaseName();
  return base.isEmpty() ? QStringLiteral("model") : base;
}

QString ExportController::askPath(const QString& title, const QString& suggestedName, const QString& filter) {
  QString dir = settings_.value(kExportDirKey).toString();
  if (dir.isEmpty() || !QFileInfo(dir).isDir()) {
    const QString model = sources_.modelPath ? sources_.modelPath() : QString();
    dir = model.isEmpty() ? QDir::homePath() : QFileInfo(model).absolutePath();
  }
  const QString suggested = QDir(dir).filePath(suggestedName);
  const QString path = chooser_ ? chooser_(title, suggested, filter)
                                : QFileDialog::getSaveFileName(window_, title, suggested, filter);
  if (!path.isEmpty()) settings_.setValue(kExportDirKey, QFileInfo(path).absolutePath());
  return path;
}

bool ExportController::checkTarget(const QString& path) {
  const QFileInfo info(path);
  const QFileInfo dir(info.absolutePath());
  if (!dir.isDir()) {
    fail(path, tr("the folder %1 does not exist").arg(QDir::toNativeSeparators(dir.absoluteFilePath())));
    return false;
  }
  if (!dir.isWritable()) {
    fail(path, tr("the folder %1 cannot be written").arg(QDir::toNativeSeparators(dir.absoluteFilePath())));
    return false;
  }
  return true;
}

void ExportController::fail(const QString& path, const QString& message) {
  const QString line = path.isEmpty() ? tr("Export failed: %1").arg(message)
                                      : tr("Could not export %1: %2").arg(QFileInfo(path).fileName(), message);
  bar_->showError(line);
  window_->statusBar()->showMessage(tr("Export failed"), 8000);
  emit exportFailed(line);
}

void ExportController::succeed(const QString& path, const QString& what) {
  bar_->dismiss();
  window_->statusBar()->showMessage(
      what.isEmpty() ? tr("Exported %1").arg(QDir::toNativeSeparators(path))
                     : tr("Exported %1 (%2)").arg(QDir::toNativeSeparators(path), what),
      10000);
  emit exported(path);
}

void ExportController::start(const QString& path, const QString& what,
                             std::function<std::string(std::size_t*)> produce,
                             std::function<QString(const ExportOutcome&)> done) {
  if (isBusy()) {
    fail(path, tr("another export is still running"));
    return;
  }
  done_ = std::move(done);
  runningWhat_ = what;
  ExportJob job;
  job.path = path;
  job.produce = std::move(produce);
  JobHandlers<ExportOutcomePtr> h;
  h.done = [this](const ExportOutcomePtr& outcome) {
    closeProgress();
    succeed(outcome->path, done_ ? done_(*outcome) : QString());
  };
  h.failed = [this](const QString& message) {
    closeProgress();
    fail(QString(), message);
  };
  h.cancelled = [this] {
    closeProgress();
    window_->statusBar()->showMessage(tr("Export cancelled; nothing was written."), 8000);
    emit exportCancelled();
  };
  jobs_->start<ExportOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return ExportRunner::run(job, ctx); },
                                 std::move(h));
  updateActions();  // one export at a time
  if (!progress_) {
    progress_ = new QProgressDialog(window_);
    progress_->setObjectName(QStringLiteral("exportProgress"));
    progress_->setWindowModality(Qt::WindowModal);
    progress_->setRange(0, 0);  // the core's writers report no steps
    progress_->setAutoClose(false);
    progress_->setAutoReset(false);
    connect(progress_, &QProgressDialog::canceled, this, [this] { jobs_->cancel(); });
  }
  progress_->setWindowTitle(tr("Export"));
  progress_->setLabelText(tr("Writing %1…").arg(QFileInfo(path).fileName()) + QLatin1Char('\n') + what);
  progress_->setCancelButtonText(tr("Cancel"));
  // Quick exports finish before the dialog would show.
  progress_->setMinimumDuration(500);
  progress_->setValue(0);
}

void ExportController::exportGraphInteractive(bool png, GraphArea area) {
  const bool whole = area == GraphArea::Whole;
  const QString title = png ? (whole ? tr("Export Whole Graph as PNG") : tr("Export Visible Area as PNG"))
                            : (whole ? tr("Export Whole Graph as SVG") : tr("Export Visible Area as SVG"));
  const QString path = askPath(title, baseName() + (png ? QStringLiteral(".png") : QStringLiteral(".svg")),
                               png ? tr("PNG image (*.png)") : tr("SVG image (*.svg)"));
  if (!path.isEmpty()) exportGraph(path, area);
}

void ExportController::exportGraph(const QString& path, GraphArea area) {
  const bool png = path.endsWith(QLatin1String(".png"), Qt::CaseInsensitive);
  if (!png && !path.endsWith(QLatin1String(".svg"), Qt::CaseInsensitive)) {
    fail(path, tr("name the picture *.svg or *.png"));
    return;
  }
  if (!view_->graph()) {
    fail(path, tr("no graph is shown"));
    return;
  }
  if (!checkTarget(path)) return;
  view_->waitForLayout();  // the layout asked for last, not the one before
  if (png && area == GraphArea::Visible) {
    // The view's own pixels: quick, on this thread.
    const QImage image = view_->renderVisibleArea();
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") || !file.commit()) {
      fail(path, file.errorString().isEmpty() ? tr("the image could not be written") : file.errorString());
      return;
    }
    succeed(path, tr("%1 × %2 px").arg(image.width()).arg(image.height()));
    return;
  }
  const QString model = sources_.modelPath ? QFileInfo(sources_.modelPath()).fileName() : QString();
  GraphPictureJob job = graphPictureJob(*view_, area, png, model.isEmpty() ? QString::fromStdString(view_->graph()->name) : model);
  const QString what = tr("Laying out and drawing %n op(s)", nullptr, int(job.graph->ops.size()));
  start(path, what,
        [job = std::move(job)](std::size_t* count) { return renderGraphPicture(job, count); },
        [](const ExportOutcome& o) { return tr("%n op box(es)", nullptr, int(o.count)); });
}

void ExportController::exportHtmlReport(const QString& path) {
  const ec::ir::FrozenGraph graph = sources_.graph ? sources_.graph() : nullptr;
  if (!graph) {
    fail(path, tr("no model is open"));
    return;
  }
  if (!path.endsWith(QLatin1String(".html"), Qt::CaseInsensitive) &&
      !path.endsWith(QLatin1String(".htm"), Qt::CaseInsensitive)) {
    fail(path, tr("name the report *.html"));
    return;
  }
  if (!checkTarget(path)) return;
  // The results as the JSON `edgecompile ... --json` prints, checked on the worker.
  std::optional<nlohmann::json> compile, quant, bench;
  if (auto r = sources_.compileReport ? sources_.compileReport() : nullptr) compile = ec::report::to_json(*r);
  if (auto r = sources_.quantReport ? sources_.quantReport() : nullptr) quant = ec::quantize::to_json(*r);
  if (auto s = sources_.benchStats ? sources_.benchStats() : nullptr) bench = ec::runtime::to_json(*s);
  const std::string modelPath = sources_.modelPath ? sources_.modelPath().toStdString() : std::string();
  start(path, tr("Laying out %n op(s) for the report", nullptr, int(graph->ops.size())),
        [graph, compile, quant, bench, modelPath](std::size_t* count) {
          ec::render::Evidence evidence;
          if (compile) addEvidence(*graph, evidence.compile, evidence.compile_path, *compile, "compile", "compile");
          if (quant) addEvidence(*graph, evidence.quant, evidence.quant_path, *quant, "quantisation", "quantisation");
          if (bench) addEvidence(*graph, evidence.bench, evidence.bench_path, *bench, "benchmark", "benchmark");
          ec::render::HtmlReportOptions options;
          options.model_path = modelPath;
          *count = graph->ops.size();
          return ec::render::make_html_report(*graph, evidence, options);
        },
        [](const ExportOutcome& o) { return tr("%n op(s)", nullptr, int(o.count)); });
}

void ExportController::exportModelInteractive(const QString& suffix, const QString& filter) {
  const QString path = askPath(tr("Export Model"), baseName() + suffix, filter);
  if (!path.isEmpty()) exportModel(path);
}

void ExportController::exportModel(const QString& path) {
  const ec::ir::FrozenGraph graph = sources_.graph ? sources_.graph() : nullptr;
  if (!graph) {
    fail(path, tr("no model is open"));
    return;
  }
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix != QLatin1String("onnx") && suffix != QLatin1String("tflite") && suffix != QLatin1String("eir")) {
    fail(path, tr("name the model *.onnx, *.tflite or *.eir"));
    return;
  }
  if (!checkTarget(path)) return;
  const std::string target = path.toStdString();
  start(path, tr("Writing %n op(s)", nullptr, int(graph->ops.size())),
        [graph, target](std::size_t* count) { return ec::flows::serialise_model(*graph, target, {}, count); },
        [](const ExportOutcome& o) { return tr("%n op(s)", nullptr, int(o.count)); });
}

void ExportController::exportTableInteractive(QAbstractItemView* view) {
  if (!view) {
    fail(QString(), tr("no table has the focus; click into a table first"));
    return;
  }
  QString name;
  for (QWidget* w = view; w; w = w->parentWidget()) {
    if (auto* dock = qobject_cast<QDockWidget*>(w)) {
      name = dock->windowTitle();
      break;
    }
  }
  name.replace(QRegularExpression(QStringLiteral("[^\\w.-]+")), QStringLiteral("_"));
  const QString path = askPath(tr("Export Table as CSV"),
                               baseName() + (name.isEmpty() ? QString() : QLatin1Char('_') + name) + QStringLiteral(".csv"),
                               tr("CSV table (*.csv)"));
  if (!path.isEmpty()) exportTable(view, path);
}

bool ExportController::exportTable(const QAbstractItemView* view, const QString& path) {
  if (!view || !view->model()) {
    fail(path, tr("no table to export"));
    return false;
  }
  if (!checkTarget(path)) return false;
  QString error;
  if (!ec::widgets::writeTableCsv(*view, path, &error)) {
    fail(path, error);
    return false;
  }
  succeed(path, tr("%n row(s)", nullptr, ec::widgets::csvRowCount(*view->model())));
  return true;
}

}  // namespace ec::workbench
