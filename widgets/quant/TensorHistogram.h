// Histogram of one quantised tensor's observed float values (the report's
// bins over [hist_min, hist_max]) with the clipping range chosen marked: the
// range's ends as lines, what falls outside it shaded. Linear or log counts.
// Hovering a bar shows its value range and count. Custom painted.
#pragma once

#include <QString>
#include <QWidget>

#include "widgets/quant/QuantFormat.h"

namespace ec::widgets {

class TensorHistogram : public QWidget {
  Q_OBJECT

 public:
  explicit TensorHistogram(QWidget* parent = nullptr);

  /// The report the tensors come from; clears the tensor shown.
  void setReport(QuantReportPtr report);
  /// Shows tensor `name` of the report (empty or unknown: nothing).
  void setTensor(const QString& name);
  QString tensor() const { return tensor_ ? QString::fromStdString(tensor_->tensor) : QString(); }
  const ec::quantize::TensorReport* tensorReport() const { return tensor_; }

  void setLogScale(bool on);
  bool logScale() const { return log_; }

  /// Value range of the x axis (the histogram and the clipping range, padded).
  double axisMin() const { return lo_; }
  double axisMax() const { return hi_; }
  /// Widget x of float value `v`, and the bin under widget point `pos` (-1: none).
  double xForValue(double v) const;
  int binAt(QPoint pos) const;
  QRect plotRect() const;

  QSize sizeHint() const override { return {420, 220}; }
  QSize minimumSizeHint() const override { return {200, 120}; }

 protected:
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;

 private:
  void updateAxis();

  QuantReportPtr report_;
  const ec::quantize::TensorReport* tensor_ = nullptr;
  bool log_ = true;
  double lo_ = 0, hi_ = 1;
};

}  // namespace ec::widgets
