#include "widgets/ChartPalette.h"

#include <QEvent>
#include <QObject>
#include <QPalette>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QLegend>

namespace ec::widgets {
namespace {

QColor mix(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                          float(a.blueF() * (1 - t) + b.blueF() * t));
}

void applyPalette(QChartView* view) {
  QChart* chart = view->chart();
  if (!chart) return;
  const QPalette& pal = view->palette();
  const QColor base = pal.color(QPalette::Base);
  const QColor text = pal.color(QPalette::Text);
  const QColor grid = mix(base, text, 0.14);
  const QColor line = mix(base, text, 0.45);
  view->setBackgroundBrush(base);
  chart->setBackgroundBrush(base);
  chart->setBackgroundPen(Qt::NoPen);
  chart->setPlotAreaBackgroundVisible(false);
  chart->setTitleBrush(text);
  if (QLegend* legend = chart->legend()) {
    legend->setLabelColor(text);
    legend->setBrush(Qt::NoBrush);
    legend->setPen(Qt::NoPen);
  }
  for (QAbstractAxis* axis : chart->axes()) {
    axis->setLabelsColor(text);
    axis->setTitleBrush(text);
    axis->setLinePenColor(line);
    axis->setGridLineColor(grid);
    axis->setMinorGridLineColor(mix(base, text, 0.07));
    axis->setShadesVisible(false);
  }
}

/// Re-applies the palette when it changes and when the chart is first shown (axes
/// added after followPalette() are covered then).
class PaletteFollower : public QObject {
 public:
  explicit PaletteFollower(QChartView* view) : QObject(view), view_(view) {}

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (watched == view_) {
      switch (event->type()) {
        case QEvent::PaletteChange:
        case QEvent::ApplicationPaletteChange:
        case QEvent::StyleChange:
        case QEvent::Show:
          applyPalette(view_);
          break;
        default:
          break;
      }
    }
    return false;
  }

 private:
  QChartView* view_;
};

}  // namespace

void followPalette(QChartView* view) {
  applyPalette(view);
  view->installEventFilter(new PaletteFollower(view));
}

}  // namespace ec::widgets
