// Dockable panel showing a ModelSummaryModel in a two-column table.
#pragma once

#include <memory>

#include <QWidget>

#include "core/report/model_summary.h"

class QTreeView;
class QLabel;
class QStackedWidget;

namespace ec::widgets {

class ModelSummaryModel;

class SummaryPanel : public QWidget {
  Q_OBJECT

 public:
  explicit SummaryPanel(QWidget* parent = nullptr);
  ~SummaryPanel() override;

  /// Replaces the shown summary (the panel owns the new model).
  void setSummary(ec::report::ModelSummary summary);
  /// Back to the "no model" state.
  void clear();
  /// The model shown, or null when nothing is loaded.
  const ModelSummaryModel* model() const { return model_.get(); }

 protected:
  /// QEvent::LanguageChange: the texts again, in the new language.
  void changeEvent(QEvent* event) override;

 private:
  QStackedWidget* stack_ = nullptr;
  QLabel* placeholder_ = nullptr;
  QTreeView* view_ = nullptr;
  std::unique_ptr<ModelSummaryModel> model_;
};

}  // namespace ec::widgets
