// MainWindow's compare part (issue 42): Model › Compare With… asks for a second
// model, compares it with the model shown on a worker thread (CompareRunner on a JobRunner) with
// progress and Cancel, and the Compare dock shows both side by side (CompareView:
// synchronised selection and scrolling, the pairs sorted by error, both graphs
// coloured by each tensor's SQNR, ops of one side only highlighted).
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QProgressDialog>
#include <QStatusBar>

#include "app/workbench/CompareRunner.h"
#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "core/frontends/frontend.h"
#include "widgets/compare/CompareView.h"

namespace ec::workbench {

bool MainWindow::isComparing() const { return compare_ && compare_->isRunning(); }

void MainWindow::createComparePanel() {
  compareView_ = new ec::widgets::CompareView(this);
  compareDock_ = addPanel(compareView_, tr("Compare"), QStringLiteral("compareDock"), Qt::BottomDockWidgetArea);
  compareDock_->hide();
  retranslated([this] { compareDock_->setWindowTitle(tr("Compare")); });

  compare_ = new JobRunner(QStringLiteral("CompareRunner"), this);
}

void MainWindow::addCompareAction(QMenu* model) {
  compareAction_ = model->addAction(QString(), this, [this] {
    const QString dir = QFileInfo(currentPath_).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With"), dir);
    if (!path.isEmpty()) compareWith(path);
  });
  compareAction_->setObjectName(QStringLiteral("compareAction"));
  compareAction_->setEnabled(false);  // until a model is shown
  QAction* stages = model->addAction(QString(), this, [this] { compareStages(); });
  stages->setObjectName(QStringLiteral("compareStagesAction"));
  stages->setEnabled(false);
  connect(this, &MainWindow::modelShown, compareAction_, [this, stages] {
    compareAction_->setEnabled(true);
    stages->setEnabled(true);
  });
  retranslated([stages] {
    stages->setText(tr("Compare Pass &Stages"));
    stages->setStatusTip(tr("Run the default pass pipeline stage by stage and show how each pass changes the numbers"));
  });
  retranslated([this] {
    compareAction_->setText(tr("Compare &With…"));
    compareAction_->setStatusTip(
        tr("Run a second model (its compiled or quantised form, another version) on the same inputs and show "
           "where the numbers differ, layer by layer"));
  });
}

void MainWindow::compareStages() {
  if (!graph_) return;
  CompareJob job;
  job.a = graph_;
  job.pathA = currentPath_;
  job.passes = true;
  startCompare(std::move(job), tr("Comparing the pass stages…"));
}

void MainWindow::compareWith(const QString& path) {
  if (!graph_) return;
  CompareJob job;
  job.a = graph_;
  job.pathA = currentPath_;
  job.pathB = path;
  startCompare(std::move(job), tr("Comparing with %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::startCompare(CompareJob job, const QString& label) {
  if (!compareProgress_) {
    compareProgress_ = new QProgressDialog(this);
    compareProgress_->setWindowTitle(tr("Compare With"));
    compareProgress_->setMinimumDuration(300);
    connect(compareProgress_, &QProgressDialog::canceled, this, [this] { compare_->cancel(); });
  }
  compareProgress_->setLabelText(label);
  compareProgress_->setValue(0);
  const auto done = [this] {
    if (compareProgress_) {
      compareProgress_->deleteLater();
      compareProgress_ = nullptr;
    }
  };
  JobHandlers<CompareOutcomePtr> h;
  h.progress = [this](const QString& stage, int d, int total) {
    if (!compareProgress_) return;
    compareProgress_->setLabelText(stage);
    compareProgress_->setMaximum(total);
    compareProgress_->setValue(d);
  };
  h.done = [this, done](const CompareOutcomePtr& outcome) {
    done();
    if (outcome->stages) {
      compareView_->setStages(outcome->stages);
      statusBar()->showMessage(tr("Pass stages compared"), 10000);
    } else {
      compareView_->setStages(nullptr);
      compareView_->setResult(outcome->a, outcome->b, outcome->result);
      statusBar()->showMessage(
          tr("Compared with %1").arg(QFileInfo(QString::fromStdString(outcome->result->model_b)).fileName()), 10000);
    }
    compareDock_->show();
    compareDock_->raise();
    emit compared();
  };
  h.failed = [this, done](const QString& message) {
    done();
    statusBar()->showMessage(tr("Compare failed: %1").arg(message), 10000);
    emit compareFailed(message);
  };
  h.cancelled = [this, done] {
    done();
    statusBar()->showMessage(tr("Compare cancelled"), 5000);
  };
  compare_->start<CompareOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return CompareRunner::run(job, ctx); },
                                     std::move(h));
}

}  // namespace ec::workbench
