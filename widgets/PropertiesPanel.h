// Dock content describing the selected op: a PropertiesModel table (rows that
// name another op jump there when clicked) and a histogram of a constant
// tensor's values (the op's first constant input, or the tensor row clicked).
#pragma once

#include <QWidget>

#include "core/ir/graph.h"

class QLabel;
class QStackedWidget;
class QTreeView;

namespace ec::widgets {

class PropertiesModel;
class HistogramWidget;

class PropertiesPanel : public QWidget {
  Q_OBJECT

 public:
  explicit PropertiesPanel(QWidget* parent = nullptr);

  void setGraph(ec::ir::FrozenGraph graph);
  PropertiesModel* model() const { return model_; }
  /// Per-op extra section (PropertiesModel::setOpAnnotations); the op shown is redrawn.
  void setOpAnnotations(QString heading, std::vector<std::vector<std::pair<QString, QString>>> perOp);
  /// Name of the tensor whose histogram is shown ("" when none).
  QString histogramTensor() const;

 public slots:
  /// Describes op `op`; -1 shows the placeholder.
  void showOp(int op);

 signals:
  /// The user clicked a producer or consumer row: go to op `op`.
  void opActivated(int op);

 protected:
  /// QEvent::LanguageChange: the texts again, in the new language.
  void changeEvent(QEvent* event) override;

 private:
  void showHistogram(const QString& tensor);

  PropertiesModel* model_ = nullptr;
  QStackedWidget* stack_ = nullptr;
  QLabel* placeholder_ = nullptr;
  QTreeView* view_ = nullptr;
  QLabel* histogramTitle_ = nullptr;
  HistogramWidget* histogram_ = nullptr;
};

}  // namespace ec::widgets
