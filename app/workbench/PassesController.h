// The workbench's passes area: Model › Optimize runs the default pass pipeline on a
// JobRunner (PassRunner.h); the report fills the Passes panel, whose snapshots and
// changes the window shows in every view. Owns the panel, its dock, the action and
// the job.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;

namespace ec::widgets {
class PassesPanel;
}  // namespace ec::widgets
namespace ec::passes {
struct PipelineReport;
}  // namespace ec::passes

namespace ec::workbench {

class JobRunner;
class MainWindow;

class PassesController : public QObject {
  Q_OBJECT

 public:
  explicit PassesController(MainWindow& window);

  ec::widgets::PassesPanel* panel() const { return passesPanel_; }
  QDockWidget* dock() const { return passesDock_; }
  bool isOptimizing() const;
  /// Adds Model › Optimize to `model`.
  void addActions(QMenu* model);
  /// Runs the default pipeline on the model shown (Model › Optimize).
  void optimize();

 private:
  void onOptimized(std::shared_ptr<const ec::passes::PipelineReport> report);
  void onOptimizeFailed(const QString& message);
  /// Shows snapshot `index` of the Passes panel in every view, highlighted.
  void showSnapshot(int index);
  /// Selects the op named `name` of snapshot `index` (switching to that snapshot).
  void showOpNamed(const QString& name, int index);

  MainWindow& w_;
  ec::widgets::PassesPanel* passesPanel_ = nullptr;
  QDockWidget* passesDock_ = nullptr;
  QAction* optimizeAction_ = nullptr;
  JobRunner* passes_ = nullptr;
};

}  // namespace ec::workbench
