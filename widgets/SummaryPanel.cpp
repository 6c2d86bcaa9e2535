#include "widgets/SummaryPanel.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QStackedWidget>
#include <QTreeView>
#include <QVBoxLayout>

#include "widgets/ItemViewFit.h"
#include "widgets/ModelSummaryModel.h"

namespace ec::widgets {

SummaryPanel::SummaryPanel(QWidget* parent)
    : QWidget(parent),
      stack_(new QStackedWidget(this)),
      placeholder_(new QLabel(tr("No model loaded."), this)),
      view_(new QTreeView(this)) {
  placeholder_->setAlignment(Qt::AlignCenter);
  placeholder_->setEnabled(false);

  view_->setObjectName(QStringLiteral("summaryView"));
  view_->setRootIsDecorated(false);
  view_->setUniformRowHeights(true);
  view_->setAlternatingRowColors(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->header()->setStretchLastSection(true);

  stack_->addWidget(placeholder_);
  stack_->addWidget(view_);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
}

SummaryPanel::~SummaryPanel() = default;

void SummaryPanel::setSummary(ec::report::ModelSummary summary) {
  auto model = std::make_unique<ModelSummaryModel>(std::move(summary));
  view_->setModel(model.get());
  // The view no longer references the old model: safe to drop it now.
  model_ = std::move(model);
  // Property sized to its longest label; Value takes the rest, long values elided
  // in the middle with the whole value as tooltip.
  fitColumnsToContents(view_);
  stack_->setCurrentWidget(view_);
}

void SummaryPanel::clear() {
  view_->setModel(nullptr);
  model_.reset();
  stack_->setCurrentWidget(placeholder_);
}

void SummaryPanel::changeEvent(QEvent* event) {
  if (event->type() == QEvent::LanguageChange) {
    placeholder_->setText(tr("No model loaded."));
    if (model_) model_->retranslate();  // rows and headers in the new language
  }
  QWidget::changeEvent(event);
}

}  // namespace ec::widgets
