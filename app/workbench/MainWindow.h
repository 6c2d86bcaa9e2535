// The workbench's main window over one model. The centre shows the graph
// (GraphView) under a find bar; views live in docks (properties, operations,
// summary, log) so later panels (pass list, quantisation heatmap, partition
// view, timeline) slot in with addPanel(). Loading and every other long job run on
// a worker thread (JobRunner.h); results arrive as immutable snapshots on the GUI thread.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <QMainWindow>
#include <QStringList>

#include "core/ir/graph.h"
#include "core/report/model_summary.h"

class QAction;
class QActionGroup;
class QDialog;
class QDockWidget;
class QLabel;
class QProgressDialog;
class QMenu;
class QProgressBar;
class QPushButton;
class QSettings;
class QStackedWidget;
class QTreeView;

namespace ec::widgets {
class GraphView;
class LogPanel;
class LogSink;
class MessageBar;
class ModelSummaryModel;
class OperationListModel;
class BenchmarkPanel;
class PartitionPanel;
class PassesPanel;
class PropertiesPanel;
class QuantPanel;
class RunHistoryPanel;
class SearchBar;
class SummaryPanel;
class TimelinePanel;
class DevicesPanel;
class CompareView;
}  // namespace ec::widgets

namespace ec::passes {
struct PipelineReport;
}  // namespace ec::passes

namespace ec::workbench {

class CompareController;
class CompileController;
class DevicesBenchController;
class ExportController;
class JobRunner;
class PassesController;
class QuantController;

/// A target's own options of a compile (the targets whose Capabilities::options take
/// them): precision, compute units, deployment target.
struct TargetOptions {
  QString precision = QStringLiteral("fp16");
  QString computeUnits = QStringLiteral("all");
  QString deploymentTarget = QStringLiteral("macOS13");
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  static constexpr int kMaxRecentFiles = 10;

  /// `settings` holds geometry, dock state, recent files and the UI language;
  /// it must outlive the window.
  explicit MainWindow(QSettings& settings, QWidget* parent = nullptr);
  /// Waits for a running load to finish (the core's open is not interruptible).
  ~MainWindow() override;

  bool isLoading() const;
  /// The bundled sample model: beside an installed app (share/edgecompiler) or in its
  /// build tree (resources/), or "" when there is none.
  static QString findSampleModel();
  /// The model the welcome page offers (findSampleModel() unless set).
  void setSampleModel(const QString& path);
  QString sampleModel() const { return welcome_.sampleModel; }
  /// The page shown while no model is open: Open…, the sample model, recent files.
  QWidget* welcomePage() const { return welcome_.page; }
  /// What the title says after the file name: "optimised, quantised, compiled for coral".
  QString modelState() const;
  QStringList recentFiles() const;
  /// The summary shown, or null before the first successful load.
  const ec::widgets::ModelSummaryModel* summaryModel() const;
  const ec::widgets::MessageBar* messageBar() const { return views_.messageBar; }
  const ec::ir::FrozenGraph& graph() const { return model_.graph; }
  ec::widgets::GraphView* graphView() const { return views_.graphView; }
  ec::widgets::PropertiesPanel* propertiesPanel() const { return views_.propertiesPanel; }
  ec::widgets::SearchBar* searchBar() const { return views_.searchBar; }
  ec::widgets::PassesPanel* passesPanel() const;
  bool isOptimizing() const;
  ec::widgets::QuantPanel* quantPanel() const;
  bool isQuantizing() const;
  ec::widgets::PartitionPanel* partitionPanel() const;
  ec::widgets::TimelinePanel* timelinePanel() const;
  bool isCompiling() const;
  ec::widgets::DevicesPanel* devicesPanel() const;
  ec::widgets::BenchmarkPanel* benchmarkPanel() const;
  ec::widgets::RunHistoryPanel* runHistoryPanel() const;
  ec::widgets::CompareView* compareView() const;
  bool isComparing() const;
  /// File › Export (ExportController.h).
  ExportController* exporter() const { return exporter_; }
  /// Random calibration samples of Compile for Target's post-training quantisation.
  static constexpr int kCompileRandomSamples = 32;

 public slots:
  /// Starts loading `path` in the background; a load already running is cancelled.
  void openFile(const QString& path);
  /// Ignores the result of the running load (it still runs to completion).
  void cancelLoad();
  /// Runs the default pass pipeline on the loaded model in the background
  /// (Model › Optimize); the Passes panel shows the result (PassesController.h).
  void optimize();
  /// Quantises the model shown (the optimised graph when there is one) in the
  /// background with the Quantisation panel's settings (Tools › Quantise…; QuantController.h).
  void quantize();
  /// Asks for a target and a quantisation, then compiles (Model › Compile for Target…).
  void compileDialog();
  /// Compiles the model shown for `target` ("coral", "cpu") in the background;
  /// `quantize` "ptq" (random calibration), "none", or empty: none for an
  /// already quantised model, else ptq. The Partition and Backend Timeline panels
  /// show the report (CompileController.h).
  void compileFor(const QString& target, const QString& quantize = {}, const TargetOptions& options = {});
  /// Same, with calibration data (.npy file or folder; "" = random samples), the
  /// samples to use and the Edge TPU segments allowed (Compile for Target's dialog).
  void compileWith(const QString& target, const QString& quantize, const QString& calibrationFile,
                   int calibrationSamples, int numSegments, const TargetOptions& options = {});
  /// Compares the model shown with the model at `path` on a worker thread (Model ›
  /// Compare With…); the Compare dock shows both side by side (CompareController.h).
  void compareWith(const QString& path);
  /// Compares each stage of the default pass pipeline with the one before, on a worker
  /// (Model › Compare Pass Stages); the Compare dock steps through them.
  void compareStages();
  /// Times the model shown on the host CPU with `iterations` timed runs through the
  /// Benchmark panel (Tools › Benchmark…, Run), recording the run; benchmarked() follows.
  void benchmark(int iterations);
  /// Discovers devices again on a worker thread; the Devices panel shows them (DevicesBenchController.h).
  void refreshDevices();
  /// View › Reset Layout: the docks as on first start (graph first, panels hidden
  /// until they have something to show), the saved layout forgotten.
  void resetLayout();
  /// The docks' sizes on first start and after Reset Layout, for the window's size
  /// (again after a resize before the window is shown: screenshots).
  void applyDefaultDockSizes();
  /// Help › Keyboard Shortcuts: every action with a shortcut and the graph's keys.
  void showKeyboardShortcuts();
  /// The dialog showKeyboardShortcuts() opens (a child of this window, not shown yet).
  QDialog* keyboardShortcutsDialog();

 signals:
  /// A model finished loading and every view now shows it.
  void modelShown(const QString& path);
  /// Loading failed; `message` is the core's one-line error (also in the message bar).
  void loadFailed(const QString& message);
  /// Language code requested through View > Language ("en", "de").
  void languageChosen(const QString& language);
  /// The pass pipeline finished and the Passes panel shows its report.
  void optimized();
  /// The pass pipeline failed; `message` is the core's one-line error.
  void optimizeFailed(const QString& message);
  /// Quantisation finished and the Quantisation panel shows its report.
  void quantized();
  /// Quantisation failed; `message` is the core's one-line error.
  void quantizeFailed(const QString& message);
  /// The compile finished and the Partition panel shows its report.
  void compiled();
  /// The compile failed; `message` is the core's one-line error.
  void compileFailed(const QString& message);
  /// Device discovery finished and the Devices panel shows its result.
  void devicesDiscovered();
  /// A benchmark finished (Benchmark panel); `runId` is its run-history id (0: not recorded).
  void benchmarked(qint64 runId);
  /// A benchmark failed; `message` is the core's one-line error.
  void benchmarkFailed(const QString& message);
  /// Compare With… finished and the Compare dock shows the result.
  void compared();
  /// Compare With… failed; `message` is the core's one-line error.
  void compareFailed(const QString& message);

 protected:
  void closeEvent(QCloseEvent* event) override;
  /// QEvent::LanguageChange (View › Language): every text set through retranslated() again.
  void changeEvent(QEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  // The areas are controllers the window owns; they reach the window's views and
  // helpers below (friends: the window is their shell, not their API).
  friend class PassesController;
  friend class QuantController;
  friend class CompileController;
  friend class CompareController;
  friend class DevicesBenchController;

  void createCentralWidget();
  void createDocks();
  void createActions();
  void addGraphActions(QMenu* edit, QMenu* view);
  void addModelMenu();
  void addToolsMenu();
  /// Shows op `op` everywhere: graph selection, properties, operations list.
  void showOp(int op);
  /// Selects the op called `name` in the graph shown now (nothing when it has none).
  void showOpByName(const QString& name);
  /// Shows `graph` in the graph view, operations list, properties and search.
  void setViewsGraph(const ec::ir::FrozenGraph& graph);
  /// The graph quantise and compile start from: the one the optimisation ended with,
  /// when the model was optimised, else the loaded one.
  ec::ir::FrozenGraph workingGraph() const;
  void createStatusBar();
  /// Adds `panel` as a dock with a View-menu toggle; `objectName` keys its saved state.
  QDockWidget* addPanel(QWidget* panel, const QString& title, const QString& objectName,
                        Qt::DockWidgetArea area);
  void restoreWindowState();
  void createWelcomePage();
  void rebuildWelcomePage();
  void setLoading(bool loading, const QString& path = {});
  void addRecentFile(const QString& path);
  void setRecentFiles(const QStringList& files);
  void rebuildRecentMenu();
  void chooseFile();
  void chooseFolder();
  void showAbout();
  void onModelLoaded(const QString& path, ec::ir::FrozenGraph graph, const ec::report::ModelSummary& summary);
  void onLoadFailed(const QString& path, const QString& message);
  void createExporter();  // MainWindowExport.cpp

  /// Runs `apply` (which sets texts with tr()) now and again on every language change.
  void retranslated(std::function<void()> apply);
  void updateWindowTitle();

  /// The views of the model shown: the centre (message bar, graph or welcome page)
  /// and the standard docks.
  struct Views {
    ec::widgets::MessageBar* messageBar = nullptr;
    QStackedWidget* centre = nullptr;
    QLabel* emptyHint = nullptr;
    ec::widgets::GraphView* graphView = nullptr;
    ec::widgets::SearchBar* searchBar = nullptr;
    ec::widgets::PropertiesPanel* propertiesPanel = nullptr;
    QTreeView* opsView = nullptr;
    ec::widgets::OperationListModel* opsModel = nullptr;
    ec::widgets::SummaryPanel* summaryPanel = nullptr;
    ec::widgets::LogPanel* logPanel = nullptr;
    std::shared_ptr<ec::widgets::LogSink> logSink;
  };
  /// The menus other parts add to.
  struct Menus {
    QMenu* viewMenu = nullptr;
    QAction* viewPanelsEnd = nullptr;  // panel toggles go above this separator
    QMenu* recentMenu = nullptr;
    QActionGroup* languageGroup = nullptr;
  };
  /// The page shown while no model is open.
  struct Welcome {
    QWidget* page = nullptr;
    QWidget* recent = nullptr;  // the recent files' buttons
    QPushButton* sample = nullptr;
    QString sampleModel;
  };
  /// The model shown, its loading (File › Open on a JobRunner, ModelLoader.h) and what
  /// has been done to it (the title says it).
  struct Model {
    JobRunner* loader = nullptr;
    QProgressBar* progress = nullptr;
    QPushButton* cancelButton = nullptr;
    QString currentPath;
    ec::ir::FrozenGraph graph;
    bool optimised = false, quantised = false;
    QString compiledFor;
    bool showingOp = false;  // showOp() updates views whose signals call it again
  };

  QSettings& settings_;
  std::vector<std::function<void()>> retranslators_;
  QByteArray defaultState_;  // saveState() of the first-start layout (Reset Layout)
  Views views_;
  Menus menus_;
  Welcome welcome_;
  Model model_;
  PassesController* passes_ = nullptr;
  QuantController* quant_ = nullptr;
  CompileController* compile_ = nullptr;
  CompareController* compare_ = nullptr;
  DevicesBenchController* bench_ = nullptr;
  ExportController* exporter_ = nullptr;
};

}  // namespace ec::workbench
