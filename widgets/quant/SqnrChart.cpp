#include "widgets/quant/SqnrChart.h"

#include <algorithm>
#include <cmath>

#include <QCursor>
#include <QToolTip>
#include <QtCharts/QBarCategoryAxis>
#include <QtCharts/QBarSeries>
#include <QtCharts/QBarSet>
#include <QtCharts/QChart>
#include <QtCharts/QValueAxis>
#include <QGraphicsLayout>

#include "widgets/ChartPalette.h"

namespace ec::widgets {
namespace {
const QColor kBar(0x3b, 0x6e, 0xa8);
const QColor kSelection(0xff, 0x8c, 0x00);
}  // namespace

SqnrChart::SqnrChart(QWidget* parent) : QChartView(parent) {
  auto* chart = new QChart;
  chart->legend()->hide();
  chart->setMargins(QMargins(2, 2, 2, 2));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  setChart(chart);  // the view owns the chart
  followPalette(this);
  setRenderHint(QPainter::Antialiasing, false);

  series_ = new QBarSeries;
  series_->setBarWidth(0.85);
  set_ = new QBarSet(QString());
  set_->setColor(kBar);
  set_->setBorderColor(kBar);
  set_->setSelectedColor(kSelection);
  series_->append(set_);
  chart->addSeries(series_);
  axisX_ = new QBarCategoryAxis;
  axisY_ = new QValueAxis;
  axisY_->setLabelFormat(QStringLiteral("%.0f"));
  chart->addAxis(axisX_, Qt::AlignBottom);
  chart->addAxis(axisY_, Qt::AlignLeft);
  series_->attachAxis(axisX_);
  series_->attachAxis(axisY_);

  connect(set_, &QBarSet::clicked, this, &SqnrChart::clickBar);
  connect(set_, &QBarSet::hovered, this, [this](bool on, int bar) {
    if (!on || bar < 0 || bar >= barCount()) {
      QToolTip::hideText();
      return;
    }
    QToolTip::showText(QCursor::pos(),
                       tr("#%1 %2 (%3)\n%4").arg(bar + 1).arg(ops_[bar], types_[bar],
                                                            formatDb(barValue(bar))),
                       this);
  });
  retranslate();
}

void SqnrChart::setReport(QuantReportPtr report) {
  report_ = std::move(report);
  selected_ = -1;
  rebuild();
}

void SqnrChart::setMetric(Metric metric) {
  if (metric == metric_) return;
  metric_ = metric;
  rebuild();
  retranslate();
}

double SqnrChart::barValue(int bar) const {
  if (!report_ || bar < 0 || bar >= int(report_->layers.size())) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const auto& l = report_->layers[std::size_t(bar)];
  return cappedDb(metric_ == Metric::Output ? l.output_sqnr_db : l.weight_sqnr_db);
}

void SqnrChart::rebuild() {
  ops_.clear();
  types_.clear();
  set_->remove(0, set_->count());
  axisX_->clear();
  if (!report_) return;
  QList<qreal> values;
  QStringList categories;
  double hi = 10;
  for (std::size_t i = 0; i < report_->layers.size(); ++i) {
    const auto& l = report_->layers[i];
    ops_ << QString::fromStdString(l.op);
    types_ << QString::fromStdString(l.op_type);
    double v = barValue(int(i));
    if (!std::isfinite(v)) v = 0;
    values << v;
    hi = std::max(hi, v);
    categories << QString::number(i + 1);
  }
  set_->append(values);
  axisX_->append(categories);
  // Too many layers for a label each: the numbers would overlap.
  axisX_->setLabelsVisible(categories.size() <= 40);
  const double top = std::ceil(hi / 10.0) * 10.0;
  axisY_->setRange(0, top);
  axisY_->setTickCount(int(top / 10.0) + 1);  // a line every 10 dB
  if (selected_ >= 0) set_->selectBar(selected_);
}

void SqnrChart::setSelectedBar(int bar) {
  if (bar < -1 || bar >= barCount()) bar = -1;
  if (bar == selected_) return;
  selected_ = bar;
  set_->deselectAllBars();
  if (bar >= 0) set_->selectBar(bar);
}

void SqnrChart::clickBar(int bar) {
  if (bar < 0 || bar >= barCount()) return;
  setSelectedBar(bar);
  emit layerClicked(bar, ops_[bar]);
}

void SqnrChart::retranslate() {
  axisY_->setTitleText(tr("dB"));
  set_->setLabel(metric_ == Metric::Output ? tr("output SQNR") : tr("weight SQNR"));
}

}  // namespace ec::widgets
