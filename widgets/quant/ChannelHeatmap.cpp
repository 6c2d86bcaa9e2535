#include "widgets/quant/ChannelHeatmap.h"

#include <algorithm>
#include <cmath>

#include <QEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

namespace ec::widgets {
namespace {
constexpr int kLegendWidth = 78;
constexpr int kMinRowHeight = 3;
const QColor kSelection(0xff, 0x8c, 0x00);
}  // namespace

ChannelHeatmap::ChannelHeatmap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ChannelHeatmap::setReport(QuantReportPtr report) {
  report_ = std::move(report);
  rows_.clear();
  if (report_) {
    for (const auto& l : report_->layers) {
      if (!l.channel_sqnr_db.empty() || !l.channel_max_abs_error.empty()) rows_.push_back(&l);
    }
  }
  selected_ = hovered_ = -1;
  rebuildScale();
  rebuildImage();
  updateGeometry();
  update();
}

void ChannelHeatmap::setMetric(Metric metric) {
  if (metric == metric_) return;
  metric_ = metric;
  rebuildScale();
  rebuildImage();
  update();
}

int ChannelHeatmap::channelCount(int row) const {
  if (row < 0 || row >= rowCount()) return 0;
  const auto* l = rows_[std::size_t(row)];
  return int(std::max(l->channel_sqnr_db.size(), l->channel_max_abs_error.size()));
}

QString ChannelHeatmap::rowOp(int row) const {
  return row >= 0 && row < rowCount() ? QString::fromStdString(rows_[std::size_t(row)]->op)
                                      : QString();
}

int ChannelHeatmap::rowForOp(const QString& opName) const {
  const std::string name = opName.toStdString();
  for (std::size_t i = 0; i < rows_.size(); ++i) {
    if (rows_[i]->op == name) return int(i);
  }
  return -1;
}

double ChannelHeatmap::value(int row, int channel) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (row < 0 || row >= rowCount() || channel < 0) return nan;
  const auto* l = rows_[std::size_t(row)];
  if (metric_ == Metric::Sqnr) {
    return std::size_t(channel) < l->channel_sqnr_db.size() ? l->channel_sqnr_db[std::size_t(channel)]
                                                             : nan;
  }
  return std::size_t(channel) < l->channel_max_abs_error.size()
             ? double(l->channel_max_abs_error[std::size_t(channel)])
             : nan;
}

void ChannelHeatmap::rebuildScale() {
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  for (int r = 0; r < rowCount(); ++r) {
    for (int c = 0, n = channelCount(r); c < n; ++c) {
      double v = value(r, c);
      if (metric_ == Metric::Sqnr) v = cappedDb(v);
      if (!std::isfinite(v)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  }
  if (lo > hi) lo = hi = 0;
  if (metric_ == Metric::MaxAbsError) lo = 0;
  if (hi <= lo) hi = lo + 1;
  min_ = lo;
  max_ = hi;
}

double ChannelHeatmap::goodness(double v) const {
  if (metric_ == Metric::Sqnr) v = cappedDb(v);
  if (!std::isfinite(v)) return std::numeric_limits<double>::quiet_NaN();
  const double t = std::clamp((v - min_) / (max_ - min_), 0.0, 1.0);
  return metric_ == Metric::Sqnr ? t : 1.0 - t;
}

QColor ChannelHeatmap::colorFor(double v) const { return viridis(goodness(v)); }

QRect ChannelHeatmap::plotRect() const {
  const int fh = fontMetrics().height();
  return QRect(8, fh + 8, std::max(1, width() - 8 - kLegendWidth), std::max(1, height() - 2 * fh - 14));
}

void ChannelHeatmap::rebuildImage() {
  const QRect plot = plotRect();
  if (rows_.empty() || plot.width() < 1) {
    image_ = QImage();
    return;
  }
  const int w = plot.width();
  image_ = QImage(w, rowCount(), QImage::Format_RGB32);
  for (int r = 0; r < rowCount(); ++r) {
    const int n = channelCount(r);
    auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
    for (int x = 0; x < w; ++x) {
      // Channels this pixel covers; show the worst one.
      const int c0 = int(std::int64_t(x) * n / w);
      const int c1 = std::max(c0 + 1, int(std::int64_t(x + 1) * n / w));
      double worst = std::numeric_limits<double>::quiet_NaN();
      for (int c = c0; c < c1 && c < n; ++c) {
        const double g = goodness(value(r, c));
        if (std::isfinite(g) && !(g >= worst)) worst = g;
      }
      line[x] = viridis(worst).rgb();
    }
  }
}

ChannelHeatmap::Cell ChannelHeatmap::cellAt(QPoint pos) const {
  Cell cell;
  const QRect plot = plotRect();
  if (rows_.empty() || !plot.contains(pos)) return cell;
  cell.row = std::min(rowCount() - 1, int(std::int64_t(pos.y() - plot.top()) * rowCount() / plot.height()));
  const int n = channelCount(cell.row);
  if (n == 0) return Cell{};
  cell.channel = std::min(n - 1, int(std::int64_t(pos.x() - plot.left()) * n / plot.width()));
  cell.value = value(cell.row, cell.channel);
  return cell;
}

QRect ChannelHeatmap::cellRect(int row, int channel) const {
  const QRect plot = plotRect();
  const int n = channelCount(row);
  if (n == 0 || channel < 0 || channel >= n) return {};
  // Inverse of cellAt(): the pixels x with floor((x - left) * n / w) == channel.
  auto firstPixel = [&](int c) {
    return plot.left() + int((std::int64_t(c) * plot.width() + n - 1) / n);
  };
  auto firstRow = [&](int r) {
    return plot.top() + int((std::int64_t(r) * plot.height() + rowCount() - 1) / rowCount());
  };
  const int x0 = firstPixel(channel), x1 = std::max(x0 + 1, firstPixel(channel + 1));
  const int y0 = firstRow(row), y1 = std::max(y0 + 1, firstRow(row + 1));
  return QRect(QPoint(x0, y0), QPoint(x1 - 1, y1 - 1));
}

void ChannelHeatmap::setSelectedRow(int row) {
  if (row < -1 || row >= rowCount()) row = -1;
  if (row == selected_) return;
  selected_ = row;
  update();
}

QSize ChannelHeatmap::sizeHint() const {
  const int fh = fontMetrics().height();
  return QSize(600, std::max(160, rowCount() * 6 + 2 * fh + 14));
}

QSize ChannelHeatmap::minimumSizeHint() const {
  const int fh = fontMetrics().height();
  return QSize(240, std::max(80, rowCount() * kMinRowHeight + 2 * fh + 14));
}

QString ChannelHeatmap::toolTipFor(const Cell& cell) const {
  const auto* l = rows_[std::size_t(cell.row)];
  QStringList lines;
  lines << QString::fromStdString(l->op) % QStringLiteral(" (") % QString::fromStdString(l->op_type) %
               QLatin1Char(')');
  lines << tr("channel %1 of %2").arg(cell.channel).arg(channelCount(cell.row));
  const auto c = std::size_t(cell.channel);
  if (c < l->channel_sqnr_db.size()) lines << tr("SQNR: %1").arg(formatDb(l->channel_sqnr_db[c]));
  if (c < l->channel_max_abs_error.size()) {
    lines << tr("max |error|: %1").arg(formatFloat(l->channel_max_abs_error[c]));
  }
  return lines.join(QLatin1Char('\n'));
}

bool ChannelHeatmap::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const Cell cell = cellAt(help->pos());
    if (cell.valid()) {
      QToolTip::showText(help->globalPos(), toolTipFor(cell), this, cellRect(cell.row, cell.channel));
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QWidget::event(event);
}

void ChannelHeatmap::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  rebuildImage();
}

void ChannelHeatmap::mousePressEvent(QMouseEvent* event) {
  const Cell cell = cellAt(event->position().toPoint());
  if (event->button() != Qt::LeftButton || !cell.valid()) return QWidget::mousePressEvent(event);
  setSelectedRow(cell.row);
  emit rowClicked(cell.row, rowOp(cell.row));
}

void ChannelHeatmap::mouseMoveEvent(QMouseEvent* event) {
  const int row = cellAt(event->position().toPoint()).row;
  if (row != hovered_) {
    hovered_ = row;
    update();
  }
  QWidget::mouseMoveEvent(event);
}

void ChannelHeatmap::leaveEvent(QEvent* event) {
  hovered_ = -1;
  update();
  QWidget::leaveEvent(event);
}

void ChannelHeatmap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const QFontMetrics fm = fontMetrics();
  const QRect plot = plotRect();
  p.setPen(palette().text().color());
  if (rows_.empty()) {
    p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
               report_ ? tr("No layer has per-channel weights.") : tr("Not quantised yet."));
    return;
  }
  const QString title = metric_ == Metric::Sqnr
                            ? tr("Per-channel weight SQNR (dB): %n layer(s) × output channels",
                                 nullptr, rowCount())
                            : tr("Per-channel max |weight error|: %n layer(s) × output channels",
                                 nullptr, rowCount());
  p.drawText(QRect(plot.left(), 4, width() - 16, fm.height()), Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(title, Qt::ElideRight, width() - 16));
  p.drawText(QRect(plot.left(), plot.bottom() + 4, plot.width(), fm.height()),
             Qt::AlignLeft | Qt::AlignVCenter,
             fm.elidedText(tr("channel 0 → last (each row spans its own channel count)"),
                           Qt::ElideRight, plot.width()));

  if (image_.width() != plot.width() || image_.height() != rowCount()) rebuildImage();
  p.drawImage(plot, image_);

  auto rowRect = [&](int r) {
    const QRect a = cellRect(r, 0);
    return QRect(plot.left(), a.top(), plot.width(), std::max(1, cellRect(r, channelCount(r) - 1).bottom() - a.top() + 1));
  };
  if (hovered_ >= 0 && hovered_ != selected_) {
    p.setPen(QPen(QColor(255, 255, 255, 200), 1));
    p.setBrush(Qt::NoBrush);
    p.drawRect(rowRect(hovered_).adjusted(0, 0, -1, -1));
  }
  if (selected_ >= 0) {
    p.setPen(QPen(kSelection, 2));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRectF(rowRect(selected_)).adjusted(-1, -1, 0, 0));
  }

  // Legend: a vertical colour bar, best at the top (SQNR: high; error: low).
  const double top = metric_ == Metric::Sqnr ? max_ : min_;
  const double bottom = metric_ == Metric::Sqnr ? min_ : max_;
  const QRect bar(plot.right() + 12, plot.top(), 12, plot.height());
  QLinearGradient gradient(bar.topLeft(), bar.bottomLeft());
  for (int i = 0; i <= 8; ++i) gradient.setColorAt(i / 8.0, colorFor(top + (bottom - top) * i / 8.0));
  p.fillRect(bar, gradient);
  p.setPen(palette().mid().color());
  p.drawRect(bar.adjusted(0, 0, -1, -1));
  p.setPen(palette().text().color());
  const int tx = bar.right() + 4, tw = width() - tx - 2;
  auto label = [&](double v) {
    return metric_ == Metric::Sqnr ? QString::number(v, 'f', 0) : formatFloat(v);
  };
  p.drawText(QRect(tx, bar.top() - 2, tw, fm.height()), Qt::AlignLeft | Qt::AlignTop, label(top));
  p.drawText(QRect(tx, bar.bottom() - fm.height() + 2, tw, fm.height()),
             Qt::AlignLeft | Qt::AlignBottom, label(bottom));
  if (bar.height() > 4 * fm.height()) {
    p.drawText(QRect(tx, bar.center().y() - fm.height() / 2, tw, fm.height()),
               Qt::AlignLeft | Qt::AlignVCenter, label((top + bottom) / 2));
  }
  p.drawText(QRect(bar.left() - 4, plot.bottom() + 4, width() - bar.left() + 2, fm.height()),
             Qt::AlignLeft | Qt::AlignVCenter,
             metric_ == Metric::Sqnr ? tr("dB") : tr("|error|"));
}

}  // namespace ec::widgets
