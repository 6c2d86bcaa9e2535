#include "widgets/quant/QuantPanel.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/quant/ChannelHeatmap.h"
#include "widgets/quant/QuantLayerModel.h"
#include "widgets/quant/QuantTensorModel.h"
#include "widgets/quant/SqnrChart.h"
#include "widgets/quant/TensorHistogram.h"

namespace ec::widgets {
namespace {
QTreeView* makeTable(QWidget* parent, const QString& objectName) {
  auto* view = new QTreeView(parent);
  view->setObjectName(objectName);
  view->setRootIsDecorated(false);
  view->setUniformRowHeights(true);
  view->setAlternatingRowColors(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->header()->setStretchLastSection(true);
  return view;
}

QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

QuantPanel::QuantPanel(QWidget* parent)
    : QWidget(parent),
      layerModel_(new QuantLayerModel(this)),
      tensorModel_(new QuantTensorModel(this)) {
  // --- controls -----------------------------------------------------------
  requantizeButton_ = new QPushButton(this);
  requantizeButton_->setObjectName(QStringLiteral("requantizeButton"));
  cancelButton_ = new QPushButton(this);
  cancelButton_->setObjectName(QStringLiteral("cancelQuantizeButton"));
  cancelButton_->setEnabled(false);
  progress_ = new QProgressBar(this);
  progress_->setObjectName(QStringLiteral("quantizeProgress"));
  progress_->setMaximumWidth(220);
  progress_->setVisible(false);
  calibrationLabel_ = new QLabel(this);
  calibrationLabel_->setObjectName(QStringLiteral("calibrationLabel"));
  calibrationButton_ = new QToolButton(this);
  calibrationButton_->setObjectName(QStringLiteral("calibrationButton"));
  calibrationButton_->setPopupMode(QToolButton::InstantPopup);
  auto* calibrationMenu = new QMenu(calibrationButton_);
  calibrationButton_->setMenu(calibrationMenu);
  perChannel_ = new QCheckBox(this);
  perChannel_->setObjectName(QStringLiteral("perChannelCheck"));
  perChannel_->setChecked(true);
  graphLabel_ = new QLabel(this);
  graphMode_ = new QComboBox(this);
  graphMode_->setObjectName(QStringLiteral("graphModeCombo"));
  graphMode_->addItem(QString());
  graphMode_->addItem(QString());

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 0);
  bar->addWidget(requantizeButton_);
  bar->addWidget(cancelButton_);
  bar->addWidget(progress_);
  bar->addSpacing(8);
  bar->addWidget(calibrationLabel_);
  bar->addWidget(calibrationButton_);
  bar->addWidget(perChannel_);
  bar->addStretch(1);
  bar->addWidget(graphLabel_);
  bar->addWidget(graphMode_);

  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("quantSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setContentsMargins(6, 0, 6, 2);

  // --- views --------------------------------------------------------------
  auto* content = new QWidget(this);
  layerView_ = makeTable(content, QStringLiteral("quantLayerView"));
  layerView_->setModel(layerModel_);
  layerView_->setTextElideMode(Qt::ElideLeft);  // op names differ at their end
  QHeaderView* lh = layerView_->header();
  lh->setStretchLastSection(false);
  lh->setSectionResizeMode(QuantLayerModel::KeepFloat, QHeaderView::ResizeToContents);
  lh->resizeSection(QuantLayerModel::Op, 250);
  lh->resizeSection(QuantLayerModel::Type, 90);
  lh->resizeSection(QuantLayerModel::OutputSqnr, 90);
  lh->resizeSection(QuantLayerModel::WeightSqnr, 90);
  lh->resizeSection(QuantLayerModel::WorstChannel, 110);
  lh->resizeSection(QuantLayerModel::Channels, 70);
  lh->resizeSection(QuantLayerModel::Sensitivity, 80);
  lh->resizeSection(QuantLayerModel::Status, 180);

  tabs_ = new QTabWidget(content);
  tabs_->setObjectName(QStringLiteral("quantTabs"));
  tabs_->setDocumentMode(true);

  // SQNR per layer.
  auto* chartPage = new QWidget(tabs_);
  chartMetricLabel_ = new QLabel(chartPage);
  chartMetric_ = new QComboBox(chartPage);
  chartMetric_->addItem(QString());
  chartMetric_->addItem(QString());
  chart_ = new SqnrChart(chartPage);
  chart_->setObjectName(QStringLiteral("sqnrChart"));
  auto* chartBar = new QHBoxLayout;
  chartBar->setContentsMargins(4, 2, 4, 0);
  chartBar->addWidget(chartMetricLabel_);
  chartBar->addWidget(chartMetric_);
  chartHint_ = new QLabel(chartPage);
  chartHint_->setEnabled(false);
  chartBar->addSpacing(8);
  chartBar->addWidget(chartHint_, 1);
  auto* chartLayout = new QVBoxLayout(chartPage);
  chartLayout->setContentsMargins(0, 0, 0, 0);
  chartLayout->setSpacing(0);
  chartLayout->addLayout(chartBar);
  chartLayout->addWidget(chart_, 1);
  tabs_->addTab(chartPage, QString());

  // Per-channel error.
  auto* heatPage = new QWidget(tabs_);
  heatmapMetricLabel_ = new QLabel(heatPage);
  heatmapMetric_ = new QComboBox(heatPage);
  heatmapMetric_->addItem(QString());
  heatmapMetric_->addItem(QString());
  heatmap_ = new ChannelHeatmap(heatPage);
  heatmap_->setObjectName(QStringLiteral("channelHeatmap"));
  auto* heatScroll = new QScrollArea(heatPage);
  heatScroll->setWidgetResizable(true);
  heatScroll->setFrameShape(QFrame::NoFrame);
  heatScroll->setWidget(heatmap_);
  auto* heatBar = new QHBoxLayout;
  heatBar->setContentsMargins(4, 2, 4, 0);
  heatBar->addWidget(heatmapMetricLabel_);
  heatBar->addWidget(heatmapMetric_);
  heatBar->addStretch(1);
  auto* heatLayout = new QVBoxLayout(heatPage);
  heatLayout->setContentsMargins(0, 0, 0, 0);
  heatLayout->setSpacing(0);
  heatLayout->addLayout(heatBar);
  heatLayout->addWidget(heatScroll, 1);
  tabs_->addTab(heatPage, QString());

  // Tensors and the chosen one's histogram.
  auto* tensorPage = new QSplitter(Qt::Horizontal, tabs_);
  tensorView_ = makeTable(tensorPage, QStringLiteral("quantTensorView"));
  tensorView_->setModel(tensorModel_);
  tensorView_->setTextElideMode(Qt::ElideLeft);
  QHeaderView* th = tensorView_->header();
  th->resizeSection(QuantTensorModel::Tensor, 200);
  th->resizeSection(QuantTensorModel::Producer, 160);
  th->resizeSection(QuantTensorModel::FloatRange, 130);
  th->resizeSection(QuantTensorModel::ClipRange, 130);
  th->resizeSection(QuantTensorModel::Scale, 80);
  th->resizeSection(QuantTensorModel::ZeroPoint, 70);
  th->resizeSection(QuantTensorModel::Clipped, 70);
  auto* histPage = new QWidget(tensorPage);
  histogram_ = new TensorHistogram(histPage);
  histogram_->setObjectName(QStringLiteral("tensorHistogram"));
  logScale_ = new QCheckBox(histPage);
  logScale_->setChecked(histogram_->logScale());
  auto* histLayout = new QVBoxLayout(histPage);
  histLayout->setContentsMargins(0, 0, 0, 0);
  histLayout->setSpacing(0);
  histLayout->addWidget(histogram_, 1);
  histLayout->addWidget(logScale_);
  tensorPage->addWidget(tensorView_);
  tensorPage->addWidget(histPage);
  tensorPage->setStretchFactor(0, 3);
  tensorPage->setStretchFactor(1, 2);
  tensorPage->setChildrenCollapsible(false);
  tabs_->addTab(tensorPage, QString());

  auto* splitter = new QSplitter(Qt::Horizontal, content);
  splitter->addWidget(layerView_);
  splitter->addWidget(tabs_);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setChildrenCollapsible(false);
  splitter->setSizes({440, 660});
  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->addWidget(splitter);

  placeholder_ = new QLabel(this);
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setEnabled(false);
  stack_ = new QStackedWidget(this);
  stack_->addWidget(placeholder_);
  stack_->addWidget(content);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(bar);
  layout->addWidget(summary_);
  layout->addWidget(stack_, 1);

  // --- behaviour ------------------------------------------------------------
  connect(requantizeButton_, &QPushButton::clicked, this, &QuantPanel::requantizeRequested);
  connect(cancelButton_, &QPushButton::clicked, this, &QuantPanel::cancelRequested);
  QAction* chooseFile = calibrationMenu->addAction(QString(), this, &QuantPanel::chooseCalibrationFile);
  chooseFile->setObjectName(QStringLiteral("chooseCalibrationFile"));
  QAction* useRandom = calibrationMenu->addAction(QString(), this, [this] { setCalibrationFile({}); });
  useRandom->setObjectName(QStringLiteral("useRandomCalibration"));
  connect(graphMode_, &QComboBox::currentIndexChanged, this, [this] {
    if (!syncing_) emit graphModeChanged(graphMode());
  });
  connect(chartMetric_, &QComboBox::currentIndexChanged, this, [this](int i) {
    chart_->setMetric(i == 1 ? SqnrChart::Metric::Weight : SqnrChart::Metric::Output);
    chart_->setSelectedBar(chart_->barForOp(selectedOp_));
  });
  connect(heatmapMetric_, &QComboBox::currentIndexChanged, this, [this](int i) {
    heatmap_->setMetric(i == 1 ? ChannelHeatmap::Metric::MaxAbsError : ChannelHeatmap::Metric::Sqnr);
  });
  connect(logScale_, &QCheckBox::toggled, histogram_, &TensorHistogram::setLogScale);

  connect(chart_, &SqnrChart::layerClicked, this,
          [this](int, const QString& op) { activate(op); });
  connect(heatmap_, &ChannelHeatmap::rowClicked, this,
          [this](int, const QString& op) { activate(op); });
  connect(layerView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!syncing_ && current.isValid()) activate(layerModel_->opAt(current.row()));
          });
  connect(layerView_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
    // Clicking the current row again (after selecting elsewhere) re-selects its op;
    // a click on the check box only toggles it.
    if (index.isValid() && index.column() != QuantLayerModel::KeepFloat) {
      activate(layerModel_->opAt(index.row()));
    }
  });
  auto tensorPicked = [this](const QModelIndex& current) {
    if (syncing_ || !current.isValid()) return;
    const auto* t = tensorModel_->tensorAt(current.row());
    if (!t) return;
    const QString tensor = qs(t->tensor);
    if (!t->producer.empty()) activate(qs(t->producer));
    selectTensor(tensor);  // the op's first output may be another tensor
  };
  connect(tensorView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, tensorPicked);
  connect(tensorView_, &QTreeView::clicked, this, tensorPicked);

  retranslateUi();
  clear();
}

QuantPanel::~QuantPanel() = default;

void QuantPanel::setReport(QuantReportPtr report, ec::ir::FrozenGraph floatGraph) {
  if (!report) {
    clear();
    return;
  }
  report_ = std::move(report);
  floatGraph_ = std::move(floatGraph);
  syncing_ = true;
  layerModel_->setReport(report_, floatGraph_);
  tensorModel_->setReport(report_, floatGraph_);
  chart_->setReport(report_);
  heatmap_->setReport(report_);
  histogram_->setReport(report_);
  syncing_ = false;
  perChannel_->setChecked(report_->per_channel);
  requantizeButton_->setText(tr("Re-quantise"));
  stack_->setCurrentIndex(1);
  updateSummary();
  const QString keep = selectedOp_;
  selectedOp_.clear();
  selectOp(keep);
  // Something to look at straight away: the first tensor's histogram.
  if (!histogram_->tensorReport() && !report_->tensors.empty()) selectTensor(qs(report_->tensors.front().tensor));
}

void QuantPanel::clear() {
  report_.reset();
  floatGraph_.reset();
  syncing_ = true;
  layerModel_->setReport(nullptr);
  tensorModel_->setReport(nullptr);
  chart_->setReport(nullptr);
  heatmap_->setReport(nullptr);
  histogram_->setReport(nullptr);
  syncing_ = false;
  selectedOp_.clear();
  requantizeButton_->setText(tr("Quantise"));
  stack_->setCurrentIndex(0);
  updateSummary();
}

ec::quantize::QuantizeOptions QuantPanel::options() const {
  ec::quantize::QuantizeOptions o;
  o.per_channel = perChannel_->isChecked();
  for (const QString& op : layerModel_->keepFloat()) o.keep_float.push_back(op.toStdString());
  o.num_calibration_samples = calibrationFile_.isEmpty() ? kRandomSamples : o.num_calibration_samples;
  return o;
}

QStringList QuantPanel::keepFloat() const { return layerModel_->keepFloat(); }

void QuantPanel::setKeepFloat(const QStringList& ops) { layerModel_->setKeepFloat(ops); }

void QuantPanel::setCalibrationFile(const QString& path) {
  calibrationFile_ = path;
  updateCalibrationLabel();
}

void QuantPanel::chooseCalibrationFile() {
  const QString dir = calibrationFile_.isEmpty() ? QString() : QFileInfo(calibrationFile_).absolutePath();
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Calibration Data"), dir,
      tr("NumPy arrays, (N, C, H, W) float32 (*.npy);;All files (*)"));
  if (!path.isEmpty()) setCalibrationFile(path);
}

void QuantPanel::updateCalibrationLabel() {
  if (calibrationFile_.isEmpty()) {
    calibrationLabel_->setText(
        tr("Calibration: %n random sample(s) (uniform, fixed seed)", nullptr, kRandomSamples));
    calibrationLabel_->setToolTip(
        tr("No calibration data chosen: random inputs from a fixed seed, of each input's type: "
           "floating-point inputs uniform in [-1, 1), integer inputs (token ids) uniform over the rows "
           "of the table they index (else 0 or 1). Choose a .npy file of real inputs for meaningful ranges."));
  } else {
    calibrationLabel_->setText(tr("Calibration: %1").arg(QFileInfo(calibrationFile_).fileName()));
    calibrationLabel_->setToolTip(calibrationFile_);
  }
}

void QuantPanel::setRunning(bool running) {
  running_ = running;
  requantizeButton_->setEnabled(!running);
  cancelButton_->setEnabled(running);
  progress_->setVisible(running);
  calibrationButton_->setEnabled(!running);
  perChannel_->setEnabled(!running);
  if (running) {
    progress_->setRange(0, 0);
    progress_->setFormat(tr("starting…"));
    status_.clear();
    updateSummary();
  }
}

void QuantPanel::setProgress(const QString& stage, int done, int total) {
  QString name = stage;
  if (stage == QLatin1String("calibrate")) name = tr("calibrating");
  else if (stage == QLatin1String("report")) name = tr("measuring error");
  else if (stage == QLatin1String("sensitivity")) name = tr("sensitivity");
  progress_->setRange(0, std::max(0, total));
  progress_->setValue(std::clamp(done, 0, std::max(0, total)));
  progress_->setFormat(total > 0 ? name % QStringLiteral(" %v/%m") : name);
  progress_->setTextVisible(true);
}

void QuantPanel::setStatus(const QString& text) {
  status_ = text;
  updateSummary();
}

QuantPanel::GraphMode QuantPanel::graphMode() const {
  return graphMode_->currentIndex() == 1 ? GraphMode::Quantised : GraphMode::FloatBySqnr;
}

void QuantPanel::setGraphMode(GraphMode mode) {
  graphMode_->setCurrentIndex(mode == GraphMode::Quantised ? 1 : 0);
}

void QuantPanel::activate(const QString& opName) {
  if (opName.isEmpty()) return;
  selectOp(opName);
  emit opActivated(opName);
}

void QuantPanel::selectOp(const QString& opName) {
  if (syncing_) return;
  syncing_ = true;
  selectedOp_ = opName;
  const int row = layerModel_->rowForOp(opName);
  if (row >= 0) {
    const QModelIndex index = layerModel_->index(row, QuantLayerModel::Op);
    layerView_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    layerView_->scrollTo(index);
  } else {
    layerView_->selectionModel()->clear();
  }
  chart_->setSelectedBar(chart_->barForOp(opName));
  heatmap_->setSelectedRow(heatmap_->rowForOp(opName));
  syncing_ = false;
  const int tensorRow = tensorModel_->rowForProducer(opName);
  if (tensorRow >= 0) {
    if (const auto* t = tensorModel_->tensorAt(tensorRow)) selectTensor(qs(t->tensor));
  }
}

void QuantPanel::selectTensor(const QString& name) {
  const bool wasSyncing = syncing_;
  syncing_ = true;
  const int row = tensorModel_->rowForTensor(name);
  if (row >= 0) {
    const QModelIndex index = tensorModel_->index(row, QuantTensorModel::Tensor);
    tensorView_->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    tensorView_->scrollTo(index);
  }
  histogram_->setTensor(row >= 0 ? name : QString());
  syncing_ = wasSyncing;
}

void QuantPanel::updateSummary() {
  QStringList parts;
  QStringList tips;
  if (report_) {
    const auto& r = *report_;
    parts << QString::fromStdString(r.strategy) % QStringLiteral(", ") %
                 (r.per_channel ? tr("per channel") : tr("per tensor")) % QStringLiteral(", ") %
                 (r.calibration_percentile >= 100 ? tr("min/max")
                                                   : tr("%1th percentile").arg(r.calibration_percentile)) %
                 QStringLiteral(", ") % tr("%1 s").arg(r.calibration_seconds, 0, 'f', 1);
    for (const auto& o : r.outputs) {
      if (!o.measured()) {
        parts << tr("output “%1”: SQNR not measured (no data)").arg(qs(o.output));
        continue;
      }
      parts << tr("output “%1”: SQNR %2, top-1 agreement %3%")
                   .arg(qs(o.output), formatDb(*o.sqnr_db))
                   .arg(*o.top1_agreement * 100.0, 0, 'f', 0);
    }
    parts << tr("%n layer(s) in int8", nullptr, int(r.layers.size()));
    if (!r.float_ops.empty()) parts << tr("%n op(s) in float", nullptr, int(r.float_ops.size()));
    if (!r.warnings.empty()) parts << tr("%n warning(s)", nullptr, int(r.warnings.size()));
    for (const auto& w : r.warnings) tips << qs(w);
  }
  if (!status_.isEmpty()) parts.prepend(status_);
  summary_->setText(parts.join(QStringLiteral(" · ")));
  summary_->setToolTip(tips.join(QLatin1Char('\n')));
  summary_->setVisible(!parts.isEmpty());
}

void QuantPanel::retranslateUi() {
  requantizeButton_->setText(report_ ? tr("Re-quantise") : tr("Quantise"));
  requantizeButton_->setToolTip(
      tr("Quantise the model to int8 again with the calibration data and the layers marked "
         "“Float” kept in float"));
  cancelButton_->setText(tr("Cancel"));
  cancelButton_->setToolTip(tr("Stop the running quantisation"));
  calibrationButton_->setText(tr("Calibration data"));
  calibrationButton_->setToolTip(tr("Choose the inputs the activation ranges are measured on"));
  const QList<QAction*> actions = calibrationButton_->menu()->actions();
  if (actions.size() >= 2) {
    actions[0]->setText(tr("Choose a .npy File…"));
    actions[1]->setText(tr("Random Samples (%1)").arg(kRandomSamples));
  }
  perChannel_->setText(tr("Per-channel weights"));
  graphLabel_->setText(tr("Graph:"));
  graphMode_->setItemText(0, tr("Float graph coloured by SQNR"));
  graphMode_->setItemText(1, tr("Quantised graph"));
  placeholder_->setText(
      tr("Run Tools › Quantise… (or the Quantise button above) to quantise the model to int8 "
         "and see where it loses accuracy."));
  tabs_->setTabText(0, tr("SQNR per Layer"));
  tabs_->setTabText(1, tr("Per-Channel Error"));
  tabs_->setTabText(2, tr("Tensors"));
  chartMetricLabel_->setText(tr("Show:"));
  chartMetric_->setItemText(0, tr("Output SQNR"));
  chartMetric_->setItemText(1, tr("Weight SQNR"));
  chartHint_->setText(tr("one bar per quantised layer, in graph order: hover for its name, click to select it"));
  heatmapMetricLabel_->setText(tr("Show:"));
  heatmapMetric_->setItemText(0, tr("SQNR (dB)"));
  heatmapMetric_->setItemText(1, tr("Max |error|"));
  heatmap_->setToolTip(QString());
  logScale_->setText(tr("Log counts"));
  layerView_->setToolTip(tr("Click a layer to select it in the graph; check “Float” to keep it in "
                            "float at the next run"));
  layerModel_->retranslate();
  tensorModel_->retranslate();
  chart_->retranslate();
  heatmap_->update();
  histogram_->update();
  updateCalibrationLabel();
  updateSummary();
  emit retranslated();
}

void QuantPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslateUi();
  QWidget::changeEvent(event);
}

}  // namespace ec::widgets
