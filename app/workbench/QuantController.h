// The workbench's quantisation area: Tools › Quantise… (and the panel's
// Re-quantise) run the quantiser on a JobRunner (QuantRunner.h) with the
// Quantisation panel's calibration data and keep-float marks; the outcome (an
// immutable quantised graph + QuantReport) fills the panel, and the graph view shows
// the float graph coloured by each op's output SQNR, or the quantised graph. Owns
// the panel, its dock, the job and the last outcome.
#pragma once

#include <memory>

#include <QObject>

class QDockWidget;
class QMenu;

namespace ec::widgets {
class QuantPanel;
}  // namespace ec::widgets

namespace ec::workbench {

class JobRunner;
class MainWindow;
struct QuantOutcome;

class QuantController : public QObject {
  Q_OBJECT

 public:
  explicit QuantController(MainWindow& window);

  ec::widgets::QuantPanel* panel() const { return quantPanel_; }
  QDockWidget* dock() const { return quantDock_; }
  bool isQuantizing() const;
  /// The last quantisation (null before the first, and after a new model).
  const std::shared_ptr<const QuantOutcome>& outcome() const { return quantOutcome_; }
  /// Adds Tools › Quantise… to `tools`.
  void addActions(QMenu* tools);
  /// Quantises the model shown (the optimised graph when there is one).
  void quantize();

 private:
  /// Shows the last quantisation in the graph view as the panel's graph mode says.
  void showQuantOutcome();

  MainWindow& w_;
  ec::widgets::QuantPanel* quantPanel_ = nullptr;
  QDockWidget* quantDock_ = nullptr;
  JobRunner* quant_ = nullptr;
  std::shared_ptr<const QuantOutcome> quantOutcome_;
};

}  // namespace ec::workbench
