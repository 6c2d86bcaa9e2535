#include "widgets/quant/TensorHistogram.h"

#include <algorithm>
#include <cmath>

#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

namespace ec::widgets {
namespace {
const QColor kBars(0x3b, 0x6e, 0xa8);
const QColor kClip(0xd0, 0x30, 0x30);
}  // namespace

TensorHistogram::TensorHistogram(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void TensorHistogram::setReport(QuantReportPtr report) {
  report_ = std::move(report);
  tensor_ = nullptr;
  updateAxis();
  update();
}

void TensorHistogram::setTensor(const QString& name) {
  tensor_ = report_ && !name.isEmpty() ? report_->find_tensor(name.toStdString()) : nullptr;
  updateAxis();
  update();
}

void TensorHistogram::setLogScale(bool on) {
  if (on == log_) return;
  log_ = on;
  update();
}

void TensorHistogram::updateAxis() {
  lo_ = 0;
  hi_ = 1;
  if (!tensor_) return;
  const auto& t = *tensor_;
  double lo = std::min({double(t.hist_min), double(t.range_min), double(t.float_min)});
  double hi = std::max({double(t.hist_max), double(t.range_max), double(t.float_max)});
  if (!(hi > lo)) {
    lo -= 0.5;
    hi += 0.5;
  }
  const double pad = (hi - lo) * 0.04;
  lo_ = lo - pad;
  hi_ = hi + pad;
}

QRect TensorHistogram::plotRect() const {
  const int fh = fontMetrics().height();
  return QRect(48, 2 * fh + 10, std::max(1, width() - 48 - 12), std::max(1, height() - 4 * fh - 16));
}

double TensorHistogram::xForValue(double v) const {
  const QRect plot = plotRect();
  return plot.left() + (v - lo_) / (hi_ - lo_) * plot.width();
}

int TensorHistogram::binAt(QPoint pos) const {
  if (!tensor_ || tensor_->histogram.empty() || !plotRect().contains(pos)) return -1;
  const auto& t = *tensor_;
  const QRect plot = plotRect();
  const double v = lo_ + (pos.x() - plot.left()) * (hi_ - lo_) / plot.width();
  if (v < t.hist_min || v > t.hist_max || !(t.hist_max > t.hist_min)) return -1;
  const int n = int(t.histogram.size());
  return std::clamp(int((v - t.hist_min) / (t.hist_max - t.hist_min) * n), 0, n - 1);
}

bool TensorHistogram::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const int bin = binAt(help->pos());
    if (bin < 0) {
      QToolTip::hideText();
      event->ignore();
      return true;
    }
    const auto& t = *tensor_;
    const double w = (double(t.hist_max) - t.hist_min) / double(t.histogram.size());
    const double a = t.hist_min + bin * w, b = a + w;
    QString text = tr("[%1, %2): %n value(s)", nullptr, int(t.histogram[std::size_t(bin)]))
                       .arg(formatFloat(a), formatFloat(b));
    if (b <= t.range_min || a >= t.range_max) text += QLatin1Char('\n') % tr("outside the clipping range");
    QToolTip::showText(help->globalPos(), text, this);
    return true;
  }
  return QWidget::event(event);
}

void TensorHistogram::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  p.setPen(palette().text().color());
  if (!tensor_) {
    p.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
               report_ ? tr("Select a tensor (or a layer) to see its values.")
                       : tr("Not quantised yet."));
    return;
  }
  const auto& t = *tensor_;
  const QRect plot = plotRect();
  const double scale = t.params.scales.empty() ? 0.0 : double(t.params.scales.front());
  const qlonglong zp = t.params.zero_points.empty() ? 0 : qlonglong(t.params.zero_points.front());
  p.drawText(QRect(8, 4, width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(QString::fromStdString(t.tensor), Qt::ElideMiddle, width() - 16));
  p.drawText(QRect(8, 4 + fm.height(), width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(tr("clip [%1, %2] · scale %3 · zero point %4 · %5% clipped · SQNR %6")
                               .arg(formatFloat(t.range_min), formatFloat(t.range_max),
                                    formatFloat(scale))
                               .arg(zp)
                               .arg(t.clip_fraction * 100.0, 0, 'f', 3)
                               .arg(formatDb(t.sqnr_db)),
                           Qt::ElideRight, width() - 16));

  // Outside the clipping range: shaded.
  const double xc0 = std::clamp(xForValue(t.range_min), double(plot.left()), double(plot.right()));
  const double xc1 = std::clamp(xForValue(t.range_max), double(plot.left()), double(plot.right()));
  QColor shade = kClip;
  shade.setAlpha(28);
  p.fillRect(QRectF(plot.left(), plot.top(), xc0 - plot.left(), plot.height()), shade);
  p.fillRect(QRectF(xc1, plot.top(), plot.right() - xc1, plot.height()), shade);

  // Bars.
  std::int64_t peak = 0;
  for (auto c : t.histogram) peak = std::max(peak, c);
  auto height = [&](std::int64_t c) {
    if (peak == 0 || c <= 0) return 0.0;
    const double f = log_ ? std::log1p(double(c)) / std::log1p(double(peak)) : double(c) / double(peak);
    return f * plot.height();
  };
  const int n = int(t.histogram.size());
  if (n > 0 && t.hist_max > t.hist_min) {
    const double w = (double(t.hist_max) - t.hist_min) / n;
    p.setPen(Qt::NoPen);
    for (int i = 0; i < n; ++i) {
      const double a = t.hist_min + i * w;
      const double x0 = xForValue(a), x1 = xForValue(a + w);
      const double h = height(t.histogram[std::size_t(i)]);
      const bool outside = a + w <= t.range_min || a >= t.range_max;
      p.setBrush(outside ? kClip : kBars);
      p.drawRect(QRectF(x0, plot.bottom() + 1 - h, std::max(1.0, x1 - x0 - (x1 - x0 > 3 ? 0.5 : 0)), h));
    }
  }

  // Axes.
  p.setPen(palette().mid().color());
  p.drawLine(plot.bottomLeft(), plot.bottomRight());
  p.drawLine(plot.bottomLeft(), plot.topLeft());
  if (lo_ < 0 && hi_ > 0) {
    p.setPen(QPen(palette().mid().color(), 1, Qt::DotLine));
    p.drawLine(QPointF(xForValue(0), plot.top()), QPointF(xForValue(0), plot.bottom()));
  }
  p.setPen(palette().text().color());
  const int ty = plot.bottom() + 4;
  p.drawText(QRect(plot.left() - 40, ty, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
             formatFloat(lo_));
  p.drawText(QRect(plot.right() - 78, ty, 80, fm.height()), Qt::AlignRight | Qt::AlignTop,
             formatFloat(hi_));
  p.drawText(QRect(2, plot.top(), 44, fm.height()), Qt::AlignRight | Qt::AlignTop,
             QString::number(peak));
  p.save();
  p.translate(12, plot.center().y());
  p.rotate(-90);
  p.drawText(QRect(-plot.height() / 2, -fm.height() / 2, plot.height(), fm.height()),
             Qt::AlignCenter, log_ ? tr("count (log)") : tr("count"));
  p.restore();

  // The clipping range's ends, labelled.
  p.setPen(QPen(kClip, 1.5, Qt::DashLine));
  for (double v : {double(t.range_min), double(t.range_max)}) {
    const double x = xForValue(v);
    p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
  }
  p.setPen(kClip);
  const int ly = plot.bottom() + 4 + fm.height();
  // Centred under their lines, kept inside the widget and apart from each other.
  const QString minText = tr("clip min %1").arg(formatFloat(t.range_min));
  const QString maxText = tr("clip max %1").arg(formatFloat(t.range_max));
  const double wMin = fm.horizontalAdvance(minText) + 4, wMax = fm.horizontalAdvance(maxText) + 4;
  double xMin = std::clamp(xForValue(t.range_min) - wMin / 2, 2.0, std::max(2.0, width() - wMin - wMax - 2));
  double xMax = std::clamp(xForValue(t.range_max) - wMax / 2, xMin + wMin, std::max(xMin + wMin, width() - wMax - 2));
  p.drawText(QRectF(xMin, ly, wMin, fm.height()), Qt::AlignCenter, minText);
  p.drawText(QRectF(xMax, ly, wMax, fm.height()), Qt::AlignCenter, maxText);
}

}  // namespace ec::widgets
