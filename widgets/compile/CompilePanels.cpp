#include "widgets/compile/CompilePanels.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

namespace ec::widgets {

namespace {
QTreeView* makeTable(QWidget* parent) {
  auto* view = new QTreeView(parent);
  view->setRootIsDecorated(false);
  view->setAlternatingRowColors(true);
  view->setUniformRowHeights(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  return view;
}

QString swatch(const QColor& c, const QString& label) {
  return QStringLiteral("<span style=\"background-color:%1\">&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;%2")
      .arg(c.name(), label.toHtmlEscaped());
}
}  // namespace

// ---- PartitionPanel ----

PartitionPanel::PartitionPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("partitionSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  legend_ = new QLabel(this);
  legend_->setObjectName(QStringLiteral("partitionLegend"));
  legend_->setTextFormat(Qt::RichText);
  layout->addWidget(summary_);
  layout->addWidget(legend_);

  auto* splitter = new QSplitter(Qt::Horizontal, this);
  auto* left = new QWidget(splitter);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  statusTitle_ = new QLabel(left);
  statusModel_ = new PartitionStatusModel(this);
  statusView_ = makeTable(left);
  statusView_->setObjectName(QStringLiteral("partitionStatusView"));
  statusView_->setModel(statusModel_);
  leftLayout->addWidget(statusTitle_);
  leftLayout->addWidget(statusView_);

  auto* right = new QWidget(splitter);
  auto* rightLayout = new QVBoxLayout(right);
  rightLayout->setContentsMargins(0, 0, 0, 0);
  opsTitle_ = new QLabel(right);
  opModel_ = new PartitionOpModel(this);
  opView_ = makeTable(right);
  opView_->setObjectName(QStringLiteral("partitionOpView"));
  opView_->setModel(opModel_);
  rightLayout->addWidget(opsTitle_);
  rightLayout->addWidget(opView_);
  splitter->addWidget(left);
  splitter->addWidget(right);
  splitter->setStretchFactor(0, 1);
  splitter->setStretchFactor(1, 2);
  layout->addWidget(splitter, 1);

  connect(opView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (selecting_ || !current.isValid()) return;
            emit opActivated(opModel_->opAt(current.row()));
          });
  retranslate();
}

void PartitionPanel::setReport(CompileReportPtr report) {
  report_ = std::move(report);
  opModel_->setReport(report_);
  statusModel_->setReport(report_);
  for (int c = 0; c < PartitionStatusModel::ColumnCount; ++c) statusView_->resizeColumnToContents(c);
  for (int c = 0; c < PartitionOpModel::Reason; ++c) opView_->resizeColumnToContents(c);
  retranslate();
}

void PartitionPanel::setStatus(const QString& status) {
  status_ = status;
  retranslate();
}

void PartitionPanel::selectOp(const QString& name) {
  const int row = opModel_->rowForOp(name);
  selecting_ = true;
  if (row < 0) {
    opView_->selectionModel()->clearSelection();
  } else {
    const QModelIndex index = opModel_->index(row, 0);
    opView_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    opView_->scrollTo(index);
  }
  selecting_ = false;
}

QString PartitionPanel::summaryText() const { return summary_->text(); }

void PartitionPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void PartitionPanel::retranslate() {
  statusTitle_->setText(tr("Operator / Count / Status"));
  opsTitle_->setText(tr("Operations"));
  // A backend that predicts compute units (metal: Neural Engine / GPU / CPU) reads
  // by unit; the Edge TPU by target vs CPU and the segment rule.
  bool byUnit = false;
  if (report_) {
    for (const auto& r : report_->result.partition.rows) byUnit |= !r.unit.empty();
  }
  if (byUnit) {
    legend_->setText(swatch(targetColor(), tr("Neural Engine")) + QStringLiteral("&nbsp;&nbsp;") +
                     swatch(gpuColor(), tr("GPU")) + QStringLiteral("&nbsp;&nbsp;") + swatch(cpuColor(), tr("CPU")));
  } else {
    legend_->setText(swatch(targetColor(), tr("TPU")) + QStringLiteral("&nbsp;&nbsp;") +
                     swatch(cpuColor(), tr("CPU (unsupported)")) + QStringLiteral("&nbsp;&nbsp;") +
                     swatch(afterUnsupportedColor(), tr("CPU (after the first unsupported op)")));
  }
  if (!report_) {
    summary_->setText(status_.isEmpty() ? tr("No compile yet: Model › Compile for target…") : status_);
    return;
  }
  const auto& p = report_->result.partition;
  QString text;
  if (byUnit) {
    int ane = 0, gpu = 0, cpu = 0;
    for (const auto& r : p.rows) {
      if (r.unit == "ANE") ++ane;
      else if (r.unit == "GPU") ++gpu;
      else ++cpu;
    }
    text = tr("Target %1 (%2): of %n op(s), %3 on the Neural Engine, %4 on the GPU, %5 on the CPU; %6.", nullptr,
              int(p.rows.size()))
               .arg(QString::fromStdString(report_->target), QString::fromStdString(report_->backend))
               .arg(ane)
               .arg(gpu)
               .arg(cpu)
               .arg(QString::fromStdString(report_->verified_by));
  } else {
    text = tr("Target %1 (%2): %3 of %n op(s) on the TPU, %4 on the CPU; %5 TPU segment(s); %6.", nullptr,
              int(p.rows.size()))
               .arg(QString::fromStdString(report_->target), QString::fromStdString(report_->backend))
               .arg(p.ops_on_target())
               .arg(p.ops_on_cpu())
               .arg(p.segments)
               .arg(QString::fromStdString(report_->verified_by));
  }
  const auto& est = report_->result.estimate;
  if (est.latency_ms > 0) text += QLatin1Char(' ') + tr("Estimated latency %1 ms (estimate).").arg(est.latency_ms, 0, 'f', 3);
  if (!status_.isEmpty()) text = status_ + QLatin1Char('\n') + text;
  summary_->setText(text);
}

// ---- TimelinePanel ----

TimelinePanel::TimelinePanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("timelineSummary"));
  failuresOnly_ = new QCheckBox(this);
  failuresOnly_->setObjectName(QStringLiteral("failuresOnly"));
  top->addWidget(summary_, 1);
  top->addWidget(failuresOnly_);
  layout->addLayout(top);
  model_ = new TimelineModel(this);
  view_ = makeTable(this);
  view_->setObjectName(QStringLiteral("timelineView"));
  view_->setModel(model_);
  chart_ = new TimelineChart(this);
  auto* chartScroll = new QScrollArea(this);
  chartScroll->setWidget(chart_);
  chartScroll->setWidgetResizable(false);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(chartScroll);
  split->addWidget(view_);
  layout->addWidget(split, 1);
  connect(failuresOnly_, &QCheckBox::toggled, model_, &TimelineModel::setFailuresOnly);
  connect(failuresOnly_, &QCheckBox::toggled, chart_, &TimelineChart::setFailuresOnly);
  connect(chart_, &TimelineChart::unitActivated, this, &TimelinePanel::opActivated);
  connect(view_, &QTreeView::clicked, this,
          [this](const QModelIndex& index) { emit opActivated(model_->unitAt(index.row())); });
  retranslate();
}

void TimelinePanel::setReport(CompileReportPtr report) {
  report_ = std::move(report);
  model_->setReport(report_);
  chart_->setReport(report_);
  for (int c = 0; c < TimelineModel::Reason; ++c) view_->resizeColumnToContents(c);
  retranslate();
}

void TimelinePanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void TimelinePanel::retranslate() {
  failuresOnly_->setText(tr("Failures only"));
  if (!report_) {
    summary_->setText(tr("No compile yet."));
    return;
  }
  int failed = 0;
  for (const auto& e : report_->result.timeline) failed += e.ok ? 0 : 1;
  summary_->setText(tr("%n attempt(s), %1 failed", nullptr, int(report_->result.timeline.size())).arg(failed));
}

}  // namespace ec::widgets
