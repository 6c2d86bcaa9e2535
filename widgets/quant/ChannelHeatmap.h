// Per-channel weight error of every quantised layer as a heatmap: one row per
// layer (graph order), one column per output channel. Each row is stretched to
// the full width, so a 32-channel and a 1280-channel layer are both readable;
// where a pixel covers several channels it shows the worst of them. Dark is
// bad on both metrics (low SQNR, high error); a legend maps colours to values.
// Hovering shows layer, channel and value; clicking a row selects its layer.
// Custom painted: thousands of cells, repainted from a cached image.
#pragma once

#include <limits>

#include <QImage>
#include <QWidget>

#include "widgets/quant/QuantFormat.h"

namespace ec::widgets {

class ChannelHeatmap : public QWidget {
  Q_OBJECT

 public:
  enum class Metric { Sqnr, MaxAbsError };

  /// A cell under a point: row (layer), channel and value; row -1 when none.
  struct Cell {
    int row = -1;
    int channel = -1;
    double value = std::numeric_limits<double>::quiet_NaN();
    bool valid() const { return row >= 0 && channel >= 0; }
  };

  explicit ChannelHeatmap(QWidget* parent = nullptr);

  void setReport(QuantReportPtr report);
  const QuantReportPtr& report() const { return report_; }
  void setMetric(Metric metric);
  Metric metric() const { return metric_; }

  /// Layers shown (report layers with per-channel values), in report order.
  int rowCount() const { return int(rows_.size()); }
  int channelCount(int row) const;
  QString rowOp(int row) const;
  int rowForOp(const QString& opName) const;
  /// Value of `channel` of `row` in the current metric (NaN when out of range).
  double value(int row, int channel) const;
  /// Lowest and highest value of the colour scale (the legend's ends).
  double scaleMin() const { return min_; }
  double scaleMax() const { return max_; }
  /// Colour of `value` on the current scale.
  QColor colorFor(double value) const;

  /// The cell under widget point `pos`.
  Cell cellAt(QPoint pos) const;
  /// Widget rectangle covering channel `channel` of `row` (at least one pixel wide).
  QRect cellRect(int row, int channel) const;
  /// The area the cells are painted in.
  QRect plotRect() const;

  /// Outlines `row` (-1: none) without emitting rowClicked.
  void setSelectedRow(int row);
  int selectedRow() const { return selected_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 signals:
  /// The user clicked row `row`, the layer `opName`.
  void rowClicked(int row, const QString& opName);

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  void rebuildScale();
  void rebuildImage();
  QString toolTipFor(const Cell& cell) const;
  /// Value normalised to [0, 1] with 0 = bad (dark) on either metric.
  double goodness(double value) const;

  QuantReportPtr report_;
  std::vector<const ec::quantize::LayerReport*> rows_;
  Metric metric_ = Metric::Sqnr;
  double min_ = 0, max_ = 1;
  QImage image_;  // one pixel row per layer, plotRect().width() columns
  int selected_ = -1;
  int hovered_ = -1;
};

}  // namespace ec::widgets
