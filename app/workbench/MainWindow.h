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

class ExportController;
class JobRunner;
class DevicesController;
struct CompareJob;
struct CompileOutcome;
struct QuantOutcome;

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
  QString sampleModel() const { return sampleModel_; }
  /// The page shown while no model is open: Open…, the sample model, recent files.
  QWidget* welcomePage() const { return welcome_; }
  /// What the title says after the file name: "optimised, quantised, compiled for coral".
  QString modelState() const;
  QStringList recentFiles() const;
  /// The summary shown, or null before the first successful load.
  const ec::widgets::ModelSummaryModel* summaryModel() const;
  const ec::widgets::MessageBar* messageBar() const { return messageBar_; }
  const ec::ir::FrozenGraph& graph() const { return graph_; }
  ec::widgets::GraphView* graphView() const { return graphView_; }
  ec::widgets::PropertiesPanel* propertiesPanel() const { return propertiesPanel_; }
  ec::widgets::SearchBar* searchBar() const { return searchBar_; }
  ec::widgets::PassesPanel* passesPanel() const { return passesPanel_; }
  bool isOptimizing() const;
  ec::widgets::QuantPanel* quantPanel() const { return quantPanel_; }
  bool isQuantizing() const;
  ec::widgets::PartitionPanel* partitionPanel() const { return partitionPanel_; }
  ec::widgets::TimelinePanel* timelinePanel() const { return timelinePanel_; }
  bool isCompiling() const;
  ec::widgets::DevicesPanel* devicesPanel() const { return devicesPanel_; }
  ec::widgets::BenchmarkPanel* benchmarkPanel() const { return benchPanel_; }
  ec::widgets::RunHistoryPanel* runHistoryPanel() const { return historyPanel_; }
  ec::widgets::CompareView* compareView() const { return compareView_; }
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
  /// (Model › Optimize); the Passes panel shows the result (MainWindowPasses.cpp).
  void optimize();
  /// Quantises the model shown (the optimised graph when there is one) in the
  /// background with the Quantisation panel's settings (Tools › Quantise…; MainWindowQuant.cpp).
  void quantize();
  /// Asks for a target and a quantisation, then compiles (Model › Compile for Target…).
  void compileDialog();
  /// Compiles the model shown for `target` ("coral", "cpu") in the background;
  /// `quantize` "ptq" (random calibration), "none", or empty: none for an
  /// already quantised model, else ptq. The Partition and Backend Timeline panels
  /// show the report (MainWindowCompile.cpp).
  void compileFor(const QString& target, const QString& quantize = {}, const TargetOptions& options = {});
  /// Same, with calibration data (.npy file or folder; "" = random samples), the
  /// samples to use and the Edge TPU segments allowed (Compile for Target's dialog).
  void compileWith(const QString& target, const QString& quantize, const QString& calibrationFile,
                   int calibrationSamples, int numSegments, const TargetOptions& options = {});
  /// Compares the model shown with the model at `path` on a worker thread (Model ›
  /// Compare With…); the Compare dock shows both side by side (MainWindowCompare.cpp).
  void compareWith(const QString& path);
  /// Compares each stage of the default pass pipeline with the one before, on a worker
  /// (Model › Compare Pass Stages); the Compare dock steps through them.
  void compareStages();
  /// Times the model shown on the host CPU with `iterations` timed runs through the
  /// Benchmark panel (Tools › Benchmark…, Run), recording the run; benchmarked() follows.
  void benchmark(int iterations);
  /// Discovers devices again on a worker thread; the Devices panel shows them (MainWindowDevices.cpp).
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
  void createCentralWidget();
  void createDocks();
  void createActions();
  void addGraphActions(QMenu* edit, QMenu* view);
  /// Shows op `op` everywhere: graph selection, properties, operations list.
  void showOp(int op);
  /// Selects the op called `name` in the graph shown now (nothing when it has none).
  void showOpByName(const QString& name);
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
  // Passes (MainWindowPasses.cpp).
  void createPassesPanel();
  void addModelMenu();
  void onOptimized(std::shared_ptr<const ec::passes::PipelineReport> report);
  void onOptimizeFailed(const QString& message);
  /// Shows snapshot `index` of the Passes panel in every view, highlighted.
  void showSnapshot(int index);
  /// Selects the op named `name` of snapshot `index` (switching to that snapshot).
  void showOpNamed(const QString& name, int index);
  /// Shows `graph` in the graph view, operations list, properties and search.
  void setViewsGraph(const ec::ir::FrozenGraph& graph);
  // Quantisation (MainWindowQuant.cpp).
  void createQuantPanel();
  void addToolsMenu();
  /// Shows the last quantisation in the graph view as the panel's graph mode says.
  void showQuantOutcome();
  // Compile for target (MainWindowCompile.cpp).
  void createCompilePanels();
  void addCompileAction(QMenu* model);
  void endCompileProgress();
  void onCompileProgress(const QString& stage, int done, int total);
  void onCompiled(const std::shared_ptr<const CompileOutcome>& outcome);
  void onCompileFailed(const QString& message);
  void onCompileCancelled();
  /// Shows the last compile's graph coloured by placement, each op's placement
  /// and reason on hover and in the Properties panel.
  void showCompileOutcome();
  /// A compiled artefact opened as a model (*_edgetpu.tflite): its own split.
  void showArtefactPartition();
  // Benchmark and run history (MainWindowBench.cpp).
  void createBenchPanels();
  // Compare With… (MainWindowCompare.cpp).
  void createComparePanel();
  void addCompareAction(QMenu* model);
  void startCompare(CompareJob job, const QString& label);
  void addBenchActions(QMenu* tools);

  /// Runs `apply` (which sets texts with tr()) now and again on every language change.
  void retranslated(std::function<void()> apply);
  void updateWindowTitle();

  QSettings& settings_;
  std::vector<std::function<void()>> retranslators_;

  ec::widgets::MessageBar* messageBar_ = nullptr;
  QStackedWidget* centre_ = nullptr;
  QLabel* emptyHint_ = nullptr;
  QWidget* welcome_ = nullptr;
  QWidget* welcomeRecent_ = nullptr;  // the recent files' buttons
  QPushButton* welcomeSample_ = nullptr;
  QString sampleModel_;
  QByteArray defaultState_;  // saveState() of the first-start layout (Reset Layout)
  bool optimised_ = false, quantised_ = false;
  QString compiledFor_;
  ec::widgets::GraphView* graphView_ = nullptr;
  ec::widgets::SearchBar* searchBar_ = nullptr;
  ec::widgets::PropertiesPanel* propertiesPanel_ = nullptr;
  QTreeView* opsView_ = nullptr;
  ec::widgets::OperationListModel* opsModel_ = nullptr;
  ec::widgets::SummaryPanel* summaryPanel_ = nullptr;
  ec::widgets::LogPanel* logPanel_ = nullptr;
  std::shared_ptr<ec::widgets::LogSink> logSink_;

  QMenu* viewMenu_ = nullptr;
  QAction* viewPanelsEnd_ = nullptr;  // panel toggles go above this separator
  QMenu* recentMenu_ = nullptr;
  QActionGroup* languageGroup_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancelButton_ = nullptr;

  JobRunner* loader_ = nullptr;  // File › Open (ModelLoader.h)
  QString currentPath_;
  ec::ir::FrozenGraph graph_;
  bool showingOp_ = false;  // showOp() updates views whose signals call it again

  ec::widgets::PassesPanel* passesPanel_ = nullptr;
  QDockWidget* passesDock_ = nullptr;
  QAction* optimizeAction_ = nullptr;
  JobRunner* passes_ = nullptr;  // Model › Optimize (PassRunner.h)

  ec::widgets::QuantPanel* quantPanel_ = nullptr;
  QDockWidget* quantDock_ = nullptr;
  JobRunner* quant_ = nullptr;  // Tools › Quantise… (QuantRunner.h)
  std::shared_ptr<const QuantOutcome> quantOutcome_;  // the last one (null before the first)

  ec::widgets::PartitionPanel* partitionPanel_ = nullptr;
  ec::widgets::TimelinePanel* timelinePanel_ = nullptr;
  QDockWidget* partitionDock_ = nullptr;
  QDockWidget* timelineDock_ = nullptr;
  QAction* compileAction_ = nullptr;
  QProgressDialog* compileProgress_ = nullptr;
  JobRunner* compile_ = nullptr;  // Model › Compile for Target… (CompileRunner.h)
  std::shared_ptr<const CompileOutcome> compileOutcome_;  // the last one (null before the first)

  void createDevicesPanel();
  ec::widgets::DevicesPanel* devicesPanel_ = nullptr;
  QDockWidget* devicesDock_ = nullptr;
  DevicesController* devices_ = nullptr;  // discovery and devices.json (MainWindowDevices.cpp)
  ec::widgets::BenchmarkPanel* benchPanel_ = nullptr;
  ec::widgets::CompareView* compareView_ = nullptr;
  QDockWidget* compareDock_ = nullptr;
  JobRunner* compare_ = nullptr;  // Model › Compare With… (CompareRunner.h)
  QProgressDialog* compareProgress_ = nullptr;
  QAction* compareAction_ = nullptr;
  ec::widgets::RunHistoryPanel* historyPanel_ = nullptr;
  QDockWidget* benchDock_ = nullptr;
  QDockWidget* historyDock_ = nullptr;
  ExportController* exporter_ = nullptr;
  void createExporter();  // MainWindowExport.cpp
};

}  // namespace ec::workbench
