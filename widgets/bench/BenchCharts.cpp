#include "widgets/bench/BenchCharts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include <QGraphicsLayout>
#include <QtCharts/QAreaSeries>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QHorizontalBarSeries>
#include <QtCharts/QLineSeries>
#include <QtCharts/QValueAxis>

#include "widgets/ChartPalette.h"

namespace ec::widgets {
namespace {

const QColor kLine(0x3b, 0x6e, 0xa8);
const QColor kMean(0x70, 0x70, 0x70);
const QColor kMarkerColors[LatencyHistogram::kMarkers] = {QColor(0x2a, 0x9d, 0x3f), QColor(0xe0, 0x8a, 0x00),
                                                     QColor(0xd0, 0x30, 0x30)};

QChart* plainChart(QChartView* view) {
  auto* chart = new QChart;
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  view->setChart(chart);  // the view owns the chart
  followPalette(view);
  view->setRenderHint(QPainter::Antialiasing, true);
  return chart;
}

// The axis range [lo, hi] padded a little, never empty.
void setRange(QValueAxis* axis, double lo, double hi) {
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = (hi - lo) * 0.05;
  axis->setRange(std::max(0.0, lo - pad), hi + pad);
}

}  // namespace

LatencyChart::LatencyChart(QWidget* parent) : QChartView(parent) {
  QChart* chart = plainChart(this);
  series_ = new QLineSeries;
  series_->setColor(kLine);
  mean_ = new QLineSeries;
  mean_->setPen(QPen(kMean, 1.5, Qt::DashLine));
  chart->addSeries(series_);
  chart->addSeries(mean_);
  axisX_ = new QValueAxis;
  axisX_->setLabelFormat(QStringLiteral("%d"));
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat(QStringLiteral("%.2f"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  for (auto* s : {series_, mean_}) {
    s->attachAxis(axisX_);
    s->attachAxis(axisY_);
  }
  retranslate();
}

void LatencyChart::retranslate() {
  series_->setName(tr("latency"));
  mean_->setName(tr("mean"));
  axisX_->setTitleText(tr("timed run"));
  axisY_->setTitleText(tr("ms"));
}

void LatencyChart::setStats(const StatsPtr& stats) {
  QList<QPointF> points;
  if (stats)
    for (std::size_t i = 0; i < stats->latencies_ms.size(); ++i)
      points.append(QPointF(double(i + 1), stats->latencies_ms[i]));
  series_->replace(points);
  mean_->clear();
  if (!stats || points.isEmpty()) return;
  mean_->append(1, stats->mean_ms);
  mean_->append(double(points.size()), stats->mean_ms);
  axisX_->setRange(1, std::max(2.0, double(points.size())));
  setRange(axisY_, 0, stats->max_ms);
}

LatencyHistogram::LatencyHistogram(QWidget* parent) : QChartView(parent) {
  QChart* chart = plainChart(this);
  // The step outline and the baseline (y = 0): the area series spans them; the view owns both.
  outline_ = new QLineSeries(this);
  auto* lower = new QLineSeries(this);
  area_ = new QAreaSeries(outline_, lower);
  QColor fill = kLine;
  fill.setAlpha(150);
  area_->setBrush(fill);
  area_->setPen(QPen(kLine, 1));
  chart->addSeries(area_);
  axisX_ = new QValueAxis;
  axisX_->setLabelFormat(QStringLiteral("%.2f"));
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat(QStringLiteral("%d"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  area_->attachAxis(axisX_);
  area_->attachAxis(axisY_);
  for (int i = 0; i < kMarkers; ++i) {
    auto* m = new QLineSeries;
    m->setPen(QPen(kMarkerColors[i], 2, Qt::DashLine));
    chart->addSeries(m);
    m->attachAxis(axisX_);
    m->attachAxis(axisY_);
    markers_.push_back(m);
  }
  retranslate();
}

void LatencyHistogram::retranslate() {
  area_->setName(tr("runs"));
  axisX_->setTitleText(tr("latency (ms)"));
  axisY_->setTitleText(tr("runs"));
  setStats(stats_);  // marker names carry their values
}

void LatencyHistogram::setStats(const StatsPtr& stats) {
  stats_ = stats;
  counts_.clear();
  edges_.clear();
  outline_->clear();
  for (auto* m : markers_) m->clear();
  if (!stats || stats->latencies_ms.empty()) return;
  const auto& lat = stats->latencies_ms;
  // Square-root rule for the bin count, 5..40 bins, over [min, max].
  const int bins = std::clamp(int(std::ceil(std::sqrt(double(lat.size())))), 5, 40);
  const double lo = stats->min_ms, hi = stats->max_ms > stats->min_ms ? stats->max_ms : stats->min_ms + 1e-3;
  const double w = (hi - lo) / bins;
  counts_.assign(std::size_t(bins), 0);
  for (int i = 0; i <= bins; ++i) edges_.push_back(lo + i * w);
  for (double v : lat) ++counts_[std::size_t(std::clamp(int((v - lo) / w), 0, bins - 1))];
  QList<QPointF> step;
  for (int i = 0; i < bins; ++i) {
    step.append(QPointF(edges_[std::size_t(i)], counts_[std::size_t(i)]));
    step.append(QPointF(edges_[std::size_t(i) + 1], counts_[std::size_t(i)]));
  }
  outline_->replace(step);
  auto* lower = area_->lowerSeries();
  lower->clear();
  lower->append(lo, 0);
  lower->append(hi, 0);
  const int peak = *std::max_element(counts_.begin(), counts_.end());
  const double values[kMarkers] = {stats->p50_ms, stats->p95_ms, stats->p99_ms};
  const QString names[kMarkers] = {tr("p50 %1 ms"), tr("p95 %1 ms"), tr("p99 %1 ms")};
  for (int i = 0; i < kMarkers; ++i) {
    markers_[std::size_t(i)]->append(values[i], 0);
    markers_[std::size_t(i)]->append(values[i], peak * 1.05);
    markers_[std::size_t(i)]->setName(names[i].arg(values[i], 0, 'f', 3));
  }
  setRange(axisX_, lo, hi);
  axisY_->setRange(0, std::max(1.0, peak * 1.1));
}

OpTimeChart::OpTimeChart(QWidget* parent) : QChartView(parent) {
  QChart* chart = plainChart(this);
  chart->legend()->hide();
  series_ = new QHorizontalBarSeries;
  series_->setBarWidth(0.8);
  set_ = new QBarSet(QString());
  set_->setColor(kLine);
  set_->setBorderColor(kLine);
  series_->append(set_);
  chart->addSeries(series_);
  axisY_ = new QBarCategoryAxis;
  axisY_->setTruncateLabels(false);  // the labels are short already; Qt would elide them to "..."
  axisX_ = new QValueAxis;
  axisX_->setLabelFormat(QStringLiteral("%.3f"));
  chart->addAxis(axisY_, Qt::AlignLeft);
  chart->addAxis(axisX_, Qt::AlignBottom);
  series_->attachAxis(axisY_);
  series_->attachAxis(axisX_);
  retranslate();
}

void OpTimeChart::retranslate() {
  set_->setLabel(tr("mean ms per run"));
  axisX_->setTitleText(tr("ms (mean over the timed runs)"));
}

void OpTimeChart::setStats(const StatsPtr& stats, int topN) {
  set_->remove(0, set_->count());
  axisY_->clear();
  ops_.clear();
  if (!stats || stats->op_profile.empty()) return;
  auto top = ec::runtime::top_ops(*stats, std::size_t(std::max(1, topN)));
  std::reverse(top.begin(), top.end());  // slowest at the top of the chart
  const double total = ec::runtime::op_profile_total_ms(*stats);
  double peak = 0;
  for (const auto& op : top) {
    // Scoped names are long ("/features/features.3/conv/conv.0/Conv"): keep their tail,
    // which names the op, so the axis is not all elision.
    QString name = QString::fromStdString(op.name.empty() ? op.op_type : op.name);
    if (name.size() > 26) name = QChar(0x2026) + name.right(25);
    // Category labels must be unique: the share of the total makes them so in practice.
    QString label = tr("%1 %2%").arg(name).arg(total > 0 ? 100 * op.ms / total : 0.0, 0, 'f', 1);
    while (ops_.contains(label)) label += QLatin1Char(' ');
    ops_.append(label);
    set_->append(op.ms);
    peak = std::max(peak, op.ms);
  }
  axisY_->append(ops_);
  axisX_->setRange(0, peak * 1.1 > 0 ? peak * 1.1 : 1);
}

std::vector<double> opTimeValues(const ec::runtime::Stats& stats, const ec::ir::Graph& graph) {
  std::unordered_map<std::string, double> by_name;
  for (const auto& op : stats.op_profile) {
    // Ops the runtime ran together ("a + b": an expanding 1x1 Conv and its depthwise
    // Conv) share one time: each of them shows it.
    std::size_t from = 0;
    while (from < op.name.size()) {
      const std::size_t at = op.name.find(" + ", from);
      const std::string part = op.name.substr(from, at == std::string::npos ? std::string::npos : at - from);
      if (!part.empty()) by_name[part] += op.ms;
      from = at == std::string::npos ? op.name.size() : at + 3;
    }
  }
  std::vector<double> values(graph.ops.size(), std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < graph.ops.size(); ++i)
    if (auto it = by_name.find(graph.ops[i].name); it != by_name.end()) values[i] = it->second;
  return values;
}

}  // namespace ec::widgets
