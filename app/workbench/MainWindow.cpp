#include "app/workbench/MainWindow.h"

#include <algorithm>

#include <spdlog/spdlog.h>
#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QInputDialog>
#include <QLineEdit>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QKeySequence>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QTreeView>
#include <QVBoxLayout>

#include "app/workbench/ExportController.h"
#include "app/workbench/Language.h"
#include "app/workbench/CompareController.h"
#include "app/workbench/CompileController.h"
#include "app/workbench/DevicesBenchController.h"
#include "app/workbench/JobRunner.h"
#include "app/workbench/PassesController.h"
#include "app/workbench/QuantController.h"
#include "app/workbench/ModelLoader.h"
#include "core/errors.h"
#include "core/frontends/frontend.h"
#include "app/workbench/CompileRunner.h"
#include "widgets/GraphView.h"
#include "widgets/ItemViewFit.h"
#include "widgets/LogPanel.h"
#include "widgets/LogSink.h"
#include "widgets/MessageBar.h"
#include "widgets/MetaTypes.h"
#include "widgets/ModelSummaryModel.h"
#include "widgets/OperationListModel.h"
#include "widgets/PropertiesPanel.h"
#include "widgets/SearchBar.h"
#include "widgets/SummaryPanel.h"

#include "ec_version.h"

namespace ec::workbench {
namespace {
const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kRecentFilesKey = QStringLiteral("recentFiles");
// The zoom the user last chose, and the model it was chosen on (restored when that
// model opens again; any other model opens fitted to the window).
const QString kZoomKey = QStringLiteral("graph/zoom");
const QString kZoomModelKey = QStringLiteral("graph/zoomModel");
// Bump when docks are added or renamed, so an old saved layout is not applied.
// 3: the graph gets the room (panels hidden until they have content, a short log).
constexpr int kStateVersion = 3;

QString localFileOf(const QMimeData* mime) {
  if (!mime || !mime->hasUrls()) return {};
  const QList<QUrl> urls = mime->urls();
  if (urls.isEmpty() || !urls.first().isLocalFile()) return {};
  return urls.first().toLocalFile();
}
}  // namespace

MainWindow::MainWindow(QSettings& settings, QWidget* parent)
    : QMainWindow(parent), settings_(settings) {
  ec::widgets::registerCoreMetaTypes();
  retranslated([this] { updateWindowTitle(); });
  setAcceptDrops(true);
  setDockNestingEnabled(true);

  createCentralWidget();
  createDocks();
  passes_ = new PassesController(*this);
  quant_ = new QuantController(*this);
  compile_ = new CompileController(*this);
  bench_ = new DevicesBenchController(*this);
  compare_ = new CompareController(*this);
  createActions();
  createStatusBar();
  // Panels with nothing to show yet stay hidden: the graph gets the room. Each one
  // appears when its work has a result (or from the View menu).
  for (QDockWidget* dock : {passes_->dock(), quant_->dock(), compile_->partitionDock(), compile_->timelineDock(),
                            bench_->devicesDock(), bench_->historyDock(), bench_->benchDock()}) {
    if (dock) dock->hide();
  }
  // Every table: columns sized to their content, long texts elided in the middle.
  for (QAbstractItemView* view : findChildren<QAbstractItemView*>()) {
    if (qobject_cast<QTreeView*>(view) || qobject_cast<QTableView*>(view)) {
      ec::widgets::fitColumnsToContents(view);
      exporter_->addTableActions(view);  // "Export as CSV…" in its context menu
    }
  }
  defaultState_ = saveState(kStateVersion);
  restoreWindowState();

  // The zoom the user chooses is remembered with the model it was chosen on.
  connect(views_.graphView, &ec::widgets::GraphView::zoomChanged, this, [this](double zoom) {
    if (model_.currentPath.isEmpty() || !model_.graph) return;
    settings_.setValue(kZoomKey, zoom);
    settings_.setValue(kZoomModelKey, model_.currentPath);
  });
  // The title says what has been done to the model.
  connect(this, &MainWindow::optimized, this, [this] {
    model_.optimised = true;
    updateWindowTitle();
  });
  connect(this, &MainWindow::quantized, this, [this] {
    model_.quantised = true;
    updateWindowTitle();
  });
  connect(this, &MainWindow::compiled, this, [this] {
    if (const auto& outcome = compile_->outcome(); outcome && outcome->report)
      model_.compiledFor = QString::fromStdString(outcome->report->backend);
    if (compile_->timelineDock()->isHidden()) {
      compile_->timelineDock()->show();  // tabbed with the partition, which stays in front
      compile_->partitionDock()->raise();
    }
    updateWindowTitle();
  });
  // Core messages go to the log panel. The sink is removed again in the
  // destructor, after the loader thread (the only other thread that logs) ends.
  views_.logSink = views_.logPanel->createSink();
  spdlog::default_logger()->sinks().push_back(views_.logSink);

  model_.loader = new JobRunner(QStringLiteral("ModelLoader"), this);
}

MainWindow::~MainWindow() {
  // Every job ends before the log sink goes (they log): a running open_model() or pass
  // pipeline cannot be interrupted, so this waits for it.
  for (JobRunner* jobs : findChildren<JobRunner*>()) jobs->stop();
  auto& sinks = spdlog::default_logger()->sinks();
  sinks.erase(std::remove(sinks.begin(), sinks.end(), views_.logSink), sinks.end());
}

void MainWindow::createCentralWidget() {
  views_.messageBar = new ec::widgets::MessageBar(this);

  views_.emptyHint = new QLabel(this);
  retranslated([this] {
    QStringList names;
    for (const auto& entry : ec::frontends::frontend_table()) {
      names << QString::fromUtf8(entry.name.data(), qsizetype(entry.name.size()));
    }
    views_.emptyHint->setText(tr("Open a model with File › Open… (Ctrl+O) or drop a model file here.\n"
                           "Supported: %1")
                            .arg(names.join(QStringLiteral(", "))));
  });
  views_.emptyHint->setAlignment(Qt::AlignCenter);
  views_.emptyHint->setWordWrap(true);
  views_.emptyHint->setEnabled(false);
  createWelcomePage();

  views_.graphView = new ec::widgets::GraphView(this);
  views_.searchBar = new ec::widgets::SearchBar(this);
  views_.searchBar->hide();

  views_.opsModel = new ec::widgets::OperationListModel(this);
  views_.opsView = new QTreeView(this);
  views_.opsView->setObjectName(QStringLiteral("operationsView"));
  views_.opsView->setModel(views_.opsModel);
  views_.opsView->setRootIsDecorated(false);
  views_.opsView->setUniformRowHeights(true);
  views_.opsView->setAlternatingRowColors(true);
  views_.opsView->setSelectionBehavior(QAbstractItemView::SelectRows);
  views_.opsView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  QHeaderView* header = views_.opsView->header();
  header->setStretchLastSection(true);
  header->setSectionResizeMode(ec::widgets::OperationListModel::Index,
                               QHeaderView::ResizeToContents);
  header->resizeSection(ec::widgets::OperationListModel::Name, 230);
  header->resizeSection(ec::widgets::OperationListModel::Type, 130);
  header->resizeSection(ec::widgets::OperationListModel::OutputTypes, 150);
  header->resizeSection(ec::widgets::OperationListModel::Inputs, 220);

  views_.centre = new QStackedWidget(this);
  views_.centre->addWidget(welcome_.page);
  views_.centre->addWidget(views_.graphView);

  auto* central = new QWidget(this);
  auto* layout = new QVBoxLayout(central);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(0);
  layout->addWidget(views_.messageBar);
  layout->addWidget(views_.searchBar);
  layout->addWidget(views_.centre, 1);
  setCentralWidget(central);

  // One selection, shown by every view.
  connect(views_.graphView, &ec::widgets::GraphView::opSelected, this, &MainWindow::showOp);
  connect(views_.searchBar, &ec::widgets::SearchBar::opFound, this, &MainWindow::showOp);
  connect(views_.opsView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) showOp(current.row());
          });
}

void MainWindow::showOp(int op) {
  if (model_.showingOp) return;
  model_.showingOp = true;
  views_.graphView->selectOp(op);
  views_.propertiesPanel->showOp(op);
  if (op >= 0 && views_.opsView->currentIndex().row() != op) {
    views_.opsView->setCurrentIndex(views_.opsModel->index(op, 0));
    views_.opsView->scrollTo(views_.opsModel->index(op, 0));
  }
  model_.showingOp = false;
}

QDockWidget* MainWindow::addPanel(QWidget* panel, const QString& title, const QString& objectName,
                                  Qt::DockWidgetArea area) {
  auto* dock = new QDockWidget(title, this);
  dock->setObjectName(objectName);  // saveState()/restoreState() key
  dock->setWidget(panel);
  addDockWidget(area, dock);
  // Panels added after the menus exist still get their View-menu toggle.
  if (menus_.viewMenu) menus_.viewMenu->insertAction(menus_.viewPanelsEnd, dock->toggleViewAction());
  return dock;
}

void MainWindow::createDocks() {
  views_.propertiesPanel = new ec::widgets::PropertiesPanel(this);
  connect(views_.propertiesPanel, &ec::widgets::PropertiesPanel::opActivated, this, &MainWindow::showOp);
  QDockWidget* propertiesDock = addPanel(views_.propertiesPanel, tr("Properties"),
                                         QStringLiteral("propertiesDock"), Qt::RightDockWidgetArea);
  views_.summaryPanel = new ec::widgets::SummaryPanel(this);
  QDockWidget* summaryDock = addPanel(views_.summaryPanel, tr("Summary"), QStringLiteral("summaryDock"),
                                      Qt::RightDockWidgetArea);
  QDockWidget* opsDock = addPanel(views_.opsView, tr("Operations"), QStringLiteral("operationsDock"),
                                  Qt::RightDockWidgetArea);
  tabifyDockWidget(summaryDock, opsDock);
  summaryDock->raise();
  views_.logPanel = new ec::widgets::LogPanel(this);
  QDockWidget* logDock =
      addPanel(views_.logPanel, tr("Log"), QStringLiteral("logDock"), Qt::BottomDockWidgetArea);
  // The log spans the full width; properties and summary sit right of the graph.
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
  retranslated([=] {
    propertiesDock->setWindowTitle(tr("Properties"));
    summaryDock->setWindowTitle(tr("Summary"));
    opsDock->setWindowTitle(tr("Operations"));
    logDock->setWindowTitle(tr("Log"));
  });
}

void MainWindow::applyDefaultDockSizes() {
  // The graph first: a narrow column on the right, a log of a few lines below.
  auto* propertiesDock = findChild<QDockWidget*>(QStringLiteral("propertiesDock"));
  auto* summaryDock = findChild<QDockWidget*>(QStringLiteral("summaryDock"));
  auto* logDock = findChild<QDockWidget*>(QStringLiteral("logDock"));
  if (!propertiesDock || !summaryDock || !logDock) return;
  const int column = std::clamp(width() * 6 / 25, 260, 440);
  resizeDocks({propertiesDock}, {column}, Qt::Horizontal);
  // Properties is empty until an op is clicked: the summary gets more of the column.
  resizeDocks({propertiesDock, summaryDock}, {height() * 35 / 100, height() * 65 / 100}, Qt::Vertical);
  resizeDocks({logDock}, {fontMetrics().height() * 4 + 30}, Qt::Vertical);
}

void MainWindow::resetLayout() {
  settings_.remove(kStateKey);
  restoreState(defaultState_, kStateVersion);
  applyDefaultDockSizes();
  statusBar()->showMessage(tr("Layout reset"), 5000);
}

void MainWindow::createWelcomePage() {
  welcome_.page = new QWidget(this);
  welcome_.page->setObjectName(QStringLiteral("welcomePage"));
  auto* title = new QLabel(welcome_.page);
  QFont big = title->font();
  big.setPointSizeF(big.pointSizeF() * 1.6);
  big.setBold(true);
  title->setFont(big);
  title->setAlignment(Qt::AlignCenter);
  auto* open = new QPushButton(welcome_.page);
  open->setObjectName(QStringLiteral("welcomeOpen"));
  connect(open, &QPushButton::clicked, this, &MainWindow::chooseFile);
  welcome_.sample = new QPushButton(welcome_.page);
  welcome_.sample->setObjectName(QStringLiteral("welcomeSample"));
  connect(welcome_.sample, &QPushButton::clicked, this, [this] { openFile(welcome_.sampleModel); });
  auto* recentTitle = new QLabel(welcome_.page);
  recentTitle->setAlignment(Qt::AlignCenter);
  recentTitle->setObjectName(QStringLiteral("welcomeRecentTitle"));
  welcome_.recent = new QWidget(welcome_.page);
  welcome_.recent->setObjectName(QStringLiteral("welcomeRecent"));
  auto* recentLayout = new QVBoxLayout(welcome_.recent);
  recentLayout->setContentsMargins(0, 0, 0, 0);

  auto* column = new QVBoxLayout;
  column->addStretch(2);
  column->addWidget(title);
  column->addSpacing(16);
  column->addWidget(open);
  column->addWidget(welcome_.sample);
  column->addSpacing(16);
  column->addWidget(recentTitle);
  column->addWidget(welcome_.recent);
  column->addSpacing(16);
  column->addWidget(views_.emptyHint);
  column->addStretch(3);
  auto* row = new QHBoxLayout(welcome_.page);
  row->addStretch(1);
  row->addLayout(column, 2);
  row->addStretch(1);
  retranslated([=, this] {
    title->setText(tr("edgecompiler Workbench"));
    open->setText(tr("Open a Model…"));
    welcome_.sample->setText(tr("Open the Sample Model"));
    welcome_.sample->setToolTip(welcome_.sampleModel);
    recentTitle->setText(tr("Recent Models"));
  });
  setSampleModel(findSampleModel());
}

QString MainWindow::findSampleModel() {
  const QString name = QStringLiteral("sample_cnn.onnx");
  const QDir app(QCoreApplication::applicationDirPath());
  for (const QString& candidate :
       {app.filePath(QStringLiteral("../share/edgecompiler/") + name),  // installed
        app.filePath(QStringLiteral("../../resources/") + name)}) {    // build tree
    if (QFileInfo::exists(candidate)) return QFileInfo(candidate).absoluteFilePath();
  }
  return {};
}

void MainWindow::setSampleModel(const QString& path) {
  welcome_.sampleModel = path;
  welcome_.sample->setVisible(!path.isEmpty());
  welcome_.sample->setToolTip(path);
}

void MainWindow::rebuildWelcomePage() {
  if (!welcome_.recent) return;
  auto* layout = welcome_.recent->layout();
  while (QLayoutItem* item = layout->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  const QStringList files = recentFiles();
  for (const QString& path : files.mid(0, 6)) {
    auto* button = new QPushButton(QFileInfo(path).fileName(), welcome_.recent);
    button->setFlat(true);
    button->setToolTip(path);
    button->setObjectName(QStringLiteral("welcomeRecentFile"));
    connect(button, &QPushButton::clicked, this, [this, path] { openFile(path); });
    layout->addWidget(button);
  }
  if (auto* title = welcome_.page->findChild<QLabel*>(QStringLiteral("welcomeRecentTitle")))
    title->setVisible(!files.isEmpty());
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(QString());
  file->setObjectName(QStringLiteral("fileMenu"));
  QAction* open = file->addAction(QString(), this, &MainWindow::chooseFile);
  open->setShortcut(QKeySequence::Open);
  // Formats whose model is a folder (.mlpackage, a SavedModel) open from here.
  QAction* openFolder = file->addAction(QString(), this, &MainWindow::chooseFolder);
  openFolder->setObjectName(QStringLiteral("openFolderAction"));
  menus_.recentMenu = file->addMenu(QString());
  rebuildRecentMenu();
  file->addSeparator();
  createExporter();
  file->addMenu(exporter_->menu());
  file->addSeparator();
  QAction* quit = file->addAction(QString(), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* edit = menuBar()->addMenu(QString());
  menus_.viewMenu = menuBar()->addMenu(QString());
  menus_.viewMenu->setObjectName(QStringLiteral("viewMenu"));
  retranslated([=, this] {
    file->setTitle(tr("&File"));
    open->setText(tr("&Open…"));
    open->setStatusTip(tr("Open a model file"));
    openFolder->setText(tr("Open &Folder…"));
    openFolder->setStatusTip(tr("Open a model that is a folder: a Core ML .mlpackage or a TensorFlow SavedModel"));
    menus_.recentMenu->setTitle(tr("Open &Recent"));
    rebuildRecentMenu();
    quit->setText(tr("&Quit"));
    edit->setTitle(tr("&Edit"));
    menus_.viewMenu->setTitle(tr("&View"));
  });
  for (QDockWidget* dock : findChildren<QDockWidget*>()) {
    menus_.viewMenu->addAction(dock->toggleViewAction());
  }
  QAction* resetLayoutAction = menus_.viewMenu->addAction(QString(), this, &MainWindow::resetLayout);
  resetLayoutAction->setObjectName(QStringLiteral("resetLayoutAction"));
  retranslated([resetLayoutAction] {
    resetLayoutAction->setText(tr("&Reset Layout"));
    resetLayoutAction->setStatusTip(tr("Put every panel back where it was on first start"));
  });
  menus_.viewPanelsEnd = menus_.viewMenu->insertSeparator(resetLayoutAction);
  menus_.viewMenu->addSeparator();
  addGraphActions(edit, menus_.viewMenu);
  menus_.viewMenu->addSeparator();
  QMenu* language = menus_.viewMenu->addMenu(QString());
  retranslated([language] { language->setTitle(tr("&Language")); });
  menus_.languageGroup = new QActionGroup(this);
  const QString current = chosenLanguage(settings_);
  for (const UiLanguage& lang : uiLanguages()) {
    QAction* action = language->addAction(lang.nativeName);
    action->setCheckable(true);
    action->setChecked(lang.code == current);
    action->setData(lang.code);
    menus_.languageGroup->addAction(action);
  }
  connect(menus_.languageGroup, &QActionGroup::triggered, this, [this](QAction* action) {
    const QString code = action->data().toString();
    saveLanguage(settings_, code);
    // Live: every window gets QEvent::LanguageChange and retranslates itself.
    if (!installTranslators(*QCoreApplication::instance(), code)) {
      statusBar()->showMessage(tr("No translation for %1 is available.").arg(action->text()),
                               8000);
    }
    emit languageChosen(code);
  });

  addModelMenu();
  addToolsMenu();
  QMenu* help = menuBar()->addMenu(QString());
  QAction* shortcuts = help->addAction(QString(), this, &MainWindow::showKeyboardShortcuts);
  shortcuts->setObjectName(QStringLiteral("keyboardShortcutsAction"));
  shortcuts->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Slash));
  help->addSeparator();
  QAction* about = help->addAction(QString(), this, &MainWindow::showAbout);
  about->setMenuRole(QAction::AboutRole);
  QAction* aboutQt = help->addAction(QString(), qApp, &QApplication::aboutQt);
  retranslated([=] {
    help->setTitle(tr("&Help"));
    shortcuts->setText(tr("&Keyboard Shortcuts"));
    about->setText(tr("&About edgecompiler Workbench"));
    aboutQt->setText(tr("About &Qt"));
  });
}

void MainWindow::addGraphActions(QMenu* edit, QMenu* view) {
  QAction* find = edit->addAction(QString(), views_.searchBar, &ec::widgets::SearchBar::activate);
  find->setShortcut(QKeySequence::Find);
  QAction* next = edit->addAction(QString(), views_.searchBar, &ec::widgets::SearchBar::findNext);
  next->setShortcut(QKeySequence::FindNext);
  QAction* previous = edit->addAction(QString(), views_.searchBar, &ec::widgets::SearchBar::findPrevious);
  previous->setShortcut(QKeySequence::FindPrevious);

  QAction* zoomIn = view->addAction(QString(), views_.graphView, &ec::widgets::GraphView::zoomIn);
  zoomIn->setShortcut(QKeySequence::ZoomIn);
  QAction* zoomOut = view->addAction(QString(), views_.graphView, &ec::widgets::GraphView::zoomOut);
  zoomOut->setShortcut(QKeySequence::ZoomOut);
  QAction* fit = view->addAction(QString(), views_.graphView, &ec::widgets::GraphView::fitToWindow);
  fit->setObjectName(QStringLiteral("fitAction"));
  fit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
  QAction* expand = view->addAction(QString(), views_.graphView, &ec::widgets::GraphView::expandAll);
  QAction* collapse =
      view->addAction(QString(), views_.graphView, &ec::widgets::GraphView::collapseAll);
  retranslated([=] {
    find->setText(tr("&Find…"));
    find->setStatusTip(tr("Find ops and tensors by name or type"));
    next->setText(tr("Find &Next"));
    previous->setText(tr("Find &Previous"));
    zoomIn->setText(tr("Zoom &In"));
    zoomOut->setText(tr("Zoom &Out"));
    fit->setText(tr("&Fit to Window"));
    expand->setText(tr("&Expand All Groups"));
    collapse->setText(tr("&Collapse All Groups"));
  });
}

void MainWindow::createStatusBar() {
  model_.progress = new QProgressBar(this);
  model_.progress->setRange(0, 0);  // busy: the core reports no progress yet
  model_.progress->setMaximumWidth(160);
  model_.progress->setTextVisible(false);
  model_.cancelButton = new QPushButton(this);
  model_.cancelButton->setObjectName(QStringLiteral("cancelLoadButton"));
  retranslated([this] {
    model_.cancelButton->setText(tr("Cancel"));
    model_.cancelButton->setToolTip(
        tr("Stop waiting for this model. The file is still read to the end in the background."));
  });
  connect(model_.cancelButton, &QPushButton::clicked, this, &MainWindow::cancelLoad);
  statusBar()->addPermanentWidget(model_.progress);
  statusBar()->addPermanentWidget(model_.cancelButton);
  model_.progress->hide();
  model_.cancelButton->hide();
  statusBar()->showMessage(tr("Ready"));
}

void MainWindow::restoreWindowState() {
  if (!restoreGeometry(settings_.value(kGeometryKey).toByteArray())) resize(1280, 800);
  if (!restoreState(settings_.value(kStateKey).toByteArray(), kStateVersion)) applyDefaultDockSizes();
}

void MainWindow::closeEvent(QCloseEvent* event) {
  settings_.setValue(kGeometryKey, saveGeometry());
  settings_.setValue(kStateKey, saveState(kStateVersion));
  QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (!localFileOf(event->mimeData()).isEmpty()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = localFileOf(event->mimeData());
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  openFile(path);
}

void MainWindow::chooseFile() {
  QString dir = settings_.value(QStringLiteral("lastOpenDir")).toString();
  // The filter lists exactly what the frontend registry reads.
  const QString patterns = QString::fromStdString(ec::frontends::model_file_patterns());
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), dir,
                                                    tr("Models (%1);;All files (*)").arg(patterns));
  if (path.isEmpty()) return;
  settings_.setValue(QStringLiteral("lastOpenDir"), QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::chooseFolder() {
  QString dir = settings_.value(QStringLiteral("lastOpenDir")).toString();
  const QString path = QFileDialog::getExistingDirectory(this, tr("Open Model Folder"), dir);
  if (path.isEmpty()) return;
  settings_.setValue(QStringLiteral("lastOpenDir"), QFileInfo(path).absolutePath());
  openFile(path);
}

void MainWindow::openFile(const QString& path) {
  if (path.isEmpty()) return;
  const QString absolute = QFileInfo(path).absoluteFilePath();
  // A newer request supersedes a running one; its result will be ignored.
  model_.currentPath = absolute;
  setLoading(true, absolute);
  JobHandlers<LoadedModel> h;
  h.done = [this](const LoadedModel& m) { onModelLoaded(m.path, m.graph, m.summary); };
  h.failed = [this, absolute](const QString& message) { onLoadFailed(absolute, message); };
  model_.loader->start<LoadedModel>([absolute](const JobContext&) { return ModelLoader::load(absolute); }, std::move(h));
}

bool MainWindow::isLoading() const { return model_.loader->isRunning(); }

// The areas' API, as the tests and main.cpp drive it.
ec::widgets::PassesPanel* MainWindow::passesPanel() const { return passes_->panel(); }
bool MainWindow::isOptimizing() const { return passes_->isOptimizing(); }
void MainWindow::optimize() { passes_->optimize(); }
ec::widgets::QuantPanel* MainWindow::quantPanel() const { return quant_->panel(); }
bool MainWindow::isQuantizing() const { return quant_->isQuantizing(); }
void MainWindow::quantize() { quant_->quantize(); }
ec::widgets::PartitionPanel* MainWindow::partitionPanel() const { return compile_->partitionPanel(); }
ec::widgets::TimelinePanel* MainWindow::timelinePanel() const { return compile_->timelinePanel(); }
bool MainWindow::isCompiling() const { return compile_->isCompiling(); }
void MainWindow::compileDialog() { compile_->compileDialog(); }
void MainWindow::compileFor(const QString& target, const QString& quantize, const TargetOptions& options) {
  compile_->compileWith(target, quantize, {}, kCompileRandomSamples, 1, options);
}
void MainWindow::compileWith(const QString& target, const QString& quantize, const QString& calibrationFile,
                             int calibrationSamples, int numSegments, const TargetOptions& options) {
  compile_->compileWith(target, quantize, calibrationFile, calibrationSamples, numSegments, options);
}
ec::widgets::DevicesPanel* MainWindow::devicesPanel() const { return bench_->devicesPanel(); }
ec::widgets::BenchmarkPanel* MainWindow::benchmarkPanel() const { return bench_->benchmarkPanel(); }
ec::widgets::RunHistoryPanel* MainWindow::runHistoryPanel() const { return bench_->runHistoryPanel(); }
void MainWindow::benchmark(int iterations) { bench_->benchmark(iterations); }
void MainWindow::refreshDevices() { bench_->refreshDevices(); }
ec::widgets::CompareView* MainWindow::compareView() const { return compare_->view(); }
bool MainWindow::isComparing() const { return compare_->isComparing(); }
void MainWindow::compareWith(const QString& path) { compare_->compareWith(path); }
void MainWindow::compareStages() { compare_->compareStages(); }

void MainWindow::cancelLoad() {
  if (!isLoading()) return;
  spdlog::info("stopped waiting for {}", model_.currentPath.toStdString());
  model_.loader->forget();
  setLoading(false);
  statusBar()->showMessage(tr("Cancelled opening %1").arg(QFileInfo(model_.currentPath).fileName()),
                           5000);
}

void MainWindow::setLoading(bool loading, const QString& path) {
  model_.progress->setVisible(loading);
  model_.cancelButton->setVisible(loading);
  if (loading) statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
}

void MainWindow::onModelLoaded(const QString& path, ec::ir::FrozenGraph graph,
                               const ec::report::ModelSummary& summary) {
  setLoading(false);
  views_.messageBar->dismiss();

  model_.graph = std::move(graph);
  model_.optimised = model_.quantised = false;
  model_.compiledFor.clear();
  views_.opsModel->setGraph(model_.graph);
  views_.summaryPanel->setSummary(summary);
  views_.propertiesPanel->setGraph(model_.graph);
  views_.searchBar->setGraph(model_.graph);
  views_.centre->setCurrentWidget(views_.graphView);
  views_.graphView->setGraph(model_.graph);  // after the page switch: the first view fits the real viewport
  // The zoom last chosen on this model; any other opens fitted to the window.
  if (settings_.value(kZoomModelKey).toString() == path && settings_.contains(kZoomKey))
    views_.graphView->setZoom(settings_.value(kZoomKey).toDouble());

  const QString name = QFileInfo(path).fileName();
  setWindowFilePath(path);
  updateWindowTitle();
  statusBar()->showMessage(
      tr("Opened %1: %n operation(s)", nullptr, int(model_.graph->ops.size())).arg(name), 10000);
  addRecentFile(path);
  emit modelShown(path);
}

void MainWindow::onLoadFailed(const QString& path, const QString& message) {
  setLoading(false);
  // A format that records no input shapes (TorchScript, some Keras models): ask for them
  // once, as the CLI's --input-shape takes them, and open again.
  if (message.contains(QStringLiteral("--input-shape")) && isVisible()) {
    bool ok = false;
    const QString text = QInputDialog::getText(
        this, tr("Input Shapes"),
        tr("%1 does not record the shapes of its inputs.\n%2\n\nEnter them as NAME=1,3,224,224 "
           "(several separated by spaces):")
            .arg(QFileInfo(path).fileName(), message.section(QStringLiteral(": "), -1)),
        QLineEdit::Normal, QString(), &ok);
    if (ok && !text.trimmed().isEmpty()) {
      try {
        ec::frontends::ModelHints hints;
        for (const QString& item : text.split(QLatin1Char(' '), Qt::SkipEmptyParts))
          ec::frontends::parse_input_shape(item.toStdString(), hints);
        ec::frontends::set_default_model_hints(std::move(hints));  // later compiles of this model use them too
        openFile(path);
        return;
      } catch (const ec::EdgeCompilerError& e) {
        views_.messageBar->showError(QString::fromStdString(e.what()));
        return;
      }
    }
  }
  // Whatever was shown before stays shown; the bar says why the new file is not.
  views_.messageBar->showError(message);
  statusBar()->showMessage(tr("Could not open %1").arg(QFileInfo(path).fileName()), 10000);
  emit loadFailed(message);
}

void MainWindow::retranslated(std::function<void()> apply) {
  apply();
  retranslators_.push_back(std::move(apply));
}

void MainWindow::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    for (const auto& apply : retranslators_) apply();
  }
  QMainWindow::changeEvent(event);
}

QString MainWindow::modelState() const {
  QStringList state;
  if (model_.optimised) state << tr("optimised");
  if (model_.quantised) state << tr("quantised");
  if (!model_.compiledFor.isEmpty()) state << tr("compiled for %1").arg(model_.compiledFor);
  return state.join(QStringLiteral(", "));
}

void MainWindow::updateWindowTitle() {
  const QString path = windowFilePath();
  const QString state = modelState();
  if (path.isEmpty()) {
    setWindowTitle(tr("edgecompiler Workbench"));
  } else if (state.isEmpty()) {
    setWindowTitle(tr("%1 — edgecompiler Workbench").arg(QFileInfo(path).fileName()));
  } else {
    setWindowTitle(tr("%1 (%2) — edgecompiler Workbench").arg(QFileInfo(path).fileName(), state));
  }
}

void MainWindow::showKeyboardShortcuts() {
  QDialog* dialog = keyboardShortcutsDialog();
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->open();
}

QDialog* MainWindow::keyboardShortcutsDialog() {
  auto* dialogPtr = new QDialog(this);
  QDialog& dialog = *dialogPtr;
  dialog.setObjectName(QStringLiteral("keyboardShortcutsDialog"));
  dialog.setWindowTitle(tr("Keyboard Shortcuts"));
  auto* table = new QTableWidget(&dialog);
  table->setObjectName(QStringLiteral("shortcutsTable"));
  table->setColumnCount(2);
  table->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  auto add = [table](const QString& what, const QString& keys) {
    const int row = table->rowCount();
    table->insertRow(row);
    table->setItem(row, 0, new QTableWidgetItem(what));
    table->setItem(row, 1, new QTableWidgetItem(keys));
  };
  // Every menu action with a shortcut, in menu order: the list cannot fall behind the menus.
  for (QAction* menuAction : menuBar()->actions()) {
    QMenu* menu = menuAction->menu();
    if (!menu) continue;
    for (QAction* action : menu->actions()) {
      if (action->shortcut().isEmpty()) continue;
      QString text = action->text();
      text.remove(QLatin1Char('&'));
      add(text, action->shortcut().toString(QKeySequence::NativeText));
    }
  }
  // The graph's own keys and mouse.
  add(tr("Graph: zoom in / out"), tr("+ / −, wheel, pinch"));
  add(tr("Graph: fit to window"), tr("0, double-click on the background"));
  add(tr("Graph: clear the selection"), tr("Esc"));
  add(tr("Graph: pan"), tr("drag, Shift+wheel"));
  ec::widgets::fitColumnsToContents(table);
  table->horizontalHeader()->setStretchLastSection(true);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, &dialog);
  connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(&dialog);
  layout->addWidget(table);
  layout->addWidget(buttons);
  dialog.resize(520, 480);
  ec::widgets::resizeColumnsNow(table);
  return dialogPtr;
}

QStringList MainWindow::recentFiles() const {
  return settings_.value(kRecentFilesKey).toStringList();
}

void MainWindow::setRecentFiles(const QStringList& files) {
  settings_.setValue(kRecentFilesKey, files);
  rebuildRecentMenu();
}

void MainWindow::addRecentFile(const QString& path) {
  QStringList files = recentFiles();
  files.removeAll(path);
  files.prepend(path);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  setRecentFiles(files);
}

void MainWindow::rebuildRecentMenu() {
  menus_.recentMenu->clear();
  const QStringList files = recentFiles();
  for (int i = 0; i < files.size(); ++i) {
    const QString& path = files[i];
    // "&1 name" gives keyboard access to the first nine entries.
    QString name = QFileInfo(path).fileName();
    name.replace(QLatin1Char('&'), QStringLiteral("&&"));
    const QString label = i < 9 ? QStringLiteral("&%1 %2").arg(QString::number(i + 1), name) : name;
    QAction* action = menus_.recentMenu->addAction(label, this, [this, path] { openFile(path); });
    action->setToolTip(path);
    action->setStatusTip(path);
  }
  if (!files.isEmpty()) {
    menus_.recentMenu->addSeparator();
    menus_.recentMenu->addAction(tr("&Clear List"), this, [this] { setRecentFiles({}); });
  }
  menus_.recentMenu->setEnabled(!files.isEmpty());
  rebuildWelcomePage();
}

const ec::widgets::ModelSummaryModel* MainWindow::summaryModel() const {
  return views_.summaryPanel->model();
}

void MainWindow::showAbout() {
  QStringList formats;
  for (const auto& entry : ec::frontends::frontend_table()) {
    formats << QString::fromUtf8(entry.name.data(), qsizetype(entry.name.size()));
  }
  QMessageBox::about(
      this, tr("About edgecompiler Workbench"),
      tr("<h3>edgecompiler Workbench %1</h3>"
         "<p>A model-compilation workbench for edge AI: open a model, inspect it, and "
         "(in later versions) optimise, quantise and compile it for an accelerator.</p>"
         "<p>Model formats: %2<br>Built with Qt %3.</p>")
          .arg(QStringLiteral(EC_VERSION_LINE), formats.join(QStringLiteral(", ")),
               QString::fromLatin1(qVersion())));
}

}  // namespace ec::workbench
