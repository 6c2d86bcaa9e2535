// The Partition panel (TPU vs CPU counts, segments, the Operator / Count / Status
// table and every op's placement with its reason) and the Backend Timeline panel
// (every attempt per unit, failed ones highlighted, a failures-only filter), both
// over one immutable CompileReport. Clicking an op emits opActivated(name): the
// window selects it in the graph.
#pragma once

#include <QWidget>

#include "widgets/compile/CompileModels.h"
#include "widgets/compile/TimelineChart.h"

class QCheckBox;
class QLabel;
class QTreeView;

namespace ec::widgets {

class PartitionPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PartitionPanel(QWidget* parent = nullptr);
  void setReport(CompileReportPtr report);
  const CompileReportPtr& report() const { return report_; }
  void setStatus(const QString& status);
  /// Highlights op `name` in the per-op table (no signal).
  void selectOp(const QString& name);
  PartitionOpModel* opModel() const { return opModel_; }
  PartitionStatusModel* statusModel() const { return statusModel_; }
  QTreeView* opView() const { return opView_; }
  QString summaryText() const;

 signals:
  void opActivated(const QString& name);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  CompileReportPtr report_;
  QString status_;
  QLabel* summary_ = nullptr;
  QLabel* legend_ = nullptr;
  QLabel* statusTitle_ = nullptr;
  QLabel* opsTitle_ = nullptr;
  PartitionOpModel* opModel_ = nullptr;
  PartitionStatusModel* statusModel_ = nullptr;
  QTreeView* statusView_ = nullptr;
  QTreeView* opView_ = nullptr;
  bool selecting_ = false;
};

class TimelinePanel : public QWidget {
  Q_OBJECT

 public:
  explicit TimelinePanel(QWidget* parent = nullptr);
  void setReport(CompileReportPtr report);
  TimelineModel* model() const { return model_; }
  QCheckBox* failuresOnlyBox() const { return failuresOnly_; }
  QTreeView* view() const { return view_; }
  TimelineChart* chart() const { return chart_; }

 signals:
  void opActivated(const QString& name);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslate();
  CompileReportPtr report_;
  QLabel* summary_ = nullptr;
  QCheckBox* failuresOnly_ = nullptr;
  TimelineModel* model_ = nullptr;
  QTreeView* view_ = nullptr;
  TimelineChart* chart_ = nullptr;
};

}  // namespace ec::widgets
