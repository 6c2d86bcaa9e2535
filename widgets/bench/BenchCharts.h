// The Benchmark panel's Qt Charts, each over one runtime::Stats (core/runtime/stats.h):
// latency per iteration, the latency histogram with p50/p95/p99 marked, and
// the per-op time bar chart (top N ops). Series are exposed for tests.
#pragma once

#include <memory>
#include <vector>

#include <QtCharts/QChartView>

#include "core/ir/graph.h"
#include "core/runtime/stats.h"

class QLineSeries;
class QAreaSeries;
class QBarSet;
class QHorizontalBarSeries;
class QBarCategoryAxis;
class QValueAxis;

namespace ec::widgets {

using StatsPtr = std::shared_ptr<const ec::runtime::Stats>;

/// Latency (ms) of every timed run, in the order run; the mean as a dashed line.
class LatencyChart : public QChartView {
  Q_OBJECT

 public:
  explicit LatencyChart(QWidget* parent = nullptr);
  void setStats(const StatsPtr& stats);
  QLineSeries* latencySeries() const { return series_; }
  QLineSeries* meanSeries() const { return mean_; }
  void retranslate();

 private:
  QLineSeries* series_ = nullptr;
  QLineSeries* mean_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
};

/// Histogram of the timed runs' latencies (bins of equal width over [min, max])
/// with p50, p95 and p99 as vertical lines.
class LatencyHistogram : public QChartView {
  Q_OBJECT

 public:
  explicit LatencyHistogram(QWidget* parent = nullptr);
  void setStats(const StatsPtr& stats);
  /// Bin counts and edges of the last setStats() (bins + 1 edges).
  const std::vector<int>& counts() const { return counts_; }
  const std::vector<double>& edges() const { return edges_; }
  /// The step outline of the bars, and the marker line of "p50", "p95" or "p99".
  QLineSeries* outline() const { return outline_; }
  QLineSeries* marker(int index) const { return markers_[static_cast<std::size_t>(index)]; }
  static constexpr int kMarkers = 3;  // p50, p95, p99
  void retranslate();

 private:
  QLineSeries* outline_ = nullptr;
  QAreaSeries* area_ = nullptr;
  std::vector<QLineSeries*> markers_;
  QValueAxis* axisX_ = nullptr;
  QValueAxis* axisY_ = nullptr;
  std::vector<int> counts_;
  std::vector<double> edges_;
  StatsPtr stats_;
};

/// The slowest `topN` ops' mean time (ms), slowest at the top.
class OpTimeChart : public QChartView {
  Q_OBJECT

 public:
  explicit OpTimeChart(QWidget* parent = nullptr);
  void setStats(const StatsPtr& stats, int topN = 15);
  QBarSet* barSet() const { return set_; }
  /// The ops shown, in bar order (slowest last: horizontal bars grow upwards).
  const QStringList& ops() const { return ops_; }
  void retranslate();

 private:
  QHorizontalBarSeries* series_ = nullptr;
  QBarSet* set_ = nullptr;
  QBarCategoryAxis* axisY_ = nullptr;
  QValueAxis* axisX_ = nullptr;
  QStringList ops_;
};

/// Per op of `graph` (by op name): its mean time from the profile, NaN where the
/// profile has none (e.g. an activation fused into the op before it); ops run together
/// (a profile entry "a + b") both show the pair's time. For GraphView::setOpValues().
std::vector<double> opTimeValues(const ec::runtime::Stats& stats, const ec::ir::Graph& graph);

}  // namespace ec::widgets
