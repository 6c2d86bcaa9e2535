// File › Export (issue 41): the graph as SVG or PNG (the whole graph or the visible
// area), the single-file HTML report `edgecompile report --html` writes, the model
// as ONNX / TFLite / EIR through the writers `edgecompile convert` uses, and any
// table as CSV (the focused one from the menu, every table from its context menu).
//
// The controller owns the actions and asks only for the target path (through a
// chooser tests replace); each export*() takes the path, so everything is testable
// without a dialog. Rendering and serialising run on a worker (a JobRunner, ExportRunner.h) behind
// a progress dialog with Cancel; tables and the on-screen PNG are written at once.
// Success is a status-bar line; a failure is one line in the message bar, and no
// file is left behind.
#pragma once

#include <functional>
#include <memory>

#include <QObject>
#include <QPointer>
#include <QString>

#include "app/workbench/GraphExport.h"
#include "core/ir/graph.h"
#include "widgets/bench/BenchCharts.h"
#include "widgets/compile/CompileModels.h"
#include "widgets/quant/QuantFormat.h"

class QAbstractItemView;
class QAction;
class QMainWindow;
class QMenu;
class QProgressDialog;
class QSettings;

namespace ec::widgets {
class GraphView;
class MessageBar;
}  // namespace ec::widgets

namespace ec::workbench {

class JobRunner;
struct ExportOutcome;

class ExportController : public QObject {
  Q_OBJECT

 public:
  /// Where the exported data comes from: the window's current state, asked at export time.
  struct Sources {
    std::function<ec::ir::FrozenGraph()> graph;  ///< the graph shown (null: no model)
    std::function<QString()> modelPath;
    std::function<ec::widgets::CompileReportPtr()> compileReport;  ///< null: none
    std::function<ec::widgets::QuantReportPtr()> quantReport;
    std::function<ec::widgets::StatsPtr()> benchStats;
  };
  /// Asks for the file to write: dialog title, suggested path, name filter; "" = cancelled.
  using PathChooser = std::function<QString(const QString& title, const QString& suggested, const QString& filter)>;

  ExportController(QMainWindow* window, ec::widgets::GraphView* view, ec::widgets::MessageBar* bar,
                   QSettings& settings, Sources sources);
  ~ExportController() override;

  /// File › Export (its actions are named: exportSvgWholeAction, exportPngVisibleAction...).
  QMenu* menu() const { return menu_; }
  /// Replaces the save dialog (tests).
  void setPathChooser(PathChooser chooser) { chooser_ = std::move(chooser); }
  /// Gives `view` the context-menu entry "Export as CSV…".
  void addTableActions(QAbstractItemView* view);
  /// Enables what there is something to export for (also done whenever the menu opens).
  void updateActions();
  /// Sets every text again (language change).
  void retranslate();
  /// The table File › Export › Current Table as CSV… writes: the focused one, else the
  /// last one focused (null: none).
  QAbstractItemView* currentTable() const;
  bool isBusy() const;

  /// The graph as shown, to `path` (.svg or .png, by its suffix).
  void exportGraph(const QString& path, GraphArea area);
  /// The HTML report of the graph shown with the window's compile, quantisation and
  /// benchmark results (those that belong to that graph).
  void exportHtmlReport(const QString& path);
  /// The graph shown as a model file (.onnx, .tflite or .eir, by its suffix).
  void exportModel(const QString& path);
  /// `view`'s rows as CSV (at once); false on failure (also reported).
  bool exportTable(const QAbstractItemView* view, const QString& path);

 signals:
  /// An export finished writing `path`.
  void exported(const QString& path);
  /// An export failed; `message` is one line (also in the message bar).
  void exportFailed(const QString& message);
  /// An export was cancelled (nothing was written).
  void exportCancelled();

 private:
  QAction* addAction(QMenu* menu, const char* objectName, std::function<void()> run);
  /// Asks for a path (dialog or chooser); remembers its folder.
  QString askPath(const QString& title, const QString& suggestedName, const QString& filter);
  QString baseName() const;
  /// Refuses (reporting) a target in a folder that does not exist or cannot be written.
  bool checkTarget(const QString& path);
  void fail(const QString& path, const QString& message);
  void closeProgress();
  void succeed(const QString& path, const QString& what);
  /// Runs `produce` on the worker behind a progress dialog, then writes `path`.
  void start(const QString& path, const QString& what, std::function<std::string(std::size_t*)> produce,
             std::function<QString(const ExportOutcome&)> done);
  void exportGraphInteractive(bool png, GraphArea area);
  void exportModelInteractive(const QString& suffix, const QString& filter);
  void exportTableInteractive(QAbstractItemView* view);

  QMainWindow* window_;
  ec::widgets::GraphView* view_;
  ec::widgets::MessageBar* bar_;
  QSettings& settings_;
  Sources sources_;
  PathChooser chooser_;
  JobRunner* jobs_ = nullptr;  // the export running (one at a time)
  QProgressDialog* progress_ = nullptr;
  std::function<QString(const ExportOutcome&)> done_;  // the running export's success line
  QString runningWhat_;
  QPointer<QAbstractItemView> lastTable_;

  QMenu* menu_ = nullptr;
  QMenu* svgMenu_ = nullptr;
  QMenu* pngMenu_ = nullptr;
  QAction *svgWhole_ = nullptr, *svgVisible_ = nullptr, *pngWhole_ = nullptr, *pngVisible_ = nullptr;
  QAction *html_ = nullptr, *onnx_ = nullptr, *tflite_ = nullptr, *eir_ = nullptr, *table_ = nullptr;
};

}  // namespace ec::workbench
