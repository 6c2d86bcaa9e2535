// The workbench's compile area (issue 15): Model › Compile for Target… asks for a
// target and a quantisation and runs the compile on a JobRunner (CompileRunner.h)
// with progress and Cancel; the outcome (the compiled graph and an immutable
// CompileReport) fills the Partition and Backend Timeline panels, the graph is
// coloured by placement and one selection is shared by the graph and the panels.
// Owns the panels, their docks, the action, the progress dialog, the job and the
// last outcome.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;
class QProgressDialog;

namespace ec::widgets {
class PartitionPanel;
class TimelinePanel;
}  // namespace ec::widgets

namespace ec::workbench {

class JobRunner;
class MainWindow;
struct CompileOutcome;
struct TargetOptions;

class CompileController : public QObject {
  Q_OBJECT

 public:
  explicit CompileController(MainWindow& window);

  ec::widgets::PartitionPanel* partitionPanel() const { return partitionPanel_; }
  ec::widgets::TimelinePanel* timelinePanel() const { return timelinePanel_; }
  QDockWidget* partitionDock() const { return partitionDock_; }
  QDockWidget* timelineDock() const { return timelineDock_; }
  bool isCompiling() const;
  /// The last compile (or the split of an opened artefact); null before the first.
  const std::shared_ptr<const CompileOutcome>& outcome() const { return compileOutcome_; }
  /// Adds Model › Compile for Target… to `model`.
  void addActions(QMenu* model);
  /// MainWindow::compileDialog, compileWith.
  void compileDialog();
  void compileWith(const QString& target, const QString& quantize, const QString& calibrationFile,
                   int calibrationSamples, int numSegments, const TargetOptions& options);

 private:
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

  MainWindow& w_;
  ec::widgets::PartitionPanel* partitionPanel_ = nullptr;
  ec::widgets::TimelinePanel* timelinePanel_ = nullptr;
  QDockWidget* partitionDock_ = nullptr;
  QDockWidget* timelineDock_ = nullptr;
  QAction* compileAction_ = nullptr;
  QProgressDialog* compileProgress_ = nullptr;
  JobRunner* compile_ = nullptr;
  std::shared_ptr<const CompileOutcome> compileOutcome_;
};

}  // namespace ec::workbench
