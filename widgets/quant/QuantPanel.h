// Dock content for quantisation: what the last run did (QuantReport) and the
// controls for the next one.
//
//   [Re-quantise] [Cancel] [progress]  calibration source  [Calibration ▾]  [x] per channel   Graph: [..]
//   summary: strategy, samples, model SQNR, top-1 agreement, ops in float, warnings
//   layer table (keep-float check boxes)  |  tabs: SQNR per layer (bar chart)
//                                         |        per-channel error (heatmap)
//                                         |        tensors (table + histogram with the clip range)
//
// The panel only reads immutable snapshots (a QuantReport and the float graph
// it came from); it never runs anything. It asks: requantizeRequested(),
// cancelRequested(), opActivated(name) when the user picks a layer in any of
// its views, graphModeChanged() for what the graph view should show. The
// window shows an op selected elsewhere with selectOp(), which highlights it in
// every view here without emitting opActivated.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

#include "core/ir/graph.h"
#include "core/quantize/quantizer.h"
#include "widgets/quant/QuantFormat.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QToolButton;
class QTreeView;

namespace ec::widgets {

class ChannelHeatmap;
class QuantLayerModel;
class QuantTensorModel;
class SqnrChart;
class TensorHistogram;

class QuantPanel : public QWidget {
  Q_OBJECT

 public:
  /// What the graph view shows after a run.
  enum class GraphMode { FloatBySqnr, Quantised };
  /// Calibration samples drawn when no .npy file is chosen.
  static constexpr int kRandomSamples = 32;

  explicit QuantPanel(QWidget* parent = nullptr);
  ~QuantPanel() override;

  /// Shows `report`, made from `floatGraph` (op indices and graph order come from it).
  void setReport(QuantReportPtr report, ec::ir::FrozenGraph floatGraph = {});
  /// Back to the "not quantised" placeholder (the keep-float marks stay).
  void clear();
  const QuantReportPtr& report() const { return report_; }
  const ec::ir::FrozenGraph& floatGraph() const { return floatGraph_; }

  /// Options for the next run: keep_float from the check boxes, per_channel, samples.
  ec::quantize::QuantizeOptions options() const;
  QStringList keepFloat() const;
  void setKeepFloat(const QStringList& ops);

  /// Calibration data for the next run: a .npy file, or empty for kRandomSamples random samples.
  void setCalibrationFile(const QString& path);
  QString calibrationFile() const { return calibrationFile_; }

  /// A run is in progress: Re-quantise off, Cancel and the progress bar on.
  void setRunning(bool running);
  bool isRunning() const { return running_; }
  /// Progress of the running run: `stage` ("calibrate", "report", "sensitivity"), done of total.
  void setProgress(const QString& stage, int done, int total);
  /// A one-line note under the controls (e.g. "cancelled", an error).
  void setStatus(const QString& text);

  GraphMode graphMode() const;
  void setGraphMode(GraphMode mode);

  /// Highlights op `opName` in every view (layer row, bar, heatmap row, its output
  /// tensor and histogram) without emitting opActivated. Empty clears.
  void selectOp(const QString& opName);
  QString selectedOp() const { return selectedOp_; }
  /// Selects tensor `name` in the tensor table and shows its histogram.
  void selectTensor(const QString& name);

  QuantLayerModel* layerModel() const { return layerModel_; }
  QuantTensorModel* tensorModel() const { return tensorModel_; }
  QTreeView* layerView() const { return layerView_; }
  QTreeView* tensorView() const { return tensorView_; }
  SqnrChart* chart() const { return chart_; }
  ChannelHeatmap* heatmap() const { return heatmap_; }
  TensorHistogram* histogram() const { return histogram_; }
  QTabWidget* tabs() const { return tabs_; }
  QPushButton* requantizeButton() const { return requantizeButton_; }
  QPushButton* cancelButton() const { return cancelButton_; }
  QProgressBar* progressBar() const { return progress_; }
  QLabel* calibrationLabel() const { return calibrationLabel_; }
  QLabel* summaryLabel() const { return summary_; }

 signals:
  /// The user picked op `opName` in one of the panel's views.
  void opActivated(const QString& opName);
  void requantizeRequested();
  void cancelRequested();
  void graphModeChanged(ec::widgets::QuantPanel::GraphMode mode);
  /// Texts were re-translated (the window re-titles the dock).
  void retranslated();

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void retranslateUi();
  void updateCalibrationLabel();
  void updateSummary();
  /// The user picked `opName` in view `from`: select it everywhere, tell the window.
  void activate(const QString& opName);
  void chooseCalibrationFile();

  QuantReportPtr report_;
  ec::ir::FrozenGraph floatGraph_;
  QString calibrationFile_;
  QString selectedOp_;
  QString status_;
  bool running_ = false;
  bool syncing_ = false;

  QuantLayerModel* layerModel_ = nullptr;
  QuantTensorModel* tensorModel_ = nullptr;
  QPushButton* requantizeButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* calibrationLabel_ = nullptr;
  QToolButton* calibrationButton_ = nullptr;
  QCheckBox* perChannel_ = nullptr;
  QLabel* graphLabel_ = nullptr;
  QComboBox* graphMode_ = nullptr;
  QLabel* summary_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* placeholder_ = nullptr;
  QTreeView* layerView_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QComboBox* chartMetric_ = nullptr;
  SqnrChart* chart_ = nullptr;
  QComboBox* heatmapMetric_ = nullptr;
  ChannelHeatmap* heatmap_ = nullptr;
  QTreeView* tensorView_ = nullptr;
  TensorHistogram* histogram_ = nullptr;
  QCheckBox* logScale_ = nullptr;
  QLabel* chartMetricLabel_ = nullptr;
  QLabel* chartHint_ = nullptr;
  QLabel* heatmapMetricLabel_ = nullptr;
};

}  // namespace ec::widgets
