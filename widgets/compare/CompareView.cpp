#include "widgets/compare/CompareView.h"

#include <cmath>

#include <QComboBox>
#include <QEvent>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "widgets/GraphView.h"
#include "widgets/ItemRoles.h"

namespace ec::widgets {

namespace {
QString qs(const std::string& s) { return QString::fromStdString(s); }
}  // namespace

// ---- colours ------------------------------------------------------------------------

QColor compareColor(const ec::compare::TensorComparison& t) {
  if (!t.compared) return {};
  if (t.nonfinite_a != t.nonfinite_b) return QColor(0x80, 0x00, 0x80);  // NaN/Inf on one side
  if (t.exact) return QColor(0x2e, 0x7d, 0x32);                         // exact
  if (t.sqnr_db >= 60) return QColor(0x9c, 0xcc, 0x65);                 // float noise
  if (t.sqnr_db >= 30) return QColor(0xff, 0xb3, 0x00);                 // int8-like error
  return QColor(0xe5, 0x39, 0x35);                                      // large error
}
QColor onlyInAColor() { return QColor(0x42, 0xa5, 0xf5); }
QColor onlyInBColor() { return QColor(0x00, 0xac, 0xc1); }
QColor changedColor() { return QColor(0x8d, 0x6e, 0x63); }

// ---- pairs model ----------------------------------------------------------------------

ComparePairsModel::ComparePairsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ComparePairsModel::setResult(CompareResultPtr result) {
  beginResetModel();
  result_ = std::move(result);
  rows_ = result_ ? result_->by_error() : std::vector<std::size_t>{};
  endResetModel();
}

int ComparePairsModel::pairAt(int row) const {
  return row >= 0 && std::size_t(row) < rows_.size() ? int(rows_[std::size_t(row)]) : -1;
}

int ComparePairsModel::rowOfPair(int pair) const {
  for (std::size_t r = 0; r < rows_.size(); ++r)
    if (int(rows_[r]) == pair) return int(r);
  return -1;
}

int ComparePairsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int ComparePairsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ComparePairsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !result_ || index.row() >= int(rows_.size())) return {};
  const auto& t = result_->tensors[rows_[std::size_t(index.row())]];
  if (role == KeyRole) return qs(t.a);
  if (role == TensorNameRole) return qs(t.a);
  if (role == TargetOpRole) return t.a_order >= 0 ? QVariant(t.a_order) : QVariant();
  if (role == Qt::DecorationRole && index.column() == Sqnr) return compareColor(t);
  if (role == Qt::TextAlignmentRole && index.column() >= Sqnr)
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  if (role == SortRole) {
    switch (index.column()) {
      case Sqnr: return t.sqnr_db;
      case MaxRel: return t.max_rel_error;
      case MaxAbs: return t.max_abs_error;
      case Cosine: return t.cosine;
      default: break;
    }
  }
  if (role != Qt::DisplayRole && role != SortRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case TensorA: return qs(t.a);
    case TensorB: return qs(t.b);
    case OpType: return qs(t.op_type);
    case MatchedBy: {
      QString how;
      switch (t.matched_by) {
        case ec::compare::MatchedBy::Name: how = tr("name"); break;
        case ec::compare::MatchedBy::Origin: how = tr("origin"); break;
        case ec::compare::MatchedBy::Position: how = tr("position"); break;
      }
      return t.transposed ? tr("%1 (NHWC)").arg(how) : how;
    }
    case Sqnr:
      if (t.nonfinite_a != t.nonfinite_b) return tr("NaN/Inf");
      return t.exact ? tr("exact") : QString::number(t.sqnr_db, 'f', 1);
    case MaxRel: return QString::number(t.max_rel_error, 'g', 3);
    case MaxAbs: return QString::number(t.max_abs_error, 'g', 4);
    case Cosine: return QString::number(t.cosine, 'f', 6);
    default: return {};
  }
}

QVariant ComparePairsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case TensorA: return tr("Tensor (A)");
    case TensorB: return tr("Tensor (B)");
    case OpType: return tr("Op");
    case MatchedBy: return tr("Matched by");
    case Sqnr: return tr("SQNR (dB)");
    case MaxRel: return tr("Max rel. error");
    case MaxAbs: return tr("Max abs. error");
    case Cosine: return tr("Cosine");
    default: return {};
  }
}

// ---- the view -------------------------------------------------------------------------

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("compareSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  stageBox_ = new QComboBox(this);
  stageBox_->setObjectName(QStringLiteral("compareStages"));
  stageBox_->hide();  // shown for pass stages only
  layout->addWidget(stageBox_);
  connect(stageBox_, &QComboBox::currentIndexChanged, this, [this](int k) {
    if (stages_ && k >= 0) showStage(k);
  });

  auto* vertical = new QSplitter(Qt::Vertical, this);
  auto* sides = new QSplitter(Qt::Horizontal, vertical);
  auto side = [&](QLabel*& title, GraphView*& view, const QString& name) {
    auto* box = new QWidget(sides);
    auto* l = new QVBoxLayout(box);
    l->setContentsMargins(0, 0, 0, 0);
    title = new QLabel(box);
    title->setObjectName(name + QStringLiteral("Title"));
    l->addWidget(title);
    view = new GraphView(box);
    view->setObjectName(name);
    l->addWidget(view, 1);
  };
  side(titleA_, viewA_, QStringLiteral("compareGraphA"));
  side(titleB_, viewB_, QStringLiteral("compareGraphB"));
  table_ = new QTableView(vertical);
  table_->setObjectName(QStringLiteral("comparePairs"));
  model_ = new ComparePairsModel(this);
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  vertical->addWidget(sides);
  vertical->addWidget(table_);
  vertical->setStretchFactor(0, 3);
  vertical->setStretchFactor(1, 1);
  layout->addWidget(vertical, 1);

  connect(viewA_, &GraphView::opSelected, this, &CompareView::selectFromA);
  connect(viewB_, &GraphView::opSelected, this, &CompareView::selectFromB);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (syncing_ || !result_) return;
            const int pair = model_->pairAt(current.row());
            if (pair < 0) return;
            const auto& t = result_->tensors[std::size_t(pair)];
            syncing_ = true;
            if (t.a_order >= 0) viewA_->selectOp(t.a_order);
            if (t.b_order >= 0) viewB_->selectOp(t.b_order);
            syncing_ = false;
            emit pairSelected(pair);
          });
  // Scrolling follows: the other view keeps the same relative position.
  for (auto [from, to] : {std::pair{viewA_, viewB_}, std::pair{viewB_, viewA_}}) {
    connect(from->horizontalScrollBar(), &QScrollBar::valueChanged, this, [this, from, to] { syncScroll(from, to); });
    connect(from->verticalScrollBar(), &QScrollBar::valueChanged, this, [this, from, to] { syncScroll(from, to); });
  }
  retranslateUi();
}

void CompareView::setResult(ec::ir::FrozenGraph a, ec::ir::FrozenGraph b, CompareResultPtr result) {
  result_ = std::move(result);
  pairOfA_.assign(a ? a->ops.size() : 0, -1);
  pairOfB_.assign(b ? b->ops.size() : 0, -1);
  if (result_)
    for (std::size_t i = 0; i < result_->tensors.size(); ++i) {
      const auto& t = result_->tensors[i];
      if (t.a_order >= 0 && std::size_t(t.a_order) < pairOfA_.size() && pairOfA_[std::size_t(t.a_order)] < 0)
        pairOfA_[std::size_t(t.a_order)] = int(i);
      if (t.b_order >= 0 && std::size_t(t.b_order) < pairOfB_.size() && pairOfB_[std::size_t(t.b_order)] < 0)
        pairOfB_[std::size_t(t.b_order)] = int(i);
    }
  viewA_->setGraph(std::move(a));
  viewB_->setGraph(std::move(b));
  model_->setResult(result_);
  table_->resizeColumnsToContents();
  colourGraphs();
  retranslateUi();
}

void CompareView::setStages(std::shared_ptr<const ec::compare::PassesResult> stages) {
  stages_ = std::move(stages);
  stageResults_.clear();
  const QSignalBlocker block(stageBox_);
  stageBox_->clear();
  if (!stages_ || stages_->stages.empty()) {
    stageBox_->hide();
    return;
  }
  for (std::size_t k = 0; k < stages_->stages.size(); ++k) {
    const auto& s = stages_->stages[k];
    // Aliasing shared_ptr: each stage's result lives as long as the whole record.
    stageResults_.push_back(CompareResultPtr(stages_, &s.result));
    const QString state = !s.changed_graph ? tr("unchanged")
                          : s.beyond_noise ? tr("changes numerics: max rel. error %1").arg(s.worst_rel_error, 0, 'g', 3)
                                           : tr("float noise: max rel. error %1").arg(s.worst_rel_error, 0, 'g', 3);
    stageBox_->addItem(tr("Pass %1: %2 (%3 → %4 ops) — %5")
                           .arg(k + 1)
                           .arg(QString::fromStdString(s.pass))
                           .arg(s.ops_before)
                           .arg(s.ops_after)
                           .arg(state));
  }
  stageBox_->show();
  const int first = stages_->first_beyond_noise ? int(*stages_->first_beyond_noise) : 0;
  stageBox_->setCurrentIndex(first);
  showStage(first);
}

int CompareView::stageCount() const { return stages_ ? int(stages_->stages.size()) : 0; }

void CompareView::showStage(int k) {
  if (!stages_ || k < 0 || k >= stageCount() || std::size_t(k) + 1 >= stages_->graphs.size()) return;
  if (stageBox_->currentIndex() != k) {
    const QSignalBlocker block(stageBox_);
    stageBox_->setCurrentIndex(k);
  }
  const auto& s = stages_->stages[std::size_t(k)];
  setResult(stages_->graphs[std::size_t(k)], stages_->graphs[std::size_t(k) + 1],
            s.changed_graph ? stageResults_[std::size_t(k)] : nullptr);
}

int CompareView::matchOfA(int opA) const {
  if (opA < 0 || std::size_t(opA) >= pairOfA_.size() || pairOfA_[std::size_t(opA)] < 0) return -1;
  return result_->tensors[std::size_t(pairOfA_[std::size_t(opA)])].b_order;
}

int CompareView::matchOfB(int opB) const {
  if (opB < 0 || std::size_t(opB) >= pairOfB_.size() || pairOfB_[std::size_t(opB)] < 0) return -1;
  return result_->tensors[std::size_t(pairOfB_[std::size_t(opB)])].a_order;
}

void CompareView::selectFromA(int opA) {
  if (syncing_) return;
  syncing_ = true;
  const int opB = matchOfA(opA);
  if (opB >= 0) viewB_->selectOp(opB);
  const int pair = opA >= 0 && std::size_t(opA) < pairOfA_.size() ? pairOfA_[std::size_t(opA)] : -1;
  selectPairRow(pair);
  syncing_ = false;
  emit pairSelected(pair);
}

void CompareView::selectFromB(int opB) {
  if (syncing_) return;
  syncing_ = true;
  const int opA = matchOfB(opB);
  if (opA >= 0) viewA_->selectOp(opA);
  const int pair = opB >= 0 && std::size_t(opB) < pairOfB_.size() ? pairOfB_[std::size_t(opB)] : -1;
  selectPairRow(pair);
  syncing_ = false;
  emit pairSelected(pair);
}

void CompareView::selectPairRow(int pair) {
  const int row = model_->rowOfPair(pair);
  if (row < 0) {
    table_->clearSelection();
    return;
  }
  table_->selectRow(row);
  table_->scrollTo(model_->index(row, 0));
}

void CompareView::syncScroll(GraphView* from, GraphView* to) {
  if (syncing_) return;
  syncing_ = true;
  auto follow = [](QScrollBar* f, QScrollBar* t) {
    const int range = f->maximum() - f->minimum();
    const double at = range > 0 ? double(f->value() - f->minimum()) / range : 0.0;
    t->setValue(t->minimum() + int(std::lround(at * (t->maximum() - t->minimum()))));
  };
  follow(from->horizontalScrollBar(), to->horizontalScrollBar());
  follow(from->verticalScrollBar(), to->verticalScrollBar());
  syncing_ = false;
}

void CompareView::colourGraphs() {
  if (!result_) return;
  const auto colours = [&](GraphView* view, const std::vector<int>& pairOf, char side) {
    const auto& g = view->graph();
    if (!g) return;
    std::vector<QColor> c(g->ops.size());
    std::vector<QString> tips(g->ops.size());
    for (std::size_t i = 0; i < c.size(); ++i)
      if (pairOf[i] >= 0) {
        const auto& t = result_->tensors[std::size_t(pairOf[i])];
        c[i] = compareColor(t);
        tips[i] = t.compared ? tr("%1 ↔ %2: SQNR %3 dB, max rel. error %4")
                                   .arg(qs(t.a), qs(t.b))
                                   .arg(t.sqnr_db, 0, 'f', 1)
                                   .arg(t.max_rel_error, 0, 'g', 3)
                             : tr("%1 ↔ %2: not compared (%3)").arg(qs(t.a), qs(t.b), qs(t.skipped));
        if (!t.changed_attributes.empty()) {
          QStringList keys;
          for (const auto& k : t.changed_attributes) keys << qs(k);
          c[i] = changedColor();
          tips[i] += QLatin1Char('\n') + tr("changed attributes: %1").arg(keys.join(QStringLiteral(", ")));
        }
      }
    for (const auto& u : result_->unmatched) {
      if (u.side != side || u.order < 0 || std::size_t(u.order) >= c.size()) continue;
      c[std::size_t(u.order)] = side == 'a' ? onlyInAColor() : onlyInBColor();
      tips[std::size_t(u.order)] = u.status == "fused"     ? tr("only in A: fused into %1").arg(qs(u.into))
                                   : u.status == "removed" ? tr("only in A: removed")
                                                           : tr("only in B: added");
    }
    view->setOpHighlights(std::move(c), {{tr("exact"), QColor(0x2e, 0x7d, 0x32)},
                                         {tr("SQNR ≥ 60 dB"), QColor(0x9c, 0xcc, 0x65)},
                                         {tr("SQNR 30–60 dB"), QColor(0xff, 0xb3, 0x00)},
                                         {tr("SQNR < 30 dB"), QColor(0xe5, 0x39, 0x35)},
                                         {tr("NaN/Inf"), QColor(0x80, 0x00, 0x80)},
                                         {side == 'a' ? tr("only in A") : tr("only in B"),
                                          side == 'a' ? onlyInAColor() : onlyInBColor()},
                                         {tr("changed attributes"), changedColor()}});
    view->setOpToolTips(std::move(tips));
  };
  colours(viewA_, pairOfA_, 'a');
  colours(viewB_, pairOfB_, 'b');
}

void CompareView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    retranslateUi();
    colourGraphs();
  }
  QWidget::changeEvent(event);
}

void CompareView::retranslateUi() {
  const int stage = stages_ ? stageBox_->currentIndex() : -1;
  const QString pass = stage >= 0 ? qs(stages_->stages[std::size_t(stage)].pass) : QString();
  if (!result_) {
    titleA_->setText(stage >= 0 ? tr("Before %1").arg(pass) : tr("A"));
    titleB_->setText(stage >= 0 ? tr("After %1").arg(pass) : tr("B"));
    summary_->setText(stage >= 0 ? tr("%1 did not change the graph.").arg(pass)
                                 : tr("No comparison yet: Model › Compare With… runs both models on the same inputs."));
    return;
  }
  titleA_->setText(stage >= 0 ? tr("Before %1").arg(pass) : tr("A: %1").arg(qs(result_->model_a)));
  titleB_->setText(stage >= 0 ? tr("After %1").arg(pass) : tr("B: %1").arg(qs(result_->model_b)));
  int compared = 0, exact = 0;
  for (const auto& t : result_->tensors) {
    compared += t.compared;
    exact += t.compared && t.exact;
  }
  QString first = tr("no divergence beyond float noise");
  if (result_->first_divergence) {
    const auto& t = result_->tensors[*result_->first_divergence];
    first = tr("first divergence: %1 (%2), SQNR %3 dB").arg(qs(t.a), qs(t.op_type)).arg(t.sqnr_db, 0, 'f', 1);
  }
  QString text = tr("%n tensor(s) compared, %1 exact, on %2 sample(s); %3.", nullptr, compared)
                     .arg(exact)
                     .arg(result_->samples)
                     .arg(first);
  if (result_->first_nonfinite_b)
    text += QLatin1Char(' ') + tr("NaN/Inf first in B at %1.").arg(qs(result_->first_nonfinite_b->tensor));
  summary_->setText(text);
}

}  // namespace ec::widgets
