// Per-layer SQNR as a bar chart (Qt Charts): one bar per quantised layer in
// graph order, output SQNR or weight SQNR. Hovering a bar names its layer;
// clicking it selects the layer (layerClicked); the selected layer's bar is
// drawn in the selection colour.
#pragma once

#include <QString>
#include <QStringList>
#include <QtCharts/QChartView>

#include "widgets/quant/QuantFormat.h"

class QBarSet;
class QBarSeries;
class QBarCategoryAxis;
class QValueAxis;

namespace ec::widgets {

class SqnrChart : public QChartView {
  Q_OBJECT

 public:
  enum class Metric { Output, Weight };

  explicit SqnrChart(QWidget* parent = nullptr);

  void setReport(QuantReportPtr report);
  void setMetric(Metric metric);
  Metric metric() const { return metric_; }

  /// Bars shown (one per layer) and the layer of bar `bar`.
  int barCount() const { return int(ops_.size()); }
  QString barOp(int bar) const { return ops_.value(bar); }
  /// The value bar `bar` is drawn with (dB, capped at kSqnrCapDb).
  double barValue(int bar) const;
  int barForOp(const QString& opName) const { return int(ops_.indexOf(opName)); }

  /// Marks bar `bar` (-1: none) as selected without emitting layerClicked.
  void setSelectedBar(int bar);
  int selectedBar() const { return selected_; }
  /// As if the user clicked bar `bar` (tests; the series' clicked signal ends here).
  void clickBar(int bar);

  /// Re-reads translated texts (on QEvent::LanguageChange).
  void retranslate();

 signals:
  void layerClicked(int bar, const QString& opName);

 private:
  void rebuild();

  QuantReportPtr report_;
  Metric metric_ = Metric::Output;
  QStringList ops_;
  QStringList types_;
  int selected_ = -1;
  QBarSet* set_ = nullptr;
  QBarSeries* series_ = nullptr;
  QBarCategoryAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
};

}  // namespace ec::widgets
