#include "widgets/PassesPanel.h"

#include <algorithm>

#include <QEvent>
#include <QApplication>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/GraphDiffModel.h"
#include "widgets/PassListModel.h"

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
}  // namespace

PassesPanel::PassesPanel(QWidget* parent)
    : QWidget(parent),
      passModel_(new PassListModel(this)),
      diffModel_(new GraphDiffModel(this)),
      stack_(new QStackedWidget(this)),
      placeholder_(new QLabel(this)) {
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setWordWrap(true);
  placeholder_->setEnabled(false);

  auto* content = new QWidget(this);

  fromCombo_ = new QComboBox(content);
  fromCombo_->setObjectName(QStringLiteral("compareFromCombo"));
  fromCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  toCombo_ = new QComboBox(content);
  toCombo_->setObjectName(QStringLiteral("compareToCombo"));
  toCombo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);

  beforeButton_ = new QToolButton(content);
  beforeButton_->setObjectName(QStringLiteral("showBeforeButton"));
  afterButton_ = new QToolButton(content);
  afterButton_->setObjectName(QStringLiteral("showAfterButton"));
  for (QToolButton* b : {beforeButton_, afterButton_}) {
    b->setCheckable(true);
    b->setAutoExclusive(true);
    b->setToolButtonStyle(Qt::ToolButtonTextOnly);
  }
  afterButton_->setChecked(true);

  summary_ = new QLabel(content);
  summary_->setObjectName(QStringLiteral("diffSummary"));
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* bar = new QHBoxLayout;
  bar->setContentsMargins(4, 2, 4, 2);
  auto* compareLabel = new QLabel(content);
  compareLabel->setObjectName(QStringLiteral("compareLabel"));
  bar->addWidget(compareLabel);
  bar->addWidget(fromCombo_);
  bar->addWidget(new QLabel(QStringLiteral("→"), content));
  bar->addWidget(toCombo_);
  bar->addSpacing(12);
  auto* showLabel = new QLabel(content);
  showLabel->setObjectName(QStringLiteral("showLabel"));
  bar->addWidget(showLabel);
  bar->addWidget(beforeButton_);
  bar->addWidget(afterButton_);
  bar->addSpacing(12);
  bar->addWidget(summary_, 1);

  passView_ = makeTable(content, QStringLiteral("passListView"));
  passView_->setModel(passModel_);
  diffView_ = makeTable(content, QStringLiteral("graphDiffView"));
  diffView_->setModel(diffModel_);

  QHeaderView* ph = passView_->header();
  ph->setSectionResizeMode(PassListModel::Index, QHeaderView::ResizeToContents);
  ph->resizeSection(PassListModel::Pass, 200);
  ph->resizeSection(PassListModel::Time, 72);
  ph->resizeSection(PassListModel::Ops, 72);
  QHeaderView* dh = diffView_->header();
  dh->resizeSection(GraphDiffModel::Change, 90);
  dh->resizeSection(GraphDiffModel::Name, 240);
  dh->resizeSection(GraphDiffModel::Type, 130);
  dh->resizeSection(GraphDiffModel::Details, 140);
  dh->resizeSection(GraphDiffModel::Before, 200);

  auto* splitter = new QSplitter(Qt::Horizontal, content);
  splitter->addWidget(passView_);
  splitter->addWidget(diffView_);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);
  splitter->setChildrenCollapsible(false);

  auto* contentLayout = new QVBoxLayout(content);
  contentLayout->setContentsMargins(0, 0, 0, 0);
  contentLayout->setSpacing(0);
  contentLayout->addLayout(bar);
  contentLayout->addWidget(splitter, 1);

  retranslateUi();
  stack_->addWidget(placeholder_);
  stack_->addWidget(content);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);

  connect(passView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!syncing_ && current.isValid()) selectPass(current.row());
          });
  connect(fromCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (!syncing_ && index >= 0) compare(index, to_);
  });
  connect(toCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
    if (!syncing_ && index >= 0) compare(from_, index);
  });
  connect(beforeButton_, &QToolButton::toggled, this, [this](bool on) {
    if (!syncing_ && on) setSide(Side::Before);
  });
  connect(afterButton_, &QToolButton::toggled, this, [this](bool on) {
    if (!syncing_ && on) setSide(Side::After);
  });
  // A change is activated when it becomes current (mouse or keyboard) and when
  // the current row is clicked again (to go back to its op after looking elsewhere).
  connect(diffView_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (syncing_ || !current.isValid()) return;
            pressActivatedRow_ =
                QApplication::mouseButtons() != Qt::NoButton ? current.row() : -1;
            activateRow(current.row());
          });
  connect(diffView_, &QTreeView::clicked, this, [this](const QModelIndex& index) {
    if (!index.isValid()) return;
    const bool alreadyActivated = pressActivatedRow_ == index.row();
    pressActivatedRow_ = -1;
    if (!alreadyActivated) activateRow(index.row());
  });
}

PassesPanel::~PassesPanel() = default;

void PassesPanel::setReport(std::shared_ptr<const ec::passes::PipelineReport> report) {
  if (!report) {
    clear();
    return;
  }
  report_ = std::move(report);
  passModel_->setReport(report_);
  from_ = 0;
  to_ = snapshotCount() - 1;
  side_ = Side::After;
  rebuildCombos();
  stack_->setCurrentIndex(1);
  updateDiff();
}

void PassesPanel::clear() {
  report_.reset();
  passModel_->setReport(nullptr);
  diffModel_->setDiff(nullptr);
  from_ = to_ = 0;
  rebuildCombos();
  summary_->clear();
  stack_->setCurrentIndex(0);
}

int PassesPanel::snapshotCount() const {
  if (!report_) return 0;
  return int(report_->passes.size()) + 1;
}

ec::ir::FrozenGraph PassesPanel::snapshot(int index) const {
  if (!report_ || index < 0 || index >= snapshotCount()) return {};
  if (report_->passes.empty()) return {};
  return index == 0 ? report_->passes.front().before
                    : report_->passes[std::size_t(index - 1)].after;
}

QString PassesPanel::snapshotName(int index) const {
  if (!report_ || index < 0 || index >= snapshotCount()) return {};
  const std::size_t ops = index == 0 ? report_->ops_before
                                     : report_->passes[std::size_t(index - 1)].ops_after;
  if (index == 0) return tr("original (%n op(s))", nullptr, int(ops));
  const QString pass = QString::fromStdString(report_->passes[std::size_t(index - 1)].pass);
  if (index == snapshotCount() - 1) return tr("%1: after %2, final (%n op(s))", nullptr, int(ops))
                                               .arg(index)
                                               .arg(pass);
  return tr("%1: after %2 (%n op(s))", nullptr, int(ops)).arg(index).arg(pass);
}

void PassesPanel::rebuildCombos() {
  syncing_ = true;
  for (QComboBox* combo : {fromCombo_, toCombo_}) {
    combo->clear();
    for (int i = 0; i < snapshotCount(); ++i) combo->addItem(snapshotName(i));
  }
  syncing_ = false;
}

void PassesPanel::compare(int from, int to) {
  const int n = snapshotCount();
  if (n == 0) return;
  from_ = std::clamp(from, 0, n - 1);
  to_ = std::clamp(to, 0, n - 1);
  updateDiff();
}

void PassesPanel::selectPass(int row) {
  if (!report_ || row < 0 || row >= int(report_->passes.size())) return;
  compare(row, row + 1);
}

void PassesPanel::setSide(Side side) {
  if (side == side_) return;
  side_ = side;
  syncControls();
  emit snapshotRequested(shownSnapshot());
}

void PassesPanel::syncControls() {
  syncing_ = true;
  fromCombo_->setCurrentIndex(from_);
  toCombo_->setCurrentIndex(to_);
  beforeButton_->setChecked(side_ == Side::Before);
  afterButton_->setChecked(side_ == Side::After);
  // The pass list shows the pass between two adjacent snapshots.
  const QModelIndex row =
      to_ == from_ + 1 ? passModel_->index(from_, PassListModel::Pass) : QModelIndex();
  if (row.isValid()) {
    passView_->selectionModel()->setCurrentIndex(
        row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    passView_->scrollTo(row);
  } else {
    passView_->selectionModel()->clear();
  }
  beforeButton_->setToolTip(tr("Show %1 in the graph view (removed ops in red)")
                                .arg(snapshotName(from_)));
  afterButton_->setToolTip(tr("Show %1 in the graph view (added ops in green)")
                               .arg(snapshotName(to_)));
  syncing_ = false;
}

void PassesPanel::updateDiff() {
  std::shared_ptr<const ec::passes::GraphDiff> diff;
  if (report_) {
    if (to_ == from_ + 1 && from_ < int(report_->passes.size())) {
      // The pass manager recorded this one: share it (aliasing the report).
      diff = std::shared_ptr<const ec::passes::GraphDiff>(
          report_, &report_->passes[std::size_t(from_)].diff);
    } else {
      const ec::ir::FrozenGraph a = snapshot(from_), b = snapshot(to_);
      if (a && b) {
        diff = std::make_shared<const ec::passes::GraphDiff>(ec::passes::diff_graphs(*a, *b));
      }
    }
  }
  diffModel_->setDiff(diff);
  updateSummary();
  syncControls();
  emit snapshotRequested(shownSnapshot());
}

void PassesPanel::updateSummary() {
  const auto& diff = diffModel_->diff();
  if (diff) {
    QString text = tr("%1 removed, %2 added, %3 changed, %4 unchanged")
                       .arg(diff->removed.size())
                       .arg(diff->added.size())
                       .arg(diff->changed.size())
                       .arg(diff->unchanged);
    const std::size_t constants = diff->constants_added.size() + diff->constants_removed.size() +
                                  diff->constants_changed.size();
    if (constants) text += QStringLiteral(" · ") % tr("%n constant(s) touched", nullptr, int(constants));
    summary_->setText(text);
  } else {
    summary_->clear();
  }
}

void PassesPanel::retranslateUi() {
  placeholder_->setText(
      tr("Run Model › Optimize (Ctrl+Shift+O) to see what each pass does to the graph."));
  fromCombo_->setToolTip(tr("Snapshot the diff starts from"));
  toCombo_->setToolTip(tr("Snapshot the diff goes to"));
  beforeButton_->setText(tr("Before"));
  afterButton_->setText(tr("After"));
  if (auto* label = findChild<QLabel*>(QStringLiteral("compareLabel"))) label->setText(tr("Compare"));
  if (auto* label = findChild<QLabel*>(QStringLiteral("showLabel"))) label->setText(tr("Show"));
  diffView_->setToolTip(tr("Click a change to select its op in the graph"));
}

void PassesPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    retranslateUi();
    // The models' texts are made when they are filled: fill them again.
    const int currentDiffRow = diffView_->currentIndex().row();
    syncing_ = true;
    passModel_->setReport(report_);
    diffModel_->setDiff(diffModel_->diff());
    if (currentDiffRow >= 0 && currentDiffRow < diffModel_->rowCount()) {
      diffView_->setCurrentIndex(diffModel_->index(currentDiffRow, 0));
    }
    syncing_ = false;
    rebuildCombos();
    updateSummary();
    syncControls();  // also the before/after tooltips
  }
  QWidget::changeEvent(event);
}

std::vector<QColor> PassesPanel::highlightColors() const {
  const ec::ir::FrozenGraph shown = snapshot(shownSnapshot());
  const auto& diff = diffModel_->diff();
  if (!shown || !diff) return {};
  std::vector<QColor> colors(shown->ops.size());
  auto mark = [&](std::size_t index, GraphDiffModel::Kind kind) {
    if (index < colors.size()) colors[index] = GraphDiffModel::colorFor(kind);
  };
  if (side_ == Side::Before) {
    for (const auto& op : diff->removed) mark(op.index, GraphDiffModel::Kind::Removed);
    for (const auto& c : diff->changed) mark(c.before.index, GraphDiffModel::Kind::Changed);
  } else {
    for (const auto& op : diff->added) mark(op.index, GraphDiffModel::Kind::Added);
    for (const auto& c : diff->changed) mark(c.after.index, GraphDiffModel::Kind::Changed);
  }
  return colors;
}

std::vector<std::pair<QString, QColor>> PassesPanel::highlightLegend() const {
  const auto& diff = diffModel_->diff();
  if (!diff) return {};
  using Kind = GraphDiffModel::Kind;
  std::vector<std::pair<QString, QColor>> legend;
  auto entry = [&](Kind kind, std::size_t count) {
    legend.emplace_back(GraphDiffModel::kindName(kind) % QStringLiteral(" (") %
                            QString::number(count) % QLatin1Char(')'),
                        GraphDiffModel::colorFor(kind));
  };
  // All three kinds, whichever side is shown: removed ops are coloured on the
  // "before" graph, added ones on the "after" graph, changed ones on both.
  entry(Kind::Added, diff->added.size());
  entry(Kind::Removed, diff->removed.size());
  entry(Kind::Changed, diff->changed.size());
  return legend;
}

void PassesPanel::activateRow(int row) {
  if (row < 0 || row >= diffModel_->rowCount()) return;
  // Removed ops exist only before, added ones only after; changed ones in both.
  switch (diffModel_->kindAt(row)) {
    case GraphDiffModel::Kind::Removed:
      setSide(Side::Before);
      break;
    case GraphDiffModel::Kind::Added:
      setSide(Side::After);
      break;
    case GraphDiffModel::Kind::Changed:
      break;
  }
  const QString name =
      diffModel_->index(row, GraphDiffModel::Name).data(GraphDiffModel::OpNameRole).toString();
  emit opActivated(name, shownSnapshot());
}

}  // namespace ec::widgets
