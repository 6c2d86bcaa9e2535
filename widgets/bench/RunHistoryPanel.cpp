#include "widgets/bench/RunHistoryPanel.h"

#include <QColor>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include "widgets/ChartPalette.h"

namespace ec::widgets {

void RunHistoryModel::setRuns(std::vector<ec::history::RunRecord> runs) {
  beginResetModel();
  runs_ = std::move(runs);
  endResetModel();
}

int RunHistoryModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(runs_.size()); }
int RunHistoryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunHistoryModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& r = runs_[std::size_t(index.row())];
  if (role == Qt::ToolTipRole && index.column() == Model)
    return QString::fromStdString(r.model_path + "\nsha256 " + r.model_sha256);
  if (role == Qt::TextAlignmentRole && (index.column() == Id || index.column() == Mean || index.column() == P99))
    return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Id: return qlonglong(r.id);
    case Time: return QString::fromStdString(r.time_utc);
    case Kind: return QString::fromStdString(r.kind);
    case Model: return QFileInfo(QString::fromStdString(r.model_path)).fileName();
    case Target: return QString::fromStdString(r.target);
    case Device: return QString::fromStdString(r.device);
    case Mean: return r.stats ? QString::number(r.stats->mean_ms, 'f', 3) : QString();
    case P99: return r.stats ? QString::number(r.stats->p99_ms, 'f', 3) : QString();
    default: return {};
  }
}

QVariant RunHistoryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Id: return tr("Run");
    case Time: return tr("Time (UTC)");
    case Kind: return tr("Kind");
    case Model: return tr("Model");
    case Target: return tr("Target");
    case Device: return tr("Device");
    case Mean: return tr("Mean ms");
    case P99: return tr("p99 ms");
    default: return {};
  }
}

void RunCompareModel::setComparison(std::optional<ec::history::Comparison> c) {
  beginResetModel();
  c_ = std::move(c);
  endResetModel();
}

int RunCompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !c_ ? 0 : int(c_->rows.size());
}
int RunCompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RunCompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount()) return {};
  const auto& r = c_->rows[std::size_t(index.row())];
  if (role == Qt::ForegroundRole && index.column() == Noise && r.exceeds_noise && *r.exceeds_noise)
    return QColor(0xd0, 0x30, 0x30);
  if (role == Qt::ToolTipRole && index.column() == Noise)
    return r.test == "welch"       ? tr("Welch's t-test on the means: p = %1").arg(r.p_value, 0, 'g', 3)
           : r.test == "bootstrap" ? tr("bootstrap of the recorded latencies: 95% interval of the change [%1, %2]")
                                         .arg(r.ci_low, 0, 'f', 3)
                                         .arg(r.ci_high, 0, 'f', 3)
                                   : tr("a single measurement per run: no noise model");
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Statistic: return QString::fromStdString(r.label + " (" + r.unit + ")");
    case A: return QString::number(r.a, 'f', 3);
    case B: return QString::number(r.b, 'f', 3);
    case Change: return QString::number(r.delta, 'f', 3);
    case ChangePct: return r.a != 0 ? QString::number(r.delta_pct, 'f', 1) + QLatin1Char('%') : QString();
    case Noise: return !r.exceeds_noise ? tr("n/a") : *r.exceeds_noise ? tr("beyond noise") : tr("within noise");
    default: return {};
  }
}

QVariant RunCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Statistic: return tr("Statistic");
    case A: return c_ ? tr("Run %1 (A)").arg(c_->a.id) : tr("A");
    case B: return c_ ? tr("Run %1 (B)").arg(c_->b.id) : tr("B");
    case Change: return tr("Change");
    case ChangePct: return tr("Change %");
    case Noise: return tr("Noise");
    default: return {};
  }
}

RunHistoryPanel::RunHistoryPanel(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  status_ = new QLabel(this);
  status_->setWordWrap(true);
  reload_ = new QPushButton(this);
  compare_ = new QPushButton(this);
  top->addWidget(status_, 1);
  top->addWidget(reload_);
  top->addWidget(compare_);
  layout->addLayout(top);

  auto* split = new QSplitter(Qt::Vertical, this);
  runs_ = new RunHistoryModel(this);
  runsView_ = new QTableView(split);
  runsView_->setModel(runs_);
  runsView_->setSelectionBehavior(QAbstractItemView::SelectRows);
  runsView_->setSelectionMode(QAbstractItemView::MultiSelection);
  runsView_->verticalHeader()->hide();
  runsView_->horizontalHeader()->setStretchLastSection(true);
  auto* lower = new QSplitter(Qt::Horizontal, split);
  compareModel_ = new RunCompareModel(this);
  compareView_ = new QTableView(lower);
  compareView_->setModel(compareModel_);
  compareView_->verticalHeader()->hide();
  compareView_->horizontalHeader()->setStretchLastSection(true);

  auto* chart = new QChart;
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->setBackgroundRoundness(0);
  series_ = new QBarSeries;
  setA_ = new QBarSet(QStringLiteral("A"));
  setB_ = new QBarSet(QStringLiteral("B"));
  setA_->setColor(QColor(0x3b, 0x6e, 0xa8));
  setB_->setColor(QColor(0xe0, 0x8a, 0x00));
  series_->append(setA_);
  series_->append(setB_);
  chart->addSeries(series_);
  axisX_ = new QBarCategoryAxis;
  // (the categories are named in retranslate())
  axisX_->setTruncateLabels(false);
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat(QStringLiteral("%.2f"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  series_->attachAxis(axisX_);
  series_->attachAxis(axisY_);
  chart_ = new QChartView(chart, lower);
  chart_->setRenderHint(QPainter::Antialiasing);
  followPalette(chart_);
  // The comparison (table and chart) gets the larger share once two runs are picked.
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 3);
  lower->setStretchFactor(0, 3);
  lower->setStretchFactor(1, 2);
  chart_->setMinimumWidth(260);
  layout->addWidget(split, 1);

  connect(reload_, &QPushButton::clicked, this, &RunHistoryPanel::reload);
  connect(compare_, &QPushButton::clicked, this, &RunHistoryPanel::compareSelected);
  connect(runsView_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          [this] { compare_->setEnabled(runsView_->selectionModel()->selectedRows().size() == 2); });
  compare_->setEnabled(false);
  retranslate();
}

void RunHistoryPanel::setDatabase(const QString& path) {
  db_ = path;
  reload();
}

QString RunHistoryPanel::database() const {
  return db_.isEmpty() ? QString::fromStdString(ec::history::default_db_path()) : db_;
}

void RunHistoryPanel::reload() {
  error_.clear();
  try {
    const ec::history::RunStore store(database().toStdString());
    runs_->setRuns(store.list(0, true));
  } catch (const std::exception& e) {
    runs_->setRuns({});
    error_ = QString::fromStdString(e.what());
  }
  runsView_->resizeColumnsToContents();
  status_->setText(statusText());
}

QString RunHistoryPanel::statusText() const {
  if (!error_.isEmpty()) return error_;
  return tr("%n run(s) in %1. Select two to compare.", nullptr, runs_->rowCount()).arg(database());
}

bool RunHistoryPanel::compare(qint64 a, qint64 b) {
  const ec::history::RunRecord *ra = nullptr, *rb = nullptr;
  for (int i = 0; i < runs_->rowCount(); ++i) {
    if (runs_->run(i).id == a) ra = &runs_->run(i);
    if (runs_->run(i).id == b) rb = &runs_->run(i);
  }
  if (!ra || !rb) return false;
  auto c = ec::history::compare_runs(*ra, *rb);
  setA_->remove(0, setA_->count());
  setB_->remove(0, setB_->count());
  double peak = 0;
  if (ra->stats && rb->stats) {
    for (const auto& [set, s] : {std::pair{setA_, &*ra->stats}, std::pair{setB_, &*rb->stats}})
      for (double v : {s->mean_ms, s->p50_ms, s->p90_ms, s->p95_ms, s->p99_ms}) {
        set->append(v);
        peak = std::max(peak, v);
      }
  }
  setA_->setLabel(tr("Run %1 (A)").arg(a));
  setB_->setLabel(tr("Run %1 (B)").arg(b));
  axisY_->setRange(0, peak > 0 ? peak * 1.1 : 1);
  compareModel_->setComparison(std::move(c));
  compareView_->resizeColumnsToContents();
  return true;
}

void RunHistoryPanel::compareSelected() {
  const auto rows = runsView_->selectionModel()->selectedRows();
  if (rows.size() != 2) return;
  // The older run is A (the baseline).
  qint64 a = runs_->run(rows[0].row()).id, b = runs_->run(rows[1].row()).id;
  if (a > b) std::swap(a, b);
  compare(a, b);
}

void RunHistoryPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) retranslate();
  QWidget::changeEvent(event);
}

void RunHistoryPanel::retranslate() {
  reload_->setText(tr("Reload"));
  compare_->setText(tr("Compare"));
  axisY_->setTitleText(tr("ms"));
  axisX_->setCategories({tr("mean"), QStringLiteral("p50"), QStringLiteral("p90"), QStringLiteral("p95"),
                         QStringLiteral("p99")});
  status_->setText(statusText());
}

}  // namespace ec::widgets
