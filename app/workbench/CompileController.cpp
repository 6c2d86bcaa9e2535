// CompileController.h: the compile area.
#include <algorithm>
#include <map>
#include <unordered_map>

#include <QAction>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>

#include "app/workbench/CompileController.h"
#include "app/workbench/CompileRunner.h"
#include "app/workbench/JobRunner.h"
#include "app/workbench/MainWindow.h"
#include "core/backends/backend_registry.h"
#include "widgets/CoreMessages.h"
#include "core/report/compile_flow.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/GraphView.h"
#include "widgets/MessageBar.h"
#include "widgets/PassesPanel.h"
#include "widgets/compile/CompilePanels.h"

namespace ec::workbench {

bool CompileController::isCompiling() const { return compile_ && compile_->isRunning(); }

CompileController::CompileController(MainWindow& window) : QObject(&window), w_(window) {
  using ec::widgets::PartitionPanel;
  using ec::widgets::TimelinePanel;
  partitionPanel_ = new PartitionPanel(&w_);
  partitionDock_ = w_.addPanel(partitionPanel_, tr("Partition"), QStringLiteral("partitionDock"),
                            Qt::BottomDockWidgetArea);
  timelinePanel_ = new TimelinePanel(&w_);
  timelineDock_ = w_.addPanel(timelinePanel_, tr("Backend Timeline"), QStringLiteral("timelineDock"),
                           Qt::BottomDockWidgetArea);
  if (auto* logDock = w_.findChild<QDockWidget*>(QStringLiteral("logDock"))) {
    w_.tabifyDockWidget(logDock, partitionDock_);
    w_.tabifyDockWidget(logDock, timelineDock_);
    logDock->raise();
  }
  w_.retranslated([this] {
    partitionDock_->setWindowTitle(tr("Partition"));
    timelineDock_->setWindowTitle(tr("Backend Timeline"));
  });

  compile_ = new JobRunner(QStringLiteral("CompileRunner"), this);

  connect(partitionPanel_, &PartitionPanel::opActivated, &w_, &MainWindow::showOpByName);
  connect(timelinePanel_, &TimelinePanel::opActivated, &w_, &MainWindow::showOpByName);
  connect(w_.views_.graphView, &ec::widgets::GraphView::opSelected, this, [this](int op) {
    const ec::ir::FrozenGraph& shown = w_.views_.graphView->graph();
    if (!shown || op < 0 || op >= int(shown->ops.size())) return;
    const std::string& name = shown->ops[std::size_t(op)].name;
    partitionPanel_->selectOp(QString::fromStdString(name));
    // The selected op's placement and reason, while the compiled graph is shown.
    const CompileOutcomePtr& outcome = compileOutcome_;
    if (!outcome || outcome->graph != shown) return;
    if (const auto* row = outcome->report->result.partition.find(name)) {
      const QString where = row->unit == "ANE"                                 ? tr("Neural Engine")
                            : row->unit == "GPU"                               ? tr("GPU")
                            : row->placement == ec::backends::Placement::Target ? tr("TPU")
                                                                               : tr("CPU");
      w_.statusBar()->showMessage(tr("%1 on the %2: %3")
                                   .arg(QString::fromStdString(name), where,
                                        QString::fromStdString(row->reason.empty() ? row->status : row->reason)),
                               15000);
    }
  });

  connect(&w_, &MainWindow::modelShown, this, [this] {
    compile_->forget();
    compileOutcome_.reset();
    endCompileProgress();
    partitionPanel_->setStatus({});
    partitionPanel_->setReport({});
    timelinePanel_->setReport({});
    showArtefactPartition();
  });
}

void CompileController::addActions(QMenu* model) {
  compileAction_ = model->addAction(QString(), this, &CompileController::compileDialog);
  compileAction_->setObjectName(QStringLiteral("compileAction"));
  compileAction_->setEnabled(false);  // until a model is shown
  w_.retranslated([this] {
    compileAction_->setText(tr("&Compile for Target…"));
    compileAction_->setStatusTip(
        tr("Partition the model for a target and show what runs on the accelerator and why the rest does not"));
  });
  connect(&w_, &MainWindow::modelShown, compileAction_, [this] { compileAction_->setEnabled(true); });
}

void CompileController::compileDialog() {
  if (!w_.model_.graph || isCompiling()) return;
  QDialog dialog(&w_);
  dialog.setObjectName(QStringLiteral("compileDialog"));
  dialog.setWindowTitle(tr("Compile for Target"));
  auto* form = new QFormLayout(&dialog);
  auto* target = new QComboBox(&dialog);
  target->setObjectName(QStringLiteral("compileTarget"));
  // Every backend of the registry, in its order, by its short translated name
  // ("target.NAME" in widgets/CoreMessages.cpp), else by the summary it registers:
  // a new target needs no line here. What each takes decides what is enabled below.
  std::map<QString, ec::backends::Capabilities> caps;
  for (const auto& backend : ec::backends::backend_table()) {
    const std::string name(backend.name);
    const std::string summary(backend.summary);
    target->addItem(ec::widgets::coreMessageText(ec::Message{"target." + name, {}, summary}), QString::fromStdString(name));
    caps[QString::fromStdString(name)] = backend.factory()->capabilities();
  }
  auto takes = [caps](const QString& t, const char* option) {
    const auto it = caps.find(t);
    return it != caps.end() && std::find(it->second.options.begin(), it->second.options.end(), option) != it->second.options.end();
  };
  auto floatByDefault = [caps](const QString& t) {
    const auto it = caps.find(t);
    return it != caps.end() && it->second.float_by_default;
  };
  auto* quant = new QComboBox(&dialog);
  quant->setObjectName(QStringLiteral("compileQuantize"));
  quant->addItem(tr("Post-training int8"), QStringLiteral("ptq"));
  quant->addItem(tr("None (the model is already quantised, or Core ML float)"), QStringLiteral("none"));
  quant->addItem(tr("int8 weights (Core ML)"), QStringLiteral("weights-int8"));
  quant->setCurrentIndex(CompileRunner::isQuantised(*w_.model_.graph) ? 1 : 0);
  // Calibration data: a .npy file (or a folder of NAME.npy); empty = fixed-seed random samples.
  auto* calibration = new QLineEdit(&dialog);
  calibration->setObjectName(QStringLiteral("compileCalibration"));
  calibration->setPlaceholderText(tr("none: random samples (fixed seed)"));
  auto* browse = new QPushButton(tr("Browse…"), &dialog);
  connect(browse, &QPushButton::clicked, &dialog, [&dialog, calibration] {
    const QString file = QFileDialog::getOpenFileName(&dialog, tr("Calibration Data"), {},
                                                      tr("NumPy arrays (*.npy)"));
    if (!file.isEmpty()) calibration->setText(file);
  });
  auto* calibrationRow = new QHBoxLayout;
  calibrationRow->addWidget(calibration, 1);
  calibrationRow->addWidget(browse);
  auto* samples = new QSpinBox(&dialog);
  samples->setObjectName(QStringLiteral("compileSamples"));
  samples->setRange(1, 10000);
  samples->setValue(MainWindow::kCompileRandomSamples);
  auto* segments = new QSpinBox(&dialog);
  segments->setObjectName(QStringLiteral("compileSegments"));
  segments->setRange(1, 64);
  segments->setValue(1);
  segments->setToolTip(tr("Edge TPU segments the compiler may map (edgetpu_compiler --num_segments); "
                          "1 puts everything after the first unsupported op on the CPU"));
  // Core ML's own choices, offered while the target takes them (Capabilities::options).
  auto* precision = new QComboBox(&dialog);
  precision->setObjectName(QStringLiteral("compilePrecision"));
  precision->addItem(tr("fp16 (Neural Engine capable)"), QStringLiteral("fp16"));
  precision->addItem(tr("fp32 (GPU and CPU only)"), QStringLiteral("fp32"));
  auto* units = new QComboBox(&dialog);
  units->setObjectName(QStringLiteral("compileComputeUnits"));
  units->addItem(tr("All (Neural Engine, GPU, CPU)"), QStringLiteral("all"));
  units->addItem(tr("CPU and Neural Engine"), QStringLiteral("cpu_and_ne"));
  units->addItem(tr("CPU and GPU"), QStringLiteral("cpu_and_gpu"));
  units->addItem(tr("CPU only"), QStringLiteral("cpu_only"));
  auto* deployment = new QComboBox(&dialog);
  deployment->setObjectName(QStringLiteral("compileDeploymentTarget"));
  for (const char* t : {"macOS13", "macOS14", "macOS15", "iOS16", "iOS17", "iOS18"})
    deployment->addItem(QString::fromLatin1(t), QString::fromLatin1(t));
  auto updateEnabled = [=] {
    const QString t = target->currentData().toString();
    const bool ptq = quant->currentData().toString() == QLatin1String("ptq");
    calibration->setEnabled(ptq);
    browse->setEnabled(ptq);
    samples->setEnabled(ptq);
    segments->setEnabled(takes(t, "num_segments"));
    precision->setEnabled(takes(t, "precision"));
    units->setEnabled(takes(t, "compute_units"));
    deployment->setEnabled(takes(t, "deployment_target"));
  };
  connect(quant, &QComboBox::currentIndexChanged, &dialog, updateEnabled);
  connect(target, &QComboBox::currentIndexChanged, &dialog, [=] {
    // Core ML compiles float by default (Capabilities::float_by_default); the Edge TPU needs int8.
    if (floatByDefault(target->currentData().toString()) && quant->currentData().toString() == QLatin1String("ptq"))
      quant->setCurrentIndex(1);
    updateEnabled();
  });
  updateEnabled();
  form->addRow(tr("&Target:"), target);
  form->addRow(tr("&Quantisation:"), quant);
  form->addRow(tr("Calibration &data:"), calibrationRow);
  form->addRow(tr("Calibration s&amples:"), samples);
  form->addRow(tr("&Segments:"), segments);
  form->addRow(tr("&Precision:"), precision);
  form->addRow(tr("Compute &units:"), units);
  form->addRow(tr("&Deployment target:"), deployment);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Compile"));
  connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  form->addRow(buttons);
  if (dialog.exec() != QDialog::Accepted) return;
  compileWith(target->currentData().toString(), quant->currentData().toString(), calibration->text().trimmed(),
              samples->value(), segments->value(),
              {precision->currentData().toString(), units->currentData().toString(), deployment->currentData().toString()});
}

void CompileController::endCompileProgress() {
  if (compileProgress_) {
    compileProgress_->hide();
    compileProgress_->deleteLater();
    compileProgress_ = nullptr;
  }
  if (compileAction_) compileAction_->setEnabled(bool(w_.model_.graph));
}

void CompileController::onCompileProgress(const QString& stage, int done, int total) {
  if (!compileProgress_) return;
  QString name = stage;  // the core's stage names
  if (stage == QLatin1String("calibrate")) name = tr("calibrating");
  else if (stage == QLatin1String("report")) name = tr("measuring error");
  else if (stage == QLatin1String("partition")) name = tr("partitioning");
  compileProgress_->setLabelText(tr("Compiling: %1…").arg(name));
  compileProgress_->setMaximum(total > 0 ? total : 0);
  compileProgress_->setValue(total > 0 ? done : 0);
}

void CompileController::onCompiled(const CompileOutcomePtr& outcome) {
  endCompileProgress();
  compileOutcome_ = outcome;
  partitionPanel_->setStatus({});
  partitionPanel_->setReport(outcome->report);
  timelinePanel_->setReport(outcome->report);
  showCompileOutcome();
  partitionDock_->show();
  partitionDock_->raise();
  w_.resizeDocks({partitionDock_}, {320}, Qt::Vertical);
  const auto& p = outcome->report->result.partition;
  // a target predicting compute units per op (PartitionRow::unit) says where they run
  const bool perUnit = std::any_of(p.rows.begin(), p.rows.end(), [](const auto& r) { return !r.unit.empty(); });
  if (perUnit) {
    int units[3] = {0, 0, 0};
    for (const auto& r : p.rows) ++units[r.unit == "ANE" ? 0 : r.unit == "GPU" ? 1 : 2];
    w_.statusBar()->showMessage(tr("Compiled (prediction): %1 op(s) on the Neural Engine, %2 on the GPU, %3 on the CPU")
                                 .arg(units[0])
                                 .arg(units[1])
                                 .arg(units[2]),
                             10000);
  } else {
    w_.statusBar()->showMessage(
        tr("Compiled: %1 op(s) on the TPU, %2 on the CPU").arg(p.ops_on_target()).arg(p.ops_on_cpu()), 10000);
  }
  emit w_.compiled();
}

void CompileController::onCompileFailed(const QString& message) {
  endCompileProgress();
  partitionPanel_->setStatus(tr("Compile failed: %1").arg(message));
  w_.views_.messageBar->showError(message);
  w_.statusBar()->showMessage(tr("Compile failed"), 10000);
  emit w_.compileFailed(message);
}

void CompileController::onCompileCancelled() {
  endCompileProgress();
  partitionPanel_->setStatus(tr("Compile cancelled"));
  w_.statusBar()->showMessage(tr("Compile cancelled"), 5000);
}

void CompileController::compileWith(const QString& target, const QString& quantize, const QString& calibrationFile,
                             int calibrationSamples, int numSegments, const TargetOptions& options) {
  if (!w_.model_.graph || isCompiling()) return;
  CompileJob job;
  job.graph = w_.workingGraph();
  job.modelName = QFileInfo(w_.model_.currentPath).fileName();
  job.target = target;
  bool floatByDefault = false;  // Capabilities::float_by_default of the target asked for
  for (const auto& backend : ec::backends::backend_table())
    if (QString::fromUtf8(backend.name.data(), qsizetype(backend.name.size())) == target)
      floatByDefault = backend.factory()->capabilities().float_by_default;
  job.quantize = !quantize.isEmpty() ? quantize
                 : CompileRunner::isQuantised(*job.graph) || floatByDefault ? QStringLiteral("none")
                                                                            : QStringLiteral("ptq");
  job.calibrationFile = calibrationFile;
  job.calibrationSamples = calibrationSamples;
  job.numSegments = numSegments;
  job.precision = options.precision;
  job.computeUnits = options.computeUnits;
  job.deploymentTarget = options.deploymentTarget;
  if (compileAction_) compileAction_->setEnabled(false);
  compileProgress_ = new QProgressDialog(tr("Compiling…"), tr("Cancel"), 0, 0, &w_);
  compileProgress_->setObjectName(QStringLiteral("compileProgress"));
  compileProgress_->setWindowTitle(tr("Compile for Target"));
  compileProgress_->setMinimumDuration(0);
  compileProgress_->setAutoClose(false);
  compileProgress_->setAutoReset(false);
  connect(compileProgress_, &QProgressDialog::canceled, this, [this] { compile_->cancel(); });
  compileProgress_->show();
  partitionPanel_->setStatus(tr("Compiling for %1…").arg(target));
  JobHandlers<CompileOutcomePtr> h;
  h.progress = [this](const QString& stage, int done, int total) { onCompileProgress(stage, done, total); };
  h.done = [this](const CompileOutcomePtr& outcome) { onCompiled(outcome); };
  h.failed = [this](const QString& message) { onCompileFailed(message); };
  h.cancelled = [this] { onCompileCancelled(); };
  compile_->start<CompileOutcomePtr>([job = std::move(job)](const JobContext& ctx) { return CompileRunner::run(job, ctx); },
                                     std::move(h));
  w_.statusBar()->showMessage(tr("Compiling for %1…").arg(target));
}

void CompileController::showCompileOutcome() {
  const CompileOutcomePtr& outcome = compileOutcome_;
  if (!outcome || !outcome->report || !outcome->graph) return;
  const ec::ir::FrozenGraph& graph = outcome->graph;
  if (w_.views_.graphView->graph() != graph) w_.setViewsGraph(graph);
  using ec::widgets::PartitionOpModel;
  std::vector<QColor> colors(graph->ops.size());
  std::vector<QString> tips(graph->ops.size());
  std::vector<std::vector<std::pair<QString, QString>>> details(graph->ops.size());
  const auto& rows = outcome->report->result.partition.rows;
  std::unordered_map<std::string, const ec::backends::PartitionRow*> byName;
  for (const auto& row : rows) byName.emplace(row.name, &row);
  auto place = [&](std::size_t i, const ec::backends::PartitionRow& row) {
    colors[i] = ec::widgets::partitionColor(row);
    tips[i] = PartitionOpModel::hoverText(row);
    details[i] = PartitionOpModel::details(row);
  };
  for (const auto& row : rows) {
    for (std::size_t m : row.members) {
      if (m < graph->ops.size()) place(m, row);
    }
  }
  for (std::size_t i = 0; i < graph->ops.size(); ++i) {
    if (auto it = byName.find(graph->ops[i].name); it != byName.end()) place(i, *it->second);
  }
  w_.views_.graphView->clearOpValues();
  const auto& rowsOf = outcome->report->result.partition.rows;
  if (std::any_of(rowsOf.begin(), rowsOf.end(), [](const auto& r) { return !r.unit.empty(); })) {  // compute units
    w_.views_.graphView->setOpHighlights(std::move(colors), {{tr("Neural Engine"), ec::widgets::targetColor()},
                                                    {tr("GPU"), ec::widgets::gpuColor()},
                                                    {tr("CPU"), ec::widgets::cpuColor()}});
    return;
  }
  w_.views_.graphView->setOpHighlights(std::move(colors),
                              {{tr("TPU"), ec::widgets::targetColor()},
                               {tr("CPU (unsupported)"), ec::widgets::cpuColor()},
                               {tr("CPU (after the first unsupported op)"), ec::widgets::afterUnsupportedColor()}});
  w_.views_.graphView->setOpToolTips(std::move(tips));
  w_.views_.propertiesPanel->setOpAnnotations(tr("Placement (%1)").arg(QString::fromStdString(outcome->report->backend)),
                                     std::move(details));
}

void CompileController::showArtefactPartition() {
  if (!w_.model_.graph) return;
  auto report = ec::report::report_of_artefact(*w_.model_.graph, QFileInfo(w_.model_.currentPath).fileName().toStdString());
  if (!report) return;
  auto outcome = std::make_shared<CompileOutcome>();
  outcome->graph = w_.model_.graph;
  outcome->report = std::make_shared<const ec::report::CompileReport>(std::move(*report));
  compileOutcome_ = outcome;
  partitionPanel_->setStatus(tr("Read from the compiled file: the split its compiler made"));
  partitionPanel_->setReport(outcome->report);
  timelinePanel_->setReport(outcome->report);
  showCompileOutcome();
  partitionDock_->show();
  partitionDock_->raise();
}

}  // namespace ec::workbench
