// The workbench's compare area (issue 42): Model › Compare With… asks for a second
// model and compares it with the model shown on a JobRunner (CompareRunner.h) with
// progress and Cancel; Model › Compare Pass Stages compares each stage of the default
// pipeline. The Compare dock shows the result. Owns the view, its dock, the actions,
// the progress dialog and the job.
#pragma once

#include <QObject>
#include <QString>

class QAction;
class QDockWidget;
class QMenu;
class QProgressDialog;

namespace ec::widgets {
class CompareView;
}  // namespace ec::widgets

namespace ec::workbench {

class JobRunner;
class MainWindow;
struct CompareJob;

class CompareController : public QObject {
  Q_OBJECT

 public:
  explicit CompareController(MainWindow& window);

  ec::widgets::CompareView* view() const { return compareView_; }
  bool isComparing() const;
  /// Adds Model › Compare With… and Compare Pass Stages to `model`.
  void addActions(QMenu* model);
  /// MainWindow::compareWith, compareStages.
  void compareWith(const QString& path);
  void compareStages();

 private:
  void startCompare(CompareJob job, const QString& label);

  MainWindow& w_;
  ec::widgets::CompareView* compareView_ = nullptr;
  QDockWidget* compareDock_ = nullptr;
  JobRunner* compare_ = nullptr;
  QProgressDialog* compareProgress_ = nullptr;
  QAction* compareAction_ = nullptr;
};

}  // namespace ec::workbench
