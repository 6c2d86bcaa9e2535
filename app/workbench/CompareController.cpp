// CompareController.h: the compare area.
#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QProgressDialog>
#include <QStatusBar>

#include "app/workbench/CompareController.h"
#include "app/workbench/CompareRunner.h"
#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "core/frontends/frontend.h"
#include "widgets/compare/CompareView.h"

namespace ec::workbench {

bool CompareController::isComparing() const { return compare_ && compare_->isRunning(); }

CompareController::CompareController(MainWindow& window) : QObject(&window), w_(window) {
  compareView_ = new ec::widgets::CompareView(&w_);
  compareDock_ = w_.addPanel(compareView_, tr("Compare"), QStringLiteral("compareDock"), Qt::BottomDockWidgetArea);
  compareDock_->hide();
  w_.retranslated([this] { compareDock_->setWindowTitle(tr("Compare")); });

  compare_ = new JobRunner(QStringLiteral("CompareRunner"), this);
}

void CompareController::addActions(QMenu* model) {
  compareAction_ = model->addAction(QString(), this, [this] {
    const QString dir = QFileInfo(w_.model_.currentPath).absolutePath();
    const QString path = QFileDialog::getOpenFileName(&w_, tr("Compare With"), dir);
    if (!path.isEmpty()) compareWith(path);
  });
  compareAction_->setObjectName(QStringLiteral("compareAction"));
  compareAction_->setEnabled(false);  // until a model is shown
  QAction* stages = model->addAction(QString(), this, [this] { compareStages(); });
  stages->setObjectName(QStringLiteral("compareStagesAction"));
  stages->setEnabled(false);
  connect(&w_, &MainWindow::modelShown, compareAction_, [this, stages] {
    compareAction_->setEnabled(true);
    stages->setEnabled(true);
  });
  w_.retranslated([stages] {
    stages->setText(tr("Compare Pass &Stages"));
    stages->setStatusTip(tr("Run the default pass pipeline stage by stage and show how each pass changes the numbers"));
  });
  w_.retranslated([this] {
    compareAction_->setText(tr("Compare &With…"));
    compareAction_->setStatusTip(
        tr("Run a second model (its compiled or quantised form, another version) on the same inputs and show "
           "where the numbers differ, layer by layer"));
  });
}

void CompareController::compareStages() {
  if (!w_.model_.graph) return;
  CompareJob job;
  job.a = w_.model_.graph;
  job.pathA = w_.model_.currentPath;
  job.passes = true;
  startCompare(std::move(job), tr("Comparing the pass stages…"));
}

void CompareController::compareWith(const QString& path) {
  if (!w_.model_.graph) return;
  CompareJob job;
  job.a = w_.model_.graph;
  job.pathA = w_.model_.currentPath;
  job.pathB = path;
  startCompare(std::move(job), tr("Comparing with %1…").arg(QFileInfo(path).fileName()));
}

void CompareController::startCompare(CompareJob job, const QString& label) {
  if (!compareProgress_) {
    compareProgress_ = new QProgressDialog(&w_);
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
      w_.statusBar()->showMessage(tr("Pass stages compared"), 10000);
    } else {
      compareView_->setStages(nullptr);
      compareView_->setResult(outcome->a, outcome->b, outcome->result);
      w_.statusBar()->showMessage(
          tr("Compared with %1").arg(QFileInfo(QString::fromStdString(outcome->result->model_b)).fileName()), 10000);
    }
    compareDock_->show();
    compareDock_->raise();
    emit w_.compared();
  };
  h.failed = [this, done](const QString& message) {
    done();
    w_.statusBar()->showMessage(tr("Compare failed: %1").arg(message), 10000);
    emit w_.compareFailed(message);
  };
  h.cancelled = [this, done] {
    done();
    w_.statusBar()->showMessage(tr("Compare cancelled"), 5000);
  };
  compare_->start<CompareOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return CompareRunner::run(job, ctx); },
                                     std::move(h));
}

}  // namespace ec::workbench
